//! Measured rows spliced into hand-written pages (the walk-through, a
//! crate's README): the prose keeps the reasoning, the numbers come from
//! the records, so that no figure a reader sees is typed by hand or goes
//! stale when the solvers change.
//!
//! A page asks for a table with a pair of marker lines:
//!
//! ```text
//! <!-- BEGIN: measured three-mask,textbook 8,12 -->
//! (generated; replaced by `queens report --splice PAGE`)
//! <!-- END: measured -->
//! ```
//!
//! The first word after `measured` lists solver ids, the second the board
//! sizes; the table has one row per (solver, n), in that order, with the
//! count, the nodes, the median time and the time per node from the
//! records, or what the record says instead (over budget, an error). An
//! optional third word `vs=SOLVER` adds the speed-up over that solver at
//! the same n (its median over the row's): how a page shows what one idea
//! buys without typing a ratio. Times are on the records' basis (cold, or
//! warm in a version-1 record: the header says which).
//!
//! A further word `memory` adds each row's peak heap, as the checking run
//! measured it: how a page shows what an idea costs in bytes.
//!
//! The third word may instead be `cold-warm`: then the table sets each
//! row's cold and warm time per node side by side, with how many times
//! cheaper warm looks and the branch misses per node where they were
//! measured (or, below the table, why they were not): how the walk-through
//! shows the branch predictor learning a repeated search.

use super::format::{bytes, duration_ns, significant, thousands};
use super::overlay::{Basis, Overlay, ranked_ns, ranked_per_node};
use super::table::{Cell, Column, Outcome, Table, ratio, timed};
use queens_record::Entry;

/// How a measured block begins (the request follows on the same line).
pub(crate) const BEGIN_PREFIX: &str = "<!-- BEGIN: measured ";
/// How a measured block ends.
pub(crate) const END_LINE: &str = "<!-- END: measured -->";

/// What one block asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Request {
    solvers: Vec<String>,
    ns: Vec<usize>,
    /// `vs=SOLVER`: the baseline of a speed-up column.
    baseline: Option<String>,
    /// `cold-warm`: the cold and warm figures side by side instead.
    cold_warm: bool,
    /// `memory`: a column of the peak heap.
    memory: bool,
}

impl Request {
    /// Reads `three-mask,textbook 8,12`, then optionally `vs=SOLVER` or
    /// `cold-warm`, and `memory`.
    fn parse(text: &str) -> Result<Request, String> {
        let usage = || {
            format!(
                "'{text}' is not `SOLVER[,SOLVER...] N[,N...] [vs=SOLVER | cold-warm] [memory]`"
            )
        };
        let mut words = text.split_whitespace();
        let (Some(solvers), Some(ns)) = (words.next(), words.next()) else {
            return Err(usage());
        };
        let ns = ns
            .split(',')
            .map(|n| {
                n.parse::<usize>()
                    .map_err(|_| format!("'{n}' is not a board size"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut request = Request {
            solvers: solvers.split(',').map(str::to_string).collect(),
            ns,
            baseline: None,
            cold_warm: false,
            memory: false,
        };
        for word in words {
            let baseline = word.strip_prefix("vs=").filter(|b| !b.is_empty());
            if !matches!(word, "cold-warm" | "memory") && baseline.is_none() {
                return Err(format!(
                    "'{word}' is not `vs=SOLVER`, `cold-warm` or `memory`"
                ));
            }
            // Each word once; a cold-warm table has neither other column.
            let clash = match word {
                "cold-warm" => request.cold_warm || request.memory || request.baseline.is_some(),
                "memory" => request.memory || request.cold_warm,
                _ => request.baseline.is_some() || request.cold_warm,
            };
            if clash {
                return Err(usage());
            }
            match word {
                "cold-warm" => request.cold_warm = true,
                "memory" => request.memory = true,
                _ => request.baseline = baseline.map(str::to_string),
            }
        }
        Ok(request)
    }
}

/// The table for one request, from the overlaid records. A solver the
/// records do not know, or an n they have no entry for, is an error: the
/// page would otherwise show a number that does not exist. The extra
/// statistics every row carries (row-fold's widest level, three-mask's
/// positions tried) get a column each; one that only some solvers of the
/// table count (textbook's square tests) is left to their own tables.
fn table(request: &Request, overlay: &Overlay) -> Result<String, String> {
    for solver in request.baseline.iter().chain(&request.solvers) {
        if !overlay.facts.iter().any(|s| &s.id == solver) {
            return Err(format!("the records have no solver '{solver}'"));
        }
    }
    let mut entries = Vec::new();
    for solver in &request.solvers {
        for &n in &request.ns {
            entries.push(
                overlay
                    .entry(solver, n)
                    .ok_or_else(|| format!("the records have no entry for {solver} at n = {n}"))?,
            );
        }
    }
    if request.cold_warm {
        return Ok(cold_warm_table(&entries, overlay));
    }
    // The statistics every timed row carries, in the first one's order.
    let timed_entries: Vec<&Entry> = entries.iter().copied().filter(|e| timed(e)).collect();
    let first_extras = timed_entries.first().map_or(&[][..], |first| &first.extra);
    let extra_names: Vec<&str> = (first_extras.iter().map(|m| m.name.as_str()))
        .filter(|name| (timed_entries.iter()).all(|e| e.extra.iter().any(|m| m.name == *name)))
        .collect();
    let basis = overlay.basis.word();
    let mut columns = vec![Column::text("solver")];
    columns.extend(["n", "solutions", "nodes"].map(Column::numbers));
    columns.push(Column::numbers(format!("{basis} median time")));
    columns.push(Column::numbers(format!("{basis} ns / node")));
    columns.extend(
        extra_names
            .iter()
            .map(|name| Column::numbers(name.replace('_', " "))),
    );
    if request.memory {
        columns.push(Column::numbers("peak heap"));
    }
    if let Some(baseline) = &request.baseline {
        columns.push(Column::numbers(format!("× faster than {baseline}")));
    }
    let mut table = Table::new(columns);
    for entry in entries {
        let count = |value: Option<u64>| Cell::dash(value.map(thousands));
        let mut row = vec![
            Cell::solver(&entry.solver),
            Cell::Text(entry.n.to_string()),
            count(entry.solutions),
            count(entry.nodes),
        ];
        match (Outcome::of(entry), ranked_ns(entry)) {
            (Outcome::Timed, Some(median)) => {
                row.push(Cell::Text(duration_ns(median)));
                row.push(Cell::dash(ranked_per_node(entry).map(significant)));
            }
            (outcome, _) => row.extend([Cell::Status(outcome), Cell::dash(None)]),
        }
        row.extend(extra_names.iter().map(|name| {
            count(
                entry
                    .extra
                    .iter()
                    .find(|m| m.name == *name)
                    .map(|m| m.value),
            )
        }));
        if request.memory {
            row.push(Cell::dash(entry.peak_heap_bytes.map(bytes)));
        }
        if let Some(baseline) = &request.baseline {
            let this = overlay.median_ns(&entry.solver, entry.n);
            let base = overlay.median_ns(baseline, entry.n);
            row.push(Cell::dash(
                base.zip(this).map(|(base, this)| ratio(base / this)),
            ));
        }
        table.push(row);
    }
    Ok(table.markdown())
}

/// The `cold-warm` table: per row, the cold and the warm time per node, and
/// how many times cheaper the warm one looks.
fn cold_warm_table(entries: &[&Entry], overlay: &Overlay) -> String {
    let mut table = Table::new(vec![
        Column::text("solver"),
        Column::numbers("n"),
        Column::numbers("nodes"),
        Column::numbers("cold ns / node"),
        Column::numbers("warm ns / node"),
        Column::numbers("warm looks cheaper by"),
    ]);
    for entry in entries {
        let cold = entry.cold_ns_per_node().filter(|_| timed(entry));
        let warm = entry.ns_per_node().filter(|_| timed(entry));
        table.push(vec![
            Cell::solver(&entry.solver),
            Cell::Text(entry.n.to_string()),
            Cell::dash(entry.nodes.map(thousands)),
            Cell::Text(cold.map_or_else(|| "not recorded".into(), significant)),
            Cell::dash(warm.map(significant)),
            Cell::dash(cold.zip(warm).map(|(c, w)| ratio(c / w))),
        ]);
    }
    let mut out = table.markdown() + "\n";
    if overlay.basis != Basis::Cold {
        out.push_str(overlay.basis_note());
        out.push_str("\n\n");
    }
    out.push_str(&crate::tables::branch_misses_note(overlay));
    // The block ends on the table or note, as the other blocks do.
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// `document` with every measured block filled from `overlay`, and how
/// many blocks there were. Markers must pair up, in order.
pub(crate) fn splice_measured(
    document: &str,
    overlay: &Overlay,
) -> Result<(String, usize), String> {
    let mut out = String::with_capacity(document.len());
    let mut lines = document.split_inclusive('\n');
    let mut blocks = 0;
    while let Some(line) = lines.next() {
        out.push_str(line);
        let trimmed = line.trim_end();
        if trimmed == END_LINE {
            return Err(format!("{END_LINE} without a block before it"));
        }
        let Some(rest) = trimmed.strip_prefix(BEGIN_PREFIX) else {
            continue;
        };
        let request = rest
            .strip_suffix("-->")
            .map(str::trim)
            .ok_or_else(|| format!("'{trimmed}' does not end with -->"))
            .and_then(Request::parse)?;
        // Skip the old contents up to the end marker.
        let mut ended = None;
        for old in lines.by_ref() {
            if old.trim_end() == END_LINE {
                ended = Some(old);
                break;
            }
            if old.trim_end().starts_with(BEGIN_PREFIX) {
                return Err(format!("'{trimmed}' is not closed before the next block"));
            }
        }
        let end = ended.ok_or_else(|| format!("'{trimmed}' has no {END_LINE} after it"))?;
        out.push_str(&table(&request, overlay)?);
        out.push_str(end);
        blocks += 1;
    }
    Ok((out, blocks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::Source;
    use queens_record::fixtures::sample_record;

    fn overlay() -> Overlay {
        Overlay::from_sources(&[Source {
            newer_code: Default::default(),
            label: "fixture".into(),
            record: sample_record(),
        }])
    }

    #[test]
    fn a_block_is_filled_from_the_records_and_refilled_the_same() {
        let page = format!(
            "# Page\ntext\n{BEGIN_PREFIX}three-mask 8 -->\nstale 99 ms\n{END_LINE}\nmore\n"
        );
        let (once, blocks) = splice_measured(&page, &overlay()).unwrap();
        assert_eq!(blocks, 1);
        assert!(once.contains("| three-mask | 8 | 92 | 2,057 |"), "{once}");
        assert!(!once.contains("stale"));
        assert!(
            once.starts_with("# Page\ntext\n") && once.ends_with(&format!("{END_LINE}\nmore\n"))
        );
        assert_eq!(splice_measured(&once, &overlay()).unwrap().0, once);
    }

    #[test]
    fn a_speed_up_column_divides_the_baselines_median_by_the_rows() {
        let page = format!("{BEGIN_PREFIX}three-mask 8 vs=three-mask -->\n{END_LINE}\n");
        let (filled, _) = splice_measured(&page, &overlay()).unwrap();
        assert!(filled.contains("| × faster than three-mask |"), "{filled}");
        assert!(filled.contains(" | 1.00× |"), "{filled}");
    }

    #[test]
    fn a_memory_column_shows_each_rows_peak_heap_from_the_record() {
        let page = format!("{BEGIN_PREFIX}three-mask 8 vs=three-mask memory -->\n{END_LINE}\n");
        let (filled, _) = splice_measured(&page, &overlay()).unwrap();
        let heap = sample_record().entries[0].peak_heap_bytes.map(bytes);
        let header = filled.lines().nth(1).unwrap();
        assert!(
            header.ends_with("| peak heap | × faster than three-mask |"),
            "{filled}"
        );
        let row = filled.lines().nth(3).unwrap();
        let expected = format!("| {} | 1.00× |", heap.as_deref().unwrap_or("-"));
        assert!(row.ends_with(&expected), "{filled}");
    }

    #[test]
    fn a_cold_warm_block_sets_both_figures_side_by_side_from_the_record() {
        let page = format!("{BEGIN_PREFIX}three-mask 8 cold-warm -->\n{END_LINE}\n");
        let (filled, _) = splice_measured(&page, &overlay()).unwrap();
        let entry = &sample_record().entries[0];
        let (cold, warm) = (
            entry.cold_ns_per_node().unwrap(),
            entry.ns_per_node().unwrap(),
        );
        let row = format!(
            "| three-mask | 8 | 2,057 | {} | {} | {}× |",
            significant(cold),
            significant(warm),
            significant(cold / warm)
        );
        assert!(filled.contains(&row), "{filled}");
        // The fixture's record could not read the counters: said, not hidden.
        assert!(
            filled.contains("are absent: perf_event_open failed"),
            "{filled}"
        );
        // A version-1 record has no cold figure, and the block says so.
        let old = Overlay::from_sources(&[Source {
            newer_code: Default::default(),
            label: "v1".into(),
            record: queens_record::fixtures::warm_only_record(),
        }]);
        let (filled, _) = splice_measured(&page, &old).unwrap();
        assert!(filled.contains("| not recorded |"), "{filled}");
        assert!(filled.contains("no cold figure"), "{filled}");
    }

    #[test]
    fn a_number_the_records_do_not_have_is_refused() {
        for (request, problem) in [
            ("nobody 8", "no solver 'nobody'"),
            ("three-mask 9", "no entry for three-mask at n = 9"),
            ("three-mask", "is not `SOLVER"),
            ("three-mask x", "not a board size"),
            (
                "three-mask 8 versus",
                "is not `vs=SOLVER`, `cold-warm` or `memory`",
            ),
            ("three-mask 8 cold-warm vs=textbook", "is not `SOLVER"),
            ("three-mask 8 memory memory", "is not `SOLVER"),
            ("three-mask 8 vs=nobody", "no solver 'nobody'"),
        ] {
            let page = format!("{BEGIN_PREFIX}{request} -->\n{END_LINE}\n");
            let error = splice_measured(&page, &overlay()).unwrap_err();
            assert!(error.contains(problem), "{request}: {error}");
        }
        let unclosed = format!("{BEGIN_PREFIX}three-mask 8 -->\nrest\n");
        assert!(
            splice_measured(&unclosed, &overlay())
                .unwrap_err()
                .contains("no <!-- END")
        );
        let stray = format!("text\n{END_LINE}\n");
        assert!(
            splice_measured(&stray, &overlay())
                .unwrap_err()
                .contains("without a block")
        );
    }
}
