//! Cross-validation, the check behind `queens verify` and the first step of
//! `queens compare`. For every given solver and every n it supports, up to
//! `max_n`:
//! - every listed board passes the independent checker
//!   ([`queens_core::check::checked_listing`], which also refuses repeats);
//! - the set of boards equals the set listed by the first solver that lists
//!   boards for that n (the reference);
//! - the count equals OEIS A000170 and the class count equals A002562.
//!
//! Count-only solvers are checked on their counts alone.

use std::collections::BTreeSet;

use queens_core::{CountOptions, Solution, Solver, check, oeis, symmetry};

use crate::error::Error;

/// What was established for one (solver, n).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Board size.
    pub n: usize,
    /// The solver checked.
    pub solver: &'static str,
    /// Its count, equal to A000170.
    pub solutions: u64,
    /// Its class count, equal to A002562.
    pub unique: u64,
    /// "all valid", or "count only" for solvers that do not list boards.
    pub boards: &'static str,
    /// The solver whose set this one equals, or "reference"/"-".
    pub same_set_as: String,
}

/// Checks n = 1..=max_n, handing each (solver, n) to `on_row` once it
/// passed. Returns how many pairs were checked. A disagreement is
/// [`Error::Mismatch`]; an impossible request (no published count, nothing
/// to check) is [`Error::Input`].
pub fn cross_validate(
    solvers: &[&'static dyn Solver],
    max_n: usize,
    on_row: &mut dyn FnMut(&Row),
) -> Result<usize, Error> {
    if max_n > oeis::MAX_KNOWN_N {
        return Err(Error::Input(format!(
            "verify compares with published counts, known for n <= {}; got --max-n {}",
            oeis::MAX_KNOWN_N,
            max_n
        )));
    }
    let mut checked = 0usize;
    for n in 1..=max_n {
        // The reference board set for this n: the first lister's.
        let mut reference: Option<(&'static str, BTreeSet<Vec<u8>>)> = None;
        for &solver in solvers {
            if !solver.info().supports(n) {
                continue;
            }
            on_row(&validate_one(solver, n, &mut reference)?);
            checked += 1;
        }
    }
    if checked == 0 {
        return Err(Error::Input(format!(
            "nothing to verify: no selected solver supports any n in 1..={max_n}"
        )));
    }
    Ok(checked)
}

fn validate_one(
    solver: &'static dyn Solver,
    n: usize,
    reference: &mut Option<(&'static str, BTreeSet<Vec<u8>>)>,
) -> Result<Row, Error> {
    let id = solver.info().id;
    if !solver.info().enumerates {
        let options = CountOptions {
            unique: true,
            threads: 0,
        };
        let stats = solver.count(n, &options)?;
        let unique = stats.unique.ok_or_else(|| {
            Error::Mismatch(format!("n = {n}: {id} did not count classes when asked"))
        })?;
        agree_with_oeis(id, n, stats.solutions, unique)?;
        return Ok(Row {
            n,
            solver: id,
            solutions: stats.solutions,
            unique,
            boards: "count only",
            same_set_as: "-".into(),
        });
    }

    let boards = check::checked_listing(solver, n).map_err(Error::Mismatch)?;
    let unique = symmetry::count_unique(boards.iter().map(Vec::as_slice));
    agree_with_oeis(id, n, boards.len() as u64, unique)?;
    let same_set_as = match reference {
        None => {
            let row_count = boards.len() as u64;
            *reference = Some((id, boards));
            return Ok(Row {
                n,
                solver: id,
                solutions: row_count,
                unique,
                boards: "all valid",
                same_set_as: "reference".to_string(),
            });
        }
        Some((reference_id, reference_boards)) => {
            // The smallest board in one set and not the other names the
            // disagreement concretely.
            let only_in_reference = reference_boards.difference(&boards).next();
            let only_here = boards.difference(reference_boards).next();
            let first = match (only_in_reference, only_here) {
                (Some(a), Some(b)) if b < a => Some((id, *reference_id, b)),
                (Some(a), _) => Some((*reference_id, id, a)),
                (None, Some(b)) => Some((id, *reference_id, b)),
                (None, None) => None,
            };
            if let Some((holder, lacker, board)) = first {
                return Err(Error::Mismatch(format!(
                    "n = {n}: {holder} finds {} but {lacker} does not",
                    Solution::from_rows(board.clone())
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

fn agree_with_oeis(id: &str, n: usize, total: u64, unique: u64) -> Result<(), Error> {
    let expected_total = oeis::total(n).expect("n <= MAX_KNOWN_N was checked");
    let expected_unique = oeis::unique(n).expect("n <= MAX_KNOWN_N was checked");
    if total != expected_total {
        return Err(Error::Mismatch(format!(
            "n = {n}: {id} finds {total} solutions, OEIS A000170 says {expected_total}"
        )));
    }
    if unique != expected_unique {
        return Err(Error::Mismatch(format!(
            "n = {n}: {id} finds {unique} classes, OEIS A002562 says {expected_unique}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_three_mask::ThreeMask;
    use std::ops::ControlFlow;

    #[test]
    fn a_correct_solver_passes_every_n() {
        let mut rows = Vec::new();
        let checked = cross_validate(&[&ThreeMask], 8, &mut |row| rows.push(row.clone())).unwrap();
        assert_eq!(checked, 8);
        assert_eq!(rows[7].solutions, 92);
        assert_eq!(rows[7].unique, 12);
        assert_eq!(rows[7].same_set_as, "reference");
    }

    /// Three-mask's search with one board of n = 6 left out.
    struct DropsOne;

    impl Solver for DropsOne {
        fn info(&self) -> &'static queens_core::SolverInfo {
            ThreeMask.info()
        }
        fn enumerate(
            &self,
            n: usize,
            visit: &mut queens_core::Visit<'_>,
        ) -> Result<queens_core::SearchStats, queens_core::QueensError> {
            let mut first = true;
            ThreeMask.enumerate(n, &mut |rows| {
                if n == 6 && std::mem::take(&mut first) {
                    return ControlFlow::Continue(());
                }
                visit(rows)
            })
        }
        fn count(
            &self,
            n: usize,
            options: &CountOptions,
        ) -> Result<queens_core::SearchStats, queens_core::QueensError> {
            ThreeMask.count(n, options)
        }
        fn trace(
            &self,
            n: usize,
            sink: &mut dyn queens_core::trace::TraceSink,
        ) -> Result<queens_core::SearchStats, queens_core::QueensError> {
            ThreeMask.trace(n, sink)
        }
    }

    static DROPS_ONE: DropsOne = DropsOne;

    #[test]
    fn a_missing_board_is_a_mismatch() {
        let error = cross_validate(&[&DROPS_ONE], 6, &mut |_| {}).unwrap_err();
        assert!(
            matches!(&error, Error::Mismatch(text) if text.contains("OEIS A000170 says 4")),
            "{error}"
        );
    }

    #[test]
    fn an_n_without_a_published_count_is_refused_as_input() {
        let error = cross_validate(&[&ThreeMask], oeis::MAX_KNOWN_N + 1, &mut |_| {}).unwrap_err();
        assert!(matches!(error, Error::Input(_)), "{error}");
    }
}
