//! Every trace, tree and listing a page shows is what `queens trace`
//! (`queens tree`, `queens solve`, `queens find`) prints today. The
//! walk-through, the top README and the crate READMEs paste them in
//! `text` blocks that begin with the command (`$ queens trace ...`); each
//! is run here, and every line of the block must appear in the output, in
//! order (an excerpt may leave lines out, and says so in its prose, but may
//! not show a line the program no longer prints).

use std::fs;
use std::path::PathBuf;

use crate::common;

use common::{queens, stderr, stdout, workspace};

/// The pages that teach: the top README, docs/, and every crate's README.
fn pages() -> Vec<PathBuf> {
    let root = workspace();
    let mut pages = vec![root.join("README.md")];
    for dir in [root.join("docs"), root.join("crates")] {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            } else if path.join("README.md").is_file() {
                pages.push(path.join("README.md"));
            }
        }
    }
    pages.sort();
    pages
}

/// The commands whose pasted output is checked: those that print the same
/// bytes on every machine (`count` and `compare` print times; `find`'s
/// boards and steps are the same for the same seed).
const CHECKED: [&str; 4] = ["trace", "tree", "solve", "find"];

/// (command arguments, the lines shown after the command) of every pasted
/// trace, tree or listing in a page.
fn pasted_traces(text: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut traces = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```text" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        if let Some(command) = block.first().and_then(|l| l.strip_prefix("$ queens "))
            && CHECKED.contains(&command.split_whitespace().next().unwrap_or(""))
        {
            let args = command.split_whitespace().map(str::to_string).collect();
            let shown = block[1..].iter().map(|l| l.to_string()).collect();
            traces.push((args, shown));
        }
    }
    traces
}

#[test]
fn every_pasted_trace_is_what_the_program_prints() {
    let mut checked = 0;
    let mut stale = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (args, shown) in pasted_traces(&text) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let output = queens(&args);
            assert!(output.status.success(), "{args:?}: {}", stderr(&output));
            let printed = stdout(&output);
            let mut printed_lines = printed.lines().map(str::trim_end);
            let missing = shown
                .iter()
                .find(|line| !printed_lines.any(|p| p == line.trim_end()));
            if let Some(line) = missing {
                stale.push(format!(
                    "{}: `queens {}` no longer prints (or not in this order): {line}",
                    page.strip_prefix(workspace()).unwrap_or(&page).display(),
                    args.join(" ")
                ));
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} pasted outputs found");
    assert!(stale.is_empty(), "stale traces:\n{}", stale.join("\n"));
}
