//! One module per chore: its arguments (`Args`) and its `run`.

pub mod architecture;
pub mod browser_test;
pub mod build_time;
pub mod ci;
pub mod estimate_coverage;
pub mod estimates;
pub mod instructions;
pub mod parallel_local;
pub mod scaling;
pub mod slurm_e2e;
pub mod slurm_one_node;
pub mod vs_quadrant;
