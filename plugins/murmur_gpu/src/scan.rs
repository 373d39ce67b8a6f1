//! [`PrefixSum`]: the exclusive scan of a u32 buffer in place, for any length, in levels of
//! 256-entry workgroup scans (`shaders/scan.wgsl`).

use crate::{WORKGROUP, workgroups};
use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

const SHADER: &str = include_str!("shaders/scan.wgsl");

/// The scan's per-level uniform (WGSL `Scan`).
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct ScanUniform {
    len: u32,
    _pad: [u32; 3],
}

/// One level: scan `len` entries of its data in blocks, each block's total into `sums`, which
/// the next level scans.
#[derive(Debug)]
struct Level {
    len: u32,
    bind_group: wgpu::BindGroup,
    _uniform: wgpu::Buffer,
    _sums: wgpu::Buffer,
}

/// An exclusive prefix sum over the first `len` u32s of a storage buffer, in place: entry i
/// becomes the sum of the entries before it. Workgroups scan blocks of 256; the blocks' totals
/// are scanned by the next level (as many levels as it takes to reach one block), then added
/// back to each block.
#[derive(Debug)]
pub struct PrefixSum {
    scan_blocks: wgpu::ComputePipeline,
    add_back: wgpu::ComputePipeline,
    levels: Vec<Level>,
}

impl PrefixSum {
    /// The scan of `data[..len]` (`data` needs `STORAGE` usage and room for `len` u32s).
    pub fn new(device: &wgpu::Device, data: &wgpu::Buffer, len: u32) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("murmur_gpu scan"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let storage = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("murmur_gpu scan"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                storage(1),
                storage(2),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("murmur_gpu scan"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let (scan_blocks, add_back) = (pipeline("scan_blocks"), pipeline("add_back"));

        // Levels until one block holds what is left.
        let mut levels = Vec::new();
        let mut level_data = data.clone();
        let mut level_len = len;
        while level_len > 0 {
            let (x, y) = workgroups(level_len);
            let sums = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("murmur_gpu scan sums"),
                size: u64::from(x * y) * 4,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            });
            let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("murmur_gpu scan level"),
                contents: bytemuck::bytes_of(&ScanUniform {
                    len: level_len,
                    _pad: [0; 3],
                }),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("murmur_gpu scan level"),
                layout: &layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: uniform.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: level_data.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: sums.as_entire_binding(),
                    },
                ],
            });
            let blocks = level_len.div_ceil(WORKGROUP);
            levels.push(Level {
                len: level_len,
                bind_group,
                _uniform: uniform,
                _sums: sums.clone(),
            });
            if blocks <= 1 {
                break;
            }
            level_data = sums;
            level_len = blocks;
        }
        Self {
            scan_blocks,
            add_back,
            levels,
        }
    }

    /// Levels the scan runs (0 for an empty buffer, 1 up to 256 entries, 2 up to 65,536, ...).
    pub fn depth(&self) -> usize {
        self.levels.len()
    }

    /// Records the scan into a compute pass: each level's block scans, deepest last, then the
    /// totals added back, deepest first.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        pass.set_pipeline(&self.scan_blocks);
        for level in &self.levels {
            let (x, y) = workgroups(level.len);
            pass.set_bind_group(0, &level.bind_group, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
        pass.set_pipeline(&self.add_back);
        // The deepest level is a single block: nothing to add back to it.
        for level in self.levels.iter().rev().skip(1) {
            let (x, y) = workgroups(level.len);
            pass.set_bind_group(0, &level.bind_group, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
    }
}
