//! A record is read for its meaning, not only its shape: every number a
//! report will print or plot is checked to be one a real run could have
//! produced (finite, in range, consistent with the other fields), and a
//! timed entry must carry the published count. A record that fails is
//! refused naming the field, so a damaged or forged file can neither crash
//! the report (a 2^31 n in a plot, a 1e308 median, a multi-byte commit
//! sliced mid-character) nor print a wrong number.

use std::collections::{BTreeMap, BTreeSet};

use queens_core::oeis;

use super::schema::{Entry, ExternalFacts, Outcome, Question, Record, Timing};

/// The largest board a count in a record may mention: no solver here
/// passes 32.
pub const MAX_N: usize = 64;
/// The largest board a finder in a record may mention: one board is held
/// as one `u32` per file (`queens_core::find::MAX_FIND_N`).
pub const MAX_FIND_N: usize = queens_core::find::MAX_FIND_N;
/// Longest plausible single run: a day, in nanoseconds. A longer median is
/// not a measurement this tool makes.
const MAX_RUN_NS: f64 = 86_400e9;
/// Longest plausible setting of a run's time, in seconds: a year.
const YEAR: f64 = 86_400.0 * 365.0;
/// More samples than any run takes.
const MAX_SAMPLES: usize = 1 << 30;
/// More heap than any machine has (1 PiB).
const MAX_HEAP_BYTES: u64 = 1 << 50;
/// More cores or threads than any machine has.
const MAX_CORES: usize = 1 << 20;

/// Why a field is wrong: (field path, problem).
pub(crate) type Problem = (String, String);

pub(crate) fn problem(field: impl Into<String>, text: impl Into<String>) -> Problem {
    (field.into(), text.into())
}

/// Checks a record's meaning; the first problem found, with its field.
pub fn check(record: &Record) -> Result<(), Problem> {
    check_provenance(record)?;
    check_settings(record)?;
    // Looked up by id once, not searched for each entry: a record of
    // thousands of solvers and entries must not take their product.
    let mut ids = BTreeMap::new();
    let timed: BTreeSet<&str> = record
        .entries
        .iter()
        .filter(|e| e.timing().is_some())
        .map(|e| e.solver.as_str())
        .collect();
    for (i, solver) in record.solvers.iter().enumerate() {
        let field = format!("solvers[{i}]");
        listed(
            &field,
            "solver",
            (&solver.id, solver.max_n, MAX_N),
            &mut ids,
        )?;
        one_line(&format!("{field}.node"), &solver.node)?;
        if let Some(device) = &solver.accelerator {
            let was_timed = timed.contains(solver.id.as_str());
            check_accelerator(
                &format!("{field}.accelerator"),
                device,
                &solver.id,
                was_timed,
            )?;
        }
        if let Some(external) = &solver.external {
            check_external(&format!("{field}.external"), external)?;
        }
    }
    let finders = check_finders(record)?;
    let mut seen = BTreeSet::new();
    for (i, entry) in record.entries.iter().enumerate() {
        let field = format!("entries[{i}]");
        check_entry(&field, entry, record, (&ids, &finders))?;
        if !seen.insert((&entry.question, &entry.solver, entry.n)) {
            return Err(problem(
                field,
                format!(
                    "a second entry for ({}, {}, n = {})",
                    entry.question.as_str(),
                    entry.solver,
                    entry.n
                ),
            ));
        }
    }
    Ok(())
}

/// An external program's provenance: one-line command and version, the
/// hash of the file it ran, and a start-up figure with the n it was
/// measured at.
fn check_external(field: &str, external: &ExternalFacts) -> Result<(), Problem> {
    one_line(&format!("{field}.command"), &external.command)?;
    if let Some(version) = &external.version {
        one_line(&format!("{field}.version"), version)?;
    }
    let hash = &external.program_sha256;
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(problem(
            format!("{field}.program_sha256"),
            "not a SHA-256 in hex (64 digits)",
        ));
    }
    match (external.startup_ns, external.startup_n) {
        (Some(ns), Some(_)) if ns > 0 => Ok(()),
        (None, None) => Ok(()),
        _ => Err(problem(
            format!("{field}.startup_ns"),
            "a positive time with the n it was measured at, or neither",
        )),
    }
}

/// The finders: ids as solvers' (a list of their own, so a solver stopped
/// at its first board keeps its id), sizes a board can have, and the seed
/// recorded wherever a seeded finder was timed.
/// Checks the finders' list and returns it by id (each one's largest n).
fn check_finders(record: &Record) -> Result<BTreeMap<&str, usize>, Problem> {
    // Looked up once, not searched for each finder.
    let timed: BTreeSet<&str> = record
        .entries
        .iter()
        .filter(|e| e.question == Question::FindOne)
        .map(|e| e.solver.as_str())
        .collect();
    let mut ids = BTreeMap::new();
    for (i, finder) in record.finders.iter().enumerate() {
        let field = format!("finders[{i}]");
        listed(
            &field,
            "finder",
            (&finder.id, finder.max_n, MAX_FIND_N),
            &mut ids,
        )?;
        one_line(&format!("{field}.step"), &finder.step)?;
        if finder.seeded
            && timed.contains(finder.id.as_str())
            && record.settings.find_seed.is_none()
        {
            return Err(problem(
                "settings.find_seed",
                format!(
                    "{} is seeded, and the seed it ran with is missing",
                    finder.id
                ),
            ));
        }
    }
    Ok(ids)
}

/// One of a list of solvers or finders: an id, not listed before, and a
/// largest n in 1..=`limit`.
pub(crate) fn listed<'a>(
    field: &str,
    kind: &str,
    (id, max_n, limit): (&'a str, usize, usize),
    ids: &mut BTreeMap<&'a str, usize>,
) -> Result<(), Problem> {
    if !is_id(id) {
        return Err(problem(
            format!("{field}.id"),
            format!("not a {kind} id (lowercase letters, digits and '-', at most 64)"),
        ));
    }
    if ids.insert(id, max_n).is_some() {
        return Err(problem(
            format!("{field}.id"),
            format!("'{id}' is listed twice"),
        ));
    }
    within(format!("{field}.max_n"), max_n, 1..=limit)
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
    if !(1..=max_n).contains(&n) {
        let text = format!("{n} is not a board {id} supports (1..={max_n})");
        return Err(problem(at("n"), text));
    }
    Ok(())
}

/// `value` is in `range`.
fn within<T: PartialOrd + std::fmt::Display>(
    field: impl Into<String>,
    value: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<(), Problem> {
    if range.contains(&value) {
        return Ok(());
    }
    let (start, end) = range.into_inner();
    Err(problem(field, format!("{value} is not in {start}..={end}")))
}

/// A device is named (its name, backend and driver on one line each), and
/// a software driver's runs are checked counts, never timings: its time is
/// an emulation's on the CPU, which a reader would take for a GPU's.
fn check_accelerator(
    field: &str,
    device: &queens_core::Accelerator,
    solver: &str,
    timed: bool,
) -> Result<(), Problem> {
    if device.name.trim().is_empty() {
        return Err(problem(format!("{field}.name"), "a device without a name"));
    }
    one_line(&format!("{field}.name"), &device.name)?;
    one_line(&format!("{field}.driver"), &device.driver)?;
    one_line(&format!("{field}.backend"), &device.backend)?;
    if device.software && timed {
        return Err(problem(
            format!("{field}.software"),
            format!(
                "{solver} was timed on a software driver: its times are the CPU's, not a GPU's"
            ),
        ));
    }
    Ok(())
}

fn check_provenance(record: &Record) -> Result<(), Problem> {
    let p = &record.provenance;
    if let Some(commit) = &p.git_commit
        && !(commit.len() >= 7
            && commit.len() <= 64
            && commit.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(problem(
            "provenance.git_commit",
            "not a commit id (7 to 64 hexadecimal digits)",
        ));
    }
    for (field, text) in [
        ("provenance.rustc", &p.rustc),
        ("provenance.cpu_model", &p.cpu_model),
        ("provenance.os", &p.os),
        ("provenance.command", &p.command),
    ] {
        one_line(field, text)?;
    }
    within("provenance.cores", p.cores, 1..=MAX_CORES)
}

fn check_settings(record: &Record) -> Result<(), Problem> {
    let s = &record.settings;
    one_line("settings.tool", &s.tool)?;
    within("settings.threads", s.threads, 0..=MAX_CORES)?;
    within("settings.min_n", s.min_n, 1..=MAX_N)?;
    if let Some(max_n) = s.max_n {
        within("settings.max_n", max_n, s.min_n..=MAX_N)?;
    }
    if let Some(rounds) = s.cold_rounds {
        within("settings.cold_rounds", rounds, 1..=MAX_SAMPLES)?;
    }
    if let Some(why) = &s.branch_misses_unavailable {
        one_line("settings.branch_misses_unavailable", why)?;
    }
    seconds("settings.max_run_seconds", s.max_run_seconds, YEAR)?;
    seconds("settings.budget_seconds", s.budget_seconds, YEAR)
}

fn check_entry(
    field: &str,
    entry: &Entry,
    record: &Record,
    (solvers, finders): (&BTreeMap<&str, usize>, &BTreeMap<&str, usize>),
) -> Result<(), Problem> {
    let at = |name: &str| format!("{field}.{name}");
    // A count names a solver, a found board a finder: two lists, so that
    // one id in both never lets an entry of one question pass for the other.
    let (kind, listed) = match entry.question {
        Question::FindOne => ("finders", finders),
        Question::Count => ("solvers", solvers),
    };
    among(&at, kind, listed, &entry.solver, entry.n)?;
    if entry.question == Question::FindOne && entry.solutions.is_some() {
        return Err(problem(
            at("solutions"),
            "finding one board counts no solutions",
        ));
    }
    match &entry.outcome {
        Outcome::Timed { warm, cold } => {
            check_timing(&at("outcome.warm"), warm)?;
            // Every timed entry of a record that took cold samples has
            // one per round, and none in a record that took none.
            match (cold, record.settings.cold_rounds) {
                (Some(cold), Some(rounds)) => {
                    check_timing(&at("outcome.cold"), cold)?;
                    if cold.samples != rounds {
                        return Err(problem(
                            at("outcome.cold.samples"),
                            "not settings.cold_rounds (one cold sample per round)",
                        ));
                    }
                }
                (None, None) => {}
                (None, Some(_)) => {
                    return Err(problem(
                        at("outcome.cold"),
                        "a timed entry without a cold timing",
                    ));
                }
                (Some(_), None) => {
                    return Err(problem(
                        at("outcome.cold"),
                        "the record took no cold samples (settings.cold_rounds)",
                    ));
                }
            }
        }
        Outcome::OverBudget { why } | Outcome::Error { why } => one_line(&at("outcome.why"), why)?,
    }
    if entry.timing().is_some() && entry.question == Question::Count {
        // A wrong count is an error entry, never a timing.
        let expected = oeis::total(entry.n);
        if entry.solutions.is_none() || (expected.is_some() && entry.solutions != expected) {
            return Err(problem(
                at("solutions"),
                format!(
                    "a timed count of n = {} must be the published {}",
                    entry.n,
                    expected.map_or("count".to_string(), |e| e.to_string())
                ),
            ));
        }
    }
    if let (Some(unique), Some(solutions)) = (entry.unique, entry.solutions)
        && unique > solutions
    {
        return Err(problem(at("unique"), "more classes than solutions"));
    }
    if entry.peak_heap_bytes.is_some_and(|b| b > MAX_HEAP_BYTES) {
        return Err(problem(at("peak_heap_bytes"), "more than 1 PiB"));
    }
    if entry.check_run_ns.is_some_and(|ns| ns as f64 > MAX_RUN_NS) {
        return Err(problem(at("check_run_ns"), "longer than a day"));
    }
    for (k, metric) in entry.extra.iter().enumerate() {
        if metric.name.is_empty()
            || !metric
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            return Err(problem(
                format!("{field}.extra[{k}].name"),
                "not a metric name",
            ));
        }
    }
    for (name, value) in [
        (
            "cold_branch_misses_per_node",
            entry.cold_branch_misses_per_node,
        ),
        (
            "warm_branch_misses_per_node",
            entry.warm_branch_misses_per_node,
        ),
    ] {
        match value {
            None => {}
            Some(_) if record.settings.branch_misses_unavailable.is_some() => {
                return Err(problem(
                    at(name),
                    "the record says the counters were unavailable",
                ));
            }
            Some(value) if !(value.is_finite() && value >= 0.0) => {
                return Err(problem(at(name), "not a count per node"));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

fn check_timing(field: &str, timing: &Timing) -> Result<(), Problem> {
    within(format!("{field}.samples"), timing.samples, 1..=MAX_SAMPLES)?;
    let plausible = |ns: f64| ns.is_finite() && ns > 0.0 && ns <= MAX_RUN_NS;
    for (name, ns) in [
        ("min_ns", timing.min_ns),
        ("median_ns", timing.median_ns),
        ("max_ns", timing.max_ns),
    ] {
        if !plausible(ns) {
            return Err(problem(
                format!("{field}.{name}"),
                format!("{ns} is not a run time (more than 0, at most a day in ns)"),
            ));
        }
    }
    if !(timing.min_ns <= timing.median_ns && timing.median_ns <= timing.max_ns) {
        return Err(problem(
            field,
            "min_ns <= median_ns <= max_ns does not hold",
        ));
    }
    if !(timing.mad_ns.is_finite() && timing.mad_ns >= 0.0 && timing.mad_ns <= timing.max_ns) {
        return Err(problem(
            format!("{field}.mad_ns"),
            "not a spread of these times",
        ));
    }
    Ok(())
}

fn is_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A duration in seconds, if there is one: above 0 and at most `max`.
pub(crate) fn seconds(field: &str, seconds: Option<f64>, max: f64) -> Result<(), Problem> {
    match seconds {
        Some(s) if !(s.is_finite() && s > 0.0 && s <= max) => Err(problem(
            field,
            format!("not a duration in seconds (above 0, at most {max} s)"),
        )),
        _ => Ok(()),
    }
}

/// [`one_line`], and not blank.
pub(crate) fn filled_line(field: &str, text: &str) -> Result<(), Problem> {
    if text.trim().is_empty() {
        return Err(problem(field, "empty"));
    }
    one_line(field, text)
}

/// Text a report prints in one table cell or line: no line breaks or other
/// control characters, and not absurdly long.
pub(crate) fn one_line(field: &str, text: &str) -> Result<(), Problem> {
    if text.chars().any(char::is_control) {
        return Err(problem(field, "contains a line break or control character"));
    }
    if text.len() > 4096 {
        return Err(problem(field, "longer than 4096 bytes"));
    }
    Ok(())
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
                r.entries[0].warm_branch_misses_per_node = Some(f64::NAN);
            }),
            "entries[0].warm_branch_misses_per_node"
        );
        assert_eq!(
            blamed(|r| r.settings.cold_rounds = None),
            "entries[0].outcome.cold"
        );
        assert_eq!(check(&crate::fixtures::version_1_record()), Ok(()));
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
            "solvers[0].accelerator.name"
        );
        assert_eq!(
            blamed(|r| {
                r.solvers[0].accelerator = Some(queens_core::Accelerator {
                    driver: "two\nlines".into(),
                    ..on(false)
                })
            }),
            "solvers[0].accelerator.driver"
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
