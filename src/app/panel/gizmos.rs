//! Debug drawings: the neighbour grid's cells, the neighbour radius and neighbours of a picked
//! bird (Alt + click picks the bird nearest the cursor), and velocity vectors.

use crate::app::camera::{CursorWorld, TrackCursor};
use crate::app::scene::ActiveFlock;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use murmur_flock::prelude::*;

/// Which debug drawings are on.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct DebugDraw {
    /// The neighbour grid's cells.
    pub grid: bool,
    /// The picked bird's neighbour radius and lines to its neighbours.
    pub neighbours: bool,
    /// A velocity vector per bird (at most the first 5,000).
    pub velocities: bool,
}

/// The bird whose neighbourhood is drawn.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct PickedBird(pub Option<Entity>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PickedBird>()
        .add_systems(Update, (pick.after(TrackCursor), draw).chain());
}

/// Alt + left click picks the bird nearest the cursor.
fn pick(
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    wants: Res<EguiWantsInput>,
    cursor: Res<CursorWorld>,
    mut picked: ResMut<PickedBird>,
    birds: Query<(Entity, &Position), With<Boid>>,
) {
    let alt = keys.pressed(KeyCode::AltLeft) || keys.pressed(KeyCode::AltRight);
    if !(alt && mouse.just_pressed(MouseButton::Left)) || wants.wants_any_pointer_input() {
        return;
    }
    let Some(at) = cursor.0 else { return };
    picked.0 = birds
        .iter()
        .min_by(|a, b| {
            a.1.0
                .distance_squared(at)
                .total_cmp(&b.1.0.distance_squared(at))
        })
        .map(|(e, _)| e);
}

fn draw(
    mut gizmos: Gizmos,
    draw: Res<DebugDraw>,
    picked: Res<PickedBird>,
    flock: Res<ActiveFlock>,
    flocks: Query<(&Flock, &FlockColumns)>,
    birds: Query<(&Position, &murmur_flock::components::Velocity, &FlockMember), With<Boid>>,
) {
    let Ok((f, columns)) = flocks.get(flock.0) else {
        return;
    };
    if draw.grid {
        let l = columns.birds().grid().layout();
        let colour = Color::srgba(0.1, 0.1, 0.3, 0.25);
        let (lo, hi) = (
            l.min,
            l.min + Vec2::new(l.cell.x * l.nx as f32, l.cell.y * l.ny as f32),
        );
        // Thousands of lines are unreadable anyway: at most 200 per axis.
        for i in (0..=l.nx).step_by((l.nx / 200).max(1)) {
            let x = l.min.x + i as f32 * l.cell.x;
            gizmos.line_2d(Vec2::new(x, lo.y), Vec2::new(x, hi.y), colour);
        }
        for j in (0..=l.ny).step_by((l.ny / 200).max(1)) {
            let y = l.min.y + j as f32 * l.cell.y;
            gizmos.line_2d(Vec2::new(lo.x, y), Vec2::new(hi.x, y), colour);
        }
    }
    if draw.velocities {
        let scale = 8.0;
        for (p, v, _) in birds.iter().take(5000) {
            gizmos.line_2d(p.0, p.0 + v.0 * scale, Color::srgba(0.8, 0.1, 0.1, 0.7));
        }
    }
    if draw.neighbours
        && let Some(e) = picked.0
        && let Ok((me, _, member)) = birds.get(e)
    {
        let radius = f.params.model.interaction_radius();
        let world = f.params.bounds();
        gizmos.circle_2d(
            Isometry2d::from_translation(me.0),
            radius,
            Color::srgb(0.9, 0.2, 0.1),
        );
        for (p, _, m) in &birds {
            if m.0 != member.0 || p.0 == me.0 {
                continue;
            }
            let d = world.delta(me.0, p.0);
            if d.length() < radius {
                gizmos.line_2d(me.0, me.0 + d, Color::srgb(0.9, 0.5, 0.0));
            }
        }
    }
}
