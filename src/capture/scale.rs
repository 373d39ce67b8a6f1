//! Scaling a frame down for a recording: each output pixel the mean of the block it covers.

/// `rgba` (`width` x `height`, 4 bytes a pixel) scaled to at most `max_width` wide, keeping its
/// shape; returns RGB bytes and the new size. Frames no wider are only converted.
pub fn downscale(rgba: &[u8], width: u32, height: u32, max_width: u32) -> (Vec<u8>, u32, u32) {
    assert_eq!(rgba.len(), (width * height * 4) as usize, "RGBA pixels");
    let (w, h) = super::recording_size(width, height, max_width);
    let mut out = Vec::with_capacity((w * h * 3) as usize);
    for y in 0..h {
        let (y0, y1) = span(y, h, height);
        for x in 0..w {
            let (x0, x1) = span(x, w, width);
            let mut sum = [0u32; 3];
            for sy in y0..y1 {
                let row = (sy * width) as usize * 4;
                for sx in x0..x1 {
                    let p = row + sx as usize * 4;
                    for k in 0..3 {
                        sum[k] += rgba[p + k] as u32;
                    }
                }
            }
            let n = (y1 - y0) * (x1 - x0);
            out.extend(sum.map(|s| ((s + n / 2) / n) as u8));
        }
    }
    (out, w, h)
}

/// The source pixels `i` of `n` output pixels covers, out of `total`.
fn span(i: u32, n: u32, total: u32) -> (u32, u32) {
    let a = (i as u64 * total as u64 / n as u64) as u32;
    let b = (((i + 1) as u64 * total as u64) / n as u64).max(a as u64 + 1) as u32;
    (a, b.min(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_size_averages_blocks_and_small_frames_pass_through() {
        // 4x2: left half black, right half white.
        let mut rgba = Vec::new();
        for _y in 0..2 {
            for x in 0..4 {
                let v = if x < 2 { 0 } else { 255 };
                rgba.extend([v, v, v, 255]);
            }
        }
        let (rgb, w, h) = downscale(&rgba, 4, 2, 2);
        assert_eq!((w, h), (2, 1));
        assert_eq!(rgb, vec![0, 0, 0, 255, 255, 255]);
        let (same, w, h) = downscale(&rgba, 4, 2, 640);
        assert_eq!((w, h, same.len()), (4, 2, 24));
    }
}
