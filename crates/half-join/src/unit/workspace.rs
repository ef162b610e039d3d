//! A thread's workspace for counting units, and the jobs run in it at
//! the board's kernel level: a whole unit, its quarters, some of its
//! sets or parts of one.

use super::*;

/// A thread's memory for counting units, kept from one unit to the next:
/// a unit's halves take megabytes, and fresh allocations would be page
/// faults and zeroing on every unit, paid twice over when threads share the
/// caches. A pool thread's workspace ends with the count; the caller's (a
/// one-thread count runs there) stays for its next count, as big as the
/// largest unit so far. Both layouts' buffers are here; a count uses one.
#[derive(Default)]
pub(super) struct Workspace {
    pub(super) narrow: Buffers<u32>,
    pub(super) wide: Buffers<u64>,
}

/// The buffers of one layout's word.
pub(super) struct Buffers<W> {
    /// Unsorted halves of the side being filled: (bucket, compared word).
    pub(super) unsorted: Vec<(u32, W)>,
    /// Bucket sizes, then the counting sort's cursors.
    pub(super) counts: Vec<u32>,
    pub(super) tops: Side<W>,
    pub(super) bottoms: Side<W>,
    /// The join's runs of bottoms a bucket of tops may meet: listed, and
    /// gathered end to end.
    pub(super) runs: BottomRuns<W>,
    /// The unit's quarters of tops and of bottoms, and one set's keys on
    /// each side.
    pub(super) top_quarters: Quarters,
    pub(super) bottom_quarters: Quarters,
    pub(super) keys: Vec<u64>,
    pub(super) bottom_keys: Vec<u64>,
    /// Where one set's choice of index diagonals moves the keys' bits.
    pub(super) remap: Remap,
}

impl<W: Word> Default for Buffers<W> {
    fn default() -> Self {
        Buffers {
            unsorted: Vec::new(),
            counts: Vec::new(),
            tops: Side::default(),
            bottoms: Side::default(),
            runs: BottomRuns::default(),
            top_quarters: Quarters::default(),
            bottom_quarters: Quarters::default(),
            keys: Vec::new(),
            bottom_keys: Vec::new(),
            remap: Remap::default(),
        }
    }
}

thread_local! {
    pub(super) static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// The solutions a unit stands for: its orbit's worth of each top set's
/// joins, each top set weighted by its orbit under the symmetries that fix
/// the unit (and skipped unless it is the smallest of that orbit).
///
/// Counted with the code of the board's level ([`Tuning::level`]: the
/// engine's entry has refused a forced level the CPU lacks by then).
pub(crate) fn count_unit(board: &Board, unit: Unit) -> Counted {
    dispatch(board, unit, Job::Whole)
}

/// `job` on one unit with the code of the board's level (see
/// [`count_unit`]): every count path, parts included, runs there.
pub(super) fn dispatch(board: &Board, unit: Unit, job: Job) -> Counted {
    arch::dispatch_to(board.tuning.level, UnitJob { board, unit, job })
        .expect("a level this CPU has")
}

/// What is done to a unit at the dispatched level.
#[derive(Clone, Copy, Debug)]
pub(super) enum Job {
    /// The whole unit counted ([`count_unit`]).
    Whole,
    /// Its quarters built ([`prepare_unit`]; the count holds nodes only).
    Prepare,
    /// Some of its top sets, or one sub-part of one, counted
    /// ([`count_sets`], [`count_sub_part`]).
    Join(Selection),
    /// One top set's quarters built, and its sub-parts counted
    /// ([`prepare_set`]; the count holds them as its solutions).
    PrepareSet(u64),
}

/// One job on one unit, at whichever level it is dispatched to.
pub(super) struct UnitJob<'a> {
    pub(super) board: &'a Board,
    pub(super) unit: Unit,
    pub(super) job: Job,
}

impl Task for UnitJob<'_> {
    type Output = Counted;

    fn run<L: Isa>(self, isa: L) -> Counted {
        let UnitJob { board, unit, job } = self;
        WORKSPACE.with_borrow_mut(|workspace| {
            let Workspace { narrow, wide } = workspace;
            let mut counted = match job {
                Job::Whole if board.tuning.quarters => {
                    let prepared = build_quarters(isa, board, unit, narrow);
                    let selection = Selection::sets(SetRange::ALL);
                    let mut counted = join_sets(isa, board, unit, narrow, wide, selection);
                    counted.count.nodes = counted.count.nodes.checked_add(prepared).expect(FITS);
                    counted
                }
                Job::Whole => Counted::from(match board.layout.width {
                    Width::Wide => count_unit_in(isa, board, unit, wide, chunk::<u64>()),
                    Width::Narrow => count_unit_in(isa, board, unit, narrow, chunk::<u32>()),
                }),
                Job::Prepare => Counted::from(UnitCount {
                    nodes: build_quarters(isa, board, unit, narrow),
                    ..UnitCount::default()
                }),
                Job::Join(selection) => {
                    build_quarters(isa, board, unit, narrow);
                    join_sets(isa, board, unit, narrow, wide, selection)
                }
                Job::PrepareSet(place) => {
                    build_quarters(isa, board, unit, narrow);
                    Counted::from(UnitCount {
                        solutions: prepare_set_in(isa, board, unit, narrow, place).into(),
                        ..UnitCount::default()
                    })
                }
            };
            // Every pair the join compared in this job, whichever path
            // and layout joined it (a job that only builds joins none).
            counted.count.pair_tests = narrow.runs.take_tested() + wide.runs.take_tested();
            counted
        })
    }
}

/// Builds a unit's quarters in this thread's workspace (kept for the parts
/// that follow, and reused if they are already the unit's); returns the
/// queens placed, as counted whether built now or reused. A board without
/// quarters has no shared work.
pub(crate) fn prepare_unit(board: &Board, unit: Unit) -> u64 {
    if !board.tuning.quarters {
        return 0;
    }
    dispatch(board, unit, Job::Prepare).count.nodes
}

/// Into how many parts a unit can be cut, its finest parts:
/// [`Tuning::parts_per_set`] per top set it joins on boards made from
/// quarters (a part is a range of them, in their sets' order), else one.
pub(crate) fn parts(board: &Board, unit: Unit) -> u32 {
    if !board.tuning.quarters {
        return 1;
    }
    let parts = top_sets(board, unit).saturating_mul(board.tuning.parts_per_set.into());
    u32::try_from(parts).unwrap_or(u32::MAX).max(1)
}

/// What `selection` takes of a unit on a board made from quarters (parts
/// of its sets, or sub-parts of them, see [`Selection`]), counted as
/// [`count_sets`] counts sets.
pub(crate) fn count_selection(board: &Board, unit: Unit, selection: Selection) -> Counted {
    debug_assert!(board.tuning.quarters);
    dispatch(board, unit, Job::Join(selection))
}

/// Builds the quarters of the unit's top set at `place` (and the unit's
/// own, if this thread does not hold them) and says into how many
/// sub-parts its join is cut (see [`SetCut`]); 1 for a place past the
/// unit's sets.
pub(crate) fn prepare_set(board: &Board, unit: Unit, place: u64) -> u32 {
    if !board.tuning.quarters {
        return 1;
    }
    let counted = dispatch(board, unit, Job::PrepareSet(place));
    u32::try_from(counted.count.solutions).unwrap_or(u32::MAX)
}

/// [`prepare_set`] at `isa`'s level, the unit's quarters built.
pub(super) fn prepare_set_in<L: Isa>(
    isa: L,
    board: &Board,
    unit: Unit,
    buffers: &mut Buffers<u32>,
    wanted: u64,
) -> u32 {
    let (_, fixing) = board.orbit(unit);
    let bottom_unit = board.map_unit(SplitSymmetry::Flip, unit);
    let mut place = 0u64;
    let mut sub_parts = 1;
    for_each_top_set(board, unit, &fixing, |top_set, _| {
        if place == wanted {
            let bottom_set = board.bottom_set(unit.middle, top_set);
            let (_, cut) = set_quarters(
                isa,
                board,
                [unit, bottom_unit],
                [&mut buffers.top_quarters, &mut buffers.bottom_quarters],
                [top_set, bottom_set],
            );
            sub_parts = cut.count();
        }
        place += 1;
    });
    sub_parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Level;
    use crate::unit::tests::*;
    use queens_conformance::tier;
    use queens_core::oeis;

    /// `board` counted with the code of `level`.
    fn at_level(board: &Board, level: Level) -> Board {
        retuned(board, |tuning| tuning.level = level)
    }

    #[test]
    fn every_level_counts_every_board_from_8_to_16() {
        // Each instruction-set level's code (kernels, `fit`, `pext` or
        // tables, the searches) counts whole boards, both ways of making
        // halves (searched below n = 14, from quarters above), against
        // A000170. A level this CPU lacks is named on stderr as skipped.
        for level in crate::arch::tests::tested_levels() {
            for n in tier::boards(8..=15, 8..=16) {
                let board = at_level(&Board::new(n), level);
                let counted: u64 = (board.units().into_iter())
                    .filter(|&unit| board.is_canonical(unit))
                    .map(|unit| count_unit(&board, unit).count.solutions)
                    .sum();
                assert_eq!(Some(counted), oeis::total(n), "n = {n}, {level:?}");
            }
        }
    }

    #[test]
    fn every_level_counts_every_board_in_parts_in_the_narrow_layout() {
        every_level_counts_every_board_in_parts(Width::Narrow);
    }

    #[test]
    fn every_level_counts_every_board_in_parts_in_the_wide_layout() {
        every_level_counts_every_board_in_parts(Width::Wide);
    }

    /// The parts' path (quarters prepared, then ranges of top sets; the
    /// wide layout's shaped keys) at each level: two parts of every unit
    /// add up to the whole board, and prepared nodes plus the parts' nodes
    /// are the whole unit's. One test per layout, so that the full tier's
    /// boards run on two test threads at once.
    fn every_level_counts_every_board_in_parts(width: Width) {
        for level in crate::arch::tests::tested_levels() {
            for n in tier::boards(14..=14, 14..=15) {
                let board = at_level(&Board::with_width(n, width), level);
                let at = |unit, job| dispatch(&board, unit, job).count;
                let mut total = 0;
                for unit in board.units().into_iter().filter(|&u| board.is_canonical(u)) {
                    let whole = at(unit, Job::Whole);
                    let sets = top_sets(&board, unit);
                    let mut sum = at(unit, Job::Prepare);
                    for index in 0..2 {
                        sum += at(
                            unit,
                            Job::Join(Selection::sets(SetRange::part(sets, index, 2))),
                        );
                    }
                    assert_eq!(sum, whole, "n = {n}, {width:?}, {level:?}, {unit:?}");
                    total += sum.solutions;
                }
                assert_eq!(Some(total), oeis::total(n), "n = {n}, {width:?}, {level:?}");
            }
        }
    }
}
