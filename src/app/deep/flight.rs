//! The gold bird in 3D: W and S thrust forward and back, A and D turn it (under the orbit
//! camera: move it left and right as seen from the camera), Space and Ctrl climb and dive, Shift
//! boosts; it banks into its turns. It flies as the flat scene's body does (mass 1, thrust
//! against linear damping, the same tuning), kept in the world's box and above the ground,
//! integrated once per tick so that scripted flights are the same frame for frame.

use super::scenery::SceneFrame;
use super::view::{CameraMode, DeepCamera, DeepView};
use crate::app::player::{Player, PlayerTuning, boosting, flat_body, remove_flat_body};
use crate::app::render::SpecialBird;
use crate::app::scene::SceneConfig;
use bevy::prelude::*;
use murmur_flock::player::PlayerSystems;
use murmur_flock::prelude::*;

/// The gold bird's flight in the 3D scene.
#[derive(Component, Clone, Copy, Debug)]
pub struct Flight {
    /// Its velocity, world units a second.
    pub velocity: Vec3,
    /// Where it points, seen from above (unit, horizontal).
    pub heading: Vec3,
    /// Its turn rate about the vertical just now, radians a second (positive: left).
    pub turn_rate: f32,
}

impl Flight {
    /// Flying level along -z (into the world, away from the camera's start).
    pub fn new() -> Self {
        Self {
            velocity: Vec3::ZERO,
            heading: Vec3::NEG_Z,
            turn_rate: 0.0,
        }
    }

    /// Where it starts in a scene: in front of the camera's start, a little towards the
    /// world's near side, heading into the world.
    pub fn start(frame: &SceneFrame) -> Vec3 {
        Vec3::new(0.0, 0.0, 0.35 * frame.half.z)
    }

    /// Its heading, horizontal and of unit length.
    pub fn heading_flat(&self) -> Vec3 {
        Vec3::new(self.heading.x, 0.0, self.heading.z).normalize_or(Vec3::NEG_Z)
    }
}

impl Default for Flight {
    fn default() -> Self {
        Self::new()
    }
}

/// The gold bird's size in 3D, relative to a flock bird.
const GOLD_SCALE_3D: f32 = 3.0;
/// How quickly A and D turn the gold bird, radians a second.
const TURN_RATE: f32 = 1.8;
/// Most the gold bird banks, radians.
const MAX_BANK: f32 = 0.9;
/// How quickly its bank follows its turn, per second.
const BANK_EASE: f32 = 6.0;
/// How far inside the world's box and above the ground it stays, as a part of the span.
const INSIDE: f32 = 0.01;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, fit_body_to_space)
        .add_systems(FixedUpdate, fly.before(PlayerSystems).run_if(super::deep));
}

/// The keys' wish: forward (+) or back, turn left (+) or right, climb (+) or dive.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stick {
    /// W minus S.
    pub forward: f32,
    /// A minus D.
    pub left: f32,
    /// Space minus Ctrl.
    pub climb: f32,
}

impl Stick {
    /// What the held keys ask for (WASD or the arrows, Space, Ctrl).
    pub fn read(keys: &ButtonInput<KeyCode>) -> Self {
        let held = |a, b| (keys.pressed(a) || keys.pressed(b)) as i8 as f32;
        Self {
            forward: held(KeyCode::KeyW, KeyCode::ArrowUp)
                - held(KeyCode::KeyS, KeyCode::ArrowDown),
            left: held(KeyCode::KeyA, KeyCode::ArrowLeft)
                - held(KeyCode::KeyD, KeyCode::ArrowRight),
            climb: held(KeyCode::Space, KeyCode::Space)
                - held(KeyCode::ControlLeft, KeyCode::ControlRight),
        }
    }
}

/// The gold bird has the body of the scene it is in: the flat scene's rapier body, or the 3D
/// scene's [`Flight`] (swapped when the panel moves between the two).
fn fit_body_to_space(
    mut commands: Commands,
    space: Option<Res<State<super::Space>>>,
    config: Res<SceneConfig>,
    tuning: Res<PlayerTuning>,
    frame: Option<Res<SceneFrame>>,
    mut player: Query<(Entity, Has<Flight>, Option<&mut SpecialBird>), With<Player>>,
) {
    let deep = space.is_some_and(|s| *s.get() == super::Space::Deep);
    for (entity, flying, special) in &mut player {
        // Larger in 3D, where it is seen from behind among its flock.
        let scale = if deep { GOLD_SCALE_3D } else { 2.0 };
        if let Some(mut special) = special
            && special.scale != scale
        {
            special.scale = scale;
        }
        let mut entity = commands.entity(entity);
        if deep && !flying {
            let Some(frame) = frame.as_deref() else {
                return;
            };
            remove_flat_body(&mut entity);
            let start = Flight::start(frame);
            entity.insert((Flight::new(), Bank(0.0), Transform::from_translation(start)));
        } else if !deep && flying {
            entity.remove::<(Flight, Bank)>();
            entity.insert((flat_body(&config, &tuning), Transform::default()));
        }
    }
}

/// One tick of the gold bird's flight.
#[allow(clippy::too_many_arguments)]
fn fly(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    tuning: Res<PlayerTuning>,
    config: Res<SceneConfig>,
    frame: Option<Res<SceneFrame>>,
    view: Res<DeepView>,
    camera: Query<&Transform, (With<DeepCamera>, Without<Player>)>,
    mut player: Query<(&mut Transform, &mut Flight, &mut Bank), With<Player>>,
) {
    let Some(frame) = frame else { return };
    let Ok((mut transform, mut flight, mut bank)) = player.single_mut() else {
        return;
    };
    let dt = time.delta_secs();
    let stick = Stick::read(&keys);
    let boost = if boosting(&keys) { tuning.boost } else { 1.0 };
    let thrust = tuning.thrust(config.preset.world.width) * boost;
    let old_heading = flight.heading_flat();
    let camera = camera
        .single()
        .ok()
        .filter(|_| view.mode == CameraMode::Orbit);
    let direction = match camera {
        // As seen from the orbit camera: forward is away from it, left is its left.
        Some(camera) => {
            let forward =
                Vec3::new(camera.forward().x, 0.0, camera.forward().z).normalize_or(Vec3::NEG_Z);
            let left = Vec3::Y.cross(forward);
            forward * stick.forward + left * stick.left + Vec3::Y * stick.climb
        }
        None => {
            let turn = stick.left * TURN_RATE;
            flight.heading = Quat::from_rotation_y(turn * dt) * flight.heading_flat();
            flight.heading_flat() * stick.forward + Vec3::Y * stick.climb
        }
    };
    let accel = direction.normalize_or_zero() * thrust - flight.velocity * tuning.damping;
    flight.velocity += accel * dt;
    let mut at = transform.translation + flight.velocity * dt;

    // Under the orbit camera the bird turns to where it flies.
    if camera.is_some() {
        let along = Vec3::new(flight.velocity.x, 0.0, flight.velocity.z);
        if along.length() > 0.05 * tuning.speed * config.preset.world.width {
            flight.heading = old_heading.slerp(along.normalize(), (8.0 * dt).min(1.0));
        }
    }
    let heading = flight.heading_flat();
    let turned = old_heading.cross(heading).y.clamp(-1.0, 1.0).asin();
    flight.turn_rate = if dt > 0.0 { turned / dt } else { 0.0 };
    let wanted = (flight.turn_rate / TURN_RATE * MAX_BANK).clamp(-MAX_BANK, MAX_BANK);
    bank.0 += (wanted - bank.0) * (1.0 - (-BANK_EASE * dt).exp());

    // Kept inside the box (or across the seam of a wrapped world) and above the ground.
    let inside = frame.half - Vec3::splat(INSIDE * frame.span);
    let wrapped = config.preset.edges.mode == EdgeMode::Wrap;
    for axis in [0, 2] {
        if wrapped {
            let size = 2.0 * frame.half[axis];
            if at[axis] > frame.half[axis] {
                at[axis] -= size;
            } else if at[axis] < -frame.half[axis] {
                at[axis] += size;
            }
        } else if at[axis].abs() > inside[axis] {
            at[axis] = at[axis].clamp(-inside[axis], inside[axis]);
            flight.velocity[axis] = 0.0;
        }
    }
    let low = (frame.ground + INSIDE * frame.span).max(-inside.y);
    if at.y < low || at.y > inside.y {
        at.y = at.y.clamp(low, inside.y.max(low));
        flight.velocity.y = 0.0;
    }
    if !at.is_finite() || !flight.velocity.is_finite() {
        warn!("the gold bird left the world; putting it back in the middle");
        at = Vec3::ZERO;
        flight.velocity = Vec3::ZERO;
    }
    transform.translation = at;
    transform.rotation = Quat::from_rotation_arc(Vec3::NEG_Z, heading);
}
