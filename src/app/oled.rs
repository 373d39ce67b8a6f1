//! The microboids board beside the float flock: key `O` shows or hides its OLED (top right),
//! running the Q15 firmware model at the board's own tick.

use super::camera::SCREEN_LAYER;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use murmur_microboids::Revision;
use murmur_oled::{Board, MicroboidsPlugin, spawn_screen};

/// Whether and what the OLED panel shows.
#[derive(Resource, Clone, Copy, Debug)]
pub struct BoardPanel {
    /// Shown (and ticking).
    pub shown: bool,
    /// Model revision.
    pub revision: Revision,
    /// Bird_Init's seed (the article revision uses it).
    pub seed: u32,
    /// Screen pixels per OLED pixel.
    pub scale: f32,
}

impl Default for BoardPanel {
    fn default() -> Self {
        Self {
            shown: false,
            revision: Revision::A412,
            seed: 0x1234_5678,
            scale: 3.0,
        }
    }
}

#[derive(Component)]
struct PanelScreen;

#[derive(Component)]
struct PanelBoard;

/// Adds the panel (and the microboids plugin).
pub fn plugin(app: &mut App) {
    if !app.is_plugin_added::<MicroboidsPlugin>() {
        app.add_plugins(MicroboidsPlugin);
    }
    app.init_resource::<BoardPanel>()
        .add_systems(Startup, spawn_panel)
        .add_systems(
            Update,
            (
                toggle_panel.run_if(super::deep::flat),
                hide_in_3d,
                place_panel,
            )
                .chain(),
        );
}

fn spawn_panel(mut commands: Commands, mut images: ResMut<Assets<Image>>, panel: Res<BoardPanel>) {
    let Ok(mut board) = Board::new(panel.revision, murmur_microboids::NUM_BIRDS, panel.seed) else {
        error!("cannot start the board panel");
        return;
    };
    board.paused = !panel.shown;
    let board = commands.spawn((board, PanelBoard)).id();
    let screen = spawn_screen(&mut commands, &mut images, board, panel.scale);
    commands.entity(screen).insert((
        PanelScreen,
        RenderLayers::layer(SCREEN_LAYER),
        Transform::from_xyz(0.0, 0.0, 5.0),
        if panel.shown {
            Visibility::Visible
        } else {
            Visibility::Hidden
        },
    ));
}

fn toggle_panel(
    keys: Res<ButtonInput<KeyCode>>,
    mut panel: ResMut<BoardPanel>,
    mut board: Query<&mut Board, With<PanelBoard>>,
    mut screen: Query<&mut Visibility, With<PanelScreen>>,
) {
    if !keys.just_pressed(KeyCode::KeyO) {
        return;
    }
    panel.shown = !panel.shown;
    for mut b in &mut board {
        b.paused = !panel.shown;
    }
    for mut v in &mut screen {
        *v = if panel.shown {
            Visibility::Visible
        } else {
            Visibility::Hidden
        };
    }
}

/// The board's model is flat (Q15 in a plane): in the 3D scene its screen is put away.
fn hide_in_3d(
    space: Option<Res<State<super::deep::Space>>>,
    mut panel: ResMut<BoardPanel>,
    mut board: Query<&mut Board, With<PanelBoard>>,
    mut screen: Query<&mut Visibility, With<PanelScreen>>,
) {
    if super::deep::flat(space) || !panel.shown {
        return;
    }
    info!("the board's OLED shows flat scenes only: put away in the 3D scene");
    panel.shown = false;
    for mut b in &mut board {
        b.paused = true;
    }
    for mut v in &mut screen {
        *v = Visibility::Hidden;
    }
}

/// Keeps the screen in the window's bottom-left corner, above the help line.
fn place_panel(
    panel: Res<BoardPanel>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut screen: Query<&mut Transform, With<PanelScreen>>,
) {
    let size = Vec2::new(128.0, 64.0) * panel.scale;
    let half = Vec2::new(window.width(), window.height()) * 0.5;
    let corner = Vec2::new(-half.x + size.x * 0.5 + 12.0, -half.y + size.y * 0.5 + 64.0);
    for mut t in &mut screen {
        t.translation.x = corner.x;
        t.translation.y = corner.y;
    }
}
