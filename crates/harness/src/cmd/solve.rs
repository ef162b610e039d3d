//! `queens solve N`: print the boards, as they are found (nothing is
//! collected, so `--limit` on a large board returns at once).

use itertools::Itertools;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;

use queens_core::memory::Question;
use queens_core::{Solution, counted, symmetry};

use crate::args::{Board, number};
use crate::boards::Format;
use crate::error::{CliError, output};
use crate::{memory, registry};

/// `queens solve`'s arguments.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// The board and the solver.
    #[command(flatten)]
    pub board: Board,
    /// Print one representative of each symmetry class: the one the
    /// solver's source chooses (threat-mask: the smallest move mask of the
    /// eight images, as its document does; the others: core's canonical form),
    /// each with the size of its class (its orbit under the eight symmetries:
    /// 8, 4 or 2), and after them the sum of the sizes: the solutions.
    #[arg(long)]
    pub unique: bool,
    /// Print at most this many solutions.
    #[arg(long, value_parser = number("--limit", 1..=u64::MAX, ""))]
    pub limit: Option<u64>,
    /// Output format. `json` is one object: {"n", "solver", "solutions":
    /// [[row of file a, ...], ...]}, rows 0-based (with `--unique`, also
    /// "class_sizes": [size of each one's class, ...]); `algebraic` and
    /// `ranks` with `--unique` end each line with `  class of 8`.
    #[arg(long, value_enum, default_value_t = Format::Board)]
    pub format: Format,
}

/// Lists the boards as the search finds them.
pub fn run(args: &Args) -> Result<(), CliError> {
    let solver = registry::choose(args.board.solver.as_deref(), args.board.n, true)?;
    args.format.check_n(args.board.n)?;
    memory::check(solver, args.board.n, Question::Enumerate, 1)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut printed = 0u64;
    // With --unique: each printed class's size, for the JSON list and the
    // closing sum (Burnside's count checked from the other side).
    let mut class_sizes: Vec<usize> = Vec::new();
    let mut written = match args.format {
        Format::Json => write!(
            out,
            "{{\"n\":{},\"solver\":\"{}\",\"solutions\":[",
            args.board.n,
            solver.info().id
        ),
        _ => Ok(()),
    };
    solver.enumerate(args.board.n, &mut |rows| {
        if written.is_err() {
            return ControlFlow::Break(());
        }
        if args.unique && !solver.represents_class(rows) {
            return ControlFlow::Continue(());
        }
        printed += 1;
        let class = args
            .unique
            .then(|| symmetry::orbit_size(&Solution::from_rows(rows)));
        class_sizes.extend(class);
        written = write_solution(&mut out, args.format, printed, rows, class);
        if written.is_err() || printed >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    let finished = written.and_then(|()| finish(&mut out, args, &class_sizes));
    output(finished.and_then(|()| out.flush()))
}

/// Closes the JSON object, and after `--unique` boards says what their
/// classes add up to.
fn finish(out: &mut impl Write, args: &Args, class_sizes: &[usize]) -> io::Result<()> {
    match args.format {
        Format::Json if args.unique => writeln!(
            out,
            "],\"class_sizes\":{}}}",
            serde_json::to_string(class_sizes).expect("a list of numbers serialises")
        ),
        Format::Json => writeln!(out, "]}}"),
        _ if args.unique => {
            // How many classes of each size, largest size first.
            let mut sizes = class_sizes.to_vec();
            sizes.sort_unstable_by(|a, b| b.cmp(a));
            let terms = (sizes.chunk_by(|a, b| a == b))
                .map(|same| format!("{} × {}", same.len(), same[0]))
                .join(" + ");
            if matches!(args.format, Format::Board | Format::Unicode) {
                writeln!(out)?;
            }
            let boards: usize = class_sizes.iter().sum();
            // No class (n = 2, 3): no sum to show, just the two counts.
            let sum = if terms.is_empty() {
                String::new()
            } else {
                format!("{terms} = ")
            };
            writeln!(
                out,
                "{}, {sum}{}",
                counted(class_sizes.len(), "class", "classes"),
                counted(boards, "board", "boards")
            )
        }
        _ => Ok(()),
    }
}

fn write_solution(
    out: &mut impl Write,
    format: Format,
    index: u64,
    rows: &[u8],
    class: Option<usize>,
) -> io::Result<()> {
    let note = class.map(|size| format!("class of {size}"));
    match format {
        Format::Board | Format::Unicode => {
            if index > 1 {
                writeln!(out)?;
            }
            match &note {
                Some(note) => writeln!(out, "solution {index}, {note}")?,
                None => writeln!(out, "solution {index}")?,
            }
        }
        Format::Json if index > 1 => write!(out, ",")?,
        Format::Algebraic | Format::Ranks if note.is_some() => {
            // One line per board: the note goes before the line's end.
            let mut line = Vec::new();
            format.write_small(&mut line, rows)?;
            line.pop();
            out.write_all(&line)?;
            return writeln!(out, "  {}", note.unwrap_or_default());
        }
        _ => {}
    }
    format.write_small(out, rows)
}
