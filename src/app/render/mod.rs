//! Drawing: every bird in one mesh (one draw call, the library's renderer), wings that flap,
//! colour by local flock size, trails that fade like the p5 sketch's, and the gold bird's own.

mod birds;
mod outline;
mod player_trail;
mod trails;

use bevy::prelude::*;
pub use birds::{LARGE_FLOCK, PLAIN, SMALL_FLOCK, SpecialBird};

/// How the flock looks; the keys and the panel change it.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Looks {
    /// Paint the sky at alpha 40/255 each frame instead of clearing it, so the past fades.
    pub trails: bool,
    /// Colour each bird by the number of flock mates it sees.
    pub colour_by_flock_size: bool,
    /// Flap the wings (`sin(frame * 0.2 + x * 0.05) * 0.4`, opposite phases).
    pub flapping: bool,
    /// Bird length in world units (0: sized for the scene at start).
    pub bird_size: f32,
}

impl Looks {
    /// Bird length for a model's scale in a world fitted to a window: 60% of the model's
    /// personal space, but at least 3 and at most 9 screen pixels, so dense models like Cornell's
    /// do not draw as one blot and tiny worlds (Vicsek's L = 5) still show birds.
    pub fn bird_size_for(
        model: &murmur_flock::murmur_core::models::Model,
        world: Vec2,
        window: Vec2,
    ) -> f32 {
        let units_per_pixel = crate::app::camera::fit_scale(world, window);
        (0.6 * model.near_radius()).clamp(3.0 * units_per_pixel, 9.0 * units_per_pixel)
    }
}

impl Default for Looks {
    fn default() -> Self {
        Self {
            trails: true,
            colour_by_flock_size: true,
            flapping: true,
            bird_size: 0.0,
        }
    }
}

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.init_resource::<Looks>()
        .add_systems(Startup, size_birds)
        .add_plugins((
            birds::plugin,
            outline::plugin,
            trails::plugin,
            player_trail::plugin,
        ));
}

/// Sizes the birds for the scene and the window (unless a size was set).
fn size_birds(
    mut looks: ResMut<Looks>,
    config: Res<crate::app::SceneConfig>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
) {
    if looks.bird_size <= 0.0 {
        let world = Vec2::new(config.preset.world.width, config.preset.world.height);
        let window = Vec2::new(
            window.physical_width() as f32,
            window.physical_height() as f32,
        );
        looks.bird_size = Looks::bird_size_for(&config.preset.model(), world, window);
    }
}
