//! The recordings' palette: the app's own colours exactly (the sky, the gold bird, the leader's
//! crimson, the hunter's red, the birds' blues), then an even spread of the rest or the colours
//! of a recording's first frame, with a lookup table that maps any colour to its nearest entry at
//! once.

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
        colours.extend(cube(6));
        Self::with_colours(colours)
    }

    /// A palette of `colours` (at most 255; greys fill the rest) and the marker entry.
    fn with_colours(mut colours: Vec<[u8; 3]>) -> Self {
        let mut grey = 8u8;
        while colours.len() < Self::TRANSPARENT as usize {
            colours.push([grey; 3]);
            grey = grey.saturating_add(9);
        }
        let nearest = (0..1usize << 15)
            .map(|k| nearest_of(&colours, expand_key(k)))
            .collect();
        // The last entry is never a pixel's colour: it marks a pixel as unchanged.
        colours.push([255, 0, 255]);
        Self {
            rgb: colours.iter().flatten().copied().collect(),
            nearest,
        }
    }

    /// A palette fitted to a picture (`rgb`: `r, g, b` bytes), for scenes of gradients (the 3D
    /// sky, fog and lit ground) that the even spread of [`Palette::new`] bands coarsely: the
    /// app's own colours exactly, a coarse cube for colours that come later (a bird passing, a
    /// leader placed), then the picture's most frequent colours, each unlike those before.
    pub fn fitted(rgb: &[u8]) -> Self {
        let mut colours: Vec<[u8; 3]> = EXACT.to_vec();
        colours.extend(cube(4));
        let mut counts = vec![0u32; 1 << 15];
        for p in rgb.chunks_exact(3) {
            counts[key(p[0], p[1], p[2])] += 1;
        }
        // The most frequent first; ties by colour, so the same picture gives the same palette.
        let mut keys: Vec<usize> = (0..counts.len()).filter(|&k| counts[k] > 0).collect();
        keys.sort_by_key(|&k| (std::cmp::Reverse(counts[k]), k));
        for k in keys {
            if colours.len() == Self::TRANSPARENT as usize {
                break;
            }
            let c = expand_key(k).map(|v| v as u8);
            // Two 15-bit steps apart at least: the frequent shades of one gradient spread out.
            let unlike = colours.iter().all(|e| {
                (0..3)
                    .map(|i| (e[i] as i32 - c[i] as i32).pow(2))
                    .sum::<i32>()
                    > 48
            });
            if unlike {
                colours.push(c);
            }
        }
        Self::with_colours(colours)
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
        self.nearest[key(r, g, b)]
    }

    /// The colour of an entry.
    pub fn colour(&self, index: u8) -> [u8; 3] {
        let i = 3 * index as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

/// An even `levels` x `levels` x `levels` cube of colours, black to white.
fn cube(levels: u8) -> impl Iterator<Item = [u8; 3]> {
    let level = move |i: u8| (i as u16 * 255 / (levels as u16 - 1)) as u8;
    (0..levels).flat_map(move |r| {
        (0..levels).flat_map(move |g| (0..levels).map(move |b| [level(r), level(g), level(b)]))
    })
}

/// A colour's place in the 15-bit lookup table (five bits a channel).
#[inline]
fn key(r: u8, g: u8, b: u8) -> usize {
    ((r as usize >> 3) << 10) | ((g as usize >> 3) << 5) | (b as usize >> 3)
}

/// The colour a 15-bit key stands for, each channel's five bits widened back to eight.
fn expand_key(k: usize) -> [i32; 3] {
    let expand = |v: usize| ((v << 3) | (v >> 2)) as i32;
    [expand(k >> 10), expand((k >> 5) & 31), expand(k & 31)]
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

    /// A smooth gradient (a 3D sky) keeps far finer steps in a fitted palette than in the even
    /// one, while the app's colours stay exact.
    #[test]
    fn a_fitted_palette_follows_the_pictures_gradient() {
        let sky: Vec<u8> = (0..=255u8)
            .flat_map(|t| [150 + t / 4, 170 + t / 4, 200 + t / 5])
            .collect();
        let worst = |p: &Palette| {
            sky.chunks_exact(3)
                .map(|c| {
                    let got = p.colour(p.index([c[0], c[1], c[2]]));
                    (0..3)
                        .map(|k| (got[k] as i32 - c[k] as i32).abs())
                        .max()
                        .unwrap()
                })
                .max()
                .unwrap()
        };
        let fitted = Palette::fitted(&sky);
        assert!(worst(&fitted) <= 8, "fitted: {}", worst(&fitted));
        // The negative control: the even palette bands the same sky coarsely.
        assert!(
            worst(&Palette::new()) > 15,
            "even: {}",
            worst(&Palette::new())
        );
        for c in EXACT {
            assert_eq!(fitted.colour(fitted.index(c)), c);
        }
        assert_eq!(fitted.rgb().len(), 768);
    }
}
