//! Keys for the simulation and the looks: pause, single step, reset with a new seed, trails,
//! colours, wings.

use super::render::Looks;
use super::scene::ResetScene;
use bevy::input::InputSystems;
use bevy::prelude::*;

/// Paused by the user (Space). Drives the virtual clock; other code may also pause the clock
/// (the screenshot mode does) without this flag.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct SimulationPaused(pub bool);

/// Whether the help line is shown.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ShowHelp(pub bool);

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.insert_resource(ShowHelp(true))
        .init_resource::<SimulationPaused>()
        .add_systems(PreUpdate, (pause_and_step, looks_keys).after(InputSystems));
}

/// Space (in the flat scene; in 3D it climbs) or Enter pauses and resumes; N while paused runs
/// exactly one tick this frame; R resets.
fn pause_and_step(
    keys: Res<ButtonInput<KeyCode>>,
    space: Option<Res<State<super::deep::Space>>>,
    mut virtual_time: ResMut<Time<Virtual>>,
    mut fixed: ResMut<Time<Fixed>>,
    mut reset: MessageWriter<ResetScene>,
    mut paused: ResMut<SimulationPaused>,
) {
    let flat = super::deep::flat(space);
    if (flat && keys.just_pressed(KeyCode::Space)) || keys.just_pressed(KeyCode::Enter) {
        paused.0 = !paused.0;
        if paused.0 {
            virtual_time.pause();
        } else {
            virtual_time.unpause();
        }
    }
    if keys.just_pressed(KeyCode::KeyN) && virtual_time.is_paused() {
        step_once(&mut fixed);
    }
    if keys.just_pressed(KeyCode::KeyR) {
        reset.write(ResetScene::default());
    }
}

/// Makes the fixed loop run exactly one more tick this frame (also while paused).
pub fn step_once(fixed: &mut Time<Fixed>) {
    let dt = fixed.timestep();
    fixed.accumulate_overstep(dt);
}

fn looks_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut looks: ResMut<Looks>,
    mut help: ResMut<ShowHelp>,
) {
    if keys.just_pressed(KeyCode::KeyT) {
        looks.trails = !looks.trails;
    }
    if keys.just_pressed(KeyCode::KeyC) {
        looks.colour_by_flock_size = !looks.colour_by_flock_size;
    }
    if keys.just_pressed(KeyCode::KeyG) {
        looks.flapping = !looks.flapping;
    }
    if keys.just_pressed(KeyCode::KeyH) {
        help.0 = !help.0;
    }
}
