//! The 3D scene: what the window shows when the flock's world has a depth. A sky, a ground and a
//! sun ([`scenery`]), the preset's solids, a chase and an orbit camera ([`view`]), the gold bird
//! flying in 3D ([`flight`]), the leader placed by a click and marked down to the ground
//! ([`click`]), touch ([`touch`]). The app is in one [`Space`] at a time; the panel's preset
//! picker moves it between the two live.

pub mod click;
pub mod flight;
pub mod scenery;
pub mod touch;
pub mod view;

use super::scene::SceneConfig;
use bevy::prelude::*;

/// Which scene the window shows: the flat one (2D camera, trails, rapier bodies) or the 3D one.
/// It follows the preset: a world with a depth is 3D.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Space {
    /// A flat world: the 2D scene.
    #[default]
    Flat,
    /// A world with a depth: the 3D scene.
    Deep,
}

impl Space {
    /// The space a scene's preset asks for.
    pub fn of(config: &SceneConfig) -> Self {
        if config.preset.world.depth > 0.0 {
            Self::Deep
        } else {
            Self::Flat
        }
    }
}

/// Run condition: the flat scene is showing (also where no [`Space`] state exists, as in the
/// tests that build the app's parts on Bevy's minimal plugins).
pub fn flat(space: Option<Res<State<Space>>>) -> bool {
    space.is_none_or(|s| *s.get() == Space::Flat)
}

/// Run condition: the 3D scene is showing.
pub fn deep(space: Option<Res<State<Space>>>) -> bool {
    space.is_some_and(|s| *s.get() == Space::Deep)
}

/// The 3D scene's line drawings (the world's box, the leader's line to the ground): they need
/// Bevy's gizmos.
pub fn lines_plugin(app: &mut App) {
    app.add_systems(
        Update,
        (scenery::draw_bounds, click::mark_leader).run_if(deep),
    );
}

/// Adds the [`Space`] state (starting in the scene's) and the 3D scene's parts (but the line
/// drawings of [`lines_plugin`]).
pub fn plugin(app: &mut App) {
    let start = app
        .world()
        .get_resource::<SceneConfig>()
        .map_or(Space::Flat, Space::of);
    app.insert_state(start)
        .add_systems(PreUpdate, follow_preset);
    app.add_systems(Update, size_birds.run_if(deep))
        .add_plugins((
            scenery::plugin,
            view::plugin,
            flight::plugin,
            click::plugin,
            touch::plugin,
        ));
}

/// In 3D a bird is drawn 45% of the model's personal space long, whatever the window (the
/// flat scene sizes birds in screen pixels): sized again when the model or world changes.
fn size_birds(
    config: Res<SceneConfig>,
    looks: Option<ResMut<super::render::Looks>>,
    mut sized_for: Local<Option<String>>,
) {
    let Some(mut looks) = looks else { return };
    let key = format!("{:?} {:?}", config.preset.model, config.preset.world);
    if sized_for.as_deref() != Some(key.as_str()) {
        looks.bird_size = 0.45 * config.preset.model().near_radius();
        *sized_for = Some(key);
    }
}

/// The space follows the preset (the panel loads a 3D preset over a flat one and back).
fn follow_preset(
    config: Res<SceneConfig>,
    space: Res<State<Space>>,
    mut next: ResMut<NextState<Space>>,
) {
    if config.is_changed() && Space::of(&config) != *space.get() {
        next.set(Space::of(&config));
    }
}
