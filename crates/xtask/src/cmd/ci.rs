//! `cargo xtask ci setup` and `cargo xtask ci checks`: CI's steps around
//! the three commands `.ci/run` calls literally (`cargo test --workspace`,
//! the README's test command, `cargo fmt --all --check` and
//! `cargo clippy --workspace --all-targets -- -D warnings`).
//!
//! - `setup`, before the tests: the declared rust-version against rustc,
//!   and a Vulkan driver for the GPU engine (Mesa's lavapipe, on the CPU).
//! - `checks`, after them: the scripts parse, the documentation builds
//!   without warnings, the committed report reproduces from the committed
//!   records (and the README's build-time paragraph from its record), the
//!   page works in headless Chromium, a tiny `queens compare` writes a
//!   record, the Slurm and GNU parallel paths run for real, and
//!   none of it changed the checkout. `--profile test` reuses the binary
//!   `cargo test` built.
//!
//! Packages are installed only if missing, as root, like CI, and without
//! their recommendations.

use std::path::Path;
use std::process::{Command, Stdio};

use queens_record::RECORDS_DIR;

use super::{browser_test, build_time, parallel_local, slurm_e2e};
use crate::{Error, process, workspace};

/// Which half of CI.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// setup (before the tests) or checks (after them).
    #[command(subcommand)]
    pub step: Step,
}

/// The two halves.
#[derive(Debug, Clone, Copy, clap::Subcommand)]
pub enum Step {
    /// rust-version and the Vulkan driver, before the tests.
    Setup,
    /// Everything after the tests, formatting and lints.
    Checks,
}

/// Runs one half.
pub fn run(args: &Args) -> Result<(), Error> {
    match args.step {
        Step::Setup => setup(),
        Step::Checks => checks(),
    }
}

/// When this process started: each step says how far in it begins, so
/// that a slow CI run shows where its time went.
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

fn step(title: &str) {
    let at = STARTED.get_or_init(std::time::Instant::now).elapsed();
    println!("== {title} (at {} s)", at.as_secs());
}

/// The declared rust-version: `rust-version = "..."` in `[workspace.package]`.
pub fn declared_rust_version(manifest: &str) -> Option<String> {
    let mut section = "";
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[workspace.package]"
            && let Some((key, value)) = line.split_once('=')
            && key.trim() == "rust-version"
        {
            return Some(value.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// A version's numeric components ("1.95.0-nightly" is 1, 95, 0).
fn components(version: &str) -> Vec<u64> {
    version
        .split(['.', '-'])
        .map_while(|part| part.parse().ok())
        .collect()
}

/// Whether rustc `actual` is at least the `declared` rust-version (missing
/// components count as 0, as Cargo reads them).
pub fn at_least(actual: &str, declared: &str) -> bool {
    let (mut a, mut d) = (components(actual), components(declared));
    let len = a.len().max(d.len());
    a.resize(len, 0);
    d.resize(len, 0);
    a >= d
}

fn setup() -> Result<(), Error> {
    step("rust-version");
    // The declared rust-version is the one CI checks: refuse an older
    // compiler here, in one line, rather than let a build fail somewhere
    // obscure.
    let manifest = crate::architecture::source::read(Path::new("Cargo.toml"))?;
    let declared = declared_rust_version(&manifest)
        .ok_or_else(|| Error::Failed("Cargo.toml declares no rust-version".to_string()))?;
    let rustc = process::stdout(Command::new("rustc").arg("--version"))?;
    let actual = rustc
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    if !at_least(&actual, &declared) {
        return Err(Error::Failed(format!(
            "rustc {actual} is older than the declared rust-version {declared}"
        )));
    }
    println!("rustc {actual}, declared rust-version {declared}");

    step("a Vulkan driver for the GPU engine (Mesa's software one, lavapipe)");
    // The GPU engine (crates/gpu) must be exact where it runs: CI has no
    // GPU, so it runs on lavapipe, Mesa's Vulkan driver on the CPU.
    // Installed if missing, then required by the full tier (.ci/run sets
    // QUEENS_REQUIRE_GPU and builds the device half with --features
    // queens-harness/gpu; the tests then fail instead of skipping).
    let vulkan = ["mesa-vulkan-drivers", "libvulkan1"];
    if !process::dpkg_installed(&vulkan) {
        process::apt_install(&vulkan)?;
    }

    step("valgrind, for the test of the instructions count's isolation");
    // xtask's test `only_the_search_is_counted` runs a real callgrind; .ci/run
    // sets QUEENS_REQUIRE_VALGRIND so that it fails rather than skips.
    if !process::dpkg_installed(&["valgrind"]) {
        process::apt_install(&["valgrind"])?;
    }
    Ok(())
}

/// The scripts a user runs by name, and the batch script Slurm runs.
const SCRIPTS: &[&str] = &[
    "scripts/bench",
    "scripts/report",
    "scripts/scaling",
    "scripts/vs-quadrant",
    "scripts/parallel-local",
    "scripts/browser-test",
    "scripts/instructions",
    "scripts/slurm/e2e",
    "scripts/slurm/one-node",
    "scripts/slurm/queens-array.sbatch",
];

/// The records COMPARISON.md was made from: its first line says
/// "Generated by `queens report RECORDS...`".
pub fn committed_records(comparison: &str) -> Option<Vec<String>> {
    let first = comparison.lines().next()?;
    let command = first.split("Generated by `queens report ").nth(1)?;
    let records: Vec<String> = command
        .split('`')
        .next()?
        .split_whitespace()
        .map(String::from)
        .collect();
    (!records.is_empty()).then_some(records)
}

fn git_status() -> Result<String, Error> {
    process::stdout(Command::new("git").args(["status", "--porcelain"]))
}

fn same(committed: &Path, made: &Path) -> bool {
    matches!((std::fs::read(committed), std::fs::read(made)), (Ok(a), Ok(b)) if a == b)
}

fn copy(from: &Path, to: &Path) -> Result<(), Error> {
    std::fs::copy(from, to).map(drop).map_err(|error| {
        Error::Failed(format!(
            "cannot copy {} to {}: {error}",
            from.display(),
            to.display()
        ))
    })
}

/// The committed report, README section and ALGORITHMS.md tables are what
/// `queens report` makes from the committed records.
fn report_reproduces(scratch: &Path) -> Result<(), Error> {
    let records_dir = Path::new(RECORDS_DIR);
    let comparison = crate::architecture::source::read(&records_dir.join("COMPARISON.md"))?;
    let records = committed_records(&comparison).ok_or_else(|| {
        Error::Failed(format!(
            "{RECORDS_DIR}/COMPARISON.md: no 'Generated by' first line"
        ))
    })?;
    let (readme, algorithms) = (scratch.join("README.md"), scratch.join("ALGORITHMS.md"));
    copy(Path::new("README.md"), &readme)?;
    copy(Path::new("docs/ALGORITHMS.md"), &algorithms)?;
    let out = scratch.join(RECORDS_DIR);
    process::run(
        Command::new("cargo")
            .args(["run", "--quiet", "--profile", "test", "--", "report"])
            .args(&records)
            .arg("--out")
            .arg(&out)
            .arg("--splice")
            .arg(&readme)
            .arg("--splice")
            .arg(&algorithms)
            .stdout(Stdio::null()),
    )?;
    for file in [
        "COMPARISON.md",
        "time-vs-n.svg",
        "nodes-vs-n.svg",
        "index.html",
    ] {
        if !same(&records_dir.join(file), &out.join(file)) {
            return Err(Error::Failed(format!(
                "{RECORDS_DIR}/{file} differs from what scripts/report makes: run scripts/report"
            )));
        }
    }
    if !same(Path::new("README.md"), &readme) {
        return Err(Error::Failed(
            "README.md's comparison section is stale: run scripts/report".to_string(),
        ));
    }
    if !same(Path::new("docs/ALGORITHMS.md"), &algorithms) {
        return Err(Error::Failed(
            "docs/ALGORITHMS.md's measured tables are stale: run scripts/report".to_string(),
        ));
    }
    Ok(())
}

fn checks() -> Result<(), Error> {
    step("the scripts parse (bash -n; what they run is this crate, tested by cargo test)");
    for script in SCRIPTS {
        process::run(Command::new("bash").args(["-n", script]))?;
    }

    step("cargo doc (warnings are errors)");
    process::run(
        Command::new("cargo")
            .args(["doc", "--quiet", "--no-deps", "--workspace"])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )?;

    step("committed report reproduces from the committed records");
    let before = git_status()?;
    let scratch = tempfile::tempdir()
        .map_err(|error| Error::Failed(format!("no scratch directory: {error}")))?;
    report_reproduces(scratch.path())?;

    step(
        "README.md's build-time paragraph is what bench-results/build-time.json makes, of a recent commit",
    );
    build_time::readme_reproduces(&workspace::root())?;
    build_time::fresh_enough(&workspace::root())?;

    step("the HTML page in headless Chromium (browser-test)");
    browser_test::run(&browser_test::Args {})?;

    step("tiny compare into a scratch directory");
    let records = scratch.path().join("records");
    process::run(
        Command::new("cargo")
            .args([
                "run",
                "--quiet",
                "--profile",
                "test",
                "--",
                "compare",
                "--max-n",
                "6",
            ])
            .arg("--out")
            .arg(&records)
            .stdout(Stdio::null()),
    )?;
    let wrote = crate::architecture::source::entries(&records)?
        .iter()
        .any(|path| path.to_string_lossy().ends_with("-compare.json"));
    if !wrote {
        return Err(Error::Failed(
            "the tiny compare wrote no *-compare.json record".to_string(),
        ));
    }

    let queens = workspace::check_binary("ci", workspace::target_dir().join("debug/queens"))?;
    step("the cluster path for real: one-node Slurm, a requeued task, merge (slurm-e2e)");
    slurm_e2e::run_with(18, 4, &queens)?;

    step("GNU parallel with local slots, a killed shard resumed (parallel-local)");
    parallel_local::run_with(&parallel_local::Settings::new(17, 8, 2, queens)?)?;

    if git_status()? != before {
        // What changed, for the log, before the one-line failure.
        let _ = process::run(Command::new("git").args(["status", "--short"]));
        return Err(Error::Failed(
            "the checks above changed the checkout".to_string(),
        ));
    }
    println!("== ci: all green");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_rust_version_is_read_from_its_section() {
        let manifest = "[package]\nrust-version = \"1.10\"\n[workspace.package]\nedition = \"2024\"\nrust-version = \"1.95\"\n";
        assert_eq!(declared_rust_version(manifest).as_deref(), Some("1.95"));
        assert_eq!(declared_rust_version("[workspace.package]\n"), None);
        let ours = std::fs::read_to_string(workspace::root().join("Cargo.toml")).unwrap();
        assert_eq!(
            declared_rust_version(&ours).as_deref(),
            Some(env!("CARGO_PKG_RUST_VERSION"))
        );
    }

    #[test]
    fn versions_compare_by_their_numbers() {
        assert!(at_least("1.95.0", "1.95"));
        assert!(at_least("1.100.0", "1.95"));
        assert!(at_least("1.96.0-nightly", "1.95.1"));
        assert!(!at_least("1.94.1", "1.95"));
        assert!(!at_least("1.95.0", "1.95.1"));
    }

    #[test]
    fn the_committed_records_are_read_from_the_first_line() {
        let first = "Generated by `queens report bench-results/a.json bench-results/b.json` (scripts/report): do not edit.\n\nrest";
        assert_eq!(
            committed_records(first).unwrap(),
            ["bench-results/a.json", "bench-results/b.json"]
        );
        assert_eq!(committed_records("# Comparison\n"), None);
        assert_eq!(committed_records("Generated by `queens report ` x"), None);
    }

    #[test]
    fn the_full_tier_runs_every_crate_whose_tests_read_the_tier() {
        // .ci/run's full tier names its crates; one whose tests read the
        // tier but is left out would never run its full range.
        use crate::architecture::source;
        let root = workspace::root();
        let run = source::read(&root.join(".ci/run")).unwrap();
        let full = run.split("QUEENS_TESTS=full").nth(1).expect("a full tier");
        let words: Vec<&str> = full.split_whitespace().collect();
        let tested: Vec<&str> = words
            .windows(2)
            .filter(|pair| pair[0] == "-p")
            .map(|pair| pair[1])
            .collect();
        // Built here so that this file does not name it itself.
        let needle = format!("queens_conformance::{}", "tier");
        let mut readers = 0;
        for dir in source::crates(&root).unwrap().into_values() {
            let mut files = source::rust_files(&dir.join("src")).unwrap();
            files.extend(source::rust_files(&dir.join("tests")).unwrap());
            if !files
                .iter()
                .any(|f| source::read(f).unwrap().contains(&needle))
            {
                continue;
            }
            let manifest = source::read(&dir.join("Cargo.toml")).unwrap();
            let name = manifest
                .lines()
                .find_map(|line| line.strip_prefix("name = "))
                .expect("a package name")
                .trim_matches('"');
            if name == "queens-conformance" {
                // Where the tier is defined (and its documentation shows it).
                continue;
            }
            assert!(
                tested.contains(&name),
                "{name} reads the tier: add `-p {name}`"
            );
            readers += 1;
        }
        assert!(readers > 0, "some crate's tests read the tier");
    }

    #[test]
    fn every_script_ci_parses_exists() {
        for script in SCRIPTS {
            assert!(workspace::root().join(script).is_file(), "{script}");
        }
    }
}
