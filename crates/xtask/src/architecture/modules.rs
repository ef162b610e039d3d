//! No import cycle between the modules of a crate. The module graph is
//! read from the text: every `crate::`, `super::` and `self::` path, and
//! every path through a module the file declares, outside comments and the
//! trailing `#[cfg(test)] mod tests` block.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use std::sync::LazyLock;

use regex::Regex;

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

/// A path: its first segment (`crate`, `self`, `super` or a name), then
/// either the names after it, the `{` of a group or a glob's `*`.
static PATH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(\w+)::(\{|\*|\w+(?:::\w+)*)").expect("a valid pattern"));

/// `module`'s child of this name (which may not exist).
fn child(module: &Module, name: &str) -> Module {
    [module.as_slice(), &[name.to_string()]].concat()
}

/// The first identifier of each item of the `{a, b::c}` group that `group`
/// starts with.
fn group_items(group: &str) -> Vec<&str> {
    let (mut depth, mut items, mut start, mut end) = (0, Vec::new(), 1, group.len());
    for (at, c) in group.char_indices().skip(1) {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                end = at;
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start.min(end)..end]);
    let not_ident = |c: char| !c.is_ascii_alphanumeric() && c != '_';
    let firsts = items
        .into_iter()
        .filter_map(|item| item.trim().split(not_ident).next());
    firsts.filter(|i| !i.is_empty() && *i != "self").collect()
}

/// A crate's modules: every module file by module path, and the items its
/// modules re-export from their children (`pub use child::Item`), so that
/// a path through a facade (`crate::Item`) leads to the module that
/// defines the item, as the compiler sees it, and not back to the facade.
struct Modules {
    files: BTreeMap<Module, PathBuf>,
    reexported: BTreeMap<(Module, String), Module>,
}

impl Modules {
    fn read(src: &Path) -> Result<Modules, Error> {
        let mut modules = Modules {
            files: modules(src)?,
            reexported: BTreeMap::new(),
        };
        for (module, path) in &modules.files {
            let code = code(path)?;
            for statement in code.split("pub use ").skip(1) {
                let statement = &statement[..statement.find(';').unwrap_or(statement.len())];
                let statement = statement.strip_prefix("self::").unwrap_or(statement);
                let (target, rest) = modules.descend(module, statement);
                if &target == module {
                    continue;
                }
                let group = rest.trim().trim_start_matches('{').trim_end_matches('}');
                for item in group.split(',') {
                    let name = item.rsplit([' ', ':']).next().unwrap_or("").trim();
                    if !name.is_empty() {
                        let item = (module.clone(), name.to_string());
                        modules.reexported.insert(item, target.clone());
                    }
                }
            }
        }
        Ok(modules)
    }

    /// Walks the leading `name::` segments of `path` down the modules
    /// under `start` they name: the deepest module, and the rest of the path.
    fn descend<'a>(&self, start: &Module, path: &'a str) -> (Module, &'a str) {
        let (mut module, mut rest) = (start.clone(), path);
        while let Some((word, after)) = rest.split_once("::") {
            let deeper = child(&module, word);
            if !self.files.contains_key(&deeper) {
                break;
            }
            (module, rest) = (deeper, after);
        }
        (module, rest)
    }

    /// The module a path from `start` leads to: the deepest module its
    /// segments name, or the module an item named there is re-exported from.
    fn follow(&self, start: &Module, path: &str) -> Module {
        let (module, rest) = self.descend(start, path);
        let word = rest.split("::").next().unwrap_or_default();
        let deeper = child(&module, word);
        if self.files.contains_key(&deeper) {
            return deeper;
        }
        let item = (module, word.to_string());
        self.reexported.get(&item).cloned().unwrap_or(item.0)
    }

    /// The modules a file's code refers to: every `crate::`, `self::` and
    /// `super::` path, and every path through a child the file declares
    /// (`pub use child::Item`).
    fn uses(&self, module: &Module, code: &str) -> BTreeSet<Module> {
        let parent = module[..module.len().saturating_sub(1)].to_vec();
        let mut targets = BTreeSet::new();
        for path in PATH.captures_iter(code) {
            let (first, rest) = (&path[1], path.get(2).expect("a second group"));
            let before = code[..path.get(0).expect("a match").start()]
                .chars()
                .next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let start = match first {
                "crate" => Vec::new(),
                "self" => module.clone(),
                "super" => parent.clone(),
                _ if self.files.contains_key(&child(module, first)) => child(module, first),
                _ => continue,
            };
            let through_child = !matches!(first, "crate" | "self" | "super");
            match rest.as_str() {
                "{" | "*" if through_child => targets.insert(start),
                "*" => false,
                "{" => {
                    let items = group_items(&code[rest.start()..]);
                    targets.extend(items.iter().map(|item| self.follow(&start, item)));
                    true
                }
                path => targets.insert(self.follow(&start, path)),
            };
        }
        targets.remove(module);
        targets
    }
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
    let modules = Modules::read(src)?;
    let uses = |(module, path): (&Module, &PathBuf)| {
        Ok((module.clone(), modules.uses(module, &code(path)?)))
    };
    modules.files.iter().map(uses).collect()
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
