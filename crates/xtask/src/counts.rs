//! What the `queens` binary prints and saves, as far as the chores read
//! it: the JSON object of `count --json` and `merge --json`, and the
//! finished units of a checkpoint.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;

use crate::{Error, process};

/// The object `queens count --json` and `queens merge --json` print (the
/// fields the chores use; the others are ignored).
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct CountJson {
    /// All solutions.
    pub solutions: u64,
    /// Solutions up to symmetry, with `--unique`.
    #[serde(default)]
    pub unique: Option<u64>,
    /// Wall seconds of the count (summed over shards for a merge).
    pub seconds: f64,
}

impl CountJson {
    /// Parses one printed object; `what` names the command for the message.
    pub fn parse(text: &str, what: &str) -> Result<CountJson, Error> {
        serde_json::from_str(text.trim()).map_err(|error| {
            Error::Failed(format!("{what} printed no count object ({error}): {text}"))
        })
    }
}

/// A whole number written in digits only (no sign, no spaces), as the
/// scripts read their arguments.
pub fn number(word: &str) -> Option<usize> {
    let digits = !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| word.parse().ok()).flatten()
}

/// `queens count N ARGS --quiet --json`, read.
pub fn count(queens: &Path, n: impl std::fmt::Display, args: &[&str]) -> Result<CountJson, Error> {
    let mut count = Command::new(queens);
    count
        .arg("count")
        .arg(n.to_string())
        .args(args)
        .args(["--quiet", "--json"]);
    CountJson::parse(&process::stdout(&mut count)?, "queens count")
}

/// How many finished units a checkpoint file holds: 0 while it does not
/// exist yet or cannot be read whole (it is replaced atomically, so a
/// read sees either the old or the new file).
pub fn saved_units(checkpoint: &Path) -> usize {
    #[derive(Deserialize)]
    struct Done {
        done: Vec<serde::de::IgnoredAny>,
    }
    std::fs::read_to_string(checkpoint)
        .ok()
        .and_then(|text| serde_json::from_str::<Done>(&text).ok())
        .map_or(0, |file| file.done.len())
}

/// The published counts of n (A000170, A002562), if the chore accepts n:
/// `range` is what it accepts, named in the refusal.
pub fn published(
    n: usize,
    range: std::ops::RangeInclusive<usize>,
    chore: &str,
) -> Result<(u64, u64), Error> {
    let known = queens_core::oeis::total(n).zip(queens_core::oeis::unique(n));
    match known {
        Some(counts) if range.contains(&n) => Ok(counts),
        _ => Err(Error::Usage(format!(
            "{chore}: choose N from {} to {}",
            range.start(),
            range.end()
        ))),
    }
}

/// The merged total and classes must be the published ones.
pub fn check_merged(merged: &CountJson, n: usize, chore: &str) -> Result<String, Error> {
    let (total, classes) = published(n, 1..=queens_core::oeis::MAX_KNOWN_N, chore)?;
    let unique = merged.unique.map_or("none".to_string(), |u| u.to_string());
    if merged.solutions != total || merged.unique != Some(classes) {
        return Err(Error::Failed(format!(
            "{chore}: Q({n}) = {} ({unique} classes), but OEIS says {total} ({classes})",
            merged.solutions
        )));
    }
    Ok(format!(
        "{chore}: ok: Q({n}) = {}, {unique} classes, as A000170 and A002562 say",
        merged.solutions
    ))
}

/// `queens merge --json` over the records, printed, with the total and
/// the classes checked against OEIS.
pub fn merge(queens: &Path, records: &[PathBuf], n: usize, chore: &str) -> Result<(), Error> {
    let mut merge = Command::new(queens);
    merge.args(["merge", "--json"]).args(records);
    let line = process::stdout(merge.stdin(Stdio::null()))?;
    let merged = CountJson::parse(line.trim_end(), "queens merge")?;
    println!("{chore}: merged: {}", line.trim_end());
    println!("{}", check_merged(&merged, n, chore)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_object_is_read_by_its_fields() {
        let line = r#"{"n":12,"solver":"half-join","solutions":14200,"unique":1787,"nodes":5,"seconds":0.0123}"#;
        let count = CountJson::parse(line, "count").unwrap();
        assert_eq!(count.solutions, 14200);
        assert_eq!(count.unique, Some(1787));
        assert_eq!(count.seconds, 0.0123);
        let without = CountJson::parse(r#"{"solutions":92,"seconds":1e-6}"#, "count").unwrap();
        assert_eq!(without.unique, None);
        assert!(CountJson::parse("n = 12: 14200", "count").is_err());
    }

    #[test]
    fn a_merge_is_checked_against_oeis() {
        let good = CountJson {
            solutions: 14200,
            unique: Some(1787),
            seconds: 1.0,
        };
        assert!(
            check_merged(&good, 12, "t")
                .unwrap()
                .contains("ok: Q(12) = 14200")
        );
        let bad = CountJson {
            unique: Some(1786),
            ..good
        };
        assert!(matches!(check_merged(&bad, 12, "t"), Err(Error::Failed(_))));
        assert!(matches!(published(11, 12..=18, "t"), Err(Error::Usage(_))));
        assert_eq!(
            published(18, 12..=18, "t").unwrap(),
            (666_090_624, 83_263_591)
        );
    }

    #[test]
    fn a_missing_or_partial_checkpoint_has_no_saved_units() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.ckpt");
        assert_eq!(saved_units(&path), 0);
        std::fs::write(&path, r#"{"format":"x","done":[{"unit":1},{"unit":4}]"#).unwrap();
        assert_eq!(saved_units(&path), 0);
        std::fs::write(&path, r#"{"format":"x","done":[{"unit":1},{"unit":4}]}"#).unwrap();
        assert_eq!(saved_units(&path), 2);
    }
}
