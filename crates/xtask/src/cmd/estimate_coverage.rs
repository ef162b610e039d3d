//! `cargo xtask estimate-coverage [--n 18,19,20] [--trials 10]`: whether
//! `queens count N --estimate`'s interval is honest on the real engine.
//! For each n it makes `trials` estimates (seeds 1.., a small budget, one
//! thread), then times the full one-thread count once, and prints how many
//! intervals (± 2 standard errors) held the full time.
//!
//! A nominal 95 % interval should hold it about 95 times in 100; the chore
//! fails below 6 of 10 (scaled to the trials), which leaves room for a
//! machine whose speed drifts between the estimates and the full count
//! (the interval covers sampling error, not a machine slowing down) while
//! catching a biased estimator or one blind to the spread within units.

use crate::counts;
use crate::{Error, workspace};

use super::estimates::estimate;

/// `cargo xtask estimate-coverage`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board sizes.
    #[arg(long, value_delimiter = ',', default_value = "18,19,20")]
    pub n: Vec<u32>,
    /// Estimates per board.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub trials: u64,
    /// Each estimate's budget, seconds.
    #[arg(long, default_value_t = 5.0)]
    pub budget: f64,
}

/// The least share of intervals that must hold the full time.
const LEAST_SHARE: f64 = 0.6;

/// Runs it.
pub fn run(args: &Args) -> Result<(), Error> {
    let queens = workspace::queens_binary("estimate-coverage")?;
    let budget = args.budget.to_string();
    let mut short = Vec::new();
    for &n in &args.n {
        let mut intervals = Vec::new();
        for seed in 1..=args.trials {
            let seed = seed.to_string();
            let e = estimate(
                &queens,
                n,
                &["--estimate-seconds", &budget, "--seed", &seed],
            )?;
            eprintln!(
                "n = {n}, seed {seed}: {:.3} s ± {:.3} s",
                e.seconds, e.standard_error
            );
            intervals.push((e.seconds, e.standard_error));
        }
        let truth = counts::count(&queens, n, &["--threads", "1"])?.seconds;
        let held = intervals
            .iter()
            .filter(|(seconds, error)| (seconds - truth).abs() <= 2.0 * error)
            .count();
        println!(
            "n = {n}: {held} of {} (± 2 standard errors) held the full count's {truth:.3} s",
            queens_core::counted(args.trials, "interval", "intervals")
        );
        if (held as f64) < LEAST_SHARE * args.trials as f64 {
            short.push(n);
        }
    }
    if short.is_empty() {
        Ok(())
    } else {
        Err(Error::Failed(format!(
            "estimate-coverage: fewer than {:.0} % of the intervals held the full time at n = {short:?}",
            100.0 * LEAST_SHARE
        )))
    }
}
