//! The microboids board in Bevy: [`Board`] runs the Q15 firmware model at the board's own tick
//! (31.872 ms, not the flock's 60 Hz) and keeps its 128x64 OLED frame buffer; an [`OledScreen`]
//! shows a board's buffer on a sprite, scaled up crisply (nearest sampling), lit pixels on black
//! as on the SSD1306. Runs alone or beside the float flock.

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
