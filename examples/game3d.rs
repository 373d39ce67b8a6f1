//! A small 3D game from the library crates alone: your own glider (a plain entity you fly with
//! WASD, Space and Ctrl) that the flock counts as one of its own and follows, over a ground with
//! a hill and columns that the flock flies round and never enters. The camera rides behind the
//! glider.
//!
//! `cargo run --example game3d`

use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use murmur_flock::prelude3d::*;

/// The player's glider.
#[derive(Component)]
struct Glider {
    /// Its heading (unit, horizontal), turned by A and D.
    heading: Vec3,
}

/// The glider's speed, in world units a second.
const SPEED: f32 = 150.0;

/// The ground's height.
const GROUND: f32 = -200.0;

fn main() -> AppExit {
    App::new()
        .add_plugins((DefaultPlugins, FlockPlugins::default()))
        .insert_resource(ClearColor(Color::srgb(0.55, 0.7, 0.9)))
        .add_systems(Startup, setup)
        .add_systems(Update, (fly_glider, follow_glider).chain())
        .run()
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        Camera3d::default(),
        // A tonemapping without a lookup table (this workspace's Bevy leaves the tables out).
        Tonemapping::AcesFitted,
        Transform::from_xyz(0.0, 0.0, 600.0),
        DistanceFog {
            color: Color::srgb(0.55, 0.7, 0.9),
            falloff: FogFalloff::Linear {
                start: 600.0,
                end: 2200.0,
            },
            ..default()
        },
    ));
    commands.spawn((
        DirectionalLight {
            shadow_maps_enabled: true,
            illuminance: 8000.0,
            ..default()
        },
        Transform::from_xyz(1.0, 3.0, 2.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 400.0,
        ..default()
    });

    let preset = Preset::load("reynolds3d").expect("a built-in preset");
    let mut params = preset.flock_params();
    // An open sky: no edges, the ground and the solids keep the flock in shape.
    params.edges.mode = EdgeMode::None;
    let flock = commands.spawn_flock(params, 1500, 3);

    // The glider: the game's own entity, drawn gold; the flock follows it within 300 units.
    commands.spawn((
        Glider {
            heading: Vec3::NEG_Z,
        },
        FlockPlayer::leading(
            flock,
            LeaderParams {
                follow_range: 300.0,
                ..preset.leader
            },
        ),
        Highlight {
            colour: Color::srgb_u8(255, 196, 0),
            size: 24.0,
        },
        Transform::from_xyz(0.0, 0.0, 200.0),
    ));

    // The ground, a hill and two columns: solids the flock flies round, drawn as meshes.
    let grass = materials.add(Color::srgb(0.35, 0.5, 0.3));
    let stone = materials.add(Color::srgb(0.55, 0.5, 0.45));
    commands.spawn((
        FlockSolid(Solid::Ground { height: GROUND }),
        Mesh3d(meshes.add(Plane3d::default().mesh().size(6000.0, 6000.0))),
        MeshMaterial3d(grass.clone()),
        Transform::from_xyz(0.0, GROUND, 0.0),
    ));
    let hill = Vec3::new(250.0, GROUND - 60.0, -300.0);
    commands.spawn((
        FlockSolid(Solid::Sphere {
            centre: hill,
            radius: 180.0,
        }),
        Mesh3d(meshes.add(Sphere::new(180.0).mesh().uv(48, 24))),
        MeshMaterial3d(grass),
        Transform::from_translation(hill),
    ));
    for (x, z) in [(-250.0, -150.0), (-100.0, -500.0)] {
        let half = Vec3::new(25.0, 200.0, 25.0);
        let centre = Vec3::new(x, GROUND + half.y, z);
        commands.spawn((
            FlockSolid(Solid::Cuboid {
                centre,
                half,
                yaw: 0.3,
            }),
            Mesh3d(meshes.add(Cuboid::from_size(half * 2.0))),
            MeshMaterial3d(stone.clone()),
            Transform::from_translation(centre).with_rotation(Quat::from_rotation_y(0.3)),
        ));
    }
}

/// W and S speed up and slow down, A and D turn, Space and Ctrl climb and dive.
fn fly_glider(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut glider: Single<(&mut Glider, &mut Transform)>,
) {
    let (glider, transform) = &mut *glider;
    let dt = time.delta_secs();
    let held = |k| keys.pressed(k);
    let turn = (held(KeyCode::KeyA) as i8 - held(KeyCode::KeyD) as i8) as f32;
    glider.heading = Quat::from_rotation_y(turn * 1.5 * dt) * glider.heading;
    let speed =
        SPEED * (1.0 + 0.8 * (held(KeyCode::KeyW) as i8 - held(KeyCode::KeyS) as i8) as f32);
    let climb = (held(KeyCode::Space) as i8 - held(KeyCode::ControlLeft) as i8) as f32 * 100.0;
    transform.translation += (glider.heading * speed + Vec3::Y * climb) * dt;
    transform.translation.y = transform.translation.y.max(GROUND + 20.0);
    transform.look_to(glider.heading, Vec3::Y);
}

/// The camera behind and above the glider, looking where it flies.
fn follow_glider(
    glider: Single<(&Glider, &Transform), Without<Camera3d>>,
    mut camera: Single<&mut Transform, With<Camera3d>>,
) {
    let (glider, at) = *glider;
    let eye = at.translation - glider.heading * 220.0 + Vec3::Y * 90.0;
    camera.translation = eye.max(Vec3::new(f32::MIN, GROUND + 10.0, f32::MIN));
    camera.look_at(at.translation + glider.heading * 100.0, Vec3::Y);
}
