//! The work units of a board: one per orbit of legal constellations, in a
//! fixed order, each with an estimate of its cost.

use queens_core::CountOnly;
use queens_core::split::{Plan, WorkUnit};
use queens_core::trace::Silent;

use crate::constellation::Constellation;
use crate::interior::Interior;

/// Free rows searched to estimate a unit's cost. The number of ways to fill
/// the first few rows tracks the size of the whole subtree well enough to
/// balance shards, and costs a few hundred nodes per unit.
pub const ESTIMATE_ROWS: usize = 4;

/// Every legal constellation in the order (west, east, south, north), with
/// the number of candidates looked at.
pub fn legal_constellations(n: usize) -> (Vec<Constellation>, u64) {
    let mut legal = Vec::new();
    let looked_at = for_each_legal(n, |c| legal.push(c));
    (legal, looked_at)
}

/// Calls `visit` with every legal constellation in the order (west, east,
/// south, north); returns the number of candidates looked at.
fn for_each_legal(n: usize, mut visit: impl FnMut(Constellation)) -> u64 {
    let n8 = n as u8;
    let mut looked_at = 0;
    for west in 0..n8 {
        for east in 0..n8 {
            for south in 0..n8 {
                for north in 0..n8 {
                    looked_at += 1;
                    let c = Constellation {
                        west,
                        east,
                        south,
                        north,
                    };
                    if c.is_legal(n) {
                        visit(c);
                    }
                }
            }
        }
    }
    looked_at
}

/// What the search holds besides the plan: the interior search of one
/// constellation (masks on the stack), a constellation's images while
/// planning, Burnside's fixed pairs, the statistics. Kilobytes, measured.
const SEARCH_BYTES: u64 = 16 << 10;

/// An upper bound on the heap a count (or the walkthrough, which plans
/// the same way) of the n×n board holds: the plan, made once. Its legal
/// constellations (a `Constellation` each) and its units (a `WorkUnit`
/// per canonical one), both collected by pushing (up to twice their length
/// held), the plan's own copy of the units (with their count of pieces and
/// first piece), and the lists of unit indices a count keeps and orders
/// them by (four at most at once, and a weight beside each of one). Both
/// are counted, not guessed: n⁴ candidates looked at, milliseconds at the
/// largest n.
pub fn peak_bytes(n: usize) -> u64 {
    let (mut legal, mut canonical) = (0u64, 0u64);
    for_each_legal(n, |c| {
        legal += 1;
        canonical += u64::from(c.is_canonical(n));
    });
    let held = size_of::<WorkUnit>() + size_of::<u32>() + size_of::<usize>();
    let lists = 4 * size_of::<usize>() + size_of::<(u64, usize)>();
    let per_unit = (2 * size_of::<WorkUnit>() + held + lists) as u64;
    2 * legal * size_of::<Constellation>() as u64 + (canonical + 1) * per_unit + SEARCH_BYTES
}

/// One work unit per orbit of legal constellations. All members of an orbit
/// have the same number of completions (a symmetry maps the completions of
/// one onto those of another), but not the same search cost: the interior
/// search goes row by row from the south, and prunes early only if the rows
/// it meets first are crowded. So each unit searches the member of its orbit
/// with the smallest estimate. The plan's nodes are the n⁴ candidates looked
/// at plus the estimating searches.
pub fn plan(n: usize) -> Plan {
    let (legal, looked_at) = legal_constellations(n);
    let mut nodes = looked_at;
    let units = legal
        .into_iter()
        .filter(|c| c.is_canonical(n))
        .map(|canonical| {
            let mut members = canonical.images(n);
            members.sort_unstable();
            let (weight, cheapest) = members
                .iter()
                .enumerate()
                .filter(|&(i, member)| i == 0 || *member != members[i - 1])
                .map(|(_, &member)| {
                    let estimate =
                        Interior::new(n, member).search(ESTIMATE_ROWS, &mut CountOnly, &mut Silent);
                    nodes += estimate.nodes;
                    // Every unit costs something, even one whose first
                    // rows are already blocked.
                    (estimate.nodes.max(1), member)
                })
                .min()
                .expect("an orbit has a member");
            WorkUnit::whole(cheapest.key(), weight)
        })
        .collect();
    Plan::whole(units, nodes)
}
