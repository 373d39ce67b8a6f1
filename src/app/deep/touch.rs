//! Touch in the 3D scene: one finger dragging turns the orbit camera about the flock, pinching
//! brings it closer or further, a tap places the leader above the ground under the finger (as a
//! click does) and a second finger's tap removes it. The gestures are read in `app::touch`.

use super::click::{ground_under, place_leader_over};
use super::scenery::SceneFrame;
use super::view::{DeepCamera, DeepView, take_up_orbit, turn, zoom};
use crate::app::scene::SceneConfig;
use crate::app::touch::Gesture;
use bevy::prelude::*;
use murmur_flock::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Gesture>().add_systems(
        Update,
        gestures
            .after(crate::app::touch::read_touches)
            .run_if(super::deep),
    );
}

#[allow(clippy::too_many_arguments)]
fn gestures(
    mut commands: Commands,
    mut gestures: MessageReader<Gesture>,
    mut view: ResMut<DeepView>,
    mut dragged_from: Local<Option<Vec2>>,
    config: Res<SceneConfig>,
    frame: Option<Res<SceneFrame>>,
    camera: Query<(&Camera, &GlobalTransform), With<DeepCamera>>,
    flocks: Query<&FlockColumns<Vec3>>,
) {
    let Some(frame) = frame else { return };
    for gesture in gestures.read() {
        match *gesture {
            Gesture::Tap(at) => {
                if let Ok(camera) = camera.single()
                    && let Some(hit) = ground_under(camera, at, frame.ground)
                {
                    place_leader_over(&mut commands, hit, &flocks, &frame, &config);
                }
            }
            Gesture::SecondTap => commands.remove_leader(),
            Gesture::Steer(at) => {
                if let Some(from) = dragged_from.replace(at) {
                    turn(&mut view, at - from);
                    take_up_orbit(&mut view, &flocks);
                }
            }
            Gesture::SteerEnd => *dragged_from = None,
            Gesture::Pinch { factor, .. } => {
                zoom(&mut view, 1.0 / factor.clamp(0.5, 2.0));
                take_up_orbit(&mut view, &flocks);
            }
        }
    }
}
