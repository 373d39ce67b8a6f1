//! The 3D scene's camera: a chase camera behind and above the gold bird (smoothed, never in the
//! ground) and, with `V`, an orbit camera about the flock (left drag orbits, the wheel zooms,
//! middle drag pans, Home frames the whole flock). Fog thickens with distance so depth reads.

use super::Space;
use super::flight::Flight;
use super::scenery::{SceneFrame, Sky};
use crate::app::camera::arrows::{ArrowTarget, Arrowed, EdgeArrows, arrow_towards, window_rect};
use crate::app::camera::{Playfield, SCREEN_LAYER, WORLD_LAYER};
use crate::app::player::Player;
use crate::app::scene::SceneConfig;
use bevy::camera::visibility::RenderLayers;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::pbr::{DistanceFog, FogFalloff};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;
use murmur_flock::pointer::centre_of_3d_flock;
use murmur_flock::prelude::*;

/// The 3D scene's camera.
#[derive(Component)]
pub struct DeepCamera;

/// How the 3D camera moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CameraMode {
    /// Behind and above the gold bird, looking where it flies.
    #[default]
    Chase,
    /// About a point (the flock's centre, unless panned), turned by the mouse.
    Orbit,
    /// From the ground, as a person watches a murmuration: standing still, turning to keep the
    /// flock in the middle of the picture (the starling scene's first camera).
    Watch,
}

/// The 3D camera's settings and where it is.
#[derive(Resource, Clone, Copy, Debug)]
pub struct DeepView {
    /// Chase or orbit.
    pub mode: CameraMode,
    /// The orbit's turn about the vertical, in radians (0: looking along -z).
    pub yaw: f32,
    /// The orbit's height angle, in radians (positive: looking down).
    pub pitch: f32,
    /// The orbit camera's distance from its centre, as a part of the world's span.
    pub distance: f32,
    /// The orbit's centre: the world's at first, the flock's when the orbit camera is taken
    /// up or framed (Home), moved by panning.
    pub centre: Vec3,
}

impl Default for DeepView {
    fn default() -> Self {
        Self {
            mode: CameraMode::Chase,
            yaw: 0.5,
            pitch: 0.35,
            distance: 1.6,
            centre: Vec3::ZERO,
        }
    }
}

/// The chase camera sits this far behind the gold bird, as a part of the world's span...
const CHASE_BACK: f32 = 0.3;
/// ...and this far above it.
const CHASE_UP: f32 = 0.1;
/// How quickly the cameras close on where they should be, per second.
const STIFFNESS: f32 = 5.0;
/// The lowest a camera goes: this part of the span above the ground.
const ABOVE_GROUND: f32 = 0.01;
/// Vertical field of view.
const FOV: f32 = std::f32::consts::FRAC_PI_3;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DeepView>()
        .init_resource::<EguiWantsInput>()
        .add_systems(
            Update,
            (
                spawn_camera,
                (switch_mode, orbit_mouse, frame_flock),
                (place_camera, fit_viewport),
                find_arrows,
            )
                .chain()
                .run_if(super::deep),
        );
}

/// The 3D camera, drawn under the app's screen camera (which draws only the UI in 3D).
/// It starts where its mode puts it (so that a click in the first frames meets the ground the
/// picture shows), the orbit about the world's centre.
fn spawn_camera(
    mut commands: Commands,
    cameras: Query<(), With<DeepCamera>>,
    config: Res<SceneConfig>,
    mut view: ResMut<DeepView>,
) {
    if !cameras.is_empty() {
        return;
    }
    let frame = SceneFrame::of(&config);
    view.centre = Vec3::ZERO;
    if frame.dusk {
        view.mode = CameraMode::Watch;
    } else if view.mode == CameraMode::Watch {
        view.mode = CameraMode::Chase;
    }
    let span = frame.span;
    let (eye, look) = wanted(&view, &frame, None, None);
    commands.spawn((
        Camera3d::default(),
        DeepCamera,
        DespawnOnExit(Space::Deep),
        Camera {
            order: -1,
            clear_color: ClearColorConfig::Custom(Sky::of(&frame).horizon),
            ..default()
        },
        Projection::Perspective(PerspectiveProjection {
            fov: FOV,
            near: 0.002 * span,
            far: 100.0 * span,
            ..default()
        }),
        // A tonemapping without a lookup table (this workspace's Bevy leaves the tables out).
        Tonemapping::AcesFitted,
        // The screen camera draws over it with no multisampling: the same here.
        Msaa::Off,
        fog(&frame),
        RenderLayers::from_layers(&[SCREEN_LAYER, WORLD_LAYER]),
        Transform::from_translation(eye).looking_at(look, Vec3::Y),
    ));
}

/// Where the camera should be and what it looks at: behind the gold bird (`bird`: its place
/// and heading; its start before it flies), about the orbit's centre, or from the ground
/// towards the flock's centre (`flock`); above the ground.
fn wanted(
    view: &DeepView,
    frame: &SceneFrame,
    bird: Option<(Vec3, Vec3)>,
    flock: Option<Vec3>,
) -> (Vec3, Vec3) {
    let span = frame.span;
    let (eye, look) = match view.mode {
        CameraMode::Watch => (
            Vec3::new(0.0, frame.ground, 0.6 * span),
            flock.unwrap_or(Vec3::ZERO),
        ),
        CameraMode::Chase => {
            let (at, heading) = bird.unwrap_or((Flight::start(frame), Vec3::NEG_Z));
            (
                at - heading * CHASE_BACK * span + Vec3::Y * CHASE_UP * span,
                at + heading * 0.15 * span,
            )
        }
        CameraMode::Orbit => {
            let back = Quat::from_euler(EulerRot::YXZ, view.yaw, -view.pitch, 0.0) * Vec3::Z;
            (view.centre + back * view.distance * span, view.centre)
        }
    };
    let floor = frame.ground + ABOVE_GROUND * span;
    (Vec3::new(eye.x, eye.y.max(floor), eye.z), look)
}

/// Fog from a little beyond the world to far away, the sky's colour at the horizon.
fn fog(frame: &SceneFrame) -> DistanceFog {
    let span = frame.span;
    DistanceFog {
        color: Sky::of(frame).horizon,
        falloff: FogFalloff::Linear {
            start: 1.5 * span,
            end: 8.0 * span,
        },
        ..default()
    }
}

/// `V` switches between the chase and the orbit camera (which then turns about the flock's
/// centre).
fn switch_mode(
    keys: Res<ButtonInput<KeyCode>>,
    flocks: Query<&FlockColumns<Vec3>>,
    mut view: ResMut<DeepView>,
) {
    if keys.just_pressed(KeyCode::KeyV) {
        match view.mode {
            CameraMode::Chase | CameraMode::Watch => take_up_orbit(&mut view, &flocks),
            CameraMode::Orbit => {
                view.mode = CameraMode::Chase;
                info!("camera: {:?}", view.mode);
            }
        }
    }
}

/// The orbit camera, turning about the flock's centre (when the chase camera hands over).
pub(super) fn take_up_orbit(view: &mut DeepView, flocks: &Query<&FlockColumns<Vec3>>) {
    if view.mode == CameraMode::Orbit {
        return;
    }
    view.mode = CameraMode::Orbit;
    info!("camera: {:?}", view.mode);
    if let Some(centre) = centre_of_3d_flock(flocks.iter()) {
        view.centre = centre;
    }
}

/// Left drag orbits (a drag is no click: the leader stays), the wheel zooms, middle drag pans.
fn orbit_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    wants: Res<EguiWantsInput>,
    frame: Option<Res<SceneFrame>>,
    camera: Query<&Transform, With<DeepCamera>>,
    flocks: Query<&FlockColumns<Vec3>>,
    mut view: ResMut<DeepView>,
) {
    let Some(frame) = frame else { return };
    if wants.wants_any_pointer_input() {
        return;
    }
    let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    if scroll.delta.y != 0.0 {
        zoom(&mut view, 0.9f32.powf(scroll.delta.y.clamp(-5.0, 5.0)));
        take_up_orbit(&mut view, &flocks);
    }
    let d = motion.delta;
    if d == Vec2::ZERO {
        return;
    }
    if buttons.pressed(MouseButton::Left) && !shift {
        turn(&mut view, d);
        take_up_orbit(&mut view, &flocks);
    }
    if buttons.pressed(MouseButton::Middle)
        && let Ok(camera) = camera.single()
    {
        let per_pixel = view.distance * frame.span * 0.0015;
        let shift = (camera.left() * d.x + camera.up() * d.y) * per_pixel;
        take_up_orbit(&mut view, &flocks);
        view.centre += shift;
    }
}

/// Turns the orbit by a drag of `d` pixels (a mouse's or a finger's).
pub(super) fn turn(view: &mut DeepView, d: Vec2) {
    view.yaw -= d.x * 0.006;
    view.pitch = (view.pitch + d.y * 0.006).clamp(-0.2, 1.5);
}

/// Brings the orbit camera `factor` times as close (the wheel's notch, a pinch).
pub(super) fn zoom(view: &mut DeepView, factor: f32) {
    view.distance = (view.distance * factor).clamp(0.05, 8.0);
}

/// Home: the orbit camera frames the whole flock.
fn frame_flock(
    keys: Res<ButtonInput<KeyCode>>,
    frame: Option<Res<SceneFrame>>,
    flocks: Query<&FlockColumns<Vec3>>,
    mut view: ResMut<DeepView>,
) {
    let Some(frame) = frame else { return };
    if !keys.just_pressed(KeyCode::Home) {
        return;
    }
    view.mode = CameraMode::Orbit;
    let Some(centre) = centre_of_3d_flock(flocks.iter()) else {
        return;
    };
    view.centre = centre;
    // The farthest bird from the centre sets the distance that shows the flock whole.
    let reach = flocks.iter().find(|f| !f.is_empty()).map_or(0.0, |f| {
        let birds = f.birds().columns();
        (0..f.len())
            .map(|k| birds.pos_of(k).distance(centre))
            .fold(0.0f32, f32::max)
    });
    view.distance = (reach * 1.3 / (FOV * 0.5).tan() / frame.span).clamp(0.05, 8.0);
}

/// Moves the camera where its mode puts it, smoothly.
fn place_camera(
    // Real time: the camera moves while the flock is paused too.
    time: Res<Time<Real>>,
    frame: Option<Res<SceneFrame>>,
    player: Query<(&Transform, &Flight), (With<Player>, Without<DeepCamera>)>,
    view: Res<DeepView>,
    flocks: Query<&FlockColumns<Vec3>>,
    mut camera: Query<(&mut Transform, &mut DistanceFog, &mut Camera), With<DeepCamera>>,
) {
    let Some(frame) = frame else { return };
    let Ok((mut transform, mut fog_now, mut lens)) = camera.single_mut() else {
        return;
    };
    let span = frame.span;
    if frame.is_changed() {
        *fog_now = fog(&frame);
        lens.clear_color = ClearColorConfig::Custom(Sky::of(&frame).horizon);
    }
    let flock = (view.mode == CameraMode::Watch)
        .then(|| centre_of_3d_flock(flocks.iter()))
        .flatten();
    let ease = 1.0 - (-STIFFNESS * time.delta_secs().min(0.1)).exp();
    let bird = player
        .single()
        .ok()
        .map(|(t, flight)| (t.translation, flight.heading_flat()));
    let (eye, look) = wanted(&view, &frame, bird, flock);
    let floor = frame.ground + ABOVE_GROUND * span;
    let smoothed = transform.translation.lerp(eye, ease);
    transform.translation = Vec3::new(smoothed.x, smoothed.y.max(floor), smoothed.z);
    // Look at the target as seen from here (the look point itself is not smoothed, so the
    // target stays in the middle of the picture while the camera catches up).
    let up = Vec3::Y;
    if (look - transform.translation).cross(up).length_squared() > 1e-8 {
        transform.look_at(look, up);
    }
}

/// The 3D picture fills the playfield: the window less the side panel when it is open.
fn fit_viewport(
    playfield: Res<Playfield>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Query<&mut Camera, With<DeepCamera>>,
) {
    let Ok(mut camera) = camera.single_mut() else {
        return;
    };
    let field = playfield.in_pixels(window.scale_factor());
    let full = Vec2::new(
        window.physical_width() as f32,
        window.physical_height() as f32,
    );
    let at = Vec2::new(field.left, field.top).clamp(Vec2::ZERO, full - 1.0);
    let size = (full - at - Vec2::new(field.right, field.bottom)).max(Vec2::ONE);
    let wanted = (at.as_uvec2(), size.as_uvec2());
    let now = camera
        .viewport
        .as_ref()
        .map_or((UVec2::ZERO, full.as_uvec2()), |v| {
            (v.physical_position, v.physical_size)
        });
    if now != wanted {
        camera.viewport = Some(bevy::camera::Viewport {
            physical_position: wanted.0,
            physical_size: wanted.1,
            ..default()
        });
    }
}

/// An arrow at the playfield's edge for each of the gold bird, the leader and the hunters that
/// the camera does not see (behind it too: the arrow points the way to turn).
#[allow(clippy::type_complexity)]
fn find_arrows(
    playfield: Res<Playfield>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<DeepCamera>>,
    targets: Query<(Option<&Transform>, Option<&Position<Vec3>>, &Arrowed)>,
    mut arrows: ResMut<EdgeArrows>,
) {
    let Ok((camera, at)) = camera.single() else {
        return;
    };
    let logical = Vec2::new(window.width().max(1.0), window.height().max(1.0));
    let rect = window_rect(&playfield, logical);
    let to_view = at.affine().inverse();
    let mut found = Vec::new();
    for (transform, position, &arrowed) in &targets {
        let player = arrowed.target == ArrowTarget::Player;
        let p = match (player, transform, position) {
            (true, Some(t), _) => t.translation,
            (_, _, Some(p)) => p.0,
            _ => continue,
        };
        let in_view = to_view.transform_point3(p);
        // The viewport's corner in the window (the picture keeps clear of the panel).
        let corner = camera.logical_viewport_rect().map_or(Vec2::ZERO, |r| r.min);
        let on_screen = if in_view.z < 0.0 {
            camera.world_to_viewport(at, p).ok().map(|s| s + corner)
        } else {
            None
        };
        let to = match on_screen {
            Some(s) if rect.contains(s) => continue,
            Some(s) => s,
            // Behind the camera: the way it lies, seen from the camera (screen y down).
            None => {
                let side = Vec2::new(in_view.x, -in_view.y).normalize_or(Vec2::Y);
                rect.center() + side * logical.length()
            }
        };
        found.push(arrow_towards(arrowed, rect.center(), to, rect));
    }
    if arrows.0 != found {
        arrows.0 = found;
    }
}
