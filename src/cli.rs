//! The command line: the subcommands (each one's flags in its file under `modes/`) and the
//! flags and value parsers several share.

use crate::scene::text::{ScenePoint, WorldSize, parse_scene_point, parse_world, parse_world_size};
use clap::{Args, Parser, Subcommand};

pub mod flags;

// Each subcommand's flags live in its own file under `modes/`; these names stay here too.
pub use crate::modes::bench::{BenchArgs, BenchPart};
pub use crate::modes::firmware::FirmwareArgs;
pub use crate::modes::headless::HeadlessArgs;
pub use crate::modes::oled::OledArgs;
pub use crate::modes::q15::Q15Args;
pub use crate::modes::run::RunArgs;
pub use crate::modes::screenshot::ScreenshotArgs;
pub use crate::modes::serial::{BoardRunArgs, MirrorArgs, ReplayArgs};
pub use crate::modes::sweep::{SweepArgs, ValueList, parse_values};

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
    /// pseudo-terminal (with faults to inject), or run murmur's micro:bit firmware under QEMU.
    Board(BoardRunArgs),
    /// Mirror a live board over USB serial: show it beside the same model run here, or count
    /// and check its stream headless.
    Mirror(MirrorArgs),
    /// Feed a recording (`murmur mirror --record`) to the mirror and print what it found.
    Replay(ReplayArgs),
    /// murmur's micro:bit firmware as an Intel HEX to flash, with its footprint; or what its
    /// ticks cost the Cortex-M0, counted under QEMU.
    Firmware(FirmwareArgs),
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
    /// Built-in preset name (reynolds, cornell, spaceboids, vicsek, couzin, abm, obstacles; in
    /// 3D reynolds3d, cornell3d, spaceboids3d, vicsek3d, couzin3d, abm3d, starlings) or path to a preset
    /// .toml file (default: reynolds; `murmur run` without scene flags resumes the last session).
    #[arg(long)]
    pub preset: Option<String>,
    /// Number of birds (default: the preset's).
    #[arg(long)]
    pub boids: Option<u32>,
    /// Seed of the starting positions and of all randomness (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// World size as WIDTHxHEIGHT, e.g. 1280x720, or WIDTHxHEIGHTxDEPTH for a 3D world (y up),
    /// e.g. 800x400x800 (default: the preset's).
    #[arg(long, value_name = "WxH[xD]", value_parser = parse_world_size)]
    pub world: Option<WorldSize>,
    /// Override a preset parameter by the name the file uses, e.g. `--set visual_range=50` or
    /// `--set edges.mode=wrap`; repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub overrides: Vec<String>,
    /// Let a hunting predator loose at world position X,Y (X,Y,Z in 3D) before the first tick
    /// (it chases the nearest bird; the preset's `[predator]` table tunes it).
    #[arg(long, value_name = "X,Y[,Z]", value_parser = parse_scene_point, allow_hyphen_values = true)]
    pub hunter: Option<ScenePoint>,
    /// Place a leader at world position X,Y (X,Y,Z in 3D; the world's centre is 0,0,0) before
    /// the first tick. (Kept last among the scene flags.)
    #[arg(long, value_name = "X,Y[,Z]", value_parser = parse_scene_point, allow_hyphen_values = true)]
    pub leader: Option<ScenePoint>,
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

impl BoardArgs {
    /// Refuses the board beside a 3D flock: the board's Q15 model flies a flat one.
    pub fn check(&self, scene: &crate::scene::SceneConfig) -> Result<(), crate::modes::ModeError> {
        let depth = scene.preset.world.depth;
        if self.oled && depth > 0.0 {
            return Err(crate::modes::ModeError::Usage(format!(
                "--oled shows the microboids board, whose Q15 model flies a flat flock, and the \
                 preset is 3D (its world is {depth} deep): leave out --oled or choose a 2D preset"
            )));
        }
        Ok(())
    }

    /// The board panel these flags ask for.
    pub fn panel(&self) -> crate::app::oled::BoardPanel {
        crate::app::oled::BoardPanel {
            shown: self.oled,
            revision: self.revision.unwrap_or(murmur_microboids::Revision::A412),
            ..Default::default()
        }
    }
}

/// The 3D scene's camera, for the picture-taking modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CameraChoice {
    /// Behind and above the gold bird.
    Chase,
    /// About the flock's centre, from above and to one side.
    Orbit,
}

impl CameraChoice {
    /// The 3D view this choice starts with, or a usage error in a flat world (whose scene has
    /// one camera).
    pub fn view(
        choice: Option<Self>,
        scene: &crate::scene::SceneConfig,
    ) -> Result<crate::app::deep::view::DeepView, crate::modes::ModeError> {
        use crate::app::deep::view::{CameraMode, DeepView};
        let mode = match choice {
            None | Some(Self::Chase) => CameraMode::Chase,
            Some(Self::Orbit) => CameraMode::Orbit,
        };
        if choice.is_some() && scene.preset.world.depth <= 0.0 {
            return Err(crate::modes::ModeError::Usage(
                "--camera chooses a 3D scene's camera; a flat preset has one view (leave \
                 --camera out, or pick a 3D preset such as reynolds3d)"
                    .into(),
            ));
        }
        Ok(DeepView {
            mode,
            ..Default::default()
        })
    }
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
    use crate::scene::text::parse_point;

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
