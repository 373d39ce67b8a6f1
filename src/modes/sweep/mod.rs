//! `murmur sweep`: one parameter (or two) over a range of values, several seeds per point, the
//! order parameters averaged over the end of each run; a CSV and a PNG (the paper's figure, or a
//! regime map for two parameters). Points run in parallel.

use super::ModeError;
mod plot;

use crate::scene::text::{WorldSize, parse_world_size};
use clap::Args;
use murmur_flock::murmur_core::metrics::Regime;
use murmur_flock::murmur_core::murmuration::MurmurationFigures;
use murmur_flock::murmur_core::preset::Preset;
use murmur_flock::murmur_core::sim::FlockSim;
use murmur_flock::murmur_core::{Vec2, Vec3, Vector};
use plot::Series;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `murmur sweep`.
#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// Built-in preset name or path to a preset file.
    #[arg(long)]
    pub preset: String,
    /// The parameter to sweep, by the name the preset file uses (e.g. `eta`).
    #[arg(long)]
    pub param: String,
    /// Its values: `0.5,1,1.5` or an arithmetic run `0.5,1,...,5`.
    #[arg(long, value_parser = parse_value_list, allow_hyphen_values = true)]
    pub values: ValueList,
    /// A second parameter: the sweep becomes a map, each point classified into a regime.
    #[arg(long, requires = "values2")]
    pub param2: Option<String>,
    /// Values of the second parameter.
    #[arg(long, value_parser = parse_value_list, allow_hyphen_values = true, requires = "param2")]
    pub values2: Option<ValueList>,
    /// Number of birds; a list (`40,100,400`) gives one series each.
    #[arg(long, value_delimiter = ',', default_value = "100")]
    pub boids: Vec<u32>,
    /// World size per series, `LxL` or in 3D `LxLxL` (one for all, or one per --boids entry);
    /// default: the preset's.
    #[arg(long, value_delimiter = ',', value_parser = parse_world_size)]
    pub world: Vec<WorldSize>,
    /// Ticks per run.
    #[arg(long, default_value_t = 2000)]
    pub steps: u64,
    /// Ticks at the end of each run averaged into its order parameters (sampled every tick).
    #[arg(long, default_value_t = 500)]
    pub average_last: u64,
    /// Seeds per point (1..=S); results are averaged over them, with standard errors.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    pub seeds: u64,
    /// Other overrides applied to every run.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub overrides: Vec<String>,
    /// Output prefix: writes PREFIX.csv, PREFIX.png and PREFIX.svg.
    #[arg(long, default_value = "sweep")]
    pub out: String,
    /// A logarithmic axis for the swept values (for values over decades; all above 0).
    #[arg(long)]
    pub log_x: bool,
    /// The figure plotted against the swept values: polarization, or (measured at each run's
    /// last tick) mean_nn_distance, interaction_neighbours, border_density_ratio,
    /// correlation_length or correlation_ratio (correlation length over flock size).
    #[arg(long, default_value = "polarization", value_parser = parse_figure)]
    pub y: String,
}

/// The figures `--y` may plot.
const FIGURES: [&str; 7] = [
    "polarization",
    "mean_nn_distance",
    "interaction_neighbours",
    "border_density_ratio",
    "correlation_length",
    "flock_size",
    "correlation_ratio",
];

fn parse_figure(s: &str) -> Result<String, String> {
    FIGURES
        .contains(&s)
        .then(|| s.to_string())
        .ok_or_else(|| format!("`{s}` is not one of {}", FIGURES.join(", ")))
}

/// A list of swept values.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueList(pub Vec<f64>);

fn parse_value_list(s: &str) -> Result<ValueList, String> {
    parse_values(s).map(ValueList)
}

/// Parses `a,b,c` or `a,b,...,c` (an arithmetic run from a in steps of b - a up to c).
pub fn parse_values(s: &str) -> Result<Vec<f64>, String> {
    let tokens: Vec<&str> = s.split(',').map(str::trim).collect();
    let num = |t: &str| -> Result<f64, String> {
        t.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{t}` is not a number"))
    };
    let mut out: Vec<f64> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "..." {
            let (Some(&b), Some(a), Some(end)) = (
                out.last(),
                out.len().checked_sub(2).map(|k| out[k]),
                tokens.get(i + 1),
            ) else {
                return Err("`...` needs two values before it and one after".into());
            };
            let (step, end) = (b - a, num(end)?);
            if step == 0.0 || (end - b) * step < 0.0 {
                return Err(format!(
                    "`{a},{b},...,{end}` does not run from {b} towards {end}"
                ));
            }
            let count = ((end - b) / step + 1e-9).floor() as usize;
            if count > 100_000 {
                return Err("that run has too many values".into());
            }
            for k in 1..=count {
                out.push(b + step * k as f64);
            }
            if (out.last().copied().unwrap_or(b) - end).abs() > 1e-9 * step.abs().max(1.0) {
                out.push(end);
            }
            i += 2;
        } else {
            out.push(num(tokens[i])?);
            i += 1;
        }
    }
    if out.is_empty() {
        return Err("no values".into());
    }
    // Round away float noise from the run (0.1 * 3 = 0.30000000000000004).
    Ok(out.into_iter().map(|v| (v * 1e9).round() / 1e9).collect())
}

/// One run's time-averaged order parameters, and its other figures at its last tick.
#[derive(Clone, Copy, Debug, Default)]
struct RunResult {
    polarization: f64,
    angular_momentum: f64,
    mean_nn_distance: f64,
    murmuration: MurmurationFigures,
}

impl RunResult {
    /// The figure `--y` names (NaN where the run has none).
    fn figure(&self, name: &str) -> f64 {
        let m = &self.murmuration;
        match name {
            "polarization" => self.polarization,
            "mean_nn_distance" => self.mean_nn_distance,
            "interaction_neighbours" => m.interaction_neighbours,
            "border_density_ratio" => m.border_density_ratio.unwrap_or(f64::NAN),
            "correlation_length" => m.correlation_length.unwrap_or(f64::NAN),
            "flock_size" => m.flock_size,
            "correlation_ratio" => m.correlation_length.unwrap_or(f64::NAN) / m.flock_size,
            _ => f64::NAN,
        }
    }
}

/// Swept as `--param boids`: the number of birds, the start box scaled with it.
const BOIDS: &str = "boids";

/// Mean and standard error of the mean.
fn mean_err(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// The preset of one point, checked.
fn point_preset(
    base: &Preset,
    args: &SweepArgs,
    value: f64,
    value2: Option<f64>,
) -> Result<Preset, ModeError> {
    let mut p = base.clone();
    let usage = |e: murmur_flock::murmur_core::preset::PresetError| ModeError::Usage(e.to_string());
    if args.param == BOIDS {
        if !(2.0..=10_000_000.0).contains(&value) {
            return Err(ModeError::Usage(format!(
                "--param boids takes 2 to 10000000 birds, got {value}"
            )));
        }
        // The start box keeps its proportions and its density.
        let scale = (value / p.world.boids.max(1) as f64).cbrt() as f32;
        p.world.width *= scale;
        p.world.height *= scale;
        p.world.depth *= scale;
        p.world.boids = value as u32;
    } else {
        p.set(&args.param, &value.to_string()).map_err(usage)?;
    }
    if let (Some(name), Some(v)) = (&args.param2, value2) {
        p.set(name, &v.to_string()).map_err(usage)?;
    }
    Ok(p)
}

fn run_one(preset: &Preset, boids: usize, seed: u64, steps: u64, last: u64) -> RunResult {
    if preset.world.depth > 0.0 {
        run_in::<Vec3>(preset, boids, seed, steps, last)
    } else {
        run_in::<Vec2>(preset, boids, seed, steps, last)
    }
}

/// [`run_one`] in space `V` (a 3D preset's solids included).
fn run_in<V: Vector>(preset: &Preset, boids: usize, seed: u64, steps: u64, last: u64) -> RunResult {
    let mut sim = FlockSim::<V>::new(preset.flock_params(), boids, seed);
    sim.solids = preset.obstacles.iter().filter_map(|o| o.solid()).collect();
    let (mut p, mut m) = (0.0, 0.0);
    for t in 0..steps {
        sim.step();
        if t >= steps - last {
            let (a, b) = sim.order_parameters();
            p += a;
            m += b;
        }
    }
    let metrics = sim.metrics();
    let ids: Vec<u32> = (0..sim.len() as u32).collect();
    RunResult {
        polarization: p / last as f64,
        angular_momentum: m / last as f64,
        mean_nn_distance: metrics.mean_nn_distance.unwrap_or(f64::NAN),
        murmuration: MurmurationFigures::measure(&sim.params, &sim.pos, &sim.vel, &ids),
    }
}

/// Runs `murmur sweep`: a parameter range over several seeds, written as CSV and a plot.
pub fn run(args: SweepArgs) -> Result<(), ModeError> {
    // Before the sweep, not after it: a folder that is not there would waste the whole run.
    crate::scripted::out_folder_exists(Path::new(&format!("{}.csv", args.out)))?;
    if args.average_last == 0 || args.average_last > args.steps {
        return Err(ModeError::Usage(format!(
            "--average-last must be 1 to --steps ({}), got {}",
            args.steps, args.average_last
        )));
    }
    if !(args.world.is_empty() || args.world.len() == 1 || args.world.len() == args.boids.len()) {
        return Err(ModeError::Usage(
            "give one --world, or one per --boids entry".into(),
        ));
    }
    if args.log_x {
        if args.param2.is_some() {
            return Err(ModeError::Usage(
                "--log-x is for a sweep of one parameter (a line chart)".into(),
            ));
        }
        if let Some(v) = args.values.0.iter().find(|v| **v <= 0.0) {
            return Err(ModeError::Usage(format!(
                "--log-x needs values above 0, got {v}"
            )));
        }
    }
    let mut base = Preset::load(&args.preset).map_err(|e| ModeError::Usage(e.to_string()))?;
    base.apply_overrides(&args.overrides)
        .map_err(|e| ModeError::Usage(e.to_string()))?;
    // One series per --boids entry, each with its world.
    let series: Vec<(usize, Preset)> = args
        .boids
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let mut p = base.clone();
            if let Some(size) = args.world.get(i).or(args.world.first()) {
                p.world.width = size.width;
                p.world.height = size.height;
                if let Some(depth) = size.depth {
                    p.world.depth = depth;
                }
            }
            (n as usize, p)
        })
        .collect();
    let values2: Vec<Option<f64>> = match &args.values2 {
        Some(v) => v.0.iter().copied().map(Some).collect(),
        None => vec![None],
    };
    // Every (series, value, value2) point, checked before anything runs.
    let mut points = Vec::new();
    for (s, (boids, preset)) in series.iter().enumerate() {
        for &v2 in &values2 {
            for &v in &args.values.0 {
                points.push((s, *boids, v, v2, point_preset(preset, &args, v, v2)?));
            }
        }
    }
    let seeds: Vec<u64> = (1..=args.seeds).collect();
    let progress = std::sync::Mutex::new(crate::progress::Progress::new(
        "runs",
        (points.len() * seeds.len()) as u64,
    ));
    let results: Vec<Vec<RunResult>> = points
        .par_iter()
        .map(|(_, boids, _, _, preset)| {
            seeds
                .par_iter()
                .map(|&seed| {
                    let boids = if args.param == BOIDS {
                        preset.world.boids as usize
                    } else {
                        *boids
                    };
                    let result = run_one(preset, boids, seed, args.steps, args.average_last);
                    if let Ok(mut p) = progress.lock() {
                        p.advance(1);
                    }
                    result
                })
                .collect()
        })
        .collect();
    if let Ok(mut p) = progress.lock() {
        p.finish();
    }

    let csv_path = PathBuf::from(format!("{}.csv", args.out));
    let png_path = PathBuf::from(format!("{}.png", args.out));
    let svg_path = PathBuf::from(format!("{}.svg", args.out));
    let name2 = args.param2.clone().unwrap_or_default();
    let figures = FIGURES[1..].join(",");
    let mut csv = format!(
        "boids,width,height,{}{},polarization,polarization_err,angular_momentum,angular_momentum_err,seeds,regime,{figures},{}_err\n",
        args.param,
        if name2.is_empty() {
            String::new()
        } else {
            format!(",{name2}")
        },
        args.y,
    );
    let mut lines: Vec<Series> = series
        .iter()
        .map(|(n, p)| Series {
            label: if args.param == BOIDS {
                format!(
                    "start box {} x {} x {} at {} birds, scaled",
                    p.world.width, p.world.height, p.world.depth, p.world.boids
                )
            } else {
                format!("N = {n}, L = {}", p.world.width)
            },
            points: Vec::new(),
        })
        .collect();
    let mut regimes = Vec::new();
    for ((s, boids, v, v2, preset), runs) in points.iter().zip(&results) {
        let (p, pe) = mean_err(&runs.iter().map(|r| r.polarization).collect::<Vec<_>>());
        let (m, me) = mean_err(&runs.iter().map(|r| r.angular_momentum).collect::<Vec<_>>());
        let regime = Regime::classify(p, m);
        let v2s = v2.map(|x| format!(",{x}")).unwrap_or_default();
        let boids = if args.param == BOIDS {
            preset.world.boids as usize
        } else {
            *boids
        };
        let others: Vec<f64> = FIGURES[1..]
            .iter()
            .map(|f| mean_err(&runs.iter().map(|r| r.figure(f)).collect::<Vec<_>>()).0)
            .collect();
        let (y, ye) = mean_err(&runs.iter().map(|r| r.figure(&args.y)).collect::<Vec<_>>());
        writeln!(
            csv,
            "{boids},{},{},{v}{v2s},{p:.6},{pe:.6},{m:.6},{me:.6},{},{},{},{ye:.6}",
            preset.world.width,
            preset.world.height,
            args.seeds,
            regime.name(),
            others
                .iter()
                .map(|x| format!("{x:.6}"))
                .collect::<Vec<_>>()
                .join(",")
        )
        .expect("writing to a String");
        if y.is_finite() {
            lines[*s].points.push((*v, y, ye));
        }
        regimes.push(
            Regime::ALL
                .iter()
                .position(|r| *r == regime)
                .expect("a regime"),
        );
        println!(
            "{}",
            serde_json::json!({"boids": boids, args.param.as_str(): v, "polarization": p, "polarization_err": pe,
                "angular_momentum": m, "angular_momentum_err": me, "regime": regime.name(),
                args.y.as_str(): y, format!("{}_err", args.y): ye})
        );
    }
    std::fs::write(&csv_path, csv)
        .map_err(|e| ModeError::Failed(format!("cannot write {}: {e}", csv_path.display())))?;

    let model = if base.world.depth > 0.0 {
        format!("{} (3D)", base.model.name())
    } else {
        base.model.name().to_string()
    };
    let caption = format!(
        "{} steps, last {} averaged, {} seeds",
        args.steps, args.average_last, args.seeds
    );
    let title_map = format!("{model}: regimes ({caption})");
    let title_lines = format!("{model}: {} against {} ({caption})", args.y, args.param);
    let y_label = if args.y == "polarization" {
        "polarization (v_a)"
    } else {
        args.y.as_str()
    };
    let y_range = (args.y == "polarization").then_some((0.0, 1.0));
    let canvas = match (&args.param2, &args.values2) {
        (Some(name2), Some(values2)) => {
            let categories: Vec<(&str, plot::Rgb)> = Regime::ALL
                .iter()
                .zip([
                    [230, 230, 230],
                    [214, 39, 40],
                    [255, 187, 120],
                    [31, 119, 180],
                ])
                .map(|(r, c)| (r.name(), c))
                .collect();
            // A map per series makes no sense; use the first.
            let per_map = args.values.0.len() * values2.0.len();
            plot::svg::category_map(
                &svg_path,
                &title_map,
                (&args.param, name2),
                (&args.values.0, &values2.0),
                &regimes[..per_map],
                &categories,
            )
            .map_err(ModeError::Failed)?;
            plot::category_map(
                &title_map,
                &args.param,
                name2,
                &args.values.0,
                &values2.0,
                &regimes[..per_map],
                &categories,
            )
        }
        _ => {
            plot::svg::line_chart(
                &svg_path,
                &title_lines,
                (&args.param, y_label),
                &lines,
                y_range,
                args.log_x,
            )
            .map_err(ModeError::Failed)?;
            plot::line_chart(&title_lines, &args.param, y_label, &lines, y_range)
        }
    };
    canvas.save_png(&png_path).map_err(ModeError::Failed)?;
    eprintln!(
        "wrote {}, {} and {}",
        csv_path.display(),
        png_path.display(),
        svg_path.display()
    );
    Ok(())
}
