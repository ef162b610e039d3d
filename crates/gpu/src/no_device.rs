//! The device half of a build without the `device` feature: no wgpu, so
//! no GPU. [`gpu`] refuses in one line, saying how to build a `queens` that
//! has one; [`Gpu`] has no values, so the code that would use a device
//! type-checks and can never run.

use queens_core::{Accelerator, QueensError};

use crate::refusal::unavailable;
use crate::tasks::Expansion;

/// A device: none can exist in this build.
pub(crate) enum Gpu {}

/// The refusal: this build has no GPU backend.
pub(crate) fn gpu() -> Result<&'static Gpu, QueensError> {
    Err(unavailable(
        "this build has no GPU backend: build queens with `--features gpu` \
         (cargo run --release --features gpu -- ...)"
            .into(),
    ))
}

impl Gpu {
    /// The device, as records name it.
    pub(crate) fn accelerator(&self) -> Accelerator {
        match *self {}
    }
}

/// The counts of an expansion's tasks: never reached, there is no device.
pub(crate) fn count(
    gpu: &Gpu,
    _full: u32,
    _expansion: &Expansion,
) -> Result<Vec<(u64, u64)>, QueensError> {
    match *gpu {}
}
