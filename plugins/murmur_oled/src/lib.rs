#![doc = include_str!("../README.md")]
mod board;
mod screen;

pub use board::{Board, BoardSource, MAX_BIRDS};
pub use screen::{OLED_LIT, OledScreen, spawn_screen};

use bevy_app::{App, Plugin, PostUpdate, Update};
use bevy_ecs::schedule::IntoScheduleConfigs;

/// Ticks every [`Board`] in `Update` by its own clock and redraws every [`OledScreen`].
#[derive(Default)]
pub struct MicroboidsPlugin;

impl Plugin for MicroboidsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, board::tick_boards).add_systems(
            PostUpdate,
            screen::draw_screens.before(bevy_sprite::SpriteSystems::ComputeSlices),
        );
    }
}
