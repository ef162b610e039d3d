//! The layers of docs/ARCHITECTURE.md, checked on the source tree so that
//! they stay true as the code moves:
//!
//! - which workspace crates each crate may depend on (core on none, each
//!   solver on core alone, record on core, measure and report on core and
//!   record, distributed counting on core and record, only the CLI on clap
//!   and on the solver crates);
//! - no import cycle between the modules of any crate (a parent re-exporting
//!   its children while a child reaches back into the parent counts: a child
//!   uses a sibling instead);
//! - the default records directory is spelled once.
//!
//! The module graph is read from the text: every `crate::`, `super::` and
//! `self::` path, and every path through a module the file declares, outside
//! comments and the trailing `#[cfg(test)] mod tests` block (a test module
//! sees its parent by design).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every crate directory under crates/, by directory name.
fn crates() -> BTreeMap<String, PathBuf> {
    fs::read_dir(workspace().join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("Cargo.toml").is_file())
        .map(|path| {
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                path,
            )
        })
        .collect()
}

/// The package names listed under `[dependencies]` (and target-specific
/// dependency tables), not dev- or build-dependencies.
fn dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(manifest).unwrap();
    let mut in_dependencies = false;
    let mut names = BTreeSet::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            continue;
        }
        if in_dependencies && let Some((name, _)) = line.split_once(['=', '.']) {
            let name = name.trim();
            if !name.is_empty() && !name.starts_with('#') {
                names.insert(name.to_string());
            }
        }
    }
    names
}

/// The crate of the `queens` command: the only one that may name solver
/// crates (in its registry) and parse a command line.
const CLI: &str = "harness";

/// Solver crates that port another solver's idea to other hardware, and
/// the crate whose public plan and search they reuse rather than copy
/// (docs/ARCHITECTURE.md): (crate directory, the package it may use).
const PORTS: &[(&str, &str)] = &[("gpu", "queens-constellations")];

/// The libraries under the CLI that build on each other, not on core
/// alone (docs/ARCHITECTURE.md): (crate directory, the packages it may use
/// besides queens-core). Records are the bottom: measuring makes them,
/// reporting reads them, and neither of those two uses the other;
/// distributed counting writes its checkpoints with the records' atomic
/// files.
const LIBRARIES: &[(&str, &[&str])] = &[
    ("record", &[]),
    ("measure", &["queens-record"]),
    ("report", &["queens-record"]),
    ("distributed", &["queens-record"]),
];

#[test]
fn each_crate_depends_only_on_the_layers_below_it() {
    let crates = crates();
    assert!(crates.contains_key("core") && crates.contains_key(CLI));
    for (name, dir) in &crates {
        let deps = dependencies(&dir.join("Cargo.toml"));
        let ours: BTreeSet<&str> = deps
            .iter()
            .map(String::as_str)
            .filter(|d| d.starts_with("queens-"))
            .collect();
        let allowed: BTreeSet<&str> = match name.as_str() {
            "core" => BTreeSet::new(),
            CLI => continue,
            _ => PORTS
                .iter()
                .filter(|(port, _)| port == name)
                .map(|&(_, original)| original)
                .chain(
                    LIBRARIES
                        .iter()
                        .filter(|(library, _)| library == name)
                        .flat_map(|&(_, below)| below.iter().copied()),
                )
                .chain(["queens-core"])
                .collect(),
        };
        let extra: Vec<&&str> = ours.difference(&allowed).collect();
        assert!(
            extra.is_empty(),
            "crates/{name} depends on {extra:?}: only the CLI crate names solver crates, \
             and everything else builds on queens-core alone (a port, in PORTS, on its original \
             too; a library, in LIBRARIES, on the libraries listed there)"
        );
        assert!(
            !deps.contains("clap"),
            "crates/{name}: only the CLI crate parses command lines"
        );
    }
}

/// A module's path inside its crate: `[]` for the root.
type Module = Vec<String>;

/// Every module file of a library crate, by module path.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap();
            let mut parts: Vec<String> = relative
                .iter()
                .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            let last = parts.pop().unwrap();
            match last.as_str() {
                // The binary's root is another crate that uses the library.
                "main" if parts.is_empty() => continue,
                "lib" if parts.is_empty() => {}
                "mod" => {}
                _ => parts.push(last),
            }
            found.insert(parts, path);
        }
    }
    found
}

/// The code of a file without comments and without its trailing test module.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let mut kept = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim().starts_with("mod tests"))
        {
            break;
        }
        if !trimmed.starts_with("//") {
            kept.push(line);
        }
    }
    kept.join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifiers a path continues with after `at` (just past `::`): one,
/// or each first identifier of a `{a, b::c}` group.
fn continuations(code: &str, at: usize) -> Vec<String> {
    let rest = &code[at..];
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut items = Vec::new();
        let mut item = String::new();
        for c in group.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                _ => item.push(c),
            }
        }
        items.push(item);
        return items
            .iter()
            .map(|i| i.trim().chars().take_while(|c| is_ident(*c)).collect())
            .filter(|i: &String| !i.is_empty() && i != "self")
            .collect();
    }
    let word: String = rest.chars().take_while(|c| is_ident(*c)).collect();
    if word.is_empty() { vec![] } else { vec![word] }
}

/// Items a module re-exports from its children (`pub use child::Item`), so
/// that a path through a facade (`crate::Item`) leads to the module that
/// defines the item, as the compiler sees it, and not back to the facade.
type Reexports = BTreeMap<(Module, String), Module>;

fn reexports(all: &BTreeMap<Module, PathBuf>) -> Reexports {
    let mut found = Reexports::new();
    for (module, path) in all {
        let code = code(path);
        for (at, _) in code.match_indices("pub use ") {
            let statement = &code[at + "pub use ".len()..];
            let statement = &statement[..statement.find(';').unwrap_or(statement.len())];
            let statement = statement.strip_prefix("self::").unwrap_or(statement);
            // Walk the leading segments that are modules under this one.
            let mut target = module.clone();
            let mut rest = statement;
            loop {
                let word: String = rest.chars().take_while(|c| is_ident(*c)).collect();
                let mut deeper = target.clone();
                deeper.push(word.clone());
                if word.is_empty()
                    || !all.contains_key(&deeper)
                    || !rest[word.len()..].starts_with("::")
                {
                    break;
                }
                target = deeper;
                rest = &rest[word.len() + 2..];
            }
            if &target == module {
                continue;
            }
            let group = rest.trim().trim_start_matches('{').trim_end_matches('}');
            for item in group.split(',') {
                let name = item.rsplit([' ', ':']).next().unwrap_or("").trim();
                if !name.is_empty() {
                    found.insert((module.clone(), name.to_string()), target.clone());
                }
            }
        }
    }
    found
}

/// The deepest existing module along `start` + the path's segments, or the
/// module an item named there is re-exported from.
fn resolve(
    start: &Module,
    code: &str,
    at: usize,
    all: &BTreeMap<Module, PathBuf>,
    reexported: &Reexports,
) -> Vec<Module> {
    continuations(code, at)
        .into_iter()
        .map(|first| {
            let mut module = start.clone();
            let mut candidate = start.clone();
            candidate.push(first.clone());
            if !all.contains_key(&candidate) {
                return reexported
                    .get(&(start.clone(), first))
                    .cloned()
                    .unwrap_or(module);
            }
            module = candidate;
            // Follow further `::name` segments into submodules, or to the
            // module an item is re-exported from.
            let mut position = at + first.len();
            while code[position..].starts_with("::") {
                let next: String = code[position + 2..]
                    .chars()
                    .take_while(|c| is_ident(*c))
                    .collect();
                let mut deeper = module.clone();
                deeper.push(next.clone());
                if next.is_empty() {
                    break;
                }
                if !all.contains_key(&deeper) {
                    if let Some(target) = reexported.get(&(module.clone(), next)) {
                        module = target.clone();
                    }
                    break;
                }
                module = deeper;
                position += 2 + next.len();
            }
            module
        })
        .collect()
}

/// The modules a file's code refers to.
fn uses(
    module: &Module,
    code: &str,
    all: &BTreeMap<Module, PathBuf>,
    reexported: &Reexports,
) -> BTreeSet<Module> {
    let mut targets = BTreeSet::new();
    let declared: Vec<&Module> = all
        .keys()
        .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
        .collect();
    for (start, prefix) in [
        (Vec::new(), "crate::"),
        (module.clone(), "self::"),
        (module[..module.len().saturating_sub(1)].to_vec(), "super::"),
    ] {
        for (at, _) in code.match_indices(prefix) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == ':') {
                continue;
            }
            targets.extend(resolve(&start, code, at + prefix.len(), all, reexported));
        }
    }
    // Paths through a child the file declares: `pub use child::Item`.
    for child in declared {
        let name = child.last().unwrap();
        let pattern = format!("{name}::");
        for (at, _) in code.match_indices(&pattern) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == ':') {
                continue;
            }
            targets.extend(resolve(module, code, at, all, reexported));
        }
    }
    targets.remove(module);
    targets
}

/// The groups of modules that reach each other (strongly connected
/// components of more than one module): each group holds at least one
/// cycle. Graphs here have tens of modules, so reachability by search is
/// plenty.
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    let reach = |from: &Module| -> BTreeSet<Module> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(node) = stack.pop() {
            for next in graph.get(&node).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&Module, BTreeSet<Module>> =
        graph.keys().map(|node| (node, reach(node))).collect();
    let mut grouped = BTreeSet::new();
    let mut groups = Vec::new();
    for (node, from_node) in &reachable {
        if grouped.contains(*node) || !from_node.contains(*node) {
            continue;
        }
        let group: Vec<Module> = from_node
            .iter()
            .filter(|other| reachable[other].contains(*node))
            .cloned()
            .collect();
        grouped.extend(group.iter().cloned());
        groups.push(group);
    }
    groups
}

fn module_graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let all = modules(src);
    let reexported = reexports(&all);
    all.iter()
        .map(|(module, path)| (module.clone(), uses(module, &code(path), &all, &reexported)))
        .collect()
}

fn show(module: &Module) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    let mut found = Vec::new();
    for (name, dir) in crates() {
        for group in cycles(&module_graph(&dir.join("src"))) {
            let shown: Vec<String> = group.iter().map(show).collect();
            found.push(format!("crates/{name}: {}", shown.join(" <-> ")));
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other (in a cycle): {found:#?}"
    );
}

#[test]
fn the_cycle_finder_finds_a_parent_and_child_that_use_each_other() {
    // The check above is only worth something if it can fail.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    fs::create_dir_all(src.join("report")).unwrap();
    fs::write(src.join("lib.rs"), "pub mod report;\n").unwrap();
    fs::write(
        src.join("report/mod.rs"),
        "mod tables;\npub use tables::table;\npub struct Source;\n",
    )
    .unwrap();
    fs::write(
        src.join("report/tables.rs"),
        "use super::Source;\npub fn table(_: &Source) {}\n",
    )
    .unwrap();
    let graph = module_graph(src);
    let report = vec!["report".to_string()];
    let tables = vec!["report".to_string(), "tables".to_string()];
    assert_eq!(cycles(&graph), vec![vec![report, tables]]);
    // Using a sibling instead breaks it.
    fs::write(src.join("report/source.rs"), "pub struct Source;\n").unwrap();
    fs::write(
        src.join("report/mod.rs"),
        "mod source;\nmod tables;\npub use tables::table;\npub use source::Source;\n",
    )
    .unwrap();
    fs::write(
        src.join("report/tables.rs"),
        "use super::source::Source;\npub fn table(_: &Source) {}\n",
    )
    .unwrap();
    assert!(cycles(&module_graph(src)).is_empty());
}

#[test]
fn the_records_directory_is_named_in_one_place() {
    let mut places = Vec::new();
    for (name, dir) in crates() {
        for sub in ["src", "benches"] {
            let mut stack = vec![dir.join(sub)];
            while let Some(path) = stack.pop() {
                if path.is_dir() {
                    stack.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                } else if path.extension().is_some_and(|e| e == "rs")
                    && code(&path).contains("\"bench-results\"")
                {
                    places.push(format!("crates/{name}/{}", path.display()));
                }
            }
        }
    }
    assert_eq!(
        places.len(),
        1,
        "\"bench-results\" is spelled in {places:?}; use queens_record::RECORDS_DIR"
    );
}
