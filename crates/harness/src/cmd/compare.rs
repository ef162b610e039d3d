//! `queens compare`: the quick side-by-side. The run itself is
//! [`queens_measure::compare`] (cross-validate, then time each solver
//! over n = 4..=N within its budget, then each finder finding one board
//! within its own); this command draws the progress, prints the two tables
//! and writes the record to `--out`.

use itertools::Itertools;
use std::io::{self, Write};
use std::iter;
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget};
use queens_core::{oeis, printable, printable_path};
use queens_measure::compare::{self, Event, MIN_N, Plan};
use queens_record::{
    COUNT, Entry, FIND_ONE, Question, SolverFacts, Status, prepare_dir, write_new,
};
use queens_report::format::{bytes, duration_ns, significant, thousands};
use queens_report::terminal::{Align, Column, Table, Width, wrap_lines};

use crate::args::number;
use crate::budget;
use crate::error::{CliError, print};
use crate::interruption;
use crate::memory;
use crate::registry;

/// `queens compare`'s arguments.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// Time n = 4 up to this (each solver also stops at its own limit or budget).
    #[arg(long, default_value_t = 15, value_parser = number("--max-n", MIN_N..=oeis::MAX_KNOWN_N, "the largest n with a published count to check against"))]
    pub max_n: usize,
    /// Solvers to compare (repeatable); default: all.
    #[arg(long = "solver")]
    pub solvers: Vec<String>,
    /// Seconds each solver may spend in all; it stops climbing n when the next
    /// run would not fit.
    #[arg(long, default_value_t = 10.0, value_parser = number("--budget", 0.001..=86_400.0, "a day"))]
    pub budget: f64,
    /// Finders to time finding one board (repeatable), or `none`; default:
    /// all, or none when solvers are named with --solver. Each climbs n = 8
    /// then powers of ten (or even n to 32 for a search), its board checked
    /// before it is timed.
    #[arg(long = "finder")]
    pub finders: Vec<String>,
    /// Seconds each finder may spend in all.
    #[arg(long, default_value_t = 2.0, value_parser = number("--find-budget", 0.001..=86_400.0, "a day"))]
    pub find_budget: f64,
    /// Directory the record is written to (a new file; nothing is
    /// overwritten). The default is git-ignored, so that a run leaves the
    /// checkout clean: the committed reports are made from `scripts/bench`'s
    /// records in bench-results/, never from a quick compare's.
    #[arg(long, default_value = queens_record::LOCAL_RECORDS_DIR)]
    pub out: PathBuf,
    /// Climb on to an n whose runs (its checking run and the cold rounds
    /// after it) are predicted to take longer than ten minutes; without
    /// it, a climb stops there with a row that says so.
    #[arg(long)]
    pub long: bool,
    /// Print every table row and note on one line, however long, instead
    /// of fitting 100 columns.
    #[arg(long)]
    pub wide: bool,
    /// A config of programs outside the workspace (TOML; see
    /// examples/external/README.md) to compare beside the solvers: each
    /// built once, its answers checked against OEIS before it is timed,
    /// timed whole (start-up included), killed at --budget. --solver may
    /// name them; without that, all of them run.
    #[arg(long, value_name = "FILE")]
    pub external: Option<PathBuf>,
}

/// Why a climb stops before n although its budget would allow it: the
/// (solver or finder, n) would not fit the memory budget (`refusal`), or
/// its runs, checking run and cold rounds, are predicted to take past
/// [`budget::THRESHOLD`] and `--long` was not given. The climb's own
/// growth predicts the runs (the last two checking runs' ratio); with a
/// `--budget` of minutes a step can still be hours, and a climb should
/// say so rather than sit in it.
fn stop_before(refusal: Option<String>, predicted: Option<Duration>, long: bool) -> Option<String> {
    let refusal = refusal.or_else(|| {
        let what = "its checking run and cold rounds";
        let basis = "the growth of its last two checking runs";
        let seconds = predicted?.as_secs_f64();
        budget::allow(what, seconds, basis, long)
            .err()
            .map(|e| e.to_string())
    });
    refusal.map(|line| format!("not run: {line}"))
}

/// Compares, prints the table and writes the record.
pub fn run(args: &Args) -> Result<(), CliError> {
    let (selected, specs) = registry::select_with(&args.solvers, args.external.as_deref())?;
    // Naming solvers narrows the run to them, unless finders are named too.
    let finders = if args.finders.is_empty() && !args.solvers.is_empty() {
        Vec::new()
    } else {
        registry::timed_finders(&args.finders)?
    };
    // Refuse an unusable --out now, not after minutes of measuring.
    prepare_dir(&args.out)?;
    let (solvers, notes) = registry::usable(selected, true);
    let limit = Duration::from_secs_f64(args.budget);
    let externals = registry::prepare_externals(args.external.as_deref(), specs, limit)?;
    if solvers.is_empty() && externals.is_empty() {
        // Every selected solver was left out for its device: say which and
        // why, not that none supports any n.
        let reasons = (notes.lines()).map(|line| {
            line.trim_start_matches("note: ")
                .trim_end_matches(" (skipped)")
        });
        return Err(CliError::Input(format!(
            "nothing to compare here: {}",
            reasons.format("; ")
        )));
    }
    // On stderr, drawn only when stderr is a terminal.
    let progress = budget::styled_bar(0, ProgressDrawTarget::stderr(), "{pos}/{len} {msg}");
    interruption::end_with(
        "interrupted while measuring: nothing recorded (a record holds a whole comparison; \
         --max-n or --budget make one shorter)",
    );
    let comparison = compare::run(
        &Plan {
            solvers: &solvers,
            max_n: args.max_n,
            budget: limit,
            finders: &finders,
            find_budget: Duration::from_secs_f64(args.find_budget),
            command: command_line(),
            admit_solver: &|solver, n, predicted| {
                let refusal =
                    memory::refusal(solver, n, queens_core::memory::Question::Count, 1, None);
                stop_before(refusal, predicted, args.long)
            },
            admit_finder: &|finder, n, predicted| {
                stop_before(memory::find_refusal(finder, n), predicted, args.long)
            },
            externals: &externals,
            admit_external: &|_, predicted| stop_before(None, predicted, args.long),
        },
        &mut |event| match event {
            Event::Step(step) => {
                progress.set_length(step.total as u64);
                progress.set_position(step.done as u64);
                progress.set_message(format!("{} n={}", step.solver, step.n));
            }
            event => say(&progress, &event_line(&event)),
        },
    )?;
    progress.finish_and_clear();

    // The record first: the measurements are kept even if stdout is gone
    // (`queens compare | head -1`) or full.
    interruption::end_with(
        "interrupted while writing the record: no record written (a file is written whole or not at all)",
    );
    let path = write_new(&args.out, "compare", &comparison.record)?;
    interruption::end_with(format!(
        "interrupted: the record is in {}",
        printable_path(&path)
    ));
    let width = Width::terminal(args.wide);
    let mut text = format!(
        "cross-validated: {} (solver, n) pairs for n <= {} agree with the checker, each other and OEIS\n",
        comparison.cross_validated, comparison.cross_validated_max_n
    );
    text.push_str(&table(&comparison.record.entries, width));
    text.push_str(&found_table(&comparison.record.entries, width));
    // Below the table it does not appear in: a solver left out, and why.
    text.push_str(&notes);
    text.push_str(&external_notes(&comparison.record.solvers));
    text.push_str(&format!("record: {}\n", printable_path(&path)));
    let text = wrap_lines(&text, width, NOTE_HANGING);
    print(&text)?;
    if comparison.has_errors() {
        return Err(CliError::Verification(
            "some counts or boards were wrong or failed (error entries above); they were not timed"
                .to_string(),
        ));
    }
    Ok(())
}

/// What each external's times include: the whole process, whose start-up
/// its time at the smallest n bounds.
fn external_notes(solvers: &[SolverFacts]) -> String {
    let mut notes = String::new();
    for solver in solvers {
        let Some(external) = &solver.external else {
            continue;
        };
        let bound = match (external.startup_ns, external.startup_n) {
            (Some(ns), Some(n)) => format!(
                ": its time at n = {n}, {}, bounds the start-up in each",
                duration_ns(ns as f64)
            ),
            _ => String::new(),
        };
        notes.push_str(&format!(
            "note: {} is an external program ({}), timed whole, start-up included{bound}\n",
            solver.id,
            printable(&external.config)
        ));
    }
    notes
}

/// Prose lines below the tables ("note: ...") continue this far in,
/// under the text after the label.
const NOTE_HANGING: usize = "note: ".len();

/// The note of a row: nothing for a timed one, why for the others.
fn note(entry: &Entry) -> String {
    match entry.status() {
        Status::Timed => String::new(),
        Status::OverBudget => stopped(entry),
        Status::Error => format!("ERROR: {}", printable(entry.error().unwrap_or(""))),
    }
}

/// The table: one row per (n, solver), ranked by the cold median (one run
/// between runs of other searches), the fastest at each n as 1×; the warm
/// median of repeated runs beside it. A row not timed says why after its
/// columns, or under the row where that would pass the width.
fn table(entries: &[Entry], width: Width) -> String {
    let fastest = |n: usize| {
        (of(entries, COUNT).into_iter().filter(|e| e.n == n))
            .filter_map(|e| e.cold_median_ns())
            .min_by(f64::total_cmp)
    };
    let titles = ["solver", "solutions", "nodes", "cold", "warm", "×fastest"];
    let titles = titles.into_iter().chain(["cold ns/node", "peak heap"]);
    let mut rows = of(entries, COUNT);
    rows.sort_by_key(|e| e.n);
    entry_table(rows, titles, width, |entry| {
        let (cold, ratio) = match (entry.cold_median_ns(), entry.status()) {
            (Some(cold), Status::Timed) => (
                duration_ns(cold),
                fastest(entry.n).map_or("-".into(), |f| format!("{}×", significant(cold / f))),
            ),
            _ => ("-".into(), "-".into()),
        };
        vec![
            entry.solutions.map_or("-".into(), thousands),
            entry.nodes.map_or("-".into(), thousands),
            cold,
            entry.warm_median_ns().map_or("-".into(), duration_ns),
            ratio,
            entry.cold_ns_per_node().map_or("-".into(), significant),
            entry.peak_heap_bytes.map_or("-".into(), bytes),
        ]
    })
}

/// The finders' table: one row per (finder, n), in the order timed, the
/// cold median time to one checked board and the steps it took.
fn found_table(entries: &[Entry], width: Width) -> String {
    let found = of(entries, FIND_ONE);
    if found.is_empty() {
        return String::new();
    }
    let titles = ["finder", "steps", "cold", "warm", "peak heap"].into_iter();
    let table = entry_table(found, titles, width, |entry| {
        vec![
            entry.nodes.map_or("-".into(), thousands),
            entry.cold_median_ns().map_or("-".into(), duration_ns),
            entry.warm_median_ns().map_or("-".into(), duration_ns),
            entry.peak_heap_bytes.map_or("-".into(), bytes),
        ]
    });
    format!("\nfind one board (each board checked before it was timed):\n{table}")
}

/// The entries that answer `question`, in the order run.
fn of(entries: &[Entry], question: Question) -> Vec<&Entry> {
    entries.iter().filter(|e| e.question == question).collect()
}

/// A row per entry of `rows`: its n (a finder's in the millions, with
/// thousands separated), its solver, the `cells` under `titles`, all
/// right-aligned but the solver's, and the row's note. Notes under a row
/// start under its solver, past the widest n.
fn entry_table<'a>(
    rows: Vec<&Entry>,
    titles: impl Iterator<Item = &'a str>,
    width: Width,
    cells: impl Fn(&Entry) -> Vec<String>,
) -> String {
    let write_n = |n: usize| thousands(n as u64);
    let widest = rows.iter().map(|e| write_n(e.n).len()).max().unwrap_or(0);
    let aligns = [Align::Right, Align::Left]
        .into_iter()
        .chain(iter::repeat(Align::Right));
    let columns = (iter::once("n").chain(titles).zip(aligns))
        .map(|(title, align)| Column::fixed(title, align))
        .collect();
    let mut table = Table::new(columns).indent_below(widest.max("n".len()) + 2);
    for entry in rows {
        let mut row = vec![write_n(entry.n), entry.solver.clone()];
        row.extend(cells(entry));
        table.row_with_note(row, note(entry));
    }
    table.render(width)
}

/// A line on stderr about how far the run has got: above the bar on a
/// terminal; alone off one, where the bar is hidden and these lines are
/// all that says the run is alive (stdout stays the tables).
fn say(bar: &ProgressBar, line: &str) {
    if bar.is_hidden() {
        // Progress only: a closed stderr must not stop the measuring.
        let _ = writeln!(io::stderr(), "{line}");
    } else {
        bar.println(line);
    }
}

/// The line that tells of one event of the run (a step moves the bar
/// instead).
fn event_line(event: &Event<'_>) -> String {
    match event {
        Event::CrossValidated {
            pairs,
            max_n,
            elapsed,
        } => format!(
            "cross-validated {pairs} (solver, n) pairs for n <= {max_n}, {}",
            seconds(*elapsed)
        ),
        Event::Climbed {
            subject,
            entries,
            elapsed,
        } => format!(
            "{subject}: {}, {}",
            climb_summary(entries),
            seconds(*elapsed)
        ),
        Event::ColdRounds { rounds } => format!(
            "cold rounds: every timed (solver, n) once a round between the others, {rounds} rounds"
        ),
        Event::Step(step) => format!("{} n = {}", step.solver, step.n),
    }
}

/// `9.8 s`: the progress lines' durations.
fn seconds(elapsed: Duration) -> String {
    format!("{:.1} s", elapsed.as_secs_f64())
}

/// What one climb did: `checked, timed n = 4..14 (stopped: over budget
/// at n = 15)`. Every timed n had its count (or board) checked first; an
/// error ends the climb and is named instead.
fn climb_summary(entries: &[Entry]) -> String {
    let timed: Vec<usize> = entries
        .iter()
        .filter(|e| e.status() == Status::Timed)
        .map(|e| e.n)
        .collect();
    let mut summary = if timed.is_empty() {
        "nothing timed".to_string()
    } else {
        format!("checked, timed n = {}", n_list(&timed))
    };
    if let Some(last) = entries.iter().find(|e| e.status() != Status::Timed) {
        let n = thousands(last.n as u64);
        summary.push_str(&match last.status() {
            Status::Error => format!(
                " (ERROR at n = {n}: {})",
                printable(last.error().unwrap_or(""))
            ),
            _ => match stopped(last).as_str() {
                "over budget" => format!(" (stopped: over budget at n = {n})"),
                why => format!(" (stopped at n = {n}: {why})"),
            },
        });
    }
    summary
}

/// `4..14` for consecutive n, `8..32, even` for even ones, or each n
/// (a finder's powers of ten).
fn n_list(ns: &[usize]) -> String {
    let steps: Vec<usize> = ns.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
    let (first, last) = (ns[0], ns[ns.len() - 1]);
    match steps.first() {
        Some(&step @ (1 | 2)) if steps.iter().all(|&s| s == step) => {
            let even = if step == 2 { ", even" } else { "" };
            format!("{first}..{last}{even}")
        }
        _ => ns.iter().map(|&n| thousands(n as u64)).join(", "),
    }
}

/// The note of a row not timed: "over budget", or, for a climb stopped
/// before its runs by the memory budget or the time threshold, why.
fn stopped(entry: &Entry) -> String {
    match entry.error() {
        Some(why) if why.starts_with("not run: ") && !why.contains(" budget") => {
            printable(why).into_owned()
        }
        _ => "over budget".to_string(),
    }
}

/// The command as typed, for the record's provenance.
fn command_line() -> String {
    iter::once("queens".to_string())
        .chain(std::env::args().skip(1))
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_past_the_threshold_needs_long_and_a_memory_refusal_always_stops() {
        let over = Some(budget::THRESHOLD * 2);
        let stopped = stop_before(None, over, false).unwrap();
        assert!(
            stopped
                .starts_with("not run: its checking run and cold rounds would take about 20 min")
                && stopped.contains(budget::LONG),
            "{stopped}"
        );
        assert_eq!(stop_before(None, over, true), None);
        assert_eq!(stop_before(None, Some(budget::THRESHOLD / 2), false), None);
        assert_eq!(stop_before(None, None, false), None);
        let memory = stop_before(Some("x would need up to 9 GiB".into()), None, true).unwrap();
        assert_eq!(memory, "not run: x would need up to 9 GiB");
    }
}
