//! Click to place a leader (feature `pointer`): a left click places the leader at the world
//! point under the cursor (or moves it there), the flock streams to it, gathers and circles it;
//! a right click removes it. Also the command to place one from code.

use crate::components::{Leader, Position};
use bevy_app::{App, Plugin, Update};
use bevy_camera::Camera;
use bevy_ecs::prelude::*;
use bevy_ecs::system::Command;
use bevy_input::ButtonInput;
use bevy_input::mouse::MouseButton;
use bevy_math::Vec2;
use bevy_transform::components::GlobalTransform;
use bevy_window::{PrimaryWindow, Window};
use murmur_core::leader::LeaderParams;

/// Places and removes a [`ClickLeader`] with the mouse (see the module docs). Gate it as any
/// system set, for instance to ignore clicks over your UI:
/// `app.configure_sets(Update, ClickLeaderSystems.run_if(my_condition))`.
#[derive(Default, Clone, Debug)]
pub struct ClickLeaderPlugin;

impl Plugin for ClickLeaderPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ClickLeaderSettings>()
            .add_systems(Update, place_on_click.in_set(ClickLeaderSystems));
    }
}

/// The system turning clicks into a leader, in `Update`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClickLeaderSystems;

/// The leader placed by clicking (or by [`PlaceLeaderExt::place_leader`]); there is at most one.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct ClickLeader;

/// The camera whose view a click is read in; without one, the first active camera.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct LeaderCamera;

/// How clicks place the leader.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct ClickLeaderSettings {
    /// How the flock reacts to a newly placed leader.
    pub params: LeaderParams,
    /// The button that places (or moves) the leader.
    pub place: MouseButton,
    /// The button that removes it.
    pub remove: MouseButton,
}

impl Default for ClickLeaderSettings {
    fn default() -> Self {
        Self {
            params: LeaderParams::default(),
            place: MouseButton::Left,
            remove: MouseButton::Right,
        }
    }
}

/// Placing the leader from code.
pub trait PlaceLeaderExt {
    /// Puts the [`ClickLeader`] at `at` (world units), spawning it with `params` if there is
    /// none (an existing one keeps its parameters).
    fn place_leader(&mut self, at: Vec2, params: LeaderParams);
    /// Removes the [`ClickLeader`], if any.
    fn remove_leader(&mut self);
}

impl PlaceLeaderExt for Commands<'_, '_> {
    fn place_leader(&mut self, at: Vec2, params: LeaderParams) {
        self.queue(PlaceLeader { at, params });
    }

    fn remove_leader(&mut self) {
        self.queue(|world: &mut World| {
            let leaders: Vec<Entity> = world
                .query_filtered::<Entity, With<ClickLeader>>()
                .iter(world)
                .collect();
            for leader in leaders {
                world.despawn(leader);
            }
        });
    }
}

/// The command behind [`PlaceLeaderExt::place_leader`].
struct PlaceLeader {
    at: Vec2,
    params: LeaderParams,
}

impl Command for PlaceLeader {
    type Out = ();

    fn apply(self, world: &mut World) {
        let existing = world
            .query_filtered::<Entity, With<ClickLeader>>()
            .iter(world)
            .next();
        match existing {
            Some(leader) => {
                world.entity_mut(leader).insert(Position(self.at));
            }
            None => {
                world.spawn((ClickLeader, Leader::new(self.params), Position(self.at)));
            }
        }
    }
}

/// The world point under the cursor in the view of `camera`.
pub fn cursor_in_world(
    window: &Window,
    camera: &Camera,
    transform: &GlobalTransform,
) -> Option<Vec2> {
    let cursor = window.cursor_position()?;
    camera.viewport_to_world_2d(transform, cursor).ok()
}

fn place_on_click(
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    settings: Res<ClickLeaderSettings>,
    window: Query<&Window, With<PrimaryWindow>>,
    chosen: Query<(&Camera, &GlobalTransform), With<LeaderCamera>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    mut commands: Commands,
) {
    let Some(mouse) = mouse else {
        return;
    };
    if mouse.just_pressed(settings.remove) {
        commands.remove_leader();
    }
    if !mouse.just_pressed(settings.place) {
        return;
    }
    let Ok(window) = window.single() else {
        return;
    };
    let camera = chosen
        .iter()
        .next()
        .or_else(|| cameras.iter().find(|(c, _)| c.is_active));
    if let Some((camera, transform)) = camera
        && let Some(at) = cursor_in_world(window, camera, transform)
    {
        commands.place_leader(at, settings.params);
    }
}
