//! `cargo xtask scaling N [RUNS] [SOLVER[:THREADS,...]]...` (scripts/scaling):
//! `queens count N --solver S --threads T --quiet --json` for every
//! (solver, threads) pair, RUNS rounds (default 5), the pairs interleaved in
//! each round so that a shared machine's slow spells hit every contestant
//! alike (hyperfine runs one command's repetitions back to back). Every
//! run's count must equal the first's (else exit 1). Prints the median
//! seconds of each pair and its ratio to the first pair's median. Default
//! contestants: half-join on 1 and 2 threads.

use crate::counts::{self, number};
use crate::stats::{against, median_seconds};
use crate::{Error, workspace};

/// The arguments, as the script takes them (checked by [`plan`]).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `N [RUNS] [SOLVER[:THREADS,...]]...`
    #[arg(allow_hyphen_values = true, num_args = 0..)]
    pub words: Vec<String>,
}

/// What to measure.
#[derive(Debug, PartialEq)]
pub struct Plan {
    /// The board size.
    pub n: usize,
    /// Rounds.
    pub runs: usize,
    /// (solver, threads) pairs, in the order given.
    pub pairs: Vec<(String, usize)>,
}

fn usage() -> Error {
    Error::Usage("usage: scripts/scaling N [RUNS] [SOLVER[:THREADS,...]]...".to_string())
}

/// Reads the words of the command line: N, then RUNS if the next word is
/// a number, then the contestants.
pub fn plan(words: &[String]) -> Result<Plan, Error> {
    let (first, mut rest) = words.split_first().ok_or_else(usage)?;
    let n = number(first).ok_or_else(usage)?;
    let mut runs = 5;
    if let Some(found) = rest.first().and_then(|w| number(w)) {
        runs = found;
        rest = &rest[1..];
    }
    if runs < 1 {
        return Err(usage());
    }
    let default = ["half-join:1,2".to_string()];
    let specs = if rest.is_empty() { &default[..] } else { rest };
    let mut pairs = Vec::new();
    for spec in specs {
        let (solver, threads) = spec.split_once(':').unwrap_or((spec, "1"));
        for t in threads.split(',') {
            pairs.push((solver.to_string(), number(t).ok_or_else(usage)?));
        }
    }
    Ok(Plan { n, runs, pairs })
}

/// The table printed at the end: one line per pair, its median and its
/// ratio to the first pair's.
pub fn table(plan: &Plan, answer: u64, samples: &[Vec<f64>]) -> String {
    let mut out = format!(
        "n = {}, {} each, interleaved; solutions {answer}\n{:<16} {:>7} {:>12}  against the first\n",
        plan.n,
        queens_core::counted(plan.runs, "run", "runs"),
        "solver",
        "threads",
        "median_s"
    );
    let medians: Vec<f64> = samples.iter().map(|s| median_seconds(s)).collect();
    for ((solver, threads), median) in plan.pairs.iter().zip(&medians) {
        out += &format!(
            "{solver:<16} {threads:>7} {median:>12.4}  {}\n",
            against(medians[0], *median)
        );
    }
    out
}

/// Runs the measurement.
pub fn run(args: &Args) -> Result<(), Error> {
    let plan = plan(&args.words)?;
    let queens = workspace::queens_binary("scaling")?;
    let mut samples = vec![Vec::new(); plan.pairs.len()];
    let mut answer = None;
    for round in 1..=plan.runs {
        for ((solver, threads), times) in plan.pairs.iter().zip(&mut samples) {
            let threads_arg = threads.to_string();
            let json = counts::count(
                &queens,
                plan.n,
                &["--solver", solver, "--threads", &threads_arg],
            )?;
            let expected = *answer.get_or_insert(json.solutions);
            if json.solutions != expected {
                return Err(Error::Failed(format!(
                    "scaling: {solver} on {} counted {}, not {expected}",
                    queens_core::counted(*threads, "thread", "threads"),
                    json.solutions
                )));
            }
            times.push(json.seconds);
            eprintln!(
                "round {round}/{}: {solver}, {}: {} s",
                plan.runs,
                queens_core::counted(*threads, "thread", "threads"),
                json.seconds
            );
        }
    }
    print!("{}", table(&plan, answer.unwrap_or(0), &samples));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_command_line_reads_as_the_script_read_it() {
        let p = plan(&words("17 9 half-join:1,2 three-mask")).unwrap();
        assert_eq!((p.n, p.runs), (17, 9));
        let pairs: Vec<(&str, usize)> = p.pairs.iter().map(|(s, t)| (s.as_str(), *t)).collect();
        assert_eq!(
            pairs,
            [("half-join", 1), ("half-join", 2), ("three-mask", 1)]
        );
        let default = plan(&words("12")).unwrap();
        assert_eq!(default.runs, 5);
        assert_eq!(default.pairs.len(), 2);
        for bad in ["", "x", "12 0", "12 3 half-join:1,x", "-1"] {
            assert!(matches!(plan(&words(bad)), Err(Error::Usage(_))), "{bad}");
        }
    }

    #[test]
    fn the_table_shows_medians_against_the_first() {
        let p = plan(&words("12 3 a b")).unwrap();
        let out = table(&p, 14200, &[vec![0.2, 0.1, 0.3], vec![0.5, 0.4, 0.6]]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "n = 12, 3 runs each, interleaved; solutions 14200"
        );
        assert_eq!(
            lines[1],
            "solver           threads     median_s  against the first"
        );
        assert_eq!(
            lines[2],
            "a                      1       0.2000  1.00x faster"
        );
        assert_eq!(
            lines[3],
            "b                      1       0.5000  2.50x slower"
        );
    }
}
