//! Drawing: every bird in one dynamic mesh (one draw call), wings that flap, colour by local
//! flock size, and trails that fade like the p5 sketch's.

mod birds;
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

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Looks>()
        .add_plugins((birds::plugin, trails::plugin));
}
