//! The record of one measuring run (`cargo bench` or `queens compare`): what
//! was measured, on what, by which command. The format is documented for
//! readers in `bench-results/FORMAT.md`; [`SCHEMA_VERSION`] changes whenever
//! a field changes meaning, and a reader refuses any other version rather
//! than guess.

#[cfg(test)]
pub(crate) mod fixtures;
mod latest;
pub mod meaning;
mod provenance;
mod schema;
mod store;

pub use latest::{Measured, Newest, newest_measurements};
pub use provenance::{Provenance, utc_timestamp};
pub use schema::{
    COUNT, Entry, Record, SCHEMA, SCHEMA_VERSION, Settings, SolverFacts, Status, Timing,
};
pub use store::{newest, prepare_dir, read, write_new};
