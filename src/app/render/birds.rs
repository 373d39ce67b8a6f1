//! The birds, drawn by the library's one-mesh renderer (`murmur_flock::draw`): the app puts the
//! mesh on its world layer, hands its looks over, and sizes the special birds with the flock's.

use super::Looks;
use crate::app::camera::WORLD_LAYER;
use crate::app::scene::ActiveFlock;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use murmur_flock::draw::DrawBirdsSystems;
use murmur_flock::prelude::*;

/// A bird that sees no flock mate, on the sky.
pub const SMALL_FLOCK: Color = Color::srgb_u8(40, 90, 210);
/// A bird that sees a large flock.
pub const LARGE_FLOCK: Color = Color::srgb_u8(70, 20, 110);
/// Every bird when colouring by flock size is off.
pub const PLAIN: Color = Color::srgb_u8(25, 35, 80);

/// A bird drawn apart from the flock's colours (the player, the leader, a hawk), sized relative
/// to a flock bird; the app keeps its [`Highlight`] in step with the birds' size.
#[derive(Component, Clone, Copy, Debug)]
pub struct SpecialBird {
    /// Its colour.
    pub colour: Color,
    /// Its size relative to a flock bird.
    pub scale: f32,
}

pub(super) fn plugin(app: &mut App) {
    app.add_observer(mesh_on_world_layer).add_systems(
        PostUpdate,
        (hand_looks_over, highlight_special_birds).before(DrawBirdsSystems),
    );
}

/// The birds' mesh is drawn into the trail image, with the rest of the world.
fn mesh_on_world_layer(event: On<Add, BirdMesh>, mut commands: Commands) {
    commands
        .entity(event.entity)
        .insert(RenderLayers::layer(WORLD_LAYER));
}

/// The app's [`Looks`] as the renderer's settings and the active flock's look.
fn hand_looks_over(
    looks: Res<Looks>,
    mut drawing: ResMut<BirdDrawing>,
    active: Option<Res<ActiveFlock>>,
    mut commands: Commands,
    flocks: Query<Option<&FlockLook>, With<Flock>>,
    config: Option<Res<crate::app::scene::SceneConfig>>,
) {
    let wanted = BirdDrawing {
        flapping: looks.flapping,
        colour_by_flock_size: looks.colour_by_flock_size,
        // Set by the camera.
        around: drawing.around,
        interpolate: drawing.interpolate,
    };
    if *drawing != wanted {
        *drawing = wanted;
    }
    let Some(active) = active else {
        return;
    };
    let starlings = config
        .is_some_and(|c| c.preset.model == murmur_flock::murmur_core::models::ModelKind::Starlings);
    let look = if starlings {
        // Starlings at dusk: dark against the sky, the densest darkest.
        FlockLook {
            size: looks.bird_size,
            small_flock: Color::srgb_u8(58, 50, 56),
            large_flock: Color::srgb_u8(14, 12, 16),
            large_flock_size: 6.0,
            plain: Color::srgb_u8(24, 20, 24),
        }
    } else {
        FlockLook {
            size: looks.bird_size,
            small_flock: SMALL_FLOCK,
            large_flock: LARGE_FLOCK,
            large_flock_size: 24.0,
            plain: PLAIN,
        }
    };
    if let Ok(current) = flocks.get(active.0)
        && current != Some(&look)
    {
        commands.entity(active.0).insert(look);
    }
}

/// Every special bird highlighted at its scale of the flock's bird size.
fn highlight_special_birds(
    looks: Res<Looks>,
    mut commands: Commands,
    specials: Query<(Entity, &SpecialBird, Option<&Highlight>)>,
) {
    for (entity, special, highlight) in &specials {
        let wanted = Highlight {
            colour: special.colour,
            size: special.scale * looks.bird_size,
        };
        if highlight != Some(&wanted) {
            commands.entity(entity).insert(wanted);
        }
    }
}
