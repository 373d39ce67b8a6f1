//! The GPU's prefix sum against a scan on the CPU, across block and level boundaries.

mod common;

use murmur_gpu::PrefixSum;
use wgpu::util::DeviceExt;

fn gpu_scan(gpu: &murmur_gpu::GpuContext, input: &[u32]) -> (Vec<u32>, usize) {
    let device = &gpu.device;
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("scan test"),
        contents: if input.is_empty() {
            &[0; 4]
        } else {
            bytemuck::cast_slice(input)
        },
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let scan = PrefixSum::new(device, &buffer, input.len() as u32);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        scan.encode(&mut pass);
    }
    gpu.queue.submit([encoder.finish()]);
    let out = murmur_gpu::flock::read_buffer(device, &gpu.queue, &buffer, input.len());
    (out, scan.depth())
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn the_scan_equals_a_cpu_scan_for_every_size() {
    let gpu = common::gpu();
    let mut state = 0x9e37_79b9_u32;
    for len in [0usize, 1, 255, 256, 257, 65_536, 1_000_003] {
        // Small counts, as a grid's cells hold, some zero.
        let input: Vec<u32> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                state % 7
            })
            .collect();
        let mut expected = Vec::with_capacity(len);
        let mut total = 0u32;
        for &v in &input {
            expected.push(total);
            total += v;
        }
        let (got, depth) = gpu_scan(&gpu, &input);
        let first_wrong = got.iter().zip(&expected).position(|(g, e)| g != e);
        assert_eq!(got.len(), len);
        assert_eq!(
            first_wrong, None,
            "{len} entries: first wrong at {first_wrong:?}"
        );
        // 256 per block: one level up to 256, two up to 65,536, three beyond.
        let levels = match len {
            0 => 0,
            1..=256 => 1,
            257..=65_536 => 2,
            _ => 3,
        };
        assert_eq!(depth, levels, "{len} entries");
    }
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn a_wrong_scan_is_noticed() {
    // Negative control for the comparison above: an inclusive scan is not what it asks for.
    let gpu = common::gpu();
    let input = vec![1u32; 300];
    let (got, _) = gpu_scan(&gpu, &input);
    let inclusive: Vec<u32> = (1..=300).collect();
    assert_ne!(got, inclusive);
    assert_eq!(got, (0..300).collect::<Vec<u32>>());
}
