//! How the engine refuses: one line naming it and the reason, whether the
//! build has no device half, the machine no adapter, or the device failed.

use queens_core::QueensError;

/// The engine's id (its `SolverInfo::id`), which names it in refusals.
pub(crate) const ID: &str = "gpu-constellations";

/// The engine's refusal, with `reason`.
pub(crate) fn unavailable(reason: String) -> QueensError {
    QueensError::Unavailable { solver: ID, reason }
}

/// A sum of counts that does not fit 64 bits: Q(32)'s nodes would not
/// come near, so only a broken device can produce one.
pub(crate) fn overflow() -> QueensError {
    unavailable("a sum of the GPU's counts overflowed u64: the device returned garbage".into())
}
