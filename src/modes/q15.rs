//! `murmur q15`: the microboids firmware model, its trajectory as the reference CSV format, or
//! its speed.

use super::ModeError;
use crate::cli::{parse_revision, parse_seed};
use clap::Args;
use murmur_microboids::{CSV_HEADER, CsvRow, Flock};
use std::io::{BufWriter, Write};
use std::time::{Duration, Instant};

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

/// Most birds `--birds` may ask for.
pub const MAX_BIRDS: usize = 1024;

/// Runs `murmur q15`: the Q15 model's trajectory as the reference CSV, or its tick rate.
pub fn run(args: Q15Args) -> Result<(), ModeError> {
    let flock = Flock::<MAX_BIRDS>::new(args.revision, args.birds as usize, args.seed)
        .map_err(|e| ModeError::Usage(format!("cannot make the flock: {e}")))?;
    if let Some(seconds) = args.bench {
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
            return Err(ModeError::Usage(format!(
                "--bench takes 0 to 3600 seconds, got {seconds}"
            )));
        }
        return bench(flock, Duration::from_secs_f64(seconds), &args);
    }
    let Some(target) = args.csv.as_deref() else {
        return Err(ModeError::Usage(
            "say where the CSV goes: --csv FILE or --csv -".into(),
        ));
    };
    let sink: Box<dyn Write> = if target == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(
            std::fs::File::create(target)
                .map_err(|e| ModeError::Usage(format!("cannot write {target}: {e}")))?,
        )
    };
    write_csv(flock, args.ticks, BufWriter::new(sink))
        .map_err(|e| ModeError::Failed(format!("cannot write the CSV: {e}")))
}

/// Writes ticks 0..=`ticks` in the reference format.
pub fn write_csv<const CAP: usize>(
    mut flock: Flock<CAP>,
    ticks: u32,
    mut out: impl Write,
) -> std::io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    for tick in 0..=ticks {
        if tick > 0 {
            flock.tick(None);
        }
        for (index, bird) in flock.birds().iter().enumerate() {
            writeln!(out, "{}", CsvRow { tick, index, bird })?;
        }
    }
    out.flush()
}

/// Ticks the model as fast as one core allows and prints one JSON line.
fn bench<const CAP: usize>(
    mut flock: Flock<CAP>,
    length: Duration,
    args: &Q15Args,
) -> Result<(), ModeError> {
    let started = Instant::now();
    let mut ticks = 0u64;
    while started.elapsed() < length {
        for _ in 0..1000 {
            flock.tick(None);
        }
        ticks += 1000;
    }
    let seconds = started.elapsed().as_secs_f64();
    let line = serde_json::json!({
        "kind": "q15",
        "revision": args.revision.name(),
        "birds": args.birds,
        "ticks": ticks,
        "ticks_per_s": ticks as f64 / seconds,
        "times_real_time": ticks as f64 / seconds * murmur_microboids::TICK_SECONDS,
        // Keeps the flock's work observable so it is not optimised away.
        "state_check": flock.birds().iter().map(|b| b.x.to_bits() as i64).sum::<i64>(),
    });
    println!("{line}");
    Ok(())
}
