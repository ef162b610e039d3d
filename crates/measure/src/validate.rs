//! Cross-validation, the check behind `queens verify` and the first step of
//! `queens compare`. For every given solver and every n it supports, up to
//! `max_n`:
//! - every listed board passes the independent checker
//!   ([`queens_core::check::checked_listing`], which also refuses repeats);
//! - the set of boards equals the set listed by the first solver that lists
//!   boards for that n (the reference);
//! - the count equals OEIS A000170 and the class count equals A002562.
//!
//! Count-only solvers are checked on their counts alone. Listings above
//! [`EXACT_MAX_N`] are streamed (checked board by board and digested), so
//! memory stays constant at any n.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

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
/// passed; `on_row` may stop the checks there (a caller whose time budget
/// the rest would exceed) with `Break`. Returns how many pairs were
/// checked. A disagreement is [`Error::Mismatch`]; an impossible request
/// (no published count, nothing to check) is [`Error::Input`].
pub fn cross_validate(
    solvers: &[&'static dyn Solver],
    max_n: usize,
    on_row: &mut dyn FnMut(&Row) -> ControlFlow<()>,
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
        let mut reference: Option<(&'static str, Listing)> = None;
        for &solver in solvers {
            if !solver.info().supports(n) {
                continue;
            }
            let stop = on_row(&validate_one(solver, n, &mut reference)?);
            checked += 1;
            if stop.is_break() {
                return Ok(checked);
            }
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
    reference: &mut Option<(&'static str, Listing)>,
) -> Result<Row, Error> {
    let id = solver.info().id;
    let row = |solutions, unique, boards, same_set_as: &str| Row {
        n,
        solver: id,
        solutions,
        unique,
        boards,
        same_set_as: same_set_as.to_string(),
    };
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
        return Ok(row(stats.solutions, unique, "count only", "-"));
    }
    let listing = if n <= EXACT_MAX_N {
        Listing::exact(solver, n)?
    } else {
        Listing::streamed(solver, n)?
    };
    let (solutions, unique) = (listing.count, listing.canonical);
    agree_with_oeis(id, n, solutions, unique)?;
    let same_set_as = match reference {
        None => "reference",
        Some((reference_id, reference_listing)) => {
            if let Some(difference) = reference_listing.difference(&listing, reference_id, id) {
                return Err(Error::Mismatch(format!("n = {n}: {difference}")));
            }
            *reference_id
        }
    };
    let row = row(solutions, unique, "all valid", same_set_as);
    reference.get_or_insert((id, listing));
    Ok(row)
}

/// Up to this n a listing is kept whole, so that a difference between two
/// solvers names a board (14,200 boards at n = 12). Above it, a listing is
/// streamed: each board checked as it comes and folded into a digest, so
/// memory stays constant however large n is.
pub const EXACT_MAX_N: usize = 12;

/// What is kept of one solver's listing: its count, classes and digest,
/// and, up to [`EXACT_MAX_N`], every board (checked, no repeats), so that a
/// difference names one.
#[derive(Default)]
struct Listing {
    count: u64,
    /// Classes: each has exactly one canonical member, so counting the
    /// canonical boards of a listing that is the whole set counts classes.
    canonical: u64,
    digest: Digest,
    boards: Option<BTreeSet<Vec<u8>>>,
}

/// An order-independent digest of a set of boards: the sum and the XOR of a
/// 64-bit hash of each. Two listings with the same count (checked against
/// OEIS) but different boards, or a board listed twice in place of another,
/// differ in both with overwhelming probability.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Digest {
    sum: u64,
    xor: u64,
}

impl Digest {
    fn add(&mut self, rows: &[u8]) {
        // FNV-1a over the rows, then a SplitMix64 finaliser so that boards
        // differing in one square spread over every bit.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &row in rows {
            h = (h ^ u64::from(row)).wrapping_mul(0x0100_0000_01b3);
        }
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        self.sum = self.sum.wrapping_add(h);
        self.xor ^= h;
    }
}

impl Listing {
    /// Counts one more (checked) board.
    fn add(&mut self, rows: &[u8]) {
        self.count += 1;
        self.canonical += u64::from(symmetry::is_canonical(rows));
        self.digest.add(rows);
    }

    /// Every board kept, as the checker listed them.
    fn exact(solver: &dyn Solver, n: usize) -> Result<Listing, Error> {
        let boards = check::checked_listing(solver, n).map_err(Error::Mismatch)?;
        let mut listing = Listing::default();
        boards.iter().for_each(|rows| listing.add(rows));
        listing.boards = Some(boards);
        Ok(listing)
    }

    /// Every board checked as it comes, then only counted and digested.
    fn streamed(solver: &dyn Solver, n: usize) -> Result<Listing, Error> {
        let id = solver.info().id;
        let mut listing = Listing::default();
        let mut broken = None;
        solver.enumerate(n, &mut |rows| {
            if rows.len() != n {
                broken = Some(format!(
                    "n = {n}: {id} listed a board of size {}",
                    rows.len()
                ));
                return ControlFlow::Break(());
            }
            if let Err(violation) = check::check(rows) {
                broken = Some(format!(
                    "n = {n}: {id} listed {}, which is not a solution: {violation}",
                    Solution::from_rows(rows.to_vec())
                ));
                return ControlFlow::Break(());
            }
            listing.add(rows);
            ControlFlow::Continue(())
        })?;
        broken.map_or(Ok(listing), |problem| Err(Error::Mismatch(problem)))
    }

    /// How `other` (solver `other_id`) differs from this listing (solver
    /// `id`), if it does: a board one lists and the other does not, or,
    /// for streamed listings, that their digests differ.
    fn difference(&self, other: &Listing, id: &str, other_id: &str) -> Option<String> {
        let (Some(mine), Some(theirs)) = (&self.boards, &other.boards) else {
            return (self.digest != other.digest).then(|| {
                format!(
                    "{id} and {other_id} list the same number of valid boards, but not the same boards (their digests differ)"
                )
            });
        };
        // The smallest board in one set and not the other names the
        // disagreement concretely.
        let only_mine = mine.difference(theirs).next();
        let only_theirs = theirs.difference(mine).next();
        let (holder, lacker, board) = match (only_mine, only_theirs) {
            (Some(a), Some(b)) if b < a => (other_id, id, b),
            (Some(a), _) => (id, other_id, a),
            (None, Some(b)) => (other_id, id, b),
            (None, None) => return None,
        };
        Some(format!(
            "{holder} finds {} but {lacker} does not",
            Solution::from_rows(board.clone())
        ))
    }
}

fn agree_with_oeis(id: &str, n: usize, total: u64, unique: u64) -> Result<(), Error> {
    let expected_total = oeis::total(n).expect("n <= MAX_KNOWN_N was checked");
    let expected_unique = oeis::unique(n).expect("n <= MAX_KNOWN_N was checked");
    if total != expected_total {
        return Err(Error::Mismatch(format!(
            "n = {n}: {id} finds {}, OEIS A000170 says {expected_total}",
            queens_core::counted(total, "solution", "solutions")
        )));
    }
    if unique != expected_unique {
        return Err(Error::Mismatch(format!(
            "n = {n}: {id} finds {}, OEIS A002562 says {expected_unique}",
            queens_core::counted(unique, "class", "classes")
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_three_mask::ThreeMask;

    #[test]
    fn a_correct_solver_passes_every_n() {
        let mut rows = Vec::new();
        let checked = cross_validate(&[&ThreeMask], 8, &mut |row| {
            rows.push(row.clone());
            ControlFlow::Continue(())
        })
        .unwrap();
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
        let error =
            cross_validate(&[&DROPS_ONE], 6, &mut |_| ControlFlow::Continue(())).unwrap_err();
        assert!(
            matches!(&error, Error::Mismatch(text) if text.contains("OEIS A000170 says 4")),
            "{error}"
        );
    }

    #[test]
    fn streamed_listings_are_checked_and_compared_by_digest() {
        let n = EXACT_MAX_N + 1;
        let a = Listing::streamed(&ThreeMask, n).unwrap();
        let b = Listing::streamed(&ThreeMask, n).unwrap();
        assert_eq!(a.count, oeis::total(n).unwrap());
        assert_eq!(a.canonical, oeis::unique(n).unwrap());
        assert_eq!(a.difference(&b, "x", "y"), None);
        // One board listed twice in place of another: same count, another
        // digest.
        let mut twice = Digest::default();
        let mut once = Digest::default();
        twice.add(&[0, 2, 4, 1, 3]);
        twice.add(&[0, 2, 4, 1, 3]);
        once.add(&[0, 2, 4, 1, 3]);
        once.add(&[0, 3, 1, 4, 2]);
        assert_ne!(twice, once);
    }

    #[test]
    fn kept_listings_that_differ_name_the_smallest_board_one_lacks() {
        let kept = |boards: &[&[u8]]| Listing {
            boards: Some(boards.iter().map(|rows| rows.to_vec()).collect()),
            ..Listing::default()
        };
        let both = kept(&[&[1, 3, 0, 2], &[2, 0, 3, 1]]);
        let one = kept(&[&[2, 0, 3, 1]]);
        assert_eq!(both.difference(&both, "x", "y"), None);
        let difference = one.difference(&both, "x", "y").unwrap();
        assert!(difference.starts_with("y finds ") && difference.ends_with(" but x does not"));
    }

    #[test]
    fn an_n_without_a_published_count_is_refused_as_input() {
        let error = cross_validate(&[&ThreeMask], oeis::MAX_KNOWN_N + 1, &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap_err();
        assert!(matches!(error, Error::Input(_)), "{error}");
    }
}
