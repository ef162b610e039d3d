//! `queens trace N --solver ID [--steps K]`: the first K steps of one solver's
//! search, in that solver's own representation, one tagged step per line (or
//! per small block), then a footer that says whether the search was cut.
//!
//! The solver does the tracing itself (`Solver::trace` runs its one generic
//! search with a `Tracing` observer); this module only bounds and lays out
//! what comes back, so that the output is deterministic and never floods a
//! terminal, whatever a solver chooses to say in one step.

use std::io::{self, BufWriter, Write};

use queens_core::trace::{StepKind, TraceRecorder};
use queens_core::{SearchStats, Solver};

use crate::cli::parse_n;
use crate::error::CliError;
use crate::registry;

/// About one screen of steps.
pub const DEFAULT_STEPS: usize = 40;
/// Beyond this a trace is no longer something a person reads: ask for a
/// count or the solutions instead.
pub const MAX_STEPS: usize = 500;
/// A step of more lines than this (a whole level of partial boards, a wide
/// grid) is cut, saying how much was left out.
pub const MAX_LINES_PER_STEP: usize = 24;
/// Lines are cut at this many characters for the same reason.
pub const MAX_LINE_CHARS: usize = 240;

#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct TraceArgs {
    /// Board size (n queens on an n×n board).
    #[arg(value_parser = parse_n)]
    pub n: usize,
    /// Solver id (see `queens list`); default: the fastest that supports n.
    #[arg(long)]
    pub solver: Option<String>,
    /// Show at most this many steps (1 to 500).
    #[arg(long, default_value_t = DEFAULT_STEPS, value_parser = parse_steps)]
    pub steps: usize,
}

/// --steps: a whole number from 1 to [`MAX_STEPS`].
pub fn parse_steps(text: &str) -> Result<usize, String> {
    match text.trim().parse::<i128>() {
        Ok(k) if (1..=MAX_STEPS as i128).contains(&k) => Ok(k as usize),
        Ok(k) if k < 1 => Err(format!("--steps must be at least 1, got {text}")),
        Ok(_) => Err(format!(
            "--steps is at most {MAX_STEPS} (a trace is for reading; use `count` or `solve` for whole searches), got {text}"
        )),
        Err(_) => Err(format!(
            "--steps must be a whole number from 1 to {MAX_STEPS}, got '{text}'"
        )),
    }
}

pub fn run(args: &TraceArgs) -> Result<(), CliError> {
    let solver = registry::choose(args.solver.as_deref(), args.n, false)?;
    let text = render(solver, args.n, args.steps)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if let Err(error) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // `queens trace ... | head` closing the pipe is the reader's choice.
        if error.kind() != io::ErrorKind::BrokenPipe {
            return Err(CliError::Io(format!("cannot write to stdout: {error}")));
        }
    }
    Ok(())
}

/// The whole output of `queens trace n --solver <solver> --steps <steps>`.
pub fn render(solver: &dyn Solver, n: usize, steps: usize) -> Result<String, CliError> {
    let info = solver.info();
    info.check_n(n)?;
    let mut recorder = TraceRecorder::new(steps.clamp(1, MAX_STEPS));
    let stats = solver.trace(n, &mut recorder)?;
    let mut out = format!("{} on the {n}x{n} board, at most {steps} steps\n", info.id);
    let number_width = recorder.steps().len().to_string().len();
    for (index, (kind, text)) in recorder.steps().iter().enumerate() {
        out.push_str(&format_step(index + 1, number_width, *kind, text));
    }
    out.push_str(&footer(&recorder, &stats));
    out.push('\n');
    Ok(out)
}

/// `  7 place    text`, with the lines after the first indented under the
/// text, and long steps and lines cut with a note of what was left out.
fn format_step(number: usize, number_width: usize, kind: StepKind, text: &str) -> String {
    let prefix = format!("{number:>number_width$} {kind:<8} ");
    let indent = " ".repeat(prefix.chars().count());
    let lines: Vec<&str> = text.lines().collect();
    let shown = lines.len().min(MAX_LINES_PER_STEP);
    let mut out = String::new();
    for (index, line) in lines.iter().take(shown).enumerate() {
        out.push_str(if index == 0 { &prefix } else { &indent });
        out.push_str(&cut_line(line));
        out.push('\n');
    }
    if lines.is_empty() {
        out.push_str(prefix.trim_end());
        out.push('\n');
    }
    if lines.len() > shown {
        out.push_str(&format!(
            "{indent}... {} more lines of this step not shown\n",
            lines.len() - shown
        ));
    }
    out
}

fn cut_line(line: &str) -> String {
    let length = line.chars().count();
    if length <= MAX_LINE_CHARS {
        return line.trim_end().to_string();
    }
    let kept: String = line.chars().take(MAX_LINE_CHARS).collect();
    format!("{kept} ... ({} more characters)", length - MAX_LINE_CHARS)
}

/// One line: where the search stands after the shown steps.
fn footer(recorder: &TraceRecorder, stats: &SearchStats) -> String {
    let shown = recorder.steps().len();
    if recorder.stopped_early() {
        let more = if shown < MAX_STEPS {
            format!("; --steps {} shows more", (shown * 2).min(MAX_STEPS))
        } else {
            String::new()
        };
        format!("-- cut after {shown} steps: the search goes on{more}")
    } else {
        format!(
            "-- search complete in {shown} steps: {} solutions, {} nodes",
            stats.solutions, stats.nodes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_bounded_both_ways() {
        assert_eq!(parse_steps("1"), Ok(1));
        assert_eq!(parse_steps(&MAX_STEPS.to_string()), Ok(MAX_STEPS));
        assert!(parse_steps("0").unwrap_err().contains("at least 1"));
        assert!(parse_steps("-4").unwrap_err().contains("at least 1"));
        assert!(parse_steps("501").unwrap_err().contains("at most 500"));
        assert!(parse_steps("ten").unwrap_err().contains("whole number"));
    }

    #[test]
    fn a_block_step_is_indented_under_its_text() {
        let text = format_step(3, 2, StepKind::Place, "first\n  second");
        assert_eq!(text, " 3 place    first\n              second\n");
    }

    #[test]
    fn long_steps_and_lines_are_cut_with_a_note() {
        let many: Vec<String> = (0..MAX_LINES_PER_STEP + 5).map(|i| i.to_string()).collect();
        let text = format_step(1, 1, StepKind::Level, &many.join("\n"));
        assert_eq!(text.lines().count(), MAX_LINES_PER_STEP + 1);
        assert!(text.ends_with("... 5 more lines of this step not shown\n"));
        let wide = "x".repeat(MAX_LINE_CHARS + 7);
        assert!(cut_line(&wide).ends_with("... (7 more characters)"));
    }
}
