//! `cargo xtask build-time`: how long the README's two commands take on a
//! fresh clone, measured, recorded and spliced into the README.
//!
//! The committed HEAD is cloned into a temporary directory (a work tree with
//! uncommitted changes to tracked files is refused unless `--allow-dirty`:
//! what is measured is HEAD, not the work tree) and built there with a fresh
//! target directory inside it, so that nothing already compiled is reused.
//! Each command is timed in two steps, its build and then its run, as a
//! newcomer meets it:
//!
//! 1. `cargo fetch`, not timed: downloading depends on the network, not on
//!    the workspace.
//! 2. `cargo build --release`, then `cargo run --release -- compare`: the
//!    main job's compiling (wall and CPU seconds of every process it
//!    started) and running (wall).
//! 3. `cargo test --workspace --no-run`, then `cargo test --workspace`:
//!    the tests' compiling and running, the same way.
//! 4. The size of the target directory both left.
//!
//! The figures go to `bench-results/build-time.json` (replacing the previous
//! one on purpose: it is the one build time the README states), and a short
//! paragraph made from that record goes between `<!-- BEGIN: build-time -->`
//! and `<!-- END: build-time -->` in README.md. `--splice-only` remakes the
//! paragraph from the committed record without measuring. CI
//! (`cargo xtask ci checks`) checks that the README's paragraph is what the
//! committed record makes, so that a figure edited by hand fails, and that
//! the record is at most [`MAX_STALE_COMMITS`] commits behind HEAD. Not a
//! unit test: the measurement runs the tests of the very commit whose
//! record it is about to replace, so they must not depend on that record.

use std::num::{NonZeroU64, NonZeroUsize};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use serde::{Deserialize, Serialize};

use crate::readme_record::{self, Problem, ReadmeRecord};
use crate::{Error, process, workspace};

/// The record's `format`.
pub const FORMAT: &str = "queens-build-time";
/// The record's `format_version`: changes whenever a field is added,
/// removed or changes meaning.
pub const FORMAT_VERSION: u32 = 2;
/// The least CPU time a build of this workspace can take: a record below it
/// measured something else (a build that reused a target directory, or
/// CPU time that was not counted).
pub const MIN_BUILD_CPU_SECONDS: f64 = 1.0;

/// How to run it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Measure although tracked files have uncommitted changes (HEAD is
    /// what is measured either way).
    #[arg(long)]
    pub allow_dirty: bool,
    /// Only remake the README's paragraph from the committed record.
    #[arg(long, conflicts_with = "allow_dirty")]
    pub splice_only: bool,
}

/// How many commits the measured commit may lie behind HEAD before CI
/// asks for a new measurement: a build time is a property of the code, and
/// code drifts.
pub const MAX_STALE_COMMITS: u64 = 20;

/// One README command, measured on a fresh clone: its build, then its run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The build alone (`cargo build --release`, `cargo test --no-run`):
    /// wall-clock seconds.
    pub build_wall_seconds: f64,
    /// The same build: user + system CPU seconds of every process it ran.
    pub build_cpu_seconds: f64,
    /// The command itself, once built: wall-clock seconds.
    pub run_wall_seconds: f64,
}

impl Step {
    /// Build and run: what the newcomer waits.
    pub fn wall_seconds(&self) -> f64 {
        self.build_wall_seconds + self.run_wall_seconds
    }

    /// What is wrong with its figures, if anything: the field and why.
    fn problem(&self) -> Option<String> {
        let seconds = [
            ("build_wall_seconds", self.build_wall_seconds),
            ("build_cpu_seconds", self.build_cpu_seconds),
            ("run_wall_seconds", self.run_wall_seconds),
        ];
        if let Some((field, value)) = seconds.iter().find(|(_, s)| !(s.is_finite() && *s > 0.0)) {
            return Some(format!(
                "{field}: {value} is not a positive number of seconds"
            ));
        }
        (self.build_cpu_seconds < MIN_BUILD_CPU_SECONDS).then(|| {
            format!(
                "build_cpu_seconds: {} s is less than any build of this workspace \
                 ({MIN_BUILD_CPU_SECONDS} s)",
                self.build_cpu_seconds
            )
        })
    }
}

/// One measurement of the README's two commands on a fresh clone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildTime {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The commit built: 40 hexadecimal digits.
    pub commit: String,
    /// When it was measured: UTC, RFC 3339.
    pub date: String,
    /// `rustc -V` in the clone.
    pub rustc: String,
    /// `cargo -V` in the clone.
    pub cargo: String,
    /// The CPUs this process could use.
    pub cpus: NonZeroUsize,
    /// The CPU's model name from /proc/cpuinfo, when it could be read.
    pub cpu_model: Option<String>,
    /// `cargo run --release -- compare`, the main job.
    pub compare: Step,
    /// `cargo test --workspace`, the tests.
    pub test: Step,
    /// The target directory's size after both: bytes.
    pub target_bytes: NonZeroU64,
}

impl ReadmeRecord for BuildTime {
    crate::readme_record_consts!("build-time", FORMAT, FORMAT_VERSION);

    fn check(&self) -> Result<(), Problem> {
        let hex = self.commit.len() == 40 && self.commit.bytes().all(|b| b.is_ascii_hexdigit());
        let problems = [
            (
                "commit",
                (!hex).then(|| format!("'{}' is not 40 hex digits", self.commit)),
            ),
            ("compare", self.compare.problem()),
            ("test", self.test.problem()),
        ];
        let first = problems
            .into_iter()
            .find_map(|(field, problem)| Some((field.to_string(), problem?)));
        first.map_or(Ok(()), Err)
    }

    fn section(&self) -> String {
        let short_commit = &self.commit[..self.commit.len().min(7)];
        let rustc = self.rustc.split_whitespace().nth(1).unwrap_or(&self.rustc);
        let day = self.date.get(..10).unwrap_or(&self.date);
        let machine = match &self.cpu_model {
            Some(model) => format!("a {}-core machine ({model})", self.cpus),
            None => format!("a {}-core machine", self.cpus),
        };
        let step = |step: &Step| {
            format!(
                "{} ({} compiling, {:.1} CPU-minutes; {} running)",
                duration(step.wall_seconds()),
                duration(step.build_wall_seconds),
                step.build_cpu_seconds / 60.0,
                duration(step.run_wall_seconds),
            )
        };
        format!(
            "Generated by `cargo xtask build-time` from {}: do not edit \
             between the markers. Measured on a fresh clone of commit {short_commit} on \
             {machine}, rustc {rustc}, {day}: `cargo run --release -- compare` took {}, then \
             `cargo test --workspace` took {}: {} in all, and `target/` ended at {:.2} GB.\n",
            record_path().display(),
            step(&self.compare),
            step(&self.test),
            duration(self.compare.wall_seconds() + self.test.wall_seconds()),
            self.target_bytes.get() as f64 / 1e9,
        )
    }
}

/// Seconds as a reader wants them: whole seconds up to 100, minutes with
/// one decimal above.
pub(crate) fn duration(seconds: f64) -> String {
    if seconds < 99.5 {
        format!("{seconds:.0} s")
    } else {
        format!("{:.1} minutes", seconds / 60.0)
    }
}

/// Where the record lives, relative to the workspace root.
fn record_path() -> PathBuf {
    readme_record::path::<BuildTime>()
}

/// Runs it.
pub fn run(args: &Args) -> Result<(), Error> {
    readme_record::run(args.splice_only, || measure(args.allow_dirty))
}

/// The user + system CPU time of this process's waited-for children (and
/// theirs) so far.
fn children_cpu_time() -> Duration {
    // SAFETY: getrusage only writes the struct it is given, which is a
    // zeroed, properly aligned libc::rusage that outlives the call.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above; RUSAGE_CHILDREN is a valid `who`.
    let status = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    if status != 0 {
        return Duration::ZERO;
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// A cargo command in the clone, with its own target directory and no
/// wrapper that could bring a cache in.
fn cargo(clone: &Path, target: &Path) -> Command {
    let mut command = Command::new("cargo");
    command
        .current_dir(clone)
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("RUSTC_WRAPPER")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env("CARGO_TARGET_DIR", target);
    command
}

fn git(args: &[&str]) -> Result<String, Error> {
    let shown = args.join(" ");
    queens_record::git(args).ok_or_else(|| Error::Failed(format!("`git {shown}` failed")))
}

fn measure(allow_dirty: bool) -> Result<BuildTime, Error> {
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"])?;
    if !dirty.is_empty() && !allow_dirty {
        return Err(Error::Usage(
            "build-time: tracked files have uncommitted changes and HEAD is what is measured: commit them, or pass --allow-dirty".to_string(),
        ));
    }
    let commit = git(&["rev-parse", "HEAD"])?;
    println!("build-time: measuring HEAD, commit {commit}, on a fresh clone");
    let scratch = process::scratch("build-time")?;
    let (clone, target) = (scratch.path().join("queens"), scratch.path().join("target"));
    process::run(
        Command::new("git")
            .args(["clone", "--quiet"])
            .arg(workspace::root())
            .arg(&clone),
    )?;
    // The clone checks out the source's current branch; the commit named
    // is what is measured, whatever that branch is.
    process::run(
        Command::new("git")
            .arg("-C")
            .arg(&clone)
            .args(["checkout", "--quiet", "--detach", &commit]),
    )?;

    process::run(cargo(&clone, &target).args(["fetch", "--quiet"]))?;
    let rustc = process::stdout(Command::new("rustc").arg("-V").current_dir(&clone))?;
    let cargo_version = process::stdout(cargo(&clone, &target).arg("-V"))?;

    // The README's two commands, in its order, on one target directory:
    // the second reuses what the first built, as it does for a newcomer.
    let compare = step(
        &clone,
        &target,
        &["build", "--release"],
        &["run", "--release", "--", "compare"],
    )?;
    let test = step(
        &clone,
        &target,
        &["test", "--workspace", "--no-run"],
        &["test", "--workspace"],
    )?;
    let measured = bytes_under(&target).map(NonZeroU64::new);
    let target_bytes = measured.map_err(|e| e.to_string()).and_then(|bytes| {
        bytes.ok_or_else(|| "empty, but a build leaves a target directory".to_string())
    });
    let target_bytes = target_bytes
        .map_err(|why| Error::Failed(format!("{}: cannot measure: {why}", target.display())))?;

    Ok(BuildTime {
        format: FORMAT.to_string(),
        format_version: FORMAT_VERSION,
        commit,
        date: queens_record::utc_timestamp(SystemTime::now()),
        rustc: rustc.trim().to_string(),
        cargo: cargo_version.trim().to_string(),
        cpus: std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
        cpu_model: Some(queens_record::cpu_model()).filter(|model| model != "unknown"),
        compare,
        test,
        target_bytes,
    })
}

/// One README command in the clone: `build` timed (wall and CPU), then
/// `run` timed (wall). Each prints as it goes, as it would for a user.
fn step(clone: &Path, target: &Path, build: &[&str], run: &[&str]) -> Result<Step, Error> {
    println!("build-time: cargo {} (compiling, timed)", build.join(" "));
    let cpu_before = children_cpu_time();
    let start = Instant::now();
    process::run(cargo(clone, target).args(build))?;
    let build_wall = start.elapsed();
    let build_cpu = children_cpu_time().saturating_sub(cpu_before);
    println!("build-time: cargo {} (running, timed)", run.join(" "));
    let start = Instant::now();
    process::run(cargo(clone, target).args(run))?;
    Ok(Step {
        build_wall_seconds: build_wall.as_secs_f64(),
        build_cpu_seconds: build_cpu.as_secs_f64(),
        run_wall_seconds: start.elapsed().as_secs_f64(),
    })
}

/// The bytes of every file under `dir` (links not followed).
fn bytes_under(dir: &Path) -> std::io::Result<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            total += bytes_under(&entry.path())?;
        } else if kind.is_file() {
            total += entry.metadata()?.len();
        }
    }
    Ok(total)
}

/// How many commits HEAD is past the record's commit, in the checkout at
/// `root`; `Err` if the record's commit is not an ancestor of HEAD.
pub fn commits_behind(root: &Path, record: &BuildTime) -> Result<u64, Error> {
    let range = format!("{}..HEAD", record.commit);
    let root = root.to_string_lossy();
    let count = queens_record::git(&["-C", &root, "rev-list", "--count", &range]);
    count.and_then(|count| count.parse().ok()).ok_or_else(|| {
        Error::Failed(format!(
            "{}: commit {} is not in this checkout's history: run `cargo xtask build-time`",
            record_path().display(),
            record.commit
        ))
    })
}

/// Fails if the committed record describes a commit more than
/// [`MAX_STALE_COMMITS`] behind HEAD (run by `cargo xtask ci checks`).
pub fn fresh_enough(root: &Path) -> Result<(), Error> {
    let record: BuildTime = readme_record::read(&root.join(record_path()))?;
    let behind = commits_behind(root, &record)?;
    if behind > MAX_STALE_COMMITS {
        return Err(Error::Failed(format!(
            "{} measured commit {}, {behind} commits behind HEAD (at most \
             {MAX_STALE_COMMITS}): run `cargo xtask build-time` on a quiet machine and commit it",
            record_path().display(),
            &record.commit[..7],
        )));
    }
    println!(
        "{} measured a commit {behind} commits behind HEAD (at most {MAX_STALE_COMMITS})",
        record_path().display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readme_record::{read, spliced};

    fn record() -> BuildTime {
        BuildTime {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            commit: "abc1234".repeat(5) + "abcde",
            date: "2026-11-24T09:10:11.123Z".to_string(),
            rustc: "rustc 1.95.0 (abcdef012 2026-10-01)".to_string(),
            cargo: "cargo 1.95.0 (abcdef012 2026-10-01)".to_string(),
            cpus: NonZeroUsize::new(2).unwrap(),
            cpu_model: Some("Some CPU @ 2.20GHz".to_string()),
            compare: Step {
                build_wall_seconds: 100.0,
                build_cpu_seconds: 150.0,
                run_wall_seconds: 40.4,
            },
            test: Step {
                build_wall_seconds: 180.0,
                build_cpu_seconds: 330.0,
                run_wall_seconds: 66.0,
            },
            target_bytes: NonZeroU64::new(1_234_000_000).unwrap(),
        }
    }

    #[test]
    fn a_sound_record_passes_and_makes_the_paragraph() {
        let record = record();
        assert_eq!(record.check(), Ok(()));
        assert_eq!(
            record.section(),
            "Generated by `cargo xtask build-time` from bench-results/build-time.json: do not \
             edit between the markers. Measured on a fresh clone of commit abc1234 on a 2-core \
             machine (Some CPU @ 2.20GHz), rustc 1.95.0, 2026-11-24: `cargo run --release -- \
             compare` took 2.3 minutes (1.7 minutes compiling, 2.5 CPU-minutes; 40 s running), \
             then `cargo test --workspace` took 4.1 minutes (3.0 minutes compiling, 5.5 \
             CPU-minutes; 66 s running): 6.4 minutes in all, and `target/` ended at 1.23 GB.\n"
        );
        let unknown_cpu = BuildTime {
            cpu_model: None,
            ..record
        };
        assert!(unknown_cpu.section().contains("on a 2-core machine, rustc"));
    }

    #[test]
    fn durations_are_seconds_then_minutes() {
        assert_eq!(duration(5.4), "5 s");
        assert_eq!(duration(99.4), "99 s");
        assert_eq!(duration(99.6), "1.7 minutes");
        assert_eq!(duration(426.0), "7.1 minutes");
    }

    #[test]
    fn a_record_that_means_something_else_is_refused_by_field() {
        // (the field to blame, how the record is spoilt)
        type Spoilt = (&'static str, fn(&mut BuildTime));
        let spoilt: [Spoilt; 5] = [
            ("commit", |r| r.commit = "abc1234".to_string()),
            ("commit", |r| r.commit = "z".repeat(40)),
            ("compare", |r| r.compare.build_wall_seconds = -1.0),
            ("test", |r| r.test.run_wall_seconds = f64::NAN),
            ("test", |r| r.test.build_cpu_seconds = 0.01),
        ];
        for (field, spoil) in spoilt {
            let mut bad = record();
            spoil(&mut bad);
            assert_eq!(bad.check().unwrap_err().0, field, "{bad:?}");
        }
    }

    #[test]
    fn reading_names_the_file_and_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(BuildTime::FILE);
        let bad = BuildTime {
            commit: "abc".to_string(),
            ..record()
        };
        std::fs::write(&path, serde_json::to_string(&bad).unwrap()).unwrap();
        let message = read::<BuildTime>(&path).unwrap_err().to_string();
        assert!(
            message.contains("build-time.json: field `commit`"),
            "{message}"
        );
        // No CPUs, or no target directory, is no build at all.
        for field in ["cpus", "target_bytes"] {
            let mut none = serde_json::to_value(record()).unwrap();
            none[field] = 0.into();
            std::fs::write(&path, none.to_string()).unwrap();
            let message = read::<BuildTime>(&path).unwrap_err().to_string();
            assert!(message.contains(&format!("field `{field}`")), "{message}");
        }
        let extra = r#"{"format": "queens-build-time", "format_version": 2, "extra": 1}"#;
        std::fs::write(&path, extra).unwrap();
        let message = read::<BuildTime>(&path).unwrap_err().to_string();
        assert!(
            message.contains("does not follow build-time format version 2"),
            "{message}"
        );
        // The header is read first: another kind, or another version, is
        // refused for that.
        let other = BuildTime {
            format: "queens-bench-record".to_string(),
            ..record()
        };
        std::fs::write(&path, serde_json::to_string(&other).unwrap()).unwrap();
        let message = read::<BuildTime>(&path).unwrap_err().to_string();
        assert!(message.contains("not a build-time record"), "{message}");
        let older = BuildTime {
            format_version: 1,
            ..record()
        };
        std::fs::write(&path, serde_json::to_string(&older).unwrap()).unwrap();
        let message = read::<BuildTime>(&path).unwrap_err().to_string();
        assert!(
            message.contains("field `format_version`: version 1"),
            "{message}"
        );
        std::fs::write(&path, serde_json::to_string(&record()).unwrap()).unwrap();
        assert_eq!(read::<BuildTime>(&path).unwrap(), record());
    }

    #[test]
    fn a_record_of_head_is_no_commits_behind_and_a_stranger_is_refused() {
        let root = workspace::root();
        let head = git(&["rev-parse", "HEAD"]).unwrap();
        let of_head = BuildTime {
            commit: head,
            ..record()
        };
        assert_eq!(commits_behind(&root, &of_head).unwrap(), 0);
        let message = commits_behind(&root, &record()).unwrap_err().to_string();
        assert!(
            message.contains("not in this checkout's history"),
            "{message}"
        );
    }

    #[test]
    fn a_hand_edited_paragraph_is_caught() {
        let readme = format!(
            "intro\n<!-- BEGIN: build-time -->\n{}<!-- END: build-time -->\n",
            record().section()
        );
        assert_eq!(spliced(&readme, &record()).unwrap(), readme);
        let edited = readme.replace("6.4 minutes", "2.0 minutes");
        assert_ne!(spliced(&edited, &record()).unwrap(), edited);
    }
}
