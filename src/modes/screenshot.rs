//! `murmur screenshot`: the app's real scene, rendered in its window after a number of ticks and
//! saved as a PNG. Works under Xvfb. The simulation advances by exact ticks (the virtual clock is
//! paused and the fixed loop is fed one timestep at a time), so the same flags give the same
//! flock whatever the frame rate. `--fly` holds a key through Bevy's keyboard input, as a
//! player would, and the follow camera goes after the gold bird.

use super::ModeError;
use crate::app::{self, AppOptions};
use crate::cli::{BoardArgs, FlyDirection, SceneArgs, parse_size};
use crate::scene::flags;
use crate::scene::text::parse_point;
use bevy::app::AppExit;
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::PrimaryWindow;
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `murmur screenshot`.
#[derive(Args, Debug, Clone)]
pub struct ScreenshotArgs {
    /// The flock.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Ticks to simulate before the picture.
    #[arg(long, default_value_t = 300)]
    pub steps: u64,
    /// Simulate a left click at window pixel X,Y (from the top left) before the first tick, as a
    /// user placing the leader would.
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    pub click: Option<(f32, f32)>,
    /// Window size as WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
    /// The microboids board beside the flock.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Show the side panel in the picture.
    #[arg(long)]
    pub panel: bool,
    /// Fly the gold bird this way from the first tick (its key held, as a player would), the
    /// follow camera after it.
    #[arg(long, value_enum)]
    pub fly: Option<FlyDirection>,
    /// Zoom in this many times closer than the whole world fitted into the playfield.
    #[arg(long, default_value_t = 1.0, value_parser = parse_zoom)]
    pub zoom: f32,
    /// Where to write the PNG.
    #[arg(long)]
    pub out: PathBuf,
}

/// Parses a zoom factor (0.1 to 100).
fn parse_zoom(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(z) if (0.1..=100.0).contains(&z) => Ok(z),
        _ => Err(format!("zoom must be a number from 0.1 to 100, got `{s}`")),
    }
}

/// Ticks run one per frame at the end, so trails show the flock's motion.
const SETTLE_TICKS: u64 = 40;
/// Frames and time given to the renderer to compile its pipelines before the settle ticks.
const WARM_UP_FRAMES: u32 = 30;
const WARM_UP_TIME: Duration = Duration::from_secs(2);
/// Longest wait for the capture after asking for it.
const CAPTURE_TIMEOUT: Duration = Duration::from_secs(60);

/// What to do, and how far it has got.
#[derive(Resource)]
struct Plan {
    steps: u64,
    click: Option<Vec2>,
    fly: Option<crate::cli::FlyDirection>,
    zoom: f32,
    out: PathBuf,
    frame: u32,
    started: Instant,
    settled: u64,
    requested: Option<Instant>,
}

/// Runs `murmur screenshot`: the app's real scene after some ticks, written as a PNG.
pub fn run(args: ScreenshotArgs) -> Result<(), ModeError> {
    let scene = flags::scene_config(&args.scene)?;
    if let Some(parent) = args.out.parent().filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        return Err(ModeError::Usage(format!(
            "no such directory: {}",
            parent.display()
        )));
    }
    let _ = std::fs::remove_file(&args.out);
    let mut app = app::build(AppOptions {
        scene,
        window: args.size,
    });
    let mut panel = crate::app::panel::PanelState::default();
    panel.open = args.panel;
    app.insert_resource(panel);
    app.insert_resource(crate::app::board::BoardPanel {
        shown: args.board.oled,
        revision: args
            .board
            .revision
            .unwrap_or(murmur_microboids::Revision::A412),
        ..Default::default()
    });
    app.insert_resource(Plan {
        steps: args.steps,
        click: args.click.map(|(x, y)| Vec2::new(x, y)),
        fly: args.fly,
        zoom: args.zoom,
        out: args.out.clone(),
        frame: 0,
        started: Instant::now(),
        settled: 0,
        requested: None,
    })
    .add_systems(Startup, pause)
    .add_systems(Update, drive);
    let exit = app.run();
    if let AppExit::Error(code) = exit {
        return Err(ModeError::Failed(format!(
            "the app stopped with code {code}"
        )));
    }
    if !args.out.is_file() {
        return Err(ModeError::Failed(format!(
            "no screenshot was written to {}",
            args.out.display()
        )));
    }
    println!("{}", args.out.display());
    Ok(())
}

fn pause(mut time: ResMut<Time<Virtual>>) {
    time.pause();
}

/// Frame by frame: simulated click, fast-forward, warm-up, settle one tick per frame, capture.
fn drive(
    mut commands: Commands,
    mut plan: ResMut<Plan>,
    mut fixed: ResMut<Time<Fixed>>,
    window: Single<(Entity, &mut Window), With<PrimaryWindow>>,
    mut buttons: MessageWriter<MouseButtonInput>,
    mut keys: MessageWriter<KeyboardInput>,
    mut exit: MessageWriter<AppExit>,
    mut camera: Query<&mut Projection, With<crate::app::camera::WorldCamera>>,
    mut fitted: ResMut<crate::app::camera::FittedView>,
) {
    plan.frame += 1;
    let (window_entity, mut window) = window.into_inner();
    let press = |state| MouseButtonInput {
        button: MouseButton::Left,
        state,
        window: window_entity,
    };
    let settle = SETTLE_TICKS.min(plan.steps);
    // The key is held from the second frame on, reported every frame as a held key repeats
    // (so that a focus change of the window, which releases every key, does not end it).
    if let Some(fly) = plan.fly.filter(|_| plan.frame >= 2) {
        keys.write(KeyboardInput {
            key_code: fly.key(),
            logical_key: Key::Character(fly.letter().into()),
            state: ButtonState::Pressed,
            text: None,
            repeat: plan.frame > 2,
            window: window_entity,
        });
    }
    match plan.frame {
        1 if plan.zoom != 1.0 => {
            // Before the panel first reports its width: the view then keeps its centre.
            for mut projection in &mut camera {
                if let Projection::Orthographic(ortho) = &mut *projection {
                    ortho.scale /= plan.zoom;
                }
            }
            fitted.0 = false;
        }
        2 => {
            if let Some(at) = plan.click {
                window.set_physical_cursor_position(Some(DVec2::new(at.x as f64, at.y as f64)));
                buttons.write(press(ButtonState::Pressed));
            }
        }
        3 => {
            if plan.click.is_some() {
                buttons.write(press(ButtonState::Released));
            }
        }
        4 => {
            // The fixed loop runs these ticks at the start of the next frame.
            let dt = fixed.timestep();
            fixed.accumulate_overstep(dt * (plan.steps - settle) as u32);
        }
        _ if plan.frame < 4 + WARM_UP_FRAMES || plan.started.elapsed() < WARM_UP_TIME => {}
        _ if plan.settled < settle => {
            crate::app::controls::step_once(&mut fixed);
            plan.settled += 1;
        }
        _ => match plan.requested {
            None => {
                plan.requested = Some(Instant::now());
                let mut save = save_to_disk(plan.out.clone());
                commands.spawn(Screenshot::primary_window()).observe(
                    move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                        save(captured);
                        exit.write(AppExit::Success);
                    },
                );
            }
            Some(at) if at.elapsed() > CAPTURE_TIMEOUT => {
                error!("no frame was captured within {CAPTURE_TIMEOUT:?}");
                exit.write(AppExit::error());
            }
            Some(_) => {}
        },
    }
}
