//! The nRF51822's parts this firmware drives, by their registers (nRF51 Series Reference Manual
//! v3.0): UART0 at 115200 8N1 on the micro:bit's interface-chip pins, TIMER0 as the tick clock,
//! and the factory information's device ID.

fn write(address: usize, value: u32) {
    // SAFETY: `address` is one of the peripheral registers named below, always mapped.
    unsafe { (address as *mut u32).write_volatile(value) }
}

fn read(address: usize) -> u32 {
    // SAFETY: as in `write`.
    unsafe { (address as *const u32).read_volatile() }
}

/// UART0: transmit only (the board never listens).
pub struct Uart;

impl Uart {
    const BASE: usize = 0x4000_2000;
    const TASKS_STARTTX: usize = Self::BASE + 0x008;
    const EVENTS_TXDRDY: usize = Self::BASE + 0x11C;
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

    /// Sets UART0 up as 115200 8N1 on the interface chip's pins and starts the transmitter.
    pub fn start() -> Self {
        write(Self::PSELTXD, Self::TX_PIN);
        write(Self::PSELRXD, Self::RX_PIN);
        write(Self::BAUDRATE, Self::BAUD_115200);
        write(Self::CONFIG, 0); // no parity, no flow control
        write(Self::ENABLE, 4);
        write(Self::TASKS_STARTTX, 1);
        Self
    }

    /// Sends `bytes`, each once the previous one has gone.
    pub fn send(&mut self, bytes: &[u8]) {
        uart_send(bytes);
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

/// UART0's byte loop, out of line: where `murmur firmware --measure` tells a frame's encoding
/// from its sending.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn uart_send(bytes: &[u8]) {
    for &byte in bytes {
        write(Uart::TXD, byte as u32);
        while read(Uart::EVENTS_TXDRDY) == 0 {}
        write(Uart::EVENTS_TXDRDY, 0);
    }
}
