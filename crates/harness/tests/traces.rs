//! Traces, checked for every registered solver: the n = 4 trace equals the
//! committed file `tests/traces/<id>-n4.txt` (exactly what
//! `queens trace 4 --solver <id> --steps 100` prints), a traced search counts
//! what an untraced one counts, and a search stops when the sink says so.
//!
//! A new solver has no expected file yet; create (or, after a deliberate
//! change, rewrite) the files with [`BLESS`], then read the new file: it is
//! the solver's teaching trace and is committed with it.

use std::ops::ControlFlow;
use std::path::PathBuf;

use queens_core::trace::{Detail, StepKind, TraceRecorder, TraceSink};
use queens_core::{CountOptions, check, oeis};
use queens_harness::cmd::trace;
use queens_harness::registry::SOLVERS;

/// The command that writes the expected files from what the solvers print.
const BLESS: &str = "QUEENS_BLESS=1 cargo test -p queens-harness --test integration traces::";

const TRACED_N: usize = 4;
const TRACED_STEPS: usize = 100;

fn expected_file(id: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/traces")
        .join(format!("{id}-n{TRACED_N}.txt"))
}

fn blessing() -> bool {
    std::env::var_os("QUEENS_BLESS").is_some_and(|value| value == "1")
}

/// Writes through a temporary file and a rename, so an interrupted bless
/// never leaves half a file.
fn write_expected(path: &PathBuf, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let temporary = path.with_extension("txt.tmp");
    std::fs::write(&temporary, text).unwrap();
    std::fs::rename(&temporary, path).unwrap();
}

/// The first line where two texts differ, for a readable failure.
fn first_difference(expected: &str, actual: &str) -> String {
    let mut expected_lines = expected.lines();
    let mut actual_lines = actual.lines();
    for line in 1.. {
        match (expected_lines.next(), actual_lines.next()) {
            (Some(e), Some(a)) if e == a => continue,
            (e, a) => {
                return format!(
                    "line {line}:\n  expected: {}\n  actual:   {}",
                    e.unwrap_or("<end of file>"),
                    a.unwrap_or("<end of output>")
                );
            }
        }
    }
    unreachable!()
}

#[test]
fn every_solver_traces_n4_as_its_committed_file() {
    let mut problems = Vec::new();
    for solver in SOLVERS {
        let id = solver.info().id;
        if !solver.info().supports(TRACED_N) {
            continue;
        }
        let actual = trace::render(*solver, TRACED_N, Some(TRACED_STEPS))
            .unwrap_or_else(|e| panic!("{id}: trace failed: {e}"));
        let path = expected_file(id);
        if blessing() {
            write_expected(&path, &actual);
            continue;
        }
        match std::fs::read_to_string(&path) {
            Err(_) => problems.push(format!(
                "{id}: no expected trace {}; create it with \
                 `{BLESS}`, read it, commit it",
                path.display()
            )),
            Ok(expected) if expected != actual => problems.push(format!(
                "{id}: trace differs from {} at {}\n  (if the change is meant, rewrite it with \
                 `{BLESS}` and commit it)",
                path.display(),
                first_difference(&expected, &actual)
            )),
            Ok(_) => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_expected_trace_file_belongs_to_a_registered_solver() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/traces");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let id = name.strip_suffix(&format!("-n{TRACED_N}.txt"));
        assert!(
            id.is_some_and(|id| SOLVERS.iter().any(|s| s.info().id == id)),
            "{name}: not the expected trace of a registered solver (stale file?)"
        );
    }
}

/// Keeps every step, counts solutions reported, never stops the search;
/// checks the board each step carries as data.
#[derive(Default)]
struct WholeSearch {
    n: usize,
    steps: usize,
    solutions: usize,
    /// Where the recorder's counters stand (what the JSON trace carries).
    recorder: Option<TraceRecorder>,
}

impl TraceSink for WholeSearch {
    fn step(&mut self, kind: StepKind, detail: Detail) -> ControlFlow<()> {
        let n = self.n;
        assert!(!detail.text.is_empty(), "a step says what happened");
        let on_board = |&(file, rank): &(u8, u8)| (file as usize) < n && (rank as usize) < n;
        assert!(detail.queens.iter().all(on_board), "{detail:?}");
        assert!(detail.attacked.iter().flatten().all(on_board), "{detail:?}");
        // A step that shows a whole board shows a solution: the same
        // independent checker as everywhere else says so.
        if kind == StepKind::Solution && detail.queens.len() == n {
            let mut rows = vec![u8::MAX; n];
            for &(file, rank) in &detail.queens {
                rows[file as usize] = rank;
            }
            assert!(check::is_valid(&rows), "not a solution: {detail:?}");
        }
        self.steps += 1;
        if kind == StepKind::Solution {
            self.solutions += 1;
        }
        if let Some(recorder) = &mut self.recorder {
            let _ = recorder.step(kind, detail);
        }
        ControlFlow::Continue(())
    }
}

#[test]
fn a_traced_search_counts_what_an_untraced_one_counts() {
    // A GPU engine without its device traces (on the host) but cannot
    // count to compare: skipped, with a note.
    let here = SOLVERS
        .iter()
        .filter(|s| !queens_conformance::without_its_device(**s));
    for solver in here {
        let id = solver.info().id;
        for n in (1..=6).filter(|&n| solver.info().supports(n)) {
            let mut sink = WholeSearch {
                n,
                recorder: Some(TraceRecorder::new(usize::MAX)),
                ..WholeSearch::default()
            };
            let traced = solver.trace(n, &mut sink).unwrap();
            let last = sink.recorder.as_ref().unwrap().steps().last().unwrap();
            assert_eq!(
                last.solutions, traced.solutions,
                "{id} n = {n}: the counters a trace carries end at the count"
            );
            let counted = solver.count(n, &CountOptions::default()).unwrap();
            assert_eq!(traced.solutions, oeis::total(n).unwrap(), "{id} n = {n}");
            assert_eq!(traced.solutions, counted.solutions, "{id} n = {n}");
            assert_eq!(
                traced.nodes, counted.nodes,
                "{id} n = {n}: same search, same work"
            );
            assert!(sink.steps > 0, "{id} n = {n}: a trace shows something");
            // Solvers may report solutions one by one, per level or per
            // symmetry class, but a board that has some shows one.
            assert!(
                traced.solutions == 0 || sink.solutions > 0,
                "{id} n = {n}: solutions found but no SOLUTION step"
            );
        }
    }
}

/// Says stop after `limit` steps and counts the steps it is sent afterwards.
struct StopAfter {
    limit: usize,
    seen: usize,
    after_stop: usize,
}

impl TraceSink for StopAfter {
    fn step(&mut self, _: StepKind, _: Detail) -> ControlFlow<()> {
        if self.seen >= self.limit {
            self.after_stop += 1;
            return ControlFlow::Break(());
        }
        self.seen += 1;
        ControlFlow::Continue(())
    }
}

#[test]
fn every_solver_stops_when_the_sink_says_so() {
    for solver in SOLVERS {
        let id = solver.info().id;
        // The largest board each solver takes, up to 12: ignoring the stop
        // would mean a whole search (or n! permutations) after it.
        let n = solver.info().max_n.min(12);
        let mut sink = StopAfter {
            limit: 5,
            seen: 0,
            after_stop: 0,
        };
        solver.trace(n, &mut sink).unwrap();
        assert_eq!(sink.seen, 5, "{id} n = {n}");
        assert_eq!(
            sink.after_stop, 1,
            "{id} n = {n}: steps kept coming after the sink said stop"
        );
    }
}
