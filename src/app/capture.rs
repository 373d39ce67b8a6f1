//! Pictures of the window: F12 saves it as a PNG in the pictures folder (a download on the web
//! page), F9 starts and stops recording it into an animated GIF (640 px wide, 30 frames a
//! second, written frame by frame so that a crash or a kill leaves a readable file). The HUD
//! says where each file went and shows a recording mark with the time recorded.

use crate::capture::{self, GifRecording, RECORDING_FPS, RECORDING_WIDTH};
use bevy::prelude::*;
#[cfg(target_arch = "wasm32")]
use bevy::render::view::screenshot::save_to_disk;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// How long a notice stays on screen, in seconds.
const NOTICE_SECONDS: f64 = 6.0;

/// What the capture keys are doing.
#[derive(Resource, Default)]
pub struct Capture {
    recording: Option<Recording>,
    /// A line for the HUD and when it goes (real seconds).
    notice: Option<(String, f64)>,
}

impl Capture {
    /// True while F9 records.
    pub fn recording(&self) -> bool {
        self.recording.is_some()
    }

    /// Seconds recorded so far.
    pub fn recorded_seconds(&self, now: f64) -> Option<f64> {
        self.recording.as_ref().map(|r| now - r.started)
    }

    /// The HUD's current notice.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_ref().map(|(text, _)| text.as_str())
    }

    fn tell(&mut self, text: String, now: f64) {
        info!("{text}");
        self.notice = Some((text, now + NOTICE_SECONDS));
    }
}

/// A recording in progress.
struct Recording {
    started: f64,
    /// When the next frame is due (real seconds).
    next_at: f64,
    /// A frame was asked for and has not arrived yet.
    in_flight: bool,
    sink: Sink,
}

/// Where frames go: a file written by a thread of its own (natively), or memory (on the web,
/// offered as a download at the end).
enum Sink {
    #[cfg(not(target_arch = "wasm32"))]
    File {
        path: std::path::PathBuf,
        frames: std::sync::mpsc::Sender<Frame>,
        writer: std::thread::JoinHandle<std::io::Result<u32>>,
    },
    #[cfg(target_arch = "wasm32")]
    Memory {
        name: String,
        gif: Option<GifRecording<std::io::Cursor<Vec<u8>>>>,
    },
}

/// One captured frame: RGBA pixels, size, capture time (real seconds).
struct Frame(Vec<u8>, u32, u32, f64);

/// Adds the capture keys and their HUD.
pub fn plugin(app: &mut App) {
    app.init_resource::<Capture>()
        .add_systems(Update, (capture_keys, ask_for_frames).chain())
        .add_systems(EguiPrimaryContextPass, draw_capture_hud);
}

fn capture_keys(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time<Real>>,
    mut capture: ResMut<Capture>,
) {
    let now = time.elapsed_secs_f64();
    if capture
        .notice
        .as_ref()
        .is_some_and(|(_, until)| now > *until)
    {
        capture.notice = None;
    }
    if keys.just_pressed(KeyCode::F12) {
        save_picture(&mut commands);
    }
    if keys.just_pressed(KeyCode::F9) {
        match capture.recording.take() {
            Some(recording) => {
                let text = stop(recording, now);
                capture.tell(text, now);
            }
            None => match start(now) {
                Ok(recording) => capture.recording = Some(recording),
                Err(e) => capture.tell(format!("cannot record: {e}"), now),
            },
        }
    }
}

/// Saves the next frame as a PNG (natively: the HUD says where, or why not).
#[cfg(not(target_arch = "wasm32"))]
fn save_picture(commands: &mut Commands) {
    let dir = capture::pictures_dir();
    let path = capture::timestamped(&dir, "png");
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>,
              time: Res<Time<Real>>,
              mut capture: ResMut<Capture>| {
            let saved = std::fs::create_dir_all(&dir)
                .map_err(|e| e.to_string())
                .and_then(|()| {
                    let image = captured.image.clone().try_into_dynamic();
                    image.map_err(|e| e.to_string())
                })
                .and_then(|image| image.to_rgb8().save(&path).map_err(|e| e.to_string()));
            let text = match saved {
                Ok(()) => saved_text(&path, "picture"),
                Err(e) => format!("cannot save the picture {}: {e}", path.display()),
            };
            capture.tell(text, time.elapsed_secs_f64());
        },
    );
}

/// Offers the next frame as a PNG download (Bevy's `save_to_disk` does that in a browser).
#[cfg(target_arch = "wasm32")]
fn save_picture(commands: &mut Commands) {
    let path = capture::timestamped(std::path::Path::new(""), "png");
    let text = saved_text(&path, "picture");
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path))
        .observe(
            move |_: On<ScreenshotCaptured>,
                  time: Res<Time<Real>>,
                  mut capture: ResMut<Capture>| {
                capture.tell(text.clone(), time.elapsed_secs_f64());
            },
        );
}

/// What the HUD says about a saved file.
fn saved_text(path: &std::path::Path, what: &str) -> String {
    if cfg!(target_arch = "wasm32") {
        format!(
            "{what} downloaded as {}",
            path.file_name().unwrap_or_default().to_string_lossy()
        )
    } else {
        format!("{what} saved to {}", path.display())
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn start(now: f64) -> std::io::Result<Recording> {
    let dir = capture::pictures_dir();
    std::fs::create_dir_all(&dir)?;
    let path = capture::timestamped(&dir, "gif");
    let file = std::fs::File::create(&path)?;
    let (frames, incoming) = std::sync::mpsc::channel::<Frame>();
    // Scaling, colour mapping and compression off the frame loop.
    let writer = std::thread::Builder::new()
        .name("gif writer".into())
        .spawn(move || {
            let mut gif: Option<GifRecording<std::fs::File>> = None;
            let mut file = Some(file);
            let mut left_out = 0u32;
            for Frame(rgba, w, h, at) in incoming {
                let rec = match &mut gif {
                    Some(rec) => rec,
                    None => {
                        let (width, height) = capture::recording_size(w, h, RECORDING_WIDTH);
                        let sink = file.take().expect("the file, once");
                        gif.insert(GifRecording::new(sink, width, height)?)
                    }
                };
                // A window resized mid-recording: frames of the new shape are left out.
                if let Err(e) = rec.push(&rgba, w, h, at) {
                    if left_out == 0 {
                        warn!("recording: frames left out: {e}");
                    }
                    left_out += 1;
                }
            }
            match gif {
                Some(rec) => {
                    let frames = rec.frames() + 1;
                    rec.finish(1.0 / RECORDING_FPS as f64)?;
                    Ok(frames)
                }
                None => Ok(0),
            }
        })?;
    Ok(Recording {
        started: now,
        next_at: now,
        in_flight: false,
        sink: Sink::File {
            path,
            frames,
            writer,
        },
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn stop(recording: Recording, now: f64) -> String {
    let Sink::File {
        path,
        frames,
        writer,
    } = recording.sink;
    drop(frames);
    let seconds = now - recording.started;
    match writer.join() {
        Ok(Ok(n)) => format!(
            "{} ({n} frames, {seconds:.1} s)",
            saved_text(&path, "recording")
        ),
        Ok(Err(e)) => format!("the recording {} failed: {e}", path.display()),
        Err(_) => format!("the recording {} failed", path.display()),
    }
}

#[cfg(target_arch = "wasm32")]
fn start(now: f64) -> std::io::Result<Recording> {
    let name = capture::timestamped(std::path::Path::new(""), "gif")
        .to_string_lossy()
        .into_owned();
    Ok(Recording {
        started: now,
        next_at: now,
        in_flight: false,
        sink: Sink::Memory { name, gif: None },
    })
}

#[cfg(target_arch = "wasm32")]
fn stop(recording: Recording, now: f64) -> String {
    let Sink::Memory { name, gif } = recording.sink;
    let seconds = now - recording.started;
    let Some(gif) = gif else {
        return "nothing was recorded".into();
    };
    let frames = gif.frames() + 1;
    match gif.finish(1.0 / RECORDING_FPS as f64) {
        Ok(cursor) => match crate::web::download(&name, &cursor.into_inner(), "image/gif") {
            Ok(()) => format!("recording downloaded as {name} ({frames} frames, {seconds:.1} s)"),
            Err(e) => format!("the recording could not be downloaded: {e}"),
        },
        Err(e) => format!("the recording failed: {e}"),
    }
}

/// While recording: a frame of the window every 1/30 s (or every frame, when the app is
/// slower), one at a time.
fn ask_for_frames(mut commands: Commands, time: Res<Time<Real>>, mut capture: ResMut<Capture>) {
    let now = time.elapsed_secs_f64();
    let Some(recording) = capture.recording.as_mut() else {
        return;
    };
    if recording.in_flight || now < recording.next_at {
        return;
    }
    recording.in_flight = true;
    let step = 1.0 / RECORDING_FPS as f64;
    recording.next_at = (recording.next_at + step).max(now);
    commands.spawn(Screenshot::primary_window()).observe(
        |captured: On<ScreenshotCaptured>, time: Res<Time<Real>>, mut capture: ResMut<Capture>| {
            let at = time.elapsed_secs_f64();
            let Some(recording) = capture.recording.as_mut() else {
                return;
            };
            recording.in_flight = false;
            let Ok(image) = captured.image.clone().try_into_dynamic() else {
                warn!("recording: a frame in a format that cannot be read");
                return;
            };
            let rgba = image.to_rgba8();
            let (w, h) = (rgba.width(), rgba.height());
            let frame = Frame(rgba.into_raw(), w, h, at);
            if let Err(e) = hand_over(&mut recording.sink, frame) {
                let now = at;
                capture.recording = None;
                capture.tell(format!("recording stopped: {e}"), now);
            }
        },
    );
}

/// Passes a frame to the recording.
fn hand_over(sink: &mut Sink, Frame(rgba, w, h, at): Frame) -> Result<(), String> {
    match sink {
        #[cfg(not(target_arch = "wasm32"))]
        Sink::File { frames, .. } => frames
            .send(Frame(rgba, w, h, at))
            .map_err(|_| "the writer stopped".to_string()),
        #[cfg(target_arch = "wasm32")]
        Sink::Memory { gif, .. } => {
            let rec = match gif {
                Some(rec) => rec,
                None => {
                    let (width, height) = capture::recording_size(w, h, RECORDING_WIDTH);
                    gif.insert(
                        GifRecording::new(std::io::Cursor::new(Vec::new()), width, height)
                            .map_err(|e| e.to_string())?,
                    )
                }
            };
            if let Err(e) = rec.push(&rgba, w, h, at) {
                warn!("recording: a frame left out: {e}");
            }
            // The last frame is held until the next one comes, so it counts too.
            crate::web::publish_recorded_frames(rec.frames() + 1);
            Ok(())
        }
    }
}

/// The recording mark and the notice.
fn draw_capture_hud(
    mut contexts: EguiContexts,
    capture: Res<Capture>,
    time: Res<Time<Real>>,
    playfield: Res<super::camera::Playfield>,
) -> Result {
    let now = time.elapsed_secs_f64();
    let recorded = capture.recorded_seconds(now);
    if recorded.is_none() && capture.notice().is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let frame = egui::Frame::NONE
        .fill(super::hud::veil(190))
        .inner_margin(egui::Margin::same(6));
    egui::Area::new("capture".into())
        .anchor(
            egui::Align2::RIGHT_TOP,
            egui::vec2(-12.0 - playfield.right, 40.0),
        )
        .interactable(false)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                if let Some(s) = recorded {
                    let red = egui::Color32::from_rgb(255, 70, 60);
                    ui.horizontal(|ui| {
                        let (dot, _) =
                            ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                        ui.painter().circle_filled(dot.center(), 5.0, red);
                        let text = format!("REC {}:{:02} · F9 stops", s as u64 / 60, s as u64 % 60);
                        ui.label(egui::RichText::new(text).color(red).strong());
                    });
                }
                if let Some(notice) = capture.notice() {
                    let text = egui::RichText::new(notice).color(egui::Color32::WHITE);
                    ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
                }
            });
        });
    Ok(())
}
