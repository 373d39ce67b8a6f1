//! The command line: `murmur [run]`, `murmur headless`, and their flags.

use crate::scene_text::{parse_point, parse_world};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// murmur: a flocking (boids) simulator.
#[derive(Parser, Debug)]
#[command(name = "murmur", version, about)]
pub struct Cli {
    /// What to do (default: `run`, the windowed app).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The modes.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the app (the default).
    Run(RunArgs),
    /// Simulate without a window or GPU and print JSON lines of figures.
    Headless(HeadlessArgs),
    /// Render the app's scene after some ticks and save it as a PNG (works under Xvfb).
    Screenshot(ScreenshotArgs),
    /// Record the app's scene into an animated GIF, frame by frame at exact ticks.
    Record(crate::modes::record::RecordArgs),
    /// Run the microboids firmware model (Q15) and write its trajectory as CSV.
    Q15(Q15Args),
    /// Show the microboids board alone: its OLED, at the board's own tick.
    Oled(OledArgs),
    /// Sweep a parameter (or two), average the order parameters, write a CSV and a plot.
    Sweep(SweepArgs),
    /// Measure simulation speed, neighbour collection against k-d and R-trees, the ECS's cost,
    /// and the ABM-comparison flocking benchmark.
    Bench(BenchArgs),
    /// Play a microboids board: run the Q15 model and stream it over a serial port or a
    /// pseudo-terminal (with faults to inject).
    Board(BoardRunArgs),
    /// Mirror a live board over USB serial: show it beside the same model run here, or count
    /// and check its stream headless.
    Mirror(MirrorArgs),
    /// Feed a recording (`murmur mirror --record`) to the mirror and print what it found.
    Replay(ReplayArgs),
}

/// `murmur q15`.
#[derive(Args, Debug, Clone)]
pub struct Q15Args {
    /// Model revision: a412, bfee0c8 or article.
    #[arg(long, default_value = "a412", value_parser = parse_revision)]
    pub revision: murmur_microboids::Revision,
    /// Seed passed to Bird_Init (decimal or 0x-hex, not 0). a412 and bfee0c8 ignore it.
    #[arg(long, default_value = "0x12345678", value_parser = parse_seed)]
    pub seed: u32,
    /// Ticks to run; the CSV holds ticks 0 (right after init) to N.
    #[arg(long, default_value_t = 300)]
    pub ticks: u32,
    /// Number of birds (the board has 48).
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub birds: u16,
    /// Where to write the CSV (`-` for standard output).
    #[arg(long)]
    pub csv: Option<String>,
    /// Instead of a CSV, measure ticks per second on one core for this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub bench: Option<f64>,
}

/// Parses a revision name.
pub fn parse_revision(s: &str) -> Result<murmur_microboids::Revision, String> {
    murmur_microboids::Revision::from_name(s)
        .ok_or_else(|| format!("unknown revision `{s}`: use a412, bfee0c8 or article"))
}

/// Parses a non-zero u32, decimal or 0x-hex.
pub fn parse_seed(s: &str) -> Result<u32, String> {
    let v = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => s.parse::<u32>(),
    }
    .map_err(|_| format!("`{s}` is not a 32-bit number"))?;
    if v == 0 {
        Err("the seed must not be 0 (xorshift32 would stay at 0)".into())
    } else {
        Ok(v)
    }
}

/// What the flock is: preset, size, seed, world and overrides.
#[derive(Args, Debug, Clone, Default)]
pub struct SceneArgs {
    /// Built-in preset name (reynolds, cornell, spaceboids, vicsek, couzin) or path to a preset
    /// .toml file (default: reynolds; `murmur run` without scene flags resumes the last session).
    #[arg(long)]
    pub preset: Option<String>,
    /// Number of birds (default: the preset's).
    #[arg(long)]
    pub boids: Option<u32>,
    /// Seed of the starting positions and of all randomness (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// World size as WIDTHxHEIGHT, e.g. 1280x720 (default: the preset's).
    #[arg(long, value_parser = parse_world)]
    pub world: Option<(f32, f32)>,
    /// Override a preset parameter by the name the file uses, e.g. `--set visual_range=50` or
    /// `--set edges.mode=wrap`; repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub overrides: Vec<String>,
    /// Let a hunting predator loose at world position X,Y before the first tick (it chases the
    /// nearest bird; the preset's `[predator]` table tunes it).
    #[arg(long, value_name = "X,Y", value_parser = parse_point, allow_hyphen_values = true)]
    pub hunter: Option<(f32, f32)>,
    /// Place a leader at world position X,Y (the world's centre is 0,0) before the first tick.
    /// (Kept last among the scene flags.)
    #[arg(long, value_name = "X,Y", value_parser = parse_point, allow_hyphen_values = true)]
    pub leader: Option<(f32, f32)>,
}

impl SceneArgs {
    /// The preset asked for, or the default one.
    pub fn preset_name(&self) -> &str {
        self.preset.as_deref().unwrap_or("reynolds")
    }

    /// The seed asked for, or 1.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(1)
    }

    /// True when no flag chose the flock (so the app may resume the last session's).
    pub fn chooses_nothing(&self) -> bool {
        self.preset.is_none()
            && self.seed.is_none()
            && self.boids.is_none()
            && self.world.is_none()
            && self.overrides.is_empty()
    }
}

/// `murmur run`.
#[derive(Args, Debug, Clone, Default)]
pub struct RunArgs {
    /// The flock.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Window size as WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
    /// The microboids board beside the flock.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Measure this many frames (after a warm-up), print their times as JSON and exit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub measure_frames: Option<u32>,
}

/// The microboids board's OLED panel in the app.
#[derive(Args, Debug, Clone, Default)]
pub struct BoardArgs {
    /// Show the board's OLED (the Q15 firmware model) from the start (key O toggles it).
    #[arg(long)]
    pub oled: bool,
    /// The board's model revision: a412, bfee0c8 or article.
    #[arg(long = "board-revision", default_value = "a412", value_parser = parse_revision)]
    pub revision: Option<murmur_microboids::Revision>,
}

/// `murmur oled`.
#[derive(Args, Debug, Clone)]
pub struct OledArgs {
    /// Model revision: a412, bfee0c8 or article.
    #[arg(long, default_value = "a412", value_parser = parse_revision)]
    pub revision: murmur_microboids::Revision,
    /// Seed passed to Bird_Init (decimal or 0x-hex, not 0). a412 and bfee0c8 ignore it.
    #[arg(long, default_value = "0x12345678", value_parser = parse_seed)]
    pub seed: u32,
    /// Number of birds (the board has 48).
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub birds: u16,
    /// Screen pixels per OLED pixel.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=32))]
    pub scale: u16,
}

/// `murmur board`.
#[derive(Args, Debug, Clone)]
pub struct BoardRunArgs {
    /// Open a pseudo-terminal and print its path (open it as the mirror would a USB device).
    #[arg(long, conflicts_with = "port")]
    pub pty: bool,
    /// Write to this serial device instead.
    #[arg(long, required_unless_present = "pty")]
    pub port: Option<PathBuf>,
    /// With --pty, also make this path a symbolic link to the terminal (replaced on each start,
    /// so a mirror watching it sees the board vanish and come back).
    #[arg(long, requires = "pty")]
    pub link: Option<PathBuf>,
    /// Model revision: a412, bfee0c8 or article.
    #[arg(long, default_value = "a412", value_parser = parse_revision)]
    pub revision: murmur_microboids::Revision,
    /// Seed passed to Bird_Init (a412 and bfee0c8 ignore it).
    #[arg(long, default_value = "0x12345678", value_parser = parse_seed)]
    pub seed: u32,
    /// Birds (1 to 169, the most one FLOCK frame holds).
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u8).range(1..=169))]
    pub birds: u8,
    /// Board name in the HELLO.
    #[arg(long, default_value = "murmur virtual board")]
    pub name: String,
    /// Announce this revision number in the HELLO while running --revision (a lying board, to
    /// test divergence reports).
    #[arg(long)]
    pub announce: Option<u8>,
    /// As fast as the reader takes it, instead of one tick per 31.872 ms.
    #[arg(long)]
    pub fast: bool,
    /// Stop after this many ticks (ticks 0..=N are sent).
    #[arg(long)]
    pub ticks: Option<u32>,
    /// Fault: drop the FLOCK of every Nth tick.
    #[arg(long, value_name = "N")]
    pub drop_every: Option<u32>,
    /// Fault: flip a bit in the FLOCK of every Nth tick (its CRC fails).
    #[arg(long, value_name = "N")]
    pub flip_every: Option<u32>,
    /// Fault: a burst of noise after the FLOCK of every Nth tick.
    #[arg(long, value_name = "N")]
    pub noise_every: Option<u32>,
    /// Fault: send only half of the FLOCK of every Nth tick.
    #[arg(long, value_name = "N")]
    pub truncate_every: Option<u32>,
    /// Fault: go quiet before this tick ...
    #[arg(long, value_name = "TICK")]
    pub stall_at: Option<u32>,
    /// ... for this many milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub stall_ms: u64,
    /// Fault: reboot at this step (Bird_Init again, ticks restart at 0).
    #[arg(long, value_name = "STEP")]
    pub reset_at: Option<u32>,
}

/// `murmur mirror`.
#[derive(Args, Debug, Clone)]
pub struct MirrorArgs {
    /// List the serial ports and exit.
    #[arg(long, conflicts_with_all = ["port", "headless"])]
    pub list: bool,
    /// The board's serial port (e.g. /dev/ttyACM0) or a pseudo-terminal.
    #[arg(long, required_unless_present = "list")]
    pub port: Option<PathBuf>,
    /// No window: read until --frames FLOCK frames were accepted (or --timeout-s) and report.
    #[arg(long)]
    pub headless: bool,
    /// With --headless: FLOCK frames to accept before stopping.
    #[arg(long, default_value_t = 100)]
    pub frames: u64,
    /// With --headless: give up after this many seconds.
    #[arg(long, default_value_t = 30.0)]
    pub timeout_s: f64,
    /// With --headless: print one JSON object (otherwise a short summary).
    #[arg(long)]
    pub json: bool,
    /// Append every received frame to this file (flushed frame by frame).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// In the window: once --frames FLOCK frames have arrived, save the window as this PNG and
    /// exit.
    #[arg(long, conflicts_with = "headless", value_name = "PNG")]
    pub screenshot: Option<PathBuf>,
}

/// `murmur replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The recording.
    pub file: PathBuf,
    /// Print one JSON object (otherwise a short summary).
    #[arg(long)]
    pub json: bool,
}

/// `murmur bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Flock sizes to simulate (default 10000,100000,1000000).
    #[arg(long, value_delimiter = ',')]
    pub sizes: Option<Vec<usize>>,
    /// Shorter measurements and no 1M-bird neighbour comparison.
    #[arg(long)]
    pub quick: bool,
    /// One JSON object per line instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Model preset for the simulation figures (cornell or reynolds).
    #[arg(long, default_value = "cornell")]
    pub preset: String,
    /// Density, as the mean number of neighbours within the interaction radius.
    #[arg(long, default_value_t = 20.0)]
    pub neighbours: f64,
    /// Only some parts (comma-separated; default all).
    #[arg(long, value_delimiter = ',', value_enum)]
    pub only: Option<Vec<BenchPart>>,
    /// Seeded runs per ABM size (the comparison uses 100).
    #[arg(long, default_value_t = 100)]
    pub abm_runs: usize,
}

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
    /// World size per series, `LxL` (one for all, or one per --boids entry); default: the preset's.
    #[arg(long, value_delimiter = ',', value_parser = parse_world)]
    pub world: Vec<(f32, f32)>,
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

/// `murmur headless`.
#[derive(Args, Debug, Clone)]
pub struct HeadlessArgs {
    /// The flock.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Ticks to simulate.
    #[arg(long, default_value_t = 1000)]
    pub steps: u64,
    /// Print figures every this many ticks.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Also write the figures to this file: CSV when it ends in .csv, JSON lines otherwise.
    #[arg(long)]
    pub metrics: Option<PathBuf>,
    /// Worker threads for the simulation (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

/// `murmur screenshot`.
#[derive(Args, Debug, Clone)]
pub struct ScreenshotArgs {
    /// The flock.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Ticks to simulate before the picture.
    #[arg(long, default_value_t = 300)]
    pub steps: u64,
    /// Simulate a left click at window pixel X,Y (from the top left) before the first tick, as a
    /// user placing the leader would.
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    pub click: Option<(f32, f32)>,
    /// Window size as WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
    /// The microboids board beside the flock.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Show the side panel in the picture.
    #[arg(long)]
    pub panel: bool,
    /// Fly the gold bird this way from the first tick (its key held, as a player would), the
    /// follow camera after it.
    #[arg(long, value_enum)]
    pub fly: Option<FlyDirection>,
    /// Zoom in this many times closer than the whole world fitted into the playfield.
    #[arg(long, default_value_t = 1.0, value_parser = parse_zoom)]
    pub zoom: f32,
    /// Where to write the PNG.
    #[arg(long)]
    pub out: PathBuf,
}

/// Parses a zoom factor (0.1 to 100).
fn parse_zoom(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(z) if (0.1..=100.0).contains(&z) => Ok(z),
        _ => Err(format!("zoom must be a number from 0.1 to 100, got `{s}`")),
    }
}

/// A part of `murmur bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchPart {
    /// Simulation speed at each size, one thread and all.
    Sim,
    /// The Bevy plugins against the bare core and FastFlock.
    Ecs,
    /// Neighbour collection: the grid against brute force (and trees with `baselines`).
    Neighbours,
    /// The ABM frameworks comparison's flocking benchmark.
    Abm,
}

/// A way to fly the gold bird (its WASD key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FlyDirection {
    /// W.
    Up,
    /// S.
    Down,
    /// A.
    Left,
    /// D.
    Right,
}

impl FlyDirection {
    /// The key that flies this way.
    pub fn key(self) -> bevy::input::keyboard::KeyCode {
        use bevy::input::keyboard::KeyCode;
        match self {
            Self::Up => KeyCode::KeyW,
            Self::Down => KeyCode::KeyS,
            Self::Left => KeyCode::KeyA,
            Self::Right => KeyCode::KeyD,
        }
    }

    /// The character that key types.
    pub fn letter(self) -> &'static str {
        match self {
            Self::Up => "w",
            Self::Down => "s",
            Self::Left => "a",
            Self::Right => "d",
        }
    }
}

/// Parses `WIDTHxHEIGHT` window pixels (16 to 8192 each).
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = parse_world(s)?;
    let ok = |v: f32| v.fract() == 0.0 && (16.0..=8192.0).contains(&v);
    if ok(w) && ok(h) {
        Ok((w as u32, h as u32))
    } else {
        Err(format!(
            "window size must be whole pixels from 16 to 8192, got `{s}`"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_sizes_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_world("640x480"), Ok((640.0, 480.0)));
        assert_eq!(parse_world("10.5X20"), Ok((10.5, 20.0)));
        for bad in ["640", "x480", "640x", "0x10", "-5x5", "nanxinf", "axb"] {
            assert!(parse_world(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn value_lists_and_runs_parse() {
        assert_eq!(
            parse_values("0.5,1,...,3"),
            Ok(vec![0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
        );
        assert_eq!(parse_values("0,2,...,5"), Ok(vec![0.0, 2.0, 4.0, 5.0]));
        assert_eq!(parse_values("3,2,...,0"), Ok(vec![3.0, 2.0, 1.0, 0.0]));
        assert_eq!(parse_values("0.1,0.2,...,0.3"), Ok(vec![0.1, 0.2, 0.3]));
        assert_eq!(parse_values("1, 4 ,9"), Ok(vec![1.0, 4.0, 9.0]));
        for bad in [
            "",
            "a",
            "1,...,3",
            "1,2,...",
            "1,1,...,3",
            "1,2,...,0",
            "1,2,...,1e12",
        ] {
            assert!(parse_values(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn points_and_window_sizes_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_point("100,-50.5"), Ok((100.0, -50.5)));
        assert!(
            parse_point("100").is_err()
                && parse_point("a,b").is_err()
                && parse_point("1,inf").is_err()
        );
        assert_eq!(parse_size("800x600"), Ok((800, 600)));
        assert!(
            parse_size("800.5x600").is_err()
                && parse_size("8x8").is_err()
                && parse_size("99999x10").is_err()
        );
    }
}
