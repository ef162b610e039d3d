//! Measuring a finder (the other question: one board, not all) the way
//! the counters' runs (`run`) and [`crate::climb`] measure a counter:
//!
//! 1. a *checking run* with the counting allocator watching: the board is
//!    checked by the O(n) checker (`queens_core::find::check_found`) and,
//!    where n is small, by the O(n²) pairwise one as well; a wrong or
//!    missing board makes an error entry, and that (finder, n) is never
//!    timed;
//! 2. timed runs, climbing the finder's sizes ([`sizes`]) until a run no
//!    longer fits its limit (`cargo bench`, [`crate::climb::probe`]) or its
//!    budget (`queens compare`, [`crate::climb::time_within_budget`]): the
//!    counters' rule, for a [`Finding`].
//!
//! Entries answer [`FIND_ONE`]: `nodes` holds the finder's steps and
//! `solutions` is null, so no counting table ever takes one for a count.

use std::hint::black_box;
use std::time::{Duration, Instant};

use queens_core::find::{Found, check_found};
use queens_core::{Finder, check};
use queens_record::{FIND_ONE, Question};

use crate::run::{CheckedRun, Subject, watched};

/// The seed every seeded finder runs with in `cargo bench` and `queens
/// compare` (recorded as `settings.find_seed`): fixed, so that a random
/// search does the same work in every record and its times compare.
pub const FIND_SEED: u64 = 1;

/// The first size a finder is timed at: the classic board, where every
/// finder is all fixed cost and the counters' times can be set beside it.
pub const FIRST_N: usize = 8;
/// The largest size a searching finder climbs to: the depth-first searches
/// list boards up to 32 files, and their first board's time jumps
/// erratically long before that.
pub const SEARCH_MAX_N: usize = 32;
/// The largest size a finder is timed at: a board of 10^7 queens is 40 MB
/// (its check as much again), the most a bench should hold at once.
pub const FIND_MAX_N: usize = 10_000_000;
/// Boards up to this many files are also checked pairwise (O(n²)): an
/// independent check of the linear checker itself, cheap at this size.
pub const PAIRWISE_MAX_N: usize = 1_000;

/// A finder to time, with the sizes it climbs ([`sizes`]).
pub type TimedFinder = (&'static dyn Finder, Vec<usize>);

/// How a finder climbs n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Climb {
    /// A board written or repaired in about n steps (construction,
    /// min-conflicts): 8, then the powers of ten.
    Decades,
    /// A search whose first board's time jumps with n (fail-first, a
    /// depth-first solver stopped at its first board): every even n from 8
    /// to [`SEARCH_MAX_N`], so that the jumps show.
    Search,
}

/// The sizes a finder climbs, within its own limit.
pub fn sizes(finder: &dyn Finder, climb: Climb) -> Vec<usize> {
    let all: Vec<usize> = match climb {
        Climb::Decades => std::iter::once(FIRST_N)
            .chain(
                std::iter::successors(Some(10), |n| Some(n * 10)).take_while(|&n| n <= FIND_MAX_N),
            )
            .collect(),
        Climb::Search => (FIRST_N..=SEARCH_MAX_N).step_by(2).collect(),
    };
    all.into_iter()
        .filter(|&n| finder.info().supports(n))
        .collect()
}

/// Why a finder's answer for n is not a board of n: the linear check, then
/// (for n up to [`PAIRWISE_MAX_N`]) the pairwise one, which shares no code
/// with it.
pub fn wrong_answer(n: usize, found: &Found) -> Option<String> {
    if let Err(wrong) = check_found(n, found) {
        return Some(wrong.to_string());
    }
    let board = found.board.as_ref()?;
    if n <= PAIRWISE_MAX_N
        && let Err(violation) = check::check_wide(board.rows())
    {
        return Some(format!(
            "not a solution (pairwise check; the linear one passed it): {violation}"
        ));
    }
    None
}

/// A finder run with `seed`: its checking run finds once with the
/// allocator watching and checks the board ([`wrong_answer`]).
#[derive(Clone, Copy)]
pub struct Finding<'a> {
    /// The finder.
    pub finder: &'a dyn Finder,
    /// The seed it runs with.
    pub seed: u64,
}

impl Subject for Finding<'_> {
    fn question(&self) -> Question {
        FIND_ONE
    }
    fn id(&self) -> &'static str {
        self.finder.info().id
    }
    fn check(&self, n: usize) -> CheckedRun {
        let (id, seed) = (self.id(), self.seed);
        let (result, wall, peak) = watched(|| self.finder.find(black_box(n), seed));
        let (steps, extra, error) = match result {
            Err(error) => (None, Vec::new(), Some(error.to_string())),
            Ok(found) => {
                let error = wrong_answer(n, &found)
                    .map(|wrong| format!("wrong board: {id} (n = {n}, seed {seed}): {wrong}"));
                (Some(found.steps), found.extra, error)
            }
        };
        CheckedRun {
            question: FIND_ONE,
            solver: id,
            n,
            wall,
            peak_heap_bytes: peak,
            error,
            nodes: steps,
            solutions: None,
            unique: None,
            extra,
        }
    }
    /// One timed run; the board is dropped after the clock stops (freeing
    /// it is not finding it).
    fn time(&self, n: usize) -> Duration {
        let started = Instant::now();
        let found = black_box(self.finder.find(black_box(n), self.seed));
        let wall = started.elapsed();
        drop(found);
        wall
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::climb::{Planned, admit_all, probe, time_within_budget};
    use queens_core::find::FirstBoard;
    use queens_core::{FinderInfo, QueensError};
    use queens_record::Status;

    /// A deliberately broken finder: its "board" puts every queen on the
    /// first row, or on the main diagonal (which the linear checker's
    /// diagonal sums catch), or returns no board at all.
    struct Broken(fn(usize) -> Option<Vec<u32>>);

    const BROKEN: FinderInfo = FinderInfo {
        id: "broken",
        seed: "a test",
        idea: "wrong on purpose",
        step: "a queen written",
        max_n: 1_000_000,
        limit_reason: "a test",
        seeded: false,
        teaching: "",
    };

    impl Finder for Broken {
        fn info(&self) -> &FinderInfo {
            &BROKEN
        }
        fn peak_bytes(&self, n: usize) -> u64 {
            4 * n as u64
        }
        fn find(&self, n: usize, _seed: u64) -> Result<Found, QueensError> {
            Ok(match (self.0)(n) {
                Some(rows) => Found::board(rows, n as u64),
                None => Found::none(0),
            })
        }
    }

    #[test]
    fn a_wrong_or_missing_board_is_an_error_row_never_a_timing() {
        let diagonal = Broken(|n| Some((0..n as u32).collect()));
        let one_row = Broken(|n| Some(vec![0; n]));
        let nothing = Broken(|_| None);
        let short = Broken(|n| Some((0..n as u32 - 1).collect()));
        for (finder, says) in [
            (&diagonal, "not a solution"),
            (&one_row, "not a solution"),
            (&nothing, "no board exists"),
            (&short, "board of"),
        ] {
            let finding = Finding {
                finder,
                seed: FIND_SEED,
            };
            let entries = time_within_budget(
                &finding,
                [8, 1000],
                (Duration::from_secs(5), 3),
                &admit_all,
                |_| {},
            );
            assert_eq!(entries.len(), 2, "{entries:?}");
            for entry in &entries {
                assert_eq!(entry.question, FIND_ONE);
                assert_eq!(entry.status(), Status::Error, "{entry:?}");
                assert_eq!(entry.timing(), None);
                let error = entry.error().unwrap();
                assert!(error.contains(says), "{error}");
            }
            // The bench's probe says the same.
            let plan = probe(&finding, [8], Duration::from_secs(1));
            assert!(matches!(&plan[..], [Planned::Settled(e)] if e.status() == Status::Error));
        }
    }

    #[test]
    fn the_pairwise_check_backs_the_linear_one_on_small_boards() {
        let good = Found::board(vec![1, 3, 0, 2], 4);
        assert_eq!(wrong_answer(4, &good), None);
        let attacked = Found::board(vec![0, 2, 4, 1, 3, 3], 6);
        assert!(wrong_answer(6, &attacked).is_some());
    }

    #[test]
    fn a_real_finder_is_timed_with_its_steps_and_board_checked() {
        static FIRST: FirstBoard =
            FirstBoard::new(&queens_three_mask::ThreeMask, &queens_three_mask::INFO);
        let ns = sizes(&FIRST, Climb::Search);
        assert_eq!(ns.first(), Some(&8));
        assert_eq!(ns.last(), Some(&32));
        assert!(ns.windows(2).all(|w| w[1] == w[0] + 2));
        let finding = Finding {
            finder: &FIRST,
            seed: 0,
        };
        let entries = time_within_budget(
            &finding,
            ns[..3].iter().copied(),
            (Duration::from_secs(5), 2),
            &admit_all,
            |_| {},
        );
        assert_eq!(entries.len(), 3);
        for entry in &entries {
            assert_eq!(entry.status(), Status::Timed, "{entry:?}");
            assert_eq!(entry.question, FIND_ONE);
            assert_eq!(entry.solutions, None);
            assert!(entry.nodes.is_some_and(|steps| steps > 0));
        }
    }

    #[test]
    fn decades_climb_from_eight_by_powers_of_ten_within_the_finder() {
        let wide = Broken(|_| None);
        assert_eq!(
            sizes(&wide, Climb::Decades),
            vec![8, 10, 100, 1_000, 10_000, 100_000, 1_000_000]
        );
    }
}
