//! `queens search N --solver ID [--times K]` (hidden): the plain count that
//! `cargo bench` times (one thread, no classes), K times in one process,
//! then one JSON line with its solutions and nodes. It exists for
//! `cargo xtask instructions`, which runs it under callgrind and collects
//! only inside [`searched`] (`--toggle-collect`), so that start-up,
//! argument parsing and printing are left out of the instructions counted;
//! `--times 2` lets a test check that isolation on a real run.
//! `queens search --facts` prints every solver's id, node, largest n and
//! device (or why it has none) as one JSON array instead.
//! `queens search N --solver ID --heap QUESTION` answers the question once
//! (count, enumerate or trace, its output thrown away) and prints the peak
//! heap it held beside what the solver declared it would
//! (`Solver::peak_bytes`): a process of its own, so that nothing else
//! allocates while the counter watches (the tests compare the two).
//! `--heap find` does the same for a finder (`--solver` names it) finding
//! one board, n up to `find`'s limit, beside `queens find`'s need for it.

use std::ops::ControlFlow;

use queens_core::find::MAX_FIND_N;
use queens_core::memory::Question;
use queens_core::trace::{Detail, StepKind, TraceSink};
use queens_core::{CountOptions, Finder, SearchStats, Solver};

use crate::args::number;
use crate::error::CliError;
use crate::registry;

/// `queens search`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (a solver's limit is checked when it is chosen; a
    /// finder's `--heap find` takes n up to `find`'s).
    #[arg(value_parser = number("n", 1..=MAX_FIND_N, ""), required_unless_present = "facts")]
    pub n: Option<usize>,
    /// Solver id (see `queens list`).
    #[arg(long, required_unless_present = "facts")]
    pub solver: Option<String>,
    /// Print every solver's facts as JSON instead of counting.
    #[arg(long, conflicts_with_all = ["n", "solver", "times"])]
    pub facts: bool,
    /// How many times to count, one after the other in this process.
    #[arg(long, default_value_t = 1, value_parser = number("--times", 1usize..=1000, ""))]
    pub times: usize,
    /// Answer this question once and print its peak heap beside the
    /// solver's declared peak instead of counting.
    #[arg(long, value_enum, conflicts_with_all = ["facts", "times"])]
    pub heap: Option<HeapQuestion>,
}

/// The questions `--heap` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HeapQuestion {
    /// `count`.
    Count,
    /// `solve` (every board, each thrown away).
    Enumerate,
    /// `trace` (its steps streamed and thrown away, as many as `trace`
    /// shows at most).
    Trace,
    /// `find` (a finder, named with `--solver`, finding one board).
    Find,
}

/// Counts `args.times` times and prints the last count as JSON.
pub fn run(args: &Args) -> Result<(), CliError> {
    let (Some(n), Some(id)) = (args.n, args.solver.as_deref()) else {
        return facts();
    };
    if args.heap == Some(HeapQuestion::Find) {
        return find_heap(registry::choose_finder(Some(id), n)?, n);
    }
    let solver = registry::choose(Some(id), n, false)?;
    let options = CountOptions {
        unique: false,
        threads: 1,
    };
    if let Some(question) = args.heap {
        // The heap is this process's, whatever device counts.
        return heap(solver, n, question, &options);
    }
    if let Some(device) = solver.accelerator()? {
        return Err(CliError::Input(format!(
            "{} counts on {device}: instructions retired there are the device's, not this process's",
            solver.info().id
        )));
    }
    let mut stats = searched(solver, n, &options)?;
    for _ in 1..args.times {
        stats = searched(solver, n, &options)?;
    }
    println!(
        "{}",
        serde_json::json!({
            "solver": solver.info().id,
            "n": n,
            "times": args.times,
            "solutions": stats.solutions,
            "nodes": stats.nodes,
        })
    );
    Ok(())
}

/// `--heap`: one answer under the heap counter, and the declaration.
fn heap(
    solver: &dyn Solver,
    n: usize,
    question: HeapQuestion,
    options: &CountOptions,
) -> Result<(), CliError> {
    let question = match question {
        HeapQuestion::Count => Question::Count,
        HeapQuestion::Enumerate => Question::Enumerate,
        HeapQuestion::Trace => Question::Trace,
        HeapQuestion::Find => unreachable!("a finder's question, answered by find_heap"),
    };
    let (answered, peak) = queens_measure::heap::peak_during(|| match question {
        Question::Enumerate => solver
            .enumerate(n, &mut |_| ControlFlow::Continue(()))
            .map(drop),
        Question::Trace => solver.trace(n, &mut Discard(0)).map(drop),
        Question::Count => solver.count(n, options).map(drop),
    });
    answered?;
    println!(
        "{}",
        serde_json::json!({
            "solver": solver.info().id,
            "n": n,
            "question": question.verb(),
            "peak_heap_bytes": peak,
            "declared_bytes": solver.shared_bytes(n, question) + solver.peak_bytes(n, question),
        })
    );
    Ok(())
}

/// `--heap find`: one board found under the heap counter (the seed
/// `queens find` uses by default), beside the finder's declaration and
/// what `queens find` checks against the budget for it.
fn find_heap(finder: &dyn Finder, n: usize) -> Result<(), CliError> {
    let (found, peak) = queens_measure::heap::peak_during(|| finder.find(n, 0));
    found?;
    println!(
        "{}",
        serde_json::json!({
            "finder": finder.info().id,
            "n": n,
            "peak_heap_bytes": peak,
            "declared_bytes": finder.peak_bytes(n),
            "find_need_bytes": crate::memory::find_need(finder, n),
        })
    );
    Ok(())
}

/// A trace's steps, streamed nowhere: stops where `trace` stops at most.
struct Discard(usize);

impl TraceSink for Discard {
    fn step(&mut self, _: StepKind, _: Detail) -> ControlFlow<()> {
        self.0 += 1;
        if self.0 > crate::trace_json::MAX_STEPS {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Every registered solver: id, what its node is, its largest n, and
/// `device`: null for a solver that counts on this process's CPU, else the
/// device it counts on or why it has none (text).
fn facts() -> Result<(), CliError> {
    let solvers: Vec<_> = registry::SOLVERS
        .iter()
        .map(|solver| {
            let info = solver.info();
            let device = match solver.accelerator() {
                Ok(None) => None,
                Ok(Some(device)) => Some(format!("counts on {device}")),
                Err(missing) => Some(missing.to_string()),
            };
            serde_json::json!({
                "id": info.id,
                "node": info.node,
                "max_n": info.max_n,
                "device": device,
            })
        })
        .collect();
    println!("{}", serde_json::Value::Array(solvers));
    Ok(())
}

/// The one search whose instructions are counted: callgrind's
/// `--toggle-collect` names this function (`cargo xtask instructions`), so
/// it must stay a function of its own, never inlined into its caller.
#[inline(never)]
pub fn searched(
    solver: &dyn Solver,
    n: usize,
    options: &CountOptions,
) -> Result<SearchStats, CliError> {
    Ok(std::hint::black_box(
        solver.count(std::hint::black_box(n), options)?,
    ))
}
