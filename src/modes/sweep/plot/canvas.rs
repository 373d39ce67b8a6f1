//! An RGB pixel canvas with lines, rectangles and anti-aliased text, saved as PNG.

use std::path::Path;
use swash::FontRef;
use swash::scale::{Render, ScaleContext, Source};
use swash::zeno::Format;

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// Where a text's reference point is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Centred horizontally, hanging below the point.
    Top,
    /// Right end at the point, centred vertically.
    Right,
    /// Left end at the point, centred vertically.
    Left,
    /// Left end at the point, sitting on it.
    BottomLeft,
}

/// An RGB image.
pub struct Canvas {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Row-major RGB bytes.
    pub rgb: Vec<u8>,
}

impl Canvas {
    /// A canvas filled with `background`.
    pub fn new(width: u32, height: u32, background: Rgb) -> Self {
        let rgb = background.repeat((width * height) as usize);
        Self { width, height, rgb }
    }

    /// Blends `colour` over pixel (x, y) with coverage `alpha` (0..1); outside is ignored.
    pub fn blend(&mut self, x: i64, y: i64, colour: Rgb, alpha: f32) {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 || alpha <= 0.0 {
            return;
        }
        let at = 3 * (y as usize * self.width as usize + x as usize);
        let a = alpha.min(1.0);
        for (c, &v) in self.rgb[at..at + 3].iter_mut().zip(&colour) {
            *c = (*c as f32 * (1.0 - a) + v as f32 * a).round() as u8;
        }
    }

    /// A filled rectangle.
    pub fn fill_rect(&mut self, x: f64, y: f64, w: f64, h: f64, colour: Rgb) {
        for py in y.round() as i64..(y + h).round() as i64 {
            for px in x.round() as i64..(x + w).round() as i64 {
                self.blend(px, py, colour, 1.0);
            }
        }
    }

    /// A line of `width` pixels, anti-aliased by distance to the segment.
    pub fn line(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, colour: Rgb, width: f64) {
        let r = width / 2.0 + 1.0;
        let (lo_x, hi_x) = (x0.min(x1) - r, x0.max(x1) + r);
        let (lo_y, hi_y) = (y0.min(y1) - r, y0.max(y1) + r);
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len2 = (dx * dx + dy * dy).max(1e-12);
        for py in lo_y.floor() as i64..=hi_y.ceil() as i64 {
            for px in lo_x.floor() as i64..=hi_x.ceil() as i64 {
                let (qx, qy) = (px as f64 + 0.5, py as f64 + 0.5);
                let t = (((qx - x0) * dx + (qy - y0) * dy) / len2).clamp(0.0, 1.0);
                let d = ((qx - x0 - t * dx).powi(2) + (qy - y0 - t * dy).powi(2)).sqrt();
                let cover = (width / 2.0 + 0.5 - d).clamp(0.0, 1.0);
                self.blend(px, py, colour, cover as f32);
            }
        }
    }

    /// Copies `other` onto this canvas at (x, y).
    pub fn blit(&mut self, other: &Canvas, x: u32, y: u32) {
        for row in 0..other.height.min(self.height.saturating_sub(y)) {
            let w = other.width.min(self.width.saturating_sub(x)) as usize;
            let src = 3 * (row * other.width) as usize;
            let dst = 3 * ((y + row) * self.width + x) as usize;
            self.rgb[dst..dst + 3 * w].copy_from_slice(&other.rgb[src..src + 3 * w]);
        }
    }

    /// Text in egui's Hack font, `size` pixels high.
    pub fn text(&mut self, x: f64, y: f64, text: &str, size: f32, colour: Rgb, anchor: Anchor) {
        let font = FontRef::from_index(epaint_default_fonts::HACK_REGULAR, 0)
            .expect("egui's Hack font parses");
        let mut context = ScaleContext::new();
        let mut scaler = context.builder(font).size(size).hint(true).build();
        let metrics = font.glyph_metrics(&[]).scale(size);
        let charmap = font.charmap();
        let width: f32 = text
            .chars()
            .map(|ch| metrics.advance_width(charmap.map(ch)))
            .sum();
        let ascent = font.metrics(&[]).scale(size).ascent;
        let (mut pen_x, baseline) = match anchor {
            Anchor::Top => (x - width as f64 / 2.0, y + ascent as f64),
            Anchor::Right => (x - width as f64, y + ascent as f64 * 0.4),
            Anchor::Left => (x, y + ascent as f64 * 0.4),
            Anchor::BottomLeft => (x, y),
        };
        for ch in text.chars() {
            let glyph = charmap.map(ch);
            if let Some(image) = Render::new(&[Source::Outline])
                .format(Format::Alpha)
                .render(&mut scaler, glyph)
            {
                let p = image.placement;
                for gy in 0..p.height as i64 {
                    for gx in 0..p.width as i64 {
                        let alpha = image.data[(gy * p.width as i64 + gx) as usize] as f32 / 255.0;
                        let px = pen_x.round() as i64 + p.left as i64 + gx;
                        let py = baseline.round() as i64 - p.top as i64 + gy;
                        self.blend(px, py, colour, alpha);
                    }
                }
            }
            pen_x += metrics.advance_width(glyph) as f64;
        }
    }

    /// Writes the canvas as an RGB PNG.
    pub fn save_png(&self, path: &Path) -> Result<(), String> {
        let file = std::fs::File::create(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&self.rgb)
            .map_err(|e| e.to_string())
    }
}
