//! Never lost: an arrow at the playfield's edge points to the gold bird, the leader or a hunter
//! when it is out of view (gold, crimson, red).

use super::WorldCamera;
use super::playfield::Playfield;
use crate::app::scene::ActiveWorld;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};
use murmur_flock::prelude::*;

/// What an arrow points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowTarget {
    /// The gold player bird.
    Player,
    /// The clicked leader.
    Leader,
    /// A hunter.
    Hunter,
}

/// Put on an entity that must never be lost from view: while it is out of view an arrow at
/// the playfield's edge points to it. Each owner inserts its own (the player, the leader, the
/// hunters), so the arrows need not know them.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Arrowed {
    /// What it is.
    pub target: ArrowTarget,
    /// The arrow's colour.
    pub colour: Color,
}

/// One arrow at the playfield's edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeArrow {
    /// What it points to.
    pub target: ArrowTarget,
    /// Its colour.
    pub colour: Color,
    /// Its tip, in window pixels (logical, origin top left, y down).
    pub at: Vec2,
    /// The way it points, on screen (unit, y down).
    pub direction: Vec2,
}

/// The arrows of this frame (worked out in `Update`, drawn in the UI pass).
#[derive(Resource, Clone, Debug, Default)]
pub struct EdgeArrows(pub Vec<EdgeArrow>);

/// How far inside the playfield's edge an arrow's tip sits, in logical pixels.
const INSET: f32 = 10.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EdgeArrows>();
}

/// An arrow for each [`Arrowed`] entity (the player, the leader, the hunters) outside the view.
#[allow(clippy::type_complexity)]
pub(super) fn find_arrows(
    playfield: Res<Playfield>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Projection, &Transform), With<WorldCamera>>,
    world: ActiveWorld,
    targets: Query<(Option<&Transform>, Option<&Position>, &Arrowed)>,
    mut arrows: ResMut<EdgeArrows>,
) {
    let (projection, camera) = *camera;
    let Projection::Orthographic(ortho) = projection else {
        return;
    };
    let scale_factor = window.scale_factor();
    // Logical pixels throughout: a logical pixel shows `scale * scale_factor` world units.
    let units = ortho.scale * scale_factor;
    let logical = Vec2::new(window.width().max(1.0), window.height().max(1.0));
    let cam = camera.translation.truncate();
    let view = playfield.view(cam, units, logical);
    let bounds = world.bounds();
    let mut found = Vec::new();
    for (transform, position, &arrowed) in &targets {
        let player = arrowed.target == ArrowTarget::Player;
        // The player's place is its body's; the others live by their `Position`.
        let p = match (player, transform, position) {
            (true, Some(t), _) => t.translation.truncate(),
            (_, _, Some(p)) => p.0,
            (_, Some(t), None) => t.translation.truncate(),
            (_, None, None) => continue,
        };
        let p = bounds.map_or(p, |b| view.center() + b.delta(view.center(), p));
        if !p.is_finite() || view.contains(p) {
            continue;
        }
        found.push(arrow_towards(
            arrowed,
            Playfield::to_window(cam, units, logical, view.center()),
            Playfield::to_window(cam, units, logical, p),
            window_rect(&playfield, logical),
        ));
    }
    if arrows.0 != found {
        arrows.0 = found;
    }
}

/// The playfield in logical window pixels, shrunk by the arrows' inset.
pub(crate) fn window_rect(playfield: &Playfield, logical: Vec2) -> Rect {
    let r = Rect::new(
        playfield.left,
        playfield.top,
        logical.x - playfield.right,
        logical.y - playfield.bottom,
    );
    r.inflate(-INSET.min(r.half_size().min_element() - 1.0).max(0.0))
}

/// The arrow from the playfield's centre `from` towards `to` (window pixels), its tip where
/// that line leaves `rect`.
pub(crate) fn arrow_towards(arrowed: Arrowed, from: Vec2, to: Vec2, rect: Rect) -> EdgeArrow {
    let d = (to - from).normalize_or(Vec2::X);
    let half = rect.half_size();
    let centre = rect.center();
    // The largest t with centre + t d inside the rectangle.
    let t = |h: f32, c: f32| {
        if c.abs() < 1e-6 {
            f32::INFINITY
        } else {
            h / c.abs()
        }
    };
    let reach = t(half.x, d.x).min(t(half.y, d.y));
    EdgeArrow {
        target: arrowed.target,
        colour: arrowed.colour,
        at: centre + d * reach,
        direction: d,
    }
}

/// Draws the arrows over everything.
pub(super) fn draw_arrows(mut contexts: EguiContexts, arrows: Res<EdgeArrows>) -> Result {
    if arrows.0.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        "edge-arrows".into(),
    ));
    for arrow in &arrows.0 {
        let d = arrow.direction;
        let side = Vec2::new(-d.y, d.x);
        let tip = arrow.at;
        let back = tip - d * 26.0;
        let points = [tip, back + side * 12.0, back - side * 12.0]
            .map(|p| egui::pos2(p.x, p.y))
            .to_vec();
        let [r, g, b, _] = arrow.colour.to_srgba().to_u8_array();
        painter.add(egui::Shape::convex_polygon(
            points,
            egui::Color32::from_rgb(r, g, b),
            egui::Stroke::new(2.0, egui::Color32::WHITE),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arrow_sits_where_the_line_to_its_target_leaves_the_playfield() {
        let rect = Rect::new(0.0, 0.0, 900.0, 700.0);
        let to = |target| Arrowed {
            target,
            colour: Color::WHITE,
        };
        let a = arrow_towards(
            to(ArrowTarget::Player),
            rect.center(),
            Vec2::new(2000.0, 350.0),
            rect,
        );
        assert_eq!(a.at, Vec2::new(900.0, 350.0));
        assert_eq!(a.direction, Vec2::X);
        let b = arrow_towards(
            to(ArrowTarget::Leader),
            rect.center(),
            Vec2::new(450.0, -50.0),
            rect,
        );
        assert_eq!(b.at, Vec2::new(450.0, 0.0));
    }
}
