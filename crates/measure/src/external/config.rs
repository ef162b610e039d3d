//! The config file that describes external programs (TOML, one
//! `[[external]]` table each; examples/external/README.md documents every
//! field), read into [`Spec`]s whose every field has been checked: a bad
//! file is refused in one line that names the file and the field, before
//! anything runs.

use std::path::Path;

use queens_core::oeis;
use regex::Regex;
use serde::Deserialize;

use crate::error::Error;

/// The smallest n an external is run at unless its config says otherwise
/// (below it every count is all start-up).
pub const DEFAULT_MIN_N: usize = 4;

/// One external program as its config describes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Its id in tables and records.
    pub id: String,
    /// The command that counts n: words, `{n}` and `{threads}` filled in.
    pub command: String,
    /// A command run once before anything else.
    pub build: Option<String>,
    /// A command whose first line of output names the program's version.
    pub version: Option<String>,
    /// The file hashed into the record; default: the command's first word.
    pub program: Option<String>,
    /// The smallest n to run.
    #[serde(default = "default_min_n")]
    pub min_n: usize,
    /// The largest n to run.
    #[serde(default = "default_max_n")]
    pub max_n: usize,
    /// How its count is read from what it prints.
    pub solutions: Reader,
    /// How its classes up to symmetry are read, if it prints them.
    pub classes: Option<Reader>,
}

fn default_min_n() -> usize {
    DEFAULT_MIN_N
}

fn default_max_n() -> usize {
    oeis::MAX_KNOWN_N
}

/// Where a number is in a program's standard output.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Reader {
    /// The first capture group of the first match of this pattern.
    Regex(String),
    /// The number at this JSON pointer (RFC 6901) of the output read as
    /// one JSON document.
    Json(String),
}

/// The whole file: a list of programs.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    external: Vec<Spec>,
}

/// Reads and checks the config at `path`. `taken` are the ids already in
/// use (the built-in solvers'): an external may not pass for one of them.
pub fn read(path: &Path, taken: &[&str]) -> Result<Vec<Spec>, Error> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|error| Error::Input(format!("cannot read {name}: {error}")))?;
    let file: File = toml::from_str(&text).map_err(|error| {
        let line = error
            .span()
            .map(|span| text[..span.start].lines().count().max(1));
        let at = line.map_or(String::new(), |line| format!(" line {line}:"));
        let what = error.message().replace('\n', " ");
        Error::Input(format!("{name}:{at} {what}"))
    })?;
    if file.external.is_empty() {
        return Err(Error::Input(format!(
            "{name}: no [[external]] program is described"
        )));
    }
    let mut seen: Vec<&str> = taken.to_vec();
    for (i, spec) in file.external.iter().enumerate() {
        let field = |key: &str| format!("{name}: external[{i}].{key}");
        check(spec, &field).map_err(Error::Input)?;
        if seen.contains(&spec.id.as_str()) {
            return Err(Error::Input(format!(
                "{}: '{}' is already the id of {}",
                field("id"),
                spec.id,
                if taken.contains(&spec.id.as_str()) {
                    "a built-in solver"
                } else {
                    "another external"
                }
            )));
        }
        seen.push(&spec.id);
    }
    Ok(file.external)
}

/// One spec's fields, each on its own: the first problem, in words that
/// start with its field.
fn check(spec: &Spec, field: &dyn Fn(&str) -> String) -> Result<(), String> {
    // An id a record can hold.
    if !queens_record::is_id(&spec.id) {
        return Err(format!(
            "{}: not an id (lowercase letters, digits and '-', at most 64)",
            field("id")
        ));
    }
    let command = words(&spec.command).ok_or_else(|| unsplittable(&field("command")))?;
    if !command.iter().any(|word| word.contains("{n}")) {
        return Err(format!(
            "{}: has no {{n}} for the board size",
            field("command")
        ));
    }
    for (key, text) in [("build", &spec.build), ("version", &spec.version)] {
        if let Some(text) = text {
            words(text).ok_or_else(|| unsplittable(&field(key)))?;
        }
    }
    if spec.program.as_deref().is_some_and(str::is_empty) {
        return Err(format!("{}: empty", field("program")));
    }
    let limit = oeis::MAX_KNOWN_N;
    if !(1..=limit).contains(&spec.max_n) {
        return Err(format!(
            "{}: {} is not in 1..={limit} (the counts are checked against the published ones)",
            field("max_n"),
            spec.max_n
        ));
    }
    if !(1..=spec.max_n).contains(&spec.min_n) {
        return Err(format!(
            "{}: {} is not in 1..={} (its max_n)",
            field("min_n"),
            spec.min_n,
            spec.max_n
        ));
    }
    compile(&spec.solutions).map_err(|why| format!("{}: {why}", field("solutions")))?;
    if let Some(classes) = &spec.classes {
        compile(classes).map_err(|why| format!("{}: {why}", field("classes")))?;
    }
    Ok(())
}

fn unsplittable(field: &str) -> String {
    format!("{field}: empty, or a quote is not closed")
}

/// A command's words, split as a shell would split them (quotes, escapes)
/// but with nothing expanded; `None` for an empty command or an unclosed
/// quote.
pub fn words(command: &str) -> Option<Vec<String>> {
    shlex::split(command).filter(|words| !words.is_empty())
}

/// A reader made ready to read.
#[derive(Clone, Debug)]
pub enum Compiled {
    /// See [`Reader::Regex`].
    Regex(Regex),
    /// See [`Reader::Json`].
    Json(String),
}

/// The reader compiled, or why it cannot read a number.
pub fn compile(reader: &Reader) -> Result<Compiled, String> {
    match reader {
        Reader::Regex(pattern) => {
            let regex = Regex::new(pattern).map_err(|error| {
                let first = error.to_string();
                let last = first.lines().last().unwrap_or_default().to_string();
                format!("not a regular expression: {}", last.trim())
            })?;
            if regex.captures_len() < 2 {
                return Err("has no capture group for the number: write it as (\\d+)".into());
            }
            Ok(Compiled::Regex(regex))
        }
        Reader::Json(pointer) if pointer.is_empty() || pointer.starts_with('/') => {
            Ok(Compiled::Json(pointer.clone()))
        }
        Reader::Json(pointer) => Err(format!(
            "'{pointer}' is not a JSON pointer (it starts with '/', as in \"/solutions\")"
        )),
    }
}

impl Compiled {
    /// The number this reader finds in `output`, or why there is none.
    pub fn read(&self, output: &str) -> Result<u64, String> {
        let text = match self {
            Compiled::Regex(regex) => regex
                .captures(output)
                .and_then(|captures| captures.get(1))
                .map(|found| found.as_str().trim().to_string())
                .ok_or_else(|| {
                    format!(
                        "its output does not match /{regex}/ (it printed {})",
                        glimpse(output)
                    )
                })?,
            Compiled::Json(pointer) => {
                let value: serde_json::Value =
                    serde_json::from_str(output.trim()).map_err(|error| {
                        format!("its output is not JSON ({error}): {}", glimpse(output))
                    })?;
                match value.pointer(pointer) {
                    Some(serde_json::Value::Number(number)) => number.to_string(),
                    Some(serde_json::Value::String(text)) => text.clone(),
                    _ => return Err(format!("its JSON output has no number at '{pointer}'")),
                }
            }
        };
        text.parse()
            .map_err(|_| format!("'{}' is not a count", glimpse(&text)))
    }
}

/// The start of a program's output, on one line, for a message.
fn glimpse(output: &str) -> String {
    let line = output.trim().lines().next().unwrap_or("");
    if line.is_empty() {
        return "nothing".to_string();
    }
    let mut short: String = line.chars().take(60).collect();
    if short.len() < line.len() {
        short.push_str("...");
    }
    format!("\"{}\"", short.escape_debug())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.toml");
        std::fs::write(&path, text).unwrap();
        match read(&path, &["three-mask"]) {
            Err(Error::Input(line)) => {
                assert!(!line.contains('\n'), "{line}");
                assert!(line.starts_with(&path.display().to_string()), "{line}");
                line
            }
            other => panic!("{other:?}"),
        }
    }

    const GOOD: &str =
        "[[external]]\nid = \"c\"\ncommand = \"./c {n}\"\nsolutions = { regex = '(\\d+)' }\n";

    #[test]
    fn a_good_file_reads_with_its_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.toml");
        std::fs::write(&path, GOOD).unwrap();
        let specs = read(&path, &[]).unwrap();
        assert_eq!(specs.len(), 1);
        assert_eq!((specs[0].min_n, specs[0].max_n), (4, oeis::MAX_KNOWN_N));
    }

    #[test]
    fn each_bad_field_is_named_in_one_line() {
        let missing = refused("[[external]]\nid = \"c\"\nsolutions = { regex = '(\\d+)' }\n");
        assert!(
            missing.contains("line 1") && missing.contains("missing field `command`"),
            "{missing}"
        );
        let unknown = refused(&format!("{GOOD}comand = \"x\"\n"));
        assert!(unknown.contains("unknown field `comand`"), "{unknown}");
        let builtin = refused(&GOOD.replace("\"c\"", "\"three-mask\""));
        assert!(
            builtin.contains("external[0].id") && builtin.contains("built-in"),
            "{builtin}"
        );
        let twice = refused(&format!("{GOOD}{GOOD}"));
        assert!(
            twice.contains("external[1].id") && twice.contains("another external"),
            "{twice}"
        );
        let no_n = refused(&GOOD.replace("{n}", "8"));
        assert!(no_n.contains("external[0].command: has no {n}"), "{no_n}");
        let quote = refused(&GOOD.replace("./c {n}", "./c '{n}"));
        assert!(
            quote.contains("external[0].command: empty, or a quote"),
            "{quote}"
        );
        let group = refused(&GOOD.replace("(\\d+)", "\\d+"));
        assert!(
            group.contains("external[0].solutions: has no capture group"),
            "{group}"
        );
        let regex = refused(&GOOD.replace("(\\d+)", "(\\d+"));
        assert!(regex.contains("not a regular expression"), "{regex}");
        let pointer = refused(&GOOD.replace("regex = '(\\d+)'", "json = 'solutions'"));
        assert!(pointer.contains("not a JSON pointer"), "{pointer}");
        let max = refused(&format!("{GOOD}max_n = 40\n"));
        assert!(max.contains("external[0].max_n: 40"), "{max}");
        let min = refused(&format!("{GOOD}min_n = 9\nmax_n = 8\n"));
        assert!(min.contains("external[0].min_n: 9"), "{min}");
        let none = refused("external = []\n");
        assert!(none.contains("no [[external]]"), "{none}");
        let id = refused(&GOOD.replace("\"c\"", "\"C c\""));
        assert!(id.contains("external[0].id: not an id"), "{id}");
    }

    #[test]
    fn readers_find_the_count_or_say_why_not() {
        let regex = compile(&Reader::Regex(r"Result: (\d+)".into())).unwrap();
        assert_eq!(regex.read("n=8\nResult: 92\n"), Ok(92));
        let miss = regex.read("ninety-two\n").unwrap_err();
        assert!(
            miss.contains("does not match") && miss.contains("ninety-two"),
            "{miss}"
        );
        let json = compile(&Reader::Json("/solutions".into())).unwrap();
        assert_eq!(json.read("{\"n\": 8, \"solutions\": 92}\n"), Ok(92));
        assert!(
            json.read("92")
                .unwrap_err()
                .contains("no number at '/solutions'")
        );
        assert!(json.read("{").unwrap_err().contains("not JSON"));
        assert_eq!(json.read("{\"solutions\": \"92\"}"), Ok(92));
        assert!(
            json.read("{\"solutions\": -1}")
                .unwrap_err()
                .contains("not a count")
        );
    }
}
