//! A board plugged into the computer, mirrored on the page. The page's script reads the port with
//! Web Serial (`web/index.html`: the port chooser needs the user's click, which only a page
//! button has) and hands over what it reads through the functions here; murmur_board_link's
//! decoder and murmur_serial's `Mirror` take it in, exactly as `murmur mirror` does natively. Once
//! a board has been connected, the board as received and the same model run here show top left,
//! under a status line.

use crate::app::camera::SCREEN_LAYER;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use murmur_board_link::Decoder;
use murmur_oled::{MicroboidsPlugin, spawn_screen};
use murmur_serial::LinkEvent;
use murmur_serial::MirrorReport;
use murmur_serial::plugin::{
    LocalBoard, MirrorState, MirrorSystems, MirrorViewPlugin, RemoteBoard,
};
use serde::Serialize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use wasm_bindgen::prelude::wasm_bindgen;

/// Screen pixels per OLED pixel.
const SCALE: f32 = 3.0;
/// The screens' top-left corner, in pixels from the window's top left (under the help text).
const CORNER: Vec2 = Vec2::new(12.0, 96.0);

/// What the page's script reported since the app last looked.
enum PortEvent {
    Opened(String),
    Bytes(Vec<u8>),
    Closed(String),
}

/// The script's side of the mirror: what it handed over, and the app's last report for it.
struct Inbox {
    events: Vec<PortEvent>,
    report: String,
}

static INBOX: Mutex<Inbox> = Mutex::new(Inbox {
    events: Vec::new(),
    report: String::new(),
});
static BAUD: AtomicU32 = AtomicU32::new(115_200);

fn post(event: PortEvent) {
    let Ok(mut inbox) = INBOX.lock() else { return };
    match (inbox.events.last_mut(), event) {
        (Some(PortEvent::Bytes(held)), PortEvent::Bytes(more)) => held.extend_from_slice(&more),
        (_, event) => inbox.events.push(event),
    }
}

/// The page's script opened a board's port (`name` says which, for the status line).
#[wasm_bindgen(js_name = boardOpened)]
pub fn board_opened(name: String) {
    post(PortEvent::Opened(name));
}

/// Bytes read from the board's port, as they came.
#[wasm_bindgen(js_name = boardBytes)]
pub fn board_bytes(bytes: &[u8]) {
    post(PortEvent::Bytes(bytes.to_vec()));
}

/// The board's port closed (unplugged, or it failed): `why`, for the status line.
#[wasm_bindgen(js_name = boardClosed)]
pub fn board_closed(why: String) {
    post(PortEvent::Closed(why));
}

/// The mirror's counters as JSON (the fields of `murmur mirror --json`, plus `connected`,
/// `problem` and the status line), as of the app's last frame; empty before any board.
#[wasm_bindgen(js_name = boardReport)]
pub fn board_report() -> String {
    INBOX.lock().map(|i| i.report.clone()).unwrap_or_default()
}

/// The serial rate to open the board's port at: the address's `baud`, or 115200.
#[wasm_bindgen(js_name = boardBaud)]
pub fn board_baud() -> u32 {
    BAUD.load(Ordering::Relaxed)
}

/// Sets the rate [`board_baud`] gives the page's script.
pub fn set_baud(baud: u32) {
    BAUD.store(baud, Ordering::Relaxed);
}

/// What [`board_report`] says.
#[derive(Serialize)]
struct PageReport<'a> {
    #[serde(flatten)]
    report: MirrorReport,
    connected: Option<&'a str>,
    problem: Option<&'a str>,
    status: String,
}

/// The decoder for the page's port (one stream, resynchronised at each new connection).
#[derive(Resource)]
struct PortDecoder(Decoder);

/// Whether a board was ever connected (the screens and status line show from then on).
#[derive(Resource, Default)]
struct BoardView {
    shown: bool,
}

#[derive(Component)]
struct MirrorScreen;

/// Adds the mirror: its state and boards ([`MirrorViewPlugin`]), what feeds it from the page,
/// the two screens and the status line.
pub fn plugin(app: &mut App) {
    if !app.is_plugin_added::<MicroboidsPlugin>() {
        app.add_plugins(MicroboidsPlugin);
    }
    app.add_plugins(MirrorViewPlugin)
        .insert_resource(PortDecoder(Decoder::new()))
        .init_resource::<BoardView>()
        .add_systems(PostStartup, spawn_screens)
        .add_systems(Update, receive.in_set(MirrorSystems::Receive))
        .add_systems(Update, place_screens.after(MirrorSystems::Show))
        .add_systems(EguiPrimaryContextPass, status);
}

/// Takes in what the page's script handed over, and leaves it the new report.
fn receive(
    mut mirror: ResMut<MirrorState>,
    mut decoder: ResMut<PortDecoder>,
    mut view: ResMut<BoardView>,
) {
    let events = match INBOX.lock() {
        Ok(mut inbox) if !inbox.events.is_empty() => std::mem::take(&mut inbox.events),
        _ => return,
    };
    let mirror = &mut mirror.0;
    for event in events {
        match event {
            PortEvent::Opened(name) => {
                // Whatever was in flight when the port opened is not a frame of ours.
                decoder.0.resync();
                view.shown = true;
                info!("board: connected to {name}");
                mirror.handle(&LinkEvent::Connected(name));
            }
            PortEvent::Bytes(bytes) => mirror.take_bytes(&mut decoder.0, &bytes),
            PortEvent::Closed(why) => {
                mirror.handle(&LinkEvent::Disconnected(why.clone()));
                info!("board: {why}; {}", mirror.status_line());
            }
        }
    }
    let report = PageReport {
        report: mirror.report(),
        connected: mirror.connected(),
        problem: mirror.problem(),
        status: mirror.status_line(),
    };
    if let (Ok(json), Ok(mut inbox)) = (serde_json::to_string(&report), INBOX.lock()) {
        inbox.report = json;
    }
}

fn spawn_screens(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    remote: Single<Entity, With<RemoteBoard>>,
    local: Single<Entity, With<LocalBoard>>,
) {
    for board in [*remote, *local] {
        let screen = spawn_screen(&mut commands, &mut images, board, SCALE);
        commands.entity(screen).insert((
            MirrorScreen,
            RenderLayers::layer(SCREEN_LAYER),
            Transform::from_xyz(0.0, 0.0, 6.0),
            Visibility::Hidden,
        ));
    }
}

/// Keeps the two screens side by side at the top left, shown once a board was connected.
fn place_screens(
    view: Res<BoardView>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut screens: Query<(&mut Transform, &mut Visibility), With<MirrorScreen>>,
) {
    let size = Vec2::new(128.0, 64.0) * SCALE;
    let half = Vec2::new(window.width(), window.height()) * 0.5;
    for (i, (mut t, mut visibility)) in screens.iter_mut().enumerate() {
        let left = -half.x + CORNER.x + i as f32 * (size.x + 16.0);
        t.translation.x = left + size.x * 0.5;
        t.translation.y = half.y - CORNER.y - size.y * 0.5;
        visibility.set_if_neq(if view.shown {
            Visibility::Visible
        } else {
            Visibility::Hidden
        });
    }
}

fn status(mut contexts: EguiContexts, view: Res<BoardView>, mirror: Res<MirrorState>) -> Result {
    if !view.shown {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let m = &mirror.0;
    let link = match (m.connected(), m.problem()) {
        (Some(port), _) => format!("board: {port}"),
        (None, Some(why)) => format!("board: {why}; waiting for it to come back"),
        (None, None) => "board: opening…".into(),
    };
    let size = Vec2::new(128.0, 64.0) * SCALE;
    // As the help text: white on a dark veil, readable over the flock.
    let frame = egui::Frame::NONE
        .fill(crate::app::hud::veil(170))
        .inner_margin(egui::Margin::same(6));
    let diverged = m.first_divergence().is_some();
    egui::Area::new("board-mirror-status".into())
        .fixed_pos(egui::pos2(CORNER.x, CORNER.y + size.y + 6.0))
        .interactable(false)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                let white = egui::Color32::WHITE;
                ui.label(egui::RichText::new(link).color(white).strong());
                let status = egui::RichText::new(m.status_line());
                ui.label(if diverged {
                    status
                        .color(egui::Color32::from_rgb(255, 120, 120))
                        .strong()
                } else {
                    status.color(white)
                });
                ui.label(
                    egui::RichText::new(
                        "left: the board as received · right: the same model run here",
                    )
                    .color(egui::Color32::LIGHT_GRAY),
                );
            });
        });
    Ok(())
}
