//! `cargo xtask build-time`: how long the first `cargo test --workspace`
//! takes on a fresh clone, measured, recorded and spliced into the README.
//!
//! The committed HEAD is cloned into a temporary directory (a work tree with
//! uncommitted changes to tracked files is refused unless `--allow-dirty`:
//! what is measured is HEAD, not the work tree) and built there with a fresh
//! target directory inside it, so that nothing already compiled is reused:
//!
//! 1. `cargo fetch`, not timed: downloading depends on the network, not on
//!    the workspace.
//! 2. `cargo test --workspace --no-run`, the build: wall seconds, and the
//!    CPU seconds (user + system) of every process it started.
//! 3. `cargo test --workspace`, which now only runs the tests: wall
//!    seconds, with the GPU settings CI uses.
//!
//! The figures go to `bench-results/build-time.json` (replacing the previous
//! one on purpose: it is the one build time the README states), and a short
//! paragraph made from that record goes between `<!-- BEGIN: build-time -->`
//! and `<!-- END: build-time -->` in README.md. `--splice-only` remakes the
//! paragraph from the committed record without measuring; a test checks that
//! the README's paragraph is what the committed record makes, so that a
//! figure edited by hand fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use queens_record::{RECORDS_DIR, files};
use serde::{Deserialize, Serialize};

use crate::{Error, process, workspace};

/// The record's file name, under the records directory.
pub const RECORD_FILE: &str = "build-time.json";
/// The record's `format`.
pub const FORMAT: &str = "queens-build-time";
/// The record's `format_version`: changes whenever a field is added,
/// removed or changes meaning.
pub const FORMAT_VERSION: u32 = 1;
/// The README section the paragraph goes to.
pub const SECTION: &str = "build-time";
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

/// One measurement of the first `cargo test --workspace` on a fresh clone.
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
    pub cpus: usize,
    /// The CPU's model name from /proc/cpuinfo, when it could be read.
    pub cpu_model: Option<String>,
    /// `cargo test --workspace --no-run`: wall-clock seconds.
    pub build_wall_seconds: f64,
    /// The same build: user + system CPU seconds of every process it ran.
    pub build_cpu_seconds: f64,
    /// `cargo test --workspace` after the build: wall-clock seconds.
    pub test_wall_seconds: f64,
}

impl BuildTime {
    /// Whether the record means what it says: `Err` names the field and
    /// what is wrong with it.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if self.format != FORMAT {
            return Err(("format", format!("is '{}', not '{FORMAT}'", self.format)));
        }
        if self.format_version != FORMAT_VERSION {
            return Err((
                "format_version",
                format!(
                    "is {}, this xtask reads version {FORMAT_VERSION}",
                    self.format_version
                ),
            ));
        }
        if self.commit.len() != 40 || !self.commit.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(("commit", format!("'{}' is not 40 hex digits", self.commit)));
        }
        if self.cpus == 0 {
            return Err(("cpus", "must be at least 1".to_string()));
        }
        for (field, seconds) in [
            ("build_wall_seconds", self.build_wall_seconds),
            ("build_cpu_seconds", self.build_cpu_seconds),
            ("test_wall_seconds", self.test_wall_seconds),
        ] {
            if !(seconds.is_finite() && seconds > 0.0) {
                return Err((
                    field,
                    format!("{seconds} is not a positive number of seconds"),
                ));
            }
        }
        if self.build_cpu_seconds < MIN_BUILD_CPU_SECONDS {
            return Err((
                "build_cpu_seconds",
                format!(
                    "{} s is less than any build of this workspace ({MIN_BUILD_CPU_SECONDS} s)",
                    self.build_cpu_seconds
                ),
            ));
        }
        Ok(())
    }

    /// The README's paragraph, made from this record only.
    pub fn paragraph(&self) -> String {
        let short_commit = &self.commit[..self.commit.len().min(7)];
        let rustc = self.rustc.split_whitespace().nth(1).unwrap_or(&self.rustc);
        let day = self.date.get(..10).unwrap_or(&self.date);
        let machine = match &self.cpu_model {
            Some(model) => format!("a {}-core machine ({model})", self.cpus),
            None => format!("a {}-core machine", self.cpus),
        };
        format!(
            "Generated by `cargo xtask build-time` from {RECORDS_DIR}/{RECORD_FILE}: do not edit \
             between the markers. On a fresh clone of commit {short_commit} on {machine}, the \
             first `cargo test --workspace` built for {} ({:.1} CPU-minutes) and then ran its \
             tests in {} (rustc {rustc}, measured {day}).\n",
            duration(self.build_wall_seconds),
            self.build_cpu_seconds / 60.0,
            duration(self.test_wall_seconds),
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
pub(crate) fn record_path() -> PathBuf {
    Path::new(RECORDS_DIR).join(RECORD_FILE)
}

/// Reads a record and checks its meaning: a problem is one line naming the
/// file and the field.
pub fn read(path: &Path) -> Result<BuildTime, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| Error::Usage(format!("{}: cannot read: {error}", path.display())))?;
    let record: BuildTime = files::from_json(path, &text, "not a build-time record")
        .map_err(|error| Error::Usage(error.to_string()))?;
    record.check().map_err(|(field, problem)| {
        Error::Usage(format!("{}: field `{field}`: {problem}", path.display()))
    })?;
    Ok(record)
}

/// `readme` with its build-time paragraph made from `record`.
pub(crate) fn spliced(readme: &str, record: &BuildTime) -> Result<String, Error> {
    queens_report::splice_section(readme, SECTION, &record.paragraph())
        .map_err(|problem| Error::Usage(format!("README.md: {problem}")))
}

/// Fails unless README.md's build-time paragraph is what the committed
/// record makes (run by `cargo xtask ci checks` and by this crate's tests).
pub fn readme_reproduces(root: &Path) -> Result<(), Error> {
    let record = read(&root.join(record_path()))?;
    let readme = crate::architecture::source::read(&root.join("README.md"))?;
    if spliced(&readme, &record)? != readme {
        return Err(Error::Failed(format!(
            "README.md's build-time paragraph is not what {} makes: run `cargo xtask build-time --splice-only`",
            record_path().display()
        )));
    }
    Ok(())
}

/// Runs it.
pub fn run(args: &Args) -> Result<(), Error> {
    if !args.splice_only {
        let record = measure(args.allow_dirty)?;
        record
            .check()
            .map_err(|(field, problem)| Error::Failed(format!("measured {field}: {problem}")))?;
        let mut json = serde_json::to_string_pretty(&record)
            .map_err(|error| Error::Failed(format!("cannot encode the record: {error}")))?;
        json.push('\n');
        // On purpose: the README states one build time, the newest.
        files::replace_atomically(&record_path(), json.as_bytes())
            .map_err(|error| Error::Failed(error.to_string()))?;
        println!("wrote {}", record_path().display());
    }
    let record = read(&record_path())?;
    let readme_path = Path::new("README.md");
    let readme = crate::architecture::source::read(readme_path)?;
    files::replace_atomically(readme_path, spliced(&readme, &record)?.as_bytes())
        .map_err(|error| Error::Failed(error.to_string()))?;
    println!("spliced README.md: {}", record.paragraph().trim_end());
    Ok(())
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
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("RUSTC_WRAPPER")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env("CARGO_TARGET_DIR", target);
    command
}

/// The first "model name" of /proc/cpuinfo.
fn cpu_model() -> Option<String> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    cpuinfo_model(&cpuinfo)
}

/// The first "model name" line's value.
pub(crate) fn cpuinfo_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == "model name" && !value.trim().is_empty())
            .then(|| value.split_whitespace().collect::<Vec<_>>().join(" "))
    })
}

fn git(args: &[&str]) -> Result<String, Error> {
    process::stdout(Command::new("git").args(args)).map(|out| out.trim().to_string())
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
    let scratch = tempfile::tempdir()
        .map_err(|error| Error::Failed(format!("no scratch directory: {error}")))?;
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

    println!("build-time: cargo test --workspace --no-run (the build, timed)");
    let cpu_before = children_cpu_time();
    let start = Instant::now();
    process::run(cargo(&clone, &target).args(["test", "--workspace", "--no-run"]))?;
    let build_wall = start.elapsed();
    let build_cpu = children_cpu_time().saturating_sub(cpu_before);

    println!("build-time: cargo test --workspace (the tests, timed)");
    let start = Instant::now();
    process::run(
        cargo(&clone, &target)
            .args(["test", "--workspace"])
            .env("QUEENS_REQUIRE_GPU", "1")
            .env("NODEVICE_SELECT", "1"),
    )?;
    let test_wall = start.elapsed();

    Ok(BuildTime {
        format: FORMAT.to_string(),
        format_version: FORMAT_VERSION,
        commit,
        date: queens_record::utc_timestamp(SystemTime::now()),
        rustc: rustc.trim().to_string(),
        cargo: cargo_version.trim().to_string(),
        cpus: std::thread::available_parallelism().map_or(1, usize::from),
        cpu_model: cpu_model(),
        build_wall_seconds: build_wall.as_secs_f64(),
        build_cpu_seconds: build_cpu.as_secs_f64(),
        test_wall_seconds: test_wall.as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> BuildTime {
        BuildTime {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            commit: "abc1234".repeat(5) + "abcde",
            date: "2026-11-24T09:10:11.123Z".to_string(),
            rustc: "rustc 1.95.0 (abcdef012 2026-10-01)".to_string(),
            cargo: "cargo 1.95.0 (abcdef012 2026-10-01)".to_string(),
            cpus: 2,
            cpu_model: Some("Some CPU @ 2.20GHz".to_string()),
            build_wall_seconds: 426.0,
            build_cpu_seconds: 708.0,
            test_wall_seconds: 96.4,
        }
    }

    #[test]
    fn a_sound_record_passes_and_makes_the_paragraph() {
        let record = record();
        assert_eq!(record.check(), Ok(()));
        assert_eq!(
            record.paragraph(),
            "Generated by `cargo xtask build-time` from bench-results/build-time.json: do not \
             edit between the markers. On a fresh clone of commit abc1234 on a 2-core machine \
             (Some CPU @ 2.20GHz), the first `cargo test --workspace` built for 7.1 minutes \
             (11.8 CPU-minutes) and then ran its tests in 96 s (rustc 1.95.0, measured \
             2026-11-24).\n"
        );
        let unknown_cpu = BuildTime {
            cpu_model: None,
            ..record
        };
        assert!(
            unknown_cpu
                .paragraph()
                .contains("on a 2-core machine, the first")
        );
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
        let spoilt: [Spoilt; 8] = [
            ("commit", |r| r.commit = "abc1234".to_string()),
            ("commit", |r| r.commit = "z".repeat(40)),
            ("format", |r| r.format = "queens-bench-record".to_string()),
            ("format_version", |r| r.format_version = 2),
            ("build_wall_seconds", |r| r.build_wall_seconds = -1.0),
            ("test_wall_seconds", |r| r.test_wall_seconds = f64::NAN),
            ("cpus", |r| r.cpus = 0),
            ("build_cpu_seconds", |r| r.build_cpu_seconds = 0.01),
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
        let path = dir.path().join(RECORD_FILE);
        let bad = BuildTime {
            commit: "abc".to_string(),
            ..record()
        };
        std::fs::write(&path, serde_json::to_string(&bad).unwrap()).unwrap();
        let message = read(&path).unwrap_err().to_string();
        assert!(
            message.contains("build-time.json: field `commit`"),
            "{message}"
        );
        std::fs::write(&path, r#"{"format": "queens-build-time", "extra": 1}"#).unwrap();
        let message = read(&path).unwrap_err().to_string();
        assert!(message.contains("not a build-time record"), "{message}");
        std::fs::write(&path, serde_json::to_string(&record()).unwrap()).unwrap();
        assert_eq!(read(&path).unwrap(), record());
    }

    #[test]
    fn the_cpu_model_is_the_first_model_name() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: X\nmodel name\t: Some  CPU @ 2.20GHz\n\n\
                       processor\t: 1\nmodel name\t: Other\n";
        assert_eq!(
            cpuinfo_model(cpuinfo).as_deref(),
            Some("Some CPU @ 2.20GHz")
        );
        assert_eq!(cpuinfo_model("processor\t: 0\n"), None);
    }

    #[test]
    fn the_readme_paragraph_is_what_the_committed_record_makes() {
        // A figure edited by hand between the markers fails here.
        readme_reproduces(&workspace::root()).unwrap();
    }

    #[test]
    fn a_hand_edited_paragraph_is_caught() {
        let readme = format!(
            "intro\n<!-- BEGIN: build-time -->\n{}<!-- END: build-time -->\n",
            record().paragraph()
        );
        assert_eq!(spliced(&readme, &record()).unwrap(), readme);
        let edited = readme.replace("7.1 minutes", "2.0 minutes");
        assert_ne!(spliced(&edited, &record()).unwrap(), edited);
    }
}
