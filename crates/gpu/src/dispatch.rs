//! One unit on the GPU: upload its shapes and tasks, run the kernel over
//! the tasks in bounded dispatches, read back each task's counts and add
//! them up per constellation on the host, in 64 bits, checked.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use bytemuck::{Pod, Zeroable};
use queens_core::QueensError;
use wgpu::util::DeviceExt;

use crate::device::Gpu;
use crate::refusal::{overflow, unavailable};
use crate::tasks::{Expansion, Task};

/// Tasks per dispatch. Bounds the work of one submission (a desktop
/// system's watchdog resets a GPU that is busy for seconds, and a software
/// driver runs a dispatch on the CPU), and keeps the buffers small: 32 MiB
/// of tasks, 16 MiB of counts. About four waves of a large GPU.
pub const TASKS_PER_DISPATCH: usize = 1 << 20;

/// Threads per workgroup (the kernel's `@workgroup_size`).
const WORKGROUP: usize = 64;

/// How long one dispatch may take before the count is refused rather than
/// waited on forever: far beyond any dispatch of a board the engine is
/// meant for, even on a software driver.
pub const DISPATCH_TIMEOUT: Duration = Duration::from_secs(600);

/// The kernel's uniform (`Params` in kernel.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
struct Params {
    full: u32,
    count: u32,
    pad: u32,
    stride: u32,
}

/// Completions and nodes of each constellation of the expansion: the
/// host's share plus the sum over its tasks, dispatched
/// [`TASKS_PER_DISPATCH`] at a time.
pub(crate) fn count(
    gpu: &Gpu,
    full: u32,
    expansion: &Expansion,
) -> Result<Vec<(u64, u64)>, QueensError> {
    count_in_chunks(gpu, full, expansion, TASKS_PER_DISPATCH)
}

/// [`count`] with `per_dispatch` tasks a dispatch (a multiple of 8, so
/// that each dispatch's slice of the tasks starts on a 256-byte boundary).
fn count_in_chunks(
    gpu: &Gpu,
    full: u32,
    expansion: &Expansion,
    per_dispatch: usize,
) -> Result<Vec<(u64, u64)>, QueensError> {
    let mut per_shape = expansion.host.clone();
    if expansion.tasks.is_empty() {
        return Ok(per_shape);
    }
    gpu.check()?;
    let device = &gpu.device;
    let tasks = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("tasks"),
        contents: bytemuck::cast_slice(&expansion.tasks),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let rows = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("rows"),
        contents: bytemuck::cast_slice(&expansion.rows),
        usage: wgpu::BufferUsages::STORAGE,
    });
    for first in (0..expansion.tasks.len()).step_by(per_dispatch) {
        let chunk = per_dispatch.min(expansion.tasks.len() - first);
        let counts = dispatch(gpu, full, &tasks, &rows, first, chunk)?;
        for (task, count) in expansion.tasks[first..first + chunk].iter().zip(counts) {
            let [solutions_low, solutions_high, nodes_low, nodes_high] = count;
            let solutions = u64::from(solutions_low) | u64::from(solutions_high) << 32;
            let nodes = u64::from(nodes_low) | u64::from(nodes_high) << 32;
            let total = &mut per_shape[task.shape as usize];
            *total = total
                .0
                .checked_add(solutions)
                .zip(total.1.checked_add(nodes))
                .ok_or_else(overflow)?;
        }
    }
    Ok(per_shape)
}

/// Runs tasks `first..first + chunk` and reads their counts back.
fn dispatch(
    gpu: &Gpu,
    full: u32,
    tasks: &wgpu::Buffer,
    rows: &wgpu::Buffer,
    first: usize,
    chunk: usize,
) -> Result<Vec<[u32; 4]>, QueensError> {
    let device = &gpu.device;
    let groups = chunk.div_ceil(WORKGROUP);
    let params = Params {
        full,
        count: chunk as u32,
        pad: 0,
        stride: (groups * WORKGROUP) as u32,
    };
    let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("params"),
        contents: bytemuck::bytes_of(&params),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let bytes = (chunk * size_of::<[u32; 4]>()) as u64;
    let counts = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("counts"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("interior search"),
        layout: &gpu.pipeline.get_bind_group_layout(0),
        entries: &[
            binding(0, params.as_entire_binding()),
            // Only this dispatch's tasks: the binding stays within the
            // device's limit however many tasks the unit has (the offset,
            // a multiple of TASKS_PER_DISPATCH tasks, is aligned).
            binding(
                1,
                wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: tasks,
                    offset: (first * size_of::<Task>()) as u64,
                    size: wgpu::BufferSize::new((chunk * size_of::<Task>()) as u64),
                }),
            ),
            binding(2, rows.as_entire_binding()),
            binding(3, counts.as_entire_binding()),
        ],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&gpu.pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(groups as u32, 1, 1);
    }
    encoder.copy_buffer_to_buffer(&counts, 0, &readback, 0, bytes);
    let submission = gpu.queue.submit([encoder.finish()]);
    let (sender, receiver) = mpsc::channel();
    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, move |mapped| {
            // The receiver outlives the wait below; a send can only fail after
            // a timeout, when nobody reads it any more.
            let _ = sender.send(mapped);
        });
    let waited = device.poll(wgpu::PollType::Wait {
        submission_index: Some(submission),
        timeout: Some(DISPATCH_TIMEOUT),
    });
    let failed = |what: String| unavailable(format!("{}: {what}", gpu.accelerator));
    waited.map_err(|error| failed(format!("a dispatch did not finish: {error}")))?;
    // The submission is done, but with several threads on one device the
    // mapping's callback may be run by another thread's poll a moment
    // later: wait for it, polling, within the same bound.
    let started = Instant::now();
    let mapped = loop {
        gpu.check()?;
        match receiver.recv_timeout(Duration::from_millis(10)) {
            Ok(mapped) => break mapped,
            Err(mpsc::RecvTimeoutError::Timeout) if started.elapsed() < DISPATCH_TIMEOUT => {
                device
                    .poll(wgpu::PollType::Poll)
                    .map_err(|error| failed(format!("a dispatch did not finish: {error}")))?;
            }
            Err(_) => return Err(failed("the counts were never read back".into())),
        }
    };
    mapped.map_err(|error| failed(format!("cannot read the counts back: {error}")))?;
    let counts = {
        let view = readback
            .slice(..)
            .get_mapped_range()
            .map_err(|error| failed(format!("cannot read the counts back: {error}")))?;
        bytemuck::cast_slice::<u8, [u32; 4]>(&view).to_vec()
    };
    readback.unmap();
    Ok(counts)
}

fn binding(index: u32, resource: wgpu::BindingResource<'_>) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding: index,
        resource,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::gpu;
    use crate::units::order;
    use queens_constellations::constellation::Constellation;

    /// The kernel's slices of a long task list, dispatched one after the
    /// other, give what one dispatch gives: no task lost, none counted twice.
    #[test]
    fn many_small_dispatches_count_what_one_does() {
        if queens_conformance::without_its_device(&crate::GPU_CONSTELLATIONS) {
            return;
        }
        let n = 11;
        let all: Vec<Constellation> = order(n)
            .units
            .iter()
            .map(|u| Constellation::from_key(u.key))
            .collect();
        let expansion = Expansion::new(n, &all, 16);
        let small = 256;
        assert!(expansion.tasks.len() > 3 * small, "several dispatches");
        let full = u32::MAX >> (32 - n);
        let gpu = gpu().unwrap();
        let whole = expansion.tasks.len().next_multiple_of(8);
        let one = count_in_chunks(gpu, full, &expansion, whole).unwrap();
        assert_eq!(count_in_chunks(gpu, full, &expansion, small).unwrap(), one);
        let solutions: u64 = one
            .iter()
            .zip(&all)
            .map(|(&(found, _), c)| found * c.orbit_size(n))
            .sum();
        assert_eq!(Some(solutions), queens_core::oeis::total(n));
    }
}
