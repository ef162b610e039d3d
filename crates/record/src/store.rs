//! Records on disk: one new file per run, never overwriting; reading refuses
//! anything that is not exactly a record of this schema version, with one
//! line that names the file and the problem.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::meaning;
use super::schema::{OLDEST_READABLE_VERSION, Record, SCHEMA, SCHEMA_VERSION};
use crate::error::FileError;
use crate::files::{check_writable_dir, from_json, read_text, staged};

/// Writes `record` to a new file in `dir` (created if missing) named from its
/// date and `tool`, e.g. `2026-11-22T094000.123Z-bench.json`. The bytes go to
/// a temporary file in the same directory first and are then linked to their
/// name only if no file has it, so a reader never sees half a record and an
/// existing record is never replaced.
pub fn write_new(dir: &Path, tool: &str, record: &Record) -> Result<PathBuf, FileError> {
    write_new_json(dir, tool, &record.provenance.date, record)
}

/// Writes any kind of record as [`write_new`] does: `<date>-<kind>.json`
/// (`-2`, `-3`, ... before `.json` if taken), never replacing a file.
pub(crate) fn write_new_json<T: serde::Serialize>(
    dir: &Path,
    kind: &str,
    date: &str,
    record: &T,
) -> Result<PathBuf, FileError> {
    prepare_dir(dir)?;
    let mut text = serde_json::to_string_pretty(record).expect("a record is plain data");
    text.push('\n');
    let stem = format!("{}-{kind}", date.replace(':', ""));
    for attempt in 1u32.. {
        let name = if attempt == 1 {
            format!("{stem}.json")
        } else {
            format!("{stem}-{attempt}.json")
        };
        let path = dir.join(name);
        let temporary = staged(&path, text.as_bytes())?;
        match temporary.persist_noclobber(&path) {
            Ok(_) => return Ok(path),
            Err(error) if error.error.kind() == ErrorKind::AlreadyExists => continue,
            Err(error) => {
                return Err(FileError::new(
                    &path,
                    format!("cannot write: {}", error.error),
                ));
            }
        }
    }
    unreachable!("some attempt number is free")
}

/// Makes sure a record can be written to `dir` (creating it if missing)
/// before minutes are spent measuring: a long run must not end in a
/// directory that refuses its record.
pub fn prepare_dir(dir: &Path) -> Result<(), FileError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| FileError::new(dir, format!("cannot create directory: {e}")))?;
    check_writable_dir(dir)
        .map_err(|e| FileError::new(dir, format!("cannot write records here: {e}")))
}

/// A record file's text and its JSON, or one line saying why there is none:
/// unreadable, truncated (the JSON ends early) or not JSON.
pub(crate) fn read_json(path: &Path) -> Result<(String, Value), FileError> {
    let text = read_text(path)?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        FileError::new(
            path,
            if e.is_eof() {
                format!("truncated record (the JSON ends early, {e})")
            } else {
                format!("not valid JSON ({e})")
            },
        )
    })?;
    Ok((text, value))
}

/// Reads and checks one record. A problem with one field names it as a path
/// into the document (`entries[3].timing`).
pub fn read(path: &Path) -> Result<Record, FileError> {
    let (text, value) = read_json(path)?;
    match value.get("schema").and_then(Value::as_str) {
        Some(SCHEMA) => {}
        _ => {
            return Err(FileError::new(
                path,
                format!("not a queens bench record (no \"schema\": \"{SCHEMA}\")"),
            ));
        }
    }
    let version = match value.get("schema_version").and_then(Value::as_u64) {
        Some(version)
            if (u64::from(OLDEST_READABLE_VERSION)..=u64::from(SCHEMA_VERSION))
                .contains(&version) =>
        {
            version
        }
        Some(version) => {
            return Err(FileError::field(
                path,
                "schema_version",
                format!(
                    "schema version {version}, but this queens reads only versions \
                     {OLDEST_READABLE_VERSION} to {SCHEMA_VERSION} \
                     (see bench-results/FORMAT.md; rerun the benchmark to make a new record)"
                ),
            ));
        }
        None => {
            return Err(FileError::field(
                path,
                "schema_version",
                "missing or not a whole number",
            ));
        }
    };
    let record: Record = from_json(
        path,
        &text,
        &format!("does not follow schema version {version}"),
    )?;
    meaning::check(&record).map_err(|(field, problem)| FileError::field(path, field, problem))?;
    Ok(record)
}

/// What the tools that write bench records (this module's [`Record`]) call
/// their files: `cargo bench` and `queens compare`. Other kinds of record
/// (`-instructions.json`) live beside them and are never taken for one.
pub const BENCH_KINDS: &[&str] = &["bench", "compare"];

/// The newest bench record in `dir`. Record names begin with their UTC time
/// and a second record of the same moment gets `-2`, `-3`, ... before
/// `.json` (see [`write_new`]), so names are ordered by (name without the
/// number, number), not as plain text, where `x-2.json` sorts before
/// `x.json`. Only names of the kinds in [`BENCH_KINDS`] count: a JSON file
/// whose name does not begin with a time (`build-time.json`) or that is
/// another kind of record (`...-instructions.json`) is passed over.
pub fn newest(dir: &Path) -> Result<PathBuf, FileError> {
    newest_of_kind(dir, BENCH_KINDS)?.ok_or_else(|| {
        FileError::new(
            dir,
            "no bench records (*-bench.json, *-compare.json) here; run `scripts/bench` or `queens compare`",
        )
    })
}

/// The tool name of the reference records: `cargo bench`'s.
pub const REFERENCE_TOOL: &str = "bench";

/// The newest *reference* record in `dir`: the newest one written by
/// `cargo bench` (`scripts/bench`), whose name ends in `-bench`. A quick
/// `queens compare` writes beside it, and must not silently become what
/// the committed report is made from.
pub fn newest_reference(dir: &Path) -> Result<PathBuf, FileError> {
    newest_of_kind(dir, &[REFERENCE_TOOL])?.ok_or_else(|| {
        FileError::new(
            dir,
            format!(
                "no reference record (*-{REFERENCE_TOOL}.json) here; run `scripts/bench` \
                 (`queens report` also takes records by name)"
            ),
        )
    })
}

/// The newest record in `dir` whose kind (the name's part after the time,
/// before any `-2`) is one of `kinds`; `None` if there is none.
pub(crate) fn newest_of_kind(dir: &Path, kinds: &[&str]) -> Result<Option<PathBuf>, FileError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| FileError::new(dir, format!("cannot list records: {e}")))?;
    let mut names: Vec<(String, u32, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json") && path.is_file())
        .filter(|path| {
            path.file_name().is_some_and(|name| {
                name.as_encoded_bytes()
                    .first()
                    .is_some_and(u8::is_ascii_digit)
            })
        })
        .filter_map(|path| {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (base, attempt) = match stem.rsplit_once('-') {
                Some((base, number)) if number.bytes().all(|b| b.is_ascii_digit()) => {
                    (base.to_string(), number.parse().unwrap_or(u32::MAX))
                }
                _ => (stem, 1),
            };
            let kind = base.rsplit_once('-').map_or("", |(_, kind)| kind);
            kinds
                .contains(&kind)
                .then_some((base.clone(), attempt, path))
        })
        .collect();
    names.sort();
    Ok(names.pop().map(|(_, _, path)| path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::sample_record;

    #[test]
    fn a_record_round_trips_through_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let record = sample_record();
        let path = write_new(dir.path(), "bench", &record).unwrap();
        assert_eq!(
            path.file_name().unwrap(),
            "2026-01-02T030405.678Z-bench.json"
        );
        assert_eq!(read(&path).unwrap(), record);
        assert_eq!(newest(dir.path()).unwrap(), path);
        // Another format kept beside the records sorts after them by name
        // but is no record.
        std::fs::write(dir.path().join("build-time.json"), "{}").unwrap();
        assert_eq!(newest(dir.path()).unwrap(), path);
    }

    #[test]
    fn a_newer_compare_record_is_the_newest_but_not_the_reference() {
        let dir = tempfile::tempdir().unwrap();
        let bench = write_new(dir.path(), "bench", &sample_record()).unwrap();
        assert!(newest_reference(dir.path()).is_ok_and(|p| p == bench));
        let mut later = sample_record();
        later.provenance.date = "2027-01-01T00:00:00.000Z".to_string();
        let compare = write_new(dir.path(), "compare", &later).unwrap();
        let again = write_new(dir.path(), "bench", &sample_record()).unwrap();
        assert_eq!(newest(dir.path()).unwrap(), compare);
        assert_eq!(
            newest_reference(dir.path()).unwrap(),
            again,
            "the -2 bench record"
        );
        let empty = tempfile::tempdir().unwrap();
        write_new(empty.path(), "compare", &sample_record()).unwrap();
        let error = newest_reference(empty.path()).unwrap_err().to_string();
        assert!(error.contains("no reference record"), "{error}");
    }

    #[test]
    fn a_second_record_with_the_same_name_gets_a_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let first = write_new(dir.path(), "bench", &sample_record()).unwrap();
        let before = std::fs::read(&first).unwrap();
        let mut other = sample_record();
        other.entries.clear();
        let second = write_new(dir.path(), "bench", &other).unwrap();
        assert_ne!(first, second);
        assert_eq!(
            std::fs::read(&first).unwrap(),
            before,
            "the first record was overwritten"
        );
        assert_eq!(read(&second).unwrap(), other);
        assert_eq!(
            newest(dir.path()).unwrap(),
            second,
            "the -2 record is the newer"
        );
        // Only the two records: no temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    fn problem_with(text: &str) -> String {
        crate::fixtures::refusal("record.json", text, read)
    }

    #[test]
    fn a_truncated_record_is_refused_as_truncated() {
        let text = serde_json::to_string_pretty(&sample_record()).unwrap();
        let problem = problem_with(&text[..text.len() / 2]);
        assert!(problem.contains("truncated"), "{problem}");
    }

    #[test]
    fn another_schema_version_is_refused_never_misread() {
        let mut value = serde_json::to_value(sample_record()).unwrap();
        value["schema_version"] = serde_json::json!(3);
        let problem = problem_with(&value.to_string());
        assert!(
            problem.contains("schema version 3") && problem.contains("only versions 1 to 2"),
            "{problem}"
        );
    }

    #[test]
    fn a_version_1_record_still_reads_with_no_cold_figure() {
        let record = crate::fixtures::version_1_record();
        let mut value = serde_json::to_value(&record).unwrap();
        // A version-1 file has none of version 2's fields at all.
        for field in ["cold_rounds", "branch_misses_unavailable"] {
            value["settings"].as_object_mut().unwrap().remove(field);
        }
        for field in [
            "cold",
            "cold_ns_per_node",
            "cold_branch_misses_per_node",
            "warm_branch_misses_per_node",
        ] {
            value["entries"][0].as_object_mut().unwrap().remove(field);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("2026-01-01T000000.000Z-bench.json");
        std::fs::write(&path, value.to_string()).unwrap();
        let read_back = read(&path).unwrap();
        assert_eq!(read_back, record);
        assert_eq!(read_back.schema_version, 1);
        assert_eq!(read_back.entries[0].cold_median_ns(), None);
        assert!(read_back.entries[0].warm_median_ns().is_some());
    }

    #[test]
    fn a_version_2_record_round_trips_with_its_cold_figures() {
        let dir = tempfile::tempdir().unwrap();
        let record = sample_record();
        assert_eq!(record.schema_version, 2);
        assert!(record.entries[0].cold.is_some());
        let path = write_new(dir.path(), "bench", &record).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        for field in [
            "\"cold\"",
            "\"cold_rounds\"",
            "\"branch_misses_unavailable\"",
        ] {
            assert!(text.contains(field), "{field} not written");
        }
        assert_eq!(read(&path).unwrap(), record);
    }

    #[test]
    fn a_record_with_found_boards_round_trips_and_old_ones_stay_as_they_were() {
        let dir = tempfile::tempdir().unwrap();
        let record = crate::fixtures::find_record();
        let path = write_new(dir.path(), "bench", &record).unwrap();
        let read_back = read(&path).unwrap();
        assert_eq!(read_back, record);
        let found: Vec<&crate::Entry> = read_back
            .entries
            .iter()
            .filter(|e| e.question == crate::FIND_ONE)
            .collect();
        assert_eq!(found.len(), 5);
        assert_eq!(read_back.settings.find_seed, Some(1));
        assert!(found.iter().any(|e| e.n == 1_000_000));
        // A record that timed no finder writes neither new field, so the
        // records made before them are read, and written, as they were.
        let text = serde_json::to_string(&sample_record()).unwrap();
        assert!(!text.contains("finders") && !text.contains("find_seed"));
    }

    #[test]
    fn a_version_1_record_with_cold_figures_is_refused() {
        let mut record = crate::fixtures::version_1_record();
        record.entries[0].cold = sample_record().entries[0].cold;
        let problem = problem_with(&serde_json::to_string(&record).unwrap());
        assert!(problem.contains("entries[0].cold"), "{problem}");
    }

    #[test]
    fn other_json_and_changed_fields_are_refused() {
        assert!(problem_with("{\"a\": 1}").contains("not a queens bench record"));
        assert!(problem_with("not json").contains("not valid JSON"));
        let mut value = serde_json::to_value(sample_record()).unwrap();
        value["entries"][0]["median"] = serde_json::json!(1);
        assert!(problem_with(&value.to_string()).contains("does not follow schema version 2"));
        // A field of the wrong type is named by its path in the document.
        let mut value = serde_json::to_value(sample_record()).unwrap();
        value["entries"][0]["n"] = serde_json::json!("eight");
        let problem = problem_with(&value.to_string());
        assert!(problem.contains("field `entries[0].n`"), "{problem}");
        let missing = std::path::Path::new("/nonexistent/record.json");
        assert!(
            read(missing)
                .unwrap_err()
                .to_string()
                .contains("cannot read")
        );
    }
}
