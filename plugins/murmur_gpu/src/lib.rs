#![doc = include_str!("../README.md")]

pub mod context;
pub mod flock;
pub mod scan;
pub mod uniform;

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
