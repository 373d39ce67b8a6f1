//! `murmur oled`: the microboids board alone, its OLED filling the window.

use super::ModeError;
use crate::cli::{parse_revision, parse_seed};
use bevy::prelude::*;
use bevy::window::WindowResolution;
use clap::Args;
use murmur_microboids::display::{HEIGHT, WIDTH};
use murmur_oled::{Board, MicroboidsPlugin, spawn_screen};

/// `murmur oled`.
#[derive(Args, Debug, Clone)]
pub struct OledArgs {
    /// Model revision: a412, bfee0c8 or article.
    #[arg(long, default_value = "a412", value_parser = parse_revision)]
    pub revision: murmur_microboids::Revision,
    /// Seed passed to Bird_Init (decimal or 0x-hex, not 0). a412 and bfee0c8 ignore it.
    #[arg(long, default_value = "0x12345678", value_parser = parse_seed)]
    pub seed: u32,
    /// Number of birds (the board has 48).
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub birds: u16,
    /// Screen pixels per OLED pixel.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=32))]
    pub scale: u16,
}

/// Which board the keys act on.
#[derive(Resource)]
struct TheBoard(Entity);

/// Runs `murmur oled`: the board alone, shown as its OLED.
pub fn run(args: OledArgs) -> Result<(), ModeError> {
    let board = Board::new(args.revision, args.birds as usize, args.seed)
        .map_err(|e| ModeError::Usage(format!("cannot start the board: {e}")))?;
    super::needs_display("oled")?;
    let scale = args.scale as f32;
    let window = (
        (WIDTH as f32 * scale) as u32,
        (HEIGHT as f32 * scale) as u32,
    );
    let exit = App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: format!(
                    "murmur: microboids {} (Space pause, N step, R reset)",
                    args.revision.name()
                ),
                resolution:
                    WindowResolution::new(window.0, window.1).with_scale_factor_override(1.0),
                ..default()
            }),
            ..default()
        }))
        .add_plugins(MicroboidsPlugin)
        .insert_resource(ClearColor(Color::BLACK))
        .add_systems(
            Startup,
            move |mut commands: Commands, mut images: ResMut<Assets<Image>>| {
                commands.spawn((Camera2d, Msaa::Off));
                let board = commands.spawn(board.clone()).id();
                spawn_screen(&mut commands, &mut images, board, scale);
                commands.insert_resource(TheBoard(board));
            },
        )
        .add_systems(Update, keys)
        .run();
    match exit {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(ModeError::Failed(format!(
            "the app stopped with code {code}"
        ))),
    }
}

/// Space pauses, N steps one tick while paused, R boots the board again.
fn keys(keys: Res<ButtonInput<KeyCode>>, the: Res<TheBoard>, mut boards: Query<&mut Board>) {
    let Ok(mut board) = boards.get_mut(the.0) else {
        return;
    };
    if keys.just_pressed(KeyCode::Space) {
        board.paused = !board.paused;
    }
    if keys.just_pressed(KeyCode::KeyN) && board.paused {
        board.tick();
    }
    if keys.just_pressed(KeyCode::KeyR) {
        board.reset();
    }
}
