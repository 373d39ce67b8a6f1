//! The Bevy side: the reader thread's events drained into a [`Mirror`] every frame (never
//! blocking), and two boards for the OLED view: the board as received and the local model.

use crate::link::{LinkHandle, Source};
use crate::mirror::Mirror;
use bevy_app::{App, Plugin, Startup, Update};
use bevy_ecs::prelude::*;
use murmur_microboids::{Flock, Revision};
use murmur_oled::{Board, BoardSource};
use std::path::PathBuf;
use std::sync::Mutex;

/// Reads a board stream and mirrors it.
pub struct SerialBridgePlugin {
    /// Where the stream comes from.
    pub source: Source,
    /// Append raw frames here.
    pub record: Option<PathBuf>,
}

/// The mirror's state, for display.
#[derive(Resource, Default)]
pub struct MirrorState(pub Mirror);

/// The board as received (an OLED [`Board`] fed from outside).
#[derive(Component)]
pub struct RemoteBoard;

/// The local model running in lockstep (an OLED [`Board`] fed from the mirror).
#[derive(Component)]
pub struct LocalBoard;

/// A problem starting the link, for display.
#[derive(Resource, Default)]
pub struct LinkError(pub Option<String>);

#[derive(Resource)]
struct Link(Mutex<LinkHandle>);

impl Plugin for SerialBridgePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<MirrorState>()
            .init_resource::<LinkError>();
        match LinkHandle::start(self.source.clone(), self.record.as_deref()) {
            Ok(link) => {
                app.insert_resource(Link(Mutex::new(link)));
            }
            Err(e) => {
                app.insert_resource(LinkError(Some(e.to_string())));
            }
        }
        app.add_systems(Startup, spawn_boards)
            .add_systems(Update, drain);
    }
}

fn external_board() -> Board {
    let mut board = Board::new(Revision::A412, 1, 1).expect("a one-bird board");
    board.source = BoardSource::External;
    board
}

fn spawn_boards(mut commands: Commands) {
    commands.spawn((external_board(), RemoteBoard));
    commands.spawn((external_board(), LocalBoard));
}

/// Takes in whatever arrived since the last frame and refreshes both boards.
fn drain(
    link: Option<Res<Link>>,
    mut mirror: ResMut<MirrorState>,
    mut remote: Query<&mut Board, (With<RemoteBoard>, Without<LocalBoard>)>,
    mut local: Query<&mut Board, (With<LocalBoard>, Without<RemoteBoard>)>,
) {
    let Some(link) = link else { return };
    let Ok(link) = link.0.lock() else { return };
    let before = mirror.0.frames_ok();
    for event in link.try_iter() {
        mirror.0.handle(&event);
    }
    if mirror.0.frames_ok() == before {
        return;
    }
    let birds = mirror.0.board_birds();
    if let (Ok(mut board), Ok(flock)) = (
        remote.single_mut(),
        Flock::from_birds(Revision::A412, &birds, 1, 0),
    ) {
        board.flock = flock;
        board.redraw();
    }
    if let (Ok(mut board), Some(model)) = (local.single_mut(), mirror.0.local())
        && let Ok(flock) = Flock::from_birds(model.revision(), model.birds(), 1, model.tick_count())
    {
        board.flock = flock;
        board.redraw();
    }
}
