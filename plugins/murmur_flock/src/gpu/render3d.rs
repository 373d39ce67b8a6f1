//! A 3D GPU flock drawn as the CPU's 3D flocks are: each frame, after the ticks, a compute pass
//! (`instances3d.wgsl`) writes one [`BirdInstance`] a bird from the simulation's state buffer
//! into a buffer that is both storage and vertex buffer; the 3D birds' pipeline
//! (`draw3d/birds3d.wgsl`, lit by the scene) then draws it in every 3D view on the plugin's
//! layer, one instanced draw, without a copy back.

use super::render::{AnyGpuFlock, GpuFlockState};
use crate::draw::{BirdDrawing, FlockLook};
use crate::draw3d::BirdInstance;
use crate::draw3d::render::{Birds3dPipeline, VERTICES};
use bevy_camera::visibility::RenderLayers;
use bevy_color::{ColorToComponents, LinearRgba};
use bevy_core_pipeline::core_3d::{Transparent3d, TransparentSortingInfo3d};
use bevy_ecs::prelude::*;
use bevy_ecs::query::ROQueryItem;
use bevy_ecs::system::SystemParamItem;
use bevy_ecs::system::lifetimeless::SRes;
use bevy_math::Vec3;
use bevy_mesh::PrimitiveTopology;
use bevy_pbr::{
    MeshPipelineKey, SetMeshViewBindGroup, SetMeshViewBindingArrayBindGroup, ViewKeyCache,
};
use bevy_render::render_phase::{
    AddRenderCommand, DrawFunctions, PhaseItem, PhaseItemExtraIndex, RenderCommand,
    RenderCommandResult, SetItemPipeline, TrackedRenderPass, ViewSortedRenderPhases,
};
use bevy_render::render_resource::{PipelineCache, SpecializedMeshPipelines};
use bevy_render::renderer::RenderQueue;
use bevy_render::sync_world::MainEntity;
use bevy_render::view::ExtractedView;
use bevy_render::{Render, RenderSystems};
use bytemuck::{Pod, Zeroable};
use murmur_core::models::Model;
use murmur_core::params::FlockParams;
use murmur_gpu::GpuFlock;
use murmur_gpu::wgpu;

/// How the birds look this frame (WGSL `Look` in `instances3d.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct Look3d {
    small: [f32; 4],
    large: [f32; 4],
    plain: [f32; 4],
    size: f32,
    large_at: f32,
    flap: f32,
    fraction: f32,
    scale: f32,
    by_size: u32,
    bank_by: u32,
    /// The player's bird, drawn by the game on its own (`u32::MAX`: none).
    pub(crate) skip: u32,
    n: u32,
    _pad: [u32; 3],
}

/// How far the wings flap, in radians (as the CPU's 3D birds).
const FLAP: f32 = 0.5;

impl Look3d {
    /// The look of a flock under `params` with `look`, drawn as `drawing` says, `fraction` of
    /// the way from its last tick to its next: the values the CPU path's `instances_of_flocks`
    /// uses.
    pub(crate) fn new(
        params: &FlockParams,
        look: FlockLook,
        drawing: BirdDrawing,
        fraction: f32,
    ) -> Self {
        let linear = |c: bevy_color::Color| LinearRgba::from(c).to_f32_array();
        let size = if look.size > 0.0 {
            look.size
        } else {
            (0.6 * params.model.near_radius()).max(3.0)
        };
        // Models whose steering is the new velocity have no acceleration to bank by; the GPU's
        // (reynolds, cornell) all have one.
        let bank_by = !matches!(
            params.model,
            Model::Vicsek(_) | Model::Couzin(_) | Model::Abm(_)
        );
        Self {
            small: linear(look.small_flock),
            large: linear(look.large_flock),
            plain: linear(look.plain),
            size,
            large_at: look.large_flock_size.max(f32::MIN_POSITIVE),
            flap: if drawing.flapping { FLAP } else { 0.0 },
            fraction: if drawing.interpolate { fraction } else { 1.0 },
            scale: 0.02 * params.model.cruise_speed().max(f32::MIN_POSITIVE),
            by_size: drawing.colour_by_flock_size as u32,
            bank_by: bank_by as u32,
            skip: u32::MAX,
            n: 0,
            _pad: [0; 3],
        }
    }
}

/// The instances of a 3D GPU flock and the compute pass that writes them.
pub(crate) struct Instances {
    pipeline: wgpu::ComputePipeline,
    bind_group: wgpu::BindGroup,
    look: wgpu::Buffer,
    /// One [`BirdInstance`] a bird: written by the pass, read as a vertex buffer.
    pub(crate) buffer: bevy_render::render_resource::Buffer,
    pub(crate) birds: u32,
}

impl Instances {
    /// The pass for `flock`, reading its state and neighbour buffers.
    pub(crate) fn new(device: &wgpu::Device, flock: &GpuFlock<Vec3>) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("murmur gpu 3d instances"),
            source: wgpu::ShaderSource::Wgsl(include_str!("instances3d.wgsl").into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("murmur gpu 3d instances"),
            layout: None,
            module: &module,
            entry_point: Some("instances_of_birds"),
            compilation_options: Default::default(),
            cache: None,
        });
        let look = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("murmur gpu 3d look"),
            size: size_of::<Look3d>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let birds = flock.len() as u32;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("murmur gpu 3d bird instances"),
            size: (u64::from(birds.max(1))) * size_of::<BirdInstance>() as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::VERTEX,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("murmur gpu 3d instances"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: look.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: flock.birds_buffer().as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: flock.neighbours_buffer().as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: buffer.as_entire_binding(),
                },
            ],
        });
        Self {
            pipeline,
            bind_group,
            look,
            buffer: buffer.into(),
            birds,
        }
    }

    /// This frame's look, for the next pass.
    pub(crate) fn write_look(&self, queue: &RenderQueue, look: &Look3d) {
        let look = Look3d {
            n: self.birds,
            ..*look
        };
        queue.write_buffer(&self.look, 0, bytemuck::bytes_of(&look));
    }

    /// Records the pass that writes the instances.
    pub(crate) fn encode(&self, encoder: &mut wgpu::CommandEncoder) {
        if self.birds == 0 {
            return;
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("murmur gpu 3d instances"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        let groups = self.birds.div_ceil(256);
        let x = groups.min(65_535);
        pass.dispatch_workgroups(x, groups.div_ceil(x), 1);
    }
}

/// The render layer 3D GPU birds are drawn on.
#[derive(Resource, Clone)]
struct Birds3dLayer(RenderLayers);

/// Registers the 3D drawing in the render world.
pub(super) fn build(render_app: &mut bevy_app::SubApp, layer: usize) {
    render_app
        .insert_resource(Birds3dLayer(RenderLayers::layer(layer)))
        .add_render_command::<Transparent3d, DrawGpuBirds3d>()
        .add_systems(Render, queue_birds.in_set(RenderSystems::QueueMeshes));
}

/// One item in each 3D view on the layer, when a 3D flock flies on the GPU.
fn queue_birds(
    draw_functions: Res<DrawFunctions<Transparent3d>>,
    pipeline: Option<Res<Birds3dPipeline>>,
    pipelines: Option<ResMut<SpecializedMeshPipelines<Birds3dPipeline>>>,
    pipeline_cache: Res<PipelineCache>,
    state: Res<GpuFlockState>,
    layer: Res<Birds3dLayer>,
    mut phases: ResMut<ViewSortedRenderPhases<Transparent3d>>,
    views: Query<(Entity, &MainEntity, &ExtractedView, Option<&RenderLayers>)>,
    view_keys: Res<ViewKeyCache>,
) {
    let (Some(pipeline), Some(mut pipelines)) = (pipeline, pipelines) else {
        return;
    };
    if !matches!(&state.flock, Some(AnyGpuFlock::Deep(f)) if !f.is_empty())
        || state.instances.is_none()
    {
        return;
    }
    let draw = draw_functions.read().id::<DrawGpuBirds3d>();
    for (entity, main_entity, view, layers) in &views {
        if !layers.unwrap_or_default().intersects(&layer.0) {
            continue;
        }
        let Some(phase) = phases.get_mut(&view.retained_view_entity) else {
            continue;
        };
        let Some(&view_key) = view_keys.get(&view.retained_view_entity) else {
            continue;
        };
        let key = view_key
            | MeshPipelineKey::from_primitive_topology_and_strip_index(
                PrimitiveTopology::TriangleList,
                None,
            );
        let Ok(id) = pipelines.specialize(&pipeline_cache, &pipeline, key, &pipeline.layout) else {
            continue;
        };
        phase.add_transient(Transparent3d {
            // The flock's middle is on the GPU; the world's centre stands in (the birds are
            // opaque, depth-tested and writing depth, so the order only matters against other
            // transparent things).
            sorting_info: TransparentSortingInfo3d::Sorted {
                mesh_center: Vec3::ZERO,
                depth_bias: 0.0,
            },
            distance: 0.0,
            pipeline: id,
            // The view's own entities: one birds item a view.
            entity: (entity, *main_entity),
            draw_function: draw,
            batch_range: 0..1,
            extra_index: PhaseItemExtraIndex::None,
            indexed: false,
        });
    }
}

/// The draw: the pipeline, the view's bindings, the instances from the GPU.
type DrawGpuBirds3d = (
    SetItemPipeline,
    SetMeshViewBindGroup<0>,
    SetMeshViewBindingArrayBindGroup<1>,
    DrawInstancesFromGpu,
);

/// Draws one instance a bird from the instances the compute pass wrote.
struct DrawInstancesFromGpu;

impl<P: PhaseItem> RenderCommand<P> for DrawInstancesFromGpu {
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
        let Some(instances) = state
            .into_inner()
            .instances
            .as_ref()
            .filter(|i| i.birds > 0)
        else {
            return RenderCommandResult::Skip;
        };
        pass.set_vertex_buffer(0, instances.buffer.slice(..));
        pass.draw(0..VERTICES, 0..instances.birds);
        RenderCommandResult::Success
    }
}
