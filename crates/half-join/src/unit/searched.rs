//! Small boards' units: both sides' halves searched whole, bucketed by
//! file set, and every top set joined with its bottom set.

use super::*;

/// Halves per side held at once, so that a thread's memory is bounded
/// whatever n is: 64 MiB of compared words per side (2^24 narrow halves,
/// 2^23 wide ones). Up to n = 21 no unit reaches it, so a unit is one chunk
/// of tops against one of bottoms; beyond, the bottoms are walked again for
/// every chunk of tops.
pub(crate) const CHUNK_BYTES: usize = 64 << 20;

/// [`CHUNK_BYTES`] in halves of a layout's word.
pub(super) fn chunk<W>() -> u64 {
    (CHUNK_BYTES / size_of::<W>()) as u64
}

/// The search for one side of a unit.
pub(super) fn search(board: &Board, unit: Unit, role: Role) -> HalfSearch<'_> {
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
pub(super) fn fill_chunk<W: Word, L: Isa>(
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
    let nodes = isa.run(
        #[inline(always)]
        || {
            search.resume(walk, limit, |files, key| {
                let (index, word) = W::split(key, index_bits);
                let bucket = (board.set_index(files) << index_bits) | index as usize;
                counts[bucket] += 1;
                unsorted.push((bucket as u32, word.marked(mark)));
            })
        },
    );
    side.fill(index_bits, counts, unsorted, step);
    (nodes, unsorted.len())
}

/// [`count_unit`] in one layout's buffers, `limit` halves per chunk.
pub(super) fn count_unit_in<W: Word, L: Isa>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Portable;
    use queens_core::oeis;

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
}
