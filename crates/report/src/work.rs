//! The instructions record in COMPARISON.md: instructions retired per
//! solution and per node at n = 8..12 beside the bench record's time per
//! node, and the one table saying what each solver's node is. Nodes mean
//! different things for different solvers, so per solution is the figure
//! that compares them; per node says what one of a solver's own units of
//! work costs.

use queens_record::instructions::InstructionsEntry;
use std::collections::BTreeSet;

use super::format::{significant, thousands};
use super::inputs::InstructionsSource;
use super::overlay::{Overlay, ranked_per_node};
use super::table::{Cell, Column, Outcome, Table, by_n, markdown_text};

/// What the report says beside every instructions figure: where they were
/// counted and on what build, and why that differs from the timed build.
pub(crate) fn caveat(source: &InstructionsSource) -> String {
    let record = &source.record;
    format!(
        "Counted by {} (callgrind) from `{}`: {}. The counted `queens` is built as \
         `{}`: the timed build is portable (baseline x86-64), and this one lets every solver \
         use the bit instructions (POPCNT, LZCNT, BMI1/2) that valgrind decodes. Valgrind \
         decodes no AVX-512 (nor GFNI), so a solver that picks its SIMD kernel at run time \
         (half-join) runs its AVX2 kernel here. A count is exact and the same on every run \
         of that binary.",
        record.valgrind, source.label, record.counted, record.build
    )
}

/// An instructions figure: three significant digits below 1,000, whole
/// numbers with separators above.
pub(crate) fn figure(value: f64) -> String {
    if value >= 1000.0 {
        thousands(value.round() as u64)
    } else {
        significant(value)
    }
}

/// What one node is, for every solver of the records and then of the
/// instructions record.
pub(crate) fn nodes(overlay: &Overlay, instructions: Option<&InstructionsSource>) -> Table {
    let mut table = Table::new(vec![Column::text("solver"), Column::text("one node is")]);
    let mut seen = BTreeSet::new();
    let others = instructions.iter().flat_map(|i| &i.record.solvers);
    let all = overlay
        .facts
        .iter()
        .map(|s| (&s.id, Cell::named(s), &s.node));
    for (id, title, node) in all.chain(others.map(|s| (&s.id, Cell::solver(&s.id), &s.node))) {
        if seen.insert(id) {
            table.push(vec![title, Cell::Text(node.clone())]);
        }
    }
    table
}

/// A table by n of one figure of each counted entry (`cell`), the status
/// of the others, and the largest n of a solver that stops below.
fn by_n_table(source: &InstructionsSource, cell: &dyn Fn(&InstructionsEntry) -> String) -> String {
    let record = &source.record;
    let ids: Vec<(&str, String)> = (record.solvers.iter())
        .map(|s| (s.id.as_str(), s.id.clone()))
        .collect();
    let max_n = |id: &str| record.solvers.iter().find(|s| s.id == id).map(|s| s.max_n);
    let ns: BTreeSet<usize> = record.entries.iter().map(|e| e.n).collect();
    let ns: Vec<usize> = ns.into_iter().collect();
    by_n(
        &ns,
        &ids,
        |n| n.to_string(),
        &|id, n| match (record.entry(id, n), max_n(id)) {
            (Some(entry), _) => match Outcome::of_instructions(entry) {
                Outcome::Counted => Cell::Text(cell(entry)),
                outcome => Cell::Status(outcome),
            },
            (None, Some(max_n)) if n > max_n => Cell::Text(format!("(n ≤ {max_n})")),
            (None, _) => Cell::Empty,
        },
    )
}

/// Instructions per solution at every n of the instructions record.
pub(crate) fn per_solution(source: &InstructionsSource) -> String {
    by_n_table(source, &|entry| {
        entry.per_solution().map(figure).unwrap_or_default()
    })
}

/// Instructions per node beside the bench record's time per node.
pub(crate) fn per_node(overlay: &Overlay, source: &InstructionsSource) -> String {
    by_n_table(source, &|entry| {
        let per_node = entry.per_node().map(figure).unwrap_or_default();
        let ns = overlay
            .entry(&entry.solver, entry.n)
            .and_then(ranked_per_node)
            .map_or("—".to_string(), |ns| format!("{} ns", significant(ns)));
        format!("{per_node} · {ns}")
    })
}

/// Why some cells have no count: one line per solver and reason, not one
/// per n ("" when every entry was counted).
pub(crate) fn notes(source: &InstructionsSource) -> String {
    let notes = crate::format::distinct(source.record.entries.iter().filter_map(|entry| {
        let outcome = Outcome::of_instructions(entry);
        let reason = markdown_text(outcome.detail()?);
        Some(format!("- {}: {reason}\n", entry.solver))
    }));
    notes.concat()
}

/// Every (solver, n) of the instructions record, for the page, with the
/// bench record's time per node beside the instructions per node.
pub(crate) fn table(overlay: &Overlay, source: &InstructionsSource) -> Table {
    let mut table = Table::new(vec![
        Column::text("solver"),
        Column::numbers("n"),
        Column::text("status"),
        Column::numbers("instructions per solution"),
        Column::numbers("instructions per node"),
        Column::numbers("ns/node (bench record)"),
        Column::numbers("nodes"),
        Column::numbers("instructions"),
    ]);
    for entry in &source.record.entries {
        let outcome = Outcome::of_instructions(entry);
        let ns_per_node = overlay
            .entry(&entry.solver, entry.n)
            .and_then(ranked_per_node)
            .filter(|_| outcome.measured());
        table.push(vec![
            Cell::solver(&entry.solver),
            Cell::Text(entry.n.to_string()),
            Cell::Status(outcome),
            Cell::figure(entry.per_solution(), figure),
            Cell::figure(entry.per_node(), figure),
            Cell::figure(ns_per_node, significant),
            Cell::count(entry.nodes(), thousands),
            Cell::count(entry.instructions(), thousands),
        ]);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::Source;
    use queens_record::fixtures::{sample_instructions, sample_record};

    fn fixture() -> (Overlay, InstructionsSource) {
        let overlay = Overlay::from_sources(&[Source {
            newer_code: Default::default(),
            label: "b.json".into(),
            record: sample_record(),
        }]);
        let source = InstructionsSource {
            label: "bench-results/i-instructions.json".into(),
            record: sample_instructions(),
        };
        (overlay, source)
    }

    #[test]
    fn the_tables_come_from_the_record() {
        let (overlay, source) = fixture();
        let out = format!(
            "### Instructions per solution\n{}### Instructions per node\n{}{}",
            per_solution(&source),
            per_node(&overlay, &source),
            notes(&source)
        );
        let entry = source.record.entry("three-mask", 8).unwrap();
        let bench = overlay.entry("three-mask", 8).unwrap();
        // Per solution at n = 8, and per node beside the bench's ns per node.
        let per_solution = figure(entry.per_solution().unwrap());
        let per_node = format!(
            "{} · {} ns",
            figure(entry.per_node().unwrap()),
            significant(ranked_per_node(bench).unwrap())
        );
        let row = |title: &str| {
            let table = out.split(&format!("### {title}")).nth(1).unwrap();
            table
                .lines()
                .find(|line| line.starts_with("| 8 |"))
                .unwrap()
                .to_string()
        };
        assert_eq!(
            row("Instructions per solution"),
            format!("| 8 | {per_solution} | skipped |")
        );
        assert_eq!(
            row("Instructions per node"),
            format!("| 8 | {per_node} | skipped |")
        );
        // n = 9 has no bench entry: a dash, not a made-up time.
        assert!(out.contains(&format!(
            "| 9 | {} · — |",
            figure(source.record.entry("three-mask", 9).unwrap().per_node().unwrap())
        )));
        // The skipped solver's reason once, and the caveat about the build.
        assert_eq!(
            out.matches("- gpu-constellations: counts on a device")
                .count(),
            1
        );
        let caveat = caveat(&source);
        assert!(caveat.contains(&source.record.build) && caveat.contains("AVX-512"));
    }

    #[test]
    fn every_solver_has_one_node_row() {
        let (overlay, source) = fixture();
        let out = nodes(&overlay, Some(&source)).markdown();
        for solver in &source.record.solvers {
            assert_eq!(
                out.matches(&format!("| {} |", solver.id)).count(),
                1,
                "{out}"
            );
        }
    }

    #[test]
    fn figures_are_short_and_exact_enough() {
        assert_eq!(figure(32.032), "32.0");
        assert_eq!(figure(716.19), "716");
        assert_eq!(figure(1_234_567.4), "1,234,567");
    }
}
