//! `queens tree N`: the tree each solver walks, measured the same way for
//! all of them: how many safe boards its search reaches with 0, 1, ..., n
//! queens. Solvers with the same profile walk the same tree, whatever a node
//! costs them; the others search something else (permutations, units,
//! halves) and say so.

use std::fmt::Write as _;

use crate::args::number;
use crate::budget::{self, Growth, TimeBar};
use queens_report::terminal::{Align, Column, Table, Width};

use crate::error::{CliError, print};
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
    let mut text = format!("safe boards reached with k queens on the {n}x{n} board\n");
    // The ids' column is at least 6 wide, the sums' flush left.
    let mut columns = vec![Column::fixed("k =   ", Align::Left)];
    columns.extend((0..=n).map(|k| Column::fixed(&k.to_string(), Align::Right)));
    columns.push(Column::fixed("total", Align::Left));
    let mut table = Table::new(columns);
    for (id, profile) in &rows {
        let mut cells = vec![id.to_string()];
        cells.extend((0..=n).map(|k| profile.get(k).copied().unwrap_or(0).to_string()));
        cells.push(profile.iter().sum::<u64>().to_string());
        table.row(cells);
    }
    if rows.is_empty() {
        // No row to size the columns: the titles alone, as wide as they are.
        let ks: String = (0..=n).map(|k| format!("  {k}")).collect();
        let _ = writeln!(text, "k =   {ks}  total");
    }
    text.push_str(&table.render(Width::Unlimited));
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
    print(&text)
}
