//! Predators: `K` makes the gold player a predator the flock flees (and back), `X` lets a
//! hunting predator loose that chases the nearest bird (the status line counts the birds it
//! catches). A faint ring shows each predator's range.

use super::camera::WORLD_LAYER;
use super::camera::arrows::{ArrowTarget, Arrowed};
use super::player::{Player, PlayerTuning, player_leader};
use super::render::SpecialBird;
use super::scene::{ActiveFlock, SceneConfig, SpawnScene};
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use murmur_flock::prelude::*;

/// The hunting predator let loose with `X`.
#[derive(Component)]
pub struct Hawk;

/// The hunter's colour.
/// The hunter's red.
pub const HAWK_RED: Color = Color::srgb_u8(190, 30, 30);

/// Adds this module's systems (the rings are drawn by [`rings_plugin`]).
pub fn plugin(app: &mut App) {
    app.init_resource::<PlayerTuning>()
        .add_systems(Startup, start_hawk.after(SpawnScene))
        .add_systems(Update, (toggle_player_predator, toggle_hawk, follow_preset));
}

/// Draws each predator's range as a faint ring (needs Bevy's gizmos).
pub fn rings_plugin(app: &mut App) {
    app.add_systems(Update, draw_ranges);
}

fn start_hawk(mut commands: Commands, config: Res<SceneConfig>) {
    if let Some(at) = config.hunter {
        spawn_hawk(&mut commands, &config, at);
    }
}

/// Lets a hunting predator loose at `at` (z ignored in a flat world), heading right.
pub fn spawn_hawk(commands: &mut Commands, config: &SceneConfig, at: Vec3) {
    let params = config.preset.predator;
    let mut hawk = commands.spawn((Hawk, Predator { params }, Hunter));
    if config.preset.world.depth > 0.0 {
        hawk.insert((
            Position(at),
            murmur_flock::components::Velocity(Vec3::new(params.hunt_speed, 0.0, 0.0)),
        ));
    } else {
        hawk.insert((
            Position(at.truncate()),
            murmur_flock::components::Velocity(Vec2::new(params.hunt_speed, 0.0)),
        ));
    }
    hawk.insert((
        SpecialBird {
            colour: HAWK_RED,
            scale: 2.6,
        },
        Arrowed {
            target: ArrowTarget::Hunter,
            colour: HAWK_RED,
        },
        RenderLayers::layer(WORLD_LAYER),
    ));
}

/// `K`: the player stops leading and being a flock mate, and the flock flees it; again, back.
fn toggle_player_predator(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    config: Res<SceneConfig>,
    tuning: Res<PlayerTuning>,
    flock: Res<ActiveFlock>,
    player: Single<(Entity, Has<Predator>), With<Player>>,
) {
    if !keys.just_pressed(KeyCode::KeyK) {
        return;
    }
    let (entity, is_predator) = *player;
    if is_predator {
        commands
            .entity(entity)
            .remove::<Predator>()
            .insert(FlockPlayer::leading(
                flock.0,
                player_leader(&config, &tuning),
            ));
        info!("player: a bird of the flock again");
    } else {
        commands
            .entity(entity)
            .remove::<(FlockMember, Leader)>()
            .insert(Predator {
                params: config.preset.predator,
            });
        info!("player: a predator; the flock flees it");
    }
}

/// `X`: a hunting predator enters from the left edge; again, it leaves.
fn toggle_hawk(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    config: Res<SceneConfig>,
    hawks: Query<Entity, With<Hawk>>,
) {
    if !keys.just_pressed(KeyCode::KeyX) {
        return;
    }
    if !hawks.is_empty() {
        for hawk in &hawks {
            commands.entity(hawk).despawn();
        }
        info!("the hunter left");
        return;
    }
    let at = Vec3::new(-0.45 * config.preset.world.width, 0.0, 0.0);
    spawn_hawk(&mut commands, &config, at);
    info!("a hunter is loose");
}

/// Predators take the preset's predator settings when they change (the panel's sliders).
fn follow_preset(config: Res<SceneConfig>, mut predators: Query<&mut Predator>) {
    if !config.is_changed() {
        return;
    }
    for mut predator in &mut predators {
        if predator.params != config.preset.predator {
            predator.params = config.preset.predator;
        }
    }
}

fn draw_ranges(mut gizmos: Gizmos, predators: Query<(&Predator, &Position)>) {
    for (predator, pos) in &predators {
        gizmos.circle_2d(
            Isometry2d::from_translation(pos.0),
            predator.params.range,
            HAWK_RED.with_alpha(0.35),
        );
    }
}
