//! min-conflicts' repair as `queens trace 8 --solver min-conflicts` prints
//! it: every step replayed on a board of our own, its stated conflicts
//! recounted independently (pairs of queens on one diagonal, grouped per
//! diagonal), every swap checked against the board before it, and the last
//! board put through the core's checker.

use queens_core::check;
use queens_report::Trace;

use crate::common::{assert_bad_input, queens, stdout};

/// The conflicts as the trace defines them (queens beyond the first on
/// each diagonal), recounted from the squares alone, pairwise: a queen
/// counts once for each diagonal on which a queen of a lower file stands.
fn recount(queens: &[[usize; 2]]) -> u64 {
    let mut conflicts = 0;
    for (index, &[file, rank]) in queens.iter().enumerate() {
        let earlier = &queens[..index];
        let on = |same: &dyn Fn(usize, usize) -> bool| {
            earlier.iter().any(|&[f, r]| f < file && same(f, r))
        };
        conflicts += u64::from(on(&|f, r| f + r == file + rank));
        conflicts += u64::from(on(&|f, r| r + file == rank + f));
    }
    conflicts
}

fn rows(queens: &[[usize; 2]]) -> Vec<u32> {
    let mut rows = vec![0; queens.len()];
    for &[file, rank] in queens {
        rows[file] = rank as u32;
    }
    rows
}

fn replay(n: usize, seed: &str) -> Trace {
    let output = queens(&[
        "trace",
        &n.to_string(),
        "--solver",
        "min-conflicts",
        "--seed",
        seed,
        "--format",
        "json",
    ]);
    assert!(output.status.success(), "{output:?}");
    let trace = Trace::from_json(&stdout(&output)).unwrap();
    assert!(!trace.cut && trace.n == n);
    assert_eq!(trace.steps[0].event, "start");
    let mut board: Option<Vec<u32>> = None;
    for (index, step) in trace.steps.iter().enumerate() {
        let at = format!("n = {n} seed {seed} step {}", index + 1);
        // One queen per file and per rank: a permutation throughout.
        let shown = rows(&step.queens);
        let mut sorted = shown.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>(), "{at}");
        let conflicts = recount(&step.queens);
        assert_eq!(step.conflicts, Some(conflicts), "{at}");
        // The highlighted queens are exactly those the checker would fault.
        let conflicting = step.conflicting.clone().unwrap();
        assert_eq!(conflicting.is_empty(), conflicts == 0, "{at}");
        for &[file, rank] in &conflicting {
            let others = step.queens.iter().filter(|&&[f, _]| f != file);
            assert!(
                others
                    .into_iter()
                    .any(|&[f, r]| f.abs_diff(file) == r.abs_diff(rank)),
                "{at}"
            );
        }
        match step.event.as_str() {
            "start" => {}
            "swap" => {
                let moved = step.moved.unwrap();
                let before = board.clone().unwrap();
                assert_eq!(before[moved.file] as usize, moved.from, "{at}");
                assert_eq!(before[moved.partner] as usize, moved.to, "{at}");
                let mut after = before.clone();
                after.swap(moved.file, moved.partner);
                assert_eq!(after, shown, "{at}");
                let pairs: Vec<[usize; 2]> = before
                    .iter()
                    .enumerate()
                    .map(|(f, &r)| [f, r as usize])
                    .collect();
                assert_eq!(moved.before, recount(&pairs), "{at}");
                assert_eq!(moved.after, conflicts, "{at}");
                assert!(moved.after < moved.before, "{at}");
                // The words name the queen moved and the conflicts.
                let file = char::from(b'a' + moved.file as u8);
                assert!(
                    step.text.starts_with(&format!(
                        "queen {file} from rank {} to {}",
                        moved.from + 1,
                        moved.to + 1
                    )),
                    "{at}: {}",
                    step.text
                );
                assert!(
                    step.text
                        .contains(&format!("conflicts {} -> {}", moved.before, moved.after)),
                    "{at}"
                );
            }
            "solution" => assert_eq!(index, trace.steps.len() - 1, "{at}"),
            other => panic!("{at}: event {other}"),
        }
        board = Some(shown);
    }
    let last = board.unwrap();
    assert_eq!(check::check_linear(&last), Ok(()));
    // The trace's board is the one `find` prints for the same seed.
    let found = queens(&[
        "find",
        &n.to_string(),
        "--solver",
        "min-conflicts",
        "--seed",
        seed,
    ]);
    let ranks: Vec<String> = last.iter().map(|r| (r + 1).to_string()).collect();
    assert!(
        stdout(&found).contains(&ranks.join(" ")),
        "{}",
        stdout(&found)
    );
    trace
}

#[test]
fn every_step_of_the_repair_states_the_conflicts_of_the_board_it_shows() {
    let mut swaps = 0;
    for seed in ["0", "1", "7", "42"] {
        let trace = replay(8, seed);
        swaps += trace.steps.iter().filter(|s| s.event == "swap").count();
    }
    // Something was repaired in at least one of them.
    assert!(swaps > 0);
    replay(20, "3");
}

#[test]
fn the_text_trace_names_each_moved_queen_and_ends_solved() {
    let output = queens(&["trace", "8", "--solver", "min-conflicts", "--seed", "1"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("conflicts: over every diagonal"), "{text}");
    assert!(text.lines().any(|l| l.contains(" start ")), "{text}");
    assert!(text.lines().any(|l| l.contains("SOLUTION")), "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("-- solved:"),
        "{text}"
    );
}

#[test]
fn a_seed_without_min_conflicts_and_boards_it_cannot_trace_are_refused() {
    assert_bad_input(
        &["trace", "5", "--solver", "three-mask", "--seed", "1"],
        "--seed",
    );
    assert_bad_input(&["trace", "3", "--solver", "min-conflicts"], "no board");
    assert_bad_input(&["trace", "27", "--solver", "min-conflicts"], "1 to 26");
}
