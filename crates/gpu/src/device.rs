//! The GPU: found once per process, or the reason there is none.
//!
//! wgpu picks the adapter (high-performance first) among the backends this
//! build has (Vulkan, Metal, DX12; `WGPU_BACKEND=vulkan,...` narrows them).
//! A machine without one gets [`QueensError::Unavailable`] with the reason,
//! never a panic: wgpu's own error handler, which panics, is replaced by one
//! that keeps the error for the dispatch that caused it to report.

use std::sync::{Arc, Mutex, OnceLock};

use queens_core::{Accelerator, QueensError};

use crate::refusal::unavailable;

/// The shader, compiled once per device.
const KERNEL: &str = include_str!("kernel.wgsl");

/// An open device with the kernel ready.
pub(crate) struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub pipeline: wgpu::ComputePipeline,
    pub accelerator: Accelerator,
    /// The first error wgpu reported (validation, out of memory, device
    /// lost), if any: once set, every later count is refused with it.
    pub failure: Arc<Mutex<Option<String>>>,
}

static GPU: OnceLock<Result<Gpu, String>> = OnceLock::new();

/// The process's GPU, opened on first use.
pub(crate) fn gpu() -> Result<&'static Gpu, QueensError> {
    GPU.get_or_init(open)
        .as_ref()
        .map_err(|reason| unavailable(reason.clone()))
}

fn open() -> Result<Gpu, String> {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
    descriptor.backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY);
    let instance = wgpu::Instance::new(descriptor);
    let options = wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: None,
        apply_limit_buckets: false,
    };
    let adapter = pollster::block_on(instance.request_adapter(&options)).map_err(|error| {
        format!(
            "no GPU adapter found ({error}): it needs a Vulkan, Metal or DX12 driver \
             (on Linux without a GPU, Mesa's software one: apt-get install mesa-vulkan-drivers)"
        )
    })?;
    let info = adapter.get_info();
    let accelerator = Accelerator {
        name: info.name.clone(),
        driver: [info.driver.as_str(), info.driver_info.as_str()]
            .iter()
            .filter(|part| !part.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" "),
        backend: info.backend.to_string(),
        software: info.device_type == wgpu::DeviceType::Cpu,
    };
    let descriptor = wgpu::DeviceDescriptor {
        label: Some("queens-gpu"),
        // The adapter's own limits: the largest buffers it allows.
        required_limits: adapter.limits(),
        ..Default::default()
    };
    let (device, queue) = pollster::block_on(adapter.request_device(&descriptor))
        .map_err(|error| format!("{accelerator}: cannot open the device: {error}"))?;
    let failure = Arc::new(Mutex::new(None));
    let keep = Arc::clone(&failure);
    device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
        keep_first(&keep, error.to_string());
    }));
    let keep = Arc::clone(&failure);
    device.set_device_lost_callback(move |_, message| {
        keep_first(&keep, format!("device lost: {message}"));
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("interior search"),
        source: wgpu::ShaderSource::Wgsl(KERNEL.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("interior search"),
        layout: None,
        module: &module,
        entry_point: Some("count"),
        compilation_options: Default::default(),
        cache: None,
    });
    if let Some(error) = failure.lock().expect("no panics while held").take() {
        return Err(format!("{accelerator}: the kernel was refused: {error}"));
    }
    Ok(Gpu {
        device,
        queue,
        pipeline,
        accelerator,
        failure,
    })
}

fn keep_first(slot: &Mutex<Option<String>>, error: String) {
    if let Ok(mut slot) = slot.lock() {
        slot.get_or_insert(error);
    }
}

impl Gpu {
    /// The device, as records name it.
    pub(crate) fn accelerator(&self) -> Accelerator {
        self.accelerator.clone()
    }

    /// `Err` with the first error wgpu reported, if any.
    pub(crate) fn check(&self) -> Result<(), QueensError> {
        match self.failure.lock().expect("no panics while held").as_ref() {
            Some(error) => Err(unavailable(format!("{}: {error}", self.accelerator))),
            None => Ok(()),
        }
    }
}
