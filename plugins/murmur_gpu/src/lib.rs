#![doc = include_str!("../README.md")]

pub mod context;
pub mod flock;
pub mod scan;
pub mod uniform;
pub mod uniform3d;

pub use context::{GpuContext, GpuError};
pub use flock::GpuFlock;
pub use scan::PrefixSum;

/// Threads per workgroup in every kernel (one bird, cell or scanned entry each).
pub const WORKGROUP: u32 = 256;

/// Workgroups for `items` threads of [`WORKGROUP`], folded into two dimensions beyond the
/// 65,535 a dispatch may have along one (the kernels rebuild the flat index).
pub(crate) fn workgroups(items: u32) -> (u32, u32) {
    let groups = items.div_ceil(WORKGROUP).max(1);
    const MAX: u32 = 65_535;
    if groups <= MAX {
        (groups, 1)
    } else {
        (MAX, groups.div_ceil(MAX))
    }
}

/// The wgpu this crate is built with (the one Bevy renders with).
pub use wgpu;

#[cfg(test)]
mod tests {
    /// Parses and validates a WGSL source as wgpu would, without a GPU.
    fn validate(name: &str, source: &str) {
        let module = naga::front::wgsl::parse_str(source)
            .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::default(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    }

    #[test]
    fn the_kernels_compile_without_a_gpu() {
        validate("flock.wgsl", include_str!("shaders/flock.wgsl"));
        validate("flock3d.wgsl", include_str!("shaders/flock3d.wgsl"));
        validate("scan.wgsl", include_str!("shaders/scan.wgsl"));
    }

    #[test]
    fn a_broken_kernel_is_caught() {
        // Negative control: the check above does look at the source.
        let broken =
            include_str!("shaders/scan.wgsl").replace("sums[block] =", "sums[block] = 1.5 +");
        let result = std::panic::catch_unwind(|| validate("broken", &broken));
        assert!(result.is_err());
    }
}
