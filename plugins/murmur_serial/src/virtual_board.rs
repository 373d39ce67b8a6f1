//! A virtual microboids board: the Q15 model at the board's tick rate (or as fast as the reader
//! takes it), streaming HELLO and FLOCK frames, with faults to inject for tests.

use murmur_board_link::cobs;
use murmur_board_link::message::{BirdRecord, Hello, encode_flock, encode_hello};
use murmur_microboids::{Flock, Revision, XorShift32};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// Faults, each on the FLOCK frames whose tick t has `t % every == every - 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Don't send the frame.
    pub drop_every: Option<u32>,
    /// Flip a bit of the payload (the CRC then fails).
    pub flip_every: Option<u32>,
    /// After the frame, send a burst of noise ending in a delimiter (one garbage frame).
    pub noise_every: Option<u32>,
    /// Send only the first half of the frame, then a delimiter.
    pub truncate_every: Option<u32>,
    /// Before this tick, go quiet for `stall`.
    pub stall_at: Option<u32>,
    /// How long to stall.
    pub stall: Duration,
    /// At this loop step, reboot: Bird_Init again, HELLO, then FLOCK from tick 0.
    pub reset_at: Option<u32>,
}

fn hits(every: Option<u32>, tick: u32) -> bool {
    every.is_some_and(|n| n > 0 && tick % n == n - 1)
}

/// What the board is and does.
#[derive(Clone, Debug)]
pub struct BoardConfig {
    /// The model it runs.
    pub revision: Revision,
    /// The revision number its HELLO announces (default: the one it runs).
    pub announce: Option<u8>,
    /// Bird_Init's seed.
    pub seed: u32,
    /// Birds.
    pub birds: usize,
    /// Name in the HELLO.
    pub name: String,
    /// As fast as the reader takes it, instead of one tick per 31.872 ms.
    pub fast: bool,
    /// Stop after this many steps (ticks 0..=N are sent); `None`: run until stopped.
    pub ticks: Option<u32>,
    /// Faults to inject.
    pub faults: Faults,
}

/// The protocol's revision number for a model revision.
pub fn revision_number(r: Revision) -> u8 {
    r.protocol_number()
}

/// HELLO every this many ticks (about once a second at 31.9 ticks/s).
const HELLO_EVERY: u32 = 31;

/// Runs the board, writing the stream to `out`, until `config.ticks` or a write fails.
pub fn run(config: &BoardConfig, out: &mut impl Write) -> io::Result<()> {
    let mut flock =
        Flock::<{ crate::mirror::MAX_BIRDS }>::new(config.revision, config.birds, config.seed)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let hello = Hello::new(
        config.announce.unwrap_or(revision_number(config.revision)),
        config.seed,
        config.birds as u8,
        (murmur_microboids::TICK_SECONDS * 1e6).round() as u32,
        &config.name,
    );
    let period = Duration::from_secs_f64(murmur_microboids::TICK_SECONDS);
    let mut noise = XorShift32(0x5EED_0001);
    let mut frame = [0u8; murmur_board_link::MAX_FRAME];
    // A leading delimiter: a reader listening from the start catches the very first frame.
    out.write_all(&[0])?;
    let mut send_hello = |out: &mut dyn Write| -> io::Result<()> {
        let n =
            encode_hello(&hello, &mut frame).map_err(|_| io::Error::other("HELLO too large"))?;
        out.write_all(&frame[..n])
    };
    send_hello(out)?;
    send_flock(&flock, &config.faults, &mut noise, out)?;
    let started = Instant::now();
    let mut step = 0u32;
    while config.ticks.is_none_or(|max| step < max) {
        step += 1;
        if !config.fast {
            let due = started + period * step;
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
        }
        if config.faults.reset_at == Some(step) {
            flock.init(config.seed);
            send_hello(out)?;
            send_flock(&flock, &config.faults, &mut noise, out)?;
            continue;
        }
        flock.tick(None);
        let tick = flock.tick_count();
        if config.faults.stall_at == Some(tick) {
            out.flush()?;
            std::thread::sleep(config.faults.stall);
        }
        if tick % HELLO_EVERY == 0 {
            send_hello(out)?;
        }
        send_flock(&flock, &config.faults, &mut noise, out)?;
    }
    out.flush()
}

/// One FLOCK frame, with whatever fault falls on its tick.
fn send_flock<const CAP: usize>(
    flock: &Flock<CAP>,
    faults: &Faults,
    noise: &mut XorShift32,
    out: &mut dyn Write,
) -> io::Result<()> {
    let tick = flock.tick_count();
    if hits(faults.drop_every, tick) {
        return Ok(());
    }
    let records: Vec<BirdRecord> = flock
        .birds()
        .iter()
        .map(|b| BirdRecord {
            x: b.x.to_bits(),
            y: b.y.to_bits(),
            angle: b.angle,
            state: b.state as u8,
        })
        .collect();
    let mut frame = [0u8; murmur_board_link::MAX_FRAME];
    let mut n = encode_flock(tick, &records, &mut frame)
        .map_err(|_| io::Error::other("FLOCK too large"))?;
    if hits(faults.flip_every, tick) {
        // Flip a payload bit and re-frame with the original CRC: a clean CRC failure.
        let mut raw = frame;
        let len = cobs::decode_in_place(&mut raw[..n - 1]).expect("our own frame decodes");
        raw[1] ^= 0x01;
        n = cobs::encode(&raw[..len], &mut frame).expect("room for the frame");
        frame[n] = 0;
        n += 1;
    }
    if hits(faults.truncate_every, tick) {
        out.write_all(&frame[..n / 2])?;
        out.write_all(&[0])?;
    } else {
        out.write_all(&frame[..n])?;
    }
    if hits(faults.noise_every, tick) {
        let burst: Vec<u8> = (0..16).map(|_| (noise.step() % 255) as u8 + 1).collect();
        out.write_all(&burst)?;
        out.write_all(&[0])?;
    }
    Ok(())
}
