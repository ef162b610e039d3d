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

use queens_core::memory::Question;
use queens_core::trace::{CONVENTION, StepKind, TraceRecorder};
use queens_core::{SearchStats, Solver, counted};

use crate::args::{Board, number};
use crate::error::{CliError, print};
use crate::trace_text::{self, format_step};
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

/// Prints the trace.
pub fn run(args: &Args) -> Result<(), CliError> {
    if args.board.solver.as_deref() == Some(repair_trace::ID) {
        // min-conflicts' repair, swap by swap (a finder: no `Solver::trace`).
        let (n, seed, steps) = (args.board.n, args.seed.unwrap_or(0), args.steps);
        return print(&match args.format {
            Format::Text => repair_trace::text(n, seed, steps)?,
            Format::Json => {
                let limit = steps.unwrap_or(MAX_STEPS);
                repair_trace::document(n, seed, limit)?.to_string() + "\n"
            }
        });
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
    match args.format {
        Format::Text => print(&render(solver, n, args.steps)?),
        Format::Json => {
            print(&(trace_json::document(solver, n, args.steps.unwrap_or(MAX_STEPS))? + "\n"))
        }
    }
}

/// The whole output of `queens trace n --solver <solver>` with `--steps K`
/// (`Some(K)`: each of the first K steps, at most [`MAX_STEPS`]) or without
/// (`None`: about a screen), laid out once its steps are in.
pub fn render(solver: &dyn Solver, n: usize, steps: Option<usize>) -> Result<String, CliError> {
    let info = solver.info();
    info.check_n(n)?;
    let asked = steps.map(|k| k.clamp(1, MAX_STEPS));
    let mut recorder = TraceRecorder::new(asked.unwrap_or(DEFAULT_STEPS));
    let stats = solver.trace(n, &mut recorder)?;
    // Numbers as wide as the last shown step's.
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
    let first_solution = (recorder.steps().iter()).position(|step| step.kind == StepKind::Solution);
    let fitting = fitting_blocks(&blocks, SCREEN_LINES).max(first_solution.map_or(0, |i| i + 1));
    if asked.is_none() && fitting < recorded {
        // Fewer steps may need narrower numbers.
        blocks = format_steps(fitting);
    }
    let cut = recorder.stopped_early() || blocks.len() < recorded;
    let mut text = header(info.id, n, asked);
    text.push_str(&blocks.concat());
    text.push_str(&footer(blocks.len(), cut, &stats));
    Ok(text)
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
/// asked for), then the tags' [`LEGEND`] and the masks' [`CONVENTION`].
pub fn header(id: &str, n: usize, steps: Option<usize>) -> String {
    let asked = steps.map_or(String::new(), |k| {
        format!(", at most {}", counted(k, "step", "steps"))
    });
    let title = format!("{id} on the {n}x{n} board{asked}");
    trace_text::header(&title, [LEGEND, CONVENTION])
}

/// One line: where the search stands after the shown steps.
fn footer(shown: usize, cut: bool, stats: &SearchStats) -> String {
    if cut {
        return trace_text::cut_footer(shown, "search");
    }
    format!(
        "-- search complete in {}: {}, {}\n",
        counted(shown, "step", "steps"),
        counted(stats.solutions, "solution", "solutions"),
        counted(stats.nodes, "node", "nodes")
    )
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
