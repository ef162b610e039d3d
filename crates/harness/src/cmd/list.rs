//! `queens list`: what is registered, the questions each answers ("count"
//! all boards, "list" them, "find" one), and its limits.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::error::{CliError, output};
use crate::registry::{self, FINDERS, SOLVERS};

/// `queens list` takes no arguments.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// One entry's lines: the idea, the seed, the limit, and a device note.
struct Entry {
    id: &'static str,
    max_n: usize,
    idea: &'static str,
    seed: &'static str,
    limit: String,
    device: Option<String>,
}

/// Prints the registry, one block per solver, then one per finder that is
/// not also a solver (a listing solver's first board is the same id).
pub fn run(_: &Args) -> Result<(), CliError> {
    let mut entries: Vec<Entry> = SOLVERS
        .iter()
        .map(|solver| {
            let info = solver.info();
            Entry {
                id: info.id,
                max_n: info.max_n,
                idea: info.idea,
                seed: info.seed,
                limit: format!("n <= {} {}", info.max_n, info.limit_reason),
                device: match solver.accelerator() {
                    Ok(None) => None,
                    Ok(Some(device)) => Some(format!("device: {device}")),
                    Err(missing) => Some(format!("unavailable: {missing}")),
                },
            }
        })
        .collect();
    for finder in FINDERS {
        let info = finder.info();
        if entries.iter().any(|e| e.id == info.id) {
            continue;
        }
        entries.push(Entry {
            id: info.id,
            max_n: info.max_n,
            idea: info.idea,
            seed: info.seed,
            limit: format!("n <= {} {}", info.max_n, info.limit_reason),
            device: None,
        });
    }
    let id_width = entries.iter().map(|e| e.id.len()).max().unwrap_or(2).max(2);
    let n_width = entries
        .iter()
        .map(|e| e.max_n.to_string().len())
        .max()
        .unwrap_or(5)
        .max(5);
    let answers: Vec<String> = entries.iter().map(|e| registry::questions(e.id)).collect();
    let a_width = answers.iter().map(String::len).max().unwrap_or(7).max(7);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:id_width$}  {:>n_width$}  {:a_width$}  idea / seed",
        "id", "max n", "answers"
    );
    for (entry, answers) in entries.iter().zip(&answers) {
        let _ = writeln!(
            text,
            "{:id_width$}  {:>n_width$}  {answers:a_width$}  {}",
            entry.id, entry.max_n, entry.idea
        );
        let more = [
            Some(format!("seed: {}", entry.seed)),
            Some(format!("limit: {}", entry.limit)),
            entry.device.clone(),
        ];
        for line in more.into_iter().flatten() {
            let _ = writeln!(
                text,
                "{:id_width$}  {:>n_width$}  {:a_width$}  {line}",
                "", "", ""
            );
        }
    }
    let _ = writeln!(
        text,
        "\nanswers: count = how many boards (`queens count`), list = every board (`queens solve`), find = one board (`queens find`)"
    );
    let mut out = io::stdout().lock();
    output(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}
