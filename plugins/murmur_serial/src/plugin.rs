//! The Bevy side: a [`Mirror`] as a resource and two boards for the OLED view, the board as
//! received and the local model ([`MirrorViewPlugin`]); the reader thread's events drained into
//! it every frame, never blocking ([`SerialBridgePlugin`]).

use crate::mirror::Mirror;
use bevy_app::{App, Plugin, Startup, Update};
use bevy_ecs::prelude::*;
use murmur_microboids::{Flock, Revision};
use murmur_oled::{Board, BoardSource};

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

/// The mirror's work in a frame, in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MirrorSystems {
    /// Whatever the reader brought since the last frame goes into [`MirrorState`].
    Receive,
    /// The [`RemoteBoard`] and [`LocalBoard`] take the mirror's latest state.
    Show,
}

/// A [`MirrorState`] and the two boards that show it, refreshed whenever a FLOCK frame arrives.
/// Something else feeds the mirror, in [`MirrorSystems::Receive`]: [`SerialBridgePlugin`]'s
/// reader thread here, the web page's serial port in the browser.
#[derive(Default)]
pub struct MirrorViewPlugin;

impl Plugin for MirrorViewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<MirrorState>()
            .init_resource::<LinkError>()
            .configure_sets(
                Update,
                (MirrorSystems::Receive, MirrorSystems::Show).chain(),
            )
            .add_systems(Startup, spawn_boards)
            .add_systems(Update, show_boards.in_set(MirrorSystems::Show));
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

/// Refreshes both boards when a FLOCK frame arrived since the last time.
fn show_boards(
    mirror: Res<MirrorState>,
    mut shown: Local<u64>,
    mut remote: Query<&mut Board, (With<RemoteBoard>, Without<LocalBoard>)>,
    mut local: Query<&mut Board, (With<LocalBoard>, Without<RemoteBoard>)>,
) {
    if mirror.0.frames_ok() == *shown {
        return;
    }
    *shown = mirror.0.frames_ok();
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

#[cfg(not(target_arch = "wasm32"))]
pub use bridge::SerialBridgePlugin;

#[cfg(not(target_arch = "wasm32"))]
mod bridge {
    use super::{LinkError, MirrorState, MirrorSystems, MirrorViewPlugin};
    use crate::link::{LinkHandle, Source};
    use bevy_app::{App, Plugin, Update};
    use bevy_ecs::prelude::*;
    use std::path::PathBuf;
    use std::sync::Mutex;

    /// Reads a board stream on a thread and mirrors it (adds [`MirrorViewPlugin`]).
    pub struct SerialBridgePlugin {
        /// Where the stream comes from.
        pub source: Source,
        /// Append raw frames here.
        pub record: Option<PathBuf>,
    }

    #[derive(Resource)]
    struct Link(Mutex<LinkHandle>);

    impl Plugin for SerialBridgePlugin {
        fn build(&self, app: &mut App) {
            if !app.is_plugin_added::<MirrorViewPlugin>() {
                app.add_plugins(MirrorViewPlugin);
            }
            match LinkHandle::start(self.source.clone(), self.record.as_deref()) {
                Ok(link) => {
                    app.insert_resource(Link(Mutex::new(link)));
                }
                Err(e) => {
                    app.insert_resource(LinkError(Some(e.to_string())));
                }
            }
            app.add_systems(Update, drain.in_set(MirrorSystems::Receive));
        }
    }

    /// Takes in whatever arrived since the last frame.
    fn drain(link: Option<Res<Link>>, mut mirror: ResMut<MirrorState>) {
        let Some(link) = link else { return };
        let Ok(link) = link.0.lock() else { return };
        for event in link.try_iter() {
            mirror.0.handle(&event);
        }
    }
}
