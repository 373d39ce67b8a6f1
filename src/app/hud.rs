//! The on-screen text: a line of live figures and the help line listing the keys.

use super::controls::{ShowHelp, SimulationPaused};
use super::player::Player;
use super::scene::SceneConfig;
use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use murmur_flock::prelude::*;

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.add_plugins(FrameTimeDiagnosticsPlugin::default())
        .init_resource::<super::camera::Playfield>()
        .init_resource::<super::camera::FollowCamera>()
        .init_resource::<FlockNews>()
        .add_systems(Update, read_news)
        .add_systems(EguiPrimaryContextPass, draw_hud);
}

/// What the flock's messages told the status line: the birds hunters caught since the start,
/// and the clicked leader the flock has reached (until it moves or goes).
#[derive(Resource, Default)]
pub struct FlockNews {
    /// [`HunterCaught`] messages read.
    pub caught: u32,
    /// The clicked leader of the last [`LeaderReached`], while it stays where it was reached.
    pub reached: Option<Entity>,
}

fn read_news(
    mut news: ResMut<FlockNews>,
    mut caught: MessageReader<HunterCaught>,
    mut reached: MessageReader<LeaderReached>,
    clicked: Query<(), With<ClickLeader>>,
    moved: Query<(), Or<(Changed<Position>, Changed<Position<Vec3>>)>>,
) {
    news.caught += caught.read().count() as u32;
    if news
        .reached
        .is_some_and(|leader| !clicked.contains(leader) || moved.contains(leader))
    {
        news.reached = None;
    }
    for r in reached.read() {
        if clicked.contains(r.leader) {
            news.reached = Some(r.leader);
        }
    }
}

fn draw_hud(
    mut contexts: EguiContexts,
    help: Res<ShowHelp>,
    config: Res<SceneConfig>,
    paused: Res<SimulationPaused>,
    diagnostics: Res<DiagnosticsStore>,
    birds: Query<(), (With<Boid>, Without<Player>)>,
    playfield: Res<super::camera::Playfield>,
    follow: Res<super::camera::FollowCamera>,
    player: Query<(Option<&Leader>, Has<Predator>), With<Player>>,
    hunters: Query<(), With<Hunter>>,
    news: Res<FlockNews>,
    bodies: Option<Res<murmur_physics::prelude::BirdBodies>>,
    path: Res<super::path::FlockPath>,
    space: Option<Res<State<super::deep::Space>>>,
    view: Option<Res<super::deep::view::DeepView>>,
) -> Result {
    let flat = super::deep::flat(space);
    let help_text = super::keys::help_line(!flat);
    let ctx = contexts.ctx_mut()?;
    let fps = diagnostics
        .get(&FrameTimeDiagnosticsPlugin::FPS)
        .and_then(|d| d.smoothed())
        .unwrap_or(0.0);
    let gold = match player.iter().next() {
        Some((_, true)) => "the gold bird is a predator",
        Some((Some(l), _)) if l.params.mode == LeaderMode::Flee => "the flock flees the gold bird",
        Some((Some(l), _)) if l.params.mode == LeaderMode::Off => "the flock ignores the gold bird",
        _ => "the flock follows the gold bird",
    };
    let mut extras = String::new();
    if !hunters.is_empty() {
        extras.push_str(" · a hunter is loose");
    }
    if news.caught > 0 {
        extras.push_str(&format!(" · caught {}", news.caught));
    }
    if news.reached.is_some() {
        extras.push_str(" · a bird reached the leader");
    }
    if bodies.is_some_and(|b| b.enabled) {
        extras.push_str(" · physical birds");
    }
    if flat && follow.on && follow.engaged {
        extras.push_str(" · camera follows");
    }
    if !flat && let Some(view) = view {
        extras.push_str(match view.mode {
            super::deep::view::CameraMode::Chase => " · chase camera",
            super::deep::view::CameraMode::Orbit => " · orbit camera",
            super::deep::view::CameraMode::Watch => " · watching from the ground (V: orbit)",
        });
    }
    if paused.0 {
        extras.push_str(" · PAUSED");
    }
    // A flock on the GPU has no bird entities: its size is the scene's.
    let (count, on) = if path.on_gpu {
        (config.boids, " on the GPU")
    } else {
        (birds.iter().count(), "")
    };
    let status = format!(
        "{count} birds{on} · {} · seed {} · {fps:.0} fps · {gold}{extras}",
        config.preset.model.name(),
        config.seed,
    );
    let frame = egui::Frame::NONE
        .fill(veil(170))
        .inner_margin(egui::Margin::same(6));
    egui::Area::new("status".into())
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 8.0))
        .interactable(false)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                let text = egui::RichText::new(status).color(egui::Color32::WHITE);
                ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend))
            });
        });
    if help.0 {
        egui::Area::new("help".into())
            .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
            .interactable(false)
            .show(ctx, |ui| {
                frame.show(ui, |ui| {
                    // Keep clear of the side panel when it is open.
                    ui.set_max_width(ctx.content_rect().width() - 30.0 - playfield.right);
                    ui.label(egui::RichText::new(help_text).color(egui::Color32::WHITE))
                });
            });
    }
    Ok(())
}

/// The dark veil under the app's text boxes (the status and help lines, the capture notice, the
/// page's board view): its colour, opaque (the recordings' palette keeps it exact).
pub const VEIL: [u8; 3] = [10, 20, 40];

/// [`VEIL`] at `alpha`.
pub fn veil(alpha: u8) -> egui::Color32 {
    egui::Color32::from_rgba_unmultiplied(VEIL[0], VEIL[1], VEIL[2], alpha)
}
