//! `murmur screenshot`: the app's real scene, rendered in its window after a number of ticks and
//! saved as a PNG. Works under Xvfb. The simulation advances by exact ticks (the virtual clock is
//! paused and the fixed loop is fed one timestep at a time), so the same flags give the same
//! flock whatever the frame rate. `--fly` holds a key through Bevy's keyboard input, as a
//! player would, and the follow camera goes after the gold bird.

use super::ModeError;
use crate::app::{self, AppOptions};
use crate::cli::flags;
use crate::cli::{BoardArgs, CameraChoice, FlyDirection, SceneArgs, parse_size};
use crate::scene::text::parse_point;
use crate::scripted::{self, CAPTURE_TIMEOUT, INPUT_DONE_FRAME, ScriptedInput};
use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

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
    /// The 3D scene's camera (3D presets only; chase by default).
    #[arg(long, value_enum)]
    pub camera: Option<CameraChoice>,
    /// Zoom in this many times closer than the whole world fitted into the playfield (in 3D:
    /// the orbit camera this many times closer than its usual distance).
    #[arg(long, default_value_t = 1.0, value_parser = parse_zoom)]
    pub zoom: f32,
    /// Fly the flock on the GPU (as `murmur run --gpu`).
    #[arg(long)]
    pub gpu: bool,
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

/// What to do, and how far it has got.
#[derive(Resource)]
struct Plan {
    steps: u64,
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
    args.board.check(&scene)?;
    let mut view = CameraChoice::view(args.camera, &scene)?;
    // In 3D the zoom brings the orbit camera closer.
    view.distance /= args.zoom;
    scripted::out_folder_exists(&args.out)?;
    super::needs_display("screenshot")?;
    let _ = std::fs::remove_file(&args.out);
    let mut app = app::build(AppOptions {
        scene,
        window: args.size,
    });
    let mut panel = crate::app::panel::PanelState::default();
    panel.open = args.panel;
    app.insert_resource(panel);
    app.insert_resource(args.board.panel());
    app.insert_resource(view);
    app.insert_resource(crate::app::path::UseGpu(args.gpu));
    app.insert_resource(Plan {
        steps: args.steps,
        zoom: args.zoom,
        out: args.out.clone(),
        frame: 0,
        started: Instant::now(),
        settled: 0,
        requested: None,
    })
    .add_systems(Update, drive);
    scripted::plugin(
        &mut app,
        ScriptedInput {
            click: args.click.map(|(x, y)| Vec2::new(x, y)),
            fly: args.fly,
        },
    );
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

/// Frame by frame (the scripted click and key alongside): fast-forward, warm-up, settle one tick
/// per frame, capture.
fn drive(
    mut commands: Commands,
    mut plan: ResMut<Plan>,
    mut fixed: ResMut<Time<Fixed>>,
    mut exit: MessageWriter<AppExit>,
    mut camera: Query<&mut Projection, With<crate::app::camera::WorldCamera>>,
    mut fitted: ResMut<crate::app::camera::FittedView>,
) {
    plan.frame += 1;
    let settle = SETTLE_TICKS.min(plan.steps);
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
        INPUT_DONE_FRAME => {
            // The fixed loop runs these ticks at the start of the next frame.
            let dt = fixed.timestep();
            fixed.accumulate_overstep(dt * (plan.steps - settle) as u32);
        }
        _ if !scripted::warmed_up(plan.frame, plan.started) => {}
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
