//! `queens trace N --solver constellations`: the plan (how many border
//! pre-placements, how many orbits of each size), then unit by unit the
//! pre-placement, its weight, and the interior search in masks.

use queens_core::trace::{Detail, Observer, StepKind, TraceSink, Tracing};
use queens_core::{CountOnly, SearchStats, counted, file_name};

use crate::constellation::Constellation;
use crate::interior::{Interior, MAX_N};
use crate::plan;

pub(crate) fn trace(n: usize, sink: &mut dyn TraceSink) -> SearchStats {
    let plan = plan::plan(n);
    let mut observer = Tracing::new(sink);
    let mut stats = SearchStats {
        nodes: plan.nodes,
        ..SearchStats::default()
    };
    let orbits = |size: u64| {
        plan.iter()
            .filter(|u| Constellation::from_key(u.key).orbit_size(n) == size)
            .count()
    };
    let (eights, fours, twos, ones) = (orbits(8), orbits(4), orbits(2), orbits(1));
    let units = plan.len();
    let summary = observer.step(StepKind::Note, || {
        format!(
            "plan: {n}^4 border pre-placements (queens on the a and {} files, ranks 1 and {n}) looked at\n\
             one unit per orbit of the 8 symmetries: {} \
             (orbits of 8: {eights}, of 4: {fours}, of 2: {twos}, of 1: {ones})\n\
             a unit's completions are counted once and stand for its whole orbit",
            file_name(n - 1),
            counted(units, "unit", "units")
        )
    });
    if summary.is_break() {
        return stats;
    }
    for (index, unit) in plan.iter().enumerate() {
        let c = Constellation::from_key(unit.key);
        let orbit = c.orbit_size(n);
        let last = n - 1;
        let note = observer.step(StepKind::Note, || {
            let board = Detail::default().queens(
                c.squares(n)
                    .as_slice()
                    .iter()
                    .map(|&(col, row)| (col as usize, row as usize)),
            );
            let square = |col: usize, row: usize| format!("{}{}", file_name(col), row + 1);
            let distinct: Vec<String> = c
                .squares(n)
                .as_slice()
                .iter()
                .map(|&(col, row)| square(col as usize, row as usize))
                .collect();
            Detail {
                text: format!(
                    "unit {}/{units}: border queens {} (west {}, east {}, south {}, north {})\n\
                     orbit {orbit}: each completion stands for {}; \
                     weight {}: its estimated cost (nodes to fill its first {} free ranks), \
                     which balances threads and shards",
                    index + 1,
                    distinct.join(" "),
                    square(0, c.west as usize),
                    square(last, c.east as usize),
                    square(c.south as usize, 0),
                    square(c.north as usize, last),
                    counted(orbit, "solution", "solutions"),
                    unit.weight,
                    plan::ESTIMATE_ROWS
                ),
                ..board.solutions(stats.solutions).nodes(stats.nodes)
            }
        });
        if note.is_break() {
            break;
        }
        let tally = Interior::new(n, c).search(MAX_N, &mut CountOnly, &mut observer);
        stats.solutions += orbit * tally.solutions;
        stats.nodes += tally.nodes;
        if tally.stopped {
            break;
        }
        let done = observer.step(StepKind::Note, || {
            Detail::text(format!(
                "unit {} done: {} x orbit {orbit} = {}, {}",
                index + 1,
                counted(tally.solutions, "completion", "completions"),
                counted(orbit * tally.solutions, "solution", "solutions"),
                counted(tally.nodes, "interior node", "interior nodes")
            ))
            .solutions(stats.solutions)
            .nodes(stats.nodes)
        });
        if done.is_break() {
            break;
        }
    }
    stats
}
