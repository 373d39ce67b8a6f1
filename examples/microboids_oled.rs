//! The microboids board: 48 birds in Q15 fixed point, bit for bit the firmware's model, ticking
//! at the board's 31.9 ms and drawn on its 128x64 OLED, scaled up 8 times.
//!
//! `cargo run --example microboids_oled`

use bevy::prelude::*;
use murmur_microboids::Revision;
use murmur_oled::{Board, MicroboidsPlugin, spawn_screen};

fn main() -> AppExit {
    App::new()
        .add_plugins((DefaultPlugins, MicroboidsPlugin))
        .insert_resource(ClearColor(Color::BLACK))
        .add_systems(Startup, setup)
        .run()
}

fn setup(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.spawn(Camera2d);
    let board = Board::new(Revision::A412, 48, 0x1234_5678).expect("48 birds and a non-zero seed");
    let board = commands.spawn(board).id();
    spawn_screen(&mut commands, &mut images, board, 8.0);
}
