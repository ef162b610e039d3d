//! `cargo xtask instructions`: the instructions each solver's search
//! retires at n = 8..12, counted by valgrind's callgrind, written as a new
//! `bench-results/<UTC time>-instructions.json` (format: FORMAT.md).
//!
//! How, and why so:
//!
//! 1. A `queens` built for callgrind: valgrind 3.19 decodes no AVX-512 and
//!    no GFNI, so the binary is built for `x86-64-v3` (AVX2, BMI1/2,
//!    POPCNT, LZCNT: the bit tricks the searches use, which the portable
//!    timed build leaves to half-join's run-time dispatch) in a target
//!    directory of its own (`<target>/callgrind`), leaving the timed build
//!    alone.
//!    Solvers that choose a SIMD kernel at run time (half-join) see no
//!    AVX-512 under valgrind and run their other kernel.
//! 2. `queens search N --solver ID` (hidden) runs the plain count that
//!    `cargo bench` times, in `queens_harness::cmd::search::searched`, a
//!    function kept out of line; callgrind collects only inside it
//!    (`--toggle-collect`), so start-up, argument parsing and printing are
//!    not counted. The module's tests check that on a real run.
//! 3. Each solver climbs n = 8..12 (`--max-n` climbs further: half-join's
//!    instructions per solution at n = 12..16 are how its join is tuned)
//!    within its own largest n; a run that
//!    takes longer than the budget is stopped and the solver climbs no
//!    further (its entries say why). Solvers run on `--jobs` workers at
//!    once: the counts are deterministic, so running side by side changes
//!    none of them, only the wall time.
//! 4. A solver that counts on a device (the GPU engine) is skipped with the
//!    reason in its entries: the instructions it retires are the device's.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use queens_record::instructions::{
    Counting, InstructionsEntry, InstructionsRecord, InstructionsSolver, write_new_instructions,
};
use queens_record::{Provenance, RECORDS_DIR};
use serde::Deserialize;
use wait_timeout::ChildExt;

use crate::{Error, process, workspace};

/// The function callgrind collects in, as valgrind 3.19 names it.
pub const COUNTED_FUNCTION: &str = "queens_harness::cmd::search::searched";
/// The instruction set of the counted build: everything valgrind decodes.
pub const TARGET_CPU: &str = "x86-64-v3";
/// The smallest board counted.
pub const MIN_N: usize = 8;
/// The largest board counted unless `--max-n` says otherwise.
pub const MAX_N: usize = 12;

/// How to run it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only these solvers (repeatable); default: every registered one.
    #[arg(long)]
    pub solver: Vec<String>,
    /// Seconds one callgrind run may take before its solver climbs no
    /// higher.
    #[arg(long, default_value_t = 1800.0)]
    pub budget: f64,
    /// Callgrind runs at once (the machine's cores by default).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The largest board counted (each solver within its own largest).
    #[arg(long, default_value_t = MAX_N as u32, value_parser = clap::value_parser!(u32).range(MIN_N as i64..=28))]
    pub max_n: u32,
    /// Directory of the new record.
    #[arg(long, default_value = RECORDS_DIR)]
    pub out: PathBuf,
}

/// A solver as `queens search --facts` describes it.
#[derive(Debug, Clone, Deserialize)]
pub struct Facts {
    /// Its id.
    pub id: String,
    /// What one node is.
    pub node: String,
    /// Its largest n.
    pub max_n: usize,
    /// The device it counts on, or why it has none; null for the CPU.
    pub device: Option<String>,
}

/// One callgrind run's result: what `queens search` printed, and the
/// instructions callgrind counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Counted {
    /// Solutions found.
    pub solutions: u64,
    /// Nodes visited.
    pub nodes: u64,
    /// Instructions retired inside [`COUNTED_FUNCTION`] (all of them
    /// when collecting everywhere).
    #[serde(skip)]
    pub instructions: u64,
}

/// Builds the counted binary, counts, writes the record.
pub fn run(args: &Args) -> Result<(), Error> {
    let valgrind = valgrind_version()?;
    if !(args.budget.is_finite() && args.budget > 0.0) {
        return Err(Error::Usage(format!(
            "instructions: --budget must be a positive number of seconds, not {}",
            args.budget
        )));
    }
    queens_record::prepare_dir(&args.out).map_err(|e| Error::Usage(e.to_string()))?;
    let queens = build()?;
    let facts = facts(&queens)?;
    let known: Vec<&str> = facts.iter().map(|f| f.id.as_str()).collect();
    if let Some(id) = args.solver.iter().find(|id| !known.contains(&id.as_str())) {
        return Err(Error::Usage(format!(
            "instructions: unknown solver '{id}'; known: {}",
            known.join(", ")
        )));
    }
    let chosen: Vec<&Facts> = facts
        .iter()
        .filter(|f| args.solver.is_empty() || args.solver.contains(&f.id))
        .collect();
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let provenance = Provenance::collect(command_line());
    let entries = count_all(&queens, &chosen, args.budget, jobs, args.max_n as usize);
    let record = InstructionsRecord::new(
        provenance,
        valgrind,
        format!(
            "RUSTFLAGS='-C target-cpu={TARGET_CPU}' cargo build --release -p queens-harness --target-dir <target>/callgrind"
        ),
        format!(
            "instructions retired inside `{COUNTED_FUNCTION}` (callgrind --toggle-collect): \
             one `Solver::count` of all solutions, one thread, no classes, as `cargo bench` times it"
        ),
        args.budget,
        chosen
            .iter()
            .map(|f| InstructionsSolver {
                id: f.id.clone(),
                node: f.node.clone(),
                max_n: f.max_n,
            })
            .collect(),
        entries,
    );
    queens_record::instructions::check(&record).map_err(|(field, problem)| {
        Error::Failed(format!("the new record's {field}: {problem}"))
    })?;
    println!(
        "wrote {}",
        write_new_instructions(&args.out, &record)?.display()
    );
    Ok(())
}

fn command_line() -> String {
    let mut words = vec!["cargo xtask instructions".to_string()];
    words.extend(std::env::args().skip(2));
    words.join(" ")
}

/// `valgrind --version`, or a usage error saying how to get it.
pub fn valgrind_version() -> Result<String, Error> {
    if !process::on_path("valgrind") {
        return Err(Error::Usage(
            "instructions: valgrind is not installed (Debian: apt-get install --no-install-recommends valgrind; `cargo xtask ci setup` does it)".to_string(),
        ));
    }
    Ok(process::stdout(Command::new("valgrind").arg("--version"))?
        .trim()
        .to_string())
}

/// Builds the counted `queens` (see the module's point 1) and returns it.
pub fn build() -> Result<PathBuf, Error> {
    let target = workspace::target_dir().join("callgrind");
    process::run(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .current_dir(workspace::root())
            .args(["build", "--quiet", "--release", "-p", "queens-harness"])
            .arg("--target-dir")
            .arg(&target)
            .env("RUSTFLAGS", format!("-C target-cpu={TARGET_CPU}"))
            .env_remove("CARGO_ENCODED_RUSTFLAGS"),
    )?;
    workspace::check_binary("instructions", target.join("release/queens"))
}

/// Every solver's facts, from the counted binary.
pub fn facts(queens: &Path) -> Result<Vec<Facts>, Error> {
    let text = process::stdout(Command::new(queens).args(["search", "--facts"]))?;
    serde_json::from_str(&text)
        .map_err(|e| Error::Failed(format!("`queens search --facts` printed no facts: {e}")))
}

/// Every chosen solver's entries, solvers on `jobs` workers, each solver's
/// n in order; entries sorted by solver (in the given order), then n.
fn count_all(
    queens: &Path,
    solvers: &[&Facts],
    budget: f64,
    jobs: usize,
    max_n: usize,
) -> Vec<InstructionsEntry> {
    // The slowest climbs first, so that the longest chain does not start
    // last: permutation filters retire the most per solution.
    let mut order: Vec<usize> = (0..solvers.len()).collect();
    order.sort_by_key(|&i| !solvers[i].id.starts_with("perm-filter"));
    let queue = Mutex::new(order.into_iter());
    let climbed = Mutex::new(vec![Vec::new(); solvers.len()]);
    let next = || queue.lock().expect("no panics while held").next();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(solvers.len()).max(1) {
            scope.spawn(|| {
                while let Some(i) = next() {
                    let entries = climb(queens, solvers[i], budget, max_n);
                    climbed.lock().expect("no panics while held")[i] = entries;
                }
            });
        }
    });
    climbed.into_inner().expect("no panics while held").concat()
}

/// One solver's entries at n = 8..=`max_n` within its largest n.
fn climb(queens: &Path, solver: &Facts, budget: f64, max_n: usize) -> Vec<InstructionsEntry> {
    // Once set, the outcome of every larger n.
    let mut stopped = solver.device.as_ref().map(|device| Counting::Skipped {
        why: format!("not counted: its search runs on a device, not in this process ({device})"),
    });
    let mut entries = Vec::new();
    for n in MIN_N..=max_n.min(solver.max_n) {
        if let Some(outcome) = &stopped {
            entries.push(InstructionsEntry::new(&solver.id, n, outcome.clone()));
            continue;
        }
        let started = Instant::now();
        let outcome = callgrind(queens, &solver.id, n, 1, true, Some(budget));
        let seconds = started.elapsed().as_secs_f64();
        eprintln!("{} n = {n}: {:.1} s of callgrind", solver.id, seconds);
        let outcome = match outcome {
            Ok(Some(counted)) if Some(counted.solutions) == queens_core::oeis::total(n) => {
                Counting::Counted {
                    solutions: counted.solutions,
                    nodes: counted.nodes,
                    instructions: counted.instructions,
                    callgrind_seconds: (seconds * 10.0).round() / 10.0,
                }
            }
            Ok(Some(counted)) => Counting::Error {
                why: format!(
                    "wrong count: {}, OEIS A000170 says {:?}",
                    queens_core::counted(counted.solutions, "solution", "solutions"),
                    queens_core::oeis::total(n)
                ),
            },
            Ok(None) => {
                let why = format!(
                    "callgrind at n = {n} was stopped after the budget of {budget} s; the solver climbs no higher"
                );
                stopped = Some(Counting::OverBudget { why: why.clone() });
                Counting::OverBudget { why }
            }
            Err(error) => Counting::Error {
                why: error.to_string(),
            },
        };
        entries.push(InstructionsEntry::new(&solver.id, n, outcome));
    }
    entries
}

/// Runs `queens search n --solver id --times times` under callgrind,
/// collecting only inside [`COUNTED_FUNCTION`] when `isolated` (else
/// everything the process runs). `Ok(None)`: stopped after `budget`
/// seconds.
pub fn callgrind(
    queens: &Path,
    id: &str,
    n: usize,
    times: usize,
    isolated: bool,
    budget: Option<f64>,
) -> Result<Option<Counted>, Error> {
    let scratch = process::scratch("instructions")?;
    let out = scratch.path().join("callgrind.out");
    let mut command = Command::new("valgrind");
    command
        .args(["--tool=callgrind", "--quiet"])
        .arg(format!("--callgrind-out-file={}", out.display()));
    if isolated {
        command.arg(format!("--toggle-collect={COUNTED_FUNCTION}"));
    }
    let search = format!("search {n} --solver {id} --times {times}");
    command
        .arg(queens)
        .args(search.split(' '))
        .stdin(Stdio::null());
    let shown = process::describe(&command);
    let failed = |e: std::io::Error| Error::Failed(format!("`{shown}`: {e}"));
    let mut child = process::spawn(command.stdout(Stdio::piped()).stderr(Stdio::piped()))?;
    // A run over budget is stopped.
    let limit = Duration::from_secs_f64(budget.unwrap_or(f64::INFINITY).min(1e9));
    if child.wait_timeout(limit).map_err(failed)?.is_none() {
        let _ = child.kill();
        let _ = child.wait();
        return Ok(None);
    }
    let output = child.wait_with_output().map_err(failed)?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        return Err(Error::Failed(format!(
            "`{shown}` failed ({}): {}",
            output.status,
            last.unwrap_or("").trim()
        )));
    }
    let mut counted: Counted = serde_json::from_slice(&output.stdout)
        .map_err(|e| Error::Failed(format!("`{shown}` printed no count: {e}")))?;
    let profile = std::fs::read_to_string(&out)
        .map_err(|e| Error::Failed(format!("{}: cannot read: {e}", out.display())))?;
    counted.instructions = totals(&profile).ok_or_else(|| {
        Error::Failed(format!("`{shown}`: callgrind's output has no totals line"))
    })?;
    Ok(Some(counted))
}

/// The instructions of a callgrind profile: its `totals:` line (the events
/// collected, which with `--toggle-collect` are those inside the function).
pub fn totals(profile: &str) -> Option<u64> {
    let line = |key| profile.lines().find_map(|line| line.strip_prefix(key));
    line("totals:")
        .or_else(|| line("summary:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|first| first.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_half_join_counts_before_and_after_are_exact_and_fell() {
        // bench-results/half-join: two records of half-join alone at
        // n = 8..16 (see its README), older first by name.
        let dir = workspace::root()
            .join(queens_record::RECORDS_DIR)
            .join("half-join");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("bench-results/half-join is committed")
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect();
        paths.sort();
        assert_eq!(paths.len(), 2, "a record before and one after: {paths:?}");
        let records: Vec<_> = (paths.iter())
            .map(|path| {
                queens_record::instructions::read_instructions(path).expect("a valid record")
            })
            .collect();
        // Counted the same way: one build, one measure, one valgrind.
        let how = |r: &InstructionsRecord| (r.build.clone(), r.counted.clone(), r.valgrind.clone());
        assert_eq!(how(&records[0]), how(&records[1]));
        let per_solution_at_16: Vec<f64> = (records.iter())
            .map(|record| {
                let mut at_16 = None;
                for entry in &record.entries {
                    assert_eq!(entry.solver, "half-join");
                    let Counting::Counted {
                        solutions,
                        instructions,
                        ..
                    } = entry.outcome
                    else {
                        panic!("n = {} was not counted: {:?}", entry.n, entry.outcome);
                    };
                    assert_eq!(Some(solutions), queens_core::oeis::total(entry.n));
                    if entry.n == 16 {
                        at_16 = Some(instructions as f64 / solutions as f64);
                    }
                }
                at_16.expect("n = 16 counted")
            })
            .collect();
        assert!(
            per_solution_at_16[1] < per_solution_at_16[0],
            "{per_solution_at_16:?}"
        );
    }

    #[test]
    fn totals_are_read_from_a_callgrind_profile() {
        let profile = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nfn=(1) main\n3 5\nsummary: 88\ntotals: 77\n";
        assert_eq!(totals(profile), Some(77));
        assert_eq!(totals("events: Ir\nsummary: 12\n"), Some(12));
        assert_eq!(totals("events: Ir\n"), None);
    }

    /// Whether the isolation can be checked here: valgrind is needed. CI
    /// sets QUEENS_REQUIRE_VALGRIND (its setup installs valgrind), so
    /// there a missing valgrind fails instead of skipping.
    fn valgrind_here() -> bool {
        if process::on_path("valgrind") {
            return true;
        }
        assert!(
            std::env::var_os("QUEENS_REQUIRE_VALGRIND").is_none(),
            "QUEENS_REQUIRE_VALGRIND is set but valgrind is not installed (`cargo xtask ci setup` installs it)"
        );
        eprintln!(
            "skipped: valgrind is not installed, so the isolation of the counted search cannot be checked (`cargo xtask ci setup` installs it)"
        );
        false
    }

    /// The binary whose isolation is checked: the one the workspace's tests
    /// already built (the dev profile is optimized, and the kernels are
    /// chosen at run time, so valgrind runs it as it runs the release
    /// one), rather than a second, release, build only for this test,
    /// which took CI minutes; [`build`]'s when there is none (this crate's
    /// tests run alone).
    fn tested_binary() -> PathBuf {
        let built = workspace::target_dir().join("debug/queens");
        if built.is_file() {
            built
        } else {
            build().unwrap()
        }
    }

    /// The isolation on a real run: at n = 8, three-mask's count inside the
    /// search is the same alone and per count of two counts in one process
    /// (nothing outside the search is collected, or the second count would
    /// not add exactly as much as the first), it is a small part of what
    /// the whole process retires (start-up and parsing are left out), and
    /// it grows with the board (the search is in it).
    #[test]
    fn only_the_search_is_counted() {
        if !valgrind_here() {
            return;
        }
        let queens = tested_binary();
        let count = |n, times, isolated| {
            callgrind(&queens, "three-mask", n, times, isolated, None)
                .unwrap()
                .expect("no budget, never stopped")
        };
        let once = count(8, 1, true);
        let twice = count(8, 2, true);
        let whole = count(8, 1, false);
        assert_eq!((once.solutions, once.nodes), (92, 2057));
        assert!(once.instructions > once.nodes, "{once:?}");
        assert_eq!(
            twice.instructions,
            2 * once.instructions,
            "the second count in the process must add exactly the first's instructions"
        );
        assert!(
            whole.instructions > once.instructions * 3,
            "start-up is counted? whole {whole:?}, search {once:?}"
        );
        let larger = count(9, 1, true);
        assert!(
            larger.instructions > 3 * once.instructions,
            "n = 9 walks about 4x the nodes of n = 8: {larger:?} vs {once:?}"
        );
    }
}
