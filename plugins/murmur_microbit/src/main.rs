//! murmur's firmware for the BBC micro:bit v1: the microboids flock (murmur_microboids, bit for
//! bit the firmware's model) streamed as the board stream (murmur_board_link) on UART0, which
//! the micro:bit's interface chip presents as a USB serial port. `murmur mirror` mirrors it.
//!
//! The stream, as `docs/serial-protocol.md` says: a `0x00`, then HELLO, then a FLOCK for tick 0
//! and one after every tick, and HELLO again every 32 ticks.

#![no_std]
#![no_main]

mod config;
mod nrf51;
mod rt;

use murmur_board_link::MAX_FRAME;
use murmur_board_link::crc::crc32_mpeg2;
use murmur_board_link::message::{BirdRecord, Hello, encode_flock, encode_hello};
use murmur_microboids::{Flock, NUM_BIRDS, Revision};

/// The board's tick period, in microseconds (the microboids timer's 31.872 ms).
const TICK_US: u32 = 31_872;
/// HELLO again every this many ticks (about once a second).
const HELLO_EVERY: u32 = 32;
/// The name the HELLO gives.
const NAME: &str = "murmur micro:bit";

/// The article's seed: CRC-32/MPEG-2 of the chip's ID words, each fed most significant byte
/// first as the STM32's CRC unit takes a word. a412 and bfee0c8 ignore it.
fn seed() -> u32 {
    let [a, b] = nrf51::device_id();
    let mut bytes = [0u8; 8];
    bytes[..4].copy_from_slice(&a.to_be_bytes());
    bytes[4..].copy_from_slice(&b.to_be_bytes());
    match crc32_mpeg2(&bytes) {
        0 => 1, // Bird_Init asserts a non-zero seed
        s => s,
    }
}

/// One FLOCK frame: every bird's place, heading and state after `flock`'s last tick.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn send_flock(
    flock: &Flock,
    config: &config::Config,
    uart: &mut nrf51::Uart,
    frame: &mut [u8],
) {
    let tick = flock.tick_count();
    let mut records = [BirdRecord::default(); NUM_BIRDS];
    for (record, bird) in records.iter_mut().zip(flock.birds()) {
        *record = BirdRecord {
            x: bird.x.to_bits(),
            y: bird.y.to_bits(),
            angle: bird.angle,
            state: bird.state as u8,
        };
    }
    if tick >= config.fault_tick
        && let Some(record) = records.get_mut(config.fault_bird as usize)
    {
        record.x = record.x.wrapping_add(1);
    }
    let birds = &records[..flock.birds().len()];
    if let Ok(n) = encode_flock(tick, birds, frame) {
        uart.send(&frame[..n]);
    }
}

/// A HELLO frame.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn send_hello(hello: &Hello, uart: &mut nrf51::Uart, frame: &mut [u8]) {
    if let Ok(n) = encode_hello(hello, frame) {
        uart.send(&frame[..n]);
    }
}

/// The flock's tick (Bird_Tick). It, `send_hello` and `send_flock` stay out of line: their
/// entry points are where `murmur firmware --measure` counts a tick's instructions from and to.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn bird_tick(flock: &mut Flock) {
    flock.tick(None);
}

fn main() -> ! {
    let config = config::read();
    let revision = Revision::from_protocol_number(config.revision).unwrap_or(Revision::A412);
    let seed = seed();
    let mut uart = nrf51::Uart::start();
    let mut timer = (config.fast == 0).then(|| nrf51::TickTimer::start(TICK_US));
    let Ok(mut flock) = Flock::new(revision, NUM_BIRDS, seed) else {
        panic!("48 birds always fit");
    };
    let hello = Hello::new(
        revision.protocol_number(),
        seed,
        NUM_BIRDS as u8,
        TICK_US,
        NAME,
    );
    let mut frame = [0u8; MAX_FRAME];
    // A delimiter first: a receiver listening since before the reset takes the first HELLO.
    uart.send(&[0]);
    send_hello(&hello, &mut uart, &mut frame);
    send_flock(&flock, &config, &mut uart, &mut frame);
    loop {
        if let Some(timer) = timer.as_mut() {
            timer.wait();
        }
        bird_tick(&mut flock);
        if flock.tick_count() % HELLO_EVERY == 0 {
            send_hello(&hello, &mut uart, &mut frame);
        }
        send_flock(&flock, &config, &mut uart, &mut frame);
    }
}
