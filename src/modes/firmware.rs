//! `murmur firmware`: murmur's micro:bit firmware for a real board, as the Intel HEX file the
//! MICROBIT drive flashes, with what it takes of the board's flash and RAM; and `--measure`,
//! what a tick costs the Cortex-M0, counted under QEMU by a TCG plugin of ours.

use super::ModeError;
use crate::cli::parse_revision;
use crate::firmware::image::{Image, Settings};
use crate::firmware::{self, hex, qemu};
use clap::Args;
use murmur_microboids::Revision;
use std::io::Read;
use std::path::{Path, PathBuf};

/// `murmur firmware`'s flags.
#[derive(Args, Debug, Clone)]
pub struct FirmwareArgs {
    /// The model revision the image runs: a412, bfee0c8 or article.
    #[arg(long, default_value = "a412", value_parser = parse_revision)]
    pub revision: Revision,
    /// Where to write the Intel HEX (copy it onto the MICROBIT drive to flash the board).
    #[arg(long, value_name = "FILE.hex", required_unless_present = "measure")]
    pub out: Option<PathBuf>,
    /// Instead: count the Cortex-M0 instructions of every revision's ticks under QEMU.
    #[arg(long, conflicts_with = "out")]
    pub measure: bool,
    /// With --measure: ticks to count.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..))]
    pub ticks: u32,
}

/// The micro:bit v1's nRF51822 (QFAA).
const FLASH: u32 = 256 * 1024;
const RAM: u32 = 16 * 1024;
/// The microboids board's STM32G031J6.
const G031_FLASH: u32 = 32 * 1024;
const G031_RAM: u32 = 8 * 1024;
/// The cycles a tick may take: the micro:bit's nRF51822 runs at 16 MHz, the microboids board's
/// STM32G031 at 64 MHz, for 31.872 ms (a Cortex-M0 retires at most one instruction a cycle, so
/// instructions are a floor under cycles).
const MICROBIT_CYCLES: f64 = 16e6 * 0.031_872;
const G031_CYCLES: f64 = 64e6 * 0.031_872;

/// Runs `murmur firmware`.
pub fn run(args: FirmwareArgs) -> Result<(), ModeError> {
    let elf = firmware::elf().map_err(ModeError::Failed)?;
    let bytes = std::fs::read(&elf)
        .map_err(|e| ModeError::Failed(format!("cannot read {}: {e}", elf.display())))?;
    let image =
        Image::read(bytes).map_err(|e| ModeError::Failed(format!("{}: {e}", elf.display())))?;
    if args.measure {
        return measure(image, args.ticks);
    }
    let out = args.out.expect("clap requires --out without --measure");
    crate::scripted::out_folder_exists(&out)?;
    let mut image = image;
    let settings = Settings {
        revision: args.revision,
        fast: false,
        fault: None,
    };
    let failed = |e: String| ModeError::Failed(format!("{}: {e}", elf.display()));
    image.set(settings).map_err(failed)?;
    let text = hex::write(&image.segments().map_err(failed)?);
    std::fs::write(&out, text)
        .map_err(|e| ModeError::Failed(format!("cannot write {}: {e}", out.display())))?;
    let (flash, ram) = image.footprint().map_err(failed)?;
    println!("{}", out.display());
    eprintln!(
        "murmur's micro:bit firmware, {}, one tick per 31.872 ms: copy {} onto the MICROBIT drive",
        args.revision.name(),
        out.display()
    );
    eprintln!(
        "flash {flash} bytes of {FLASH} ({:.1}%), static RAM {ram} bytes of {RAM} (the stack \
         takes the rest; `murmur firmware --measure` finds its depth); the STM32G031J6's \
         {G031_FLASH} / {G031_RAM}: {}",
        100.0 * flash as f64 / FLASH as f64,
        if flash <= G031_FLASH && ram < G031_RAM {
            "the code fits"
        } else {
            "does not fit"
        }
    );
    Ok(())
}

/// What the plugin counted for one revision.
struct Cost {
    ticks: u64,
    tick_mean: f64,
    tick_max: u64,
    flock_mean: f64,
    flock_max: u64,
    encode_mean: f64,
    stack: u64,
}

/// The plugin, built into the cache folder from `plugins/murmur_microbit/measure/tick_cost.c`.
fn plugin() -> Result<PathBuf, ModeError> {
    let source = firmware::source_dir().join("measure/tick_cost.c");
    let dir = qemu::cache_dir()
        .ok_or_else(|| ModeError::Failed("no cache folder (HOME is not set)".into()))?
        .join("plugins");
    std::fs::create_dir_all(&dir)
        .map_err(|e| ModeError::Failed(format!("cannot make {}: {e}", dir.display())))?;
    let out = dir.join("tick_cost.so");
    let status = std::process::Command::new("gcc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&out)
        .arg(&source)
        .status()
        .map_err(|e| ModeError::Failed(format!("cannot run gcc to build the QEMU plugin: {e}")))?;
    if !status.success() {
        return Err(ModeError::Failed(format!(
            "gcc could not build {}",
            source.display()
        )));
    }
    Ok(out)
}

fn measure_one(image: &Image, plugin: &Path, ticks: u32) -> Result<Cost, ModeError> {
    let failed = ModeError::Failed;
    let symbol = |name: &str| image.symbol(name).map_err(failed);
    let dir = std::env::temp_dir();
    let tag = format!(
        "{}-{}",
        image.settings().map_err(failed)?.revision.name(),
        std::process::id()
    );
    let elf = dir.join(format!("murmur-measure-{tag}.elf"));
    let out = dir.join(format!("murmur-measure-{tag}.txt"));
    std::fs::write(&elf, image.bytes())
        .map_err(|e| ModeError::Failed(format!("cannot write {}: {e}", elf.display())))?;
    let _ = std::fs::remove_file(&out);
    let plugin_arg = format!(
        "{},tick={},flock={},hello={},send={},floor={},top={},ticks={ticks},out={}",
        plugin.display(),
        symbol("bird_tick")?,
        symbol("send_flock")?,
        symbol("send_hello")?,
        symbol("uart_send")?,
        symbol("_ebss")?,
        0x2000_0000u32 + RAM,
        out.display()
    );
    let mut child = qemu::start(&elf, Some(&plugin_arg)).map_err(failed)?;
    // The frames go nowhere; they must still be taken, or the UART holds the core back.
    let mut uart = child.stdout.take().expect("stdout is piped");
    let mut sink = [0u8; 4096];
    while uart.read(&mut sink).is_ok_and(|n| n > 0) {}
    let _ = child.wait();
    let _ = std::fs::remove_file(&elf);
    let text = std::fs::read_to_string(&out)
        .map_err(|_| ModeError::Failed("the QEMU plugin wrote no figures".into()))?;
    let _ = std::fs::remove_file(&out);
    let value = |key: &str| -> Result<u64, ModeError> {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.parse().ok())
            .ok_or_else(|| ModeError::Failed(format!("the plugin's figures lack {key}")))
    };
    let ticks = value("ticks")?;
    let flocks = value("flocks")?.max(1);
    Ok(Cost {
        ticks,
        tick_mean: value("tick_sum")? as f64 / ticks.max(1) as f64,
        tick_max: value("tick_max")?,
        flock_mean: value("flock_sum")? as f64 / flocks as f64,
        flock_max: value("flock_max")?,
        encode_mean: value("encode_sum")? as f64 / value("encodes")?.max(1) as f64,
        stack: (0x2000_0000u64 + RAM as u64).saturating_sub(value("lowest_write")?),
    })
}

fn measure(mut image: Image, ticks: u32) -> Result<(), ModeError> {
    let plugin = plugin()?;
    let (flash, ram) = image.footprint().map_err(ModeError::Failed)?;
    println!(
        "Cortex-M0 instructions under QEMU ({ticks} ticks each, 48 birds); a tick's budget is \
         {:.0}k cycles on the micro:bit (16 MHz x 31.872 ms), {:.2}M on the STM32G031 (64 MHz)",
        MICROBIT_CYCLES / 1e3,
        G031_CYCLES / 1e6
    );
    println!(
        "{:<8} {:>10} {:>9} {:>10} {:>6} {:>11} {:>10} {:>12} {:>7}",
        "revision",
        "tick mean",
        "tick max",
        "micro:bit",
        "G031",
        "FLOCK mean",
        "FLOCK max",
        "encode mean",
        "stack"
    );
    let mut deepest = 0;
    for revision in [Revision::A412, Revision::Bfee0c8, Revision::Article] {
        image
            .set(Settings {
                revision,
                fast: true,
                fault: None,
            })
            .map_err(ModeError::Failed)?;
        let cost = measure_one(&image, &plugin, ticks)?;
        if cost.ticks < ticks as u64 {
            return Err(ModeError::Failed(format!(
                "{}: only {} ticks were counted",
                revision.name(),
                cost.ticks
            )));
        }
        deepest = deepest.max(cost.stack);
        println!(
            "{:<8} {:>10.0} {:>9} {:>9.1}% {:>5.1}% {:>11.0} {:>10} {:>12.0} {:>6}B",
            revision.name(),
            cost.tick_mean,
            cost.tick_max,
            100.0 * cost.tick_max as f64 / MICROBIT_CYCLES,
            100.0 * cost.tick_max as f64 / G031_CYCLES,
            cost.flock_mean,
            cost.flock_max,
            cost.encode_mean,
            cost.stack
        );
    }
    let used = ram as u64 + deepest;
    println!(
        "flash {flash} bytes, RAM {used} bytes ({ram} static + {deepest} stack at its deepest); \
         the STM32G031J6 has {G031_FLASH} / {G031_RAM}: {}",
        if flash <= G031_FLASH && used <= G031_RAM as u64 {
            "it fits"
        } else {
            "it does not fit"
        }
    );
    Ok(())
}
