//! `queens solve N`: print the boards, as they are found (nothing is
//! collected, so `--limit` on a large board returns at once).

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;

use queens_core::render::{self, Style};
use queens_core::{MAX_ALGEBRAIC_N, QueensError, symmetry};

use crate::cli::{Format, SolveArgs};
use crate::error::CliError;
use crate::registry;

pub fn run(args: &SolveArgs) -> Result<(), CliError> {
    let solver = registry::choose(args.solver.as_deref(), args.n, true)?;
    if args.format == Format::Algebraic && args.n > MAX_ALGEBRAIC_N {
        return Err(QueensError::AlgebraicTooWide { n: args.n }.into());
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut printed = 0u64;
    let mut write_error: Option<io::Error> = None;

    if args.format == Format::Json {
        let _ = write!(
            out,
            "{{\"n\":{},\"solver\":\"{}\",\"solutions\":[",
            args.n,
            solver.info().id
        );
    }
    solver.enumerate(args.n, &mut |rows| {
        if args.unique && !symmetry::is_canonical(rows) {
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
    if args.format == Format::Json {
        let _ = writeln!(out, "]}}");
    }
    if let Some(error) = write_error.or_else(|| out.flush().err()) {
        // A closed pipe (`queens solve 12 | head`) is the reader's choice, not an error.
        if error.kind() != io::ErrorKind::BrokenPipe {
            return Err(CliError::Io(format!("cannot write to stdout: {error}")));
        }
    }
    Ok(())
}

fn write_solution(out: &mut impl Write, format: Format, index: u64, rows: &[u8]) -> io::Result<()> {
    match format {
        Format::Board | Format::Unicode => {
            let style = if format == Format::Board {
                Style::Ascii
            } else {
                Style::Unicode
            };
            if index > 1 {
                writeln!(out)?;
            }
            writeln!(out, "solution {index}")?;
            write!(out, "{}", render::render(rows, style))
        }
        Format::Algebraic => {
            let solution = queens_core::Solution::from_rows(rows);
            writeln!(
                out,
                "{}",
                solution
                    .to_algebraic()
                    .expect("n <= 26 checked before the search")
            )
        }
        Format::Json => {
            if index > 1 {
                write!(out, ",")?;
            }
            write!(
                out,
                "{}",
                serde_json::to_string(rows).expect("a list of numbers serialises")
            )
        }
    }
}
