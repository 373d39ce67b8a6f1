//! The same charts as vector figures (SVG, for papers), drawn with plotters: lines with error
//! bars on a linear or a logarithmic x axis, and maps of categories.

use super::{PALETTE, Rgb, Series};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use std::ops::Range;
use std::path::Path;

const SIZE: (u32, u32) = (900, 600);

fn colour([r, g, b]: Rgb) -> RGBColor {
    RGBColor(r, g, b)
}

fn failed(path: &Path, e: impl std::fmt::Display) -> String {
    format!("cannot write {}: {e}", path.display())
}

/// Lines with markers and error bars (half-height `error`), on a logarithmic x axis with
/// `log_x` (every x must then be above 0).
pub fn line_chart(
    path: &Path,
    title: &str,
    labels: (&str, &str),
    series: &[Series],
    y_range: Option<(f64, f64)>,
    log_x: bool,
) -> Result<(), String> {
    let all = || series.iter().flat_map(|s| s.points.iter());
    let (mut xlo, mut xhi) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut ylo, mut yhi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &(x, y, e) in all() {
        (xlo, xhi) = (xlo.min(x), xhi.max(x));
        (ylo, yhi) = (ylo.min(y - e), yhi.max(y + e));
    }
    if !xlo.is_finite() {
        (xlo, xhi, ylo, yhi) = (1.0, 10.0, 0.0, 1.0);
    }
    if log_x && xlo <= 0.0 {
        return Err(format!(
            "a logarithmic axis needs values above 0, got {xlo}"
        ));
    }
    if xhi <= xlo {
        xhi = if log_x { xlo * 10.0 } else { xlo + 1.0 };
    }
    let (ylo, yhi) = y_range.unwrap_or((ylo.min(0.0), yhi.max(ylo + 1e-9)));
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(path, e))?;
    if log_x {
        let (lo, hi) = (xlo / 1.15, xhi * 1.15);
        draw_lines(&root, title, labels, (lo..hi).log_scale(), ylo..yhi, series)
    } else {
        let pad = 0.03 * (xhi - xlo);
        draw_lines(&root, title, labels, xlo - pad..xhi + pad, ylo..yhi, series)
    }
    .map_err(|e| failed(path, e))?;
    root.present().map_err(|e| failed(path, e))
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type DrawResult =
    Result<(), DrawingAreaErrorKind<<SVGBackend<'static> as DrawingBackend>::ErrorType>>;

fn draw_lines<X>(
    root: &Area,
    title: &str,
    (x_label, y_label): (&str, &str),
    x: X,
    y: Range<f64>,
    series: &[Series],
) -> DrawResult
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .bold_line_style(RGBColor(215, 215, 215))
        .light_line_style(RGBColor(240, 240, 240))
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let c = colour(PALETTE[i % PALETTE.len()]);
        chart
            .draw_series(LineSeries::new(
                s.points.iter().map(|&(x, y, _)| (x, y)),
                c.stroke_width(2),
            ))?
            .label(s.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(2)));
        chart.draw_series(
            s.points
                .iter()
                .map(|&(x, y, e)| ErrorBar::new_vertical(x, y - e, y, y + e, c.filled(), 8)),
        )?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(200, 200, 200))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
}

/// A map of categories: cell (i, j) at `xs[i]`, `ys[j]` coloured by `categories[cells[j *
/// xs.len() + i]]`, with a legend.
pub fn category_map(
    path: &Path,
    title: &str,
    (x_label, y_label): (&str, &str),
    (xs, ys): (&[f64], &[f64]),
    cells: &[usize],
    categories: &[(&str, Rgb)],
) -> Result<(), String> {
    let half = |v: &[f64]| {
        if v.len() > 1 {
            (v[1] - v[0]) / 2.0
        } else {
            0.5
        }
    };
    let (hx, hy) = (half(xs), half(ys));
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(path, e))?;
    let (plot, legend) = root.split_horizontally(SIZE.0 - 200);
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, ("sans-serif", 18))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(
            xs[0] - hx..xs[xs.len() - 1] + hx,
            ys[0] - hy..ys[ys.len() - 1] + hy,
        )
        .map_err(|e| failed(path, e))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| failed(path, e))?;
    let rects = ys.iter().enumerate().flat_map(|(j, &vy)| {
        xs.iter().enumerate().map(move |(i, &vx)| {
            let c = colour(categories[cells[j * xs.len() + i]].1);
            Rectangle::new([(vx - hx, vy - hy), (vx + hx, vy + hy)], c.filled())
        })
    });
    chart.draw_series(rects).map_err(|e| failed(path, e))?;
    for (k, (name, c)) in categories.iter().enumerate() {
        let y = 60 + 30 * k as i32;
        legend
            .draw(&Rectangle::new(
                [(10, y - 9), (28, y + 9)],
                colour(*c).filled(),
            ))
            .map_err(|e| failed(path, e))?;
        legend
            .draw(&Text::new(
                name.to_string(),
                (36, y - 8),
                ("sans-serif", 16),
            ))
            .map_err(|e| failed(path, e))?;
    }
    root.present().map_err(|e| failed(path, e))
}
