//! Records on disk: one new file per run, never overwriting; reading refuses
//! anything that is not exactly a record of this schema version, with one
//! line that names the file and the problem.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::meaning::{self, Problem};
use super::schema::{FORMAT, FORMAT_VERSION, OLD_SCHEMA, Record};
use crate::error::FileError;
use crate::files::{check_writable_dir, from_json, from_value, read_text, staged};

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
        // A new name by a second link: refused if a file has it.
        match std::fs::hard_link(&staged(&path, text.as_bytes())?.path, &path) {
            Ok(()) => return Ok(path),
            Err(error) if error.kind() == ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(FileError::new(&path, format!("cannot write: {error}"))),
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

/// A record file's JSON, or one line saying why there is none:
/// unreadable, truncated (the JSON ends early) or not JSON (naming the
/// field, as a path into the document, where the fault is in one).
fn read_json(path: &Path) -> Result<Value, FileError> {
    let text = read_text(path)?;
    serde_json::from_str(&text).map_err(|e| {
        if e.is_eof() {
            return FileError::new(path, format!("truncated record (the JSON ends early, {e})"));
        }
        // Read again, only to find the field.
        let at_field = from_json::<Value>(path, &text, "not valid JSON").err();
        at_field.unwrap_or_else(|| FileError::new(path, format!("not valid JSON ({e})")))
    })
}

/// A kind of document the project writes: its `format` header, the one
/// version of it this build reads, and the `schema` its documents had
/// before that header, which are refused in one line. Every record,
/// whichever crate writes it, is read through one.
pub struct Kind {
    /// The value of `format`, e.g. `queens-bench`.
    pub format: &'static str,
    /// The one `format_version` read.
    pub version: u32,
    /// The `schema` of the documents written before the `format` header,
    /// if the kind had one: named in their refusal, never read.
    pub retired: Option<&'static str>,
    /// What a refusal calls it: "a queens bench record".
    pub name: &'static str,
    /// What to do with a document of another version.
    pub remedy: &'static str,
    /// What a shape refusal calls its versions: "" or "instructions ".
    pub versions_of: &'static str,
}

/// Reads and checks one document of `kind`: its header, its shape, then
/// its meaning (`check`). A problem with one field names it as a path into
/// the document (`entries[3].outcome`).
pub fn read_kind<T: serde::de::DeserializeOwned>(
    path: &Path,
    kind: &Kind,
    check: fn(&T) -> Result<(), Problem>,
) -> Result<T, FileError> {
    let value = read_json(path)?;
    header(path, &value, kind)?;
    let what = format!(
        "does not follow {}format version {}",
        kind.versions_of, kind.version
    );
    let document: T = from_value(path, value, &what)?;
    check(&document).map_err(|(field, why)| FileError::field(path, field, why))?;
    Ok(document)
}

/// Checks a document's header: the `format` of `kind` at the version this
/// build reads, or one line saying why it is no document this build reads.
pub(crate) fn header(path: &Path, value: &Value, kind: &Kind) -> Result<(), FileError> {
    let text = |field: &str| value.get(field).and_then(Value::as_str);
    if text("format") != Some(kind.format) {
        if let Some(schema) = kind.retired
            && text("schema") == Some(schema)
        {
            let version = value.get("schema_version").unwrap_or(&Value::Null);
            let why = format!(
                "version {version} of the layout before format version {}, which this \
                 queens no longer reads (see bench-results/FORMAT.md; {})",
                kind.version, kind.remedy
            );
            return Err(FileError::field(path, "schema_version", why));
        }
        return Err(FileError::new(
            path,
            format!("not {} (no \"format\": \"{}\")", kind.name, kind.format),
        ));
    }
    match value.get("format_version") {
        Some(version) if version.as_u64() == Some(u64::from(kind.version)) => Ok(()),
        Some(version) if version.is_u64() => Err(FileError::field(
            path,
            "format_version",
            format!(
                "version {version}, but this queens reads only version {} \
                 (see bench-results/FORMAT.md; {})",
                kind.version, kind.remedy
            ),
        )),
        _ => Err(FileError::field(
            path,
            "format_version",
            "missing or not a whole number",
        )),
    }
}

const BENCH: Kind = Kind {
    format: FORMAT,
    version: FORMAT_VERSION,
    retired: Some(OLD_SCHEMA),
    name: "a queens bench record",
    remedy: "rerun the benchmark to make a new record",
    versions_of: "",
};

/// Reads and checks one record.
pub fn read(path: &Path) -> Result<Record, FileError> {
    read_kind(path, &BENCH, meaning::consistent)
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
    let mut names: Vec<(String, u32, PathBuf)> = (entries.filter_map(Result::ok))
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json") && path.is_file())
        .filter_map(|path| {
            let stem = path.file_stem()?.to_string_lossy().into_owned();
            stem.starts_with(|c: char| c.is_ascii_digit())
                .then_some(())?;
            let (base, attempt) = match stem.rsplit_once('-') {
                Some((base, number)) if number.bytes().all(|b| b.is_ascii_digit()) => {
                    (base.to_string(), number.parse().unwrap_or(u32::MAX))
                }
                _ => (stem, 1),
            };
            let kind = base.rsplit_once('-').map_or("", |(_, kind)| kind);
            let wanted = kinds.contains(&kind);
            wanted.then_some((base, attempt, path))
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

    #[test]
    fn every_committed_record_reads_and_writes_back_byte_for_byte() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut read_back = 0;
        for path in std::fs::read_dir(dir.join(crate::RECORDS_DIR)).unwrap() {
            let path = path.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let again = if name.ends_with("-bench.json") {
                serde_json::to_string_pretty(&read(&path).unwrap())
            } else if name.ends_with("-instructions.json") {
                let record = crate::instructions::read_instructions(&path).unwrap();
                serde_json::to_string_pretty(&record)
            } else if name == crate::estimates::ESTIMATES_FILE {
                serde_json::to_string_pretty(&crate::estimates::read_estimates(&path).unwrap())
            } else {
                continue;
            };
            let text = std::fs::read_to_string(&path).unwrap();
            assert_eq!(again.unwrap().trim_end(), text.trim_end(), "{name}");
            read_back += 1;
        }
        assert!(read_back > 2, "{read_back}");
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
    fn another_version_is_refused_never_misread() {
        let mut value = serde_json::to_value(sample_record()).unwrap();
        value["format_version"] = serde_json::json!(4);
        let problem = problem_with(&value.to_string());
        assert!(
            problem.contains("version 4") && problem.contains("only version 3"),
            "{problem}"
        );
    }

    #[test]
    fn records_of_versions_1_and_2_are_refused_in_one_line() {
        for version in [1, 2] {
            let mut value = serde_json::to_value(sample_record()).unwrap();
            let object = value.as_object_mut().unwrap();
            object.remove("format");
            object.remove("format_version");
            object.insert("schema".into(), OLD_SCHEMA.into());
            object.insert("schema_version".into(), version.into());
            let problem = problem_with(&value.to_string());
            assert!(
                problem.contains(&format!("field `schema_version`: version {version}"))
                    && problem.contains("no longer reads")
                    && problem.contains("rerun the benchmark")
                    && !problem.contains('\n'),
                "{problem}"
            );
        }
    }

    #[test]
    fn a_record_round_trips_with_its_cold_figures_and_no_costs_per_node() {
        let dir = tempfile::tempdir().unwrap();
        let record = sample_record();
        assert!(record.entries[0].cold().is_some());
        let path = write_new(dir.path(), "bench", &record).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        for field in [
            "\"format\": \"queens-bench\"",
            "\"format_version\": 3",
            "\"cold\"",
            "\"cold_rounds\"",
            "\"branch_misses_unavailable\"",
        ] {
            assert!(text.contains(field), "{field} not written");
        }
        assert!(!text.contains("per_node\": 6"), "derived, not stored");
        assert_eq!(read(&path).unwrap(), record);
        assert_eq!(record.entries[0].ns_per_node(), Some(14_000.5 / 2057.0));
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
            .filter(|e| e.question == crate::Question::FindOne)
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
    fn other_json_and_changed_fields_are_refused() {
        assert!(problem_with("{\"a\": 1}").contains("not a queens bench record"));
        assert!(problem_with("not json").contains("not valid JSON"));
        let mut value = serde_json::to_value(sample_record()).unwrap();
        value["entries"][0]["median"] = serde_json::json!(1);
        assert!(problem_with(&value.to_string()).contains("does not follow format version 3"));
        // A question, or a status, that is not one.
        let mut value = serde_json::to_value(sample_record()).unwrap();
        value["entries"][0]["question"] = serde_json::json!("list");
        let problem = problem_with(&value.to_string());
        assert!(problem.contains("field `entries[0].question`"), "{problem}");
        let mut value = serde_json::to_value(sample_record()).unwrap();
        value["entries"][0]["outcome"]["status"] = serde_json::json!("late");
        assert!(problem_with(&value.to_string()).contains("entries[0].outcome"));
        // A field of the wrong type is named by its path in the document.
        let mut value = serde_json::to_value(sample_record()).unwrap();
        value["entries"][0]["n"] = serde_json::json!("eight");
        let problem = problem_with(&value.to_string());
        assert!(problem.contains("field `entries[0].n`"), "{problem}");
        // A date that names no moment.
        let mut value = serde_json::to_value(sample_record()).unwrap();
        value["provenance"]["date"] = serde_json::json!("9999-99-99T99:99:99.999Z");
        let problem = problem_with(&value.to_string());
        assert!(problem.contains("field `provenance.date`"), "{problem}");
        assert!(problem.contains("not a UTC date"), "{problem}");
        let missing = std::path::Path::new("/nonexistent/record.json");
        assert!(
            read(missing)
                .unwrap_err()
                .to_string()
                .contains("cannot read")
        );
    }
}
