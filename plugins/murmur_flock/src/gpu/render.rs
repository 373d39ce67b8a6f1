//! The render world's side of the GPU flock: the compute ticks in the `RenderGraph` schedule
//! before the cameras draw, and the birds queued in each 2D view as one instanced draw (nine
//! vertices, one instance a bird) reading the simulation's own buffers.

use super::{GpuFlockFrame, GpuFlockStatus, MAX_TICKS_PER_FRAME};
use crate::draw::{BirdDrawing, FlockLook};
use bevy_app::App;
use bevy_asset::{Assets, Handle};
use bevy_camera::visibility::RenderLayers;
use bevy_color::{ColorToComponents, LinearRgba};
use bevy_core_pipeline::core_2d::{CORE_2D_DEPTH_FORMAT, Transparent2d};
use bevy_core_pipeline::schedule::camera_driver;
use bevy_ecs::prelude::*;
use bevy_ecs::query::ROQueryItem;
use bevy_ecs::system::SystemParamItem;
use bevy_ecs::system::lifetimeless::SRes;
use bevy_log::warn;
use bevy_math::{FloatOrd, Vec2, Vec3};
use bevy_render::render_phase::{
    AddRenderCommand, DrawFunctions, PhaseItem, PhaseItemExtraIndex, RenderCommand,
    RenderCommandResult, SetItemPipeline, TrackedRenderPass, ViewSortedRenderPhases,
};
use bevy_render::render_resource::binding_types::{
    storage_buffer_read_only_sized, uniform_buffer_sized,
};
use bevy_render::render_resource::{
    BindGroup, BindGroupEntries, BindGroupLayoutDescriptor, BindGroupLayoutEntries, BlendState,
    ColorTargetState, ColorWrites, CompareFunction, DepthStencilState, FragmentState,
    MultisampleState, PipelineCache, PrimitiveState, RenderPipelineDescriptor, ShaderStages,
    SpecializedRenderPipeline, SpecializedRenderPipelines, VertexState,
};
use bevy_render::renderer::{
    RenderAdapter, RenderAdapterInfo, RenderContext, RenderDevice, RenderGraph, RenderQueue,
};
use bevy_render::sync_world::MainEntity;
use bevy_render::view::{ExtractedView, Msaa};
use bevy_render::{Extract, ExtractSchedule, Render, RenderApp, RenderStartup, RenderSystems};
use bevy_shader::Shader;
use bevy_sprite_render::{
    Mesh2dPipeline, Mesh2dPipelineKey, SetMesh2dViewBindGroup, init_mesh_2d_pipeline,
};
use bytemuck::{Pod, Zeroable};
use murmur_core::params::FlockParams;
use murmur_core::sim::{LeaderState, initial_boids};
use murmur_core::space::Vector;
use murmur_gpu::{GpuContext, GpuError, GpuFlock};

/// The GPU flock of either space.
pub(super) enum AnyGpuFlock {
    /// A flat flock.
    Flat(GpuFlock<Vec2>),
    /// A 3D flock.
    Deep(GpuFlock<Vec3>),
}

impl AnyGpuFlock {
    /// The flock for `params` (3D when its world has a depth), its own birds from `seed` and
    /// the player's last.
    fn new(
        gpu: &GpuContext,
        params: &FlockParams,
        own: usize,
        seed: u64,
        player: Option<(Vec3, Vec3)>,
    ) -> Result<Self, GpuError> {
        fn make<V: Vector>(
            gpu: &GpuContext,
            params: &FlockParams,
            own: usize,
            seed: u64,
            player: Option<(Vec3, Vec3)>,
        ) -> Result<GpuFlock<V>, GpuError> {
            let (mut pos, mut vel) = initial_boids::<V>(params, own, seed);
            if let Some((p, v)) = player {
                pos.push(V::from_vec3(p));
                vel.push(V::from_vec3(v));
            }
            let mut flock = GpuFlock::new(gpu, params.clone(), &pos, &vel)?;
            flock.set_player(player.map(|_| own as u32));
            Ok(flock)
        }
        Ok(if params.is_3d() {
            Self::Deep(make(gpu, params, own, seed, player)?)
        } else {
            Self::Flat(make(gpu, params, own, seed, player)?)
        })
    }

    /// Birds, the player's included.
    pub(super) fn len(&self) -> usize {
        match self {
            Self::Flat(f) => f.len(),
            Self::Deep(f) => f.len(),
        }
    }

    fn set_params(&mut self, params: FlockParams) -> Result<(), GpuError> {
        match self {
            Self::Flat(f) => f.set_params(params),
            Self::Deep(f) => f.set_params(params),
        }
    }

    /// The leaders and, in 3D, the solids; the player's state.
    fn set_scene(
        &mut self,
        leaders: &[LeaderState<Vec3>],
        solids: &[murmur_core::solids::Solid],
        player: Option<(Vec3, Vec3)>,
    ) {
        fn apply<V: Vector>(
            flock: &mut GpuFlock<V>,
            leaders: &[LeaderState<Vec3>],
            player: Option<(Vec3, Vec3)>,
        ) {
            let leaders: Vec<LeaderState<V>> = leaders
                .iter()
                .map(|l| LeaderState {
                    pos: V::from_vec3(l.pos),
                    params: l.params,
                })
                .collect();
            flock.set_leaders(&leaders);
            if let Some((p, v)) = player {
                flock.put_bird(flock.len() as u32 - 1, V::from_vec3(p), V::from_vec3(v));
            }
        }
        match self {
            Self::Flat(f) => apply(f, leaders, player),
            Self::Deep(f) => {
                if let Err(e) = f.set_solids(solids) {
                    warn!("the GPU flock flies without its solids: {e}");
                    let _ = f.set_solids(&[]);
                }
                apply(f, leaders, player);
            }
        }
    }

    fn encode_ticks(&mut self, encoder: &mut murmur_gpu::wgpu::CommandEncoder, ticks: u32) {
        match self {
            Self::Flat(f) => f.encode_ticks(encoder, ticks),
            Self::Deep(f) => f.encode_ticks(encoder, ticks),
        }
    }
}

/// How the birds look this frame, as the main world knows it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LookInputs {
    uniform: LookUniform,
}

impl LookInputs {
    /// The look of a flock under `params` with `look`, drawn as `drawing` says, at `frame`,
    /// `fraction` of the way from its last tick to its next.
    pub(crate) fn new(
        params: &FlockParams,
        look: FlockLook,
        drawing: BirdDrawing,
        frame: u32,
        fraction: f32,
    ) -> Self {
        let linear = |c: bevy_color::Color| LinearRgba::from(c).to_f32_array();
        let size = if look.size > 0.0 {
            look.size
        } else {
            (0.6 * params.model.near_radius()).max(3.0)
        };
        let bounds = params.bounds();
        let around = drawing.around.filter(|_| bounds.wrapped);
        Self {
            uniform: LookUniform {
                small: linear(look.small_flock),
                large: linear(look.large_flock),
                plain: linear(look.plain),
                world_min: bounds.min.to_array(),
                world_size: bounds.size.to_array(),
                around: around.unwrap_or(Vec2::ZERO).to_array(),
                size,
                large_at: look.large_flock_size.max(f32::MIN_POSITIVE),
                frame: frame as f32,
                wrapped: around.is_some() as u32,
                flapping: drawing.flapping as u32,
                by_size: drawing.colour_by_flock_size as u32,
                skip: u32::MAX,
                fraction: if drawing.interpolate { fraction } else { 1.0 },
                _pad: [0; 2],
            },
        }
    }
}

/// WGSL `Look` in `birds.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
struct LookUniform {
    small: [f32; 4],
    large: [f32; 4],
    plain: [f32; 4],
    world_min: [f32; 2],
    world_size: [f32; 2],
    around: [f32; 2],
    size: f32,
    large_at: f32,
    frame: f32,
    wrapped: u32,
    flapping: u32,
    by_size: u32,
    skip: u32,
    fraction: f32,
    _pad: [u32; 2],
}

/// The shader, added to the main world's shaders when the plugin is built.
#[derive(Resource, Clone)]
struct BirdsShader(Handle<Shader>);

/// The render layer the birds are drawn on.
#[derive(Resource, Clone)]
struct BirdsLayer(RenderLayers);

/// The GPU flock in the render world.
#[derive(Resource, Default)]
pub(super) struct GpuFlockState {
    pub(super) flock: Option<AnyGpuFlock>,
    /// The flock's entity, birds and seed the state was made for.
    made_for: Option<(Entity, usize, u64)>,
    params: Option<FlockParams>,
    /// The main world's fixed ticks run so far.
    ticks_done: u64,
    /// Ticks to run this frame.
    pending: u32,
    look: LookUniform,
    look_buffer: Option<murmur_gpu::wgpu::Buffer>,
    bind_group: Option<BindGroup>,
    /// A 3D flock's instances for the 3D birds' shader, and what writes them.
    #[cfg(feature = "draw3d")]
    pub(super) instances: Option<super::render3d::Instances>,
    #[cfg(feature = "draw3d")]
    look3d: super::render3d::Look3d,
}

/// Registers the shader and the render world's systems (when there is a renderer).
pub(super) fn build(app: &mut App, layer: usize) {
    let Some(mut shaders) = app.world_mut().get_resource_mut::<Assets<Shader>>() else {
        return;
    };
    let shader = shaders.add(Shader::from_wgsl(include_str!("birds.wgsl"), file!()));
    let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
        return;
    };
    render_app
        .insert_resource(BirdsShader(shader))
        .insert_resource(BirdsLayer(RenderLayers::layer(layer)))
        .init_resource::<GpuFlockState>()
        .init_resource::<SpecializedRenderPipelines<BirdsPipeline>>()
        .add_render_command::<Transparent2d, DrawBirds>()
        .add_systems(RenderStartup, init_pipeline.after(init_mesh_2d_pipeline))
        .add_systems(ExtractSchedule, extract_frame)
        .add_systems(
            Render,
            (
                prepare_bind_group.in_set(RenderSystems::PrepareBindGroups),
                queue_birds.in_set(RenderSystems::Queue),
            ),
        )
        .add_systems(RenderGraph, run_ticks.before(camera_driver));
    #[cfg(feature = "draw3d")]
    super::render3d::build(render_app, layer);
}

/// Decides [`GpuFlockStatus`] from the adapter the renderer found.
pub(super) fn finish(app: &mut App) {
    let world = app.world_mut();
    let status = match (
        world.get_resource::<RenderAdapter>(),
        world.get_resource::<RenderAdapterInfo>(),
    ) {
        (Some(adapter), Some(info)) => {
            if murmur_gpu::context::supports_compute(&adapter.0) {
                GpuFlockStatus::Running(format!("{} ({:?})", info.name, info.backend))
            } else {
                GpuFlockStatus::Unavailable(format!(
                    "the GPU adapter {} ({:?}) cannot run compute shaders",
                    info.name, info.backend
                ))
            }
        }
        _ => GpuFlockStatus::Unavailable("the app has no renderer".into()),
    };
    world.insert_resource(status);
}

/// Takes the main world's frame: makes the flock anew when it changed, applies its parameters,
/// leaders and player, and counts the ticks to run.
fn extract_frame(
    frame: Extract<Res<GpuFlockFrame>>,
    mut state: ResMut<GpuFlockState>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
    info: Res<RenderAdapterInfo>,
) {
    let state = &mut *state;
    let (Some(key), Some(params)) = (frame.flock, frame.params.as_ref()) else {
        state.flock = None;
        state.made_for = None;
        state.bind_group = None;
        return;
    };
    if state.made_for != Some(key) {
        let (_, boids, seed) = key;
        let own = boids - usize::from(frame.player.is_some());
        let gpu = GpuContext::from_device(
            device.wgpu_device().clone(),
            (****queue).clone(),
            (***info).clone(),
        );
        state.made_for = Some(key);
        state.bind_group = None;
        state.params = Some(params.clone());
        state.ticks_done = frame.ticks;
        state.flock = match AnyGpuFlock::new(&gpu, params, own, seed, frame.player) {
            Ok(flock) => Some(flock),
            Err(e) => {
                warn!("the GPU flock cannot start: {e}");
                None
            }
        };
        #[cfg(feature = "draw3d")]
        {
            state.instances = match &state.flock {
                Some(AnyGpuFlock::Deep(flock)) => {
                    Some(super::render3d::Instances::new(device.wgpu_device(), flock))
                }
                _ => None,
            };
        }
    }
    let Some(flock) = state.flock.as_mut() else {
        return;
    };
    if state.params.as_ref() != Some(params) {
        match flock.set_params(params.clone()) {
            Ok(()) => state.params = Some(params.clone()),
            Err(e) => warn!("the GPU flock keeps its parameters: {e}"),
        }
    }
    flock.set_scene(&frame.leaders, &frame.solids, frame.player);
    state.look = frame.look.uniform;
    state.look.skip = if frame.player.is_some() {
        flock.len() as u32 - 1
    } else {
        u32::MAX
    };
    let behind = frame.ticks.saturating_sub(state.ticks_done);
    state.pending = behind.min(MAX_TICKS_PER_FRAME) as u32;
    state.ticks_done = frame.ticks;
    #[cfg(feature = "draw3d")]
    {
        state.look3d = frame.look3d;
        state.look3d.skip = state.look.skip;
        if let Some(instances) = &state.instances {
            instances.write_look(&queue, &state.look3d);
        }
    }
}

/// The frame's ticks, in the frame's command encoder, before any camera draws; then a 3D
/// flock's instances from the new state.
fn run_ticks(mut context: RenderContext, mut state: ResMut<GpuFlockState>) {
    let ticks = std::mem::take(&mut state.pending);
    let state = &mut *state;
    if let Some(flock) = state.flock.as_mut() {
        flock.encode_ticks(context.command_encoder(), ticks);
    }
    #[cfg(feature = "draw3d")]
    if let Some(instances) = &state.instances {
        instances.encode(context.command_encoder());
    }
}

/// The drawing pipeline: the 2D view's bind group, then the birds' buffers and look.
#[derive(Resource)]
struct BirdsPipeline {
    view_layout: BindGroupLayoutDescriptor,
    birds_layout: BindGroupLayoutDescriptor,
    shader: Handle<Shader>,
}

fn init_pipeline(mut commands: Commands, mesh2d: Res<Mesh2dPipeline>, shader: Res<BirdsShader>) {
    let birds_layout = BindGroupLayoutDescriptor::new(
        "murmur gpu birds",
        &BindGroupLayoutEntries::sequential(
            ShaderStages::VERTEX,
            (
                storage_buffer_read_only_sized(false, None),
                storage_buffer_read_only_sized(false, None),
                uniform_buffer_sized(false, None),
            ),
        ),
    );
    commands.insert_resource(BirdsPipeline {
        view_layout: mesh2d.view_layout.clone(),
        birds_layout,
        shader: shader.0.clone(),
    });
}

impl SpecializedRenderPipeline for BirdsPipeline {
    type Key = Mesh2dPipelineKey;

    fn specialize(&self, key: Self::Key) -> RenderPipelineDescriptor {
        RenderPipelineDescriptor {
            label: Some("murmur gpu birds".into()),
            layout: vec![self.view_layout.clone(), self.birds_layout.clone()],
            vertex: VertexState {
                shader: self.shader.clone(),
                ..Default::default()
            },
            fragment: Some(FragmentState {
                shader: self.shader.clone(),
                targets: vec![Some(ColorTargetState {
                    format: key.target_format(),
                    blend: Some(BlendState::ALPHA_BLENDING),
                    write_mask: ColorWrites::ALL,
                })],
                ..Default::default()
            }),
            primitive: PrimitiveState::default(),
            depth_stencil: Some(DepthStencilState {
                format: CORE_2D_DEPTH_FORMAT,
                depth_write_enabled: Some(false),
                depth_compare: Some(CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: MultisampleState {
                count: key.msaa_samples(),
                mask: !0,
                alpha_to_coverage_enabled: false,
            },
            ..Default::default()
        }
    }
}

/// The birds' bind group (made again when the flock is), and this frame's look.
fn prepare_bind_group(
    mut state: ResMut<GpuFlockState>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
    pipeline: Option<Res<BirdsPipeline>>,
    pipeline_cache: Res<PipelineCache>,
) {
    let (Some(pipeline), Some(AnyGpuFlock::Flat(flock))) = (pipeline, state.flock.as_ref()) else {
        return;
    };
    let look = state.look;
    if state.bind_group.is_none() {
        let look_buffer = device
            .wgpu_device()
            .create_buffer(&murmur_gpu::wgpu::BufferDescriptor {
                label: Some("murmur gpu birds look"),
                size: std::mem::size_of::<LookUniform>() as u64,
                usage: murmur_gpu::wgpu::BufferUsages::UNIFORM
                    | murmur_gpu::wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
        let bind_group = device.create_bind_group(
            "murmur gpu birds",
            &pipeline_cache.get_bind_group_layout(&pipeline.birds_layout),
            &BindGroupEntries::sequential((
                flock.birds_buffer().as_entire_binding(),
                flock.neighbours_buffer().as_entire_binding(),
                look_buffer.as_entire_binding(),
            )),
        );
        state.look_buffer = Some(look_buffer);
        state.bind_group = Some(bind_group);
    }
    if let Some(buffer) = &state.look_buffer {
        queue.write_buffer(buffer, 0, bytemuck::bytes_of(&look));
    }
}

/// One item a view, in the 2D views that see the birds' layer.
fn queue_birds(
    draw_functions: Res<DrawFunctions<Transparent2d>>,
    pipeline: Option<Res<BirdsPipeline>>,
    mut pipelines: ResMut<SpecializedRenderPipelines<BirdsPipeline>>,
    pipeline_cache: Res<PipelineCache>,
    state: Res<GpuFlockState>,
    layer: Res<BirdsLayer>,
    mut phases: ResMut<ViewSortedRenderPhases<Transparent2d>>,
    views: Query<(
        Entity,
        &MainEntity,
        &ExtractedView,
        &Msaa,
        Option<&RenderLayers>,
    )>,
) {
    let Some(pipeline) = pipeline else {
        return;
    };
    if !matches!(&state.flock, Some(AnyGpuFlock::Flat(f)) if !f.is_empty())
        || state.bind_group.is_none()
    {
        return;
    }
    let draw = draw_functions.read().id::<DrawBirds>();
    for (entity, main_entity, view, msaa, layers) in &views {
        if !layers.unwrap_or_default().intersects(&layer.0) {
            continue;
        }
        let Some(phase) = phases.get_mut(&view.retained_view_entity) else {
            continue;
        };
        let key = Mesh2dPipelineKey::from_msaa_samples(msaa.samples())
            | Mesh2dPipelineKey::from_target_format(view.target_format);
        let pipeline = pipelines.specialize(&pipeline_cache, &pipeline, key);
        phase.add_transient(Transparent2d {
            // The view's own entities: one birds item a view.
            entity: (entity, *main_entity),
            draw_function: draw,
            pipeline,
            // Under whatever the game draws at z >= 0 (the CPU path's highlights, sprites).
            sort_key: FloatOrd(-0.5),
            batch_range: 0..1,
            extra_index: PhaseItemExtraIndex::None,
            extracted_index: usize::MAX,
            indexed: false,
        });
    }
}

/// The draw: the view's bind group, the birds' buffers, nine vertices for each bird.
type DrawBirds = (SetItemPipeline, SetMesh2dViewBindGroup<0>, DrawGpuBirds);

/// Binds the birds' buffers and draws one instance a bird.
struct DrawGpuBirds;

impl<P: PhaseItem> RenderCommand<P> for DrawGpuBirds {
    type Param = SRes<GpuFlockState>;
    type ViewQuery = ();
    type ItemQuery = ();

    fn render<'w>(
        _item: &P,
        _view: ROQueryItem<'w, '_, Self::ViewQuery>,
        _entity: Option<ROQueryItem<'w, '_, Self::ItemQuery>>,
        state: SystemParamItem<'w, '_, Self::Param>,
        pass: &mut TrackedRenderPass<'w>,
    ) -> RenderCommandResult {
        let state = state.into_inner();
        let (Some(flock), Some(bind_group)) = (state.flock.as_ref(), state.bind_group.as_ref())
        else {
            return RenderCommandResult::Skip;
        };
        pass.set_bind_group(1, bind_group, &[]);
        pass.draw(0..9, 0..flock.len() as u32);
        RenderCommandResult::Success
    }
}
