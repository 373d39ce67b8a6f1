//! The headless app the app-plugin tests start from: Bevy's minimal plugins, the flock's
//! plugins, a preset's scene and a primary window that nothing renders. Each test adds the app
//! plugins it exercises and drives them through their real input systems.

use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResolution};
use murmur::app::scene::SceneConfig;
use murmur_flock::prelude::*;

/// An app with `preset`'s scene (seed `seed`) and a 1280 x 720 primary window at scale 1; the
/// flock's plugins without their renderer and click leader (the app's own plugins take those
/// jobs). Add the plugins under test, then `app.update()`.
pub fn scene_app(preset: &str, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        FlockPlugins::default()
            .build()
            .disable::<ClickLeaderPlugin>()
            .disable::<murmur_flock::draw::FlockDrawPlugin>(),
    ))
    .insert_resource(SceneConfig::load(preset, seed).expect("a built-in preset"));
    app.world_mut().spawn((
        Window {
            resolution: WindowResolution::new(1280, 720).with_scale_factor_override(1.0),
            ..default()
        },
        PrimaryWindow,
    ));
    app
}
