//! What the panel's widgets ask for, and the one system that does it.

use super::PanelState;
use super::gizmos::DebugDraw;
use super::store::{self, Settings};
use crate::app::camera::FitView;
use crate::app::leader::ClickLeader;
use crate::app::player::{Player, PlayerTuning};
use crate::app::render::Looks;
use crate::app::scene::{ActiveFlock, ResetScene, SceneConfig};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use murmur_flock::murmur_core::preset::Preset;
use murmur_flock::prelude::*;
use murmur_flock::spawn::boid_bundles;

/// Most birds the panel will make.
pub const MAX_PANEL_BOIDS: u32 = 200_000;

/// A change the panel asks for.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum PanelAction {
    /// Set a preset parameter by the name the preset file uses (`model`, `edges.mode`,
    /// `cornell.visual_range`, ...); the same path as `--set`.
    Set {
        /// Parameter name.
        name: String,
        /// Its new value, as text.
        value: String,
    },
    /// Add or remove birds, live.
    SetBoids(u32),
    /// A fresh flock: with this seed, or the next one.
    Reset {
        /// The seed, or `None` for the next.
        seed: Option<u64>,
    },
    /// Load a built-in preset.
    LoadBuiltin(String),
    /// Load one of the user's presets.
    LoadUser(String),
    /// Save the current settings as a user preset with this name.
    Save(String),
    /// Delete a user preset.
    Delete(String),
    /// Back to the built-in defaults of the current model.
    Defaults,
    /// Trails, wings, colours.
    SetLooks {
        /// Trails on.
        trails: bool,
        /// Wings flap.
        flapping: bool,
        /// Colour by local flock size.
        colour_by_flock_size: bool,
        /// Bird size relative to the automatic one.
        bird_scale: f32,
    },
    /// The gold bird's top speed, world widths per second.
    SetPlayerSpeed(f32),
    /// Debug drawings.
    SetDebug(DebugDraw),
    /// Show or hide the panel.
    TogglePanel,
    /// Forget the warnings shown.
    DismissWarnings,
}

/// Everything the settings file records, gathered.
#[derive(SystemParam)]
pub struct CurrentSettings<'w> {
    looks: Res<'w, Looks>,
    tuning: Res<'w, PlayerTuning>,
    config: Res<'w, SceneConfig>,
}

impl CurrentSettings<'_> {
    /// The settings as they are now.
    pub fn get(&self, state: &PanelState) -> Settings {
        Settings {
            panel_open: state.open,
            trails: self.looks.trails,
            colour_by_flock_size: self.looks.colour_by_flock_size,
            flapping: self.looks.flapping,
            bird_scale: state.bird_scale,
            player_speed: self.tuning.speed,
            boids: Some(self.config.boids as u32),
            seed: Some(self.config.seed),
            preset: Some(self.config.preset.clone()),
        }
    }
}

/// What `apply_actions` changes besides the config.
#[derive(SystemParam)]
pub(super) struct Targets<'w, 's> {
    commands: Commands<'w, 's>,
    looks: ResMut<'w, Looks>,
    tuning: ResMut<'w, PlayerTuning>,
    debug: ResMut<'w, DebugDraw>,
    reset: MessageWriter<'w, ResetScene>,
    fit: MessageWriter<'w, FitView>,
    active: Res<'w, ActiveFlock>,
    flocks: Query<'w, 's, &'static mut Flock>,
    click_leader: Query<'w, 's, &'static mut Leader, (With<ClickLeader>, Without<Player>)>,
    player_leader: Query<'w, 's, &'static mut Leader, (With<Player>, Without<ClickLeader>)>,
    birds: Query<'w, 's, (Entity, &'static Boid, &'static FlockMember), Without<Player>>,
    window: Single<'w, 's, &'static Window, With<bevy::window::PrimaryWindow>>,
    #[cfg(not(target_arch = "wasm32"))]
    on_gpu: Query<'w, 's, &'static mut murmur_flock::gpu::OnGpu>,
}

impl Targets<'_, '_> {
    /// Pushes the preset's parameters into the live flock and leaders.
    fn apply_live(&mut self, config: &SceneConfig) {
        if let Ok(mut flock) = self.flocks.get_mut(self.active.0) {
            flock.params = config.preset.flock_params();
        }
        for mut leader in &mut self.click_leader {
            leader.params = config.preset.leader;
        }
        let range = self.tuning.lead_range * config.preset.world.width;
        for mut leader in &mut self.player_leader {
            leader.params = LeaderParams {
                follow_range: range,
                ..config.preset.leader
            };
        }
    }

    /// Sizes the birds for the scene at `scale` times the automatic size.
    fn size_birds(&mut self, config: &SceneConfig, scale: f32) {
        let world = Vec2::new(config.preset.world.width, config.preset.world.height);
        let window = Vec2::new(
            self.window.physical_width() as f32,
            self.window.physical_height() as f32,
        );
        self.looks.bird_size = Looks::bird_size_for(&config.preset.model(), world, window) * scale;
    }

    /// Takes a whole new preset: a fresh flock with the same seed, the view fitted.
    fn load(&mut self, config: &mut SceneConfig, preset: Preset, scale: f32) {
        config.boids = preset.scene().boids as usize;
        config.preset = preset;
        self.reset.write(ResetScene {
            seed: Some(config.seed),
        });
        self.fit.write(FitView);
        self.size_birds(config, scale);
    }

    /// Adds or removes birds of the active flock (removing the newest first).
    fn set_boids(&mut self, config: &mut SceneConfig, n: usize) {
        let flock = self.active.0;
        // A flock on the GPU has no bird entities: it starts anew at the new size.
        #[cfg(not(target_arch = "wasm32"))]
        if let Ok(mut on_gpu) = self.on_gpu.get_mut(flock) {
            on_gpu.boids = n;
            config.boids = n;
            return;
        }
        let mut mine: Vec<(u32, Entity)> = self
            .birds
            .iter()
            .filter(|(_, _, m)| m.0 == flock)
            .map(|(e, b, _)| (b.id, e))
            .collect();
        mine.sort_unstable();
        if n < mine.len() {
            for &(_, e) in &mine[n..] {
                self.commands.entity(e).despawn();
            }
        } else if n > mine.len() {
            let next_id = mine.last().map_or(0, |(id, _)| id + 1);
            let params = config.preset.flock_params();
            let extra = n - mine.len();
            let seed = config.seed ^ (0x9E37_79B9 ^ next_id as u64);
            let new: Vec<_> = boid_bundles::<Vec2>(flock, &params, extra, seed)
                .map(|(mut b, m, p, v)| {
                    b.id += next_id;
                    (b, m, p, v)
                })
                .collect();
            self.commands.spawn_batch(new);
        }
        config.boids = n;
    }
}

pub(super) fn apply_actions(
    mut actions: MessageReader<PanelAction>,
    mut config: ResMut<SceneConfig>,
    mut state: ResMut<PanelState>,
    mut t: Targets,
) {
    for action in actions.read() {
        state.dirty = true;
        match action.clone() {
            PanelAction::Set { name, value } => {
                let before = config.preset.clone();
                match config.preset.set(&name, &value) {
                    Err(e) => state.warnings.push(e.to_string()),
                    Ok(()) => {
                        t.apply_live(&config);
                        if before.model != config.preset.model {
                            let scale = state.bird_scale;
                            t.size_birds(&config, scale);
                        }
                        if before.world != config.preset.world {
                            t.reset.write(ResetScene {
                                seed: Some(config.seed),
                            });
                            t.fit.write(FitView);
                        }
                    }
                }
            }
            PanelAction::SetBoids(n) => {
                let n = n.clamp(1, MAX_PANEL_BOIDS) as usize;
                t.set_boids(&mut config, n);
            }
            PanelAction::Reset { seed } => {
                t.reset.write(ResetScene { seed });
            }
            PanelAction::LoadBuiltin(name) => match Preset::load(&name) {
                Ok(p) => {
                    let scale = state.bird_scale;
                    t.load(&mut config, p, scale);
                }
                Err(e) => state.warnings.push(e.to_string()),
            },
            PanelAction::LoadUser(name) => {
                let Some(storage) = state.storage.clone() else {
                    continue;
                };
                match store::load_preset(&storage, &name) {
                    Ok(p) => {
                        let scale = state.bird_scale;
                        t.load(&mut config, p, scale);
                    }
                    Err(e) => state.warnings.push(e.to_string()),
                }
            }
            PanelAction::Save(name) => {
                let Some(storage) = state.storage.clone() else {
                    state.warnings.push(
                        "no config directory to save presets in (set MURMUR_CONFIG_DIR)".into(),
                    );
                    continue;
                };
                let mut preset = config.preset.clone();
                preset.world.boids = config.boids as u32;
                match store::save_preset(&storage, &name, &preset) {
                    Ok(_) => {
                        state.user_presets = store::user_presets(&storage);
                        state.selected = format!("user:{name}");
                    }
                    Err(e) => state.warnings.push(e),
                }
            }
            PanelAction::Delete(name) => {
                let Some(storage) = state.storage.clone() else {
                    continue;
                };
                match store::delete_preset(&storage, &name) {
                    Ok(()) => state.user_presets = store::user_presets(&storage),
                    Err(e) => state.warnings.push(e),
                }
            }
            PanelAction::Defaults => match Preset::load(config.preset.model.name()) {
                Ok(p) => {
                    let scale = state.bird_scale;
                    t.load(&mut config, p, scale);
                }
                Err(e) => state.warnings.push(e.to_string()),
            },
            PanelAction::SetLooks {
                trails,
                flapping,
                colour_by_flock_size,
                bird_scale,
            } => {
                t.looks.trails = trails;
                t.looks.flapping = flapping;
                t.looks.colour_by_flock_size = colour_by_flock_size;
                if bird_scale != state.bird_scale && bird_scale.is_finite() && bird_scale > 0.0 {
                    state.bird_scale = bird_scale;
                    t.size_birds(&config, bird_scale);
                }
            }
            PanelAction::SetPlayerSpeed(speed) => {
                if speed.is_finite() && speed >= 0.0 {
                    t.tuning.speed = speed;
                }
            }
            PanelAction::SetDebug(d) => *t.debug = d,
            PanelAction::TogglePanel => state.open = !state.open,
            PanelAction::DismissWarnings => state.warnings.clear(),
        }
    }
}
