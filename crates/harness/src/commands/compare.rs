//! `queens compare`: the quick side-by-side. Cross-validates the solvers
//! (the checks of `queens verify`), then times each over n = 4..=N with
//! `measure::climb::time_within_budget`, prints the table and writes a
//! record to `--out`.

use std::path::PathBuf;
use std::time::Duration;

use crate::measure::{self, climb};
use crate::record::{self, Entry, Provenance, Record, Settings, SolverFacts, Status};
use crate::report::format::{bytes, duration_ns, significant, thousands};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens_core::{CountOptions, Solver};

use crate::cli::parse_n;
use crate::commands::verify;
use crate::error::CliError;
use crate::registry;

/// The smallest n timed: below 4 the counts are 1, 0, 0 and every solver is
/// all fixed cost.
const MIN_N: usize = 4;
/// Cross-validation lists and compares every board, so it stops here even
/// when timing goes higher (the timed runs check their counts anyway).
const CROSS_VALIDATE_MAX_N: usize = 10;

#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct CompareArgs {
    /// Time n = 4 up to this (each solver also stops at its own limit or budget).
    #[arg(long, default_value_t = 15, value_parser = parse_n)]
    pub max_n: usize,
    /// Solvers to compare (repeatable); default: all.
    #[arg(long = "solver")]
    pub solvers: Vec<String>,
    /// Seconds each solver may spend in all; it stops climbing n when the next
    /// run would not fit.
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    pub budget: f64,
    /// Directory the record is written to (a new file; nothing is overwritten).
    #[arg(long, default_value = "bench-results")]
    pub out: PathBuf,
}

pub fn run(args: &CompareArgs) -> Result<(), CliError> {
    if args.max_n < MIN_N {
        return Err(CliError::Usage(format!(
            "--max-n must be at least {MIN_N}, got {}",
            args.max_n
        )));
    }
    let solvers = registry::select(&args.solvers)?;
    let checked =
        verify::cross_validate(&solvers, args.max_n.min(CROSS_VALIDATE_MAX_N), &mut |_| {})?;
    println!(
        "cross-validated: {checked} (solver, n) pairs for n <= {} agree with the checker, each other and OEIS",
        args.max_n.min(CROSS_VALIDATE_MAX_N)
    );

    let options = CountOptions::default();
    let budget = Duration::from_secs_f64(args.budget);
    let progress = progress_bar(&solvers, args.max_n);
    let mut entries: Vec<Entry> = Vec::new();
    for &solver in &solvers {
        let id = solver.info().id;
        let range = climb::n_range(solver, MIN_N, args.max_n);
        progress.set_message(id);
        let mut settled = 0u64;
        entries.extend(climb::time_within_budget(
            solver,
            (MIN_N, args.max_n),
            budget,
            &options,
            measure::published_count,
            |n| {
                settled += 1;
                progress.set_message(format!("{id} n={n}"));
                progress.inc(1);
            },
        ));
        // A solver that stopped early leaves its remaining n unvisited.
        progress.inc((range.count() as u64).saturating_sub(settled));
    }
    progress.finish_and_clear();

    print_table(&entries, args.max_n);
    let record = Record::new(
        Provenance::collect(command_line()),
        Settings {
            tool: "queens compare".to_string(),
            threads: options.threads,
            min_n: MIN_N,
            max_n: Some(args.max_n),
            max_run_seconds: None,
            budget_seconds: Some(args.budget),
        },
        solvers.iter().map(|s| SolverFacts::of(s.info())).collect(),
        entries,
    );
    let path = record::write_new(&args.out, "compare", &record).map_err(CliError::Io)?;
    println!("record: {}", path.display());
    if record.entries.iter().any(|e| e.status == Status::Error) {
        return Err(CliError::Verification(
            "some counts were wrong or failed (error entries above); they were not timed"
                .to_string(),
        ));
    }
    Ok(())
}

/// A bar on stderr, drawn only when stderr is a terminal.
fn progress_bar(solvers: &[&'static dyn Solver], max_n: usize) -> ProgressBar {
    let total: usize = solvers
        .iter()
        .map(|&s| climb::n_range(s, MIN_N, max_n).count())
        .sum();
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} {msg}")
            .expect("a fixed template")
            .progress_chars("=> "),
    );
    bar
}

fn print_table(entries: &[Entry], max_n: usize) {
    println!(
        "{:>3}  {:22}  {:>14}  {:>16}  {:>10}  {:>9}  {:>9}  {:>10}",
        "n", "solver", "solutions", "nodes", "median", "×fastest", "ns/node", "peak heap"
    );
    for n in MIN_N..=max_n {
        let at_n: Vec<&Entry> = entries.iter().filter(|e| e.n == n).collect();
        let fastest = at_n
            .iter()
            .filter_map(|e| e.timing.map(|t| t.median_ns))
            .min_by(f64::total_cmp);
        for entry in at_n {
            let optional = |value: Option<String>| value.unwrap_or_else(|| "-".into());
            let (median, ratio, note) = match (entry.timing, entry.status) {
                (Some(timing), Status::Timed) => (
                    duration_ns(timing.median_ns),
                    fastest.map_or("-".into(), |f| {
                        format!("{}×", significant(timing.median_ns / f))
                    }),
                    String::new(),
                ),
                (_, Status::OverBudget) => ("-".into(), "-".into(), "over budget".to_string()),
                _ => (
                    "-".into(),
                    "-".into(),
                    format!("ERROR: {}", entry.error.as_deref().unwrap_or("")),
                ),
            };
            println!(
                "{:>3}  {:22}  {:>14}  {:>16}  {:>10}  {:>9}  {:>9}  {:>10}  {note}",
                n,
                entry.solver,
                optional(entry.solutions.map(thousands)),
                optional(entry.nodes.map(thousands)),
                median,
                ratio,
                optional(entry.ns_per_node.map(significant)),
                optional(entry.peak_heap_bytes.map(bytes)),
            );
        }
    }
}

/// The command as typed, for the record's provenance.
fn command_line() -> String {
    std::iter::once("queens".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// --budget: a positive number of seconds.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0 => Ok(seconds),
        Ok(_) => Err(format!(
            "--budget must be a number of seconds in (0, 86400], got {text}"
        )),
        Err(_) => Err(format!(
            "--budget must be a number of seconds, got '{text}'"
        )),
    }
}
