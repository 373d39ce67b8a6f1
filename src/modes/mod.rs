//! The program's modes, and the errors they end with.

pub mod bench;
pub mod firmware;
pub mod headless;
pub mod oled;
pub mod q15;
pub mod record;
pub mod run;
pub mod screenshot;
pub mod serial;
pub mod sweep;

use crate::cli::{Cli, Command, RunArgs, SceneArgs};
use std::fmt;

/// Why a mode stopped early.
#[derive(Debug)]
pub enum ModeError {
    /// The user asked for something invalid (a preset, a flag value): exit code 2.
    Usage(String),
    /// Something failed while running (a file could not be written): exit code 1.
    Failed(String),
    /// A check ran and did not pass, with its own exit code (3 and up; `murmur mirror
    /// --headless` documents its own).
    Verdict(u8, String),
}

impl ModeError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => 2,
            Self::Failed(_) => 1,
            Self::Verdict(code, _) => *code,
        }
    }
}

impl fmt::Display for ModeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(m) | Self::Failed(m) | Self::Verdict(_, m) => f.write_str(m),
        }
    }
}

/// Runs the mode the command line asks for.
pub fn run(cli: Cli) -> Result<(), ModeError> {
    match cli.command {
        None => run::run(RunArgs {
            scene: SceneArgs::default(),
            size: run::WINDOW,
            board: Default::default(),
            measure_frames: None,
            gpu: false,
        }),
        Some(Command::Run(args)) => run::run(args),
        Some(Command::Headless(args)) => headless::run(args),
        Some(Command::Screenshot(args)) => screenshot::run(args),
        Some(Command::Record(args)) => record::run(args),
        Some(Command::Q15(args)) => q15::run(args),
        Some(Command::Oled(args)) => oled::run(args),
        Some(Command::Sweep(args)) => sweep::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Board(args)) => serial::board(args),
        Some(Command::Mirror(args)) => serial::mirror(args),
        Some(Command::Replay(args)) => serial::replay(args),
        Some(Command::Firmware(args)) => firmware::run(args),
    }
}
