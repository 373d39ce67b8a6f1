//! The mirror's window: the board's OLED as received beside the same model run here, and a
//! status line (connected, frames/s, CRC errors, lost frames, resets, in sync).

use crate::modes::ModeError;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::WindowResolution;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use murmur_oled::{MicroboidsPlugin, spawn_screen};
use murmur_serial::link::Source;
use murmur_serial::plugin::{LinkError, LocalBoard, MirrorState, RemoteBoard, SerialBridgePlugin};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Screen pixels per OLED pixel.
const SCALE: f32 = 5.0;
/// Time given to the renderer to compile its pipelines before a capture.
const WARM_UP: Duration = Duration::from_secs(2);

/// `--screenshot`: where, after how many FLOCK frames, and whether it was asked for yet.
#[derive(Resource)]
struct Capture {
    out: PathBuf,
    frames: u64,
    started: Instant,
    requested: bool,
}

/// Opens the mirror window on `port`; with `capture` (a PNG and a frame count), saves the
/// window once that many FLOCK frames have arrived and exits.
pub fn run(
    port: PathBuf,
    baud: u32,
    record: Option<PathBuf>,
    capture: Option<(PathBuf, u64)>,
) -> Result<(), ModeError> {
    if let Some((out, _)) = &capture {
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty())
            && !parent.is_dir()
        {
            return Err(ModeError::Usage(format!(
                "no such directory: {}",
                parent.display()
            )));
        }
        let _ = std::fs::remove_file(out);
    }
    crate::modes::needs_display("mirror")?;
    let mut app = App::new();
    if let Some((out, frames)) = &capture {
        app.insert_resource(Capture {
            out: out.clone(),
            frames: *frames,
            started: Instant::now(),
            requested: false,
        })
        .add_systems(Update, capture_when_ready);
    }
    let exit = app
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: format!("murmur mirror: {}", port.display()),
                resolution: WindowResolution::new(1380, 480).with_scale_factor_override(1.0),
                ..default()
            }),
            ..default()
        }))
        .add_plugins((
            EguiPlugin::default(),
            MicroboidsPlugin,
            SerialBridgePlugin {
                source: Source::Port { path: port, baud },
                record,
            },
        ))
        .insert_resource(ClearColor(Color::srgb(0.08, 0.08, 0.1)))
        .add_systems(PostStartup, spawn_screens)
        .add_systems(EguiPrimaryContextPass, status)
        .run();
    if let AppExit::Error(code) = exit {
        return Err(ModeError::Failed(format!(
            "the app stopped with code {code}"
        )));
    }
    if let Some((out, _)) = capture {
        if !out.is_file() {
            return Err(ModeError::Failed(format!(
                "no screenshot was written to {}",
                out.display()
            )));
        }
        println!("{}", out.display());
    }
    Ok(())
}

fn capture_when_ready(
    mut commands: Commands,
    mut capture: ResMut<Capture>,
    mirror: Res<MirrorState>,
) {
    if capture.requested
        || mirror.0.frames_ok() < capture.frames
        || capture.started.elapsed() < WARM_UP
    {
        return;
    }
    capture.requested = true;
    let mut save = save_to_disk(capture.out.clone());
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            save(captured);
            exit.write(AppExit::Success);
        },
    );
}

fn spawn_screens(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    remote: Single<Entity, With<RemoteBoard>>,
    local: Single<Entity, With<LocalBoard>>,
) {
    commands.spawn((Camera2d, Msaa::Off));
    for (board, x) in [(*remote, -340.0), (*local, 340.0)] {
        let screen = spawn_screen(&mut commands, &mut images, board, SCALE);
        commands
            .entity(screen)
            .insert(Transform::from_xyz(x, -20.0, 0.0));
    }
}

fn status(mut contexts: EguiContexts, mirror: Res<MirrorState>, error: Res<LinkError>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let m = &mirror.0;
    let link = match (&error.0, m.connected(), m.problem()) {
        (Some(e), _, _) => format!("cannot start: {e}"),
        (None, Some(port), _) => format!("connected to {port}"),
        (None, None, Some(p)) => format!("waiting: {p}"),
        (None, None, None) => "opening…".into(),
    };
    let line = format!("{link} · {}", m.status_line());
    egui::Area::new("mirror-status".into())
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(10.0, 10.0))
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(line).color(egui::Color32::WHITE));
            ui.label(
                egui::RichText::new("left: the board as received · right: the same model run here")
                    .color(egui::Color32::GRAY),
            );
        });
    Ok(())
}
