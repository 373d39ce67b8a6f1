//! The flock's tick and the app's fixed timestep: the presets are tuned per tick at 60 Hz (one
//! frame of the source sketches), so the flock flies as they describe when its schedule runs 60
//! times a second.

use bevy_app::{App, FixedFirst, FixedLast, FixedPostUpdate, FixedPreUpdate, FixedUpdate};
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_time::{Fixed, Time};
use std::time::Duration;

/// The length of one flock tick the presets are tuned for: 1/60 s.
pub const TICK: Duration = Duration::from_nanos(16_666_667);

/// How [`FlockPlugin`](crate::FlockPlugin) treats the app's fixed timestep (`Time<Fixed>`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Timestep {
    /// Sets the fixed timestep to [`TICK`] unless the game set one of its own (any other than
    /// Bevy's default 1/64 s) by the time the app starts; warns once, at the first tick, when
    /// the flock ticks at another rate than the presets are tuned for.
    #[default]
    Tuned,
    /// Sets the fixed timestep to this period, whatever the game chose.
    Period(Duration),
    /// Leaves the fixed timestep alone, without a warning.
    Keep,
}

/// What the one-time timestep check needs.
#[derive(Resource, Debug)]
pub(crate) struct TickCheck {
    pub(crate) schedule: Interned<dyn ScheduleLabel>,
    pub(crate) timestep: Timestep,
    pub(crate) checked: bool,
}

/// True for the schedules of Bevy's fixed-timestep loop.
pub(crate) fn is_fixed(schedule: Interned<dyn ScheduleLabel>) -> bool {
    [
        FixedFirst.intern(),
        FixedPreUpdate.intern(),
        FixedUpdate.intern(),
        FixedPostUpdate.intern(),
        FixedLast.intern(),
    ]
    .contains(&schedule)
}

/// Sets the fixed timestep as `timestep` says, once every plugin is built (so a timestep the
/// game inserted after adding the plugins counts as its choice).
pub(crate) fn set_up_timestep(
    app: &mut App,
    schedule: Interned<dyn ScheduleLabel>,
    timestep: Timestep,
) {
    if !is_fixed(schedule) {
        return;
    }
    let period = match timestep {
        Timestep::Keep => return,
        Timestep::Period(period) => period,
        Timestep::Tuned => {
            let default = Time::<Fixed>::default().timestep();
            match app.world().get_resource::<Time<Fixed>>() {
                Some(time) if time.timestep() != default => return,
                _ => TICK,
            }
        }
    };
    let world = app.world_mut();
    match world.get_resource_mut::<Time<Fixed>>() {
        Some(mut time) => time.set_timestep(period),
        None => world.insert_resource(Time::<Fixed>::from_duration(period)),
    }
}

/// At the first tick: says once when the flock will not fly at the presets' pace.
pub(crate) fn check_timestep(mut check: ResMut<TickCheck>, time: Option<Res<Time<Fixed>>>) {
    if check.checked {
        return;
    }
    check.checked = true;
    if check.timestep != Timestep::Tuned {
        return;
    }
    if !is_fixed(check.schedule) {
        bevy_log::info!(
            "the flock ticks once per run of {:?}: its speed follows how often that runs \
             (the presets are tuned for 60 ticks a second)",
            check.schedule
        );
        return;
    }
    let Some(step) = time.map(|t| t.timestep()) else {
        return;
    };
    let ratio = TICK.as_secs_f64() / step.as_secs_f64();
    if (ratio - 1.0).abs() > 0.005 {
        bevy_log::warn!(
            "the fixed timestep is {:.3} ms ({:.1} Hz) but the flock's parameters are tuned per \
             60 Hz tick: it flies {ratio:.2}x as fast as the presets describe; use \
             `FlockPlugins::default().with_timestep(Timestep::Period(TICK))` to set the tick, or \
             `Timestep::Keep` to keep yours without this warning",
            step.as_secs_f64() * 1e3,
            1.0 / step.as_secs_f64(),
        );
    }
}

/// How far the app's clock is between the flock's last tick and its next this frame, from 0
/// (it just ticked) to 1 (it is about to): the fixed timestep's overstep fraction when the flock
/// ticks in a fixed schedule, else 1 (a flock ticking once a frame is where it is). The drawing
/// reads it to draw birds between ticks; a game may too, to draw what follows a bird. Set in
/// `PostUpdate` ([`TickFractionSystems`]).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct TickFraction(pub f32);

impl Default for TickFraction {
    fn default() -> Self {
        Self(1.0)
    }
}

/// The system that sets [`TickFraction`], early in `PostUpdate`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TickFractionSystems;

/// Sets [`TickFraction`] for this frame.
pub(crate) fn measure_fraction(
    time: Option<Res<Time<Fixed>>>,
    check: Option<Res<TickCheck>>,
    mut fraction: ResMut<TickFraction>,
) {
    let f = match (time, check) {
        (Some(time), Some(check)) if is_fixed(check.schedule) => {
            time.overstep_fraction().clamp(0.0, 1.0)
        }
        _ => 1.0,
    };
    if fraction.0 != f {
        fraction.0 = f;
    }
}
