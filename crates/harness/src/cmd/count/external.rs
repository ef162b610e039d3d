//! `queens count N --external FILE --solver ID`: a program outside the
//! workspace counts n in one whole run, its count (and classes, where it
//! prints them) read from its output and checked against OEIS.

use std::path::Path;

use queens_measure::Subject;
use queens_measure::external::{self, Setup, Spec};

use super::args::Args;
use crate::budget;
use crate::count_record::CountRecord;
use crate::error::CliError;

/// Runs the program once at n and prints what it counted.
pub(super) fn run(args: &Args, config: &Path, spec: Spec) -> Result<(), CliError> {
    let n = args.board.n;
    if !(spec.min_n..=spec.max_n).contains(&n) {
        return Err(CliError::Input(format!(
            "{} counts n = {}..={} ({}), not n = {n}",
            spec.id,
            spec.min_n,
            spec.max_n,
            config.display()
        )));
    }
    if args.unique && spec.classes.is_none() {
        return Err(CliError::Input(format!(
            "{} prints no classes ({} has no `classes` reader for it), so it cannot count --unique",
            spec.id,
            config.display()
        )));
    }
    // No prediction from smaller boards (each would be a whole run of a
    // program that may take minutes to start); the ten-minute threshold
    // kills it instead, unless --long was given.
    let limit = match args.long {
        true => std::time::Duration::from_secs(365 * 86_400),
        false => budget::THRESHOLD,
    };
    let setup = Setup {
        threads: args.threads(),
        limit,
    };
    let program = external::prepare(config, vec![spec], setup)?.remove(0);
    let run = program.check(n);
    if let Some(why) = run.error {
        return Err(CliError::Verification(format!("{}: {why}", program.id())));
    }
    let record = CountRecord {
        n,
        solver: program.id(),
        solutions: run.solutions.unwrap_or_default(),
        unique: run.unique.filter(|_| args.unique),
        seconds: run.wall.as_secs_f64(),
        ..CountRecord::default()
    };
    let timed = ("timed", "whole process, start-up included".to_string());
    record.print(&[timed], args.json)
}
