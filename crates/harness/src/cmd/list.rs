//! `queens list`: what is registered, with its limits.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::error::{CliError, output};
use crate::registry::SOLVERS;

/// `queens list` takes no arguments.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Prints the registry, one block per solver.
pub fn run(_: &Args) -> Result<(), CliError> {
    let id_width = SOLVERS
        .iter()
        .map(|s| s.info().id.len())
        .max()
        .unwrap_or(2)
        .max(2);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:id_width$}  {:>5}  {:5}  idea / seed",
        "id", "max n", "lists"
    );
    for solver in SOLVERS {
        let info = solver.info();
        let lists = if info.enumerates { "yes" } else { "count" };
        let _ = writeln!(
            text,
            "{:id_width$}  {:>5}  {:5}  {}",
            info.id, info.max_n, lists, info.idea
        );
        let _ = writeln!(
            text,
            "{:id_width$}  {:>5}  {:5}  seed: {}",
            "", "", "", info.seed
        );
        let _ = writeln!(
            text,
            "{:id_width$}  {:>5}  {:5}  limit: n <= {} {}",
            "", "", "", info.max_n, info.limit_reason
        );
        let device = match solver.accelerator() {
            Ok(None) => continue,
            Ok(Some(device)) => format!("device: {device}"),
            Err(missing) => format!("unavailable: {missing}"),
        };
        let _ = writeln!(text, "{:id_width$}  {:>5}  {:5}  {device}", "", "", "");
    }
    let mut out = io::stdout().lock();
    output(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}
