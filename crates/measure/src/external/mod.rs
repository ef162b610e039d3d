//! Programs outside the workspace, in any language, measured by the same
//! protocol as the built-in solvers: described in a config file
//! ([`config`]), built once, each answer read from what it prints and
//! checked against OEIS before it is timed (a wrong or unreadable answer is
//! an error row, never a time), killed at its budget, and timed whole, cold
//! among the others. What it is and where it came from (command, version,
//! a hash of the file run) goes into the record as [`ExternalFacts`];
//! nothing in a record is ever run again.
//!
//! A program is timed from spawn to exit, so every time includes its
//! start-up (a process, a runtime, a page cache); its time at the smallest
//! n it was timed at bounds that cost and is recorded beside it, so that a
//! reader does not mistake start-up for search.

pub mod config;
mod run;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::Duration;

use queens_core::{counted, oeis};
use queens_record::{COUNT, Entry, ExternalFacts, Outcome, Question, SolverFacts};
use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::run::{CheckedRun, Subject};
pub use config::Spec;
use config::{Compiled, words};

/// What a record says one of an external's nodes is: it has none.
pub const NODE: &str = "none: an external program is timed whole (process start-up included)";

/// An external program, built and ready to run.
pub struct Program {
    id: &'static str,
    command: Vec<String>,
    dir: PathBuf,
    min_n: usize,
    max_n: usize,
    solutions: Compiled,
    classes: Option<Compiled>,
    threads: usize,
    limit: Duration,
    facts: ExternalFacts,
    /// Timed runs whose answer was wrong or missing, by n: their entries
    /// become errors ([`Program::settle`]).
    failed: RefCell<Vec<(usize, String)>>,
}

/// How long a build may take: a compiler may take minutes (a build of
/// every board size of a counter whose size is a constant), and a hang
/// must still end.
const BUILD_LIMIT: Duration = Duration::from_secs(3600);

/// How the programs of a config are run.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// What `{threads}` becomes.
    pub threads: usize,
    /// The longest one run may take before it is killed (a version
    /// command gets the same; a build gets an hour).
    pub limit: Duration,
}

/// Runs the build and version commands of `specs` (read from the config
/// at `path` by [`config::read`]) once each, and finds and hashes the
/// file each one runs. A build that fails, or a program that is not
/// there, is input: one line naming the file and the field.
pub fn prepare(path: &Path, specs: Vec<Spec>, setup: Setup) -> Result<Vec<Program>, Error> {
    let name = path.display().to_string();
    // Absolute: a program's path is made from it and then run from it.
    let dir = std::path::absolute(path)
        .ok()
        .and_then(|path| Some(path.parent()?.to_path_buf()))
        .ok_or_else(|| Error::Input(format!("{name}: cannot tell the folder it is in")))?;
    specs
        .into_iter()
        .enumerate()
        .map(|(i, spec)| {
            let field = |key: &str| format!("{name}: external[{i}].{key}");
            // Before its version is asked or its file hashed: the build
            // may make both.
            let once = |key, command: &Option<String>, limit| {
                let ran = command.as_ref().map(|command| once(command, &dir, limit));
                ran.transpose()
                    .map_err(|why| Error::Input(format!("{}: {why}", field(key))))
            };
            let build_output = once("build", &spec.build, BUILD_LIMIT)?;
            let version = once("version", &spec.version, setup.limit)?.map(|out| {
                let first = out.lines().find(|line| !line.trim().is_empty());
                first.unwrap_or("").trim().to_string()
            });
            let command = words(&spec.command).expect("checked by config::read");
            // A program the config names is a path from its folder; the
            // command's first word is found as the system would find it.
            let (key, program) = match &spec.program {
                Some(program) if program.contains('/') => ("program", program.clone()),
                Some(program) => ("program", format!("./{program}")),
                None => ("command", command[0].clone()),
            };
            let program = program.replace("{n}", &spec.min_n.to_string());
            let program_sha256 = hash(&locate(&program, &dir).ok_or_else(|| {
                Error::Input(format!("{}: no program '{program}' here", field(key)))
            })?)
            .map_err(|why| Error::Input(format!("{}: {why}", field(key))))?;
            Ok(Program {
                id: Box::leak(spec.id.clone().into_boxed_str()),
                command,
                solutions: config::compile(&spec.solutions).expect("checked by config::read"),
                classes: (spec.classes.as_ref())
                    .map(|c| config::compile(c).expect("checked by config::read")),
                min_n: spec.min_n,
                max_n: spec.max_n,
                threads: setup.threads,
                limit: setup.limit,
                facts: ExternalFacts {
                    config: name.clone(),
                    command: spec.command,
                    build: spec.build,
                    build_output: build_output.map(|out| last_lines(&out)),
                    version,
                    program,
                    program_sha256,
                    startup_ns: None,
                    startup_n: None,
                },
                dir: dir.clone(),
                failed: RefCell::default(),
            })
        })
        .collect()
}

/// Runs a build or version command once: its output, stdout then stderr.
fn once(command: &str, dir: &Path, limit: Duration) -> Result<String, String> {
    let mut words = words(command).expect("checked by config::read");
    words[0] = resolve(&words[0], dir);
    run::run(&words, dir, limit).map(|ran| ran.stdout)
}

/// The file a program name stands for: a path (with a '/') from `dir`,
/// else the first match on PATH.
fn locate(program: &str, dir: &Path) -> Option<PathBuf> {
    if program.contains('/') {
        let path = dir.join(program);
        return path.is_file().then_some(path);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|folder| folder.join(program))
        .find(|candidate| candidate.is_file())
}

/// A command's first word made runnable from anywhere: a relative path is
/// taken from the config's folder (the child's working directory, which
/// `Command` does not promise to resolve it against).
fn resolve(word: &str, dir: &Path) -> String {
    if word.contains('/') && !word.starts_with('/') {
        dir.join(word).display().to_string()
    } else {
        word.to_string()
    }
}

/// SHA-256 of a file's bytes, in hex.
fn hash(path: &Path) -> Result<String, String> {
    let bytes =
        std::fs::read(path).map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

/// The last lines of a build's output, enough to see how it went.
fn last_lines(output: &str) -> String {
    let lines: Vec<&str> = output.trim_end().lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

impl Program {
    /// Its id.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The n it is run at, within `min_n..=max_n`.
    pub fn sizes(&self, min_n: usize, max_n: usize) -> std::ops::RangeInclusive<usize> {
        self.min_n.max(min_n)..=self.max_n.min(max_n)
    }

    /// One run at n: its wall time and count, or why it has no right one.
    fn answer(&self, n: usize) -> Result<(Duration, u64, Option<u64>), (Duration, String)> {
        let words: Vec<String> = (self.command.iter())
            .enumerate()
            .map(|(i, word)| {
                let word = word
                    .replace("{n}", &n.to_string())
                    .replace("{threads}", &self.threads.to_string());
                if i == 0 {
                    resolve(&word, &self.dir)
                } else {
                    word
                }
            })
            .collect();
        let ran = run::run(&words, &self.dir, self.limit).map_err(|why| (self.limit, why))?;
        let wrong = |why: String| (ran.wall, why);
        let solutions = self.solutions.read(&ran.stdout).map_err(wrong)?;
        let classes = match &self.classes {
            Some(reader) => Some(reader.read(&ran.stdout).map_err(wrong)?),
            None => None,
        };
        let published = |name, found: u64, want: Option<u64>, one, many| match want {
            Some(want) if want == found => Ok(()),
            Some(want) => Err(format!(
                "wrong count: {} printed {} for n = {n}, OEIS {name} says {want}",
                self.id,
                counted(found, one, many)
            )),
            None => Err(format!("no published count for n = {n} to check against")),
        };
        published(
            "A000170",
            solutions,
            oeis::total(n),
            "solution",
            "solutions",
        )
        .and_then(|()| match classes {
            Some(classes) => published("A002562", classes, oeis::unique(n), "class", "classes"),
            None => Ok(()),
        })
        .map_err(wrong)?;
        Ok((ran.wall, solutions, classes))
    }

    /// Its entries made errors where a timed run answered wrong, or not at
    /// all: a time is kept only when every run behind it was right.
    pub fn settle(&self, entries: &mut [Entry]) {
        for (n, why) in self.failed.borrow().iter() {
            if let Some(entry) = (entries.iter_mut())
                .find(|e| e.solver == self.id && e.n == *n && e.question == COUNT)
                && !matches!(entry.outcome, Outcome::Error { .. })
            {
                entry.outcome = Outcome::Error {
                    why: format!("a timed run: {why}"),
                };
            }
        }
    }

    /// What the record says of it, its start-up cost taken from its
    /// timed `entries` (the cold median at the smallest n timed).
    pub fn facts(&self, entries: &[Entry]) -> SolverFacts {
        let first = (entries.iter())
            .filter(|e| e.solver == self.id && e.question == COUNT)
            .filter_map(|e| Some((e.n, e.cold_median_ns()?)))
            .min_by_key(|(n, _)| *n);
        SolverFacts {
            id: self.id.to_string(),
            node: NODE.to_string(),
            max_n: self.max_n,
            enumerates: false,
            accelerator: None,
            external: Some(ExternalFacts {
                startup_ns: first.map(|(_, ns)| (ns.round() as u64).max(1)),
                startup_n: first.map(|(n, _)| n),
                ..self.facts.clone()
            }),
        }
    }
}

impl Subject for Program {
    fn question(&self) -> Question {
        COUNT
    }
    fn id(&self) -> &'static str {
        self.id
    }
    fn check(&self, n: usize) -> CheckedRun {
        let (wall, solutions, unique, error) = match self.answer(n) {
            Ok((wall, solutions, classes)) => (wall, Some(solutions), classes, None),
            Err((wall, why)) => (wall, None, None, Some(why)),
        };
        CheckedRun {
            question: COUNT,
            solver: self.id,
            n,
            wall,
            peak_heap_bytes: 0,
            error,
            nodes: None,
            solutions,
            unique,
            extra: Vec::new(),
        }
    }
    fn time(&self, n: usize) -> Duration {
        self.answer(n).map_or_else(
            |(wall, why)| {
                self.failed.borrow_mut().push((n, why));
                wall
            },
            |(wall, ..)| wall,
        )
    }
}
