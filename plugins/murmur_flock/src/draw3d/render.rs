//! The render world's side of the 3D birds: each entity's [`BirdInstances`] copied into a vertex
//! buffer of instances, and one instanced draw of thirty vertices a bird queued in every 3D view,
//! through a pipeline made from Bevy's mesh pipeline (its view bindings, lights and fog) with the
//! birds' own shader in place of the mesh's.

use super::{BirdInstance, BirdInstances};
use bevy_app::App;
use bevy_asset::{Assets, Handle, RenderAssetUsages};
use bevy_core_pipeline::core_3d::{Transparent3d, TransparentSortingInfo3d};
use bevy_ecs::prelude::*;
use bevy_ecs::query::QueryItem;
use bevy_ecs::system::SystemParamItem;
use bevy_ecs::system::lifetimeless::{Read, SRes};
use bevy_math::Vec3;
use bevy_mesh::{
    Mesh, MeshVertexBufferLayoutRef, MeshVertexBufferLayouts, PrimitiveTopology, VertexBufferLayout,
};
use bevy_pbr::{
    MeshPipeline, MeshPipelineKey, MeshPipelineSystems, SetMeshViewBindGroup,
    SetMeshViewBindingArrayBindGroup, ViewKeyCache,
};
use bevy_render::extract_component::{ExtractComponent, ExtractComponentPlugin};
use bevy_render::render_phase::{
    AddRenderCommand, DrawFunctions, PhaseItem, PhaseItemExtraIndex, RenderCommand,
    RenderCommandResult, SetItemPipeline, TrackedRenderPass, ViewSortedRenderPhases,
};
use bevy_render::render_resource::{
    Buffer, BufferDescriptor, BufferUsages, PipelineCache, RenderPipelineDescriptor,
    SpecializedMeshPipeline, SpecializedMeshPipelineError, SpecializedMeshPipelines,
    VertexAttribute, VertexFormat, VertexStepMode,
};
use bevy_render::renderer::{RenderDevice, RenderQueue};
use bevy_render::sync_component::SyncComponent;
use bevy_render::sync_world::MainEntity;
use bevy_render::view::ExtractedView;
use bevy_render::{Render, RenderApp, RenderStartup, RenderSystems};
use bevy_shader::Shader;

/// Vertices of one bird: a body of eight triangles and two wings.
pub(crate) const VERTICES: u32 = 30;

impl SyncComponent for BirdInstances {
    type Target = Self;
}

impl ExtractComponent for BirdInstances {
    type QueryData = &'static BirdInstances;
    type QueryFilter = ();
    type Out = Self;

    fn extract_component(item: QueryItem<'_, '_, Self::QueryData>) -> Option<Self> {
        Some(item.clone())
    }
}

/// The birds' shader, added to the main world's shaders when the plugin is built.
#[derive(Resource, Clone)]
struct Birds3dShader(Handle<Shader>);

/// Registers the extraction, the pipeline and the render world's systems (when there is a
/// renderer with Bevy's 3D pipeline).
pub(super) fn build(app: &mut App) {
    let Some(mut shaders) = app.world_mut().get_resource_mut::<Assets<Shader>>() else {
        return;
    };
    let shader = shaders.add(Shader::from_wgsl(include_str!("birds3d.wgsl"), file!()));
    app.add_plugins(ExtractComponentPlugin::<BirdInstances>::default());
    let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
        return;
    };
    render_app
        .insert_resource(Birds3dShader(shader))
        .init_resource::<SpecializedMeshPipelines<Birds3dPipeline>>()
        .add_render_command::<Transparent3d, DrawBirds3d>()
        .add_systems(RenderStartup, init_pipeline.after(MeshPipelineSystems))
        .add_systems(
            Render,
            (
                prepare_buffers.in_set(RenderSystems::PrepareResources),
                queue_birds.in_set(RenderSystems::QueueMeshes),
            ),
        );
}

/// The pipeline: Bevy's mesh pipeline for the view's bindings, the birds' shader, one vertex
/// buffer of instances.
#[derive(Resource)]
pub(crate) struct Birds3dPipeline {
    mesh_pipeline: MeshPipeline,
    shader: Handle<Shader>,
    /// The vertex layout of a mesh with positions, normals and uvs: what the mesh pipeline
    /// specialises for (its own vertex buffer is then replaced).
    pub(crate) layout: MeshVertexBufferLayoutRef,
}

fn init_pipeline(
    mut commands: Commands,
    mesh_pipeline: Option<Res<MeshPipeline>>,
    shader: Res<Birds3dShader>,
    mut layouts: ResMut<MeshVertexBufferLayouts>,
) {
    let Some(mesh_pipeline) = mesh_pipeline else {
        return;
    };
    let stand_in = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, vec![[0.0f32; 3]; 3])
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0f32, 1.0, 0.0]; 3])
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0f32; 2]; 3]);
    commands.insert_resource(Birds3dPipeline {
        mesh_pipeline: mesh_pipeline.clone(),
        shader: shader.0.clone(),
        layout: stand_in.get_mesh_vertex_buffer_layout(&mut layouts),
    });
}

impl SpecializedMeshPipeline for Birds3dPipeline {
    type Key = MeshPipelineKey;

    fn specialize(
        &self,
        key: Self::Key,
        layout: &MeshVertexBufferLayoutRef,
    ) -> Result<RenderPipelineDescriptor, SpecializedMeshPipelineError> {
        let mut descriptor = self.mesh_pipeline.specialize(key, layout)?;
        descriptor.label = Some("murmur 3d birds".into());
        descriptor.vertex.shader = self.shader.clone();
        let float4 = VertexFormat::Float32x4.size();
        descriptor.vertex.buffers = vec![VertexBufferLayout {
            array_stride: size_of::<BirdInstance>() as u64,
            step_mode: VertexStepMode::Instance,
            attributes: (0..3)
                .map(|i| VertexAttribute {
                    format: VertexFormat::Float32x4,
                    offset: i * float4,
                    shader_location: i as u32,
                })
                .collect(),
        }];
        if let Some(fragment) = descriptor.fragment.as_mut() {
            fragment.shader = self.shader.clone();
        }
        // The view's bindings only (no mesh bind group), and both faces (the wings are thin).
        descriptor.layout.truncate(2);
        descriptor.primitive.cull_mode = None;
        Ok(descriptor)
    }
}

/// An entity's instances on the GPU (kept from frame to frame, grown as needed).
#[derive(Component)]
struct BirdBuffer {
    buffer: Buffer,
    capacity: usize,
    len: usize,
}

fn prepare_buffers(
    mut commands: Commands,
    mut birds: Query<(Entity, &BirdInstances, Option<&mut BirdBuffer>)>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
) {
    for (entity, instances, buffer) in &mut birds {
        let bytes: &[u8] = bytemuck::cast_slice(&instances.0);
        let len = instances.0.len();
        match buffer {
            Some(mut b) if b.capacity >= len => {
                queue.write_buffer(&b.buffer, 0, bytes);
                b.len = len;
            }
            _ => {
                let capacity = len.next_power_of_two().max(64);
                let buffer = device.create_buffer(&BufferDescriptor {
                    label: Some("murmur 3d bird instances"),
                    size: (capacity * size_of::<BirdInstance>()) as u64,
                    usage: BufferUsages::VERTEX | BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                queue.write_buffer(&buffer, 0, bytes);
                commands.entity(entity).insert(BirdBuffer {
                    buffer,
                    capacity,
                    len,
                });
            }
        }
    }
}

fn queue_birds(
    draw_functions: Res<DrawFunctions<Transparent3d>>,
    pipeline: Option<Res<Birds3dPipeline>>,
    mut pipelines: ResMut<SpecializedMeshPipelines<Birds3dPipeline>>,
    pipeline_cache: Res<PipelineCache>,
    birds: Query<(Entity, &MainEntity, &BirdInstances)>,
    mut phases: ResMut<ViewSortedRenderPhases<Transparent3d>>,
    views: Query<&ExtractedView>,
    view_keys: Res<ViewKeyCache>,
) {
    let Some(pipeline) = pipeline else {
        return;
    };
    let draw = draw_functions.read().id::<DrawBirds3d>();
    for view in &views {
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
        for (entity, main_entity, instances) in &birds {
            if instances.0.is_empty() {
                continue;
            }
            // Sorted by the middle of the flock (drawn after what is opaque, depth-tested and
            // writing depth: they are opaque themselves).
            let n = instances.0.len().min(256);
            let centre = instances.0[..n]
                .iter()
                .fold(Vec3::ZERO, |c, b| c + Vec3::from_array(b.position))
                / n as f32;
            phase.add_transient(Transparent3d {
                sorting_info: TransparentSortingInfo3d::Sorted {
                    mesh_center: centre,
                    depth_bias: 0.0,
                },
                distance: 0.0,
                pipeline: id,
                entity: (entity, *main_entity),
                draw_function: draw,
                batch_range: 0..1,
                extra_index: PhaseItemExtraIndex::None,
                indexed: false,
            });
        }
    }
}

/// The draw: the pipeline, the view's bindings, the instances.
type DrawBirds3d = (
    SetItemPipeline,
    SetMeshViewBindGroup<0>,
    SetMeshViewBindingArrayBindGroup<1>,
    DrawBirdInstances,
);

/// Draws one instance a bird from the entity's buffer.
struct DrawBirdInstances;

impl<P: PhaseItem> RenderCommand<P> for DrawBirdInstances {
    type Param = SRes<PipelineCache>;
    type ViewQuery = ();
    type ItemQuery = Read<BirdBuffer>;

    fn render<'w>(
        _item: &P,
        _view: (),
        buffer: Option<&'w BirdBuffer>,
        _cache: SystemParamItem<'w, '_, Self::Param>,
        pass: &mut TrackedRenderPass<'w>,
    ) -> RenderCommandResult {
        let Some(buffer) = buffer.filter(|b| b.len > 0) else {
            return RenderCommandResult::Skip;
        };
        pass.set_vertex_buffer(0, buffer.buffer.slice(..));
        pass.draw(0..VERTICES, 0..buffer.len as u32);
        RenderCommandResult::Success
    }
}
