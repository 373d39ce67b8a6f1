//! `murmur record`: the app's real scene (as `murmur screenshot` renders it) recorded into an
//! animated GIF, frame by frame at exact ticks: the same flags give the same animation whatever
//! the machine's frame rate. For READMEs and papers.

use super::ModeError;
use crate::app::{self, AppOptions};
use crate::capture::GifRecording;
use crate::cli::flags;
use crate::cli::{CameraChoice, FlyDirection, SceneArgs};
use crate::scripted::{self, CAPTURE_TIMEOUT, INPUT_DONE_FRAME, ScriptedInput};
use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// The flock's tick rate.
const TICKS_PER_SECOND: f64 = 60.0;

/// `murmur record`'s flags.
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// The flock.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Where to write the animation (a `.gif`).
    #[arg(long)]
    pub out: PathBuf,
    /// Seconds of flight to record (simulated time, at the flock's 60 ticks a second).
    #[arg(long, value_parser = parse_seconds)]
    pub seconds: f64,
    /// Frames a second.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub fps: u32,
    /// The window's and the animation's size, WIDTHxHEIGHT.
    #[arg(long, default_value = "640x360", value_parser = crate::cli::parse_size)]
    pub size: (u32, u32),
    /// Simulate a left click at window pixel X,Y before the first tick (place the leader).
    #[arg(long, value_name = "X,Y", value_parser = crate::scene::text::parse_point)]
    pub click: Option<(f32, f32)>,
    /// Fly the gold bird this way throughout (its key held), the follow camera after it.
    #[arg(long, value_enum)]
    pub fly: Option<FlyDirection>,
    /// Show the side panel.
    #[arg(long)]
    pub panel: bool,
    /// The 3D scene's camera (3D presets only; chase by default).
    #[arg(long, value_enum)]
    pub camera: Option<CameraChoice>,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 600.0 => Ok(v),
        _ => Err(format!(
            "seconds must be a number above 0 and at most 600, got `{s}`"
        )),
    }
}

/// Where the recording stands.
#[derive(Resource)]
struct Plan {
    frames: u32,
    fps: u32,
    frame: u32,
    started: Instant,
    /// Output frames asked for so far.
    asked: u32,
    /// What the loop does next.
    stage: Stage,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Stage {
    WarmUp,
    /// Ticks were queued for frame `n`; they run at the start of the next app frame.
    Ticked,
    /// Frame `n` was asked for at this moment.
    Waiting(Instant),
}

/// The animation being written and how many frames it holds.
#[derive(Resource)]
struct Target {
    gif: Option<GifRecording<std::fs::File>>,
    captured: u32,
    fps: u32,
    error: Option<String>,
    /// How it ended (frames written, or why not), for after the app is gone.
    outcome: Outcome,
}

/// How the recording ended, shared with [`run`].
type Outcome = std::sync::Arc<std::sync::Mutex<Option<Result<u32, String>>>>;

/// Runs `murmur record`.
pub fn run(args: RecordArgs) -> Result<(), ModeError> {
    let scene = flags::scene_config(&args.scene)?;
    let view = CameraChoice::view(args.camera, &scene)?;
    if args.out.extension().and_then(|e| e.to_str()) != Some("gif") {
        return Err(ModeError::Usage(format!(
            "--out must name a .gif file, got {}",
            args.out.display()
        )));
    }
    scripted::out_folder_exists(&args.out)?;
    super::needs_display("record")?;
    let frames = (args.seconds * args.fps as f64).round().max(1.0) as u32;
    let file = std::fs::File::create(&args.out)
        .map_err(|e| ModeError::Failed(format!("cannot write {}: {e}", args.out.display())))?;
    let gif = GifRecording::new(file, args.size.0, args.size.1)
        .map_err(|e| ModeError::Failed(format!("cannot start the recording: {e}")))?;
    let outcome = Outcome::default();
    let mut app = app::build(AppOptions {
        scene,
        window: args.size,
    });
    let mut panel = crate::app::panel::PanelState::default();
    panel.open = args.panel;
    app.insert_resource(panel)
        .insert_resource(view)
        // A picture for a README: the flock, not the list of keys.
        .insert_resource(crate::app::controls::ShowHelp(false))
        .insert_resource(Plan {
            frames,
            fps: args.fps,
            frame: 0,
            started: Instant::now(),
            asked: 0,
            stage: Stage::WarmUp,
        })
        .insert_resource(Target {
            gif: Some(gif),
            captured: 0,
            fps: args.fps,
            error: None,
            outcome: outcome.clone(),
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
    let written = match outcome.lock().map(|mut o| o.take()) {
        Ok(Some(Ok(frames))) => frames,
        Ok(Some(Err(e))) => return Err(ModeError::Failed(e)),
        _ => {
            return Err(ModeError::Failed(match exit {
                AppExit::Error(code) => format!("the app stopped with code {code}"),
                AppExit::Success => "the app closed before the recording ended".into(),
            }));
        }
    };
    eprintln!(
        "recorded {written} frames ({:.1} s at {} fps) into {}",
        written as f64 / args.fps as f64,
        args.fps,
        args.out.display()
    );
    println!("{}", args.out.display());
    Ok(())
}

/// Ticks that take the flock from output frame `k` to `k + 1`.
fn ticks_before(k: u32, fps: u32) -> u32 {
    let at = |k: u32| (k as f64 * TICKS_PER_SECOND / fps as f64).floor() as u32;
    at(k + 1) - at(k)
}

/// Frame by frame (the scripted click and key alongside): a warm-up, then ticks, capture, wait,
/// again.
fn drive(
    mut commands: Commands,
    mut plan: ResMut<Plan>,
    mut target: ResMut<Target>,
    mut fixed: ResMut<Time<Fixed>>,
    mut exit: MessageWriter<AppExit>,
) {
    plan.frame += 1;
    if plan.frame < INPUT_DONE_FRAME {
        return;
    }
    if let Some(e) = target.error.take() {
        *target.outcome.lock().expect("not poisoned") = Some(Err(e));
        exit.write(AppExit::error());
        return;
    }
    match plan.stage {
        Stage::WarmUp => {
            if scripted::warmed_up(plan.frame, plan.started) {
                // The first frame shows the start; later ones follow their ticks.
                plan.stage = Stage::Ticked;
            }
        }
        Stage::Ticked => {
            plan.asked += 1;
            plan.stage = Stage::Waiting(Instant::now());
            commands.spawn(Screenshot::primary_window()).observe(
                |captured: On<ScreenshotCaptured>, mut target: ResMut<Target>| {
                    let k = target.captured;
                    let fps = target.fps;
                    let result = match captured.image.clone().try_into_dynamic() {
                        Ok(image) => {
                            let rgba = image.to_rgba8();
                            let (w, h) = (rgba.width(), rgba.height());
                            let gif = target.gif.as_mut().expect("the recording");
                            gif.push(&rgba.into_raw(), w, h, k as f64 / fps as f64)
                                .map_err(|e| format!("cannot write frame {k}: {e}"))
                        }
                        Err(e) => Err(format!("frame {k} cannot be read: {e}")),
                    };
                    match result {
                        Ok(()) => target.captured += 1,
                        Err(e) => target.error = Some(e),
                    }
                },
            );
        }
        Stage::Waiting(since) => {
            if target.captured == plan.asked {
                if plan.asked == plan.frames {
                    let gif = target.gif.take().expect("the recording");
                    let written = gif.frames() + 1;
                    let result = gif
                        .finish(1.0 / plan.fps as f64)
                        .map(|_| written)
                        .map_err(|e| format!("cannot finish the recording: {e}"));
                    *target.outcome.lock().expect("not poisoned") = Some(result);
                    exit.write(AppExit::Success);
                    return;
                }
                let ticks = ticks_before(plan.asked - 1, plan.fps);
                let dt = fixed.timestep();
                fixed.accumulate_overstep(dt * ticks);
                plan.stage = Stage::Ticked;
            } else if since.elapsed() > CAPTURE_TIMEOUT {
                *target.outcome.lock().expect("not poisoned") = Some(Err(format!(
                    "no frame was captured within {CAPTURE_TIMEOUT:?}"
                )));
                exit.write(AppExit::error());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_add_up_to_the_seconds_at_any_frame_rate() {
        for fps in [1, 7, 24, 30, 50] {
            let total: u32 = (0..fps).map(|k| ticks_before(k, fps)).sum();
            assert_eq!(total, 60, "{fps} fps");
        }
        assert_eq!(ticks_before(0, 30), 2);
    }
}
