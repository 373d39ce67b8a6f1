//! A small game from the library crates alone: your own ship (a rapier body you push with WASD
//! or the arrow keys) that the flock counts as one of its own and follows, and rocks in a rapier
//! world that the flock sees ahead and steers round.
//!
//! `cargo run --example game`

use bevy::prelude::*;
use bevy_rapier2d::prelude::*;
// Both preludes name a component `Velocity`: murmur_flock's is a bird's (world units a tick),
// rapier's a body's (world units a second). Glob imports of both leave the bare name ambiguous,
// so a game names the one it uses apart.
use bevy_rapier2d::prelude::Velocity as BodyVelocity;
use murmur_flock::prelude::*;
use murmur_physics::prelude::*;

/// The player's ship.
#[derive(Component)]
struct Ship;

/// Thrust (world units per second squared, the ship has mass 1).
const THRUST: f32 = 900.0;

/// The ship's top speed (world units per second): past it, thrust stops pushing.
const TOP_SPEED: f32 = 400.0;

fn main() -> AppExit {
    App::new()
        .add_plugins((
            DefaultPlugins,
            FlockPlugins::default(),
            // Rapier steps once per flock tick, without gravity.
            FlockRapierPlugin {
                substeps: 1,
                ..default()
            },
            FlockPhysicsPlugin::default(),
        ))
        .add_systems(Startup, setup)
        .add_systems(Update, steer_ship)
        .run()
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.spawn(Camera2d);
    let preset = Preset::load("spaceboids").expect("a built-in preset");
    let params = preset.flock_params();
    let world = params.world_size;
    let flock = commands.spawn_flock(params, 800, 3);

    // The ship: the game's own entity, drawn gold above the flock. The flock follows it within
    // 250 units, as the preset's leader settings say.
    commands.spawn((
        Ship,
        FlockPlayer::leading(
            flock,
            LeaderParams {
                follow_range: 250.0,
                ..preset.leader
            },
        ),
        Highlight {
            colour: Color::srgb_u8(255, 196, 0),
            size: 16.0,
        },
        RigidBody::Dynamic,
        BodyVelocity::zero(),
        Collider::ball(7.0),
        ColliderMassProperties::Density(0.0),
        AdditionalMassProperties::Mass(1.0),
        ExternalForce::default(),
        Damping {
            linear_damping: 3.0,
            angular_damping: 0.0,
        },
        LockedAxes::ROTATION_LOCKED,
        // Not an obstacle for the flock's look-ahead.
        CollisionGroups::new(murmur_physics::groups::WORLD, Group::ALL),
    ));

    // Rocks: obstacles the birds steer round and the ship bumps into.
    let rock = materials.add(Color::srgb_u8(90, 80, 70));
    for (x, y, radius) in [
        (-300.0, 120.0, 60.0),
        (250.0, -80.0, 80.0),
        (0.0, 220.0, 40.0),
    ] {
        let body = spawn_obstacle(&mut commands, Obstacle::Circle { x, y, radius });
        commands.entity(body).insert((
            Mesh2d(meshes.add(Circle::new(radius))),
            MeshMaterial2d(rock.clone()),
        ));
    }
    // Walls just outside the world keep the ship in.
    let t = 40.0;
    for (x, y, hx, hy) in [
        (0.0, world.y / 2.0 + t, world.x / 2.0 + t, t),
        (0.0, -world.y / 2.0 - t, world.x / 2.0 + t, t),
        (world.x / 2.0 + t, 0.0, t, world.y / 2.0 + t),
        (-world.x / 2.0 - t, 0.0, t, world.y / 2.0 + t),
    ] {
        commands.spawn((
            RigidBody::Fixed,
            Collider::cuboid(hx, hy),
            CollisionGroups::new(murmur_physics::groups::WORLD, Group::ALL),
            Transform::from_xyz(x, y, 0.0),
        ));
    }
}

fn steer_ship(
    keys: Res<ButtonInput<KeyCode>>,
    mut ship: Single<(&mut ExternalForce, &BodyVelocity), With<Ship>>,
) {
    let held = |a, b| keys.pressed(a) || keys.pressed(b);
    let mut d = Vec2::ZERO;
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
    let (force, body) = &mut *ship;
    let push = d.normalize_or_zero();
    // Thrust along the way it already flies fast enough adds nothing.
    let too_fast = body.linear.length() > TOP_SPEED && push.dot(body.linear) > 0.0;
    force.force = if too_fast { Vec2::ZERO } else { push * THRUST };
}
