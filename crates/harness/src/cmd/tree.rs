//! `queens tree N`: the tree each solver walks, measured the same way for
//! all of them: how many safe boards its search reaches with 0, 1, ..., n
//! queens. Solvers with the same profile walk the same tree, whatever a node
//! costs them; the others search something else (permutations, units,
//! halves) and say so. With `--probes`, Knuth's random-probe estimate of
//! three-mask's tree beside its exact profile (or alone, past the boards
//! walked in full).

use std::fmt::Write as _;

use crate::args::number;
use crate::budget::{self, Growth, TimeBar};
use queens_report::terminal::{Align, Column, Table, Width};

use crate::error::{CliError, print};
use crate::{memory, registry};
use queens_core::{Solver as _, counted};
use queens_three_mask::probe;

/// The largest board `tree` measures: the depth-first searches it runs
/// take seconds at n = 13 already, and the slowest far longer (the time
/// budget asks for `--long` then).
const MAX_TREE_N: usize = 14;

/// The most probes one estimate takes: a million paths already pin the
/// 8-queens total to a few hundredths of a percent, and take seconds.
const MAX_PROBES: u64 = 1_000_000;

/// `queens tree`'s arguments.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// Board size (n queens on an n×n board).
    #[arg(value_parser = number("n", 1..=32usize, "three-mask's masks have 32 bits"))]
    pub n: usize,
    /// Solvers to measure (repeatable); default: all.
    #[arg(long = "solver")]
    pub solvers: Vec<String>,
    /// Run even if predicted to take more than ten minutes.
    #[arg(long)]
    pub long: bool,
    /// Estimate three-mask's tree by this many random probes (Knuth).
    #[arg(long, value_parser = number("--probes", 1..=MAX_PROBES, ""))]
    pub probes: Option<u64>,
    /// The probes' random seed (with --probes).
    #[arg(long, default_value_t = 1, requires = "probes", value_parser = number("--seed", 0..=u64::MAX, ""))]
    pub seed: u64,
}

/// Measures and prints the profiles.
pub fn run(args: &Args) -> Result<(), CliError> {
    let n = args.n;
    if let Some(probes) = args.probes {
        return estimate(n, probes, args.seed);
    }
    if n > MAX_TREE_N {
        return Err(CliError::Input(format!(
            "n is at most {MAX_TREE_N} (every depth-first search is run in full; --probes estimates larger trees), got {n}"
        )));
    }
    let mut solvers = registry::select(&args.solvers)?;
    solvers.retain(|s| s.info().supports(n));
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

/// Knuth's estimate of three-mask's tree, beside its exact profile where
/// the tree is walked in full.
fn estimate(n: usize, probes: u64, seed: u64) -> Result<(), CliError> {
    let mut random = queens_min_conflicts::SplitMix64::new(seed);
    let guess = probe::estimate(n, probes, &mut |d| random.below(d as usize) as u32);
    let walked = (n <= MAX_TREE_N).then(|| queens_three_mask::ThreeMask.tree_profile(n));
    let exact = walked.transpose()?.flatten();
    let mut text = format!(
        "Knuth's estimate of three-mask's tree on the {n}x{n} board: {} (seed {seed})\n",
        counted(probes, "random probe", "random probes")
    );
    let error = |guess: f64, exact: u64| match exact {
        0 => "-".to_string(),
        x => format!("{:+.1}%", 100.0 * (guess - x as f64) / x as f64),
    };
    let titles: &[&str] = if exact.is_some() {
        &["k", "exact", "estimate", "error"]
    } else {
        &["k", "estimate"]
    };
    let mut columns = vec![Column::fixed(titles[0], Align::Left)];
    columns.extend(titles[1..].iter().map(|t| Column::fixed(t, Align::Right)));
    let mut table = Table::new(columns);
    // (label, estimate, exact) per level, then the totals.
    let exact_at = |k: usize| exact.as_ref().map(|e| e.get(k).copied().unwrap_or(0));
    let total = exact.as_ref().map(|e| e.iter().sum::<u64>());
    let levels = guess.levels.iter().enumerate();
    let lines = levels.map(|(k, &g)| (k.to_string(), g, exact_at(k)));
    for (label, g, x) in lines.chain([("total".to_string(), guess.total, total)]) {
        table.row(match x {
            Some(x) => vec![label, x.to_string(), format!("{g:.1}"), error(g, x)],
            None => vec![label, format!("{g:.1}")],
        });
    }
    text.push_str(&table.render(Width::Unlimited));
    if exact.is_none() {
        let _ = writeln!(
            text,
            "the estimate alone: no exact walk past n = {MAX_TREE_N}"
        );
    }
    let _ = writeln!(
        text,
        "spread: the total's standard error over the probes is {:.1} ({:.1}% of the estimate)",
        guess.spread,
        100.0 * guess.spread / guess.total.max(1.0)
    );
    print(&text)
}
