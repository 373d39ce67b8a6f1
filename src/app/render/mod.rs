//! Drawing: every bird in one dynamic mesh (one draw call), wings that flap, colour by local
//! flock size, and trails that fade like the p5 sketch's.

mod birds;
mod outline;
mod trails;

use bevy::prelude::*;
pub use birds::SpecialBird;

/// How the flock looks; the keys and the panel change it.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Looks {
    /// Paint the sky at alpha 40/255 each frame instead of clearing it, so the past fades.
    pub trails: bool,
    /// Colour each bird by the number of flock mates it sees.
    pub colour_by_flock_size: bool,
    /// Flap the wings (`sin(frame * 0.2 + x * 0.05) * 0.4`, opposite phases).
    pub flapping: bool,
    /// Bird length in world units.
    pub bird_size: f32,
}

impl Looks {
    /// Birds sized to their model's personal space (60% of it, 3 to 9 world units), so dense
    /// models like Cornell's do not draw as one blot.
    pub fn for_model(model: &flock::flock_core::models::Model) -> Self {
        Self {
            bird_size: (0.6 * model.near_radius()).clamp(3.0, 9.0),
            ..Self::default()
        }
    }
}

impl Default for Looks {
    fn default() -> Self {
        Self {
            trails: true,
            colour_by_flock_size: true,
            flapping: true,
            bird_size: 9.0,
        }
    }
}

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    let looks = app
        .world()
        .get_resource::<crate::app::SceneConfig>()
        .map_or_else(Looks::default, |c| Looks::for_model(&c.preset.model()));
    app.insert_resource(looks)
        .add_plugins((birds::plugin, outline::plugin, trails::plugin));
}
