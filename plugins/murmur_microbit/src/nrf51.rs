//! The nRF51822's parts this firmware drives, by their registers (nRF51 Series Reference Manual
//! v3.0): UART0 at 115200 8N1 on the micro:bit's interface-chip pins, TIMER0 as the tick clock,
//! and the factory information's device ID.

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

fn write(address: usize, value: u32) {
    // SAFETY: `address` is one of the peripheral registers named below, always mapped.
    unsafe { (address as *mut u32).write_volatile(value) }
}

fn read(address: usize) -> u32 {
    // SAFETY: as in `write`.
    unsafe { (address as *const u32).read_volatile() }
}

/// UART0: transmit only (the board never listens), interrupt-driven. At 115200 baud a FLOCK
/// frame takes 26 ms on the line and the 16 MHz core needs most of a tick to compute the next
/// one: sent byte by byte from the main loop they would not fit one 31.872 ms period together.
/// So the frames go into a ring and the UART0 interrupt feeds the line from it while the core
/// computes.
pub struct Uart;

impl Uart {
    const BASE: usize = 0x4000_2000;
    const TASKS_STARTTX: usize = Self::BASE + 0x008;
    const EVENTS_TXDRDY: usize = Self::BASE + 0x11C;
    const INTENSET: usize = Self::BASE + 0x304;
    const ENABLE: usize = Self::BASE + 0x500;
    const PSELTXD: usize = Self::BASE + 0x50C;
    const PSELRXD: usize = Self::BASE + 0x514;
    const TXD: usize = Self::BASE + 0x51C;
    const BAUDRATE: usize = Self::BASE + 0x524;
    const CONFIG: usize = Self::BASE + 0x56C;
    /// 115200 baud (the manual's BAUDRATE value).
    const BAUD_115200: u32 = 0x01D7_E000;
    /// The micro:bit v1 wires P0.24 (TX) and P0.25 (RX) to its USB interface chip.
    const TX_PIN: u32 = 24;
    const RX_PIN: u32 = 25;
    /// TXDRDY's bit in INTENSET.
    const TXDRDY_INTERRUPT: u32 = 1 << 7;
    /// UART0's interrupt number on the nRF51.
    pub const IRQ: usize = 2;

    /// Sets UART0 up as 115200 8N1 on the interface chip's pins, starts the transmitter and
    /// lets its TXDRDY event interrupt the core.
    pub fn start() -> Self {
        write(Self::PSELTXD, Self::TX_PIN);
        write(Self::PSELRXD, Self::RX_PIN);
        write(Self::BAUDRATE, Self::BAUD_115200);
        write(Self::CONFIG, 0); // no parity, no flow control
        write(Self::ENABLE, 4);
        write(Self::TASKS_STARTTX, 1);
        write(Self::INTENSET, Self::TXDRDY_INTERRUPT);
        write(NVIC_ISER, 1 << Self::IRQ);
        Self
    }

    /// Queues `bytes` for the line (waiting only while the ring is full).
    pub fn send(&mut self, bytes: &[u8]) {
        uart_send(bytes);
    }
}

/// The NVIC's interrupt set-enable register.
const NVIC_ISER: usize = 0xE000_E100;

/// The bytes waiting for the line: one producer (the main loop), one consumer (the interrupt).
/// The Cortex-M0 has atomic loads and stores but no read-modify-write, which is all a
/// single-producer ring needs.
struct Ring {
    bytes: UnsafeCell<[u8; RING]>,
    /// Next byte to write (only the main loop stores it).
    head: AtomicUsize,
    /// Next byte to send (only the interrupt stores it, or the main loop with interrupts off).
    tail: AtomicUsize,
    /// A byte is on the line: its TXDRDY interrupt will send the next one.
    sending: AtomicBool,
}

/// Room for three frames (a HELLO and a FLOCK are 330 bytes, and at most one tick's frames
/// are still going out when the next are queued).
const RING: usize = 1024;

// SAFETY: a slot is written by the producer only while it is outside [tail, head) and read by
// the consumer only inside it; the indices are atomics.
unsafe impl Sync for Ring {}

static TX: Ring = Ring {
    bytes: UnsafeCell::new([0; RING]),
    head: AtomicUsize::new(0),
    tail: AtomicUsize::new(0),
    sending: AtomicBool::new(false),
};

/// Runs `f` with interrupts masked (PRIMASK), so the UART interrupt cannot run in between.
fn without_interrupts<R>(f: impl FnOnce() -> R) -> R {
    // SAFETY: cpsid/cpsie only mask and unmask interrupts; nothing here runs before the
    // interrupt is enabled, so unmasking afterwards restores the state it found.
    unsafe { core::arch::asm!("cpsid i", options(nomem, nostack, preserves_flags)) };
    let r = f();
    unsafe { core::arch::asm!("cpsie i", options(nomem, nostack, preserves_flags)) };
    r
}

/// Puts the next queued byte on the line, or marks the line idle. The caller is the interrupt,
/// or the main loop with interrupts masked.
fn send_next() {
    let tail = TX.tail.load(Ordering::Acquire);
    if tail == TX.head.load(Ordering::Acquire) {
        TX.sending.store(false, Ordering::Release);
        return;
    }
    // SAFETY: `tail` is inside [tail, head): the producer does not touch it.
    let byte = unsafe { (*TX.bytes.get())[tail % RING] };
    TX.tail.store(tail.wrapping_add(1), Ordering::Release);
    TX.sending.store(true, Ordering::Release);
    write(Uart::TXD, byte as u32);
}

/// UART0's interrupt: the last byte has gone; send the next.
pub extern "C" fn uart0_interrupt() {
    write(Uart::EVENTS_TXDRDY, 0);
    send_next();
}

/// Queues bytes for the line, out of line: where `murmur firmware --measure` tells a frame's
/// encoding from its sending.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn uart_send(bytes: &[u8]) {
    for &byte in bytes {
        let head = TX.head.load(Ordering::Relaxed);
        while head.wrapping_sub(TX.tail.load(Ordering::Acquire)) >= RING {
            core::hint::spin_loop(); // full: the line is behind
        }
        // SAFETY: `head` is outside [tail, head): the interrupt does not read it yet.
        unsafe { (*TX.bytes.get())[head % RING] = byte };
        TX.head.store(head.wrapping_add(1), Ordering::Release);
        if !TX.sending.load(Ordering::Acquire) {
            without_interrupts(|| {
                if !TX.sending.load(Ordering::Acquire) {
                    send_next();
                }
            });
        }
    }
}

/// TIMER0 as a 1 MHz clock whose compare event comes once a tick period.
pub struct TickTimer;

impl TickTimer {
    const BASE: usize = 0x4000_8000;
    const TASKS_START: usize = Self::BASE; // offset 0x000
    const TASKS_CLEAR: usize = Self::BASE + 0x00C;
    const EVENTS_COMPARE0: usize = Self::BASE + 0x140;
    const SHORTS: usize = Self::BASE + 0x200;
    const MODE: usize = Self::BASE + 0x504;
    const BITMODE: usize = Self::BASE + 0x508;
    const PRESCALER: usize = Self::BASE + 0x510;
    const CC0: usize = Self::BASE + 0x540;

    /// Starts the timer with a compare event every `period_us` microseconds (16 MHz / 2^4).
    pub fn start(period_us: u32) -> Self {
        write(Self::MODE, 0); // timer
        write(Self::BITMODE, 3); // 32 bits
        write(Self::PRESCALER, 4); // 1 MHz
        write(Self::CC0, period_us);
        write(Self::SHORTS, 1); // COMPARE[0] clears the count: a steady period
        write(Self::TASKS_CLEAR, 1);
        write(Self::TASKS_START, 1);
        Self
    }

    /// Waits for the next period's end.
    pub fn wait(&mut self) {
        while read(Self::EVENTS_COMPARE0) == 0 {}
        write(Self::EVENTS_COMPARE0, 0);
    }
}

/// The chip's 64-bit device ID (FICR DEVICEID[0], DEVICEID[1]): unique per chip, where the
/// STM32 the article was written for has its 96-bit unique ID.
pub fn device_id() -> [u32; 2] {
    [read(0x1000_0060), read(0x1000_0064)]
}
