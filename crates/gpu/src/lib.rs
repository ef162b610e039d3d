#![doc = include_str!("../README.md")]

// The device half (wgpu and its shader compiler, the largest part of the
// workspace's build) is the `device` feature, which `queens`'s `gpu`
// feature turns on. Without it the engine is still registered, documented
// and planned, and refuses to count in one line, as on a machine with no
// adapter: the same type stands in, uninhabited, so no path can reach a
// device that is not there.
#[cfg(feature = "device")]
mod device;
#[cfg(not(feature = "device"))]
#[path = "no_device.rs"]
mod device;
#[cfg(feature = "device")]
mod dispatch;
mod refusal;
pub mod tasks;
pub mod units;

use queens_constellations::constellation::Constellation;
use queens_constellations::interior::{MAX_N, Mask};
use queens_constellations::{Constellations, count_constellation};
use queens_core::split::{Plan, SplitEngine, SplitSolver, UnitCount, WorkUnit};
use queens_core::trace::TraceSink;
use queens_core::{Accelerator, QueensError, SearchStats, SolverInfo};

#[cfg(not(feature = "device"))]
use device::count;
#[cfg(feature = "device")]
use dispatch::count;
#[cfg(feature = "device")]
pub use dispatch::{DISPATCH_TIMEOUT, TASKS_PER_DISPATCH};
use refusal::{ID, overflow, unavailable};
use tasks::Expansion;
use units::Run;

/// The GPU engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct GpuConstellations;

/// The engine as the harness runs it: a [`queens_core::Solver`] that
/// splits its count into units and counts each on the GPU.
pub static GPU_CONSTELLATIONS: SplitSolver<GpuConstellations> = SplitSolver(GpuConstellations);

pub static INFO: SolverInfo = SolverInfo {
    id: ID,
    seed: "none (our own): constellations' border pre-placements, their interiors counted by a GPU kernel",
    idea: "constellations' plan on the host; a WGSL compute kernel (wgpu: Vulkan, Metal, DX12) searches the interiors, one invocation per pre-placed start",
    node: "as constellations counts them: a queen placed on an interior row (the last row's counted, not placed), plus each border pre-placement looked at while planning",
    max_n: queens_constellations::interior::MAX_N,
    limit_reason: "on a u32 mask: one bit per file, in the kernel as on the host",
    enumerates: false,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

/// Names the partition into units (see [`queens_core::split::WorkSplit::version`]).
pub const SPLIT_VERSION: &str = "gpu-constellations/1";

/// Starting points each unit is expanded to, about: several waves of a
/// large GPU, so that a long task has company while it runs.
pub const TASKS_PER_UNIT: usize = 1 << 18;

impl SplitEngine for GpuConstellations {
    const INFO: &'static SolverInfo = &INFO;
    const SPLIT_VERSION: &'static str = SPLIT_VERSION;

    fn plan(&self, n: usize) -> Plan {
        units::plan(n)
    }

    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> Result<UnitCount, QueensError> {
        let gpu = device::gpu()?;
        let order = units::order(n);
        let constellations = Run::from_key(unit.key)
            .constellations(&order)
            .ok_or_else(|| unavailable(format!("unit {:#x} is not a unit of n = {n}", unit.key)))?;
        // Burnside's fixed pairs need the boards of a constellation that a
        // symmetry maps to itself; the kernel only counts. Those few
        // constellations (a 180° or 90° turn fixes them) are counted on
        // the host when classes are asked for; all others, always on the GPU.
        let (host, device): (Vec<Constellation>, Vec<Constellation>) = constellations
            .into_iter()
            .partition(|c| unique && c.orbit_size(n) < 8);
        let mut total = UnitCount::default();
        for constellation in host {
            total = add(total, count_constellation(n, constellation, true))?;
        }
        let per = TASKS_PER_UNIT.div_ceil(device.len().max(1));
        let expansion = Expansion::new(n, &device, per);
        let full = Mask::MAX >> (MAX_N - n);
        let counted = count(gpu, full, &expansion)?;
        for (constellation, (solutions, nodes)) in device.iter().zip(counted) {
            let orbit = constellation.orbit_size(n);
            let solutions = orbit.checked_mul(solutions).ok_or_else(overflow)?;
            let count = UnitCount {
                solutions,
                // No symmetry fixes these constellations, so none fixes a
                // solution: each pairs with the identity only.
                fixed_pairs: if unique { solutions } else { 0 },
                nodes,
                pair_tests: 0,
            };
            total = add(total, count)?;
        }
        Ok(total)
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> SearchStats {
        // The kernel walks constellations' interior search, invocation by
        // invocation: the walkthrough shows that search on the host.
        Constellations.trace(n, sink)
    }

    fn accelerator(&self) -> Result<Option<Accelerator>, QueensError> {
        device::gpu().map(|gpu| Some(gpu.accelerator()))
    }

    fn peak_bytes(&self, n: usize, question: queens_core::memory::Question) -> u64 {
        host_peak_bytes(n, question)
    }
}

/// What the host holds for the device besides the engine's own buffers:
/// the adapter, its device and queue, the compiled kernel and the staging
/// buffers a dispatch maps for its results (the driver's, not counted by
/// the engine). Not measured here (the machines the tests run on have no
/// adapter); a generous allowance.
const DEVICE_HOST_BYTES: u64 = 64 << 20;

/// An upper bound on the host's heap for one unit of the n×n board
/// (`Solver::peak_bytes`): constellations' plan (made once and kept as
/// the order of units), one unit's constellations (listed, then split
/// between host and device), and its expansion: each constellation's rows
/// ([`tasks::ROWS`] of them) and its tasks. A constellation's expansion
/// stops at its share of [`TASKS_PER_UNIT`] but may overshoot it by one
/// level (at most n children per task), so a unit's tasks are at most
/// n · ([`TASKS_PER_UNIT`] + its constellations); each task is also
/// copied for the upload and has its result read back (four `u32`s), and
/// every vector counts twice its length (grown by doubling). The
/// walkthrough is constellations' own. An upper bound, loose on small
/// boards, whose interiors are too shallow to expand that far.
fn host_peak_bytes(n: usize, question: queens_core::memory::Question) -> u64 {
    let plan = queens_core::Solver::peak_bytes(&queens_constellations::CONSTELLATIONS, n, question);
    if question != queens_core::memory::Question::Count {
        return plan;
    }
    // More than the plan's units (a unit takes more bytes of the plan's
    // declaration than a `WorkUnit`): a bound on a unit's constellations.
    let plan_units = plan / size_of::<WorkUnit>() as u64;
    let constellations = 3 * 2 * plan_units * size_of::<Constellation>() as u64;
    let rows = 2 * plan_units * (tasks::ROWS * size_of::<tasks::Row>()) as u64;
    let tasks = 2
        * (n as u64)
        * (TASKS_PER_UNIT as u64 + plan_units)
        * (2 * size_of::<tasks::Task>() as u64 + 16);
    plan + constellations + rows + tasks + DEVICE_HOST_BYTES
}

fn add(total: UnitCount, count: UnitCount) -> Result<UnitCount, QueensError> {
    total.checked_add(count).ok_or_else(overflow)
}
