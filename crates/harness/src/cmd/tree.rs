//! `queens tree N`: the tree each solver walks, measured the same way for
//! all of them: how many safe boards its search reaches with 0, 1, ..., n
//! queens. Solvers with the same profile walk the same tree, whatever a node
//! costs them; the others search something else (permutations, units,
//! halves) and say so.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::args::number;
use crate::budget::{self, Growth, TimeBar};
use crate::error::{CliError, output};
use crate::{memory, registry};

/// The largest board `tree` measures: the depth-first searches it runs
/// take seconds at n = 13 already, and the slowest far longer (the time
/// budget asks for `--long` then).
const MAX_TREE_N: usize = 14;

/// `queens tree`'s arguments.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// Board size (n queens on an n×n board).
    #[arg(value_parser = number("n", 1..=MAX_TREE_N, "every depth-first search is run in full"))]
    pub n: usize,
    /// Solvers to measure (repeatable); default: all.
    #[arg(long = "solver")]
    pub solvers: Vec<String>,
    /// Run even if predicted to take more than ten minutes.
    #[arg(long)]
    pub long: bool,
}

/// Measures and prints the profiles.
pub fn run(args: &Args) -> Result<(), CliError> {
    let n = args.n;
    let solvers = registry::select(&args.solvers)?;
    let solvers: Vec<_> = solvers
        .into_iter()
        .filter(|s| s.info().supports(n))
        .collect();
    // The profile is the solver's own search, counting: its memory is
    // checked before anything runs.
    for &solver in &solvers {
        memory::check(solver, n, queens_core::memory::Question::Count, 1)?;
    }
    // Each solver's walk timed at growing n, to predict the one asked for.
    let mut predicted = Vec::new();
    for &solver in &solvers {
        let growth = Growth::calibrate(n, |k| solver.tree_profile(k).map(drop))?;
        predicted.push(growth.predict(n));
    }
    let total: f64 = predicted.iter().sum();
    budget::allow(
        &format!("tree {n}"),
        total,
        "each solver's walk timed at smaller n",
        args.long,
    )?;
    let bar = TimeBar::start(total);
    let mut left = total;
    let mut rows = Vec::new();
    let mut others = Vec::new();
    for (solver, predicted) in solvers.into_iter().zip(predicted) {
        let info = solver.info();
        match solver.tree_profile(n)? {
            Some(profile) => rows.push((info.id, profile)),
            None => others.push(info.id),
        }
        left -= predicted;
        bar.left(left.max(0.0));
    }
    drop(bar);
    let id_width = rows
        .iter()
        .map(|(id, _)| id.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let widths: Vec<usize> = (0..=n)
        .map(|k| {
            rows.iter()
                .map(|(_, p)| p.get(k).copied().unwrap_or(0).to_string().len())
                .max()
                .unwrap_or(1)
                .max(k.to_string().len())
        })
        .collect();
    let mut text = format!("safe boards reached with k queens on the {n}x{n} board\n");
    let _ = write!(text, "{:id_width$}", "k =");
    for (k, width) in widths.iter().enumerate() {
        let _ = write!(text, "  {k:>width$}");
    }
    text.push_str("  total\n");
    for (id, profile) in &rows {
        let _ = write!(text, "{id:id_width$}");
        for (k, width) in widths.iter().enumerate() {
            let _ = write!(text, "  {:>width$}", profile.get(k).copied().unwrap_or(0));
        }
        let _ = writeln!(text, "  {}", profile.iter().sum::<u64>());
    }
    // Solvers with equal profiles walk one tree: group them, in the order
    // the registry lists them.
    let mut groups: Vec<(&Vec<u64>, Vec<&str>)> = Vec::new();
    for (id, profile) in &rows {
        match groups.iter_mut().find(|(p, _)| *p == profile) {
            Some((_, ids)) => ids.push(id),
            None => groups.push((profile, vec![id])),
        }
    }
    if groups.len() > 1 || rows.len() > 1 {
        for (profile, ids) in &groups {
            let total: u64 = profile.iter().sum();
            let walk = if ids.len() == 1 { "walks" } else { "walk" };
            let _ = writeln!(
                text,
                "one tree of {total} safe boards: {} {walk} it",
                ids.join(", ")
            );
        }
    }
    if !others.is_empty() {
        let _ = writeln!(
            text,
            "not a tree of safe boards (they search permutations, units or halves): {}",
            others.join(", ")
        );
    }
    let mut out = io::stdout().lock();
    output(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}
