//! The recordings' palette: the app's own colours exactly (the sky, the gold bird, the leader's
//! crimson, the hunter's red, the birds' blues), then an even spread of the rest, with a lookup
//! table that maps any colour to its nearest entry at once.

use crate::app;
use bevy::color::Color;

/// Colours kept exactly: a pixel of one of these stays that colour in a recording. Read from
/// where the app defines them, so that a colour changed there stays exact here.
const EXACT: [[u8; 3]; 12] = [
    rgb(app::camera::BACKGROUND), // the sky
    rgb(app::player::GOLD),
    rgb(app::leader::CRIMSON),
    rgb(app::predators::HAWK_RED),
    rgb(app::render::SMALL_FLOCK),
    rgb(app::render::LARGE_FLOCK),
    rgb(app::render::PLAIN),
    rgb(app::obstacles::OBSTACLE_COLOUR),
    [0, 0, 0],
    [255, 255, 255],
    [27, 27, 27], // egui's dark panel fill, the side panel's
    app::hud::VEIL,
];

/// An sRGB colour's bytes, at compile time.
const fn rgb(colour: Color) -> [u8; 3] {
    let Color::Srgba(c) = colour else {
        panic!("the app's colours are sRGB");
    };
    // `srgb_u8` stored byte / 255: scaled back and rounded, the byte itself.
    const fn byte(x: f32) -> u8 {
        (x * 255.0 + 0.5) as u8
    }
    [byte(c.red), byte(c.green), byte(c.blue)]
}

/// A 256-colour palette and the nearest entry for every colour of 15 bits.
#[derive(Clone)]
pub struct Palette {
    rgb: Vec<u8>,
    nearest: Vec<u8>,
}

impl Default for Palette {
    fn default() -> Self {
        Self::new()
    }
}

impl Palette {
    /// The entry that stands for "as in the frame before" (drawn transparent).
    pub const TRANSPARENT: u8 = 255;

    /// The app's colours, a 6x6x6 cube and greys.
    pub fn new() -> Self {
        let mut colours: Vec<[u8; 3]> = EXACT.to_vec();
        let level = |i: u8| i * 51;
        for r in 0..6 {
            for g in 0..6 {
                for b in 0..6 {
                    colours.push([level(r), level(g), level(b)]);
                }
            }
        }
        let mut grey = 8u8;
        while colours.len() < Self::TRANSPARENT as usize {
            colours.push([grey; 3]);
            grey = grey.saturating_add(9);
        }
        let nearest = (0..1u32 << 15)
            .map(|c| {
                let expand = |v: u32| ((v << 3) | (v >> 2)) as i32;
                let rgb = [expand(c >> 10), expand((c >> 5) & 31), expand(c & 31)];
                nearest_of(&colours, rgb)
            })
            .collect();
        // The last entry is never a pixel's colour: it marks a pixel as unchanged.
        colours.push([255, 0, 255]);
        Self {
            rgb: colours.iter().flatten().copied().collect(),
            nearest,
        }
    }

    /// The palette as `r, g, b` bytes (256 entries).
    pub fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    /// The entry for a colour: the exact one for the app's own colours, else the nearest.
    #[inline]
    pub fn index(&self, [r, g, b]: [u8; 3]) -> u8 {
        if let Some(i) = EXACT.iter().position(|&c| c == [r, g, b]) {
            return i as u8;
        }
        let key = ((r as usize >> 3) << 10) | ((g as usize >> 3) << 5) | (b as usize >> 3);
        self.nearest[key]
    }

    /// The colour of an entry.
    pub fn colour(&self, index: u8) -> [u8; 3] {
        let i = 3 * index as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

fn nearest_of(colours: &[[u8; 3]], rgb: [i32; 3]) -> u8 {
    let mut best = (i32::MAX, 0u8);
    for (i, c) in colours.iter().enumerate() {
        let d: i32 = (0..3).map(|k| (c[k] as i32 - rgb[k]).pow(2)).sum();
        if d < best.0 {
            best = (d, i as u8);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_apps_colours_are_exact_and_others_near() {
        let p = Palette::new();
        assert_eq!(p.rgb().len(), 768);
        for c in EXACT {
            assert_eq!(p.colour(p.index(c)), c);
        }
        let c = [100, 150, 200];
        let got = p.colour(p.index(c));
        let err: i32 = (0..3)
            .map(|k| (got[k] as i32 - c[k] as i32).abs())
            .max()
            .unwrap();
        assert!(err <= 30, "{c:?} -> {got:?}");
    }
}
