//! Physical birds: `B` (or the preset's `bodies.enabled`) makes every bird a rapier body that
//! collides with the others, the obstacles and the walls; again, back to the fast flock.

use super::scene::SceneConfig;
use bevy::prelude::*;
use murmur_physics::prelude::*;

/// Above this many birds, switching bodies on warns that the frame rate will suffer.
const MANY_BODIES: usize = 5_000;

/// Adds this module's systems.
pub fn plugin(app: &mut App) {
    app.init_resource::<BirdBodies>().add_systems(
        Update,
        (toggle_bodies.run_if(super::deep::flat), follow_preset).chain(),
    );
}

fn toggle_bodies(keys: Res<ButtonInput<KeyCode>>, mut config: ResMut<SceneConfig>) {
    if !keys.just_pressed(KeyCode::KeyB) {
        return;
    }
    let bodies = &mut config.preset.bodies;
    bodies.enabled = !bodies.enabled;
    info!(
        "birds are {}",
        if bodies.enabled {
            "physical bodies"
        } else {
            "the fast flock again"
        }
    );
    if bodies.enabled && config.boids > MANY_BODIES {
        warn!(
            "{} rigid bodies: physical mode is meant for small flocks",
            config.boids
        );
    }
}

/// Keeps [`BirdBodies`] in step with the preset (keys, panel, presets).
fn follow_preset(config: Res<SceneConfig>, mut bodies: ResMut<BirdBodies>) {
    let want = BirdBodies::from(config.preset.scene().bodies);
    if *bodies != want {
        *bodies = want;
    }
}
