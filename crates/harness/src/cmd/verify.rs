//! `queens verify`: cross-validation ([`queens_measure::validate`]) of the
//! selected solvers for n = 1..=--max-n, one row per (solver, n) as it
//! passes.

use std::fmt::Write as _;
use std::io::{self, Write};

use queens_core::oeis;
use queens_measure::validate::{Row, cross_validate};

use crate::args::number;
use crate::error::{CliError, output};
use crate::{interruption, registry};

/// `queens verify`'s arguments.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// Check every n from 1 to this (published counts go to n = 27).
    #[arg(long, default_value_t = 10, value_parser = number("--max-n", 1..=oeis::MAX_KNOWN_N, "the largest n with a published count"))]
    pub max_n: usize,
    /// Solvers to check (repeatable); default: all.
    #[arg(long = "solver")]
    pub solvers: Vec<String>,
}

/// Checks, printing each row as it passes.
pub fn run(args: &Args) -> Result<(), CliError> {
    let (solvers, notes) = registry::usable(registry::select(&args.solvers)?, false);
    let id_width = solvers.iter().map(|s| s.info().id.len()).max().unwrap_or(6);
    // Every row printed has passed; the one being checked is not shown.
    interruption::end_with("interrupted: the rows above passed; the rest were not checked");
    let mut out = io::stdout().lock();
    let mut written: io::Result<()> = Ok(());
    // The skipped solvers first: the checks may take a while.
    output(out.write_all(notes.as_bytes()).and_then(|()| out.flush()))?;
    let mut header = Some(line(
        id_width,
        [
            "n",
            "solver",
            "solutions",
            "unique",
            "boards",
            "same set as",
        ]
        .map(String::from),
    ));
    let checked = cross_validate(&solvers, args.max_n, &mut |row: &Row| {
        if written.is_err() {
            return;
        }
        let mut text = header.take().unwrap_or_default();
        text.push_str(&line(
            id_width,
            [
                row.n.to_string(),
                row.solver.to_string(),
                row.solutions.to_string(),
                row.unique.to_string(),
                row.boards.to_string(),
                row.same_set_as.clone(),
            ],
        ));
        written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    })?;
    output(written)?;
    output(writeln!(
        out,
        "ok: {checked} (solver, n) pairs agree with the checker, each other and OEIS"
    ))
}

fn line(
    id_width: usize,
    [n, solver, solutions, unique, boards, same_set_as]: [String; 6],
) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{n:>3}  {solver:id_width$}  {solutions:>10}  {unique:>8}  {boards:11}  {same_set_as}"
    );
    text
}
