//! `queens solve N`: print the boards, as they are found (nothing is
//! collected, so `--limit` on a large board returns at once).

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;

use crate::args::{Board, number};
use crate::boards::Format;
use crate::error::{CliError, output};
use crate::registry;

/// `queens solve`'s arguments.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// The board and the solver.
    #[command(flatten)]
    pub board: Board,
    /// Print one representative of each symmetry class: the one the
    /// solver's source chooses (threat-mask: the smallest move mask of the
    /// eight images, as its document does; the others: core's canonical form).
    #[arg(long)]
    pub unique: bool,
    /// Print at most this many solutions.
    #[arg(long, value_parser = number("--limit", 1..=u64::MAX, ""))]
    pub limit: Option<u64>,
    /// Output format. `json` is one object: {"n", "solver", "solutions":
    /// [[row of file a, ...], ...]}, rows 0-based.
    #[arg(long, value_enum, default_value_t = Format::Board)]
    pub format: Format,
}

/// Lists the boards as the search finds them.
pub fn run(args: &Args) -> Result<(), CliError> {
    let solver = registry::choose(args.board.solver.as_deref(), args.board.n, true)?;
    args.format.check_n(args.board.n)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut printed = 0u64;
    let mut write_error: Option<io::Error> = None;

    if args.format == Format::Json
        && let Err(error) = write!(
            out,
            "{{\"n\":{},\"solver\":\"{}\",\"solutions\":[",
            args.board.n,
            solver.info().id
        )
    {
        write_error = Some(error);
    }
    solver.enumerate(args.board.n, &mut |rows| {
        if write_error.is_some() {
            return ControlFlow::Break(());
        }
        if args.unique && !solver.represents_class(rows) {
            return ControlFlow::Continue(());
        }
        printed += 1;
        if let Err(error) = write_solution(&mut out, args.format, printed, rows) {
            write_error = Some(error);
            return ControlFlow::Break(());
        }
        if printed >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    if args.format == Format::Json && write_error.is_none() {
        write_error = writeln!(out, "]}}").err();
    }
    match write_error {
        Some(error) => output(Err(error)),
        None => output(out.flush()),
    }
}

fn write_solution(out: &mut impl Write, format: Format, index: u64, rows: &[u8]) -> io::Result<()> {
    match format {
        Format::Board | Format::Unicode => {
            if index > 1 {
                writeln!(out)?;
            }
            writeln!(out, "solution {index}")?;
        }
        Format::Json if index > 1 => write!(out, ",")?,
        _ => {}
    }
    format.write_small(out, rows)
}
