//! Small raster charts written as PNG: order parameter against a swept value with error bars,
//! and maps of categories over two swept values. Text is rasterised from egui's built-in Hack
//! font with swash, so nothing is needed from the system.

mod canvas;
pub mod svg;

pub use canvas::{Anchor, Canvas, Rgb};

/// One line of a chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// `(x, y, error)` points, drawn in order; `error` is the half-height of the error bar.
    pub points: Vec<(f64, f64, f64)>,
}

/// Colours for series, in order.
pub const PALETTE: [Rgb; 6] = [
    [31, 119, 180],
    [214, 39, 40],
    [44, 160, 44],
    [148, 103, 189],
    [255, 127, 14],
    [23, 190, 207],
];

const WIDTH: u32 = 900;
const HEIGHT: u32 = 600;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 70.0;

/// "Nice" tick values covering `lo..hi`.
fn ticks(lo: f64, hi: f64, max_ticks: usize) -> Vec<f64> {
    let span = (hi - lo).abs().max(1e-12);
    let raw = span / max_ticks as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= max_ticks as f64)
        .unwrap_or(mag * 10.0);
    let first = (lo / step).ceil() * step;
    (0..=max_ticks * 2)
        .map(|i| first + i as f64 * step)
        .take_while(|v| *v <= hi + step * 1e-9)
        .collect()
}

fn label(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Axes with ticks and labels; returns the data-to-pixel mapping.
fn axes(
    c: &mut Canvas,
    title: &str,
    x_label: &str,
    y_label: &str,
    x: (f64, f64),
    y: (f64, f64),
) -> impl Fn(f64, f64) -> (f64, f64) + use<> {
    let (w, h) = (c.width as f64, c.height as f64);
    let (x0, x1, y0, y1) = (LEFT, w - RIGHT, h - BOTTOM, TOP);
    let map = move |vx: f64, vy: f64| {
        (
            x0 + (vx - x.0) / (x.1 - x.0) * (x1 - x0),
            y0 + (vy - y.0) / (y.1 - y.0) * (y1 - y0),
        )
    };
    let axis = [40, 40, 40];
    let grid = [225, 225, 225];
    for t in ticks(x.0, x.1, 10) {
        let (px, _) = map(t, y.0);
        c.line(px, y0, px, y1, grid, 1.0);
        c.line(px, y0, px, y0 + 6.0, axis, 1.5);
        c.text(px, y0 + 10.0, &label(t), 16.0, axis, Anchor::Top);
    }
    for t in ticks(y.0, y.1, 8) {
        let (_, py) = map(x.0, t);
        c.line(x0, py, x1, py, grid, 1.0);
        c.line(x0 - 6.0, py, x0, py, axis, 1.5);
        c.text(x0 - 10.0, py, &label(t), 16.0, axis, Anchor::Right);
    }
    c.line(x0, y0, x1, y0, axis, 1.5);
    c.line(x0, y0, x0, y1, axis, 1.5);
    c.text((x0 + x1) / 2.0, h - 28.0, x_label, 18.0, axis, Anchor::Top);
    c.text(x0, y1 - 12.0, y_label, 18.0, axis, Anchor::BottomLeft);
    c.text(w / 2.0, 10.0, title, 20.0, [0, 0, 0], Anchor::Top);
    map
}

/// Lines with markers and error bars.
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    y_range: Option<(f64, f64)>,
) -> Canvas {
    let mut c = Canvas::new(WIDTH, HEIGHT, [255, 255, 255]);
    let all = series.iter().flat_map(|s| s.points.iter());
    let (mut xlo, mut xhi) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut ylo, mut yhi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &(x, y, e) in all {
        xlo = xlo.min(x);
        xhi = xhi.max(x);
        ylo = ylo.min(y - e);
        yhi = yhi.max(y + e);
    }
    if !xlo.is_finite() {
        (xlo, xhi, ylo, yhi) = (0.0, 1.0, 0.0, 1.0);
    }
    if xhi <= xlo {
        xhi = xlo + 1.0;
    }
    let pad = 0.03 * (xhi - xlo);
    let (ylo, yhi) = y_range.unwrap_or((ylo.min(0.0), yhi.max(ylo + 1e-9)));
    let map = axes(
        &mut c,
        title,
        x_label,
        y_label,
        (xlo - pad, xhi + pad),
        (ylo, yhi),
    );
    for (i, s) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let pts: Vec<(f64, f64)> = s.points.iter().map(|&(x, y, _)| map(x, y)).collect();
        for w in pts.windows(2) {
            c.line(w[0].0, w[0].1, w[1].0, w[1].1, colour, 2.0);
        }
        for &(x, y, e) in &s.points {
            let (px, py) = map(x, y);
            let (_, top) = map(x, y + e);
            let (_, bottom) = map(x, y - e);
            c.line(px, top, px, bottom, colour, 1.5);
            c.line(px - 4.0, top, px + 4.0, top, colour, 1.5);
            c.line(px - 4.0, bottom, px + 4.0, bottom, colour, 1.5);
            c.fill_rect(px - 3.5, py - 3.5, 7.0, 7.0, colour);
        }
        // Legend, top right.
        let ly = TOP + 14.0 + 24.0 * i as f64;
        let lx = c.width as f64 - RIGHT - 230.0;
        c.line(lx, ly, lx + 28.0, ly, colour, 2.5);
        c.fill_rect(lx + 10.5, ly - 3.5, 7.0, 7.0, colour);
        c.text(lx + 36.0, ly, &s.label, 16.0, [30, 30, 30], Anchor::Left);
    }
    c
}

/// A map of categories: cell (i, j) at `xs[i]`, `ys[j]` gets colour `categories[cells[j * xs.len() + i]]`.
pub fn category_map(
    title: &str,
    x_label: &str,
    y_label: &str,
    xs: &[f64],
    ys: &[f64],
    cells: &[usize],
    categories: &[(&str, Rgb)],
) -> Canvas {
    let mut c = Canvas::new(WIDTH, HEIGHT, [255, 255, 255]);
    let half = |v: &[f64]| {
        if v.len() > 1 {
            (v[1] - v[0]) / 2.0
        } else {
            0.5
        }
    };
    let (hx, hy) = (half(xs), half(ys));
    let x = (xs[0] - hx, xs[xs.len() - 1] + hx);
    let y = (ys[0] - hy, ys[ys.len() - 1] + hy);
    // Leave room on the right for the legend.
    let mut plot = Canvas::new(WIDTH - 200, HEIGHT, [255, 255, 255]);
    let map = axes(&mut plot, "", x_label, y_label, x, y);
    for (j, &vy) in ys.iter().enumerate() {
        for (i, &vx) in xs.iter().enumerate() {
            let (ax, ay) = map(vx - hx, vy + hy);
            let (bx, by) = map(vx + hx, vy - hy);
            let colour = categories[cells[j * xs.len() + i]].1;
            plot.fill_rect(ax + 1.0, ay + 1.0, bx - ax - 2.0, by - ay - 2.0, colour);
        }
    }
    c.blit(&plot, 0, 0);
    c.text(
        WIDTH as f64 / 2.0,
        10.0,
        title,
        20.0,
        [0, 0, 0],
        Anchor::Top,
    );
    for (k, (name, colour)) in categories.iter().enumerate() {
        let ly = TOP + 20.0 + 30.0 * k as f64;
        let lx = (WIDTH - 190) as f64;
        c.fill_rect(lx, ly - 9.0, 18.0, 18.0, *colour);
        c.text(lx + 26.0, ly, name, 16.0, [30, 30, 30], Anchor::Left);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            ticks(0.0, 5.0, 10),
            vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0]
        );
        let t = ticks(0.13, 0.97, 8);
        assert!(
            t.first().unwrap() >= &0.13 && t.last().unwrap() <= &0.97 && t.len() >= 4,
            "{t:?}"
        );
    }

    #[test]
    fn charts_draw_their_series_in_colour() {
        let s = Series {
            label: "N = 40".into(),
            points: vec![(0.0, 1.0, 0.05), (2.5, 0.5, 0.1), (5.0, 0.1, 0.02)],
        };
        let c = line_chart("t", "eta", "v_a", &[s], Some((0.0, 1.0)));
        let blue = c.rgb.chunks(3).filter(|p| p == &PALETTE[0]).count();
        assert!(blue > 200, "the series is drawn: {blue} pixels");
        let dark = c
            .rgb
            .chunks(3)
            .filter(|p| p[0] < 100 && p[1] < 100 && p[2] < 100)
            .count();
        assert!(dark > 500, "axes and text are drawn: {dark} pixels");
    }
}
