//! The SSD1306 128x64 OLED as the firmware drives it: 8 pages of 8 rows, one bit per pixel.

use crate::q15::{Q15, int16_to_u8};

/// Display width in pixels.
pub const WIDTH: usize = 128;
/// Display height in pixels.
pub const HEIGHT: usize = 64;

/// The page-addressed frame buffer, `buf[page][col]`, bit `row & 7` of page `row >> 3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oled {
    /// The buffer as sent to the display.
    pub buf: [[u8; WIDTH]; HEIGHT / 8],
}

impl Default for Oled {
    fn default() -> Self {
        Self {
            buf: [[0; WIDTH]; HEIGHT / 8],
        }
    }
}

/// The pixel (column, row) of a Q15 position: 512 units per column, 1024 per row, row 0 at the
/// top (y = -1).
#[inline]
pub fn pixel_of(x: Q15, y: Q15) -> (usize, usize) {
    (int16_to_u8(x, 1) as usize, int16_to_u8(y, 2) as usize)
}

impl Oled {
    /// Sets the pixel under a position.
    pub fn set(&mut self, x: Q15, y: Q15) {
        let (col, row) = pixel_of(x, y);
        self.buf[row >> 3][col] |= 1 << (row & 7);
    }

    /// Clears the pixel under a position (even if another bird shares it, as the firmware does).
    pub fn clear(&mut self, x: Q15, y: Q15) {
        let (col, row) = pixel_of(x, y);
        self.buf[row >> 3][col] &= !(1 << (row & 7));
    }

    /// Whether pixel (col, row) is lit.
    pub fn lit(&self, col: usize, row: usize) -> bool {
        self.buf[row >> 3][col] & (1 << (row & 7)) != 0
    }

    /// Clears everything.
    pub fn clear_all(&mut self) {
        self.buf = [[0; WIDTH]; HEIGHT / 8];
    }

    /// Number of lit pixels.
    pub fn lit_count(&self) -> usize {
        self.buf
            .iter()
            .flatten()
            .map(|b| b.count_ones() as usize)
            .sum()
    }
}
