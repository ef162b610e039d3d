//! `queens trace N --solver ID [--steps K] [--format json]`: the first K
//! steps of one solver's search, in that solver's own representation, one
//! tagged step per line (or per small block), then a footer that says
//! whether the search was cut. With `--format json` the same steps as data
//! (format `queens-trace`, version 1, below): each step's event and words, the board,
//! the squares its state marks attacked, its variables and the counters.
//!
//! `--solver min-conflicts` (a finder, with `--seed S`) traces the local
//! search's repair instead, swap by swap ([`crate::repair_trace`]).
//!
//! The solver does the tracing itself (`Solver::trace` runs its one generic
//! search with a `Tracing` observer); this module only bounds and lays out
//! what comes back, so that the output is deterministic and never floods a
//! terminal, whatever a solver chooses to say in one step.

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;

use queens_core::memory::Question;
use queens_core::trace::{CONVENTION, Step, StepKind, StepStream, TraceRecorder};
use queens_core::{SearchStats, Solver, counted};

use crate::args::{Board, number};
use crate::error::{CliError, output, print};
use crate::trace_text::{format_step, header_line};
use crate::{memory, registry, repair_trace, trace_json};

/// Without `--steps`: at most this many steps, and only as many as fit in
/// [`SCREEN_LINES`] (or up to the first solution, if these steps reach
/// one), so that solvers whose steps are blocks (a grid per step) also fill
/// about one screen.
pub const DEFAULT_STEPS: usize = 40;
/// About one terminal screen.
pub const SCREEN_LINES: usize = 48;
/// The most steps a trace shows (see [`crate::trace_json::MAX_STEPS`]).
pub use crate::trace_json::MAX_STEPS;

/// `queens trace`'s arguments.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// The board and the solver.
    #[command(flatten)]
    pub board: Board,
    /// Show this many steps (1 to 500); default: about one screen (at most
    /// 40) as text, 500 as JSON.
    #[arg(long, value_parser = number("--steps", 1..=MAX_STEPS, STEPS_WHY))]
    pub steps: Option<usize>,
    /// Output format: text for a person, json for a program.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The seed of min-conflicts' random search (only with `--solver
    /// min-conflicts`, whose repair is traced swap by swap; default 0).
    #[arg(long, value_parser = number("--seed", 0..=u64::MAX, ""))]
    pub seed: Option<u64>,
}

/// How the trace is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Tagged steps in the solver's own words, about a screen by default.
    Text,
    /// One JSON object (`queens-trace`, version 1): the steps as data.
    Json,
}

/// The second line of every trace (kept in core beside the convention).
pub use queens_core::trace::LEGEND;

/// Why `--steps` stops at [`MAX_STEPS`].
const STEPS_WHY: &str = "a trace is for reading; use `count` or `solve` for whole searches";

/// How much of a search to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `--steps K`: the first K steps (fewer if the search ends first).
    Steps(usize),
    /// No `--steps`: the first steps that fit about one screen.
    Screen,
}

/// Prints the trace as the search goes.
pub fn run(args: &Args) -> Result<(), CliError> {
    if args.board.solver.as_deref() == Some(repair_trace::ID) {
        return print(&repair(args)?);
    }
    if args.seed.is_some() {
        return Err(CliError::Input(format!(
            "--seed is for the random search: --solver {}",
            repair_trace::ID
        )));
    }
    let n = args.board.n;
    let solver = registry::choose(args.board.solver.as_deref(), n, false)?;
    memory::check(solver, n, Question::Trace, 1)?;
    let mut out = BufWriter::new(io::stdout().lock());
    match args.format {
        Format::Text => write(
            solver,
            n,
            args.steps.map_or(Limit::Screen, Limit::Steps),
            &mut out,
        ),
        Format::Json => trace_json::write(solver, n, args.steps.unwrap_or(MAX_STEPS), &mut out),
    }
}

/// min-conflicts' repair, swap by swap (a finder: no `Solver::trace`).
fn repair(args: &Args) -> Result<String, CliError> {
    let (n, seed) = (args.board.n, args.seed.unwrap_or(0));
    Ok(match args.format {
        Format::Text => repair_trace::text(n, seed, args.steps)?,
        Format::Json => {
            repair_trace::document(n, seed, args.steps.unwrap_or(MAX_STEPS))?.to_string() + "\n"
        }
    })
}

/// The whole output of `queens trace n --solver <solver>` with `--steps K`
/// (`Limit::Steps(K)`) or without (`Limit::Screen`).
pub fn render(solver: &dyn Solver, n: usize, limit: Limit) -> Result<String, CliError> {
    let mut text = Vec::new();
    write(solver, n, limit, &mut text)?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}

/// Writes the trace to `out`: with `--steps`, each step as the search
/// makes it (numbers are as wide as the last step's, known once the steps
/// reach the limit's width: only the steps before that wait); without,
/// about a screen, laid out once its few steps are in.
pub fn write(
    solver: &dyn Solver,
    n: usize,
    limit: Limit,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let info = solver.info();
    info.check_n(n)?;
    let steps = match limit {
        Limit::Screen => {
            let text = screen(solver, n)?;
            return output(out.write_all(text.as_bytes()).and_then(|()| out.flush()));
        }
        Limit::Steps(k) => k.clamp(1, MAX_STEPS),
    };
    let mut written = out.write_all(header(info.id, n, Some(steps)).as_bytes());
    let widest = steps.to_string().len();
    // From this step on the numbers are `widest` wide.
    let settled = 10usize.pow(widest as u32 - 1);
    let mut waiting: Vec<(StepKind, String)> = Vec::new();
    let (mut shown, mut printed) = (0usize, 0usize);
    let mut each = |step: &Step| {
        shown += 1;
        waiting.push((step.kind, step.detail.text.clone()));
        if shown >= settled && written.is_ok() {
            written = print_steps(out, &mut waiting, &mut printed, widest);
        }
        if written.is_ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    let mut stream = StepStream::new(steps, &mut each);
    let stats = solver.trace(n, &mut stream)?;
    let cut = stream.stopped_early();
    drop(stream);
    // A search that ended before its numbers settled: as wide as its last.
    if written.is_ok() {
        written = print_steps(out, &mut waiting, &mut printed, shown.to_string().len());
    }
    output(written)?;
    output(writeln!(out, "{}", footer(shown, cut, &stats)).and_then(|()| out.flush()))
}

/// Writes the `waiting` steps, numbered on from `printed`, `width` wide.
fn print_steps(
    out: &mut dyn Write,
    waiting: &mut Vec<(StepKind, String)>,
    printed: &mut usize,
    width: usize,
) -> io::Result<()> {
    for (kind, text) in waiting.drain(..) {
        *printed += 1;
        out.write_all(format_step(*printed, width, kind, &text).as_bytes())?;
    }
    Ok(())
}

/// Without `--steps`: about one screen (at most [`DEFAULT_STEPS`] steps),
/// or on to the first solution if those steps reach one.
fn screen(solver: &dyn Solver, n: usize) -> Result<String, CliError> {
    let info = solver.info();
    let mut recorder = TraceRecorder::new(DEFAULT_STEPS);
    let stats = solver.trace(n, &mut recorder)?;
    let format_steps = |count: usize| -> Vec<String> {
        let number_width = count.to_string().len();
        recorder.steps()[..count]
            .iter()
            .enumerate()
            .map(|(index, step)| format_step(index + 1, number_width, step.kind, &step.detail.text))
            .collect()
    };
    let recorded = recorder.steps().len();
    let mut blocks = format_steps(recorded);
    // About one screen, but on to the first solution if the default
    // steps reach one: a learner should see the search succeed once.
    let first_solution = recorder
        .steps()
        .iter()
        .position(|step| step.kind == StepKind::Solution);
    let fitting = fitting_blocks(&blocks, SCREEN_LINES).max(first_solution.map_or(0, |i| i + 1));
    if fitting < recorded {
        // Fewer steps may need narrower numbers.
        blocks = format_steps(fitting);
    }
    let cut = recorder.stopped_early() || blocks.len() < recorded;
    let mut out = header(info.id, n, None);
    out.push_str(&blocks.concat());
    out.push_str(&footer(blocks.len(), cut, &stats));
    out.push('\n');
    Ok(out)
}

/// How many of the first blocks fit in `lines` lines (at least one, so a
/// trace always shows something).
fn fitting_blocks(blocks: &[String], lines: usize) -> usize {
    let mut used = 0;
    let fitting = blocks
        .iter()
        .take_while(|block| {
            used += block.lines().count();
            used <= lines
        })
        .count();
    fitting.max(1).min(blocks.len())
}

/// The lines above the steps: the solver and the board (and the steps
/// asked for), then the tags' [`LEGEND`] and the masks' [`CONVENTION`],
/// each wrapped to the width under the text after its label.
pub fn header(id: &str, n: usize, steps: Option<usize>) -> String {
    let asked = steps.map_or(String::new(), |k| {
        format!(", at most {}", counted(k, "step", "steps"))
    });
    let mut out = format!("{id} on the {n}x{n} board{asked}\n");
    for line in [LEGEND, CONVENTION] {
        out.push_str(&header_line(line));
    }
    out
}

/// One line: where the search stands after the shown steps.
fn footer(shown: usize, cut: bool, stats: &SearchStats) -> String {
    if cut {
        let more = if shown < MAX_STEPS {
            format!("; --steps {} shows more", (shown * 2).min(MAX_STEPS))
        } else {
            String::new()
        };
        format!(
            "-- cut after {}: the search goes on{more}",
            counted(shown, "step", "steps")
        )
    } else {
        format!(
            "-- search complete in {}: {}, {}",
            counted(shown, "step", "steps"),
            counted(stats.solutions, "solution", "solutions"),
            counted(stats.nodes, "node", "nodes")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screen_holds_the_blocks_that_fit_and_at_least_one() {
        let blocks: Vec<String> = ["a\nb\n", "c\n", "d\ne\nf\n"].map(String::from).to_vec();
        assert_eq!(fitting_blocks(&blocks, 3), 2);
        assert_eq!(fitting_blocks(&blocks, 6), 3);
        assert_eq!(fitting_blocks(&blocks, 1), 1);
        assert_eq!(fitting_blocks(&[], 10), 0);
    }
}
