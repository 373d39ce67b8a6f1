//! Click to place a leader (feature `pointer`): a left click places the leader at the world
//! point under the cursor (or moves it there), the flock streams to it, gathers and circles it;
//! a right click removes it. Also the command to place one from code. With a 3D flock, the
//! click's ray is met with a plane ([`LeaderPlane`]: by default the horizontal plane through the
//! flock's centre).

use crate::components::{FlockColumns, Leader, Position};
use bevy_app::{App, Plugin, Update};
use bevy_camera::Camera;
use bevy_ecs::prelude::*;
use bevy_ecs::system::Command;
use bevy_input::ButtonInput;
use bevy_input::mouse::MouseButton;
use bevy_math::{Ray3d, Vec2, Vec3};
use bevy_reflect::Reflect;
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
        app.register_type::<ClickLeader>()
            .register_type::<LeaderCamera>()
            .init_resource::<ClickLeaderSettings>()
            .add_systems(Update, place_on_click.in_set(ClickLeaderSystems));
    }
}

/// The system turning clicks into a leader, in `Update`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClickLeaderSystems;

/// The leader placed by clicking (or by [`PlaceLeaderExt::place_leader`]); there is at most one.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
pub struct ClickLeader;

/// The camera whose view a click is read in; without one, the first active camera.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
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
    /// Where a click's ray meets the world when there is a 3D flock.
    pub plane: LeaderPlane,
}

impl Default for ClickLeaderSettings {
    fn default() -> Self {
        Self {
            params: LeaderParams::default(),
            place: MouseButton::Left,
            remove: MouseButton::Right,
            plane: LeaderPlane::default(),
        }
    }
}

/// The plane a click's ray meets to place the leader in 3D.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum LeaderPlane {
    /// The horizontal plane through the centre (mean position) of the first 3D flock.
    #[default]
    FlockHeight,
    /// The horizontal plane at this height (y), such as the ground's.
    Height(f32),
    /// Any plane: a point on it and its normal.
    Through {
        /// A point of the plane.
        point: Vec3,
        /// Its normal.
        normal: Vec3,
    },
}

impl LeaderPlane {
    /// Where `ray` meets the plane (`flock_centre`: the point [`LeaderPlane::FlockHeight`]'s
    /// plane passes through), if it does, ahead of the camera.
    pub fn hit(&self, ray: Ray3d, flock_centre: Vec3) -> Option<Vec3> {
        let (point, normal) = match *self {
            Self::FlockHeight => (flock_centre, Vec3::Y),
            Self::Height(y) => (Vec3::new(0.0, y, 0.0), Vec3::Y),
            Self::Through { point, normal } => (point, normal.normalize_or(Vec3::Y)),
        };
        let along = ray.direction.dot(normal);
        if along.abs() < 1e-6 {
            return None;
        }
        let t = (point - ray.origin).dot(normal) / along;
        (t >= 0.0 && t.is_finite()).then(|| ray.get_point(t))
    }
}

/// A point a leader can be placed at: a `Vec2` for flat flocks, a `Vec3` for 3D ones (which
/// flat flocks see at its x and y).
pub trait LeaderPoint: Copy + Send + Sync + 'static {
    /// Puts a leader entity at this point.
    fn put(self, entity: &mut EntityWorldMut);
}

impl LeaderPoint for Vec2 {
    fn put(self, entity: &mut EntityWorldMut) {
        entity.insert(Position(self));
        entity.remove::<Position<Vec3>>();
    }
}

impl LeaderPoint for Vec3 {
    fn put(self, entity: &mut EntityWorldMut) {
        entity.insert((Position(self), Position(self.truncate())));
    }
}

/// Placing the leader from code.
pub trait PlaceLeaderExt {
    /// Puts the [`ClickLeader`] at `at` (world units: a `Vec2` for flat flocks, a `Vec3` for 3D
    /// ones), spawning it with `params` if there is none (an existing one keeps its
    /// parameters).
    fn place_leader(&mut self, at: impl LeaderPoint, params: LeaderParams);
    /// Removes the [`ClickLeader`], if any.
    fn remove_leader(&mut self);
}

impl PlaceLeaderExt for Commands<'_, '_> {
    fn place_leader(&mut self, at: impl LeaderPoint, params: LeaderParams) {
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
struct PlaceLeader<P> {
    at: P,
    params: LeaderParams,
}

impl<P: LeaderPoint> Command for PlaceLeader<P> {
    type Out = ();

    fn apply(self, world: &mut World) {
        let existing = world
            .query_filtered::<Entity, With<ClickLeader>>()
            .iter(world)
            .next();
        let mut leader = match existing {
            Some(leader) => world.entity_mut(leader),
            None => world.spawn((ClickLeader, Leader::new(self.params))),
        };
        self.at.put(&mut leader);
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

/// The point under the cursor on `plane` in the view of `camera` (see [`LeaderPlane`]).
pub fn cursor_on_plane(
    window: &Window,
    camera: &Camera,
    transform: &GlobalTransform,
    plane: LeaderPlane,
    flock_centre: Vec3,
) -> Option<Vec3> {
    let cursor = window.cursor_position()?;
    let ray = camera.viewport_to_world(transform, cursor).ok()?;
    plane.hit(ray, flock_centre)
}

/// The centre (mean position) of the first 3D flock with birds, if any.
pub fn centre_of_3d_flock<'a>(
    flocks: impl IntoIterator<Item = &'a FlockColumns<Vec3>>,
) -> Option<Vec3> {
    flocks.into_iter().find(|c| !c.is_empty()).map(|c| {
        let cols = c.birds().columns();
        let n = c.len();
        let sum = (0..n).fold(Vec3::ZERO, |s, k| s + cols.pos_of(k));
        sum / n as f32
    })
}

fn place_on_click(
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    settings: Res<ClickLeaderSettings>,
    window: Query<&Window, With<PrimaryWindow>>,
    chosen: Query<(&Camera, &GlobalTransform), With<LeaderCamera>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    deep: Query<&FlockColumns<Vec3>>,
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
    let Some((camera, transform)) = camera else {
        return;
    };
    if deep.is_empty() {
        if let Some(at) = cursor_in_world(window, camera, transform) {
            commands.place_leader(at, settings.params);
        }
        return;
    }
    let centre = centre_of_3d_flock(deep).unwrap_or(Vec3::ZERO);
    if let Some(at) = cursor_on_plane(window, camera, transform, settings.plane, centre) {
        commands.place_leader(at, settings.params);
    }
}
