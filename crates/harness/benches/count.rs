//! `cargo bench`: criterion benchmarks of `count` for every registered
//! solver over a grid of n chosen by probing, and a record of the run in
//! `bench-results/` (same format as `queens compare`).
//!
//! For each solver, n climbs from 4: each n gets a *checking run* (count
//! compared with OEIS A000170, peak heap measured) and is benchmarked only
//! if the count is right and the run took at most the per-run limit; the
//! first n over the limit is recorded as over budget and ends the climb.
//!
//! criterion's samples repeat one search back to back (the *warm* figure).
//! After them come the *cold* samples ([`queens_measure::cold`]):
//! [`BENCH_COLD_ROUNDS`] rounds through every timed (solver, n), one run
//! each, never the same search twice in a row, and branch misses per node
//! where the processor's counters can be read.
//!
//! Then the other question, one board: every finder climbs its sizes (8,
//! then powers of ten to 10^7, or every even n to 32 for a search whose
//! time jumps with n; `queens_measure::find`), each board checked before
//! it is timed, by the same per-run limit, into `find-one/<finder>/<n>`
//! and the record's `find-one` entries, with their own cold rounds.
//!
//! Environment (see `bench-results/FORMAT.md`):
//! - `QUEENS_BENCH_MAX_RUN`: seconds one run may take (default 0.5);
//!   larger widens the grid, smaller narrows it.
//! - `QUEENS_BENCH_SOLVERS`: comma-separated solver ids (default: all).
//! - `QUEENS_BENCH_FINDERS`: comma-separated finder ids, or `none`
//!   (default: all).
//! - `QUEENS_BENCH_MAX_N`: the largest n (default: no limit but the solvers').
//! - `QUEENS_BENCH_OUT`: directory of the record (default: bench-results/).

use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode};
use queens_core::{CountOptions, Finder, oeis};
use queens_harness::registry;
use queens_measure::climb::{self, Planned, seconds};
use queens_measure::cold::{self, BENCH_COLD_ROUNDS};
use queens_measure::find::{FIND_SEED, Finding};
use queens_measure::{CheckedRun, Counting, Subject, stats};
use queens_record::{
    COUNT, Entry, FIND_ONE, FinderFacts, Outcome, Provenance, Record, Settings, SolverFacts, Status,
};

/// Peak heap bytes are measured in the checking runs: the bench, like the
/// `queens` binary, installs the counting allocator itself.
#[global_allocator]
static ALLOCATOR: queens_measure::heap::CountingAllocator = queens_measure::heap::CountingAllocator;

const MIN_N: usize = 4;
const DEFAULT_MAX_RUN_SECONDS: f64 = 0.5;
/// Runs longer than this get the flat sampling mode and the fewest samples.
const SLOW_RUN: Duration = Duration::from_millis(20);

struct BenchSettings {
    max_run: Duration,
    solvers: Vec<String>,
    finders: Vec<String>,
    max_n: usize,
    out: PathBuf,
    /// `cargo bench` passes `--bench`; without it (`cargo test --benches`)
    /// criterion runs each benchmark once as a test and no record is written.
    benchmarking: bool,
}

fn main() -> ExitCode {
    let settings = match read_settings() {
        Ok(settings) => settings,
        Err(problem) => {
            eprintln!("count bench: {problem}");
            return ExitCode::from(2);
        }
    };
    match run(&settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("count bench: {problem}");
            ExitCode::from(2)
        }
    }
}

fn read_settings() -> Result<BenchSettings, String> {
    let variable = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let max_run = match variable("QUEENS_BENCH_MAX_RUN") {
        None if !benchmarking => Duration::from_millis(5),
        None => Duration::from_secs_f64(DEFAULT_MAX_RUN_SECONDS),
        Some(text) => match text.trim().parse::<f64>() {
            Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Duration::from_secs_f64(s),
            _ => {
                return Err(format!(
                    "QUEENS_BENCH_MAX_RUN must be seconds in (0, 3600], got '{text}'"
                ));
            }
        },
    };
    let ids = |name: &str| -> Vec<String> {
        variable(name)
            .map(|list| {
                list.split(',')
                    .map(|id| id.trim().to_string())
                    .filter(|id| !id.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    };
    let solvers = ids("QUEENS_BENCH_SOLVERS");
    registry::select(&solvers).map_err(|e| format!("QUEENS_BENCH_SOLVERS: {e}"))?;
    let finders = ids("QUEENS_BENCH_FINDERS");
    registry::timed_finders(&finders).map_err(|e| format!("QUEENS_BENCH_FINDERS: {e}"))?;
    let max_n = match variable("QUEENS_BENCH_MAX_N") {
        None => oeis::MAX_KNOWN_N,
        Some(text) => match text.trim().parse::<usize>() {
            Ok(n) if n >= MIN_N => n,
            _ => {
                return Err(format!(
                    "QUEENS_BENCH_MAX_N must be a whole number >= {MIN_N}, got '{text}'"
                ));
            }
        },
    };
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = variable("QUEENS_BENCH_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join(queens_record::RECORDS_DIR));
    Ok(BenchSettings {
        max_run,
        solvers,
        finders,
        max_n,
        out,
        benchmarking,
    })
}

fn run(settings: &BenchSettings) -> Result<(), String> {
    let started = Instant::now();
    let (solvers, notes) = registry::usable(
        registry::select(&settings.solvers).map_err(|e| e.to_string())?,
        true,
    );
    eprint!("{notes}");
    let options = CountOptions::default();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        // criterion plots the bootstrap distributions of its estimates; with
        // its default 100 000 resamples that took ~18 s per benchmark here,
        // longer than the measurement. 10 000 keep its confidence intervals
        // (our record's statistics do not depend on them).
        .nresamples(10_000)
        .configure_from_args();
    let mut entries: Vec<Entry> = Vec::new();
    let mut group = criterion.benchmark_group(COUNT.as_str());
    let counting: Vec<Counting> = (solvers.iter())
        .map(|&solver| Counting { solver, options })
        .collect();
    for subject in &counting {
        let sizes = climb::n_range(subject.solver, MIN_N, settings.max_n);
        let plan = climb::probe(subject, sizes, settings.max_run);
        bench_plan(&mut group, subject, plan, &mut entries);
    }
    group.finish();
    let finders = registry::timed_finders(&settings.finders).map_err(|e| e.to_string())?;
    let find_started = Instant::now();
    let mut group = criterion.benchmark_group(FIND_ONE.as_str());
    let finding: Vec<Finding> = (finders.iter())
        .map(|&(finder, _)| Finding {
            finder,
            seed: FIND_SEED,
        })
        .collect();
    for (subject, (_, sizes)) in finding.iter().zip(&finders) {
        let plan = climb::probe(subject, sizes.iter().copied(), settings.max_run);
        bench_plan(&mut group, subject, plan, &mut entries);
    }
    group.finish();
    criterion.final_summary();
    // `cargo test --benches` takes one round, to check the path.
    let cold_rounds = if settings.benchmarking {
        BENCH_COLD_ROUNDS
    } else {
        1
    };
    let timed = entries
        .iter()
        .filter(|e| e.status() == Status::Timed)
        .count();
    let cold_started = Instant::now();
    let branch_misses_unavailable =
        cold::attach_cold(&mut entries, &cold::subjects(&counting), cold_rounds);
    let found_misses = cold::attach_cold(&mut entries, &cold::subjects(&finding), cold_rounds);
    let timed_finders: Vec<&dyn Finder> = finding.iter().map(|f| f.finder).collect();
    let branch_misses_unavailable = branch_misses_unavailable.or(found_misses);
    eprintln!(
        "count bench: cold: {cold_rounds} rounds through {timed} timed (solver or finder, n), one run each, in {}",
        seconds(cold_started.elapsed())
    );
    eprintln!(
        "count bench: finders: {} (their probes, criterion's samples and cold rounds)",
        seconds(find_started.elapsed())
    );
    if let Some(why) = &branch_misses_unavailable {
        eprintln!("count bench: no branch misses: {why}");
    }
    if !settings.benchmarking {
        return Ok(());
    }
    if !entries.iter().any(|e| e.status() == Status::Timed) {
        eprintln!("count bench: nothing was timed (filtered out?), so no record was written");
        return Ok(());
    }
    let record = Record::new(
        Provenance::collect(command_line()),
        Settings {
            tool: "cargo bench".to_string(),
            threads: options.threads,
            min_n: MIN_N,
            max_n: (settings.max_n < oeis::MAX_KNOWN_N).then_some(settings.max_n),
            max_run_seconds: Some(settings.max_run.as_secs_f64()),
            budget_seconds: None,
            cold_rounds: Some(cold_rounds),
            branch_misses_unavailable,
            find_seed: timed_finders
                .iter()
                .any(|f| f.info().seeded)
                .then_some(FIND_SEED),
        },
        solvers.iter().map(|&s| SolverFacts::of(s)).collect(),
        entries,
    )
    .with_finders(timed_finders.iter().map(|&f| FinderFacts::of(f)).collect());
    let path =
        queens_record::write_new(&settings.out, "bench", &record).map_err(|e| e.to_string())?;
    let path = path.canonicalize().unwrap_or(path);
    eprintln!(
        "count bench: record {} ({} in all)",
        path.display(),
        seconds(started.elapsed())
    );
    Ok(())
}

/// Benchmarks every (solver or finder, n) of `plan` to be timed, each
/// timed run one of `subject`'s, and adds every entry of the plan to
/// `entries`.
fn bench_plan(
    group: &mut BenchmarkGroup<'_, WallTime>,
    subject: &dyn Subject,
    plan: Vec<Planned>,
    entries: &mut Vec<Entry>,
) {
    let id = subject.id();
    describe_plan(id, &plan);
    for planned in plan {
        let checked = match planned {
            Planned::Settled(entry) => {
                entries.push(*entry);
                continue;
            }
            Planned::Time(checked) => checked,
        };
        let n = checked.n;
        let samples = bench_one(group, id, n, checked.wall, &mut || subject.time(n));
        entries.extend(timed_entry(&checked, &samples));
    }
}

/// Benchmarks one (solver or finder, n) whose checking run took
/// `checked`, each call of `run` one timed run: criterion's samples, as
/// nanoseconds per run, the last `sample_size` of them the measurement.
fn bench_one(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    n: usize,
    checked: Duration,
    run: &mut dyn FnMut() -> Duration,
) -> Measured {
    let sample_size = configure(group, checked);
    let samples: RefCell<Vec<f64>> = RefCell::new(Vec::new());
    group.bench_with_input(BenchmarkId::new(id, n), &n, |bencher, _| {
        bencher.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                total += run();
            }
            samples
                .borrow_mut()
                .push(total.as_nanos() as f64 / iterations.max(1) as f64);
            total
        });
    });
    Measured {
        samples: samples.into_inner(),
        sample_size,
    }
}

/// criterion's samples of one benchmark, and how many of the last ones are
/// its measurement.
struct Measured {
    samples: Vec<f64>,
    sample_size: usize,
}

/// Sampling for one benchmark, from the checking run's duration: slow runs
/// get flat sampling (the same iteration count per sample) and 10 samples,
/// with the measuring time stretched to fit them. Returns the sample size.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, checked: Duration) -> usize {
    if checked >= SLOW_RUN {
        let sample_size = 10;
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(sample_size)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(
                checked
                    .mul_f64(sample_size as f64 * 1.2)
                    .max(Duration::from_millis(1500)),
            );
        sample_size
    } else {
        let sample_size = 30;
        group
            .sampling_mode(SamplingMode::Auto)
            .sample_size(sample_size)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_millis(1500));
        sample_size
    }
}

/// criterion calls the routine during warm-up, then once per sample: the
/// last `sample_size` calls are the measurement. Fewer calls mean criterion
/// skipped or only tested this benchmark, and it is left out of the record.
fn timed_entry(run: &CheckedRun, measured: &Measured) -> Option<Entry> {
    let samples = &measured.samples;
    let measured = samples.get(samples.len().checked_sub(measured.sample_size)?..)?;
    Some(run.entry(Outcome::timed(stats::timing(measured)?)))
}

fn describe_plan(id: &str, plan: &[Planned]) {
    let timed: Vec<usize> = plan
        .iter()
        .filter_map(|p| {
            if let Planned::Time(run) = p {
                Some(run.n)
            } else {
                None
            }
        })
        .collect();
    let range = match (timed.first(), timed.last()) {
        (Some(first), Some(last)) => format!("n = {first}..={last}"),
        _ => "no n".to_string(),
    };
    let settled: Vec<String> = plan
        .iter()
        .filter_map(|p| match p {
            Planned::Settled(entry) => {
                Some(format!("n = {}: {}", entry.n, entry.error().unwrap_or("")))
            }
            Planned::Time(_) => None,
        })
        .collect();
    eprintln!(
        "count bench: {id}: benchmarking {range}; {}",
        settled.join("; ")
    );
}

/// How to repeat this run: the variables that shaped it, then the command.
fn command_line() -> String {
    let mut words: Vec<String> = [
        "QUEENS_BENCH_MAX_RUN",
        "QUEENS_BENCH_SOLVERS",
        "QUEENS_BENCH_FINDERS",
        "QUEENS_BENCH_MAX_N",
    ]
    .iter()
    .filter_map(|name| {
        std::env::var(name)
            .ok()
            .map(|value| format!("{name}={value}"))
    })
    .collect();
    words.push("cargo bench --bench count".to_string());
    let extra: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if !extra.is_empty() {
        words.push("--".to_string());
        words.extend(extra);
    }
    words.join(" ")
}
