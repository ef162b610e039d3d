//! The memory budget, as a user meets it: a search the budget cannot hold
//! is refused in one line before it starts, a trace of the largest board
//! prints at once in flat memory, and every solver's declared peak
//! (`Solver::peak_bytes`) is at least the peak heap it is measured to hold,
//! and not far above it where it grows with n.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use queens_core::memory::{Question, SMALL_PEAK_BYTES};
use queens_harness::registry::{FINDERS, SOLVERS};

use crate::common::{queens, refused, stdout};

#[test]
fn row_fold_at_16_is_refused_under_2g_in_one_line() {
    let output = queens(&["count", "16", "--solver", "row-fold", "--max-memory", "2G"]);
    refused(&output, "row-fold would need up to");
    let err = crate::common::stderr(&output);
    assert!(err.contains("2.00 GiB --max-memory"), "{err}");
}

#[test]
fn a_json_trace_that_would_not_fit_is_refused() {
    let output = queens(&[
        "trace",
        "16",
        "--solver",
        "row-fold",
        "--format",
        "json",
        "--max-memory",
        "64M",
    ]);
    refused(&output, "to trace n = 16");
}

/// `queens ARGS` under an address-space limit of `ulimit -v 300000` (300,000
/// KiB), as a scheduler's `h_vmem` sets it.
fn under_ulimit_v(args: &[&str]) -> std::process::Output {
    Command::new("prlimit")
        .arg(format!("--as={}", 300_000 << 10))
        .arg(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .output()
        .expect("prlimit runs")
}

#[test]
fn under_an_address_space_limit_what_it_cannot_map_is_refused_in_one_line() {
    // The machine has the memory, the limit does not: the check counts the
    // limit (and each thread's stack and allocator arena against it).
    for args in [
        &["find", "100000000"][..],
        &["count", "15", "--solver", "row-fold"],
        &["count", "18", "--threads", "8"],
    ] {
        refused(
            &under_ulimit_v(args),
            "address space this process may still map",
        );
    }
    // What the limit leaves still counts a board that fits it.
    let output = under_ulimit_v(&["count", "12", "--threads", "2"]);
    assert!(
        output.status.success(),
        "{}",
        crate::common::stderr(&output)
    );
}

#[test]
fn a_worker_thread_the_system_cannot_start_is_one_line_not_a_panic() {
    // Every thread asks for a 4 GiB stack (RUST_MIN_STACK), which a 1 GiB
    // address space cannot map: the count's threads cannot start.
    let output = Command::new("prlimit")
        .arg(format!("--as={}", 1u64 << 30))
        .arg(env!("CARGO_BIN_EXE_queens"))
        .args(["count", "12", "--threads", "2"])
        .env("RUST_MIN_STACK", (4u64 << 30).to_string())
        .output()
        .expect("prlimit runs");
    refused(&output, "cannot start worker threads");
}

#[test]
fn an_allocation_denied_past_the_check_is_one_line_not_an_abort() {
    // `--max-memory` overrides the check, so the board of n = 10^8 is
    // allocated under a limit it does not fit.
    let output = under_ulimit_v(&["find", "100000000", "--max-memory", "1T"]);
    refused(&output, "queens: out of memory: an allocation of");
}

#[test]
fn one_thread_of_a_frontier_count_is_declared_what_a_machine_with_8_gib_holds() {
    // The last of 2^20 shards of n = 26 holds a part or two; one thread
    // counting them must not be refused on a machine with 8 GiB free, nor
    // a second thread ask for more than a thread's share. The declared
    // need is read from the refusal under a budget nothing fits.
    let need = |threads: &str| {
        let output = queens(&[
            "count",
            "26",
            "--shard",
            "1048576/1048576",
            "--threads",
            threads,
            "--max-memory",
            "1K",
        ]);
        refused(&output, "half-join would need up to ");
        let err = crate::common::stderr(&output);
        let size = err
            .split("need up to ")
            .nth(1)
            .unwrap()
            .split(" to ")
            .next();
        queens_harness::memory::parse_size(size.unwrap()).unwrap()
    };
    let (one, two) = (need("1"), need("2"));
    assert!(one < 8 << 30, "{one} bytes on one thread");
    assert!(two - one < 8 << 30, "{} bytes a thread", two - one);
}

#[test]
fn a_size_that_is_not_one_is_refused() {
    let output = queens(&["count", "8", "--max-memory", "lots"]);
    refused(&output, "--max-memory must be a size");
}

#[test]
fn a_trace_of_n_28_prints_at_once_in_bounded_memory_and_ends_when_its_reader_does() {
    // Under a 1 GiB address space: the whole count of a unit at n = 28
    // would need far more, and the trace must never start one.
    let started = Instant::now();
    let mut child = Command::new("prlimit")
        .arg(format!("--as={}", 1u64 << 30))
        .arg(env!("CARGO_BIN_EXE_queens"))
        .args(["trace", "28", "--steps", "500"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit runs");
    let mut head = vec![0u8; 100_000];
    let mut read = 0;
    let mut pipe = child.stdout.take().unwrap();
    while read < head.len() {
        match pipe.read(&mut head[read..]) {
            Ok(0) | Err(_) => break,
            Ok(more) => read += more,
        }
    }
    // `head -c 100000` closes its end here.
    drop(pipe);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("trace 28 still running after 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let text = String::from_utf8_lossy(&head[..read]);
    assert!(
        text.starts_with("half-join on the 28x28 board"),
        "{status}: {err}\n{text}"
    );
    assert!(text.contains(" place "), "no half was shown: {text}");
    assert!(!err.contains("memory allocation"), "{err}");
    // Exit 0 (the whole trace was read) or the end of a closed pipe.
    assert!(
        status.success() || status.code().is_none(),
        "{status}: {err}"
    );
}

/// One `queens search N --solver ID --heap Q`: (measured, declared).
fn measured(id: &str, n: usize, question: &str) -> (u64, u64) {
    let output = queens(&["search", &n.to_string(), "--solver", id, "--heap", question]);
    assert!(
        output.status.success(),
        "{id} n = {n} {question}: {}",
        crate::common::stderr(&output)
    );
    let line: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    let field = |name: &str| line[name].as_u64().unwrap();
    (field("peak_heap_bytes"), field("declared_bytes"))
}

#[test]
fn every_solver_declares_at_least_the_heap_it_holds_and_not_far_above_where_it_grows() {
    // Where a solver declares its own peak and holds at least FEASIBLE
    // bytes: declared / measured <= RATIO. (perm-filter-itertools, whose
    // iterator holds a few vectors of n entries, a few hundred bytes at
    // its largest n, keeps the small default; the loop measures it too.)
    const RATIO: u64 = 4;
    const FEASIBLE: u64 = 64 << 10;
    // A solver that declares its own peak climbs on while its count's
    // declaration stays under this and n up to the tier's largest: every n of
    // half-join's searched-halves path (n < 14), and its quarters path as
    // far as a test's time allows: two boards of it in the fast tier,
    // four in the full one.
    const GROWING_BYTES: u64 = 256 << 20;
    let growing_max_n = queens_conformance::tier::pick(15, 17);
    let mut problems = Vec::new();
    let mut growing = 0;
    for solver in SOLVERS.iter().filter(|s| s.accelerator().is_ok()) {
        let info = solver.info();
        let mut questions = vec!["count", "trace"];
        if info.enumerates {
            questions.push("enumerate");
        }
        let declares = |n: usize| {
            solver.shared_bytes(n, Question::Count) + solver.peak_bytes(n, Question::Count)
        };
        let ns: Vec<usize> = if declares(10) != SMALL_PEAK_BYTES {
            (1..=growing_max_n)
                .take_while(|&n| info.supports(n) && declares(n) <= GROWING_BYTES)
                .collect()
        } else {
            vec![6, 8, 10]
        };
        for n in ns.into_iter().filter(|&n| info.supports(n)) {
            for question in &questions {
                let (peak, declared) = measured(info.id, n, question);
                if declared < peak {
                    problems.push(format!(
                        "{} n = {n} {question}: declared {declared} < measured {peak}",
                        info.id
                    ));
                }
                if declared != SMALL_PEAK_BYTES {
                    growing += 1;
                    // Small peaks are the allocator's and the tallies'
                    // granularity, not the search's growth. A solver on a
                    // device declares an allowance for the driver's host
                    // side (allocated once, before any count, so never
                    // measured here) and for task lists that its small
                    // boards' shallow interiors never fill: no ratio holds
                    // for it, only the bound.
                    let on_device = matches!(solver.accelerator(), Ok(Some(_)));
                    if peak >= FEASIBLE && declared > RATIO * peak && !on_device {
                        problems.push(format!(
                            "{} n = {n} {question}: declared {declared} > {RATIO} x measured {peak}",
                            info.id
                        ));
                    }
                }
            }
        }
    }
    assert!(growing > 0, "no solver declared a peak of its own");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// One `queens search N --solver FINDER --heap find`: (measured, declared).
fn measured_find(id: &str, n: usize) -> (u64, u64) {
    let output = queens(&["search", &n.to_string(), "--solver", id, "--heap", "find"]);
    assert!(
        output.status.success(),
        "{id} n = {n}: {}",
        crate::common::stderr(&output)
    );
    let line: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    let field = |name: &str| line[name].as_u64().unwrap();
    (field("peak_heap_bytes"), field("declared_bytes"))
}

#[test]
fn every_finder_declares_at_least_the_heap_it_holds_and_not_far_above() {
    // Finders hold a few words per file: measured where that is well
    // above the allocator's granularity, up to where a debug build still
    // finds a board in a second or so (fail-first and the first-board
    // solvers search, so they stop at their own limits).
    const RATIO: u64 = 4;
    const FEASIBLE: u64 = 64 << 10;
    let mut problems = Vec::new();
    for finder in FINDERS {
        let info = finder.info();
        for n in [8, 32, 1_000, 100_000, 1_000_000] {
            if !info.supports(n) {
                continue;
            }
            let (peak, declared) = measured_find(info.id, n);
            if declared < peak {
                problems.push(format!(
                    "{} n = {n}: declared {declared} < measured {peak}",
                    info.id
                ));
            }
            // min-conflicts declares 36 bytes a file, its worst case: the
            // exact counts of crowded diagonals sit in maps that could hold
            // an entry per pair of queens (n/2 a family; 9 bytes an entry,
            // up to 16/7 buckets an entry once the capacity is rounded to
            // a power of two, half as much again while a rehash holds both
            // tables: 31n), beside the rows (4n) and bit sets (n). A run
            // holds a handful of entries: only the lower bound applies.
            let worst_case_only = info.id == "min-conflicts";
            if peak >= FEASIBLE && !worst_case_only && declared > RATIO * peak {
                problems.push(format!(
                    "{} n = {n}: declared {declared} > {RATIO} x measured {peak}",
                    info.id
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn find_of_the_largest_board_is_refused_under_a_small_budget() {
    for finder in ["construction", "min-conflicts"] {
        let output = queens(&[
            "find",
            "100000000",
            "--solver",
            finder,
            "--max-memory",
            "64M",
        ]);
        refused(&output, &format!("{finder} would need up to"));
        let err = crate::common::stderr(&output);
        assert!(err.contains("to find a board of n = 100000000"), "{err}");
        assert!(err.contains("64.0 MiB --max-memory"), "{err}");
    }
    // The same board fits a budget of its declaration.
    let output = queens(&["find", "1000", "--max-memory", "8M", "--format", "json"]);
    assert!(
        output.status.success(),
        "{}",
        crate::common::stderr(&output)
    );
}

#[test]
fn compare_stops_a_climb_the_budget_cannot_hold_with_a_row_that_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let output = queens(&[
        "compare",
        "--solver",
        "three-mask",
        "--solver",
        "half-join",
        "--max-n",
        "16",
        "--budget",
        "5",
        "--max-memory",
        "2M",
        "--finder",
        "none",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let err = crate::common::stderr(&output);
    assert!(output.status.success(), "{err}");
    let out = stdout(&output);
    // three-mask holds nothing and climbs on; half-join stops at the first
    // n whose declaration passes 2 MiB, with a row naming need and limit.
    let stopped: Vec<&str> = out
        .lines()
        .filter(|line| line.contains("half-join") && line.contains("not run: "))
        .collect();
    assert_eq!(stopped.len(), 1, "{out}");
    assert!(
        stopped[0].contains("half-join would need up to")
            && stopped[0].contains("more than the 2.00 MiB"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|line| line.contains("three-mask") && line.trim_start().starts_with("12 ")),
        "{out}"
    );
}

/// A shard record of `count N --shard 1/2 --json`, written into `dir`.
fn shard(dir: &std::path::Path, n: usize) -> std::path::PathBuf {
    let output = queens(&[
        "count",
        &n.to_string(),
        "--solver",
        "half-join",
        "--shard",
        "1/2",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        crate::common::stderr(&output)
    );
    let path = dir.join(format!("shard-{n}.json"));
    std::fs::write(&path, &output.stdout).unwrap();
    path
}

#[test]
fn merge_and_recheck_check_the_budget_before_they_plan() {
    let dir = tempfile::tempdir().unwrap();
    let path = shard(dir.path(), 16);
    let file = path.to_str().unwrap();
    for args in [
        vec!["merge", file, "--max-memory", "1M"],
        vec!["recheck", file, "--max-memory", "1M"],
    ] {
        let output = queens(&args);
        refused(&output, "half-join would need up to");
        assert!(
            crate::common::stderr(&output).contains("to count n = 16"),
            "{args:?}"
        );
    }
    // Within the budget both go ahead as before.
    let output = queens(&["recheck", file, "--sample", "1", "--max-memory", "1G"]);
    assert!(
        output.status.success(),
        "{}",
        crate::common::stderr(&output)
    );
}
