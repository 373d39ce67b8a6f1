//! Finding a GPU that runs compute shaders, and what goes wrong when there is none.

use std::fmt;

/// A device and its queue, with what the adapter says it is.
#[derive(Clone, Debug)]
pub struct GpuContext {
    /// The device the flock's buffers and kernels live on.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// The adapter's name, driver and backend.
    pub info: wgpu::AdapterInfo,
}

/// Why the GPU path cannot run.
#[derive(Clone, Debug, PartialEq)]
pub enum GpuError {
    /// No adapter at all (no Vulkan, Metal or DirectX 12 driver).
    NoAdapter(String),
    /// The adapter cannot run compute shaders (a WebGL2 or GLES-only adapter).
    NoCompute(String),
    /// The adapter refused a device.
    Device(String),
    /// The flock's model has no GPU kernel.
    UnsupportedModel(&'static str),
    /// A neighbour cap, which makes the result depend on the order neighbours are visited in.
    NeighbourCap(u32),
    /// A flock in one space and a world in the other: `world` and `flock` are "2D" or "3D".
    Space {
        /// The world's space (3D when it has a depth).
        world: &'static str,
        /// The flock's.
        flock: &'static str,
    },
    /// More solids than a 3D flock's kernels take.
    TooManySolids {
        /// Solids given.
        solids: usize,
        /// The most the kernels take.
        most: usize,
    },
    /// More birds than one storage buffer of the device holds.
    TooManyBirds {
        /// Birds asked for.
        birds: usize,
        /// The most this device's buffers hold.
        most: usize,
    },
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoAdapter(why) => write!(f, "no GPU adapter was found ({why})"),
            Self::NoCompute(name) => write!(f, "the GPU adapter {name} cannot run compute shaders"),
            Self::Device(why) => write!(f, "the GPU refused a device: {why}"),
            Self::UnsupportedModel(model) => write!(
                f,
                "the GPU path runs the reynolds and cornell models, not {model}"
            ),
            Self::NeighbourCap(cap) => write!(
                f,
                "the GPU path has no neighbour cap (max_neighbours = {cap}); set it to 0"
            ),
            Self::Space { world, flock } => write!(
                f,
                "a {flock} flock on the GPU cannot fly in a {world} world"
            ),
            Self::TooManySolids { solids, most } => write!(
                f,
                "the GPU path flies round at most {most} solids, not {solids}"
            ),
            Self::TooManyBirds { birds, most } => write!(
                f,
                "{birds} birds do not fit this GPU's storage buffers (at most {most})"
            ),
        }
    }
}

impl std::error::Error for GpuError {}

impl GpuContext {
    /// The first high-performance adapter that runs compute shaders (Vulkan, Metal or DirectX
    /// 12; on Linux without a GPU, Mesa's lavapipe), with the adapter's own limits.
    pub fn new() -> Result<Self, GpuError> {
        // Vulkan, Metal, DirectX 12: the backends with compute shaders everywhere (probing GL
        // as well only finds adapters without them, and prints complaints about displays).
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::PRIMARY,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = futures_lite::future::block_on(instance.request_adapter(
            &wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            },
        ))
        .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        if !supports_compute(&adapter) {
            return Err(GpuError::NoCompute(describe(&info)));
        }
        let (device, queue) =
            futures_lite::future::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
                label: Some("murmur_gpu"),
                required_limits: adapter.limits(),
                ..Default::default()
            }))
            .map_err(|e| GpuError::Device(e.to_string()))?;
        Ok(Self {
            device,
            queue,
            info,
        })
    }

    /// A context over a device that something else made (a game's, Bevy's render device).
    pub fn from_device(device: wgpu::Device, queue: wgpu::Queue, info: wgpu::AdapterInfo) -> Self {
        Self {
            device,
            queue,
            info,
        }
    }

    /// The adapter in words: name, driver, backend.
    pub fn describe(&self) -> String {
        describe(&self.info)
    }
}

/// True when the adapter runs compute shaders (WebGL2 and some GLES drivers do not).
pub fn supports_compute(adapter: &wgpu::Adapter) -> bool {
    adapter
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
}

fn describe(info: &wgpu::AdapterInfo) -> String {
    let driver = [info.driver.as_str(), info.driver_info.as_str()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    if driver.is_empty() {
        format!("{} ({:?})", info.name, info.backend)
    } else {
        format!("{} ({:?}, {driver})", info.name, info.backend)
    }
}
