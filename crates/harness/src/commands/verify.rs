//! `queens verify`: cross-validation. For every selected solver and every n it
//! supports, up to `--max-n`:
//! - every listed board passes the independent checker (`queens_core::check`);
//! - the set of boards equals the set listed by the first solver that lists
//!   boards for that n (the reference);
//! - the count equals OEIS A000170 and the class count equals A002562.
//!
//! Count-only solvers are checked on their counts alone.

use std::fmt::Display;
use std::ops::ControlFlow;

use queens_core::{CountOptions, Solution, Solver, check, oeis, symmetry};

use crate::cli::VerifyArgs;
use crate::error::CliError;
use crate::registry;

/// What was established for one (solver, n).
pub struct Row {
    pub n: usize,
    pub solver: &'static str,
    pub solutions: u64,
    pub unique: u64,
    /// "all valid", or "count only" for solvers that do not list boards.
    pub boards: &'static str,
    /// The solver whose set this one equals, or "reference"/"-".
    pub same_set_as: String,
}

pub fn run(args: &VerifyArgs) -> Result<(), CliError> {
    let solvers = registry::select(&args.solvers)?;
    let id_width = solvers.iter().map(|s| s.info().id.len()).max().unwrap_or(6);
    let mut header_printed = false;
    let checked = cross_validate(&solvers, args.max_n, &mut |row| {
        if !header_printed {
            print_line(
                id_width,
                [
                    &"n",
                    &"solver",
                    &"solutions",
                    &"unique",
                    &"boards",
                    &"same set as",
                ],
            );
            header_printed = true;
        }
        print_line(
            id_width,
            [
                &row.n,
                &row.solver,
                &row.solutions,
                &row.unique,
                &row.boards,
                &row.same_set_as,
            ],
        );
    })?;
    println!("ok: {checked} (solver, n) pairs agree with the checker, each other and OEIS");
    Ok(())
}

fn print_line(
    id_width: usize,
    [n, solver, solutions, unique, boards, same_set_as]: [&dyn Display; 6],
) {
    println!(
        "{n:>3}  {solver:id_width$}  {solutions:>10}  {unique:>8}  {boards:11}  {same_set_as}"
    );
}

/// The checks of `queens verify` for n = 1..=max_n, each (solver, n) handed
/// to `on_row` once it passed; shared with `queens compare`, which
/// cross-validates before it times. Returns how many pairs were checked.
pub fn cross_validate(
    solvers: &[&'static dyn Solver],
    max_n: usize,
    on_row: &mut dyn FnMut(&Row),
) -> Result<usize, CliError> {
    if max_n > oeis::MAX_KNOWN_N {
        return Err(CliError::Usage(format!(
            "verify compares with published counts, known for n <= {}; got --max-n {}",
            oeis::MAX_KNOWN_N,
            max_n
        )));
    }
    let mut checked = 0usize;
    for n in 1..=max_n {
        // The reference board set for this n: the first lister's.
        let mut reference: Option<(&'static str, Vec<Vec<u8>>)> = None;
        for &solver in solvers {
            if !solver.info().supports(n) {
                continue;
            }
            on_row(&verify_one(solver, n, &mut reference)?);
            checked += 1;
        }
    }
    if checked == 0 {
        return Err(CliError::Usage(format!(
            "nothing to verify: no selected solver supports any n in 1..={max_n}"
        )));
    }
    Ok(checked)
}

fn verify_one(
    solver: &'static dyn Solver,
    n: usize,
    reference: &mut Option<(&'static str, Vec<Vec<u8>>)>,
) -> Result<Row, CliError> {
    let id = solver.info().id;
    let expected_total = oeis::total(n).expect("n <= MAX_KNOWN_N checked");
    let expected_unique = oeis::unique(n).expect("n <= MAX_KNOWN_N checked");

    if !solver.info().enumerates {
        let stats = solver.count(
            n,
            &CountOptions {
                unique: true,
                threads: 0,
            },
        )?;
        let unique = stats.unique.unwrap_or(u64::MAX);
        compare_with_oeis(
            id,
            n,
            stats.solutions,
            unique,
            expected_total,
            expected_unique,
        )?;
        return Ok(Row {
            n,
            solver: id,
            solutions: stats.solutions,
            unique,
            boards: "count only",
            same_set_as: "-".into(),
        });
    }

    let boards = list_valid_boards(solver, n)?;
    let unique = symmetry::count_unique(boards.iter().map(Vec::as_slice));
    compare_with_oeis(
        id,
        n,
        boards.len() as u64,
        unique,
        expected_total,
        expected_unique,
    )?;

    let same_set_as = match reference {
        None => {
            *reference = Some((id, boards.clone()));
            "reference".to_string()
        }
        Some((reference_id, reference_boards)) => {
            if let Some(difference) = first_difference(reference_boards, &boards) {
                let (holder, lacker, board) = match difference {
                    Difference::OnlyInFirst(board) => (*reference_id, id, board),
                    Difference::OnlyInSecond(board) => (id, *reference_id, board),
                };
                return Err(CliError::Verification(format!(
                    "n = {n}: {holder} finds {} but {lacker} does not",
                    Solution::from_rows(board)
                )));
            }
            reference_id.to_string()
        }
    };
    Ok(Row {
        n,
        solver: id,
        solutions: boards.len() as u64,
        unique,
        boards: "all valid",
        same_set_as,
    })
}

/// Every board the solver lists, each checked, sorted; a duplicate is an
/// error too (a set of solutions has no repeats).
fn list_valid_boards(solver: &dyn Solver, n: usize) -> Result<Vec<Vec<u8>>, CliError> {
    let id = solver.info().id;
    let mut boards = Vec::new();
    let mut invalid: Option<String> = None;
    solver.enumerate(n, &mut |rows| {
        if rows.len() != n {
            invalid = Some(format!(
                "n = {n}: {id} listed a board of size {}",
                rows.len()
            ));
            return ControlFlow::Break(());
        }
        if let Err(violation) = check::check(rows) {
            invalid = Some(format!(
                "n = {n}: {id} listed {}, which is not a solution: {violation}",
                Solution::from_rows(rows)
            ));
            return ControlFlow::Break(());
        }
        boards.push(rows.to_vec());
        ControlFlow::Continue(())
    })?;
    if let Some(message) = invalid {
        return Err(CliError::Verification(message));
    }
    boards.sort_unstable();
    if let Some(pair) = boards.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(CliError::Verification(format!(
            "n = {n}: {id} listed {} twice",
            Solution::from_rows(pair[0].clone())
        )));
    }
    Ok(boards)
}

fn compare_with_oeis(
    id: &str,
    n: usize,
    total: u64,
    unique: u64,
    expected_total: u64,
    expected_unique: u64,
) -> Result<(), CliError> {
    if total != expected_total {
        return Err(CliError::Verification(format!(
            "n = {n}: {id} finds {total} solutions, OEIS A000170 says {expected_total}"
        )));
    }
    if unique != expected_unique {
        return Err(CliError::Verification(format!(
            "n = {n}: {id} finds {unique} classes, OEIS A002562 says {expected_unique}"
        )));
    }
    Ok(())
}

enum Difference<'a> {
    OnlyInFirst(&'a [u8]),
    OnlyInSecond(&'a [u8]),
}

/// The smallest board in one sorted set but not the other.
fn first_difference<'a>(first: &'a [Vec<u8>], second: &'a [Vec<u8>]) -> Option<Difference<'a>> {
    let (mut i, mut j) = (0, 0);
    while i < first.len() || j < second.len() {
        match (first.get(i), second.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => return Some(Difference::OnlyInFirst(a)),
            (Some(_), Some(b)) => return Some(Difference::OnlyInSecond(b)),
            (Some(a), None) => return Some(Difference::OnlyInFirst(a)),
            (None, Some(b)) => return Some(Difference::OnlyInSecond(b)),
            (None, None) => unreachable!(),
        }
    }
    None
}
