//! The panel's widgets: they read the current state and write [`PanelAction`]s.

use super::actions::MAX_PANEL_BOIDS;
use super::figures::{Figures, StepTime};
use super::gizmos::DebugDraw;
use super::sliders::{PARAMS, ParamInfo};
use super::{PanelAction, PanelState};
use crate::app::camera::Playfield;
use crate::app::player::PlayerTuning;
use crate::app::render::Looks;
use crate::app::scene::SceneConfig;
use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui_plot::{Line, Plot};
use murmur_flock::murmur_core::edges::EdgeMode;
use murmur_flock::murmur_core::leader::LeaderMode;
use murmur_flock::murmur_core::models::ModelKind;
use murmur_flock::murmur_core::preset::builtin_names;
use murmur_flock::prelude::*;

/// One slider for a described parameter; an action when it moves.
fn param_slider(
    ui: &mut egui::Ui,
    config: &SceneConfig,
    info: &ParamInfo,
    out: &mut Vec<PanelAction>,
) {
    let Some(mut value) = config.preset.value(info.name) else {
        return;
    };
    let field = info.name.split_once('.').map_or(info.name, |(_, f)| f);
    let label = if info.unit.is_empty() {
        field.to_string()
    } else {
        format!("{field} ({})", info.unit)
    };
    let mut slider = egui::Slider::new(&mut value, info.min..=info.max)
        .text(label)
        .clamping(egui::SliderClamping::Never);
    if info.integer {
        slider = slider.step_by(1.0).fixed_decimals(0);
    } else if info.max - info.min < 0.05 {
        slider = slider.fixed_decimals(5);
    }
    if ui.add(slider).on_hover_text(info.help).changed() {
        let text = if info.integer {
            format!("{}", value.round() as i64)
        } else {
            format!("{value}")
        };
        out.push(PanelAction::Set {
            name: info.name.to_string(),
            value: text,
        });
    }
}

fn sliders_for(ui: &mut egui::Ui, config: &SceneConfig, table: &str, out: &mut Vec<PanelAction>) {
    for info in PARAMS
        .iter()
        .filter(|p| p.name.split('.').next() == Some(table))
    {
        param_slider(ui, config, info, out);
    }
}

fn plot(ui: &mut egui::Ui, id: &str, label: &str, points: &std::collections::VecDeque<[f64; 2]>) {
    ui.label(label);
    let series: Vec<[f64; 2]> = points.iter().copied().collect();
    Plot::new(id)
        .height(70.0)
        .show_axes([false, true])
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |p| p.line(Line::new(label, series)));
}

pub(super) fn draw_panel(
    mut contexts: EguiContexts,
    mut state: ResMut<PanelState>,
    config: Res<SceneConfig>,
    looks: Res<Looks>,
    tuning: Res<PlayerTuning>,
    debug: Res<DebugDraw>,
    figures: Res<Figures>,
    step: Res<StepTime>,
    diagnostics: Res<DiagnosticsStore>,
    birds: Query<&NeighbourCount, With<Boid>>,
    mut actions: MessageWriter<PanelAction>,
    mut playfield: ResMut<Playfield>,
    path: Res<crate::app::path::FlockPath>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut out = Vec::new();
    // What the panel covers, for the camera (nothing while it is closed).
    let mut covers = |right: f32| {
        if playfield.right != right {
            playfield.right = right;
        }
    };
    if !state.open {
        covers(0.0);
        egui::Area::new("panel-button".into())
            .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, 8.0))
            .show(ctx, |ui| {
                if ui.button("◀ panel (P)").clicked() {
                    out.push(PanelAction::TogglePanel);
                }
            });
        actions.write_batch(out);
        return Ok(());
    }
    let mut root = egui::Ui::new(
        ctx.clone(),
        "panel-root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.content_rect()),
    );
    let shown = egui::Panel::right("panel")
        .resizable(true)
        .default_size(330.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.heading("murmur");
                    if ui
                        .button("hide ▶")
                        .on_hover_text("P shows it again")
                        .clicked()
                    {
                        out.push(PanelAction::TogglePanel);
                    }
                });
                if !state.warnings.is_empty() {
                    for w in &state.warnings {
                        ui.colored_label(egui::Color32::from_rgb(200, 40, 30), format!("▲ {w}"));
                    }
                    if ui.small_button("dismiss").clicked() {
                        out.push(PanelAction::DismissWarnings);
                    }
                }

                flock_section(ui, &mut state, &config, &mut out);

                parameters_section(ui, &config, &mut out);

                hazards_section(ui, &config, &mut out);

                leader_section(ui, &config, &tuning, &mut out);

                looks_section(ui, &mut state, &looks, &debug, &config, &mut out);

                presets_section(ui, &mut state, &config, &mut out);

                figures_section(ui, &figures, &step, &diagnostics, &birds, &path, &config);

                keys_section(ui, &config);
            });
        });
    covers(shown.response.rect.width());
    actions.write_batch(out);
    Ok(())
}

/// The flock: model, edges, size, seed.
fn flock_section(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    config: &SceneConfig,
    out: &mut Vec<PanelAction>,
) {
    egui::CollapsingHeader::new("Flock")
        .default_open(true)
        .show(ui, |ui| {
            let model = config.preset.model;
            egui::ComboBox::from_label("model")
                .selected_text(model.name())
                .show_ui(ui, |ui| {
                    for kind in ModelKind::ALL {
                        if ui.selectable_label(kind == model, kind.name()).clicked()
                            && kind != model
                        {
                            out.push(PanelAction::Set {
                                name: "model".into(),
                                value: kind.name().into(),
                            });
                        }
                    }
                });
            let mode = config.preset.edges.mode;
            egui::ComboBox::from_label("edges")
                .selected_text(mode.name())
                .show_ui(ui, |ui| {
                    for m in EdgeMode::ALL {
                        if ui.selectable_label(m == mode, m.name()).clicked() && m != mode {
                            out.push(PanelAction::Set {
                                name: "edges.mode".into(),
                                value: m.name().into(),
                            });
                        }
                    }
                });
            if state.boids_slider == 0 {
                state.boids_slider = config.boids as u32;
            }
            let response = ui.add(
                egui::Slider::new(&mut state.boids_slider, 1..=MAX_PANEL_BOIDS)
                    .logarithmic(true)
                    .text("birds"),
            );
            if response.drag_stopped() || (response.changed() && !response.dragged()) {
                out.push(PanelAction::SetBoids(state.boids_slider));
            }
            ui.horizontal(|ui| {
                let mut seed = config.seed;
                if ui
                    .add(egui::DragValue::new(&mut seed).prefix("seed "))
                    .changed()
                {
                    out.push(PanelAction::Reset { seed: Some(seed) });
                }
                if ui
                    .button("reset")
                    .on_hover_text("A fresh flock with the next seed (R)")
                    .clicked()
                {
                    out.push(PanelAction::Reset { seed: None });
                }
            });
        });
}

/// The active model's parameters (and the edges' and the view's).
fn parameters_section(ui: &mut egui::Ui, config: &SceneConfig, out: &mut Vec<PanelAction>) {
    egui::CollapsingHeader::new(format!("{} parameters", config.preset.model.name()))
        .default_open(true)
        .show(ui, |ui| {
            sliders_for(ui, config, config.preset.model.name(), out);
            param_slider(
                ui,
                config,
                super::sliders::info("world.max_neighbours").expect("described"),
                out,
            );
            if config.preset.edges.mode == EdgeMode::Turn {
                sliders_for(ui, config, "edges", out);
            }
            if general_blind_angle_applies(config.preset.model) {
                sliders_for(ui, config, "view", out);
            }
        });
}

/// Obstacle avoidance, predators, physical birds.
fn hazards_section(ui: &mut egui::Ui, config: &SceneConfig, out: &mut Vec<PanelAction>) {
    ui.collapsing("Obstacles, predators, bodies", |ui| {
        ui.label("Shift+click: obstacle · Shift+right click: remove it");
        ui.label("X: a hunter · K: the gold bird as predator");
        sliders_for(ui, config, "avoidance", out);
        sliders_for(ui, config, "predator", out);
        let mut physical = config.preset.scene().bodies.enabled;
        let deep = config.preset.world.depth > 0.0;
        let hint = if deep {
            "Physical birds are rapier's flat bodies: flat scenes only"
        } else {
            "Every bird a rigid body that collides: for small flocks"
        };
        if ui
            .add_enabled(
                !deep,
                egui::Checkbox::new(&mut physical, "physical birds (B)"),
            )
            .on_hover_text(hint)
            .on_disabled_hover_text(hint)
            .changed()
        {
            out.push(PanelAction::Set {
                name: "bodies.enabled".into(),
                value: physical.to_string(),
            });
        }
        sliders_for(ui, config, "bodies", out);
    });
}

/// The leader's and the gold bird's settings.
fn leader_section(
    ui: &mut egui::Ui,
    config: &SceneConfig,
    tuning: &PlayerTuning,
    out: &mut Vec<PanelAction>,
) {
    ui.collapsing("Leader and player", |ui| {
        let mode = config.preset.leader.mode;
        ui.horizontal(|ui| {
            for (m, name) in [
                (LeaderMode::Follow, "follow"),
                (LeaderMode::Flee, "flee"),
                (LeaderMode::Off, "off"),
            ] {
                if ui.selectable_label(mode == m, name).clicked() && mode != m {
                    out.push(PanelAction::Set {
                        name: "leader.mode".into(),
                        value: name.into(),
                    });
                }
            }
        });
        sliders_for(ui, config, "leader", out);
        let mut speed = tuning.speed;
        if ui
            .add(egui::Slider::new(&mut speed, 0.01..=1.0).text("player speed (worlds/s)"))
            .on_hover_text("The gold bird's top speed, in world widths per second")
            .changed()
        {
            out.push(PanelAction::SetPlayerSpeed(speed));
        }
    });
}

/// How the birds look, and the debug drawings.
fn looks_section(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    looks: &Looks,
    debug: &DebugDraw,
    config: &SceneConfig,
    out: &mut Vec<PanelAction>,
) {
    let deep = config.preset.world.depth > 0.0;
    ui.collapsing("Looks", |ui| {
        let (mut trails, mut flapping, mut colour, mut scale) = (
            looks.trails,
            looks.flapping,
            looks.colour_by_flock_size,
            state.bird_scale,
        );
        let mut changed = ui
            .add_enabled(!deep, egui::Checkbox::new(&mut trails, "trails (T)"))
            .on_disabled_hover_text("Trails fade the flat scene's picture: flat scenes only")
            .changed();
        changed |= ui.checkbox(&mut flapping, "wing flapping (G)").changed();
        changed |= ui
            .checkbox(&mut colour, "colour by flock size (C)")
            .changed();
        changed |= ui
            .add(
                egui::Slider::new(&mut scale, 0.25..=4.0)
                    .logarithmic(true)
                    .text("bird size"),
            )
            .changed();
        if changed {
            out.push(PanelAction::SetLooks {
                trails,
                flapping,
                colour_by_flock_size: colour,
                bird_scale: scale,
            });
        }
        let mut d = *debug;
        let mut changed = ui.checkbox(&mut d.grid, "grid cells").changed();
        changed |= ui
            .checkbox(
                &mut d.neighbours,
                "neighbours of a bird (Alt + click picks)",
            )
            .changed();
        changed |= ui.checkbox(&mut d.velocities, "velocity vectors").changed();
        if changed {
            out.push(PanelAction::SetDebug(d));
        }
    });
}

/// Presets: built-in and the user's own, load, save, delete.
fn presets_section(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    config: &SceneConfig,
    out: &mut Vec<PanelAction>,
) {
    ui.collapsing("Presets", |ui| {
        let current = if state.selected.is_empty() {
            config.preset.model.name().to_string()
        } else {
            state.selected.clone()
        };
        egui::ComboBox::from_id_salt("preset-list")
            .selected_text(current.clone())
            .show_ui(ui, |ui| {
                for name in builtin_names() {
                    ui.selectable_value(&mut state.selected, name.clone(), name);
                }
                for name in state.user_presets.clone() {
                    ui.selectable_value(
                        &mut state.selected,
                        format!("user:{name}"),
                        format!("{name} (yours)"),
                    );
                }
            });
        ui.horizontal(|ui| {
            if ui.button("load").clicked() {
                out.push(match current.strip_prefix("user:") {
                    Some(user) => PanelAction::LoadUser(user.to_string()),
                    None => PanelAction::LoadBuiltin(current.clone()),
                });
            }
            if let Some(user) = current.strip_prefix("user:")
                && ui.button("delete").clicked()
            {
                out.push(PanelAction::Delete(user.to_string()));
            }
            if ui
                .button("defaults")
                .on_hover_text("The built-in preset of this model")
                .clicked()
            {
                out.push(PanelAction::Defaults);
            }
        });
        if let Some(storage) = state.storage.clone() {
            ui.horizontal(|ui| {
                ui.text_edit_singleline(&mut state.save_name);
                if ui.button("save").clicked() {
                    out.push(PanelAction::Save(state.save_name.trim().to_string()));
                }
            });
            ui.small(format!("yours live in {}", storage.presets_location()));
        } else {
            // A machine with no home, or a browser that forbids storage.
            ui.small("nowhere to keep presets here: they cannot be saved");
        }
    });
}

/// Live figures and their plots.
fn figures_section(
    ui: &mut egui::Ui,
    figures: &Figures,
    step: &StepTime,
    diagnostics: &DiagnosticsStore,
    birds: &Query<&NeighbourCount, With<Boid>>,
    path: &crate::app::path::FlockPath,
    config: &SceneConfig,
) {
    egui::CollapsingHeader::new("Figures")
        .default_open(true)
        .show(ui, |ui| {
            let fps = diagnostics
                .get(&FrameTimeDiagnosticsPlugin::FPS)
                .and_then(|d| d.smoothed())
                .unwrap_or(0.0);
            ui.label(format!("the flock flies {}", path.note));
            if path.on_gpu {
                // Its state stays on the GPU; the figures would need it read back every frame.
                ui.label(format!("{fps:.0} fps · {} birds", config.boids));
                ui.label("figures: `murmur headless --gpu` reads them back");
                return;
            }
            let (n, neighbours) = birds
                .iter()
                .fold((0usize, 0u64), |(n, s), c| (n + 1, s + c.0 as u64));
            ui.label(format!("{fps:.0} fps · step {:.2} ms · {n} birds", step.ms));
            ui.label(format!(
                "mean neighbours {:.1} · polarization {:.3}",
                neighbours as f64 / n.max(1) as f64,
                figures.latest.map_or(0.0, |m| m.polarization)
            ));
            plot(ui, "plot-pol", "polarization", &figures.polarization);
            plot(
                ui,
                "plot-nn",
                "mean nearest-neighbour distance",
                &figures.nn_distance,
            );
            plot(ui, "plot-step", "step time (ms)", &figures.step_ms);
            if let Some([thickness, width, length]) = figures.latest.and_then(|m| m.shape) {
                ui.label(format!(
                    "shape: thickness {thickness:.0} · width {width:.0} · length {length:.0}"
                ));
                plot(
                    ui,
                    "plot-shape",
                    "thickness / length (1 a ball, 0 a sheet)",
                    &figures.thinness,
                );
            }
        })
        .header_response
        .on_hover_text("Last 30 s");
}

/// The keys of the scene shown, from the one key map the help line reads too.
fn keys_section(ui: &mut egui::Ui, config: &SceneConfig) {
    let deep = config.preset.world.depth > 0.0;
    ui.collapsing("Keys", |ui| {
        egui::Grid::new("keys").striped(true).show(ui, |ui| {
            for key in crate::app::keys::KEYS {
                let does = crate::app::keys::does(key, deep);
                if !does.is_empty() {
                    ui.label(egui::RichText::new(key.input).strong());
                    ui.add(egui::Label::new(does).wrap());
                    ui.end_row();
                }
            }
        });
    });
}

/// Whether a model heeds the general blind angle (`view.blind_angle`): couzin and the starlings
/// have their own among their parameters, and the general one would be a slider that does
/// nothing.
fn general_blind_angle_applies(model: ModelKind) -> bool {
    !matches!(model, ModelKind::Couzin | ModelKind::Starlings)
}

#[cfg(test)]
mod tests {
    use super::general_blind_angle_applies;
    use murmur_flock::murmur_core::Vec3;
    use murmur_flock::murmur_core::models::ModelKind;
    use murmur_flock::murmur_core::preset::Preset;
    use murmur_flock::murmur_core::sim::FlockSim;

    /// The state of the model's 3D preset flock after a few ticks, with the general blind angle
    /// at `degrees`.
    fn hash_with_blind_angle(kind: ModelKind, degrees: f32) -> u64 {
        let name = match kind {
            ModelKind::Starlings => "starlings".to_owned(),
            _ => format!("{}3d", kind.name()),
        };
        let mut params = Preset::load(&name)
            .expect("a built-in preset")
            .flock_params();
        params.blind_angle = degrees;
        let mut flock = FlockSim::<Vec3>::new(params, 1000, 3);
        for _ in 0..20 {
            flock.step();
        }
        flock.state_hash()
    }

    #[test]
    fn the_general_blind_angle_slider_shows_for_exactly_the_models_it_changes() {
        for kind in ModelKind::ALL {
            let changes = hash_with_blind_angle(kind, 0.0) != hash_with_blind_angle(kind, 150.0);
            assert_eq!(
                general_blind_angle_applies(kind),
                changes,
                "{kind:?}: the slider shows iff the angle changes the flock"
            );
        }
    }
}
