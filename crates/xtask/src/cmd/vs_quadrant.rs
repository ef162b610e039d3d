//! `cargo xtask vs-quadrant`: half-join against E. Kluev's quadrant join,
//! the published counter it is measured against, as a committed record and
//! the README's table made from it.
//!
//! It builds `queens` in release and the quadrant join's binaries with
//! `examples/external/quadrant/build.sh` (once for x86-64-v3, once native;
//! sizes already built are skipped), then times two comparisons on one
//! thread each, whole processes by the wall clock:
//!
//! - `avx2`: half-join pinned to its AVX2 kernel (`QUEENS_KERNEL=avx2`)
//!   against the quadrant join built for x86-64-v3 (AVX2 and BMI2, no
//!   AVX-512), the same instructions on both sides;
//! - `best`: half-join at the best level this CPU has against the quadrant
//!   join built with `-march=native`.
//!
//! Each round runs every (n, comparison, side) once in a fixed order, so a
//! slow spell of the machine hits every figure alike. Every count is checked
//! against OEIS; a wrong or missing one stops it before anything is
//! written. The samples go to `bench-results/vs-quadrant.json` (replaced on
//! purpose: the README states one comparison, the newest); the medians and
//! ratios are computed from them when the table is made, as build-time
//! computes its sums, so the record holds nothing derived that could
//! disagree. The table goes between `<!-- BEGIN: vs-quadrant -->` and
//! `<!-- END: vs-quadrant -->` in README.md; `--splice-only` remakes it from
//! the committed record, and `cargo xtask ci checks` fails if it differs.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Instant, SystemTime};

use queens_record::files;
use serde::{Deserialize, Serialize};

use crate::readme_record::{self, Problem, ReadmeRecord};
use crate::stats::median_seconds;
use crate::{Error, process, workspace};

/// The record's `format`.
pub const FORMAT: &str = "queens-vs-quadrant";
/// The record's `format_version`: changes whenever a field is added,
/// removed or changes meaning.
pub const FORMAT_VERSION: u32 = 1;
/// The sizes the quadrant join is built for here (build.sh's default).
const SIZES: std::ops::RangeInclusive<u32> = 14..=20;
/// The CPU flags the record keeps: those that decide which kernels either
/// side can use.
const FLAGS: [&str; 4] = ["avx2", "bmi2", "avx512f", "avx512vl"];
/// half-join's levels, as `QUEENS_KERNEL` names them.
const LEVELS: [&str; 4] = ["portable", "sse2", "avx2", "avx512"];
/// The comparisons, in the order every round runs them: (name, half-join's
/// `QUEENS_KERNEL`, the quadrant join's `-march`). `None`: the best level.
const COMPARISONS: [(&str, Option<&str>, &str); 2] = [
    ("avx2", Some("avx2"), "x86-64-v3"),
    ("best", None, "native"),
];

/// How to run it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The smallest board size (14 to 20).
    #[arg(long, default_value_t = 16)]
    pub min_n: u32,
    /// The largest board size (14 to 20).
    #[arg(long, default_value_t = 18)]
    pub max_n: u32,
    /// How many times each program runs at each size.
    #[arg(long, default_value = "5")]
    pub rounds: NonZeroUsize,
    /// Only remake the README's table from the committed record.
    #[arg(long)]
    pub splice_only: bool,
}

/// One board size of one comparison: every sample of both sides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Size {
    /// The board size.
    pub n: u32,
    /// The count both sides gave (each checked against OEIS as it ran).
    pub solutions: u64,
    /// half-join's whole-process wall-clock seconds, one per round.
    pub half_join_seconds: Vec<f64>,
    /// The quadrant join's, one per round.
    pub quadrant_seconds: Vec<f64>,
}

impl Size {
    /// (half-join's median, the quadrant join's median, their ratio:
    /// below 1 when half-join is faster).
    pub fn medians(&self) -> (f64, f64, f64) {
        let half_join = median_seconds(&self.half_join_seconds);
        let quadrant = median_seconds(&self.quadrant_seconds);
        (half_join, quadrant, half_join / quadrant)
    }
}

/// One comparison: the level each side counts at, and its sizes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Comparison {
    /// `avx2` or `best`.
    pub name: String,
    /// half-join's kernel level, as the binary reported it.
    pub half_join_kernel: String,
    /// The `-march` the quadrant join was built with.
    pub quadrant_march: String,
    /// By increasing n.
    pub sizes: Vec<Size>,
}

/// One run of both comparisons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VsQuadrant {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The commit `queens` was built from: 40 hexadecimal digits.
    pub commit: String,
    /// When it was measured: UTC, RFC 3339.
    pub date: String,
    /// `rustc -V`.
    pub rustc: String,
    /// The first line of `g++ --version`, which built every quadrant binary.
    pub gxx: String,
    /// The commit of the quadrant join's sources, from build.sh's `version`.
    pub quadrant_commit: String,
    /// The CPU's model name from /proc/cpuinfo, when it could be read.
    pub cpu_model: Option<String>,
    /// Those of avx2, bmi2, avx512f and avx512vl this CPU has.
    pub cpu_flags: Vec<String>,
    /// How many samples each side has at each size.
    pub rounds: NonZeroUsize,
    /// `avx2`, then `best`.
    pub comparisons: Vec<Comparison>,
}

fn problem(field: impl Into<String>, why: impl Into<String>) -> Result<(), Problem> {
    Err((field.into(), why.into()))
}

impl ReadmeRecord for VsQuadrant {
    crate::readme_record_consts!("vs-quadrant", FORMAT, FORMAT_VERSION);

    fn check(&self) -> Result<(), Problem> {
        if !(self.commit.len() == 40 && self.commit.bytes().all(|b| b.is_ascii_hexdigit())) {
            return problem("commit", format!("'{}' is not 40 hex digits", self.commit));
        }
        if let Some(flag) = self.cpu_flags.iter().find(|f| !FLAGS.contains(&f.as_str())) {
            return problem("cpu_flags", format!("'{flag}' is not one of {FLAGS:?}"));
        }
        let names: Vec<&str> = self.comparisons.iter().map(|c| c.name.as_str()).collect();
        if names != ["avx2", "best"] {
            return problem(
                "comparisons",
                format!("{names:?} is not [\"avx2\", \"best\"]"),
            );
        }
        let sizes = |c: &Comparison| c.sizes.iter().map(|s| s.n).collect::<Vec<_>>();
        for (i, comparison) in self.comparisons.iter().enumerate() {
            let at = format!("comparisons[{i}]");
            if !LEVELS.contains(&comparison.half_join_kernel.as_str()) {
                let why = format!("'{}' is not one of {LEVELS:?}", comparison.half_join_kernel);
                return problem(format!("{at}.half_join_kernel"), why);
            }
            let ns = sizes(comparison);
            if ns.is_empty() || ns != sizes(&self.comparisons[0]) {
                return problem(format!("{at}.sizes"), "no sizes, or not those of the first");
            }
            for (j, size) in comparison.sizes.iter().enumerate() {
                let at = format!("{at}.sizes[{j}]");
                if !SIZES.contains(&size.n) || (j > 0 && size.n <= ns[j - 1]) {
                    return problem(
                        format!("{at}.n"),
                        format!("{} is out of order or 14..=20", size.n),
                    );
                }
                // Every size of SIZES has a published count.
                let published = queens_core::oeis::total(size.n as usize).unwrap_or_default();
                if published != size.solutions {
                    let why = format!("{} is not OEIS A000170's {published}", size.solutions);
                    return problem(format!("{at}.solutions"), why);
                }
                for (side, samples) in [
                    ("half_join_seconds", &size.half_join_seconds),
                    ("quadrant_seconds", &size.quadrant_seconds),
                ] {
                    if samples.len() != self.rounds.get() {
                        let why = format!(
                            "{} samples, not one per round ({})",
                            samples.len(),
                            self.rounds
                        );
                        return problem(format!("{at}.{side}"), why);
                    }
                    if samples.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
                        return problem(
                            format!("{at}.{side}"),
                            "a sample is not a positive number of seconds",
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// The README's sentence and table.
    fn section(&self) -> String {
        let short_commit = &self.commit[..self.commit.len().min(7)];
        let day = self.date.get(..10).unwrap_or(&self.date);
        let cpu = self.cpu_model.as_deref().unwrap_or("an unknown CPU");
        let flags = match self.cpu_flags.is_empty() {
            true => "none of AVX2, BMI2, AVX-512".to_string(),
            false => self.cpu_flags.join(", "),
        };
        let (avx2, best) = (&self.comparisons[0], &self.comparisons[1]);
        let rounds = match self.rounds.get() {
            1 => "1 round".to_string(),
            r => format!("medians of {r} rounds"),
        };
        let mut text = format!(
            "Generated by `cargo xtask vs-quadrant` from {}: do not edit \
             between the markers. Measured on {cpu} ({flags}) at commit {short_commit}, {day}: \
             {rounds}, one thread each, whole processes timed, every count checked against OEIS; \
             quadrant join {} built by {}. Ratio: half-join's time over the quadrant join's \
             (below 1: half-join is faster).\n\n\
             | n | half-join, {} | quadrant, {} | ratio | half-join, {} (best) | quadrant, {} | ratio |\n\
             |---:|---:|---:|---:|---:|---:|---:|\n",
            readme_record::path::<Self>().display(),
            self.quadrant_commit,
            self.gxx,
            avx2.half_join_kernel,
            avx2.quadrant_march,
            best.half_join_kernel,
            best.quadrant_march,
        );
        for (a, b) in avx2.sizes.iter().zip(&best.sizes) {
            let ((ah, aq, ar), (bh, bq, br)) = (a.medians(), b.medians());
            text.push_str(&format!(
                "| {} | {} | {} | {ar:.2} | {} | {} | {br:.2} |\n",
                a.n,
                seconds(ah),
                seconds(aq),
                seconds(bh),
                seconds(bq)
            ));
        }
        text
    }
}

/// Seconds with three significant digits or whole seconds.
pub(crate) fn seconds(s: f64) -> String {
    match s {
        s if s < 1.0 => format!("{s:.3} s"),
        s if s < 10.0 => format!("{s:.2} s"),
        s if s < 100.0 => format!("{s:.1} s"),
        s => format!("{s:.0} s"),
    }
}

/// Runs it.
pub fn run(args: &Args) -> Result<(), Error> {
    readme_record::run(args.splice_only, || measure(args))
}

/// Those of [`FLAGS`] this CPU has (and the OS lets programs use).
fn cpu_flags() -> Vec<String> {
    #[cfg(target_arch = "x86_64")]
    let has = [
        std::is_x86_feature_detected!("avx2"),
        std::is_x86_feature_detected!("bmi2"),
        std::is_x86_feature_detected!("avx512f"),
        std::is_x86_feature_detected!("avx512vl"),
    ];
    #[cfg(not(target_arch = "x86_64"))]
    let has = [false; 4];
    FLAGS
        .iter()
        .zip(has)
        .filter(|(_, has)| *has)
        .map(|(flag, _)| flag.to_string())
        .collect()
}

/// What it cannot do, refused in one line before anything runs.
fn refusal(args: &Args, flags: &[String]) -> Option<String> {
    let sizes = format!("{}..={}", args.min_n, args.max_n);
    if !(SIZES.contains(&args.min_n) && SIZES.contains(&args.max_n) && args.min_n <= args.max_n) {
        Some(format!(
            "sizes {sizes}: the quadrant join is built here for sizes within 14..=20"
        ))
    } else if !cfg!(target_arch = "x86_64") {
        Some("the quadrant join's builds and half-join's AVX2 kernel need x86-64".to_string())
    } else if !(flags.iter().any(|f| f == "avx2") && flags.iter().any(|f| f == "bmi2")) {
        Some("this CPU has no AVX2 with BMI2, which the avx2 comparison needs".to_string())
    } else {
        None
    }
}

/// The quadrant join's folder of binaries for `march`, as build.sh makes it
/// (examples/external/quadrant/common.sh).
fn quadrant_build(march: &str) -> Result<PathBuf, Error> {
    let cache = match (std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME")) {
        (Some(dir), _) if !dir.is_empty() => PathBuf::from(dir),
        (_, Some(home)) if !home.is_empty() => Path::new(&home).join(".cache"),
        _ => {
            return Err(Error::Usage(
                "vs-quadrant: neither XDG_CACHE_HOME nor HOME is set".into(),
            ));
        }
    };
    Ok(cache.join("queens/quadrant/build").join(march))
}

/// Runs build.sh for the sizes and `march`. Its refusals (exit 2: g++ or
/// the sources missing) are passed on as its one line.
fn build_quadrant(sizes: &str, march: &str) -> Result<(), Error> {
    let mut command = Command::new("sh");
    command
        .arg("examples/external/quadrant/build.sh")
        .env("QUADRANT_SIZES", sizes)
        .env("QUADRANT_MARCH", march)
        .stdin(Stdio::null())
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped());
    let output = command
        .output()
        .map_err(|e| Error::Failed(format!("cannot run build.sh: {e}")))?;
    let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
    match output.status.code() {
        Some(0) => Ok(()),
        Some(2) => Err(Error::Usage(stderr)),
        _ => Err(Error::Failed(format!(
            "`{}` failed ({}): {stderr}",
            process::describe(&command),
            output.status
        ))),
    }
}

/// The commit of the sources every binary was built from, from build.sh's
/// `version` lines: refused unless all of them name one commit and the g++
/// that is here (a binary left in the cache by an older build would
/// otherwise be measured as this one).
fn quadrant_commit(ns: &[u32], gxx: &str) -> Result<String, Error> {
    let mut commits = Vec::new();
    for (_, _, march) in COMPARISONS {
        for n in ns {
            let path = quadrant_build(march)?.join(n.to_string()).join("version");
            let line = files::read_text(&path)?;
            let commit = line
                .strip_prefix("quadrant join ")
                .and_then(|rest| rest.split(',').next())
                .filter(|_| line.contains(gxx));
            commits.push(commit.map(str::to_string).ok_or_else(|| {
                Error::Failed(format!(
                    "{}: '{}' is not a build by {gxx}: remove its folder and rerun",
                    path.display(),
                    line.trim()
                ))
            })?);
        }
    }
    commits.dedup();
    match commits.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(Error::Failed(format!(
            "the quadrant binaries come from different sources ({commits:?}): remove them and rerun"
        ))),
    }
}

/// half-join's level with `QUEENS_KERNEL` set to `kernel` (unset: the
/// best), as the binary itself reports it (`queens explain half-join`).
fn half_join_level(queens: &Path, kernel: Option<&str>) -> Result<String, Error> {
    let mut command = Command::new(queens);
    command.args(["explain", "half-join", "--engineering", "--markdown"]);
    with_kernel(&mut command, kernel);
    let text = process::stdout(&mut command)?;
    let level = text
        .lines()
        .find_map(|line| line.strip_prefix("Kernel on this machine: "))
        .and_then(|rest| rest.split([' ', ';']).next())
        .filter(|level| LEVELS.contains(level));
    level.map(str::to_string).ok_or_else(|| {
        Error::Failed(format!(
            "`{}` names no kernel level",
            process::describe(&command)
        ))
    })
}

fn with_kernel(command: &mut Command, kernel: Option<&str>) {
    match kernel {
        Some(level) => command.env("QUEENS_KERNEL", level),
        None => command.env_remove("QUEENS_KERNEL"),
    };
}

/// Runs `command` once, timed as a whole process, and returns its seconds
/// after checking the count `count` reads from its standard output.
fn timed(command: &mut Command, n: u32, count: impl Fn(&str) -> Option<u64>) -> Result<f64, Error> {
    command.stdin(Stdio::null()).stderr(Stdio::inherit());
    let start = Instant::now();
    let output = command.output();
    let elapsed = start.elapsed().as_secs_f64();
    let output = output
        .map_err(|e| Error::Failed(format!("cannot run `{}`: {e}", process::describe(command))))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let expected = queens_core::oeis::total(n as usize).unwrap_or_default();
    let got = output.status.success().then(|| count(&stdout)).flatten();
    if got != Some(expected) {
        let got = got.map_or("nothing".into(), |got| got.to_string());
        return Err(Error::Failed(format!(
            "`{}` ({}) counted {got} at n = {n}, not OEIS A000170's {expected}: nothing written",
            process::describe(command),
            output.status
        )));
    }
    Ok(elapsed)
}

fn measure(args: &Args) -> Result<VsQuadrant, Error> {
    let flags = cpu_flags();
    if let Some(why) = refusal(args, &flags) {
        return Err(Error::Usage(format!("vs-quadrant: {why}")));
    }
    let ns: Vec<u32> = (args.min_n..=args.max_n).collect();
    let sizes = ns.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    // `cargo build --release`, whose default member is queens-harness (or
    // `$QUEENS`, as for every chore that runs the binary).
    let queens = workspace::queens_binary("vs-quadrant")?;
    for (_, _, march) in COMPARISONS {
        build_quadrant(&sizes, march)?;
    }
    let gxx = process::stdout(Command::new("g++").arg("--version"))?;
    let gxx = gxx.lines().next().unwrap_or_default().trim().to_string();
    let rustc = process::stdout(Command::new("rustc").arg("-V"))?
        .trim()
        .to_string();
    let commit = queens_record::git(&["rev-parse", "HEAD"])
        .ok_or_else(|| Error::Failed("`git rev-parse HEAD` failed".to_string()))?;
    if queens_record::git(&["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|s| !s.is_empty())
    {
        eprintln!(
            "vs-quadrant: tracked files have uncommitted changes; the record names HEAD, {commit}"
        );
    }

    let quadrant_commit = quadrant_commit(&ns, &gxx)?;
    let mut comparisons = Vec::new();
    for (name, kernel, march) in COMPARISONS {
        comparisons.push(Comparison {
            name: name.to_string(),
            half_join_kernel: half_join_level(&queens, kernel)?,
            quadrant_march: march.to_string(),
            sizes: ns
                .iter()
                .map(|&n| Size {
                    n,
                    solutions: queens_core::oeis::total(n as usize).unwrap_or(0),
                    half_join_seconds: Vec::new(),
                    quadrant_seconds: Vec::new(),
                })
                .collect(),
        });
    }

    let result = regex::Regex::new(r"Result: (\d+)").expect("a valid regex");
    for round in 1..=args.rounds.get() {
        eprintln!("vs-quadrant: round {round} of {}", args.rounds);
        for (i, &n) in ns.iter().enumerate() {
            for ((_, kernel, march), comparison) in COMPARISONS.iter().zip(&mut comparisons) {
                let mut half_join = Command::new(&queens);
                half_join
                    .args(["count", &n.to_string(), "--solver", "half-join"])
                    .args(["--threads", "1", "--json", "--quiet"]);
                with_kernel(&mut half_join, *kernel);
                let seconds = timed(&mut half_join, n, |out| {
                    let answer: serde_json::Value = serde_json::from_str(out.trim()).ok()?;
                    answer.get("solutions")?.as_u64()
                })?;
                comparison.sizes[i].half_join_seconds.push(seconds);
                let mut quadrant =
                    Command::new(quadrant_build(march)?.join(n.to_string()).join("nq"));
                quadrant.arg("1");
                let seconds = timed(&mut quadrant, n, |out| {
                    result.captures(out)?[1].parse().ok()
                })?;
                comparison.sizes[i].quadrant_seconds.push(seconds);
            }
        }
    }

    Ok(VsQuadrant {
        format: FORMAT.to_string(),
        format_version: FORMAT_VERSION,
        commit,
        date: queens_record::utc_timestamp(SystemTime::now()),
        rustc,
        gxx,
        quadrant_commit,
        cpu_model: Some(queens_record::cpu_model()).filter(|model| model != "unknown"),
        cpu_flags: flags,
        rounds: args.rounds,
        comparisons,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readme_record::{read, readme_reproduces};
    use queens_record::RECORDS_DIR;

    fn size(n: u32, solutions: u64, half_join: [f64; 3], quadrant: [f64; 3]) -> Size {
        Size {
            n,
            solutions,
            half_join_seconds: half_join.to_vec(),
            quadrant_seconds: quadrant.to_vec(),
        }
    }

    fn record() -> VsQuadrant {
        let comparison = |name: &str, kernel: &str, march: &str, scale: f64| Comparison {
            name: name.to_string(),
            half_join_kernel: kernel.to_string(),
            quadrant_march: march.to_string(),
            sizes: vec![
                size(
                    16,
                    14_772_512,
                    [0.05, 0.04, 0.06].map(|s| s * scale),
                    [0.08, 0.1, 0.09],
                ),
                size(
                    17,
                    95_815_104,
                    [0.3, 0.2, 0.25].map(|s| s * scale),
                    [0.5, 0.6, 0.55],
                ),
            ],
        };
        VsQuadrant {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            commit: "abc1234".repeat(5) + "abcde",
            date: "2026-11-29T05:00:00.000Z".to_string(),
            rustc: "rustc 1.95.0 (abcdef012 2026-10-01)".to_string(),
            gxx: "g++ (Debian 12.2.0-14+deb12u1) 12.2.0".to_string(),
            quadrant_commit: "580f44458d14".to_string(),
            cpu_model: Some("AMD EPYC".to_string()),
            cpu_flags: vec![
                "avx2".into(),
                "bmi2".into(),
                "avx512f".into(),
                "avx512vl".into(),
            ],
            rounds: NonZeroUsize::new(3).unwrap(),
            comparisons: vec![
                comparison("avx2", "avx2", "x86-64-v3", 1.0),
                comparison("best", "avx512", "native", 0.5),
            ],
        }
    }

    #[test]
    fn medians_and_ratios() {
        let (h, q, r) = size(16, 0, [0.3, 0.1, 0.2], [0.5, 0.4, 0.45]).medians();
        assert!((h - 0.2).abs() < 1e-12 && (q - 0.45).abs() < 1e-12);
        assert!((r - 0.2 / 0.45).abs() < 1e-12);
        let even = Size {
            half_join_seconds: vec![1.0, 4.0, 2.0, 3.0],
            quadrant_seconds: vec![2.0, 8.0, 4.0, 6.0],
            ..size(16, 0, [0.0; 3], [0.0; 3])
        };
        assert_eq!(even.medians(), (2.5, 5.0, 0.5));
    }

    #[test]
    fn a_sound_record_makes_the_table() {
        let record = record();
        assert_eq!(record.check(), Ok(()));
        assert_eq!(
            record.section(),
            "Generated by `cargo xtask vs-quadrant` from bench-results/vs-quadrant.json: do not \
             edit between the markers. Measured on AMD EPYC (avx2, bmi2, avx512f, avx512vl) at \
             commit abc1234, 2026-11-29: medians of 3 rounds, one thread each, whole processes \
             timed, every count checked against OEIS; quadrant join 580f44458d14 built by g++ \
             (Debian 12.2.0-14+deb12u1) 12.2.0. Ratio: half-join's time over the quadrant \
             join's (below 1: half-join is faster).\n\n\
             | n | half-join, avx2 | quadrant, x86-64-v3 | ratio | half-join, avx512 (best) | quadrant, native | ratio |\n\
             |---:|---:|---:|---:|---:|---:|---:|\n\
             | 16 | 0.050 s | 0.090 s | 0.56 | 0.025 s | 0.090 s | 0.28 |\n\
             | 17 | 0.250 s | 0.550 s | 0.45 | 0.125 s | 0.550 s | 0.23 |\n"
        );
    }

    #[test]
    fn seconds_keep_three_digits() {
        assert_eq!(seconds(0.0456), "0.046 s");
        assert_eq!(seconds(3.2184), "3.22 s");
        assert_eq!(seconds(31.24), "31.2 s");
        assert_eq!(seconds(314.6), "315 s");
    }

    #[test]
    fn a_record_that_means_something_else_is_refused_by_field() {
        type Spoilt = (&'static str, fn(&mut VsQuadrant));
        let spoilt: [Spoilt; 7] = [
            ("commit", |r| r.commit = "abc".into()),
            ("cpu_flags", |r| r.cpu_flags.push("sse9".into())),
            ("comparisons", |r| r.comparisons.swap(0, 1)),
            ("comparisons[1].half_join_kernel", |r| {
                r.comparisons[1].half_join_kernel = "fast".into()
            }),
            ("comparisons[0].sizes[1].solutions", |r| {
                r.comparisons[0].sizes[1].solutions += 1
            }),
            ("comparisons[1].sizes[0].quadrant_seconds", |r| {
                r.comparisons[1].sizes[0].quadrant_seconds.pop();
            }),
            ("comparisons[0].sizes[0].half_join_seconds", |r| {
                r.comparisons[0].sizes[0].half_join_seconds[1] = -1.0;
            }),
        ];
        for (field, spoil) in spoilt {
            let mut bad = record();
            spoil(&mut bad);
            assert_eq!(bad.check().unwrap_err().0, field, "{bad:?}");
        }
    }

    #[test]
    fn reading_refuses_another_header_and_a_wrong_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(VsQuadrant::FILE);
        let write = |record: &VsQuadrant| {
            std::fs::write(&path, serde_json::to_string(record).unwrap()).unwrap()
        };
        write(&VsQuadrant {
            format: "queens-build-time".into(),
            ..record()
        });
        let message = read::<VsQuadrant>(&path).unwrap_err().to_string();
        assert!(message.contains("not a vs-quadrant record"), "{message}");
        write(&VsQuadrant {
            format_version: 2,
            ..record()
        });
        let message = read::<VsQuadrant>(&path).unwrap_err().to_string();
        assert!(message.contains("field `format_version`"), "{message}");
        let mut no_rounds = serde_json::to_value(record()).unwrap();
        no_rounds["rounds"] = 0.into();
        std::fs::write(&path, no_rounds.to_string()).unwrap();
        let message = read::<VsQuadrant>(&path).unwrap_err().to_string();
        assert!(message.contains("field `rounds`"), "{message}");
        let mut wrong = record();
        wrong.comparisons[1].sizes[0].solutions = 14_772_513;
        write(&wrong);
        let message = read::<VsQuadrant>(&path).unwrap_err().to_string();
        assert!(
            message.contains("vs-quadrant.json: field `comparisons[1].sizes[0].solutions`"),
            "{message}"
        );
        write(&record());
        assert_eq!(read::<VsQuadrant>(&path).unwrap(), record());
    }

    #[test]
    fn the_readme_check_catches_an_edit_and_an_unshown_record() {
        let dir = tempfile::tempdir().unwrap();
        let readme = dir.path().join("README.md");
        std::fs::write(&readme, "intro\n").unwrap();
        assert!(readme_reproduces::<VsQuadrant>(dir.path()).is_ok());
        std::fs::create_dir(dir.path().join(RECORDS_DIR)).unwrap();
        workspace::write_json(
            &dir.path().join(readme_record::path::<VsQuadrant>()),
            &record(),
        )
        .unwrap();
        let message = readme_reproduces::<VsQuadrant>(dir.path())
            .unwrap_err()
            .to_string();
        assert!(message.contains("no vs-quadrant markers"), "{message}");
        let table = format!(
            "intro\n<!-- BEGIN: vs-quadrant -->\n{}<!-- END: vs-quadrant -->\n",
            record().section()
        );
        std::fs::write(&readme, &table).unwrap();
        assert!(readme_reproduces::<VsQuadrant>(dir.path()).is_ok());
        std::fs::write(&readme, table.replace("0.56", "0.50")).unwrap();
        let message = readme_reproduces::<VsQuadrant>(dir.path())
            .unwrap_err()
            .to_string();
        assert!(message.contains("--splice-only"), "{message}");
    }
}
