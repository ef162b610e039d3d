//! No import cycle between the modules of a crate. The module graph is
//! read from the text: every `crate::`, `super::` and `self::` path, and
//! every path through a module the file declares, outside comments and the
//! trailing `#[cfg(test)] mod tests` block.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::source::{code, crates, rust_files};
use crate::Error;

/// A module's path inside its crate: `[]` for the root.
pub type Module = Vec<String>;

/// Every module file of a library crate, by module path.
fn modules(src: &Path) -> Result<BTreeMap<Module, PathBuf>, Error> {
    let mut found = BTreeMap::new();
    for path in rust_files(src)? {
        let relative = path.strip_prefix(src).unwrap_or(&path);
        let mut parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        let Some(last) = parts.pop() else { continue };
        match last.as_str() {
            // The binary's root is another crate that uses the library.
            "main" if parts.is_empty() => continue,
            "lib" if parts.is_empty() => {}
            "mod" => {}
            _ => parts.push(last),
        }
        found.insert(parts, path);
    }
    Ok(found)
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

fn reexports(all: &BTreeMap<Module, PathBuf>) -> Result<Reexports, Error> {
    let mut found = Reexports::new();
    for (module, path) in all {
        let code = code(path)?;
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
    Ok(found)
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
pub fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
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

/// Each module of the crate whose sources are in `src`, with the modules
/// it refers to.
pub fn module_graph(src: &Path) -> Result<BTreeMap<Module, BTreeSet<Module>>, Error> {
    let all = modules(src)?;
    let reexported = reexports(&all)?;
    all.iter()
        .map(|(module, path)| {
            Ok((
                module.clone(),
                uses(module, &code(path)?, &all, &reexported),
            ))
        })
        .collect()
}

fn show(module: &Module) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

/// One line per group of modules that import each other, in any crate.
pub fn violations(root: &Path) -> Result<Vec<String>, Error> {
    let mut found = Vec::new();
    for (name, dir) in crates(root)? {
        for group in cycles(&module_graph(&dir.join("src"))?) {
            let shown: Vec<String> = group.iter().map(show).collect();
            found.push(format!(
                "crates/{name}: modules import each other in a cycle: {} (a child uses a sibling, never its parent)",
                shown.join(" <-> ")
            ));
        }
    }
    Ok(found)
}
