//! `queens list`: what is registered, with its limits.

use crate::error::CliError;
use crate::registry::SOLVERS;

pub fn run() -> Result<(), CliError> {
    let id_width = SOLVERS
        .iter()
        .map(|s| s.info().id.len())
        .max()
        .unwrap_or(2)
        .max(2);
    println!(
        "{:id_width$}  {:>5}  {:5}  idea / seed",
        "id", "max n", "lists"
    );
    for solver in SOLVERS {
        let info = solver.info();
        let lists = if info.enumerates { "yes" } else { "count" };
        println!(
            "{:id_width$}  {:>5}  {:5}  {}",
            info.id, info.max_n, lists, info.idea
        );
        println!("{:id_width$}  {:>5}  {:5}  seed: {}", "", "", "", info.seed);
        println!(
            "{:id_width$}  {:>5}  {:5}  limit: n <= {} {}",
            "", "", "", info.max_n, info.limit_reason
        );
    }
    Ok(())
}
