//! murmur's command line: parse, then hand over to a mode.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = murmur::cli::Cli::parse();
    match murmur::modes::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
