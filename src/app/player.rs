//! The gold player bird (SpaceBoids): a rapier body pushed by the keyboard, kept in the world by
//! walls, that the flock counts as one of its own and follows (or flees, key `F`). The library's
//! `FlockPlayer` makes the body a bird of the flock; this module flies it.

use super::camera::WorldCamera;
use super::camera::arrows::{ArrowTarget, Arrowed};
use super::render::SpecialBird;
use super::scene::{ActiveFlock, ActiveWorld, SceneConfig, SpawnScene};
use super::touch::{TouchSteer, steer_direction};
use bevy::prelude::*;
use bevy_rapier2d::dynamics::Velocity as BodyVelocity;
use bevy_rapier2d::prelude::{
    AdditionalMassProperties, Collider, ColliderMassProperties, CollisionGroups, Damping,
    ExternalForce, Group, LockedAxes, RigidBody,
};
use murmur_flock::player::PlayerSystems;
use murmur_flock::prelude::*;

/// The player's bird.
#[derive(Component)]
pub struct Player;

/// The walls' own collision group: the player meets them in a bounded world and passes them
/// in a wrapped one (where it is put back across the seam instead).
const WALLS: Group = Group::GROUP_8;

/// SpaceBoids' gold.
pub const GOLD: Color = Color::srgb_u8(255, 196, 0);

/// How the player flies, relative to the world's size so that it handles the same in a
/// 1280-pixel sky and in Vicsek's 5-unit box.
#[derive(Resource, Clone, Copy, Debug)]
pub struct PlayerTuning {
    /// Top speed in world widths per second.
    pub speed: f32,
    /// Linear damping per second: how quickly the bird reaches top speed and stops.
    pub damping: f32,
    /// Radius of the body, as a fraction of the world's width.
    pub radius: f32,
    /// Birds within this fraction of the world's width follow (or flee) the player; the rest
    /// only meet it as a flock mate (SpaceBoids: they see it within their sight range).
    pub lead_range: f32,
    /// Thrust (and so top speed) while Shift is held, as a multiple of the usual.
    pub boost: f32,
}

impl Default for PlayerTuning {
    fn default() -> Self {
        Self {
            speed: 0.2,
            damping: 3.5,
            radius: 0.005,
            lead_range: 0.17,
            boost: 2.0,
        }
    }
}

impl PlayerTuning {
    /// Thrust (px/s², the body has mass 1) for a world `width` wide.
    pub fn thrust(&self, width: f32) -> f32 {
        self.speed * width * self.damping
    }
}

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.init_resource::<PlayerTuning>()
        .add_systems(Startup, spawn_player.after(SpawnScene))
        .add_systems(Update, (thrust, switch_follow_flee))
        .add_systems(FixedUpdate, keep_in_world.before(PlayerSystems));
}

fn spawn_player(
    mut commands: Commands,
    config: Res<SceneConfig>,
    flock: Res<ActiveFlock>,
    tuning: Res<PlayerTuning>,
) {
    commands.spawn((
        Player,
        FlockPlayer::leading(flock.0, player_leader(&config, &tuning)),
        SpecialBird {
            colour: GOLD,
            scale: 2.0,
        },
        Arrowed {
            target: ArrowTarget::Player,
            colour: GOLD,
        },
        Transform::default(),
        flat_body(&config, &tuning),
    ));
    // Walls just outside the world rectangle.
    let (w, h) = (config.preset.world.width, config.preset.world.height);
    let t = 0.05 * w.max(h);
    let walls = CollisionGroups::new(WALLS, Group::ALL);
    for (x, y, hx, hy) in [
        (0.0, h / 2.0 + t, w / 2.0 + 2.0 * t, t),
        (0.0, -h / 2.0 - t, w / 2.0 + 2.0 * t, t),
        (w / 2.0 + t, 0.0, t, h / 2.0 + 2.0 * t),
        (-w / 2.0 - t, 0.0, t, h / 2.0 + 2.0 * t),
    ] {
        commands.spawn((
            RigidBody::Fixed,
            Collider::cuboid(hx, hy),
            walls,
            Transform::from_xyz(x, y, 0.0),
        ));
    }
}

/// The gold bird's body in a flat world: a rapier ball of mass 1, pushed by the keys' force and
/// slowed by damping, that does not turn.
pub fn flat_body(config: &SceneConfig, tuning: &PlayerTuning) -> impl Bundle {
    (
        RigidBody::Dynamic,
        Collider::ball(tuning.radius * config.preset.world.width),
        ColliderMassProperties::Density(0.0),
        AdditionalMassProperties::Mass(1.0),
        BodyVelocity::zero(),
        ExternalForce::default(),
        Damping {
            linear_damping: tuning.damping,
            angular_damping: 0.0,
        },
        LockedAxes::ROTATION_LOCKED,
        // Not an obstacle: the flock's look-ahead casts pass it by.
        CollisionGroups::new(murmur_physics::groups::WORLD, Group::ALL),
    )
}

/// Takes the flat body off the gold bird (the 3D scene flies it itself).
pub fn remove_flat_body(entity: &mut EntityCommands) {
    entity.remove::<(
        RigidBody,
        Collider,
        ColliderMassProperties,
        AdditionalMassProperties,
        BodyVelocity,
        ExternalForce,
        Damping,
        LockedAxes,
        CollisionGroups,
    )>();
}

/// How the flock follows the player: the preset's leader tuning, within the player's lead range.
pub fn player_leader(config: &SceneConfig, tuning: &PlayerTuning) -> LeaderParams {
    LeaderParams {
        follow_range: tuning.lead_range * config.preset.world.width,
        ..config.preset.leader
    }
}

/// The direction the keys ask for (WASD or arrows), unit length or zero.
pub fn key_direction(keys: &ButtonInput<KeyCode>) -> Vec2 {
    let mut d = Vec2::ZERO;
    let held = |a, b| keys.pressed(a) || keys.pressed(b);
    if held(KeyCode::KeyW, KeyCode::ArrowUp) {
        d.y += 1.0;
    }
    if held(KeyCode::KeyS, KeyCode::ArrowDown) {
        d.y -= 1.0;
    }
    if held(KeyCode::KeyD, KeyCode::ArrowRight) {
        d.x += 1.0;
    }
    if held(KeyCode::KeyA, KeyCode::ArrowLeft) {
        d.x -= 1.0;
    }
    d.normalize_or_zero()
}

/// True while Shift is held: the gold bird flies faster.
pub fn boosting(keys: &ButtonInput<KeyCode>) -> bool {
    keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight)
}

fn thrust(
    keys: Res<ButtonInput<KeyCode>>,
    touch: Option<Res<TouchSteer>>,
    tuning: Res<PlayerTuning>,
    config: Res<SceneConfig>,
    camera: Query<(&Camera, &GlobalTransform), With<WorldCamera>>,
    player: Single<(&mut ExternalForce, &Transform), With<Player>>,
) {
    let (mut force, at) = player.into_inner();
    let boost = if boosting(&keys) { tuning.boost } else { 1.0 };
    // A dragging finger steers towards itself; otherwise the keys.
    let direction = touch
        .zip(camera.single().ok())
        .and_then(|(t, camera)| steer_direction(&t, camera, at.translation.truncate()))
        .unwrap_or_else(|| key_direction(&keys));
    let f = direction * tuning.thrust(config.preset.world.width) * boost;
    if force.force != f {
        force.force = f;
    }
}

/// `F` switches the flock between following and fleeing the player.
fn switch_follow_flee(
    keys: Res<ButtonInput<KeyCode>>,
    mut leader: Single<&mut Leader, With<Player>>,
) {
    if keys.just_pressed(KeyCode::KeyF) {
        leader.params.mode = match leader.params.mode {
            LeaderMode::Follow => LeaderMode::Flee,
            _ => LeaderMode::Follow,
        };
        info!("player: the flock now {:?}s", leader.params.mode);
    }
}

/// A body that physics has thrown to a non-finite place is put back in the middle, at rest
/// (before the flock takes the player's place from it). In a wrapped world the body passes the
/// walls and is put back across the seam when it leaves the world.
fn keep_in_world(
    mut player: Single<(&mut Transform, &mut BodyVelocity, &mut CollisionGroups), With<Player>>,
    world: ActiveWorld,
) {
    let (transform, body, groups) = &mut *player;
    if !transform.translation.is_finite() || !body.linear.is_finite() {
        warn!("the player's body left the world; putting it back in the middle");
        transform.translation = Vec3::ZERO;
        **body = BodyVelocity::zero();
    }
    let Some(bounds) = world.bounds() else {
        return;
    };
    let filters = if bounds.wrapped {
        Group::ALL - WALLS
    } else {
        Group::ALL
    };
    if groups.filters != filters {
        groups.filters = filters;
    }
    let at = transform.translation.truncate();
    let wrapped = bounds.wrap(at);
    if wrapped != at {
        transform.translation.x = wrapped.x;
        transform.translation.y = wrapped.y;
    }
}
