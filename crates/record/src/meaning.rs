//! A record is read for its meaning, not only its shape: every number a
//! report will print or plot is one a real run could have produced. What
//! one field may hold is its type's to say (`valid.rs`, checked as it
//! is read); what is checked here is how fields agree with each other: an
//! entry names a listed solver at a board it supports, once; a timed count
//! is the published one; cold samples are where the settings say. A record
//! that fails is refused naming the field, so a damaged or forged file can
//! neither crash the report (a 2^31 n in a plot, a 1e308 median, a
//! multi-byte commit sliced mid-character) nor print a wrong number.

use std::collections::{BTreeMap, BTreeSet};

use queens_core::oeis;
use serde::{Serialize, de::DeserializeOwned};

use super::schema::{Outcome, Question, Record, Timing};

/// Why a field is wrong: (field path, problem).
pub(crate) type Problem = (String, String);

pub(crate) fn problem(field: impl Into<String>, text: impl Into<String>) -> Problem {
    (field.into(), text.into())
}

/// `Ok` if `holds`, else the problem of `field`.
pub(crate) fn ensure(
    holds: bool,
    field: impl Into<String>,
    text: impl Into<String>,
) -> Result<(), Problem> {
    if holds {
        Ok(())
    } else {
        Err(problem(field, text))
    }
}

/// Whether `document`, made in memory, reads back: every field holds a
/// value its type allows, as in a document read from a file.
pub(crate) fn reread<T: Serialize + DeserializeOwned>(document: &T) -> Result<(), Problem> {
    let value = serde_json::to_value(document).expect("a record is plain data");
    serde_path_to_error::deserialize::<_, T>(value)
        .map(drop)
        .map_err(|e| problem(e.path().to_string(), e.into_inner().to_string()))
}

/// Checks a record's meaning, its fields' values and how they agree; the
/// first problem found, with its field.
pub fn check(record: &Record) -> Result<(), Problem> {
    reread(record).and_then(|()| consistent(record))
}

/// Checks how the fields of a record that reads agree with each other.
pub(crate) fn consistent(record: &Record) -> Result<(), Problem> {
    let s = &record.settings;
    if let Some(max_n) = s.max_n {
        ensure(
            max_n >= s.min_n,
            "settings.max_n",
            format!("{max_n} is below settings.min_n"),
        )?;
    }
    // Looked up by id once, not searched for each entry: a record of
    // thousands of solvers and entries must not take their product.
    let timed: BTreeSet<&str> = (record.entries.iter())
        .filter(|e| e.timing().is_some())
        .map(|e| e.solver.as_str())
        .collect();
    let mut solvers = BTreeMap::new();
    for (i, solver) in record.solvers.iter().enumerate() {
        let field = format!("solvers[{i}]");
        listed(&field, &solver.id, solver.max_n, &mut solvers)?;
        // A software driver's runs are checked counts, never timings: its
        // time is an emulation's on the CPU, which a reader would take for
        // a GPU's.
        let emulated = solver.accelerator.as_ref().is_some_and(|d| d.software);
        let text = format!(
            "{} was timed on a software driver: its times are the CPU's, not a GPU's",
            solver.id
        );
        ensure(
            !(emulated && timed.contains(solver.id.as_str())),
            format!("{field}.accelerator.software"),
            text,
        )?;
        // A start-up figure comes with the n it was measured at.
        if let Some(external) = &solver.external {
            let startup = match (external.startup_ns, external.startup_n) {
                (Some(ns), Some(_)) => ns > 0,
                (ns, n) => ns.is_none() && n.is_none(),
            };
            let text = "a positive time with the n it was measured at, or neither";
            ensure(startup, format!("{field}.external.startup_ns"), text)?;
        }
    }
    let found: BTreeSet<&str> = (record.entries.iter())
        .filter(|e| e.question == Question::FindOne)
        .map(|e| e.solver.as_str())
        .collect();
    let mut finders = BTreeMap::new();
    for (i, finder) in record.finders.iter().enumerate() {
        listed(
            &format!("finders[{i}]"),
            &finder.id,
            finder.max_n,
            &mut finders,
        )?;
        let unseeded = finder.seeded && found.contains(finder.id.as_str()) && s.find_seed.is_none();
        let text = format!(
            "{} is seeded, and the seed it ran with is missing",
            finder.id
        );
        ensure(!unseeded, "settings.find_seed", text)?;
    }
    let mut seen = BTreeSet::new();
    for (i, entry) in record.entries.iter().enumerate() {
        let at = |name: &str| format!("entries[{i}].{name}");
        // A count names a solver, a found board a finder: two lists, so that
        // one id in both never lets an entry of one question pass for the other.
        let (kind, listed) = match entry.question {
            Question::FindOne => ("finders", &finders),
            Question::Count => ("solvers", &solvers),
        };
        among(&at, kind, listed, &entry.solver, entry.n)?;
        let (question, solver, n) = (entry.question.as_str(), &entry.solver, entry.n);
        let text = format!("a second entry for ({question}, {solver}, n = {n})");
        ensure(
            seen.insert((entry.question, solver, n)),
            format!("entries[{i}]"),
            text,
        )?;
        let counted = entry.question == Question::Count || entry.solutions.is_none();
        ensure(
            counted,
            at("solutions"),
            "finding one board counts no solutions",
        )?;
        if let Outcome::Timed { warm, cold } = &entry.outcome {
            check_timing(&at("outcome.warm"), warm)?;
            // Every timed entry of a record that took cold samples has
            // one per round, and none in a record that took none.
            match (cold, s.cold_rounds) {
                (Some(cold), Some(rounds)) => {
                    check_timing(&at("outcome.cold"), cold)?;
                    let text = "not settings.cold_rounds (one cold sample per round)";
                    ensure(cold.samples == rounds, at("outcome.cold.samples"), text)?;
                }
                (None, None) => {}
                (None, Some(_)) => {
                    let text = "a timed entry without a cold timing";
                    return Err(problem(at("outcome.cold"), text));
                }
                (Some(_), None) => {
                    let text = "the record took no cold samples (settings.cold_rounds)";
                    return Err(problem(at("outcome.cold"), text));
                }
            }
            if entry.question == Question::Count {
                // A wrong count is an error entry, never a timing.
                let expected = oeis::total(n);
                let published = entry.solutions.is_some()
                    && (expected.is_none() || entry.solutions == expected);
                let count = expected.map_or("count".to_string(), |e| e.to_string());
                let text = format!("a timed count of n = {n} must be the published {count}");
                ensure(published, at("solutions"), text)?;
            }
        }
        let classes = entry
            .unique
            .zip(entry.solutions)
            .is_none_or(|(u, s)| u <= s);
        ensure(classes, at("unique"), "more classes than solutions")?;
        if s.branch_misses_unavailable.is_some() {
            let text = "the record says the counters were unavailable";
            let absent = |value: Option<f64>, name| ensure(value.is_none(), at(name), text);
            absent(
                entry.cold_branch_misses_per_node,
                "cold_branch_misses_per_node",
            )?;
            absent(
                entry.warm_branch_misses_per_node,
                "warm_branch_misses_per_node",
            )?;
        }
    }
    Ok(())
}

/// One of a list of solvers or finders: an id not listed before, kept
/// with its largest n.
pub(crate) fn listed<'a>(
    field: &str,
    id: &'a str,
    max_n: usize,
    ids: &mut BTreeMap<&'a str, usize>,
) -> Result<(), Problem> {
    ensure(
        ids.insert(id, max_n).is_none(),
        format!("{field}.id"),
        format!("'{id}' is listed twice"),
    )
}

/// An entry's subject is among the record's `kind` (`listed`: each id's
/// largest n) and its n a board that one supports.
pub(crate) fn among(
    at: &dyn Fn(&str) -> String,
    kind: &str,
    listed: &BTreeMap<&str, usize>,
    id: &str,
    n: usize,
) -> Result<(), Problem> {
    let Some(&max_n) = listed.get(id) else {
        let text = format!("'{id}' is not among the record's {kind}");
        return Err(problem(at("solver"), text));
    };
    let text = format!("{n} is not a board {id} supports (1..={max_n})");
    ensure((1..=max_n).contains(&n), at("n"), text)
}

/// The statistics of a timing agree: the median between the extremes, and
/// a spread no wider than the slowest sample.
fn check_timing(field: &str, timing: &Timing) -> Result<(), Problem> {
    let ordered = timing.min_ns <= timing.median_ns && timing.median_ns <= timing.max_ns;
    ensure(
        ordered,
        field,
        "min_ns <= median_ns <= max_ns does not hold",
    )?;
    let spread = timing.mad_ns <= timing.max_ns;
    ensure(
        spread,
        format!("{field}.mad_ns"),
        "not a spread of these times",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::sample_record;

    /// The field blamed when one change is made to a sound record.
    fn blamed(change: impl FnOnce(&mut Record)) -> String {
        let mut record = sample_record();
        assert_eq!(check(&record), Ok(()), "the fixture is sound");
        change(&mut record);
        check(&record).expect_err("the change must be refused").0
    }

    #[test]
    fn every_number_a_report_prints_is_checked() {
        // Each of these once crashed, hung or misprinted the report.
        assert_eq!(
            blamed(|r| r.provenance.git_commit = Some("é".repeat(20))),
            "provenance.git_commit"
        );
        assert_eq!(blamed(|r| r.entries[0].n = 2_147_483_648), "entries[0].n");
        for median in [1e308, 0.0, -5.0, f64::NAN] {
            let field = blamed(|r| {
                if let Outcome::Timed { warm, .. } = &mut r.entries[0].outcome {
                    warm.median_ns = median;
                }
            });
            assert!(
                field.starts_with("entries[0].outcome.warm"),
                "{median}: {field}"
            );
        }
        assert_eq!(blamed(|r| r.provenance.cores = 0), "provenance.cores");
        assert_eq!(
            blamed(|r| r.provenance.command = "two\nlines".into()),
            "provenance.command"
        );
    }

    #[test]
    fn cold_figures_must_be_where_version_2_puts_them() {
        assert_eq!(
            blamed(|r| r.entries[0].drop_cold()),
            "entries[0].outcome.cold"
        );
        assert_eq!(
            blamed(|r| r.settings.cold_rounds = Some(4)),
            "entries[0].outcome.cold.samples"
        );
        assert_eq!(
            blamed(|r| r.entries[0].cold_branch_misses_per_node = Some(0.5)),
            "entries[0].cold_branch_misses_per_node",
            "the fixture says the counters were unavailable"
        );
        assert_eq!(
            blamed(|r| {
                r.settings.branch_misses_unavailable = None;
                r.entries[0].warm_branch_misses_per_node = Some(-1.0);
            }),
            "entries[0].warm_branch_misses_per_node"
        );
        assert_eq!(
            blamed(|r| r.settings.cold_rounds = None),
            "entries[0].outcome.cold"
        );
        assert_eq!(check(&crate::fixtures::warm_only_record()), Ok(()));
    }

    #[test]
    fn a_timed_wrong_count_is_refused() {
        assert_eq!(
            blamed(|r| r.entries[0].solutions = Some(93)),
            "entries[0].solutions"
        );
    }

    #[test]
    fn entries_must_be_consistent_with_their_status_and_solvers() {
        assert_eq!(
            blamed(|r| r.entries[0].outcome = Outcome::Error { why: "a\nb".into() }),
            "entries[0].outcome.why"
        );
        assert_eq!(
            blamed(|r| r.entries[0].solver = "nobody".into()),
            "entries[0].solver"
        );
        assert_eq!(
            blamed(|r| {
                let copy = r.entries[0].clone();
                r.entries.push(copy);
            }),
            format!("entries[{}]", sample_record().entries.len())
        );
        assert_eq!(
            blamed(|r| r.solvers[0].id = "Bad Id".into()),
            "solvers[0].id"
        );
    }

    fn on(software: bool) -> queens_core::Accelerator {
        queens_core::Accelerator {
            name: "llvmpipe".into(),
            driver: "Mesa".into(),
            backend: "vulkan".into(),
            software,
        }
    }

    #[test]
    fn a_software_drivers_times_are_refused_and_a_gpus_named() {
        // The fixture's one solver is timed: on a GPU that is a record,
        // on a software driver it would pass an emulation off as a GPU.
        let mut record = sample_record();
        record.solvers[0].accelerator = Some(on(false));
        assert_eq!(check(&record), Ok(()));
        assert_eq!(
            blamed(|r| r.solvers[0].accelerator = Some(on(true))),
            "solvers[0].accelerator.software"
        );
        assert_eq!(
            blamed(|r| {
                r.solvers[0].accelerator = Some(queens_core::Accelerator {
                    name: " ".into(),
                    ..on(false)
                })
            }),
            "solvers[0].accelerator"
        );
        assert_eq!(
            blamed(|r| {
                r.solvers[0].accelerator = Some(queens_core::Accelerator {
                    driver: "two\nlines".into(),
                    ..on(false)
                })
            }),
            "solvers[0].accelerator"
        );
    }

    #[test]
    fn a_record_without_devices_writes_no_device_field() {
        let text = serde_json::to_string(&sample_record()).unwrap();
        assert!(
            !text.contains("accelerator"),
            "old records stay byte for byte"
        );
    }

    #[test]
    fn found_boards_name_finders_and_counts_name_solvers() {
        let sound = crate::fixtures::find_record();
        assert_eq!(check(&sound), Ok(()));
        let refused = |change: &dyn Fn(&mut Record)| {
            let mut record = sound.clone();
            change(&mut record);
            check(&record).expect_err("the change must be refused").0
        };
        // three-mask is a solver and a finder: a count and a found board at
        // the same n are two entries, not one twice.
        let last = sound.entries.len() - 1;
        assert_eq!(sound.entries[last].solver, sound.entries[0].solver);
        // A finder is not a solver, nor a solver a finder.
        let construction = 1;
        assert_eq!(
            refused(&|r| r.entries[construction].question = Question::Count),
            format!("entries[{construction}].solver")
        );
        assert_eq!(
            refused(&|r| r.finders.retain(|f| f.id != "three-mask")),
            format!("entries[{last}].solver")
        );
        // Boards far past any count, within a finder's own limit.
        assert_eq!(
            refused(&|r| r.finders[0].max_n = 100),
            "entries[2].n",
            "construction at n = 10^6"
        );
        assert_eq!(
            refused(&|r| r.entries[1].solutions = Some(1)),
            "entries[1].solutions"
        );
        assert_eq!(
            refused(&|r| r.settings.find_seed = None),
            "settings.find_seed"
        );
        assert_eq!(refused(&|r| r.finders[1].id = "A".into()), "finders[1].id");
    }
}
