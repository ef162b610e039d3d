//! `queens verify`: cross-validation ([`queens_measure::validate`]) of the
//! selected solvers for n = 1..=--max-n, one row per (solver, n) as it
//! passes.

use std::fmt::Display;
use std::io::{self, Write};
use std::path::PathBuf;

use std::ops::ControlFlow;
use std::time::Instant;

use queens_core::memory::Question;
use queens_core::{Solver, oeis};
use queens_measure::Subject;
use queens_measure::validate::{Row, cross_validate};

use crate::args::number;
use crate::budget::{self, Growth, TimeBar};
use crate::error::{CliError, output, print};
use crate::{interruption, memory, registry};

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
    /// Run even if predicted to take more than ten minutes.
    #[arg(long)]
    pub long: bool,
    /// A config of programs outside the workspace (see
    /// examples/external/README.md) whose counts to check against OEIS
    /// too, after the solvers; --solver may name them.
    #[arg(long, value_name = "FILE")]
    pub external: Option<PathBuf>,
}

/// Checks, printing each row as it passes.
pub fn run(args: &Args) -> Result<(), CliError> {
    let (selected, specs) = registry::select_with(&args.solvers, args.external.as_deref())?;
    let (solvers, notes) = registry::usable(selected, false);
    // Each solver lists its boards at every n up to --max-n (the sets
    // are compared), so its need at the largest n it takes bounds the run.
    for &solver in &solvers {
        let info = solver.info();
        let question = if info.enumerates {
            Question::Enumerate
        } else {
            Question::Count
        };
        memory::check(solver, args.max_n.min(info.max_n), question, 1)?;
    }
    let config = args.external.as_deref();
    let programs = registry::prepare_externals(config, specs, budget::THRESHOLD)?;
    let ids = (solvers.iter().map(|s| s.info().id)).chain(programs.iter().map(|p| p.id()));
    let id_width = ids.map(str::len).max().unwrap_or(6);
    // Every row printed has passed; the one being checked is not shown.
    interruption::end_with("interrupted: the rows above passed; the rest were not checked");
    // The skipped solvers first: the checks may take a while.
    print(&notes)?;
    let mut out = io::stdout().lock();
    let mut written: io::Result<()> = Ok(());
    let titles = [
        &"n",
        &"solver",
        &"solutions",
        &"unique",
        &"boards",
        &"same set as",
    ];
    let mut header = Some(line(id_width, titles.map(|title| title as &dyn Display)));
    // Each solver's time at each n, to predict the rest (and refuse it past
    // the budget, as soon as the steps are long enough to tell).
    let mut growth = vec![Growth::default(); solvers.len()];
    let started = Instant::now();
    let mut step_started = Instant::now();
    let mut refusal = None;
    let bar = TimeBar::start(0.0);
    let checked = if solvers.is_empty() {
        0
    } else {
        cross_validate(&solvers, args.max_n, &mut |row: &Row| {
            let position = solvers
                .iter()
                .position(|s| s.info().id == row.solver)
                .expect("rows are of the solvers given");
            growth[position].record(row.n, step_started.elapsed().as_secs_f64());
            let left = time_left(&solvers, &growth, position, row.n, args.max_n);
            let predicted = started.elapsed().as_secs_f64() + left;
            if growth.iter().any(Growth::is_informative)
                && let Err(refused) = budget::allow(
                    &format!("verify --max-n {}", args.max_n),
                    predicted,
                    &format!("each solver's time at n <= {}", row.n),
                    args.long,
                )
            {
                refusal = Some(refused);
                return ControlFlow::Break(());
            }
            bar.left(left);
            if written.is_ok() {
                let mut text = header.take().unwrap_or_default();
                text.push_str(&line(
                    id_width,
                    [
                        &row.n,
                        &row.solver,
                        &row.solutions,
                        &row.unique,
                        &row.boards,
                        &row.same_set_as,
                    ],
                ));
                written = bar.suspend(|| out.write_all(text.as_bytes()).and_then(|()| out.flush()));
            }
            step_started = Instant::now();
            ControlFlow::Continue(())
        })?
    };
    drop(bar);
    if let Some(refusal) = refusal {
        return Err(refusal);
    }
    // The externals count only: each count against OEIS (and its classes,
    // where it prints them), smallest n first; the first wrong one stops.
    let mut externals = 0;
    for program in &programs {
        for n in program.sizes(1, args.max_n) {
            let run = program.check(n);
            if let Some(why) = run.error {
                output(written)?;
                return Err(CliError::Verification(format!(
                    "{}, n = {n}: {why}",
                    program.id()
                )));
            }
            let unique = run
                .unique
                .map_or("-".to_string(), |unique| unique.to_string());
            let solutions = run.solutions.unwrap_or_default();
            let text = header.take().unwrap_or_default()
                + &line(
                    id_width,
                    [&n, &program.id(), &solutions, &unique, &"count only", &"-"],
                );
            written = written.and_then(|()| out.write_all(text.as_bytes()));
            externals += 1;
        }
    }
    output(written)?;
    let solvers =
        format!("{checked} (solver, n) pairs agree with the checker, each other and OEIS");
    let programs = format!("{externals} (program, n) pairs agree with OEIS");
    let summary = match (checked, externals) {
        (_, 0) => solvers,
        (0, _) => programs,
        _ => format!("{solvers}; {programs}"),
    };
    output(writeln!(out, "ok: {summary}"))
}

/// The predicted seconds of the steps still to do after solver `at` passed
/// n: the rest of this n (the solvers after it) and every n up to `max_n`
/// each solver supports.
fn time_left(
    solvers: &[&'static dyn Solver],
    growth: &[Growth],
    at: usize,
    n: usize,
    max_n: usize,
) -> f64 {
    let mut left = 0.0;
    for (index, (solver, growth)) in solvers.iter().zip(growth).enumerate() {
        let first = if index > at { n } else { n + 1 };
        let last = max_n.min(solver.info().max_n);
        left += (first..=last).map(|m| growth.predict(m)).sum::<f64>();
    }
    left
}

/// One row of the table, or its titles.
fn line(
    id_width: usize,
    [n, solver, solutions, unique, boards, same_set_as]: [&dyn Display; 6],
) -> String {
    format!(
        "{n:>3}  {solver:id_width$}  {solutions:>10}  {unique:>8}  {boards:11}  {same_set_as}\n"
    )
}
