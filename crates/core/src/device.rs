//! Where a solver counts when it is not on the host's CPU cores: the
//! accelerator it found, named as precisely as its driver allows, so that
//! a record of its timings says what they were measured on.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The device a solver counts on (see [`crate::Solver::accelerator`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Accelerator {
    /// The adapter's name as its driver reports it, e.g. `NVIDIA H200`.
    pub name: String,
    /// The driver and its version, as reported (may be empty).
    pub driver: String,
    /// The graphics API it is reached through, e.g. `Vulkan`.
    pub backend: String,
    /// A software implementation running on the CPU (Mesa's lavapipe,
    /// WARP, SwiftShader): its counts are exact, but its timings are of an
    /// emulation on the host's cores, never of a GPU, and are not to be
    /// compared with the CPU solvers' as if they were.
    pub software: bool,
}

impl fmt::Display for Accelerator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}", self.name, self.backend)?;
        if !self.driver.is_empty() {
            write!(f, ", driver {}", self.driver)?;
        }
        if self.software {
            write!(f, ", a software driver on the CPU")?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_software_driver_says_so() {
        let mut device = Accelerator {
            name: "llvmpipe".into(),
            driver: "Mesa 22.3.6".into(),
            backend: "Vulkan".into(),
            software: true,
        };
        assert_eq!(
            device.to_string(),
            "llvmpipe (Vulkan, driver Mesa 22.3.6, a software driver on the CPU)"
        );
        device.software = false;
        device.driver.clear();
        assert_eq!(device.to_string(), "llvmpipe (Vulkan)");
    }
}
