//! The playfield: the part of the window the panel does not cover, and what the world camera
//! shows of the world there.

use bevy::prelude::*;

/// Insets of the playfield from the window's edges, in logical pixels (the panel reports its
/// width here each frame it is drawn).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Playfield {
    /// Covered on the left.
    pub left: f32,
    /// Covered on the right (the side panel).
    pub right: f32,
    /// Covered at the top.
    pub top: f32,
    /// Covered at the bottom.
    pub bottom: f32,
}

impl Playfield {
    /// The insets in physical pixels, for a window of `scale_factor` (the world camera draws
    /// into an image of the window's physical size).
    pub fn in_pixels(&self, scale_factor: f32) -> Self {
        Self {
            left: self.left * scale_factor,
            right: self.right * scale_factor,
            top: self.top * scale_factor,
            bottom: self.bottom * scale_factor,
        }
    }

    /// The playfield's size in pixels in a window of `window` pixels (at least one pixel).
    pub fn size(&self, window: Vec2) -> Vec2 {
        (window - Vec2::new(self.left + self.right, self.top + self.bottom)).max(Vec2::ONE)
    }

    /// Where the playfield's centre lies relative to the window's centre, in pixels (y up).
    pub fn centre_offset(&self) -> Vec2 {
        Vec2::new(self.left - self.right, self.bottom - self.top) * 0.5
    }

    /// The world rectangle seen in the playfield by a camera at `camera` (its translation)
    /// drawing `scale` world units a pixel into a window of `window` pixels.
    pub fn view(&self, camera: Vec2, scale: f32, window: Vec2) -> Rect {
        Rect::from_center_size(
            camera + self.centre_offset() * scale,
            self.size(window) * scale,
        )
    }

    /// The camera translation that puts the world point `centre` in the playfield's centre.
    pub fn camera_for(&self, centre: Vec2, scale: f32) -> Vec2 {
        centre - self.centre_offset() * scale
    }

    /// A world point as a window position in pixels, origin top left, y down (egui's).
    pub fn to_window(camera: Vec2, scale: f32, window: Vec2, p: Vec2) -> Vec2 {
        let d = (p - camera) / scale;
        Vec2::new(window.x * 0.5 + d.x, window.y * 0.5 - d.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_is_the_window_less_the_panel() {
        let window = Vec2::new(1280.0, 720.0);
        let panel = Playfield {
            right: 330.0,
            ..default()
        };
        let view = panel.view(Vec2::ZERO, 2.0, window);
        assert_eq!(view.min, Vec2::new(-1280.0, -720.0));
        assert_eq!(view.max, Vec2::new(1280.0 - 660.0, 720.0));
        // The camera that centres a point in the playfield sees it there.
        let at = Vec2::new(100.0, -50.0);
        let cam = panel.camera_for(at, 2.0);
        assert_eq!(panel.view(cam, 2.0, window).center(), at);
        assert_eq!(
            Playfield::to_window(cam, 2.0, window, at),
            Vec2::new((1280.0 - 330.0) / 2.0, 360.0)
        );
    }
}
