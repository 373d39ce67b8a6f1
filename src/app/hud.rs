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
        .add_systems(EguiPrimaryContextPass, draw_hud);
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
    bodies: Option<Res<murmur_physics::prelude::BirdBodies>>,
    path: Res<super::scene::FlockPath>,
    space: Option<Res<State<super::deep::Space>>>,
    #[cfg(not(target_arch = "wasm32"))] view: Option<Res<super::deep::view::DeepView>>,
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
    if bodies.is_some_and(|b| b.enabled) {
        extras.push_str(" · physical birds");
    }
    if flat && follow.on && follow.engaged {
        extras.push_str(" · camera follows");
    }
    #[cfg(not(target_arch = "wasm32"))]
    if !flat && let Some(view) = view {
        extras.push_str(match view.mode {
            super::deep::view::CameraMode::Chase => " · chase camera",
            super::deep::view::CameraMode::Orbit => " · orbit camera",
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
        .fill(egui::Color32::from_rgba_unmultiplied(10, 20, 40, 170))
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
