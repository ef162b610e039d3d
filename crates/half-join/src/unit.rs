//! Counting one unit: enumerate its top halves and the bottom halves they
//! need, group both by file set, and join each top set with its bottom set.

use std::cell::RefCell;

use queens_core::split::{Part, UnitCount};

use crate::arch::{self, Isa, Task};
use crate::board::{Board, SplitSymmetry, Symmetries, Unit, choose};
use crate::halves::{HalfSearch, Walk};
use crate::index::{self, Chooser, Remap};
use crate::join::{self, BottomRuns, Role, Side, Word};
use crate::layout::Width;
use crate::quarters::{self, Chunk, Quarters};
use crate::shape;

/// A thread's memory for counting units, kept from one unit to the next:
/// a unit's halves take megabytes, and fresh allocations would be page
/// faults and zeroing on every unit, paid twice over when threads share the
/// caches. A pool thread's workspace ends with the count; the caller's (a
/// one-thread count runs there) stays for its next count, as big as the
/// largest unit so far. Both layouts' buffers are here; a count uses one.
#[derive(Default)]
struct Workspace {
    narrow: Buffers<u32>,
    wide: Buffers<u64>,
}

/// The buffers of one layout's word.
struct Buffers<W> {
    /// Unsorted halves of the side being filled: (bucket, compared word).
    unsorted: Vec<(u32, W)>,
    /// Bucket sizes, then the counting sort's cursors.
    counts: Vec<u32>,
    tops: Side<W>,
    bottoms: Side<W>,
    /// The join's runs of bottoms a bucket of tops may meet: listed, and
    /// gathered end to end.
    runs: BottomRuns<W>,
    /// The unit's quarters of tops and of bottoms, and one set's keys on
    /// each side.
    top_quarters: Quarters,
    bottom_quarters: Quarters,
    keys: Vec<u64>,
    bottom_keys: Vec<u64>,
    /// Where one set's choice of index diagonals moves the keys' bits.
    remap: Remap,
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

impl<W: Word> Buffers<W> {
    /// Bytes held: what a thread keeps for counting units of this layout.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.unsorted.capacity() * size_of::<(u32, W)>()
            + self.counts.capacity() * size_of::<u32>()
            + self.tops.bytes()
            + self.bottoms.bytes()
            + self.runs.bytes()
            + self.top_quarters.bytes()
            + self.bottom_quarters.bytes()
            + (self.keys.capacity() + self.bottom_keys.capacity()) * size_of::<u64>()
            + self.remap.bytes()
    }
}

/// Why a unit's arithmetic cannot overflow: its count is at most Q(n), and
/// the layouts stop at n = 28, where Q(n) still fits a `u64`.
const FITS: &str = "a unit counts at most Q(n) < 2^64 solutions for n <= 28";

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// Halves per side held at once, so that a thread's memory is bounded
/// whatever n is: 64 MiB of compared words per side (2^24 narrow halves,
/// 2^23 wide ones). Up to n = 21 no unit reaches it, so a unit is one chunk
/// of tops against one of bottoms; beyond, the bottoms are walked again for
/// every chunk of tops.
pub(crate) const CHUNK_BYTES: usize = 64 << 20;

/// [`CHUNK_BYTES`] in halves of a layout's word.
fn chunk<W>() -> u64 {
    (CHUNK_BYTES / size_of::<W>()) as u64
}

/// A side's key bits per rank and file.
fn contributions(board: &Board, role: Role) -> &[[u64; 32]] {
    match role {
        Role::Top => &board.layout.top,
        Role::Bottom => &board.layout.bottom,
    }
}

/// The squares a side's queens may not take, per rank from the edge: the
/// middle queen's attacks, and for bottoms with the long diagonals'
/// symmetries those diagonals.
fn forbidden(board: &Board, unit: Unit, role: Role) -> [u32; crate::halves::MAX_HALF] {
    let mut attacked = board.middle_attacks(unit.middle);
    if board.klein && matches!(role, Role::Bottom) {
        for (attacked, squares) in attacked.iter_mut().zip(board.long_diagonals()) {
            *attacked |= squares;
        }
    }
    attacked
}

/// The search for one side of a unit.
fn search(board: &Board, unit: Unit, role: Role) -> HalfSearch<'_> {
    HalfSearch {
        contributions: contributions(board, role),
        attacked: forbidden(board, unit, role),
        files: board.full & !Board::middle_bit(unit.middle),
        block: board.block,
        pattern: unit.pattern,
    }
}

/// Enumerates the next chunk of a side's halves (at most about `limit`, see
/// [`HalfSearch::resume`]) into `side`, bucketed by (file set, index bits):
/// a counting sort, counted while searching, then placed. Returns the
/// nodes and the halves. The search runs compiled for `isa`'s level.
#[expect(
    clippy::too_many_arguments,
    reason = "the buffers of one chunk, borrowed apart"
)]
fn fill_chunk<W: Word, L: Isa>(
    isa: L,
    board: &Board,
    search: &HalfSearch<'_>,
    walk: &mut Walk,
    limit: u64,
    role: Role,
    side: &mut Side<W>,
    unsorted: &mut Vec<(u32, W)>,
    counts: &mut Vec<u32>,
) -> (u64, usize) {
    let (mark, step) = role.filling::<W>();
    let index_bits = board.layout.index_bits;
    counts.clear();
    // Every half of a side has as many files outside the block.
    let outside = board.half - search.pattern.count_ones() as usize;
    counts.resize(board.sets_with(outside) << index_bits, 0);
    unsorted.clear();
    let nodes = isa.run(|| {
        search.resume(walk, limit, |files, key| {
            let (index, word) = W::split(key, index_bits);
            let bucket = (board.set_index(files) << index_bits) | index as usize;
            counts[bucket] += 1;
            unsorted.push((bucket as u32, word.marked(mark)));
        })
    });
    side.fill(index_bits, counts, unsorted, step);
    (nodes, unsorted.len())
}

/// The solutions a unit stands for: its orbit's worth of each top set's
/// joins, each top set weighted by its orbit under the symmetries that fix
/// the unit (and skipped unless it is the smallest of that orbit).
///
/// Counted with the code of the level [`arch::choice`] chose (the
/// engine's entry has refused a forced level the CPU lacks by then; here
/// such a choice would count at the best level detected).
pub(crate) fn count_unit(board: &Board, unit: Unit) -> UnitCount {
    dispatch(board, unit, Job::Whole)
}

/// [`count_unit`] (or another job) with the code of `level`, if the CPU
/// has it.
#[cfg(test)]
fn count_unit_at(board: &Board, unit: Unit, level: arch::Level, job: Job) -> Option<UnitCount> {
    arch::dispatch_to(level, UnitJob { board, unit, job })
}

/// `job` on one unit with the code of the level [`arch::choice`] chose
/// (see [`count_unit`]): every count path, parts included, runs there.
fn dispatch(board: &Board, unit: Unit, job: Job) -> UnitCount {
    let level = arch::choice().map_or_else(|_| arch::best(), |choice| choice.level);
    arch::dispatch_to(level, UnitJob { board, unit, job }).expect("a level this CPU has")
}

/// What is done to a unit at the dispatched level.
#[derive(Clone, Copy, Debug)]
enum Job {
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
struct UnitJob<'a> {
    board: &'a Board,
    unit: Unit,
    job: Job,
}

impl Task for UnitJob<'_> {
    type Output = UnitCount;

    fn run<L: Isa>(self, isa: L) -> UnitCount {
        let UnitJob { board, unit, job } = self;
        WORKSPACE.with_borrow_mut(|workspace| {
            let Workspace { narrow, wide } = workspace;
            match job {
                Job::Whole if uses_quarters(board) => {
                    let prepared = build_quarters(isa, board, unit, narrow);
                    let mut count = join_sets(
                        isa,
                        board,
                        unit,
                        narrow,
                        wide,
                        Selection::sets(SetRange::ALL),
                        index::MIN_CHOICE_PAIRS,
                        &mut |_, _, _| {},
                    );
                    count.nodes = count.nodes.checked_add(prepared).expect(FITS);
                    count
                }
                Job::Whole => match board.layout.width {
                    Width::Wide => count_unit_in(isa, board, unit, wide, chunk::<u64>()),
                    Width::Narrow => count_unit_in(isa, board, unit, narrow, chunk::<u32>()),
                },
                Job::Prepare => UnitCount {
                    nodes: build_quarters(isa, board, unit, narrow),
                    ..UnitCount::default()
                },
                Job::Join(selection) => {
                    build_quarters(isa, board, unit, narrow);
                    join_sets(
                        isa,
                        board,
                        unit,
                        narrow,
                        wide,
                        selection,
                        index::MIN_CHOICE_PAIRS,
                        &mut |_, _, _| {},
                    )
                }
                Job::PrepareSet(place) => {
                    build_quarters(isa, board, unit, narrow);
                    UnitCount {
                        solutions: prepare_set_in(isa, board, unit, narrow, place).into(),
                        ..UnitCount::default()
                    }
                }
            }
        })
    }
}

/// The smallest board whose quarters are built for one top set at a time
/// (each quarter's pieces taking exactly the set's files there) rather than
/// once for all the sets of a unit: a unit's pieces grow several-fold per
/// n (a unit leaves 10 or 12 files outside its block whatever n is, and
/// the pieces of every subset of them are kept), and one set's pieces are
/// a small share of them. Below, sharing them across the unit's sets is
/// cheaper (timed side by side on the heaviest unit of n = 24 and 26).
pub(crate) const EXACT_MIN_N: usize = 27;

#[cfg(test)]
thread_local! {
    /// [`EXACT_MIN_N`], or less in a test that builds exact quarters on
    /// boards it can count.
    static EXACT_FROM: std::cell::Cell<usize> = const { std::cell::Cell::new(EXACT_MIN_N) };
}

/// Whether a board's quarters are built set by set (see [`EXACT_MIN_N`]).
fn exact_quarters(board: &Board) -> bool {
    #[cfg(test)]
    let from = EXACT_FROM.get();
    #[cfg(not(test))]
    let from = EXACT_MIN_N;
    board.n >= from
}

/// Whether a board's units make their halves from quarters (and so can be
/// counted in parts): see [`QUARTERS_MIN_N`].
pub(crate) fn uses_quarters(board: &Board) -> bool {
    board.n >= QUARTERS_MIN_N
}

/// Builds a unit's quarters in this thread's workspace (kept for the parts
/// that follow, and reused if they are already the unit's); returns the
/// queens placed, as counted whether built now or reused. A board without
/// quarters has no shared work.
pub(crate) fn prepare_unit(board: &Board, unit: Unit) -> u64 {
    if !uses_quarters(board) {
        return 0;
    }
    dispatch(board, unit, Job::Prepare).nodes
}

/// Into how many parts a unit can be cut, its finest slices: [`slices`]
/// per top set it joins on boards made from quarters (a part is a range of
/// them, in their sets' order), else one.
pub(crate) fn parts(board: &Board, unit: Unit) -> u32 {
    if !uses_quarters(board) {
        return 1;
    }
    let slices = top_sets(board, unit).saturating_mul(slices(board).into());
    u32::try_from(slices).unwrap_or(u32::MAX).max(1)
}

/// The smallest board whose top sets are cut into several slices: a set of
/// n = 28 is predicted at about a quarter of an hour (the plan's own
/// figures: `plan::tests::pieces` prints its longest unit and sets), so a
/// piece of about a minute ([`crate::plan`]) has to be a fraction of one
/// set. Up to n = 27 whole sets already give pieces of about a minute (the
/// same measurement at 26 and 27), and a slice costs a rebuild of its
/// set's quarters (see [`SLICES`]).
pub(crate) const SLICED_MIN_N: usize = 28;

/// Slices per top set from [`SLICED_MIN_N`]: a power of two, so that the
/// plan's cuts and the estimate's nested cuts of a unit meet set bounds
/// evenly, and no more than the sub-parts a set of n = 28 is cut into for
/// time (a slice is a range of them: see [`Selection`]), which
/// `tests::set_cuts` (`N=28 SUB=1`) prints. It is the smallest such power
/// with which no unit of n = 28 is held to its parts, i.e. every unit can
/// be cut into pieces of about a minute (`plan::tests::pieces` counts the
/// units held; half as many slices leave many held). Each piece that
/// starts inside a set builds the set's quarters again (n = 28 builds
/// them set by set, see [`EXACT_MIN_N`]): `tests::slice_rebuilds` times
/// what that adds to a run.
pub(crate) const SLICES: u32 = 16;

#[cfg(test)]
thread_local! {
    /// [`slices`] forced for every board (`None`: the board's own), so
    /// that a test cuts sets into slices on boards it can count.
    static FORCED_SLICES: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// How many slices each top set of a board is cut into (the finest parts of
/// its units, see [`parts`]): [`SLICES`] from [`SLICED_MIN_N`], else 1.
pub(crate) fn slices(board: &Board) -> u32 {
    #[cfg(test)]
    if let Some(forced) = FORCED_SLICES.get() {
        return forced;
    }
    if board.n >= SLICED_MIN_N { SLICES } else { 1 }
}

/// A range of places: of a unit's top sets (in [`for_each_top_set`]'s
/// order), of its finest slices (see [`parts`]), or of a set's sub-parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SetRange {
    /// The first set's place.
    pub start: u64,
    /// The place after the last set.
    pub end: u64,
}

impl SetRange {
    /// Every set of a unit.
    pub(crate) const ALL: SetRange = SetRange {
        start: 0,
        end: u64::MAX,
    };

    /// Part `index` of `of` of `sets` places: the places p with
    /// index · sets / of <= p < (index + 1) · sets / of, so that the parts
    /// of one cut cover every place exactly once, in order.
    pub(crate) fn part(sets: u64, index: u32, of: u32) -> SetRange {
        let at = |i: u32| (u128::from(sets) * u128::from(i) / u128::from(of.max(1))) as u64;
        SetRange {
            start: at(index),
            end: at(index + 1),
        }
    }
}

/// The top sets `sets` of a unit on a board made from quarters, counted
/// with the quarters this thread holds (built first if they are not the
/// unit's): its nodes are the pairs of pieces tested, the quarters' queens
/// left out (see [`prepare_unit`]).
#[cfg(test)]
pub(crate) fn count_sets(board: &Board, unit: Unit, sets: SetRange) -> UnitCount {
    count_selection(board, unit, Selection::sets(sets))
}

/// What `selection` takes of a unit on a board made from quarters (slices
/// of its sets, or sub-parts of them, see [`Selection`]), counted as
/// [`count_sets`] counts sets.
pub(crate) fn count_selection(board: &Board, unit: Unit, selection: Selection) -> UnitCount {
    debug_assert!(uses_quarters(board));
    dispatch(board, unit, Job::Join(selection))
}

/// Sub-part `index` of `of` of the top set at `place` of a unit on a
/// board made from quarters (see [`SetCut`]; `of` the set's sub-parts
/// takes them one by one), counted as [`count_sets`] counts sets.
#[cfg(test)]
pub(crate) fn count_sub_parts(
    board: &Board,
    unit: Unit,
    place: u64,
    index: u32,
    of: u32,
) -> UnitCount {
    let set = SetRange {
        start: place,
        end: place + 1,
    };
    let sub = Part { index, of };
    count_selection(
        board,
        unit,
        Selection {
            sub,
            ..Selection::sets(set)
        },
    )
}

/// Builds the quarters of the unit's top set at `place` (and the unit's
/// own, if this thread does not hold them) and says into how many
/// sub-parts its join is cut (see [`SetCut`]); 1 for a place past the
/// unit's sets.
pub(crate) fn prepare_set(board: &Board, unit: Unit, place: u64) -> u32 {
    if !uses_quarters(board) {
        return 1;
    }
    let count = dispatch(board, unit, Job::PrepareSet(place));
    u32::try_from(count.solutions).unwrap_or(u32::MAX)
}

/// [`prepare_set`] at `isa`'s level, the unit's quarters built.
fn prepare_set_in<L: Isa>(
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

/// Which of a unit's finest slices, and which of their sub-parts, a join
/// takes. Each top set is cut into `per_set` slices (slice j of the set at
/// place p is the unit's slice p · `per_set` + j), and slice j of a set
/// whose join is cut into c sub-parts ([`SetCut`], known only once the
/// set's quarters are built) holds its sub-parts j · c / `per_set` up to
/// (j + 1) · c / `per_set`: none when c < `per_set` and the range rounds
/// to nothing, so that slices add up to their set whatever c is, though
/// one slice may then take two slices' time and the next none. Of the
/// sub-parts the slices hold in each set, the join takes part `sub` (in
/// the same nested way): what a part within one set is cut into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Selection {
    /// The finest slices taken, by place.
    pub slices: SetRange,
    /// Slices per set (at least 1).
    pub per_set: u32,
    /// Which part of the sub-parts held in a set is taken ([`Part::WHOLE`]:
    /// all of them).
    pub sub: Part,
}

impl Selection {
    /// Every sub-part of the sets `sets` (one slice per set).
    pub(crate) const fn sets(sets: SetRange) -> Selection {
        Selection {
            slices: sets,
            per_set: 1,
            sub: Part::WHOLE,
        }
    }

    /// Part `part` of a unit cut into `per_set` slices per set of its
    /// `sets` sets (see [`parts`]), every sub-part of it.
    pub(crate) fn part(sets: u64, per_set: u32, part: Part) -> Selection {
        let slices = sets.saturating_mul(per_set.into());
        Selection {
            slices: SetRange::part(slices, part.index, part.of),
            per_set,
            sub: Part::WHOLE,
        }
    }

    /// The place of the one set this takes slices of, if it takes slices
    /// of exactly one.
    pub(crate) fn one_set(self) -> Option<u64> {
        let per_set = u64::from(self.per_set.max(1));
        let SetRange { start, end } = self.slices;
        (start < end && start / per_set == (end - 1) / per_set).then_some(start / per_set)
    }

    /// The set's own slices (of `0..per_set`) this takes of the set at
    /// `place`, if any: what decides, before its quarters are built,
    /// whether a set is joined at all.
    fn slices_of(self, place: u64) -> Option<SetRange> {
        let per_set = u64::from(self.per_set.max(1));
        let first = place.saturating_mul(per_set);
        let [start, end] = [self.slices.start, self.slices.end]
            .map(|slice| slice.saturating_sub(first).min(per_set));
        (start < end).then_some(SetRange { start, end })
    }

    /// The sub-parts this set's slices hold when its join is cut into
    /// `subs` (before `sub` cuts them), or `None` for a set it does not
    /// take.
    pub(crate) fn held(self, place: u64, subs: u32) -> Option<SetRange> {
        let slices = self.slices_of(place)?;
        let at = |slice: u64| slice * u64::from(subs) / u64::from(self.per_set.max(1));
        Some(SetRange {
            start: at(slices.start),
            end: at(slices.end),
        })
    }

    /// The sub-parts this takes of the set at `place` when its join is cut
    /// into `subs`, or `None` for a set it does not take.
    fn subs_of(self, place: u64, subs: u32) -> Option<std::ops::Range<u32>> {
        let held = self.held(place, subs)?;
        let cut = SetRange::part(held.end - held.start, self.sub.index, self.sub.of);
        let at = |offset: u64| u32::try_from(held.start + offset).expect("within the set's cut");
        Some(at(cut.start)..at(cut.end))
    }

    /// Whether this counts the queens placed building the set at `place`'s
    /// quarters: only the selection that starts the set (its first slice,
    /// the first part of its sub-parts), so that over any cut of a unit
    /// into parts and of a part into sub-parts, the nodes add up to the
    /// unit's, though every part and sub-part builds them again.
    fn counts_quarters(self, place: u64) -> bool {
        self.slices_of(place)
            .is_some_and(|slices| slices.start == 0 && self.sub.index == 0)
    }
}

/// Pairs of pieces (each a possible half) one side of one sub-part tries
/// at most, beyond one left piece's: what bounds a thread's halves, so
/// that its memory is bounded whatever n is (a set of n = 28 has tens of
/// millions of halves a side). Below n = 24 no set reaches it.
pub(crate) const CHUNK_PAIRS: u64 = 1 << 23;

/// The product of both sides' tried pairs one sub-part may join at most (a
/// set's tries bound its halves; the join's cost grows as their product),
/// on the boards [`cut_for_time`] names: a sub-part of their largest sets
/// then takes about a second, so `--estimate` times many and a checkpoint
/// loses little. A finer cut costs time, as each chunk is made again for
/// every chunk of the other side: timed on sampled sets of n = 26 against
/// the same sets uncut (`tests::set_cuts`), 2^45 was about a tenth slower,
/// 2^41 nearly twice as slow, 2^37 several times. (Before sets that overflow the
/// narrow word were split, see [`crate::shape`], 2^37 had been fastest:
/// a chunk's halves share fewer diagonals, so more of it fit the narrow word,
/// and the cut saved wide joins.)
pub(crate) const SUB_PART_PAIRS: u64 = 1 << 45;

/// Whether a board's sets are cut for time ([`SUB_PART_PAIRS`]) as well as
/// for memory ([`CHUNK_PAIRS`]): the even boards from n = 26, whose sets
/// are the largest joined from the unit's quarters (from n = 27 each set
/// builds its own, and the cut for memory leaves chunks of about the same
/// size).
fn cut_for_time(board: &Board) -> bool {
    #[cfg(test)]
    if CUT_LIMITS.get().2 {
        return true;
    }
    board.n >= 26 && board.n.is_multiple_of(2)
}

#[cfg(test)]
thread_local! {
    /// [`CHUNK_PAIRS`] and [`SUB_PART_PAIRS`], or less in a test that cuts
    /// the sets of boards it can count.
    /// With `true`, every board's sets are cut for time.
    static CUT_LIMITS: std::cell::Cell<(u64, u64, bool)> =
        const { std::cell::Cell::new((CHUNK_PAIRS, SUB_PART_PAIRS, false)) };
}

/// [`CHUNK_PAIRS`] and [`SUB_PART_PAIRS`] (lowered by a test).
fn cut_limits() -> (u64, u64) {
    #[cfg(test)]
    return (CUT_LIMITS.get().0, CUT_LIMITS.get().1);
    #[cfg(not(test))]
    (CHUNK_PAIRS, SUB_PART_PAIRS)
}

/// The most chunks one side of a set is cut into.
const MAX_CHUNKS: u32 = 1 << 10;

/// How one set's join is cut into sub-parts: its tops into `tops` chunks
/// and its bottoms into `bottoms` ([`Chunk`]s of their quarters' pairs);
/// sub-part `i · bottoms + j` joins top chunk i with bottom chunk j, so
/// that the sub-parts of a set add up to its join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SetCut {
    tops: u32,
    bottoms: u32,
}

impl SetCut {
    /// The cut of a set whose sides try `top_pairs` and `bottom_pairs`
    /// pairs of pieces: each side's chunk within [`CHUNK_PAIRS`], then,
    /// `for_time`, the side with the larger chunks cut again (doubling)
    /// until the product is within [`SUB_PART_PAIRS`].
    pub(crate) fn of(top_pairs: u64, bottom_pairs: u64, for_time: bool) -> SetCut {
        let (chunk_pairs, sub_part_pairs) = cut_limits();
        let sub_part_pairs = if for_time { sub_part_pairs } else { u64::MAX };
        let chunks = |pairs: u64| pairs.div_ceil(chunk_pairs).clamp(1, MAX_CHUNKS.into()) as u32;
        let mut cut = SetCut {
            tops: chunks(top_pairs),
            bottoms: chunks(bottom_pairs),
        };
        loop {
            let per_top = top_pairs.div_ceil(cut.tops.into());
            let per_bottom = bottom_pairs.div_ceil(cut.bottoms.into());
            if u128::from(per_top) * u128::from(per_bottom) <= u128::from(sub_part_pairs) {
                return cut;
            }
            if per_top >= per_bottom && cut.tops < MAX_CHUNKS {
                cut.tops = (2 * cut.tops).min(MAX_CHUNKS);
            } else if cut.bottoms < MAX_CHUNKS {
                cut.bottoms = (2 * cut.bottoms).min(MAX_CHUNKS);
            } else if cut.tops < MAX_CHUNKS {
                cut.tops = (2 * cut.tops).min(MAX_CHUNKS);
            } else {
                return cut;
            }
        }
    }

    /// Sub-parts of the set.
    pub(crate) fn count(self) -> u32 {
        self.tops * self.bottoms
    }

    /// Sub-part `sub`'s chunk of tops and chunk of bottoms.
    pub(crate) fn chunks(self, sub: u32) -> (Chunk, Chunk) {
        (
            Chunk {
                index: sub / self.bottoms,
                of: self.tops,
            },
            Chunk {
                index: sub % self.bottoms,
                of: self.bottoms,
            },
        )
    }
}

/// The smallest board whose halves are made from quarters: below, a unit's
/// halves are too few to pay for finding and filing its quarters' pieces,
/// and the search of halves was faster (timed side by side in `cargo bench`
/// and in whole counts at n = 8 to 14).
pub(crate) const QUARTERS_MIN_N: usize = 14;

/// The bytes this thread holds for counting units (its buffers, kept):
/// after a unit, what that unit needed at most (`reach` reports it).
#[cfg(test)]
pub(crate) fn workspace_bytes() -> usize {
    WORKSPACE.with_borrow(|workspace| workspace.narrow.bytes() + workspace.wide.bytes())
}

/// [`count_unit`] in one layout's buffers, `limit` halves per chunk.
fn count_unit_in<W: Word, L: Isa>(
    isa: L,
    board: &Board,
    unit: Unit,
    buffers: &mut Buffers<W>,
    limit: u64,
) -> UnitCount {
    let (images, fixing) = board.orbit(unit);
    let Buffers {
        unsorted,
        counts,
        tops,
        bottoms,
        runs,
        ..
    } = buffers;
    let top_search = search(board, unit, Role::Top);
    let bottom_search = search(
        board,
        board.map_unit(SplitSymmetry::Flip, unit),
        Role::Bottom,
    );
    let mut top_walk = Walk::default();
    let mut nodes = 0;
    let mut solutions = 0u64;
    let mut first = true;
    while !top_walk.is_done() {
        let (top_nodes, halves) = fill_chunk(
            isa,
            board,
            &top_search,
            &mut top_walk,
            limit,
            Role::Top,
            tops,
            unsorted,
            counts,
        );
        nodes += top_nodes;
        if halves == 0 && !first {
            // The search ended in dead branches after the last chunk.
            break;
        }
        first = false;
        let mut bottom_walk = Walk::default();
        while !bottom_walk.is_done() {
            let (bottom_nodes, _) = fill_chunk(
                isa,
                board,
                &bottom_search,
                &mut bottom_walk,
                limit,
                Role::Bottom,
                bottoms,
                unsorted,
                counts,
            );
            nodes += bottom_nodes;
            for_each_top_set(board, unit, &fixing, |top_set, weight| {
                let bottom_set = board.bottom_set(unit.middle, top_set);
                let pairs = join::count_pairs(
                    isa,
                    tops,
                    board.set_index(top_set),
                    bottoms,
                    board.set_index(bottom_set),
                    board.doubling(),
                    runs,
                );
                solutions = weigh(solutions, weight, pairs);
            });
        }
    }
    orbit_count(images.len(), solutions, nodes)
}

/// [`count_unit`] with halves built set by set from quarters (see
/// [`crate::quarters`]): the quarters built, then every set joined (see
/// [`join_sets`]), at `isa`'s level.
#[cfg(test)]
fn count_unit_by_quarters<L: Isa>(
    isa: L,
    board: &Board,
    unit: Unit,
    buffers: &mut Buffers<u32>,
    min_choice_pairs: u64,
    observe: &mut SetObserver<'_>,
) -> UnitCount {
    let built = build_quarters(isa, board, unit, buffers);
    let mut count = join_sets(
        isa,
        board,
        unit,
        buffers,
        &mut Buffers::default(),
        Selection::sets(SetRange::ALL),
        min_choice_pairs,
        observe,
    );
    count.nodes += built;
    count
}

/// Builds the quarters of a unit's tops and of its bottoms (or keeps them,
/// if they are already the unit's); returns their queens placed.
fn build_quarters<L: Isa>(isa: L, board: &Board, unit: Unit, buffers: &mut Buffers<u32>) -> u64 {
    if exact_quarters(board) {
        // Built set by set instead (see `join_sets`).
        return 0;
    }
    let side_bits = quarters::side_bits(board);
    let bottom_unit = board.map_unit(SplitSymmetry::Flip, unit);
    let mut nodes = 0;
    for (quarters, unit, role) in [
        (&mut buffers.top_quarters, unit, Role::Top),
        (&mut buffers.bottom_quarters, bottom_unit, Role::Bottom),
    ] {
        nodes += quarters.build(
            isa,
            board,
            &side_bits,
            contributions(board, role),
            forbidden(board, unit, role),
            unit.middle,
            unit.pattern,
        );
    }
    nodes
}

/// Builds one top set's quarters and its bottom set's (when the board
/// builds them set by set, see [`EXACT_MIN_N`]; else the unit's are kept)
/// and says how its join is cut ([`SetCut`]); returns the queens placed.
fn set_quarters<L: Isa>(
    isa: L,
    board: &Board,
    units: [Unit; 2],
    [top_quarters, bottom_quarters]: [&mut Quarters; 2],
    sets: [u32; 2],
) -> (u64, SetCut) {
    let mut nodes = 0;
    if exact_quarters(board) {
        let side_bits = quarters::side_bits(board);
        for (quarters, set, unit, role) in [
            (&mut *top_quarters, sets[0], units[0], Role::Top),
            (&mut *bottom_quarters, sets[1], units[1], Role::Bottom),
        ] {
            let inputs = (
                contributions(board, role),
                forbidden(board, unit, role),
                unit.middle,
            );
            nodes += quarters.build_exact(isa, board, &side_bits, inputs, set);
        }
    }
    let for_time = cut_for_time(board);
    if !for_time && !exact_quarters(board) && no_set_is_cut(board) {
        // Each side's pairs would be counted (a walk of the set's cells)
        // only to find the set whole: about 1 % of a count at n = 16 and
        // 18 (callgrind, `Quarters::pairs`).
        return (nodes, SetCut::of(0, 0, false));
    }
    let [top_pairs, bottom_pairs] = [(top_quarters, sets[0]), (bottom_quarters, sets[1])]
        .map(|(quarters, set)| quarters.pairs(set));
    (nodes, SetCut::of(top_pairs, bottom_pairs, for_time))
}

/// The largest board none of whose sets is cut for memory, as counted
/// (with its own symmetries): the memory declaration walked every unit's
/// quarters up to here, and its test `no_set_up_to_n_23_is_cut` checks
/// the largest set's pairs of each board against [`CHUNK_PAIRS`].
pub(crate) const UNCUT_MAX_N: usize = 23;

/// Whether no set of the board is cut for memory (see [`UNCUT_MAX_N`]):
/// only for the board as it is counted (the walk's symmetries), and not
/// under a test's lower limit.
fn no_set_is_cut(board: &Board) -> bool {
    let counted = board.klein == (Symmetries::for_n(board.n) == Symmetries::LongDiagonals);
    counted && board.n <= UNCUT_MAX_N && cut_limits().0 >= CHUNK_PAIRS
}

/// Joins the top sets `selection` takes of a unit whose quarters `buffers`
/// holds, each cut into sub-parts ([`SetCut`]): for each sub-part, its chunk
/// of the top set's tops and its chunk of the bottom set's bottoms are made, the set's index
/// diagonals chosen from both (see [`crate::index`]), both sides sorted into
/// index buckets and joined before the next set. Sets with fewer than
/// `min_choice_pairs` pairs keep the layout's index (see
/// [`index::MIN_CHOICE_PAIRS`]; tests choose for every set, or none).
/// On a wide board a set is joined as narrow words where its shared
/// diagonals fit them (see [`crate::shape`]), else as wide words in
/// `wide`'s sides. `observe(pairs, tops, bottoms)` sees each set joined as
/// narrow words before its join, with its pairs before the buckets (tests
/// measure what the buckets skip). Its nodes are the pairs of pieces tested.
#[expect(
    clippy::too_many_arguments,
    reason = "the level, the unit, its buffers borrowed apart, and the tests' hooks"
)]
fn join_sets<L: Isa>(
    isa: L,
    board: &Board,
    unit: Unit,
    buffers: &mut Buffers<u32>,
    wide: &mut Buffers<u64>,
    selection: Selection,
    min_choice_pairs: u64,
    observe: &mut SetObserver<'_>,
) -> UnitCount {
    let (images, fixing) = board.orbit(unit);
    let Buffers {
        unsorted,
        counts,
        tops,
        bottoms,
        runs,
        top_quarters,
        bottom_quarters,
        keys,
        bottom_keys,
        remap,
    } = buffers;
    let shaped = board.layout.width == Width::Wide;
    let (chooser, index_bits) = if shaped {
        (
            shape::chooser(&board.layout, board.doubling()),
            shape::INDEX_BITS,
        )
    } else {
        (
            Chooser::new(&board.layout, board.doubling()),
            board.layout.index_bits,
        )
    };
    let bottom_unit = board.map_unit(SplitSymmetry::Flip, unit);
    let mut nodes = 0;
    let mut solutions = 0u64;
    let mut place = 0u64;
    for_each_top_set(board, unit, &fixing, |top_set, weight| {
        let here = place;
        place += 1;
        // Sets it takes no slice of are skipped before their quarters.
        if selection.slices_of(here).is_none() {
            return;
        }
        let bottom_set = board.bottom_set(unit.middle, top_set);
        let (built, cut) = set_quarters(
            isa,
            board,
            [unit, bottom_unit],
            [&mut *top_quarters, &mut *bottom_quarters],
            [top_set, bottom_set],
        );
        if selection.counts_quarters(here) {
            nodes += built;
        }
        let subs = selection
            .subs_of(here, cut.count())
            .expect("a set it takes slices of");
        for sub in subs {
            let (top_chunk, bottom_chunk) = cut.chunks(sub);
            let (top_found, tested) = top_quarters.halves(isa, top_set, top_chunk, keys);
            nodes += tested;
            if top_found == 0 {
                continue;
            }
            let (bottom_found, tested) =
                bottom_quarters.halves(isa, bottom_set, bottom_chunk, bottom_keys);
            nodes += tested;
            if bottom_found == 0 {
                continue;
            }
            let (top_keys, bottom_keys) =
                (&mut keys[..top_found], &mut bottom_keys[..bottom_found]);
            // Small sets keep the layout's central diagonals.
            let big = (top_found as u64) * (bottom_found as u64) >= min_choice_pairs;
            let narrow = &mut NarrowJoin {
                unsorted,
                counts,
                tops,
                bottoms,
                runs,
                remap,
                doubling: board.doubling(),
                observe,
            };
            let pairs = if shaped {
                for key in top_keys.iter_mut().chain(bottom_keys.iter_mut()) {
                    *key = shape::narrow_shape(*key);
                }
                let (index, index_bits) = if big {
                    let index = chooser.choose_index(isa, top_keys, bottom_keys);
                    (index, shape::INDEX_BITS)
                } else {
                    (shape::CENTRAL_INDEX, shape::CENTRAL_BITS)
                };
                let index = ShapedIndex {
                    mask: index,
                    bits: index_bits,
                };
                join_shaped(isa, board, index, top_keys, bottom_keys, narrow, wide)
            } else {
                let remapped = big
                    .then(|| chooser.choose(isa, top_keys, bottom_keys, narrow.remap))
                    .is_some();
                narrow.join(isa, index_bits, top_keys, bottom_keys, remapped)
            };
            solutions = weigh(solutions, weight, pairs);
        }
    });
    orbit_count(images.len(), solutions, nodes)
}

/// Builds one side's quarters of `unit` (the bottom side's unit is the
/// flipped one) with the portable code; returns the queens placed. For the
/// memory declaration's test, which walks every unit's quarters.
#[cfg(test)]
pub(crate) fn build_side_quarters(
    board: &Board,
    quarters: &mut Quarters,
    side_bits: &[[u32; 32]],
    unit: Unit,
    role: Role,
) -> u64 {
    quarters.build(
        crate::arch::Portable,
        board,
        side_bits,
        contributions(board, role),
        forbidden(board, unit, role),
        unit.middle,
        unit.pattern,
    )
}

/// A set's narrow join and what it borrows of the unit's buffers: both
/// sides sorted into buckets, their pairs counted.
struct NarrowJoin<'a, 'o> {
    unsorted: &'a mut Vec<(u32, u32)>,
    counts: &'a mut Vec<u32>,
    tops: &'a mut Side<u32>,
    bottoms: &'a mut Side<u32>,
    runs: &'a mut BottomRuns<u32>,
    /// The set's rearrangement of key bits, when it has one.
    remap: &'a mut Remap,
    /// The index bits a top counts double for (see [`join::count_pairs`]).
    doubling: u32,
    observe: &'a mut SetObserver<'o>,
}

impl NarrowJoin<'_, '_> {
    /// The disjoint pairs of `top_keys` and `bottom_keys`, rearranged by
    /// the remap if `remapped`, in buckets of `index_bits`.
    fn join<L: Isa>(
        &mut self,
        isa: L,
        index_bits: usize,
        top_keys: &[u64],
        bottom_keys: &[u64],
        remapped: bool,
    ) -> u64 {
        let remap = remapped.then_some(&*self.remap);
        for (keys, role, side) in [
            (top_keys, Role::Top, &mut *self.tops),
            (bottom_keys, Role::Bottom, &mut *self.bottoms),
        ] {
            sort_set(
                isa,
                index_bits,
                keys,
                remap,
                role,
                side,
                self.unsorted,
                self.counts,
            );
        }
        let pairs = (top_keys.len() as u64) * (bottom_keys.len() as u64);
        (self.observe)(pairs, self.tops, self.bottoms);
        join::count_pairs(isa, self.tops, 0, self.bottoms, 0, self.doubling, self.runs)
    }
}

/// A shaped set's index diagonals: their mask of key bits, and how many
/// index bits its buckets have (at least the mask's).
#[derive(Clone, Copy)]
struct ShapedIndex {
    mask: u64,
    bits: usize,
}

/// The pairs of one set of a wide board, its keys shaped
/// ([`shape::narrow_shape`]), indexed by `index`: joined as narrow words
/// where the diagonals both sides share outside the index fit them; else
/// split by one such diagonal d ([`shape::split_diagonal`]) into tops on d
/// against bottoms off it, and tops off d against every bottom (no other
/// pair can be disjoint), each joined the same way. Neither half of a split
/// shares d, so each split takes a shared diagonal away from both, and
/// after at most as many splits as the shared diagonals overflow the word,
/// every piece fits. A split smaller than [`shape::MIN_SPLIT_PAIRS`] pairs
/// is joined as wide words instead (see [`join_wide`]). Reorders the keys.
fn join_shaped<L: Isa>(
    isa: L,
    board: &Board,
    index: ShapedIndex,
    top_keys: &mut [u64],
    bottom_keys: &mut [u64],
    narrow: &mut NarrowJoin<'_, '_>,
    wide: &mut Buffers<u64>,
) -> u64 {
    if top_keys.is_empty() || bottom_keys.is_empty() {
        return 0;
    }
    let [top_bits, bottom_bits] =
        [&*top_keys, &*bottom_keys].map(|keys| keys.iter().fold(0, |bits, key| bits | key));
    if let Some(word) = shape::narrow_word(top_bits, bottom_bits, index.mask) {
        Chooser::remap_to(isa, index.mask, word, narrow.remap);
        return narrow.join(isa, index.bits, top_keys, bottom_keys, true);
    }
    let pairs = (top_keys.len() as u64) * (bottom_keys.len() as u64);
    if pairs < shape::min_split_pairs() {
        return join_wide(isa, board, top_keys, bottom_keys, wide);
    }
    #[cfg(test)]
    SPLITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let shared = top_bits & bottom_bits & !index.mask;
    let diagonal = shape::split_diagonal(shared, top_keys, bottom_keys);
    let tops_off = partition_off(top_keys, diagonal);
    let bottoms_off = partition_off(bottom_keys, diagonal);
    let (tops_off, tops_on) = top_keys.split_at_mut(tops_off);
    // Tops on d meet only bottoms off it; the bottoms off d stay first
    // whatever this join reorders among them.
    let on = join_shaped(
        isa,
        board,
        index,
        tops_on,
        &mut bottom_keys[..bottoms_off],
        narrow,
        wide,
    );
    on + join_shaped(isa, board, index, tops_off, bottom_keys, narrow, wide)
}

/// Moves the keys off `diagonal` (one bit) before the keys on it; returns
/// how many are off.
fn partition_off(keys: &mut [u64], diagonal: u64) -> usize {
    let mut off = 0;
    for at in 0..keys.len() {
        if keys[at] & diagonal == 0 {
            keys.swap(off, at);
            off += 1;
        }
    }
    off
}

/// Splits made by [`join_shaped`] (tests read it).
#[cfg(test)]
static SPLITS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The pairs of a small set (or split) of a wide board whose shared
/// diagonals do not fit the narrow word: its tops' and bottoms' shaped
/// keys turned back and joined as `u64` words by the layout's central
/// index diagonals, in `wide`'s sides.
fn join_wide<L: Isa>(
    isa: L,
    board: &Board,
    top_keys: &mut [u64],
    bottom_keys: &mut [u64],
    wide: &mut Buffers<u64>,
) -> u64 {
    #[cfg(test)]
    WIDE_SETS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let index_bits = board.layout.index_bits;
    for (keys, role, side) in [
        (top_keys, Role::Top, &mut wide.tops),
        (bottom_keys, Role::Bottom, &mut wide.bottoms),
    ] {
        for key in keys.iter_mut() {
            *key = shape::wide_shape(*key);
        }
        sort_set(
            isa,
            index_bits,
            keys,
            None,
            role,
            side,
            &mut wide.unsorted,
            &mut wide.counts,
        );
    }
    join::count_pairs(
        isa,
        &wide.tops,
        0,
        &wide.bottoms,
        0,
        board.doubling(),
        &mut wide.runs,
    )
}

/// Sets joined as wide words (tests and measurements read it).
#[cfg(test)]
static WIDE_SETS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// What [`join_sets`] shows a set before its join: its pairs before the
/// buckets, its tops and its bottoms.
type SetObserver<'a> = dyn FnMut(u64, &Side<u32>, &Side<u32>) + 'a;

/// `solutions` plus `weight` times a set's `pairs`, checked.
fn weigh(solutions: u64, weight: u64, pairs: u64) -> u64 {
    weight
        .checked_mul(pairs)
        .and_then(|weighed| solutions.checked_add(weighed))
        .expect(FITS)
}

/// What a unit stands for: its `solutions` times its orbit's `images`.
fn orbit_count(images: usize, solutions: u64, nodes: u64) -> UnitCount {
    UnitCount {
        solutions: (images as u64).checked_mul(solutions).expect(FITS),
        fixed_pairs: 0,
        nodes,
    }
}

/// Sorts one set's halves (keys, rearranged by `remap`) into `side` by
/// index bits, as set 0. The rearrangement runs compiled for `isa`'s
/// level (`pext` or tables).
#[expect(
    clippy::too_many_arguments,
    reason = "the level, the set's keys and the buffers, borrowed apart"
)]
fn sort_set<W: Word, L: Isa>(
    isa: L,
    index_bits: usize,
    keys: &[u64],
    remap: Option<&Remap>,
    role: Role,
    side: &mut Side<W>,
    unsorted: &mut Vec<(u32, W)>,
    counts: &mut Vec<u32>,
) {
    let (mark, step) = role.filling::<W>();
    counts.clear();
    counts.resize(1 << index_bits, 0);
    unsorted.clear();
    isa.run(|| {
        let mut entry = |key: u64| {
            let (index, word) = W::split(key, index_bits);
            counts[index as usize] += 1;
            (index, word.marked(mark))
        };
        // One loop per case, and `extend`, so that the loop tests neither
        // the remap nor the vector's capacity per key.
        match remap {
            Some(remap) => unsorted.extend(keys.iter().map(|&key| entry(remap.apply(isa, key)))),
            None => unsorted.extend(keys.iter().map(|&key| entry(key))),
        }
    });
    side.fill(index_bits, counts, unsorted, step);
}

/// Calls `visit(top set, weight)` for every top set of the unit that is the
/// smallest of its orbit under the symmetries fixing the unit (`fixing`,
/// identity included), weighted by that orbit's size.
pub(crate) fn for_each_top_set(
    board: &Board,
    unit: Unit,
    fixing: &[SplitSymmetry],
    mut visit: impl FnMut(u32, u64),
) {
    let outside = board.full & !board.block & !Board::middle_bit(unit.middle);
    // The pattern plus files outside the block, as many as the half needs.
    let wanted = board.half - unit.pattern.count_ones() as usize;
    let mut rest = 0u32;
    loop {
        if rest.count_ones() as usize == wanted {
            let top_set = unit.pattern | rest;
            let mut images = [0u32; 4];
            for (image, &symmetry) in images.iter_mut().zip(fixing) {
                *image = board.map_set(symmetry, unit.middle, top_set, board.full);
            }
            let images = &mut images[..fixing.len()];
            if images.iter().all(|&image| image >= top_set) {
                images.sort_unstable();
                let distinct = 1 + images.windows(2).filter(|w| w[0] != w[1]).count();
                visit(top_set, distinct as u64);
            }
        }
        rest = rest.wrapping_sub(outside) & outside;
        if rest == 0 {
            return;
        }
    }
}

/// The top sets a unit joins, in [`for_each_top_set`]'s order (a set's
/// place there is its part in [`SetRange`]s).
#[cfg(test)]
pub(crate) fn top_set_list(board: &Board, unit: Unit) -> Vec<u32> {
    let (_, fixing) = board.orbit(unit);
    let mut sets = Vec::new();
    for_each_top_set(board, unit, &fixing, |set, _| sets.push(set));
    sets
}

/// The tops and bottoms each of a unit's top sets has (in
/// [`for_each_top_set`]'s order), made from the unit's quarters with the
/// portable code: what the cost model's halves are estimates of. For
/// boards made from quarters, below [`EXACT_MIN_N`].
#[cfg(test)]
pub(crate) fn set_halves(board: &Board, unit: Unit) -> Vec<(u64, u64)> {
    let mut buffers = Buffers::<u32>::default();
    build_quarters(arch::Portable, board, unit, &mut buffers);
    let mut keys = Vec::new();
    (top_set_list(board, unit).into_iter())
        .map(|top_set| {
            let bottom_set = board.bottom_set(unit.middle, top_set);
            let sides = [
                (&buffers.top_quarters, top_set),
                (&buffers.bottom_quarters, bottom_set),
            ];
            let [tops, bottoms] = sides.map(|(quarters, set)| {
                quarters
                    .halves(arch::Portable, set, Chunk::ALL, &mut keys)
                    .0
            });
            (tops as u64, bottoms as u64)
        })
        .collect()
}

/// The number of top sets a unit joins. A unit no
/// symmetry fixes (nearly all) joins every top set, a binomial; the others
/// are counted one set at a time.
pub(crate) fn top_sets(board: &Board, unit: Unit) -> u64 {
    let (_, fixing) = board.orbit(unit);
    if fixing.len() == 1 {
        let outside = board.full & !board.block & !Board::middle_bit(unit.middle);
        let wanted = board.half.checked_sub(unit.pattern.count_ones() as usize);
        return wanted.map_or(0, |wanted| {
            choose(outside.count_ones() as u64, wanted as u64)
        });
    }
    let mut sets = 0;
    for_each_top_set(board, unit, &fixing, |_, _| sets += 1);
    sets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Portable;
    use crate::board::Symmetries;
    use queens_conformance::tier;
    use queens_core::split::{WorkSplit, WorkUnit};
    use queens_core::{QueensError, check, oeis};
    use std::collections::BTreeMap;

    /// The unit of a solution, read off the board directly: the file of the
    /// middle rank's queen (odd n) and the block files of the queens on the
    /// first n / 2 ranks. (Which half is called "top" does not matter below:
    /// the other choice gives the flipped unit, in the same orbit.)
    fn unit_of(board: &Board, rows: &[u8]) -> Unit {
        let half = board.half as u8;
        let middle = board
            .is_odd()
            .then(|| rows.iter().position(|&r| r == half).unwrap() as u8);
        let top: u32 = (0..board.n)
            .filter(|&c| rows[c] < half)
            .map(|c| 1u32 << c)
            .sum();
        Unit {
            middle,
            pattern: top & board.block,
        }
    }

    /// Every solution, by unit, from brute force over all permutations.
    ///
    /// With the long diagonals' symmetries ([`Board::klein`]), what a unit
    /// stands for instead: the solutions whose bottom half avoids both long
    /// diagonals, each weighted 2 per long diagonal its top half takes.
    fn solutions_by_unit(board: &Board) -> BTreeMap<Unit, u64> {
        let n = board.n;
        let mut by_unit = BTreeMap::new();
        for rows in check::brute_force_solutions(n) {
            // rows[c] is the rank of file c's queen.
            let long = (0..n).filter(|&c| rows[c] as usize == c || rows[c] as usize == n - 1 - c);
            let (top, bottom): (Vec<usize>, Vec<usize>) =
                long.partition(|&c| (rows[c] as usize) < board.half);
            let weight = match board.klein {
                false => 1,
                true if bottom.is_empty() => 1 << top.len(),
                true => continue,
            };
            *by_unit.entry(unit_of(board, &rows)).or_default() += weight;
        }
        by_unit
    }

    /// The narrow boards of these sizes, and the even ones again with the
    /// long diagonals' symmetries.
    fn plain_and_klein(sizes: std::ops::RangeInclusive<usize>) -> impl Iterator<Item = Board> {
        let plain = sizes
            .clone()
            .map(|n| Board::with_options(n, Width::Narrow, Symmetries::Split));
        let klein = sizes
            .filter(|n| n.is_multiple_of(2))
            .map(|n| Board::with_options(n, Width::Narrow, Symmetries::LongDiagonals));
        plain.chain(klein)
    }

    #[test]
    fn orbits_partition_the_units_and_each_has_one_canonical_member() {
        for board in plain_and_klein(4..=21) {
            let n = board.n;
            let units = board.units();
            for &unit in &units {
                let (images, fixing) = board.orbit(unit);
                // Orbit-stabiliser: the split-keeping symmetries used (four,
                // or the mirror alone with the long diagonals').
                let group = board.symmetries().len();
                assert_eq!(images.len() * fixing.len(), group, "n = {n}: {unit:?}");
                assert!(images.iter().all(|image| units.contains(image)));
                let canonical = images.iter().filter(|&&i| board.is_canonical(i)).count();
                assert_eq!(canonical, 1, "n = {n}: {unit:?}");
                for &image in &images {
                    assert_eq!(board.orbit(image).0, images, "orbits are classes");
                }
            }
        }
    }

    #[test]
    fn a_unit_counts_every_solution_of_its_orbit() {
        // The engine counts one unit per orbit and multiplies by the orbit
        // size, and inside a symmetric unit counts one top set per orbit
        // with its weight: the product must be the orbit's solutions,
        // counted here one board at a time.
        // With the long diagonals' symmetries, the orbit (under the mirror)
        // of the solutions such a unit stands for.
        for board in plain_and_klein(4..=9) {
            let n = board.n;
            let truth = solutions_by_unit(&board);
            let mut workspace = Workspace::default();
            let mut total = 0;
            for unit in board.units().into_iter().filter(|&u| board.is_canonical(u)) {
                let (images, _) = board.orbit(unit);
                let expected: u64 = images
                    .iter()
                    .map(|i| truth.get(i).copied().unwrap_or(0))
                    .sum();
                let counted = count_unit_in(
                    Portable,
                    &board,
                    unit,
                    &mut workspace.narrow,
                    chunk::<u32>(),
                );
                let counted = counted.solutions;
                assert_eq!(counted, expected, "n = {n}: {unit:?}, orbit {images:?}");
                // Quarters, with every set's index chosen or none.
                for min_choice_pairs in [0, u64::MAX] {
                    let buffers = &mut workspace.narrow;
                    let by_quarters = count_unit_by_quarters(
                        Portable,
                        &board,
                        unit,
                        buffers,
                        min_choice_pairs,
                        &mut |_, _, _| {},
                    );
                    assert_eq!(
                        by_quarters.solutions, expected,
                        "n = {n}: {unit:?}, quarters, chosen from {min_choice_pairs} pairs"
                    );
                }
                total += counted;
            }
            assert_eq!(Some(total), oeis::total(n), "n = {n}");
        }
    }

    /// Every canonical unit of the board, counted and summed.
    fn whole_count(board: &Board) -> u64 {
        board
            .units()
            .into_iter()
            .filter(|&u| board.is_canonical(u))
            .map(|u| count_unit(board, u).solutions)
            .sum()
    }

    #[test]
    fn every_level_counts_every_board_from_8_to_16() {
        // Each instruction-set level's code (kernels, `fit`, `pext` or
        // tables, the searches) counts whole boards, both ways of making
        // halves (searched below n = 14, from quarters above), against
        // A000170. A level this CPU lacks is named on stderr as skipped.
        for level in crate::arch::tested_levels() {
            for n in tier::boards(8..=15, 8..=16) {
                let board = Board::new(n);
                let counted: u64 = (board.units().into_iter())
                    .filter(|&unit| board.is_canonical(unit))
                    .map(|unit| {
                        count_unit_at(&board, unit, level, Job::Whole)
                            .expect("a level this CPU has")
                    })
                    .map(|count| count.solutions)
                    .sum();
                assert_eq!(Some(counted), oeis::total(n), "n = {n}, {level:?}");
            }
        }
    }

    #[test]
    fn every_level_counts_every_board_in_parts_in_both_layouts() {
        // The parts' path (quarters prepared, then ranges of top sets; the
        // wide layout's shaped keys) at each level: two parts of every
        // unit add up to the whole board, and prepared nodes plus the
        // parts' nodes are the whole unit's.
        for level in crate::arch::tested_levels() {
            for n in tier::boards(14..=14, 14..=16) {
                for width in [Width::Narrow, Width::Wide] {
                    let board = Board::with_width(n, width);
                    let at = |unit, job| count_unit_at(&board, unit, level, job).expect("a level");
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

    #[test]
    fn every_set_counts_the_same_with_its_index_chosen_or_central() {
        // `count_unit` chooses the index diagonals of sets with many pairs
        // only (`index::MIN_CHOICE_PAIRS`), and boards small enough to count
        // whole in a test have few such sets: here every set's index is
        // chosen, or none is, on boards whose totals are known, with and
        // without the long diagonals (whose weights are read off the forced
        // index bits).
        for board in plain_and_klein(tier::boards(14..=14, 14..=16)) {
            for min_choice_pairs in [0, u64::MAX] {
                let counted: u64 = (board.units().into_iter())
                    .filter(|&unit| board.is_canonical(unit))
                    .map(|unit| {
                        let buffers = &mut Buffers::<u32>::default();
                        count_unit_by_quarters(
                            Portable,
                            &board,
                            unit,
                            buffers,
                            min_choice_pairs,
                            &mut |_, _, _| {},
                        )
                        .solutions
                    })
                    .sum();
                let (n, klein) = (board.n, board.klein);
                assert_eq!(
                    Some(counted),
                    oeis::total(n),
                    "n = {n}, klein {klein}, chosen from {min_choice_pairs} pairs"
                );
            }
        }
    }

    #[test]
    fn quarters_built_set_by_set_count_every_board_and_part_alike() {
        // From EXACT_MIN_N each set builds its own quarters; here boards
        // whose totals are known do so, in both layouts and with either
        // symmetries, and a unit cut into parts adds up (the parts have no
        // shared work then).
        EXACT_FROM.set(0);
        for n in tier::boards(14..=14, 14..=16) {
            for width in [Width::Narrow, Width::Wide] {
                let board = Board::with_width(n, width);
                let units: Vec<Unit> = (board.units().into_iter())
                    .filter(|&unit| board.is_canonical(unit))
                    .collect();
                let counts: Vec<UnitCount> = units.iter().map(|&u| count_unit(&board, u)).collect();
                let total: u64 = counts.iter().map(|count| count.solutions).sum();
                assert_eq!(Some(total), oeis::total(n), "n = {n}, {width:?}");
                let (unit, whole) = (units[units.len() / 2], counts[units.len() / 2]);
                assert_eq!(prepare_unit(&board, unit), 0);
                let sets = top_sets(&board, unit);
                let mut sum = UnitCount::default();
                for index in 0..3 {
                    sum += count_sets(&board, unit, SetRange::part(sets, index, 3));
                }
                assert_eq!(sum, whole, "n = {n}, {width:?}, {unit:?}");
            }
        }
        EXACT_FROM.set(EXACT_MIN_N);
    }

    /// Every part of one cut of `unit` through the engine's interface,
    /// each checked to be the sum of the finest slices it holds (cuts
    /// nest), summed.
    fn nested_cut(n: usize, unit: WorkUnit, of: u32, finest: &[UnitCount]) -> UnitCount {
        let parts = finest.len() as u64;
        let mut sum = UnitCount::default();
        for index in 0..of {
            let part = Part { index, of };
            let count = WorkSplit::count_part(&crate::HALF_JOIN, n, unit, part, true).unwrap();
            let held = SetRange::part(parts, index, of);
            let mut slices = UnitCount::default();
            for slice in &finest[held.start as usize..held.end as usize] {
                slices += *slice;
            }
            assert_eq!(count.solutions, slices.solutions, "n = {n}, {part:?}");
            assert_eq!(count.fixed_pairs, slices.fixed_pairs, "n = {n}, {part:?}");
            sum += count;
        }
        sum
    }

    /// The sub-parts of `part` (a part within one set), counted one by one
    /// and in a cut of two, each sum checked against the part; returns how
    /// many sub-parts `prepare_part` cut it into.
    fn sub_parts_add_up(n: usize, unit: WorkUnit, part: Part) -> u32 {
        let engine = &crate::HALF_JOIN;
        let whole = WorkSplit::count_part(engine, n, unit, part, true).unwrap();
        let subs = WorkSplit::prepare_part(engine, n, unit, part).unwrap();
        assert!(subs >= 1);
        for of in [subs, 2.min(subs)] {
            let mut sum = UnitCount::default();
            for index in 0..of {
                let sub = Part { index, of };
                sum += WorkSplit::count_sub_part(engine, n, unit, part, sub, true).unwrap();
            }
            let context = format!("n = {n}, {part:?}, {of} of {subs} sub-parts");
            assert_eq!(sum.solutions, whole.solutions, "{context}");
            assert_eq!(sum.fixed_pairs, whole.fixed_pairs, "{context}");
        }
        // One sub-part more than the cut is refused, naming the cut.
        let past = Part {
            of: subs + 1,
            ..Part::WHOLE
        };
        let refused = WorkSplit::count_sub_part(engine, n, unit, part, past, false);
        assert!(
            matches!(refused, Err(QueensError::NoSuchPart { max, .. }) if max == subs),
            "n = {n}, {part:?}: {refused:?}"
        );
        subs
    }

    #[test]
    fn slices_of_sets_add_up_to_every_unit_and_nest() {
        // n = 28 cuts each top set into slices (ranges of the sub-parts
        // its join is cut into); here boards whose totals are known do,
        // with a few slices per set and the cut's limits lowered so that
        // sets have several sub-parts (and some fewer than their slices),
        // both ways of building quarters, through the engine's interface:
        // every unit's finest slices counted one by one add up to the
        // unit (solutions, fixed pairs and nodes, the unit's shared work
        // apart) and the board to A000170; coarser cuts hold exactly their
        // finest slices; a part within one set is cut into sub-parts that
        // add up to it; parts past the cut are refused.
        let engine = &crate::HALF_JOIN;
        CUT_LIMITS.set((1 << 8, 1 << 15, true));
        let cases = [(14, 8, false), (14, 4, true), (15, 4, false), (16, 8, true)];
        for (n, per_set, exact) in tier::cases(&cases, 2) {
            FORCED_SLICES.set(Some(per_set));
            EXACT_FROM.set(if exact { 0 } else { EXACT_MIN_N });
            let board = Board::new(n);
            let plan = WorkSplit::plan(engine, n).unwrap();
            let whole = plan.whole_units();
            let (fixed, units) = whole.split_last().expect("units");
            assert_eq!(WorkSplit::parts(engine, n, *fixed), 1);
            let context = format!("n = {n}, {per_set} slices a set, exact {exact}");
            let (mut total, mut most_subs, mut empty) = (0, 0, 0);
            for (at, &unit) in units.iter().enumerate() {
                let parts = WorkSplit::parts(engine, n, unit);
                let sets = top_sets(&board, Unit::from_key(unit.key));
                assert_eq!(u64::from(parts), sets * u64::from(per_set), "{context}");
                let count = WorkSplit::count_unit(engine, n, unit, true).unwrap();
                let prepared = WorkSplit::prepare_unit(engine, n, unit).unwrap();
                let finest: Vec<UnitCount> = (0..parts)
                    .map(|index| {
                        let part = Part { index, of: parts };
                        WorkSplit::count_part(engine, n, unit, part, true).unwrap()
                    })
                    .collect();
                let mut sum = UnitCount::default();
                for slice in &finest {
                    sum += *slice;
                }
                assert_eq!(sum.solutions, count.solutions, "{context}, unit {at}");
                assert_eq!(sum.fixed_pairs, count.fixed_pairs, "{context}, unit {at}");
                assert_eq!(sum.nodes + prepared, count.nodes, "{context}, unit {at}");
                total += count.solutions;
                if at % 5 != 0 {
                    continue;
                }
                // Nested cuts, and the sub-parts of parts within one set:
                // one slice, two, a whole set.
                for of in [2, 3, 7, parts / 2, parts - 1] {
                    if (1..=parts).contains(&of) {
                        let cut = nested_cut(n, unit, of, &finest);
                        assert_eq!(cut.solutions, count.solutions, "{context}, {of} parts");
                    }
                }
                for of in [parts, parts / 2, parts / per_set] {
                    for index in (0..of).step_by(3) {
                        let subs = sub_parts_add_up(n, unit, Part { index, of });
                        most_subs = most_subs.max(subs);
                    }
                }
                // A slice that holds none of its set's sub-parts.
                empty += (0..parts)
                    .filter(|&index| {
                        let part = Part { index, of: parts };
                        let count = WorkSplit::count_part(engine, n, unit, part, false).unwrap();
                        count.nodes == 0
                    })
                    .count();
                for part in [
                    Part {
                        index: 0,
                        of: parts + 1,
                    },
                    Part { index: 1, of: 1 },
                ] {
                    assert_eq!(
                        WorkSplit::count_part(engine, n, unit, part, false),
                        Err(QueensError::NoSuchPart {
                            index: part.index,
                            of: part.of,
                            max: parts
                        })
                    );
                }
            }
            assert_eq!(Some(total), oeis::total(n), "{context}");
            assert!(most_subs >= 2, "{context}: some slices were cut further");
            assert!(
                empty > 0,
                "{context}: some set had fewer sub-parts than slices"
            );
        }
        FORCED_SLICES.set(None);
        EXACT_FROM.set(EXACT_MIN_N);
        CUT_LIMITS.set((CHUNK_PAIRS, SUB_PART_PAIRS, false));
    }

    #[test]
    fn sets_cut_into_sub_parts_count_every_board_and_add_up() {
        // Below n = 23 no set is cut; here the cut's limits are lowered so
        // that boards whose totals are known cut their sets into many
        // sub-parts (chunks of tops against chunks of bottoms), in both
        // layouts and with either way of building quarters: whole counts
        // still match A000170, and a set's sub-parts, counted one by one,
        // add up to the set.
        CUT_LIMITS.set((1 << 8, 1 << 15, true));
        for exact in [false, true] {
            EXACT_FROM.set(if exact { 0 } else { EXACT_MIN_N });
            for n in tier::boards(14..=14, 14..=15) {
                for width in [Width::Narrow, Width::Wide] {
                    let board = Board::with_width(n, width);
                    let units: Vec<Unit> = (board.units().into_iter())
                        .filter(|&unit| board.is_canonical(unit))
                        .collect();
                    let total: u64 = units.iter().map(|&u| count_unit(&board, u).solutions).sum();
                    let context = format!("n = {n}, {width:?}, exact {exact}");
                    assert_eq!(Some(total), oeis::total(n), "{context}");
                    let unit = *units
                        .iter()
                        .max_by_key(|&&u| top_sets(&board, u))
                        .expect("units");
                    let mut most = 1;
                    for place in 0..top_sets(&board, unit) {
                        let set = count_sets(
                            &board,
                            unit,
                            SetRange {
                                start: place,
                                end: place + 1,
                            },
                        );
                        let subs = prepare_set(&board, unit, place);
                        most = most.max(subs);
                        let mut sum = UnitCount::default();
                        for sub in 0..subs {
                            sum += count_sub_parts(&board, unit, place, sub, subs);
                        }
                        assert_eq!(sum.solutions, set.solutions, "{context}, set {place}");
                    }
                    assert!(most >= 4, "{context}: the limits cut some set");
                }
            }
        }
        EXACT_FROM.set(EXACT_MIN_N);
        CUT_LIMITS.set((CHUNK_PAIRS, SUB_PART_PAIRS, false));
    }

    #[test]
    fn a_chunk_makes_at_most_its_share_of_the_pairs_and_one_left_pieces() {
        // The memory bound of a sub-part: a chunk of K of a set whose sides
        // try P pairs makes at most P / K (rounded up) halves plus one left
        // piece's pairs, and the chunks of a cut make the set's halves.
        let board = Board::new(17);
        let unit = (board.units().into_iter())
            .find(|&u| board.is_canonical(u) && top_sets(&board, u) > 4)
            .expect("a unit of several sets");
        let mut buffers = Buffers::<u32>::default();
        build_quarters(Portable, &board, unit, &mut buffers);
        let quarters = &buffers.top_quarters;
        let (_, fixing) = board.orbit(unit);
        let mut keys = Vec::new();
        let mut checked = 0;
        for_each_top_set(&board, unit, &fixing, |set, _| {
            let pairs = quarters.pairs(set);
            let (whole, _) = quarters.halves(Portable, set, Chunk::ALL, &mut keys);
            let mut all: Vec<u64> = keys[..whole].to_vec();
            all.sort_unstable();
            for of in [2, 3, 7] {
                let mut made = Vec::new();
                for index in 0..of {
                    let chunk = Chunk { index, of };
                    let (found, tried) = quarters.halves(Portable, set, chunk, &mut keys);
                    let bound = pairs.div_ceil(of.into()) + quarters.largest_right_cell(set);
                    assert!(tried <= bound, "set {set:#b}, chunk {index} of {of}");
                    made.extend_from_slice(&keys[..found]);
                }
                made.sort_unstable();
                assert_eq!(made, all, "set {set:#b}, {of} chunks");
            }
            checked += 1;
        });
        assert!(checked > 4);
    }

    #[test]
    fn wide_boards_count_the_same_in_narrow_words_split_or_wide() {
        // From n = 24 the board's layout is wide, and each set is joined in
        // narrow words when its shared diagonals fit them (see
        // `crate::shape`), else split until they do, or in wide words when
        // too small to split; at n = 24 nearly all fit. Here the wide
        // layout counts boards whose totals are known, with every set in
        // narrow words (index chosen for every set, or none), with words
        // so short that every set is split (to a word of a few diagonals,
        // many times over), and with every set falling back to wide words.
        let splits = || SPLITS.load(std::sync::atomic::Ordering::Relaxed);
        let wides = || WIDE_SETS.load(std::sync::atomic::Ordering::Relaxed);
        for n in tier::boards(14..=14, 14..=16) {
            let symmetries = [Symmetries::Split, Symmetries::LongDiagonals];
            for symmetries in symmetries
                .into_iter()
                .filter(|&s| s == Symmetries::Split || n.is_multiple_of(2))
            {
                let board = Board::with_options(n, Width::Wide, symmetries);
                let cases = [
                    (join::LOW_BITS, 0, u64::MAX),
                    (join::LOW_BITS, u64::MAX, u64::MAX),
                    (3, u64::MAX, 0),
                    (4, 0, 0),
                    (0, 0, u64::MAX),
                ];
                // Splitting down to a few diagonals makes many small joins,
                // each paying its buckets' counters: the smallest board.
                let cases = cases.into_iter().filter(|case| n == 14 || case.2 != 0);
                for (limit, min_choice_pairs, split_from) in cases {
                    shape::WORD_LIMIT.set(limit);
                    shape::SPLIT_FROM.set(split_from);
                    let (splits_before, wides_before) = (splits(), wides());
                    let buffers = &mut Buffers::default();
                    let counted: u64 = (board.units().into_iter())
                        .filter(|&unit| board.is_canonical(unit))
                        .map(|unit| {
                            let count = count_unit_by_quarters(
                                Portable,
                                &board,
                                unit,
                                buffers,
                                min_choice_pairs,
                                &mut |_, _, _| {},
                            );
                            count.solutions
                        })
                        .sum();
                    shape::WORD_LIMIT.set(join::LOW_BITS);
                    shape::SPLIT_FROM.set(shape::MIN_SPLIT_PAIRS);
                    assert_eq!(
                        Some(counted),
                        oeis::total(n),
                        "n = {n}, {symmetries:?}, limit {limit}, chosen from {min_choice_pairs}, split from {split_from}"
                    );
                    // Other tests may split and fall back at the same
                    // time: these only say that this case did.
                    if split_from == 0 {
                        assert!(
                            splits() > splits_before,
                            "n = {n}, limit {limit}: sets were split"
                        );
                    }
                    if limit == 0 {
                        assert!(
                            wides() > wides_before,
                            "n = {n}: sets fell back to wide words"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn chosen_index_diagonals_leave_the_join_fewer_pairs_than_central_ones() {
        // What the choice is for (see `crate::index`): on sampled units of
        // n = 18 (with the long diagonals) and 19, over the sets big enough
        // to choose for, each set's own index diagonals leave the kernel
        // fewer pairs to test than the layout's central ones, and the units
        // count the same. (Deterministic: fixed units, fixed samples.)
        for n in [18, 19] {
            let board = Board::new(n);
            let canonical: Vec<Unit> = (board.units().into_iter())
                .filter(|&unit| board.is_canonical(unit))
                .collect();
            let mut tested = [0u64; 2];
            for k in 0..4 {
                let unit = canonical[(k * 7919 + 13 * n) % canonical.len()];
                let mut counts = [0u64; 2];
                for (way, min_choice_pairs) in
                    [index::MIN_CHOICE_PAIRS, u64::MAX].into_iter().enumerate()
                {
                    let mut observe = |pairs: u64, tops: &Side<u32>, bottoms: &Side<u32>| {
                        if pairs >= index::MIN_CHOICE_PAIRS {
                            tested[way] += join::pairs_tested(tops, bottoms);
                        }
                    };
                    let buffers = &mut Buffers::default();
                    counts[way] = count_unit_by_quarters(
                        Portable,
                        &board,
                        unit,
                        buffers,
                        min_choice_pairs,
                        &mut observe,
                    )
                    .solutions;
                }
                assert_eq!(counts[0], counts[1], "n = {n}, {unit:?}");
            }
            let [chosen, central] = tested;
            eprintln!("n = {n}: pairs tested, chosen {chosen}, central {central}");
            // At least a quarter fewer (about 40 % fewer on these units).
            assert!(
                chosen > 0 && 4 * chosen < 3 * central,
                "n = {n}: chosen {chosen}, central {central}"
            );
        }
    }

    #[test]
    fn every_layout_and_symmetry_choice_counts_every_board_it_is_given() {
        // The wide layout is the one for n > 23, and the long diagonals'
        // symmetries are for even n >= KLEIN_MIN_N, where no count is
        // affordable in a test: here every combination counts boards whose
        // totals are known, both parities (the long diagonals on even boards
        // only: bottoms off both, tops weighted by theirs, units up to the
        // mirror).
        for n in tier::boards(4..=14, 4..=16) {
            for width in [Width::Narrow, Width::Wide] {
                for symmetries in [Symmetries::Split, Symmetries::LongDiagonals] {
                    if symmetries == Symmetries::LongDiagonals && !n.is_multiple_of(2) {
                        continue;
                    }
                    let board = Board::with_options(n, width, symmetries);
                    let counted = Some(whole_count(&board));
                    assert_eq!(
                        counted,
                        oeis::total(n),
                        "n = {n}, {width:?}, {symmetries:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn quarters_build_exactly_the_searched_halves_of_every_set() {
        // The two ways this crate makes a unit's halves: the search of whole
        // halves (`crate::halves`, the wide layout's) and pairs of quarter
        // pieces (`crate::quarters`, the narrow layout's). For every unit,
        // side and file set of the unit, both must give the same keys, as
        // many times each; odd boards test the middle queen's attacks,
        // boards with the long diagonals the bottoms' restriction.
        for board in plain_and_klein(2..=13) {
            let n = board.n;
            let side_bits = quarters::side_bits(&board);
            let mut quarters = Quarters::default();
            let mut keys = Vec::new();
            for unit in board.units() {
                let flipped = board.map_unit(SplitSymmetry::Flip, unit);
                for (unit, role) in [(unit, Role::Top), (flipped, Role::Bottom)] {
                    let mut searched: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
                    search(&board, unit, role)
                        .run(|files, key| searched.entry(files).or_default().push(key));
                    quarters.build(
                        Portable,
                        &board,
                        &side_bits,
                        contributions(&board, role),
                        forbidden(&board, unit, role),
                        unit.middle,
                        unit.pattern,
                    );
                    let outside = board.full & !board.block & !Board::middle_bit(unit.middle);
                    let wanted = board.half - unit.pattern.count_ones() as usize;
                    let mut rest = 0u32;
                    loop {
                        if rest.count_ones() as usize == wanted {
                            let set = unit.pattern | rest;
                            let (found, _) = quarters.halves(Portable, set, Chunk::ALL, &mut keys);
                            let mut made = keys[..found].to_vec();
                            made.sort_unstable();
                            let mut expected = searched.remove(&set).unwrap_or_default();
                            expected.sort_unstable();
                            assert_eq!(made, expected, "n = {n}, {unit:?}, set {set:#b}");
                        }
                        rest = rest.wrapping_sub(outside) & outside;
                        if rest == 0 {
                            break;
                        }
                    }
                    assert!(searched.is_empty(), "n = {n}: every searched set was made");
                }
            }
        }
    }

    #[test]
    fn the_readmes_table_of_units_and_nodes_is_what_the_engine_counts() {
        let mut table = String::from("| n | units | nodes |\n|---|---|---|\n");
        for n in [12, 14, 16] {
            let board = Board::new(n);
            let units: Vec<Unit> = board
                .units()
                .into_iter()
                .filter(|&u| board.is_canonical(u))
                .collect();
            let nodes: u64 = units.iter().map(|&u| count_unit(&board, u).nodes).sum();
            let millions = nodes as f64 / 1e6;
            table += &format!("| {n} | {} + 1 | {millions:.2} M |\n", units.len());
        }
        assert!(
            include_str!("../README.md").contains(&table),
            "the README's table should read:\n{table}"
        );
    }

    #[test]
    fn units_counted_in_small_chunks_count_the_same() {
        // Large boards pair chunks of tops with chunks of bottoms; here the
        // chunks are made tiny so that boards with known counts take every
        // path of that loop (many chunks, a last chunk of dead branches).
        let mut narrow = Buffers::<u32>::default();
        let mut wide = Buffers::<u64>::default();
        for n in 4..=12 {
            // Every chunk of tops walks all bottoms again: tiny chunks only
            // on small boards.
            let limits: &[u64] = if n <= 8 { &[1, 3, 40] } else { &[200, 5000] };
            for &limit in limits {
                let mut totals = [0, 0];
                for (total, width) in totals.iter_mut().zip([Width::Narrow, Width::Wide]) {
                    let board = Board::with_width(n, width);
                    for unit in board.units().into_iter().filter(|&u| board.is_canonical(u)) {
                        let [whole, chunked] = [u64::MAX, limit].map(|limit| match width {
                            Width::Wide => count_unit_in(Portable, &board, unit, &mut wide, limit),
                            Width::Narrow => {
                                count_unit_in(Portable, &board, unit, &mut narrow, limit)
                            }
                        });
                        assert_eq!(chunked.solutions, whole.solutions, "n = {n}, {unit:?}");
                        assert!(chunked.nodes >= whole.nodes, "bottoms walked again");
                        *total += chunked.solutions;
                    }
                }
                assert_eq!(
                    totals.map(Some),
                    [oeis::total(n); 2],
                    "n = {n}, limit {limit}"
                );
            }
        }
    }

    /// The solutions of one unit (not its orbit): a three-mask search of the
    /// whole board, rank by rank, held to the unit's middle file and block
    /// pattern. Independent of the halves, keys and join it checks.
    ///
    /// With the long diagonals' symmetries ([`Board::klein`]), it counts
    /// what such a unit stands for: solutions whose bottom half avoids both
    /// long diagonals, each weighted 2 per long diagonal its top half takes.
    fn backtrack_unit(board: &Board, unit: Unit) -> u64 {
        fn place(
            board: &Board,
            unit: Unit,
            rank: usize,
            used: u32,
            fall: u32,
            rise: u32,
            weight: u64,
        ) -> u64 {
            let n = board.n;
            if rank == n {
                return weight;
            }
            let mut open = board.full & !(used | fall | rise);
            let top_ranks = board.half;
            let long = 1 << rank | 1 << (n - 1 - rank);
            if board.klein && rank >= n - top_ranks {
                open &= !long;
            }
            if rank < top_ranks {
                // Block files only from the pattern, and all of them by the
                // end of the top half.
                open &= !board.block | unit.pattern;
                let missing = (unit.pattern & !used).count_ones() as usize;
                if missing == top_ranks - rank {
                    open &= unit.pattern & !used;
                }
            } else if rank == top_ranks
                && let Some(m) = unit.middle
            {
                open &= 1 << m;
            }
            let mut found = 0;
            while open != 0 {
                let bit = open & open.wrapping_neg();
                open ^= bit;
                let doubled = board.klein && rank < top_ranks && bit & long != 0;
                found += place(
                    board,
                    unit,
                    rank + 1,
                    used | bit,
                    (fall | bit) << 1,
                    (rise | bit) >> 1,
                    if doubled { 2 * weight } else { weight },
                );
            }
            found
        }
        if board.is_odd() != unit.middle.is_some() {
            return 0;
        }
        place(board, unit, 0, 0, 0, 0, 1)
    }

    #[test]
    fn sampled_units_agree_with_a_backtracker_held_to_the_unit() {
        // Units picked by a fixed stride through the plan, at the sizes the
        // engine is tuned for; each unit's count (its whole orbit) against
        // the backtracker's count of every image.
        // At n = 17 and 18 the backtracker takes seconds per unit: the
        // sample comes from the lighter units (fewest top sets) there.
        // Even sizes also with the long diagonals' symmetries.
        let sizes = [
            (15, 3, 1, Symmetries::Split),
            (16, 2, 1, Symmetries::Split),
            (17, 1, 2, Symmetries::Split),
            (18, 1, 3, Symmetries::Split),
        ];
        let klein = [
            (16, 2, 1, Symmetries::LongDiagonals),
            (18, 1, 3, Symmetries::LongDiagonals),
        ];
        // The fast tier: the two smaller sizes, and the long diagonals at one.
        let cases = tier::cases(&sizes, 2)
            .into_iter()
            .chain(tier::cases(&klein, 1));
        for (n, samples, lightest, symmetries) in cases {
            let narrow = Board::with_options(n, Width::Narrow, symmetries);
            let wide = Board::with_options(n, Width::Wide, symmetries);
            let mut canonical: Vec<Unit> = narrow
                .units()
                .into_iter()
                .filter(|&u| narrow.is_canonical(u))
                .collect();
            canonical.sort_by_key(|&u| (top_sets(&narrow, u), u));
            for k in 0..samples {
                let unit = canonical[(k * 7919 + 13 * n) % (canonical.len() / lightest)];
                let (images, _) = narrow.orbit(unit);
                let expected: u64 = images.iter().map(|&i| backtrack_unit(&narrow, i)).sum();
                for board in [&narrow, &wide] {
                    let counted = count_unit(board, unit).solutions;
                    let width = board.layout.width;
                    assert_eq!(
                        counted, expected,
                        "n = {n}, {width:?}, {symmetries:?}: {unit:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_backtracker_held_to_units_covers_every_solution() {
        // Its restriction is right: over all units it finds Q(n), with the
        // long diagonals' weights too.
        for board in plain_and_klein(4..=10) {
            let n = board.n;
            let total: u64 = board
                .units()
                .into_iter()
                .map(|u| backtrack_unit(&board, u))
                .sum();
            assert_eq!(Some(total), oeis::total(n), "n = {n}");
        }
    }

    #[test]
    fn top_set_weights_add_up_to_every_top_set_of_the_unit() {
        for n in 4..=16 {
            let board = Board::new(n);
            for unit in board.units() {
                let (_, fixing) = board.orbit(unit);
                let outside = board.full & !board.block & !Board::middle_bit(unit.middle);
                let wanted = board.half - unit.pattern.count_ones() as usize;
                let all_sets = binomial(outside.count_ones() as u64, wanted as u64);
                let mut weighed = 0;
                let mut representatives = 0;
                for_each_top_set(&board, unit, &fixing, |set, weight| {
                    assert_eq!(set & board.block, unit.pattern);
                    assert!(matches!(weight, 1 | 2 | 4), "weight {weight}");
                    weighed += weight;
                    representatives += 1;
                });
                assert_eq!(weighed, all_sets, "n = {n}: {unit:?}");
                assert_eq!(top_sets(&board, unit), representatives);
                if fixing.len() == 1 {
                    assert_eq!(representatives, all_sets, "no symmetry, no reduction");
                }
            }
        }
    }

    /// Reach: the plan and the heaviest unit of every large board, with
    /// the memory the unit took (run with --ignored --nocapture).
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn reach() {
        let sizes: Vec<usize> = std::env::var("REACH")
            .map(|v| v.split(',').map(|s| s.parse().unwrap()).collect())
            .unwrap_or((22..=28).collect());
        for n in sizes {
            let started = std::time::Instant::now();
            let plan = crate::plan::plan(n);
            let planned = started.elapsed();
            let width = if std::env::var("WIDE").is_ok() {
                Width::Wide
            } else {
                Width::for_n(n)
            };
            let board = Board::with_width(n, width);
            let heaviest = plan
                .iter()
                .take(plan.len() - 1)
                .max_by_key(|u| u.weight)
                .unwrap();
            eprintln!("n = {n}: {} units, plan {planned:?}", plan.len());
            if std::env::var("REACH_COUNT").is_err() {
                continue;
            }
            let started = std::time::Instant::now();
            let count = count_unit(&board, Unit::from_key(heaviest.key));
            eprintln!(
                "n = {n}: {} units, plan {planned:?}, heaviest (weight {}) {:?}, {} solutions, {} nodes, {} MB",
                plan.len(),
                heaviest.weight,
                started.elapsed(),
                count.solutions,
                count.nodes,
                workspace_bytes() >> 20
            );
        }
    }

    #[test]
    #[ignore = "minutes in a release build: run with --release -- --ignored"]
    fn sampled_units_of_n_24_count_alike_from_quarters_and_searched_halves() {
        // n = 24 is the first board the wide layout makes from quarters;
        // the searched halves (the way it was counted before) check it,
        // unit by unit, on light units (the search takes seconds per top
        // set there), and every cut of those units adds up to the unit.
        let n = 24;
        let board = Board::new(n);
        let mut canonical: Vec<Unit> = (board.units().into_iter())
            .filter(|&unit| board.is_canonical(unit))
            .collect();
        canonical.sort_by_key(|&unit| (top_sets(&board, unit), unit));
        let searched_buffers = &mut Buffers::<u64>::default();
        for k in 0..3 {
            let unit = canonical[(k * 7919 + 13) % (canonical.len() / 8)];
            let searched = count_unit_in(Portable, &board, unit, searched_buffers, chunk::<u64>());
            let made = count_unit(&board, unit);
            assert_eq!(made.solutions, searched.solutions, "{unit:?}");
            assert!(made.solutions > 0, "{unit:?}");
            let sets = top_sets(&board, unit);
            let prepared = prepare_unit(&board, unit);
            for of in [2, 3, sets as u32] {
                let mut sum = UnitCount::default();
                for index in 0..of {
                    sum += count_sets(&board, unit, SetRange::part(sets, index, of));
                }
                assert_eq!(sum.solutions, made.solutions, "{unit:?}, {of} parts");
                assert_eq!(sum.nodes + prepared, made.nodes, "{unit:?}, {of} parts");
            }
            eprintln!("n = 24, {unit:?}: {} solutions", made.solutions);
        }
    }

    /// Time per solution on sampled work, one thread: in each round, for
    /// every n of `SIZES` (default 20..=24) in a shuffled order, a random
    /// part (one of 8 ranges of sets) of a unit drawn with probability
    /// proportional to its sets (so that samples weigh as the work does),
    /// its quarters' time charged by the part's share; at n = 24 also a random light
    /// unit whole by the searched halves and by quarters. Prints each
    /// sample, the medians and the ratio of summed times to summed
    /// solutions (run with --release -- --ignored --nocapture;
    /// `ROUNDS=k`). A measurement, not a check: the lead's record holds
    /// the figures.
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn time_per_solution_on_sampled_parts() {
        use std::time::Instant;
        let rounds: usize = std::env::var("ROUNDS").map_or(5, |v| v.parse().unwrap());
        let sizes: Vec<usize> = std::env::var("SIZES")
            .map(|v| v.split(',').map(|s| s.parse().unwrap()).collect())
            .unwrap_or((20..=24).collect());
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |bound: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % bound as u64) as usize
        };
        let boards: Vec<(Board, Vec<Unit>)> = (sizes.iter())
            .map(|&n| {
                let board = Board::new(n);
                let mut units: Vec<Unit> = (board.units().into_iter())
                    .filter(|&unit| board.is_canonical(unit))
                    .collect();
                units.sort_by_key(|&unit| (top_sets(&board, unit), unit));
                (board, units)
            })
            .collect();
        let mut samples: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        let mut totals: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
        let searched_buffers = &mut Buffers::<u64>::default();
        for round in 0..rounds {
            let mut order: Vec<usize> = (0..boards.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, next(i + 1));
            }
            for &at in &order {
                let (board, units) = &boards[at];
                let n = board.n;
                let weights: Vec<u64> = units.iter().map(|&u| top_sets(board, u)).collect();
                let mut draw = next(weights.iter().sum::<u64>() as usize) as u64;
                let unit = units[weights
                    .iter()
                    .position(|&w| {
                        let hit = draw < w;
                        draw = draw.saturating_sub(w);
                        hit
                    })
                    .unwrap()];
                let sets = top_sets(board, unit);
                let of = sets.min(8) as u32;
                let part = SetRange::part(sets, next(of as usize) as u32, of);
                let started = Instant::now();
                prepare_unit(board, unit);
                let prepared = started.elapsed().as_secs_f64();
                let started = Instant::now();
                let count = count_sets(board, unit, part);
                let counted = started.elapsed().as_secs_f64();
                let share = (part.end - part.start) as f64 / sets as f64;
                let seconds = counted + prepared * share;
                if count.solutions > 0 {
                    let ns = 1e9 * seconds / count.solutions as f64;
                    eprintln!(
                        "round {round}, n = {n}: {unit:?} part of {of}, {seconds:.3} s, {ns:.2} ns/solution"
                    );
                    samples
                        .entry(format!("n = {n}, quarters"))
                        .or_default()
                        .push(ns);
                    let total = totals.entry(n).or_default();
                    total.0 += seconds;
                    total.1 += count.solutions as f64;
                }
                if n == 24 {
                    // The searched halves take seconds per set: light units.
                    let unit = units[next(units.len() / 8)];
                    let started = Instant::now();
                    let searched =
                        count_unit_in(Portable, board, unit, searched_buffers, chunk::<u64>());
                    let searched_time = started.elapsed().as_secs_f64();
                    let started = Instant::now();
                    let made = count_unit(board, unit);
                    let made_time = started.elapsed().as_secs_f64();
                    assert_eq!(made.solutions, searched.solutions, "{unit:?}");
                    if made.solutions > 0 {
                        let per = |t: f64| 1e9 * t / made.solutions as f64;
                        eprintln!(
                            "round {round}, n = 24 light {unit:?}: searched {:.2} ns/solution, quarters {:.2}",
                            per(searched_time),
                            per(made_time)
                        );
                        samples
                            .entry("n = 24 light units, searched".into())
                            .or_default()
                            .push(per(searched_time));
                        samples
                            .entry("n = 24 light units, quarters".into())
                            .or_default()
                            .push(per(made_time));
                    }
                }
            }
        }
        for (what, mut values) in samples {
            values.sort_by(f64::total_cmp);
            let median = values[values.len() / 2];
            eprintln!(
                "median {what}: {median:.2} ns/solution over {} samples",
                values.len()
            );
        }
        for (n, (seconds, solutions)) in totals {
            eprintln!(
                "n = {n}: {:.2} ns/solution over all samples",
                1e9 * seconds / solutions
            );
        }
    }

    /// The quarters of the heaviest unit of every large board: the time to
    /// build them, the memory a thread holds, and the first sets' counts
    /// (run with --ignored --nocapture; `REACH=24,25`, `SETS=k`).
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn quarters_reach() {
        let sizes: Vec<usize> = std::env::var("REACH")
            .map(|v| v.split(',').map(|s| s.parse().unwrap()).collect())
            .unwrap_or((24..=28).collect());
        let sets: u64 = std::env::var("SETS").map_or(1, |v| v.parse().unwrap());
        if let Ok(from) = std::env::var("EXACT") {
            EXACT_FROM.set(from.parse().unwrap());
        }
        for n in sizes {
            let plan = crate::plan::plan(n);
            let board = Board::new(n);
            let heaviest = plan
                .iter()
                .take(plan.len() - 1)
                .max_by_key(|u| u.weight)
                .unwrap();
            let unit = Unit::from_key(heaviest.key);
            let started = std::time::Instant::now();
            let nodes = prepare_unit(&board, unit);
            let built = started.elapsed();
            let bytes = workspace_bytes();
            let started = std::time::Instant::now();
            let count = count_sets(
                &board,
                unit,
                SetRange {
                    start: 0,
                    end: sets,
                },
            );
            eprintln!(
                "n = {n}: heaviest weight {}, quarters {built:?} ({nodes} nodes), {} MiB after build, {sets} sets {:?}: {} solutions, {} MiB, {} sets wide so far",
                heaviest.weight,
                bytes >> 20,
                started.elapsed(),
                count.solutions,
                workspace_bytes() >> 20,
                WIDE_SETS.load(std::sync::atomic::Ordering::Relaxed)
            );
        }
    }

    /// Whole sets under several cuts for time, side by side: sets drawn
    /// by the plan's predicted time (a piece by weight, a set within it),
    /// each counted once per `CUTS` (log2 of the sub-part limit; 64 for
    /// none), the same count every time (run with --release -- --ignored
    /// --nocapture; `N=26`, `CUTS=37,41,45,64`, `SAMPLES=k`). With
    /// `SUB=1`, for sets too long to time whole (n = 28), one sub-part
    /// drawn at random per cut stands for the set: its time and solutions
    /// times the set's sub-parts (unbiased for both), plus the set's
    /// quarters' time once (printed apart: what each slice of the set
    /// builds again, see [`SLICES`]). A measurement, not a check: it chose
    /// [`SUB_PART_PAIRS`], and its sub-parts per set at n = 28 bound
    /// [`SLICES`].
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn set_cuts() {
        use std::sync::atomic::Ordering::Relaxed;
        let n: usize = std::env::var("N").map_or(26, |v| v.parse().unwrap());
        let cuts: Vec<u32> = std::env::var("CUTS").map_or(vec![37, 41, 45, 64], |v| {
            v.split(',').map(|s| s.parse().unwrap()).collect()
        });
        let samples: usize = std::env::var("SAMPLES").map_or(3, |v| v.parse().unwrap());
        let one_sub = std::env::var("SUB").is_ok();
        let mut next = draws();
        let board = Board::new(n);
        let plan = crate::plan::plan(n);
        // A whole unit by weight, then one of its pieces uniformly (they
        // weigh the same to within 1): a draw by weight without listing
        // the plan's pieces.
        let whole = plan.whole_units();
        let units = &whole[..whole.len() - 1];
        let total: u64 = units.iter().map(|u| u.weight).sum();
        let mut seconds = vec![0.0; cuts.len()];
        let mut solutions = vec![0.0; cuts.len()];
        for _ in 0..samples {
            let drawn = by_weight(units, next(total));
            let at = (units.iter().position(|u| u.key == drawn.key)).expect("drawn from units");
            let range = plan.pieces(at);
            let piece = plan.unit(range.start + next(range.len() as u64) as usize);
            let unit = Unit::from_key(piece.key);
            let per_set = slices(&board);
            let held = Selection::part(top_sets(&board, unit), per_set, piece.piece).slices;
            let per_set = u64::from(per_set);
            let range = SetRange {
                start: held.start / per_set,
                end: (held.end - 1) / per_set + 1,
            };
            let place = range.start + next(range.end - range.start);
            prepare_unit(&board, unit);
            let mut counted = None;
            for ((spent, solved), &cut) in seconds.iter_mut().zip(&mut solutions).zip(&cuts) {
                let limit = if cut >= 64 { u64::MAX } else { 1 << cut };
                CUT_LIMITS.set((CHUNK_PAIRS, limit, false));
                let splits = SPLITS.load(Relaxed);
                let started = std::time::Instant::now();
                let subs = prepare_set(&board, unit, place);
                let prepared = started.elapsed().as_secs_f64();
                let started = std::time::Instant::now();
                let (count, scale) = if one_sub {
                    let sub = next(subs.into()) as u32;
                    let count = count_sub_parts(&board, unit, place, sub, subs);
                    (count, f64::from(subs))
                } else {
                    let set = SetRange {
                        start: place,
                        end: place + 1,
                    };
                    (count_sets(&board, unit, set), 1.0)
                };
                let elapsed = started.elapsed().as_secs_f64();
                *spent += prepared + elapsed * scale;
                *solved += count.solutions as f64 * scale;
                if !one_sub {
                    assert_eq!(*counted.get_or_insert(count.solutions), count.solutions);
                }
                eprintln!(
                    "n = {n}, {unit:?}, set {place}, cut 2^{cut}: quarters {prepared:.3} s, {subs} sub-parts, {elapsed:.3} s, {} solutions, {} splits",
                    count.solutions,
                    SPLITS.load(Relaxed) - splits
                );
            }
        }
        CUT_LIMITS.set((CHUNK_PAIRS, SUB_PART_PAIRS, false));
        for ((spent, solved), cut) in seconds.iter().zip(&solutions).zip(&cuts) {
            eprintln!(
                "cut 2^{cut}: {spent:.2} s, {:.2} ns/solution",
                spent * 1e9 / solved
            );
        }
    }

    /// The measurements' draws: a generator of fixed seed, `next(bound)`
    /// uniform enough in `0..bound`, the same draws on every run.
    fn draws() -> impl FnMut(u64) -> u64 {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        move |bound: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 20) % bound.max(1)
        }
    }

    /// The unit (or piece) of `units` that `draw` (below their summed
    /// weight) falls in, laid end to end: a draw by weight.
    fn by_weight(units: &[WorkUnit], mut draw: u64) -> WorkUnit {
        *(units.iter())
            .find(|u| {
                let hit = draw < u.weight;
                draw = draw.saturating_sub(u.weight);
                hit
            })
            .expect("a draw below the total weight")
    }

    /// What slices cost at n = 28 (`N=k` for another board): a piece that
    /// starts inside a set builds that set's quarters again, so the plan's
    /// pieces at their target (a minute, the cap on a plan's entries left
    /// out) are counted by where they start, and the rebuilds they add
    /// are timed on `SAMPLES` sets drawn by predicted time (a unit by
    /// weight, a set uniformly); prints the pieces, the rebuilds, the
    /// mean rebuild, and the rebuilds' share of the predicted total (run
    /// with --release -- --ignored --nocapture). A measurement, not a
    /// check.
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn slice_rebuilds() {
        use crate::plan::{PIECE_NANOS, WEIGHT_NANOS};
        let n: usize = std::env::var("N").map_or(28, |v| v.parse().unwrap());
        let samples: u64 = std::env::var("SAMPLES").map_or(8, |v| v.parse().unwrap());
        let board = Board::new(n);
        let plan = crate::plan::plan(n);
        let whole = plan.whole_units();
        let units = &whole[..whole.len() - 1];
        let target = PIECE_NANOS / WEIGHT_NANOS;
        let per_set = u64::from(slices(&board));
        let (mut pieces, mut rebuilds) = (0u64, 0u64);
        for unit in units {
            let parts = u64::from(parts(&board, Unit::from_key(unit.key)));
            let of = unit.weight.div_ceil(target).clamp(1, parts);
            pieces += of;
            rebuilds += (1..of)
                .filter(|&index| (index * parts / of) % per_set != 0)
                .count() as u64;
        }
        let total: u64 = units.iter().map(|u| u.weight).sum();
        let mut next = draws();
        let mut seconds = 0.0;
        for _ in 0..samples {
            let unit = by_weight(units, next(total));
            let at = Unit::from_key(unit.key);
            let place = next(top_sets(&board, at));
            prepare_unit(&board, at);
            let started = std::time::Instant::now();
            let subs = prepare_set(&board, at, place);
            let took = started.elapsed().as_secs_f64();
            seconds += took;
            eprintln!("n = {n}, {at:?}, set {place}: quarters {took:.3} s, {subs} sub-parts");
        }
        let mean = seconds / samples.max(1) as f64;
        let predicted = total as f64 * WEIGHT_NANOS as f64 / 1e9;
        eprintln!(
            "n = {n}: {per_set} slices a set, {pieces} pieces of a minute, {rebuilds} start inside a set; quarters {mean:.3} s a set: rebuilds {:.3e} s, {:.2} % of the predicted {predicted:.3e} s",
            rebuilds as f64 * mean,
            100.0 * rebuilds as f64 * mean / predicted
        );
    }

    fn binomial(n: u64, k: u64) -> u64 {
        if k > n {
            return 0;
        }
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }
}
