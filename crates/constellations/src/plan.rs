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
    let n8 = n as u8;
    let mut legal = Vec::new();
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
                        legal.push(c);
                    }
                }
            }
        }
    }
    (legal, looked_at)
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
            WorkUnit {
                key: cheapest.key(),
                weight,
            }
        })
        .collect();
    Plan { units, nodes }
}
