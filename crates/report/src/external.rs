//! What the report says of external programs (`queens compare
//! --external`) beyond the mark beside their ids (`format::name`): the
//! note on what their times include and how their rows can be reproduced,
//! and their provenance where a built-in solver has its registry's texts.
//! The registry knows no external, so nothing asks it about one.

use queens_record::{ExternalFacts, SolverFacts};

use super::format::{EXTERNAL, distinct, duration_ns, short};
use super::table::markdown_text;

/// The note under the summary (Markdown), or `None` when no solver is
/// external: the start-up each one's times include, and where its rows can
/// be reproduced from.
pub(crate) fn note<'a>(solvers: impl IntoIterator<Item = &'a SolverFacts>) -> Option<String> {
    let (mut startups, mut configs) = (Vec::new(), Vec::new());
    for solver in solvers {
        let (id, Some(e)) = (&solver.id, &solver.external) else {
            continue;
        };
        let startup = e.startup_ns.zip(e.startup_n).map(|(ns, n)| {
            let ns = duration_ns(ns as f64);
            format!("{id}'s time at n = {n}, {ns}, bounds its start-up")
        });
        startups.push(startup.unwrap_or_else(|| format!("{id} was never timed")));
        configs.push(format!("`{}`", e.config));
    }
    (!startups.is_empty()).then(|| {
        markdown_text(&format!(
            "Rows marked {EXTERNAL} are programs outside this workspace, timed whole, process \
             start-up included: {}. They can be reproduced only from the config file named in \
             the record ({}); nothing in a record is ever run.",
            startups.join("; "),
            distinct(configs).join(", ")
        ))
    })
}

/// Where an external program came from (Markdown), in place of the texts
/// the registry has for a built-in solver.
pub(crate) fn provenance(e: &ExternalFacts) -> String {
    let build = e.build.as_ref().map(|b| format!(", built by `{b}`"));
    let version = e.version.as_ref().map(|v| format!(", version `{v}`"));
    markdown_text(&format!(
        "An external program, not in the registry: `{}` from `{}`{}{}; the file it ran, `{}`, \
         has SHA-256 {}….",
        e.command,
        e.config,
        build.unwrap_or_default(),
        version.unwrap_or_default(),
        e.program,
        short(&e.program_sha256)
    ))
}
