//! `cargo xtask estimates [--from 23] [--to 28]`: the README's projection
//! of whole counts at the frontier. For each n it runs the release
//! `queens count N --estimate --threads 1 --json` (its default budget, one
//! thread so that the figure is core-seconds), and writes the answers with
//! their provenance to `bench-results/estimates.json` (replacing the last
//! one on purpose: the README states one projection, the newest).
//! `scripts/report` then splices the table into README.md.

use std::path::Path;
use std::process::Command;

use queens_record::estimates::{
    ESTIMATES_FILE, ESTIMATES_FORMAT, ESTIMATES_VERSION, EstimatesRecord, Projected,
};
use queens_record::{Provenance, RECORDS_DIR};

use crate::{Error, process, workspace};

/// `cargo xtask estimates`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The first board size.
    #[arg(long, default_value_t = 23, value_parser = clap::value_parser!(u32).range(4..=28))]
    pub from: u32,
    /// The last board size.
    #[arg(long, default_value_t = 28, value_parser = clap::value_parser!(u32).range(4..=28))]
    pub to: u32,
}

/// The fields of `queens count N --estimate --json` the record keeps (the
/// others are left out).
const KEPT: [&str; 11] = [
    "n",
    "solver",
    "seconds",
    "standard_error",
    "units",
    "pieces",
    "longest_piece_seconds",
    "draws",
    "parts_timed",
    "sample_seconds",
    "peak_bytes",
];

/// One answer of `queens count N --estimate --json`, as the record keeps it.
pub fn projected(text: &str) -> Result<Projected, serde_json::Error> {
    let mut answer: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text)?;
    answer.retain(|field, _| KEPT.contains(&field.as_str()));
    serde_json::from_value(answer.into())
}

/// Runs `queens count N --estimate --threads 1 --json --quiet` with `extra`
/// arguments and reads its answer.
pub fn estimate(queens: &Path, n: u32, extra: &[&str]) -> Result<Projected, Error> {
    let mut command = Command::new(queens);
    command
        .args(["count", &n.to_string(), "--estimate", "--threads", "1"])
        .args(["--json", "--quiet"])
        .args(extra);
    let text = process::stdout(&mut command)?;
    projected(text.trim()).map_err(|error| {
        Error::Failed(format!(
            "`{}` printed no estimate ({error}): {text}",
            process::describe(&command)
        ))
    })
}

/// Runs it.
pub fn run(args: &Args) -> Result<(), Error> {
    if args.from > args.to {
        return Err(Error::Usage(format!(
            "estimates: --from {} is past --to {}",
            args.from, args.to
        )));
    }
    let queens = workspace::queens_binary("estimates")?;
    let mut estimates = Vec::new();
    for n in args.from..=args.to {
        eprintln!("estimates: n = {n}");
        estimates.push(estimate(&queens, n, &[])?);
    }
    let record = EstimatesRecord {
        format: ESTIMATES_FORMAT.to_string(),
        format_version: ESTIMATES_VERSION,
        provenance: Provenance::collect(format!(
            "cargo xtask estimates --from {} --to {}",
            args.from, args.to
        )),
        estimates,
    };
    record
        .check()
        .map_err(|(field, problem)| Error::Failed(format!("estimated {field}: {problem}")))?;
    let path = workspace::root().join(RECORDS_DIR).join(ESTIMATES_FILE);
    workspace::write_json(&path, &record)?;
    println!(
        "wrote {}; scripts/report puts its table in README.md",
        path.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line shaped as `count N --estimate --json` prints it (figures
    /// made up), with `drop` left out.
    fn line(drop: &str) -> String {
        let mut value = serde_json::json!({
            "format": "queens-estimate/2", "n": 24, "solver": "half-join", "threads": 1,
            "seconds_on_threads": 900.0, "core_hours": 0.25, "interval": [700.0, 1100.0],
            "units": 40, "pieces": 100, "longest_piece_seconds": 30.0, "timed": 5,
            "draws": 6, "parts_timed": 12, "sub_parts_timed": 12, "weight_share": 0.1,
            "sample_seconds": 44.0, "budget_seconds": 45.0, "shared_seconds_max": 0.0,
            "part_shared_seconds_max": 0.0, "shared_over_budget": false, "repeats": 2,
            "speed_noise": 0.01, "seconds": 900.0, "standard_error": 100.0,
            "peak_bytes": 1000000
        });
        value.as_object_mut().unwrap().remove(drop);
        value.to_string()
    }

    #[test]
    fn the_record_keeps_the_pieces_and_the_longest_one() {
        let row = projected(&line("")).unwrap();
        assert_eq!((row.units, row.pieces), (40, 100));
        assert_eq!(row.longest_piece_seconds, 30.0);
        let record = EstimatesRecord {
            format: ESTIMATES_FORMAT.to_string(),
            format_version: ESTIMATES_VERSION,
            provenance: Provenance::collect("test".to_string()),
            estimates: vec![row],
        };
        assert_eq!(record.check(), Ok(()));
    }

    #[test]
    fn an_answer_without_pieces_is_refused() {
        // A `queens` older than pieces: its figures cannot fill a row.
        for field in ["pieces", "longest_piece_seconds"] {
            let error = projected(&line(field)).unwrap_err();
            assert!(error.to_string().contains(field), "{error}");
        }
    }
}
