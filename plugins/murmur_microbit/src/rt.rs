//! The start of the world on a Cortex-M0: the vector table, and the reset handler that sets up
//! RAM (copies `.data` from flash, zeroes `.bss`) and calls `main`.

unsafe extern "C" {
    static mut _sdata: u32;
    static mut _edata: u32;
    static _sidata: u32;
    static mut _sbss: u32;
    static mut _ebss: u32;
}

/// What the core jumps to on an exception or interrupt this firmware does not expect: stop.
extern "C" fn halt() -> ! {
    loop {
        core::hint::spin_loop();
    }
}

/// One vector-table entry.
#[derive(Clone, Copy)]
#[repr(C)]
pub union Vector {
    handler: unsafe extern "C" fn() -> !,
    interrupt: extern "C" fn(),
    reserved: usize,
}

/// The nRF51's 32 device interrupts.
const DEVICE_INTERRUPTS: usize = 32;

/// The reset vector, the Cortex-M0's 14 other system exceptions (the initial stack pointer
/// comes first, from memory.x) and the device interrupts: only UART0's is used.
#[unsafe(link_section = ".vectors")]
#[unsafe(no_mangle)]
#[used]
pub static VECTORS: [Vector; 15 + DEVICE_INTERRUPTS] = {
    let fault = Vector { handler: halt };
    let none = Vector { reserved: 0 };
    let mut table = [fault; 15 + DEVICE_INTERRUPTS];
    let system = [
        Vector { handler: reset },
        fault, // NMI
        fault, // HardFault
        none,
        none,
        none,
        none,
        none,
        none,
        none,
        fault, // SVCall
        none,
        none,
        fault, // PendSV
        fault, // SysTick
    ];
    let mut i = 0;
    while i < system.len() {
        table[i] = system[i];
        i += 1;
    }
    table[15 + crate::nrf51::Uart::IRQ] = Vector {
        interrupt: crate::nrf51::uart0_interrupt,
    };
    table
};

/// The reset handler: RAM set up, then `main`.
///
/// # Safety
/// Only the core calls it, once, at reset.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn reset() -> ! {
    // SAFETY: the linker script places these symbols word-aligned around .data and .bss, and
    // nothing reads a static before this loop is done.
    unsafe {
        let mut from = &raw const _sidata;
        let mut to = &raw mut _sdata;
        while to < &raw mut _edata {
            to.write_volatile(from.read_volatile());
            to = to.add(1);
            from = from.add(1);
        }
        let mut to = &raw mut _sbss;
        while to < &raw mut _ebss {
            to.write_volatile(0);
            to = to.add(1);
        }
    }
    crate::main()
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    halt()
}
