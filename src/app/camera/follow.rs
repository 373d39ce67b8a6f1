//! The follow camera: while the gold bird flies, the view keeps it in the playfield — smoothly,
//! with a dead zone it may roam without the view moving and a look ahead along its flight;
//! clamped to the world in a bounded world, free across the seam in a wrapped one (where the
//! birds are drawn at their images around the view, so the seam does not show).

use super::playfield::Playfield;
use super::{FittedView, WorldCamera};
use crate::app::player::{Player, key_direction};
use crate::app::scene::ActiveWorld;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use murmur_flock::prelude::*;

/// How the camera follows the gold bird.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct FollowCamera {
    /// Follow the gold bird while it flies (key `V` toggles).
    pub on: bool,
    /// Following now: the bird flew since the view was last fitted (Home) or panned.
    pub engaged: bool,
    /// The part of the playfield's half-size, about its centre, that the bird may roam
    /// without the view moving.
    pub dead_zone: f32,
    /// Seconds of flight the view looks ahead of the bird.
    pub look_ahead: f32,
    /// How quickly the view closes on where it should be, per second.
    pub stiffness: f32,
    /// The bird stays within this part of the playfield's half-size, however fast it flies.
    pub keep_within: f32,
}

impl Default for FollowCamera {
    fn default() -> Self {
        Self {
            on: true,
            engaged: false,
            dead_zone: 0.3,
            look_ahead: 0.4,
            stiffness: 4.0,
            keep_within: 0.8,
        }
    }
}

/// How far beyond a bounded world's edge the view may show, as a part of the view's size.
const EDGE_ROOM: f32 = 0.03;

/// Adds the follow camera; its systems run after the view's own controls.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FollowCamera>();
}

/// `V` turns following on and off; flying engages it.
pub(super) fn follow_keys(keys: Res<ButtonInput<KeyCode>>, mut follow: ResMut<FollowCamera>) {
    if keys.just_pressed(KeyCode::KeyV) {
        follow.on = !follow.on;
        follow.engaged = follow.on;
        info!(
            "camera: {}",
            if follow.on {
                "follows the gold bird"
            } else {
                "stays put"
            }
        );
    }
    if follow.on && !follow.engaged && key_direction(&keys) != Vec2::ZERO {
        follow.engaged = true;
    }
}

/// Moves the world camera after the gold bird (see the module docs).
#[allow(clippy::too_many_arguments)]
pub(super) fn follow_player(
    time: Res<Time<Real>>,
    follow: Res<FollowCamera>,
    playfield: Res<Playfield>,
    mut fitted: ResMut<FittedView>,
    window: Single<&Window, With<PrimaryWindow>>,
    player: Query<(&Transform, Option<&murmur_flock::components::Velocity>), With<Player>>,
    world: ActiveWorld,
    camera: Single<(&Projection, &mut Transform), (With<WorldCamera>, Without<Player>)>,
) {
    if !(follow.on && follow.engaged) {
        return;
    }
    let Some((bird, velocity)) = player.iter().next() else {
        return;
    };
    let Some(bounds) = world.bounds() else {
        return;
    };
    let (projection, mut transform) = camera.into_inner();
    let Projection::Orthographic(ortho) = projection else {
        return;
    };
    let pixels = Vec2::new(
        window.physical_width().max(1) as f32,
        window.physical_height().max(1) as f32,
    );
    let field = playfield.in_pixels(window.scale_factor());
    let camera_at = transform.translation.truncate();
    let view = field.view(camera_at, ortho.scale, pixels);
    let centre = view.center();
    let half = view.half_size();
    // The bird where the view sees it: across the seam, the image nearest the view.
    let at = centre + bounds.delta(centre, bird.translation.truncate());
    if !at.is_finite() {
        return;
    }
    // The library's velocity is the move per tick.
    let per_second = velocity.map_or(Vec2::ZERO, |v| v.0 / TICK.as_secs_f32());
    let ahead = (per_second * follow.look_ahead).clamp(-0.3 * half, 0.3 * half);
    let focus = at + ahead;
    // Where the view should be: the least move that puts the focus inside the dead zone.
    let zone = half * follow.dead_zone;
    let wanted = centre + (focus - centre) - (focus - centre).clamp(-zone, zone);
    let dt = time.delta_secs().min(0.1);
    let mut next = centre + (wanted - centre) * (1.0 - (-follow.stiffness * dt).exp());
    // However it flies, the bird stays well inside.
    let keep = half * follow.keep_within;
    next = next.clamp(at - keep, at + keep);
    if !bounds.wrapped {
        next = clamp_to_world(next, half, bounds.min, bounds.max());
    }
    if next != centre {
        let moved = field.camera_for(next, ortho.scale);
        transform.translation.x = moved.x;
        transform.translation.y = moved.y;
        fitted.0 = false;
    }
}

/// A view centre moved so that a view of half-size `half` shows little beyond the world
/// `min..max`; centred on an axis the world does not fill.
pub fn clamp_to_world(centre: Vec2, half: Vec2, min: Vec2, max: Vec2) -> Vec2 {
    let room = half * 2.0 * EDGE_ROOM;
    let axis = |c: f32, h: f32, lo: f32, hi: f32, room: f32| {
        if 2.0 * h >= hi - lo + 2.0 * room {
            (lo + hi) * 0.5
        } else {
            c.clamp(lo + h - room, hi - h + room)
        }
    };
    Vec2::new(
        axis(centre.x, half.x, min.x, max.x, room.x),
        axis(centre.y, half.y, min.y, max.y, room.y),
    )
}

/// In a wrapped world the birds are drawn around the view's centre (see the module docs).
pub(super) fn draw_around_view(
    playfield: Res<Playfield>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Projection, &Transform), With<WorldCamera>>,
    drawing: Option<ResMut<BirdDrawing>>,
) {
    let Some(mut drawing) = drawing else {
        return;
    };
    let (projection, transform) = *camera;
    let Projection::Orthographic(ortho) = projection else {
        return;
    };
    let pixels = Vec2::new(
        window.physical_width().max(1) as f32,
        window.physical_height().max(1) as f32,
    );
    let centre = playfield
        .in_pixels(window.scale_factor())
        .view(transform.translation.truncate(), ortho.scale, pixels)
        .center();
    if drawing.around != Some(centre) {
        drawing.around = Some(centre);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_stays_over_a_bounded_world() {
        let (min, max) = (Vec2::new(-640.0, -360.0), Vec2::new(640.0, 360.0));
        let half = Vec2::new(300.0, 400.0);
        // Pushed past the right edge, it stops a little beyond it; taller than the world, it
        // is centred.
        let c = clamp_to_world(Vec2::new(600.0, 100.0), half, min, max);
        assert_eq!(c.y, 0.0);
        assert!((c.x + half.x - max.x - 2.0 * half.x * EDGE_ROOM).abs() < 1e-3);
        // Inside, it is left alone.
        assert_eq!(
            clamp_to_world(Vec2::new(10.0, 0.0), half, min, max),
            Vec2::new(10.0, 0.0)
        );
    }
}
