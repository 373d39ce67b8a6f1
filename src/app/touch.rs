//! Touch, for a phone or a tablet: a tap places the leader, a second finger's tap (while one
//! rests) removes it, and pinching zooms about the fingers. In the flat scene dragging one
//! finger steers the gold bird towards it; in the 3D scene it turns the orbit camera
//! (`deep::touch`). Touches that start on the panel are the panel's.

use super::camera::{TrackCursor, WorldCamera};
use super::scene::SceneConfig;
use bevy::input::touch::{TouchInput, TouchPhase};
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use murmur_flock::prelude::*;

/// A finger that moves less than this (pixels) is tapping, not dragging.
pub const TAP_SLOP: f32 = 12.0;
/// A finger held longer than this (seconds) is not tapping. The touches are timed by the frames
/// that see them: a finger is taken to have landed as late, and lifted as early, as those frames
/// allow, so that a tap on a slow device (a software-drawn 3D page takes up to a second a frame,
/// and the browser hands each touch to its own frame) still counts.
pub const TAP_SECONDS: f64 = 1.0;

/// What the fingers ask for (a message each scene's handler reads).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    /// One finger tapped here (window pixels): place the leader.
    Tap(Vec2),
    /// A second finger tapped while another rested: remove the leader.
    SecondTap,
    /// One finger drags, now here (window pixels): steer the gold bird towards it (in 3D:
    /// turn the camera).
    Steer(Vec2),
    /// The dragging finger lifted.
    SteerEnd,
    /// Two fingers moved apart (`factor` > 1) or together, about `about` (window pixels).
    Pinch {
        /// The fingers' distance now over their distance before.
        factor: f32,
        /// Their midpoint.
        about: Vec2,
    },
}

#[derive(Clone, Copy, Debug)]
struct Finger {
    id: u64,
    start: Vec2,
    at: Vec2,
    since: f64,
    /// Went further than [`TAP_SLOP`] from where it landed.
    moved: bool,
    /// Part of a two-finger gesture: its lifting is no tap.
    used: bool,
}

/// Turns touches into [`Gesture`]s (a state machine of the fingers down, without Bevy, so that
/// it is tested on its own).
#[derive(Resource, Clone, Debug, Default)]
pub struct Gestures {
    fingers: Vec<Finger>,
    pinch: Option<f32>,
}

impl Gestures {
    /// True while one finger drags alone.
    fn steering(&self) -> bool {
        matches!(self.fingers.as_slice(), [f] if f.moved && !f.used)
    }

    /// A finger landed at `at` (window pixels) at time `t` (seconds).
    pub fn start(&mut self, id: u64, at: Vec2, t: f64) -> Option<Gesture> {
        let was_steering = self.steering();
        for f in &mut self.fingers {
            f.used = true;
        }
        self.fingers.push(Finger {
            id,
            start: at,
            at,
            since: t,
            moved: false,
            used: false,
        });
        self.pinch = None;
        was_steering.then_some(Gesture::SteerEnd)
    }

    /// A finger moved to `at`.
    pub fn moved(&mut self, id: u64, at: Vec2) -> Option<Gesture> {
        let finger = self.fingers.iter_mut().find(|f| f.id == id)?;
        finger.at = at;
        finger.moved |= finger.at.distance(finger.start) > TAP_SLOP;
        match *self.fingers.as_slice() {
            [f] => (f.moved && !f.used).then_some(Gesture::Steer(f.at)),
            [a, b, ..] => {
                let distance = a.at.distance(b.at);
                let before = self.pinch.replace(distance);
                if !(a.moved || b.moved) {
                    return None;
                }
                for f in &mut self.fingers {
                    f.used = true;
                }
                let before = before.filter(|d| *d > 1.0)?;
                Some(Gesture::Pinch {
                    factor: distance / before,
                    about: (a.at + b.at) * 0.5,
                })
            }
            [] => None,
        }
    }

    /// A finger lifted at time `t` (`cancelled`: the system took it, no tap).
    pub fn end(&mut self, id: u64, t: f64, cancelled: bool) -> Option<Gesture> {
        let was_steering = self.steering();
        let i = self.fingers.iter().position(|f| f.id == id)?;
        let finger = self.fingers.remove(i);
        self.pinch = None;
        if was_steering {
            return Some(Gesture::SteerEnd);
        }
        if cancelled || finger.moved || finger.used || t - finger.since > TAP_SECONDS {
            return None;
        }
        if self.fingers.is_empty() {
            Some(Gesture::Tap(finger.at))
        } else {
            Some(Gesture::SecondTap)
        }
    }
}

/// Where the dragging finger is (window pixels), for the gold bird's thrust.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct TouchSteer(pub Option<Vec2>);

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.init_resource::<Gestures>()
        .init_resource::<TouchSteer>()
        .init_resource::<EguiWantsInput>()
        .add_message::<Gesture>()
        .add_systems(
            Update,
            (read_touches, flat_gestures.run_if(super::deep::flat))
                .chain()
                .after(TrackCursor),
        );
}

/// Touches, but those that started on the panel, turned into [`Gesture`] messages.
pub fn read_touches(
    mut input: MessageReader<TouchInput>,
    mut gestures: ResMut<Gestures>,
    mut ignored: Local<Vec<u64>>,
    time: Res<Time<Real>>,
    wants: Res<EguiWantsInput>,
    mut out: MessageWriter<Gesture>,
) {
    // This frame's time, and the previous frame's: a touch seen now happened between the two.
    let t = time.elapsed_secs_f64();
    let earliest = t - time.delta_secs_f64();
    for touch in input.read() {
        let gesture = match touch.phase {
            TouchPhase::Started if wants.wants_any_pointer_input() => {
                ignored.push(touch.id);
                None
            }
            _ if ignored.contains(&touch.id) => {
                if matches!(touch.phase, TouchPhase::Ended | TouchPhase::Canceled) {
                    ignored.retain(|id| *id != touch.id);
                }
                None
            }
            TouchPhase::Started => gestures.start(touch.id, touch.position, t),
            TouchPhase::Moved => gestures.moved(touch.id, touch.position),
            TouchPhase::Ended => gestures.end(touch.id, earliest, false),
            TouchPhase::Canceled => gestures.end(touch.id, earliest, true),
        };
        if let Some(gesture) = gesture {
            out.write(gesture);
        }
    }
}

/// The flat scene's gestures: tap and second tap, steering, pinch zoom.
fn flat_gestures(
    mut commands: Commands,
    mut gestures: MessageReader<Gesture>,
    mut steer: ResMut<TouchSteer>,
    config: Res<SceneConfig>,
    camera: Single<(&Camera, &GlobalTransform, &mut Projection, &mut Transform), With<WorldCamera>>,
) {
    let (camera, global, mut projection, mut transform) = camera.into_inner();
    for gesture in gestures.read() {
        match *gesture {
            Gesture::Tap(at) => {
                if let Ok(at) = camera.viewport_to_world_2d(global, at) {
                    commands.place_leader(at, config.preset.leader);
                }
            }
            Gesture::SecondTap => commands.remove_leader(),
            Gesture::Steer(at) => steer.0 = Some(at),
            Gesture::SteerEnd => steer.0 = None,
            Gesture::Pinch { factor, about } => {
                let Projection::Orthographic(ortho) = &mut *projection else {
                    continue;
                };
                let Ok(anchor) = camera.viewport_to_world_2d(global, about) else {
                    continue;
                };
                let new_scale = (ortho.scale / factor.clamp(0.5, 2.0)).clamp(0.02, 200.0);
                // Keep the point between the fingers where it is.
                let centre = transform.translation.truncate();
                let moved = anchor + (centre - anchor) * (new_scale / ortho.scale);
                transform.translation.x = moved.x;
                transform.translation.y = moved.y;
                ortho.scale = new_scale;
            }
        }
    }
}

/// The direction the dragging finger asks of a bird at `bird` (world units), unit length or
/// zero; `None` when no finger steers.
pub fn steer_direction(
    steer: &TouchSteer,
    camera: (&Camera, &GlobalTransform),
    bird: Vec2,
) -> Option<Vec2> {
    let at = camera.0.viewport_to_world_2d(camera.1, steer.0?).ok()?;
    Some((at - bird).normalize_or_zero())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Vec2 = Vec2::new(100.0, 100.0);
    const B: Vec2 = Vec2::new(300.0, 100.0);

    #[test]
    fn a_quick_still_tap_places_and_a_long_or_moving_one_does_not() {
        let mut g = Gestures::default();
        assert_eq!(g.start(1, A, 0.0), None);
        assert_eq!(
            g.moved(1, A + Vec2::new(3.0, -2.0)),
            None,
            "within the slop"
        );
        assert_eq!(
            g.end(1, 0.1, false),
            Some(Gesture::Tap(A + Vec2::new(3.0, -2.0)))
        );

        g.start(2, A, 1.0);
        assert_eq!(g.end(2, 1.0 + TAP_SECONDS + 0.1, false), None, "held");
        g.start(3, A, 2.0);
        g.end(3, 2.1, true);
        assert!(g.fingers.is_empty(), "a cancelled touch is forgotten");
    }

    #[test]
    fn dragging_steers_until_lifted_and_is_no_tap() {
        let mut g = Gestures::default();
        g.start(1, A, 0.0);
        let far = A + Vec2::new(40.0, 0.0);
        assert_eq!(g.moved(1, far), Some(Gesture::Steer(far)));
        assert_eq!(g.end(1, 0.1, false), Some(Gesture::SteerEnd));
    }

    #[test]
    fn a_second_fingers_tap_removes_and_the_resting_finger_then_does_nothing() {
        let mut g = Gestures::default();
        g.start(1, A, 0.0);
        g.start(2, B, 0.5);
        assert_eq!(g.end(2, 0.6, false), Some(Gesture::SecondTap));
        assert_eq!(g.end(1, 0.7, false), None, "the resting finger is no tap");
        // A steering finger stops steering when a second lands.
        g.start(3, A, 1.0);
        g.moved(3, A + Vec2::new(50.0, 0.0));
        assert_eq!(g.start(4, B, 1.2), Some(Gesture::SteerEnd));
    }

    #[test]
    fn pinching_zooms_by_the_fingers_distance_about_their_middle() {
        let mut g = Gestures::default();
        g.start(1, A, 0.0);
        g.start(2, B, 0.0);
        // The first movement only measures; each one after gives the change.
        assert_eq!(g.moved(2, B + Vec2::new(20.0, 0.0)), None);
        let Some(Gesture::Pinch { factor, about }) = g.moved(2, B + Vec2::new(120.0, 0.0)) else {
            panic!("a pinch");
        };
        assert!((factor - 320.0 / 220.0).abs() < 1e-5, "{factor}");
        assert_eq!(about, Vec2::new(260.0, 100.0));
        assert_eq!(g.end(2, 0.1, false), None, "a pinching finger is no tap");
        assert_eq!(g.end(1, 0.1, false), None);
    }
}
