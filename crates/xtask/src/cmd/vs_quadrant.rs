//! `cargo xtask vs-quadrant SIZES [RUNS]` (scripts/vs-quadrant): half-join
//! against E. Kluev's quadrant join, one thread each, side by side.
//!
//! The anchor half-join is measured against: Kluev's counter
//! (github.com/EvgenyKluev/N-Queens-Count-Sol), built here from its own
//! sources, never copied into this repository. Its board size and tuning
//! are compile-time constants in solcounter.h, so one binary is built per
//! size, with g++ -std=c++20 -O3 -march=native, prefetch and BMI2 compiled
//! in, and the per-size parameters of the table in its solcounter.h (sizes
//! below 16 take the row of 16). Sources: `$QUADRANT_SRC` if set (a
//! checkout), else a clone cached in `${XDG_CACHE_HOME:-~/.cache}/queens/quadrant`.
//!
//! Each round runs both counters on every size, interleaved, so a shared
//! machine's slow spells hit both alike. Every run's count must equal the
//! other counter's: a difference stops it (exit 1). Prints, per size, the
//! median wall seconds of each, their ratio and peak memory.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::counts::{CountJson, number};
use crate::stats::median_seconds;
use crate::{Error, process, workspace};

const CHORE: &str = "scripts/vs-quadrant";

/// SIZES and RUNS, as the script takes them (checked by [`plan`]).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board sizes, like 14,16,18 (14 <= n <= 22).
    pub sizes: Option<String>,
    /// Rounds (default 5).
    pub runs: Option<String>,
}

fn usage() -> Error {
    Error::Usage(
        "usage: scripts/vs-quadrant SIZES [RUNS]   (SIZES like 14,16,18; 14 <= n <= 22)"
            .to_string(),
    )
}

/// The sizes and the number of rounds.
pub fn plan(sizes: Option<&str>, runs: Option<&str>) -> Result<(Vec<usize>, usize), Error> {
    let sizes: Vec<usize> = sizes
        .ok_or_else(usage)?
        .split(',')
        .map(|word| number(word).filter(|n| (14..=22).contains(n)))
        .collect::<Option<_>>()
        .ok_or_else(usage)?;
    let runs = runs.map_or(Some(5), |word| number(word).filter(|&r| r >= 1));
    let runs = runs.ok_or_else(usage)?;
    Ok((sizes, runs))
}

/// The row of the table in its solcounter.h for a size (14 to 22):
/// `.sieveCuts`, `.matchMinSize`, `.bmiIntrin`, `.prefetch` (a '*' there
/// is taken as true) and the symmetry of `Subsquare`.
pub fn params(n: usize) -> (u32, u32, bool, bool, &'static str) {
    match n {
        ..=18 => (0, 40, false, true, "QNoSymmetry"),
        19 => (0, 40, true, true, "QNoSymmetry"),
        20 => (3, 60, true, true, "QNoSymmetry"),
        21 => (3, 60, true, false, "QNoSymmetry"),
        _ => (6, 80, true, true, "QRowSymmetry"),
    }
}

/// solcounter.h set for size n with its row of parameters (the script's
/// sed expressions, one a line: each line's first match replaced); refused
/// if it no longer has the expected settings.
pub fn configure(solcounter: &str, n: usize) -> Result<String, Error> {
    let (sieve_cuts, match_min_size, bmi, prefetch, symmetry) = params(n);
    let edits = [
        (
            r"(?m)^(inline constexpr int size = )[0-9]*;",
            format!("${{1}}{n};"),
        ),
        (r"(\.sieveCuts = )[0-9]*,", format!("${{1}}{sieve_cuts},")),
        (
            r"(\.matchMinSize = )[0-9]*,",
            format!("${{1}}{match_min_size},"),
        ),
        (r"(\.bmiIntrin = )[a-z]*,", format!("${{1}}{bmi},")),
        (r"(\.prefetch = )[a-z]*,", format!("${{1}}{prefetch},")),
        (
            r"(Subsquare<size / 2, )[A-Za-z]*(, PackIter>)",
            format!("${{1}}{symmetry}${{2}}"),
        ),
    ];
    let text = edits
        .iter()
        .fold(solcounter.to_string(), |text, (pattern, value)| {
            let pattern = regex::Regex::new(pattern).expect("a valid pattern");
            let lines = text.split_inclusive('\n');
            lines
                .map(|line| pattern.replace(line, value.as_str()))
                .collect()
        });
    if !text.contains(&format!("int size = {n};")) {
        return Err(Error::Usage(format!(
            "{CHORE}: solcounter.h no longer has the expected settings"
        )));
    }
    Ok(text)
}

/// A commented-out `#include "name"` at a line's start, switched on.
fn uncomment_include(text: &str, name: &str) -> String {
    let pattern = format!(r#"(?m)^//(#include "{}")"#, regex::escape(name));
    let pattern = regex::Regex::new(&pattern).expect("a valid pattern");
    pattern.replace_all(text, "$1").into_owned()
}

/// The count the quadrant join prints: its `Result: N` line.
pub fn quadrant_count(output: &str) -> Option<String> {
    output.lines().rev().find_map(|line| {
        let digits: String = line
            .strip_prefix("Result: ")?
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        Some(digits)
    })
}

/// A failed file-system call: "cannot `what` PATH: why", for `map_err`.
fn failed(what: &str, path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let doing = format!("{CHORE}: cannot {what} {}", path.display());
    move |error| Error::Usage(format!("{doing}: {error}"))
}

/// One binary per size, built only when missing.
fn build(cache: &Path, src: &Path, n: usize) -> Result<PathBuf, Error> {
    let dir = cache.join(format!("build/{n}"));
    let binary = dir.join("nq");
    if process::on_path(&binary.to_string_lossy()) {
        return Ok(binary);
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(failed("remove", &dir))?;
    }
    std::fs::create_dir_all(&dir).map_err(failed("create", &dir))?;
    for entry in std::fs::read_dir(src).map_err(failed("read", src))? {
        let path = entry.map_err(failed("read", src))?.path();
        let name = path.file_name().unwrap_or_default();
        if name.to_string_lossy().ends_with(".h") || name == "main.cpp" {
            std::fs::copy(&path, dir.join(name)).map_err(failed("copy", &path))?;
        }
    }
    let edit = |name: &str, change: &dyn Fn(&str) -> Result<String, Error>| {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).map_err(failed("read", &path))?;
        std::fs::write(&path, change(&text)?).map_err(failed("write", &path))
    };
    edit("prefetch.h", &|t| Ok(uncomment_include(t, "prefetchx86.h")))?;
    edit("bmintrin.h", &|t| Ok(uncomment_include(t, "bmi2.h")))?;
    edit("solcounter.h", &|t| configure(t, n))?;
    let gcc = "-std=c++20 -O3 -march=native main.cpp -o nq";
    process::run(Command::new("g++").current_dir(&dir).args(gcc.split(' '))).map_err(|_| {
        Error::Usage(format!(
            "{CHORE}: building the quadrant join for n = {n} failed"
        ))
    })?;
    Ok(binary)
}

/// Runs the program under /usr/bin/time: its wall seconds, peak resident
/// KB and standard output.
fn timed(program: &Path, args: &[&str], rss: &Path) -> Result<(f64, u64, String), Error> {
    let mut command = Command::new("/usr/bin/time");
    command.args(["-f", "%M", "-o"]).arg(rss).arg(program);
    let start = Instant::now();
    let output = process::stdout(command.args(args).stdin(Stdio::null()))?;
    let seconds = start.elapsed().as_secs_f64();
    let peak = std::fs::read_to_string(rss).unwrap_or_default();
    let peak_kb = peak
        .lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .ok_or_else(|| Error::Failed(format!("{CHORE}: /usr/bin/time wrote no peak memory")))?;
    Ok((seconds, peak_kb, output))
}

/// Every round's measurements of one size.
#[derive(Debug, Default)]
pub struct Samples {
    /// Q(n), as both counted it.
    pub count: String,
    /// half-join's wall seconds, one per round.
    pub half_join: Vec<f64>,
    /// The quadrant join's wall seconds, one per round.
    pub quadrant: Vec<f64>,
    /// The largest peak resident KB of each.
    pub peak_kb: (u64, u64),
}

/// The Markdown table of medians, ratio and peak memory.
pub fn table(sizes: &[usize], samples: &[Samples]) -> String {
    let mut out = String::from(
        "| n | Q(n) | half-join s | quadrant join s | half-join / quadrant join | peak MB (half-join, quadrant join) |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for (n, s) in sizes.iter().zip(samples) {
        let (h, q) = (median_seconds(&s.half_join), median_seconds(&s.quadrant));
        out += &format!(
            "| {n} | {} | {h:.3} | {q:.3} | {:.2} | {}, {} |\n",
            s.count,
            h / q,
            s.peak_kb.0 / 1024,
            s.peak_kb.1 / 1024
        );
    }
    out
}

/// Builds, runs and prints.
pub fn run(args: &Args) -> Result<(), Error> {
    let (sizes, runs) = plan(args.sizes.as_deref(), args.runs.as_deref())?;
    if !process::on_path("g++") {
        return Err(Error::Usage(format!(
            "{CHORE}: g++ is needed to build the quadrant join (apt-get install g++)"
        )));
    }
    if !process::on_path("/usr/bin/time") {
        return Err(Error::Usage(format!(
            "{CHORE}: /usr/bin/time is needed for peak memory (apt-get install time)"
        )));
    }
    let env_dir = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let cache = env_dir("XDG_CACHE_HOME")
        .or_else(|| env_dir("HOME").map(|home| home.join(".cache")))
        .ok_or_else(|| Error::Usage(format!("{CHORE}: neither XDG_CACHE_HOME nor HOME is set")))?
        .join("queens/quadrant");
    let given = env_dir("QUADRANT_SRC");
    let src = given.clone().unwrap_or_else(|| cache.join("src"));
    if !src.join("solcounter.h").is_file() {
        if given.is_some() {
            return Err(Error::Usage(format!(
                "{CHORE}: {} has no solcounter.h",
                src.display()
            )));
        }
        std::fs::create_dir_all(&cache).map_err(failed("create", &cache))?;
        let url = "https://github.com/EvgenyKluev/N-Queens-Count-Sol";
        process::run(
            Command::new("git")
                .args(["clone", "--quiet", url])
                .arg(&src),
        )
        .map_err(|_| {
            Error::Usage(format!(
                "{CHORE}: cannot clone the quadrant join (set QUADRANT_SRC to a checkout)"
            ))
        })?;
    }
    let binaries: Vec<PathBuf> = sizes
        .iter()
        .map(|&n| build(&cache, &src, n))
        .collect::<Result<_, _>>()?;

    let queens = workspace::queens_binary(CHORE)?;
    let scratch = process::scratch(CHORE)?;
    let rss = scratch.path().join("rss");
    let mut samples: Vec<Samples> = sizes.iter().map(|_| Samples::default()).collect();
    for round in 1..=runs {
        for ((n, nq), s) in sizes.iter().zip(&binaries).zip(&mut samples) {
            let count = format!("count {n} --solver half-join --threads 1 --quiet --json");
            let (half_seconds, half_kb, half) =
                timed(&queens, &count.split(' ').collect::<Vec<_>>(), &rss)?;
            let hc = CountJson::parse(&half, "queens count")?
                .solutions
                .to_string();
            let (quadrant_seconds, quadrant_kb, quadrant) = timed(nq, &["1"], &rss)?;
            let qc = quadrant_count(&quadrant).unwrap_or_default();
            if hc != qc {
                return Err(Error::Failed(format!(
                    "n = {n}: half-join counted {hc}, the quadrant join {qc}"
                )));
            }
            s.count = hc;
            s.half_join.push(half_seconds);
            s.quadrant.push(quadrant_seconds);
            s.peak_kb = (s.peak_kb.0.max(half_kb), s.peak_kb.1.max(quadrant_kb));
        }
        eprintln!("round {round} of {runs} done");
    }
    print!("{}", table(&sizes, &samples));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_runs_are_checked() {
        assert_eq!(plan(Some("14,16,18"), None).unwrap(), (vec![14, 16, 18], 5));
        assert_eq!(plan(Some("22"), Some("3")).unwrap(), (vec![22], 3));
        for (sizes, runs) in [
            (None, None),
            (Some("13"), None),
            (Some("14,"), None),
            (Some("23"), None),
            (Some("14"), Some("0")),
            (Some("14"), Some("x")),
        ] {
            assert!(
                matches!(plan(sizes, runs), Err(Error::Usage(_))),
                "{sizes:?} {runs:?}"
            );
        }
    }

    #[test]
    fn the_table_of_its_solcounter_h() {
        assert_eq!(params(14), params(18));
        assert!(!params(21).3);
        assert_eq!(params(22).4, "QRowSymmetry");
        assert_eq!(params(20).0, 3);
    }

    #[test]
    fn solcounter_h_is_set_for_one_size() {
        let original = "inline constexpr int size = 20;\n\
                        constexpr Params p = {.sieveCuts = 3, .matchMinSize = 60,\n\
                        .bmiIntrin = true, .prefetch = true,};\n\
                        using S = Subsquare<size / 2, QNoSymmetry, PackIter>;\n\
                        // int size = 99;\n";
        let set = configure(original, 22).unwrap();
        assert_eq!(
            set,
            "inline constexpr int size = 22;\n\
             constexpr Params p = {.sieveCuts = 6, .matchMinSize = 80,\n\
             .bmiIntrin = true, .prefetch = true,};\n\
             using S = Subsquare<size / 2, QRowSymmetry, PackIter>;\n\
             // int size = 99;\n"
        );
        let moved = "  inline constexpr int size = 20;\n";
        assert!(matches!(configure(moved, 16), Err(Error::Usage(_))));
        assert_eq!(
            uncomment_include("//#include \"bmi2.h\"\n// #include \"x.h\"\n", "bmi2.h"),
            "#include \"bmi2.h\"\n// #include \"x.h\"\n"
        );
    }

    #[test]
    fn the_counts_and_the_table_are_read_and_written() {
        assert_eq!(
            quadrant_count("size 14\nResult: 365596 in 0.1 s\n").as_deref(),
            Some("365596")
        );
        assert_eq!(quadrant_count("no result\n"), None);
        let s = Samples {
            count: "365596".into(),
            half_join: vec![0.2, 0.1, 0.3],
            quadrant: vec![0.05, 0.1, 0.2],
            peak_kb: (4096, 3000),
        };
        let lines: Vec<String> = table(&[14], &[s]).lines().map(String::from).collect();
        assert_eq!(lines[2], "| 14 | 365596 | 0.200 | 0.100 | 2.00 | 4, 2 |");
    }
}
