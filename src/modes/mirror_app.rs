//! The mirror's window: the board's OLED as received beside the same model run here, and a
//! status line (connected, frames/s, CRC errors, lost frames, resets, in sync).

use super::ModeError;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use oled_view::{MicroboidsPlugin, spawn_screen};
use serial_bridge::link::Source;
use serial_bridge::plugin::{LinkError, LocalBoard, MirrorState, RemoteBoard, SerialBridgePlugin};
use std::path::PathBuf;

/// Screen pixels per OLED pixel.
const SCALE: f32 = 5.0;

pub fn run(port: PathBuf, record: Option<PathBuf>) -> Result<(), ModeError> {
    let exit = App::new()
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
                source: Source::Port(port),
                record,
            },
        ))
        .insert_resource(ClearColor(Color::srgb(0.08, 0.08, 0.1)))
        .add_systems(PostStartup, spawn_screens)
        .add_systems(EguiPrimaryContextPass, status)
        .run();
    match exit {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(ModeError::Failed(format!(
            "the app stopped with code {code}"
        ))),
    }
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
    let r = m.report();
    let link = match (&error.0, m.connected(), m.problem()) {
        (Some(e), _, _) => format!("cannot start: {e}"),
        (None, Some(port), _) => format!("connected to {port}"),
        (None, None, Some(p)) => format!("waiting: {p}"),
        (None, None, None) => "opening…".into(),
    };
    let sync = match (&r.first_divergence, r.in_sync) {
        (Some(d), _) => format!("DIVERGED at tick {} bird {} ({})", d.tick, d.bird, d.field),
        (None, true) => "in sync".into(),
        (None, false) => "no model to compare".into(),
    };
    let line = format!(
        "{link} · {} frames/s · tick {} · CRC errors {} · framing errors {} · lost {} · resets {} · {sync}",
        m.frames_per_second(),
        r.last_tick.map_or("-".into(), |t| t.to_string()),
        r.crc_errors,
        r.framing_errors,
        r.lost_frames,
        r.resets
    );
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
