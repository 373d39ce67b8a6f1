//! [`GpuFlock`]: a flock whose state lives in GPU buffers, stepped by the kernels of
//! `shaders/flock.wgsl` (2D) or `shaders/flock3d.wgsl` (3D) and [`PrefixSum`], read back only
//! when asked.

use crate::context::{GpuContext, GpuError};
use crate::scan::PrefixSum;
use crate::uniform::{FlockUniform, check};
use crate::uniform3d::FlockUniform3d;
use crate::workgroups;
use glam::{Vec2, Vec3};
use murmur_core::grid::GridLayout;
use murmur_core::params::FlockParams;
use murmur_core::sim::LeaderState;
use murmur_core::solids::Solid;
use murmur_core::space::Vector;
use wgpu::util::DeviceExt;

const SHADER: &str = include_str!("shaders/flock.wgsl");
const SHADER_3D: &str = include_str!("shaders/flock3d.wgsl");

/// Bytes of one bird's state in 2D: position and velocity, four f32s.
pub const BIRD_BYTES: u64 = 16;

/// Bytes of one bird's state in 3D: position then velocity, each as four f32s, so that each
/// starts on a 16-byte boundary as WGSL's `vec4<f32>` wants (the fourth floats carry the last
/// tick's turning, for drawing: see [`GpuFlock::birds_buffer`]).
pub const BIRD_BYTES_3D: u64 = 32;

/// Floats of one bird's state in space `V` (4 in 2D, 8 in 3D).
fn bird_floats<V: Vector>() -> usize {
    if V::DIM == 2 { 4 } else { 8 }
}

/// The uniform block of either space.
#[derive(Clone, Debug)]
enum Block {
    Flat(Box<FlockUniform>),
    Deep(Box<FlockUniform3d>),
}

impl Block {
    fn new<V: Vector>(
        params: &FlockParams,
        n: usize,
        leaders: &[LeaderState<V>],
        player: Option<u32>,
        solids: &[Solid],
    ) -> Result<Self, GpuError> {
        let radius = params.model.interaction_radius();
        Ok(if V::DIM == 2 {
            let layout = GridLayout::<Vec2>::new(&params.bounds(), radius, n);
            let leaders: Vec<LeaderState> = leaders
                .iter()
                .map(|l| LeaderState {
                    pos: l.pos.to_vec2(),
                    params: l.params,
                })
                .collect();
            Self::Flat(Box::new(FlockUniform::new(
                params, &layout, n, &leaders, player,
            )?))
        } else {
            let layout = GridLayout::<Vec3>::new(&params.bounds_in(), radius, n);
            let leaders: Vec<LeaderState<Vec3>> = leaders
                .iter()
                .map(|l| LeaderState {
                    pos: l.pos.to_vec3(),
                    params: l.params,
                })
                .collect();
            Self::Deep(Box::new(FlockUniform3d::new(
                params, &layout, n, &leaders, player, solids,
            )?))
        })
    }

    fn cells(&self) -> u32 {
        match self {
            Self::Flat(b) => b.cells,
            Self::Deep(b) => b.cells,
        }
    }

    fn set_player(&mut self, player: u32) {
        match self {
            Self::Flat(b) => b.player = player,
            Self::Deep(b) => b.player = player,
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Self::Flat(b) => bytemuck::bytes_of(b.as_ref()),
            Self::Deep(b) => bytemuck::bytes_of(b.as_ref()),
        }
    }
}

/// The kernels of one tick, in the order they run.
#[derive(Debug)]
struct Kernels {
    clear_counts: wgpu::ComputePipeline,
    count_birds: wgpu::ComputePipeline,
    copy_counts: wgpu::ComputePipeline,
    scatter_ids: wgpu::ComputePipeline,
    order_cells: wgpu::ComputePipeline,
    steer: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
}

/// The buffers that depend on the grid's cell count.
#[derive(Debug)]
struct Cells {
    cells: u32,
    count: wgpu::Buffer,
    start: wgpu::Buffer,
    scan: PrefixSum,
}

/// A flock on the GPU, in space `V`: `Vec2` (the default) or `Vec3` (y up, with solids).
///
/// Each tick runs, in one compute pass: clear the per-cell counts; count the birds per cell
/// with atomics; copy the counts and scan them ([`PrefixSum`]) into each cell's first place;
/// scatter the bird ids into cell order; order each cell by bird id, copying each bird's state
/// into a cell-ordered buffer; then steer and integrate every bird from that buffer back into
/// the state buffer (by id), over the 3x3 cells around it (in 3D, over nine runs of cells
/// along x, as murmur_core's 3D grid visits them).
///
/// **Deterministic.** The atomics hand out places within a cell in a different order each run.
/// Each bird's place is instead its rank by id within its cell (what the CPU grid's stable
/// counting sort gives), so the cell-ordered buffer, every neighbour sum (added in that order)
/// and so the whole state are the same, run after run, on a given GPU and driver. The cost: the
/// ranking pass reads all of a cell's ids for each of its birds, k² reads for a cell of k birds
/// (for a flock of 1M birds at 10 per cell, 10 per bird; a flock packed into one cell would
/// pay n²).
#[derive(Debug)]
pub struct GpuFlock<V: Vector = Vec2> {
    device: wgpu::Device,
    queue: wgpu::Queue,
    params: FlockParams,
    layout: GridLayout<V>,
    block: Block,
    n: u32,
    kernels: Kernels,
    uniform: wgpu::Buffer,
    birds: wgpu::Buffer,
    sorted: wgpu::Buffer,
    sorted_ids: wgpu::Buffer,
    scattered_ids: wgpu::Buffer,
    place: wgpu::Buffer,
    neighbours: wgpu::Buffer,
    cells: Cells,
    bind_group: wgpu::BindGroup,
    leaders: Vec<LeaderState<V>>,
    solids: Vec<Solid>,
    player: Option<u32>,
    tick: u64,
}

/// Fails unless the world of `params` is of space `V` (a depth for a 3D flock, none for 2D).
fn check_space<V: Vector>(params: &FlockParams) -> Result<(), GpuError> {
    let world = if params.is_3d() { "3D" } else { "2D" };
    if world != V::NAME {
        return Err(GpuError::Space {
            world,
            flock: V::NAME,
        });
    }
    Ok(())
}

impl<V: Vector> GpuFlock<V> {
    /// A flock of the birds at `pos` moving at `vel` (by bird id), under `params` (whose world
    /// has a depth for a 3D flock, none for a 2D one).
    pub fn new(
        gpu: &GpuContext,
        params: FlockParams,
        pos: &[V],
        vel: &[V],
    ) -> Result<Self, GpuError> {
        assert_eq!(pos.len(), vel.len(), "one velocity per position");
        check(&params)?;
        check_space::<V>(&params)?;
        let device = gpu.device.clone();
        let n = pos.len();
        let bird_bytes = Self::bird_bytes();
        let most = (device.limits().max_storage_buffer_binding_size / bird_bytes) as usize;
        if n > most || n >= u32::MAX as usize {
            return Err(GpuError::TooManyBirds { birds: n, most });
        }
        let layout = GridLayout::new(&params.bounds_in(), params.model.interaction_radius(), n);
        let block = Block::new::<V>(&params, n, &[], None, &[])?;
        let kernels = Kernels::new(&device, V::DIM);
        let storage = |label, bytes: u64, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                // A binding cannot be empty: an empty flock keeps one unused entry.
                size: bytes.max(16),
                usage: wgpu::BufferUsages::STORAGE | usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as U;
        let state: Vec<f32> = pos
            .iter()
            .zip(vel)
            .flat_map(|(&p, &v)| {
                let floats = Self::bird_floats_of(p, v);
                floats.into_iter().take(bird_floats::<V>())
            })
            .collect();
        let birds = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("murmur_gpu birds"),
            contents: if state.is_empty() {
                &[0; 32]
            } else {
                bytemuck::cast_slice(&state)
            },
            usage: U::STORAGE | U::COPY_DST | U::COPY_SRC,
        });
        let bytes = n as u64;
        let sorted = storage("murmur_gpu sorted", bytes * bird_bytes, U::COPY_SRC);
        let sorted_ids = storage("murmur_gpu sorted ids", bytes * 4, U::COPY_SRC);
        let scattered_ids = storage("murmur_gpu scattered ids", bytes * 4, U::empty());
        let place = storage("murmur_gpu place", bytes * 8, U::empty());
        let neighbours = storage("murmur_gpu neighbours", bytes * 4, U::COPY_SRC);
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("murmur_gpu params"),
            contents: block.bytes(),
            usage: U::UNIFORM | U::COPY_DST,
        });
        let cells = Cells::new(&device, block.cells());
        let bind_group = bind(
            &device,
            &kernels.layout,
            [
                &uniform,
                &birds,
                &sorted,
                &sorted_ids,
                &scattered_ids,
                &place,
                &cells.count,
                &cells.start,
                &neighbours,
            ],
        );
        Ok(Self {
            device,
            queue: gpu.queue.clone(),
            params,
            layout,
            block,
            n: n as u32,
            kernels,
            uniform,
            birds,
            sorted,
            sorted_ids,
            scattered_ids,
            place,
            neighbours,
            cells,
            bind_group,
            leaders: Vec::new(),
            solids: Vec::new(),
            player: None,
            tick: 0,
        })
    }

    /// Bytes of one bird's state: [`BIRD_BYTES`] in 2D, [`BIRD_BYTES_3D`] in 3D.
    pub fn bird_bytes() -> u64 {
        if V::DIM == 2 {
            BIRD_BYTES
        } else {
            BIRD_BYTES_3D
        }
    }

    /// One bird's state as the buffer holds it: the first [`bird_floats`] of the eight.
    fn bird_floats_of(p: V, v: V) -> [f32; 8] {
        let (p, v) = (p.to_axes(), v.to_axes());
        if V::DIM == 2 {
            [p[0], p[1], v[0], v[1], 0.0, 0.0, 0.0, 0.0]
        } else {
            [p[0], p[1], p[2], 0.0, v[0], v[1], v[2], 0.0]
        }
    }

    /// Number of birds.
    pub fn len(&self) -> usize {
        self.n as usize
    }

    /// True when the flock has no birds.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Ticks taken so far.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// How the flock behaves.
    pub fn params(&self) -> &FlockParams {
        &self.params
    }

    /// The grid the birds are sorted into.
    pub fn grid_layout(&self) -> &GridLayout<V> {
        &self.layout
    }

    /// The state buffer: by bird id, position then velocity (for drawing from it): in 2D four
    /// f32s (x, y, vx, vy), in 3D eight (x, y, z, r, vx, vy, vz, u), where r and u are the last
    /// tick's acceleration along the right and up of the bird's heading (`bank_axes` in
    /// `shaders/flock3d.wgsl`), for drawing it banked into its turns.
    pub fn birds_buffer(&self) -> &wgpu::Buffer {
        &self.birds
    }

    /// Neighbours each bird saw in its last tick, by bird id, one u32 each.
    pub fn neighbours_buffer(&self) -> &wgpu::Buffer {
        &self.neighbours
    }

    /// New parameters, taking effect from the next tick (the grid follows a new radius).
    pub fn set_params(&mut self, params: FlockParams) -> Result<(), GpuError> {
        check(&params)?;
        check_space::<V>(&params)?;
        let layout = GridLayout::new(
            &params.bounds_in(),
            params.model.interaction_radius(),
            self.len(),
        );
        self.block = Block::new(
            &params,
            self.len(),
            &self.leaders,
            self.player,
            &self.solids,
        )?;
        if layout.cell_count() as u32 != self.cells.cells {
            self.cells = Cells::new(&self.device, self.block.cells());
            self.bind_group = bind(
                &self.device,
                &self.kernels.layout,
                [
                    &self.uniform,
                    &self.birds,
                    &self.sorted,
                    &self.sorted_ids,
                    &self.scattered_ids,
                    &self.place,
                    &self.cells.count,
                    &self.cells.start,
                    &self.neighbours,
                ],
            );
        }
        self.params = params;
        self.layout = layout;
        self.upload_params();
        Ok(())
    }

    /// The leaders the flock reacts to from the next tick (the first eight).
    pub fn set_leaders(&mut self, leaders: &[LeaderState<V>]) {
        self.leaders = leaders.to_vec();
        self.rebuild_block();
    }

    /// The solids a 3D flock flies round from the next tick (at most
    /// [`crate::uniform3d::MAX_SOLIDS`]); a flat flock has none (as on the CPU, they are
    /// ignored).
    pub fn set_solids(&mut self, solids: &[Solid]) -> Result<(), GpuError> {
        if V::DIM == 2 || solids == self.solids.as_slice() {
            return Ok(());
        }
        if let Block::Deep(block) = &mut self.block {
            block.set_solids(solids)?;
        }
        self.solids = solids.to_vec();
        self.upload_params();
        Ok(())
    }

    /// The block for the current parameters, leaders, player and solids (all checked before).
    fn rebuild_block(&mut self) {
        self.block = Block::new(
            &self.params,
            self.len(),
            &self.leaders,
            self.player,
            &self.solids,
        )
        .expect("parameters and solids checked when they were set");
        self.upload_params();
    }

    /// Makes bird `id` the player's: the flock sees it as one of its own, but the kernels leave
    /// its state alone; [`GpuFlock::put_bird`] moves it. `None`: no player.
    pub fn set_player(&mut self, id: Option<u32>) {
        self.player = id.filter(|&id| id < self.n);
        self.block
            .set_player(self.player.unwrap_or(crate::uniform::NO_PLAYER));
        self.upload_params();
    }

    /// Writes one bird's state (the player's, each tick).
    pub fn put_bird(&self, id: u32, pos: V, vel: V) {
        if id < self.n {
            self.queue.write_buffer(
                &self.birds,
                u64::from(id) * Self::bird_bytes(),
                bytemuck::cast_slice(&Self::bird_floats_of(pos, vel)[..bird_floats::<V>()]),
            );
        }
    }

    fn upload_params(&self) {
        self.queue
            .write_buffer(&self.uniform, 0, self.block.bytes());
    }

    /// Records `ticks` ticks into `encoder` (one compute pass) without submitting them, for
    /// callers that own the frame's encoder (a renderer). Counts them as taken.
    pub fn encode_ticks(&mut self, encoder: &mut wgpu::CommandEncoder, ticks: u32) {
        if ticks == 0 || self.n == 0 {
            self.tick += u64::from(ticks);
            return;
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("murmur_gpu tick"),
            timestamp_writes: None,
        });
        for _ in 0..ticks {
            self.encode_grid(&mut pass);
            self.dispatch(&mut pass, &self.kernels.steer, self.n);
        }
        drop(pass);
        self.tick += u64::from(ticks);
    }

    /// Steps 1 to 4: counts, scan, scatter, cell order.
    fn encode_grid(&self, pass: &mut wgpu::ComputePass<'_>) {
        let k = &self.kernels;
        self.dispatch(pass, &k.clear_counts, self.cells.cells + 1);
        self.dispatch(pass, &k.count_birds, self.n);
        self.dispatch(pass, &k.copy_counts, self.cells.cells + 1);
        self.cells.scan.encode(pass);
        self.dispatch(pass, &k.scatter_ids, self.n);
        self.dispatch(pass, &k.order_cells, self.n);
    }

    fn dispatch(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        kernel: &wgpu::ComputePipeline,
        items: u32,
    ) {
        let (x, y) = workgroups(items);
        pass.set_pipeline(kernel);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.dispatch_workgroups(x, y, 1);
    }

    /// Advances `ticks` ticks in one submission (returns before the GPU is done).
    pub fn step_many(&mut self, ticks: u32) {
        let mut encoder = self.encoder();
        self.encode_ticks(&mut encoder, ticks);
        self.queue.submit([encoder.finish()]);
    }

    /// Advances one tick.
    pub fn step(&mut self) {
        self.step_many(1);
    }

    /// Waits until the GPU has run everything submitted.
    pub fn finish(&self) {
        let _ = self.device.poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        });
    }

    /// Sorts the birds into the grid (steps 1 to 4 of a tick) without steering them, so that
    /// [`GpuFlock::read_cell_starts`] and [`GpuFlock::read_cell_order`] show the grid of the
    /// current state.
    pub fn collect_neighbours(&mut self) {
        if self.n == 0 {
            return;
        }
        let mut encoder = self.encoder();
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("murmur_gpu grid"),
                timestamp_writes: None,
            });
            self.encode_grid(&mut pass);
        }
        self.queue.submit([encoder.finish()]);
    }

    fn encoder(&self) -> wgpu::CommandEncoder {
        self.device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("murmur_gpu"),
            })
    }

    /// Positions and velocities, by bird id (a copy back from the GPU; waits for it).
    pub fn read_state(&self) -> (Vec<V>, Vec<V>) {
        let stride = bird_floats::<V>();
        let raw: Vec<f32> = self.read(&self.birds, self.len() * stride);
        raw.chunks_exact(stride)
            .map(|b| {
                if V::DIM == 2 {
                    (
                        V::from_axes([b[0], b[1], 0.0]),
                        V::from_axes([b[2], b[3], 0.0]),
                    )
                } else {
                    (
                        V::from_axes([b[0], b[1], b[2]]),
                        V::from_axes([b[4], b[5], b[6]]),
                    )
                }
            })
            .unzip()
    }

    /// Neighbours each bird saw in its last tick, by bird id.
    pub fn read_neighbours(&self) -> Vec<u32> {
        self.read(&self.neighbours, self.len())
    }

    /// Each cell's first place in cell order, and the bird count at the end (cells + 1
    /// entries): cell c holds places `starts[c]..starts[c + 1]`.
    pub fn read_cell_starts(&self) -> Vec<u32> {
        self.read(&self.cells.start, self.cells.cells as usize + 1)
    }

    /// The bird id at each place in cell order.
    pub fn read_cell_order(&self) -> Vec<u32> {
        self.read(&self.sorted_ids, self.len())
    }

    /// A fingerprint of the state, as [`murmur_core::hash::state_hash`] takes it.
    pub fn state_hash(&self) -> u64 {
        let (pos, vel) = self.read_state();
        murmur_core::hash::state_hash(&pos, &vel)
    }

    fn read<T: bytemuck::Pod>(&self, buffer: &wgpu::Buffer, count: usize) -> Vec<T> {
        read_buffer(&self.device, &self.queue, buffer, count)
    }
}

/// Copies the first `count` values of `buffer` (which needs `COPY_SRC`) back to the CPU.
pub fn read_buffer<T: bytemuck::Pod>(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    count: usize,
) -> Vec<T> {
    let bytes = (count * std::mem::size_of::<T>()) as u64;
    if bytes == 0 {
        return Vec::new();
    }
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("murmur_gpu readback"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("murmur_gpu readback"),
    });
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, bytes);
    queue.submit([encoder.finish()]);
    let slice = staging.slice(..);
    slice.map_async(wgpu::MapMode::Read, |result| {
        result.expect("mapping the readback buffer");
    });
    let _ = device.poll(wgpu::PollType::Wait {
        submission_index: None,
        timeout: None,
    });
    let out = bytemuck::cast_slice(&slice.get_mapped_range()).to_vec();
    staging.unmap();
    out
}

impl Kernels {
    /// The kernels of a flock of `dim` dimensions.
    fn new(device: &wgpu::Device, dim: usize) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("murmur_gpu flock"),
            source: wgpu::ShaderSource::Wgsl(if dim == 2 { SHADER } else { SHADER_3D }.into()),
        });
        let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let rw = wgpu::BufferBindingType::Storage { read_only: false };
        let mut entries = vec![entry(0, wgpu::BufferBindingType::Uniform)];
        entries.extend((1..9).map(|b| entry(b, rw)));
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("murmur_gpu flock"),
            entries: &entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("murmur_gpu flock"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |name: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(name),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(name),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        Self {
            clear_counts: pipeline("clear_counts"),
            count_birds: pipeline("count_birds"),
            copy_counts: pipeline("copy_counts"),
            scatter_ids: pipeline("scatter_ids"),
            order_cells: pipeline("order_cells"),
            steer: pipeline("steer"),
            layout,
        }
    }
}

impl Cells {
    fn new(device: &wgpu::Device, cells: u32) -> Self {
        let buffer = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: u64::from(cells + 1) * 4,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            })
        };
        let (count, start) = (
            buffer("murmur_gpu cell counts"),
            buffer("murmur_gpu cell starts"),
        );
        let scan = PrefixSum::new(device, &start, cells + 1);
        Self {
            cells,
            count,
            start,
            scan,
        }
    }
}

fn bind(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    buffers: [&wgpu::Buffer; 9],
) -> wgpu::BindGroup {
    let entries: Vec<_> = buffers
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: b.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("murmur_gpu flock"),
        layout,
        entries: &entries,
    })
}
