//! The page follows the walk-through: `registry::LESSONS` lists the solvers
//! in the order docs/ALGORITHMS.md teaches them, and the committed page
//! (bench-results/index.html) links the walk-through, lists its solvers in
//! that order and shows each teaching text (README) once, however many
//! solvers share it.

use std::fs;

use queens_harness::registry::{self, SOLVERS};

use crate::common::workspace;

/// The solvers the walk-through's section headings name, in the order they
/// first do: a heading ends with its solvers in parentheses
/// ("## 6. Three masks per rank (three-mask)", "(threat-mask --unique)").
fn taught_in_headings(text: &str) -> Vec<&str> {
    let ids: Vec<&str> = SOLVERS.iter().map(|s| s.info().id).collect();
    let mut taught = Vec::new();
    for line in text
        .lines()
        .filter(|l| l.starts_with("## ") || l.starts_with("### "))
    {
        let Some(named) = line.strip_suffix(')').and_then(|l| l.rsplit_once('(')) else {
            continue;
        };
        for name in named.1.split(", ") {
            let id = name.split_whitespace().next().unwrap_or("");
            if ids.contains(&id) && !taught.contains(&id) {
                taught.push(id);
            }
        }
    }
    taught
}

#[test]
fn the_lessons_are_in_the_walk_throughs_order() {
    let text = fs::read_to_string(workspace().join("docs/ALGORITHMS.md")).unwrap();
    let taught = taught_in_headings(&text);
    // Every section from perm-filter to half-join names its solver.
    assert!(taught.len() >= 8, "{taught:?}");
    let order: Vec<&str> = (registry::teaching_order().into_iter())
        .filter(|id| taught.contains(id))
        .collect();
    assert_eq!(order, taught);
}

#[test]
fn the_committed_page_follows_the_walk_through_and_shows_each_readme_once() {
    let page = fs::read_to_string(workspace().join("bench-results/index.html")).unwrap();
    // Its link to the walk-through, relative to bench-results/, resolves.
    assert!(page.contains("<a href=\"../docs/ALGORITHMS.md\">"));
    assert!(
        workspace()
            .join("bench-results/../docs/ALGORITHMS.md")
            .is_file()
    );
    // The solvers' parts in teaching order.
    let parts: Vec<(usize, &str)> = (registry::LESSONS.iter())
        .filter_map(|s| {
            let id = s.info().id;
            let at = page.find(&format!("<article id=\"solver-{id}\""))?;
            Some((at, id))
        })
        .collect();
    assert!(parts.len() >= 2, "{parts:?}");
    assert!(parts.windows(2).all(|w| w[0].0 < w[1].0), "{parts:?}");
    // Each README once: as many teaching texts as distinct READMEs, each
    // one's title once, and the solvers that share one link to it.
    let mut readmes: Vec<&str> = Vec::new();
    for &(_, id) in &parts {
        let readme = registry::find(id).unwrap().info().teaching.trim();
        if !readmes.contains(&readme) {
            readmes.push(readme);
        }
    }
    assert!(readmes.len() < parts.len(), "no two solvers share a README");
    assert_eq!(
        page.matches("<div class=\"teaching\">").count(),
        readmes.len()
    );
    for readme in readmes {
        let title = readme.lines().next().unwrap().trim_start_matches("# ");
        assert_eq!(
            page.matches(&format!("<h1>{title}</h1>")).count(),
            1,
            "{title}"
        );
    }
}
