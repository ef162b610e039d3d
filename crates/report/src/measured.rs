//! Measured rows spliced into hand-written pages (the walk-through, a
//! crate's README): the prose keeps the reasoning, the numbers come from
//! the records, so that no figure a reader sees is typed by hand or goes
//! stale when the solvers change.
//!
//! A page asks for a table with a pair of marker lines:
//!
//! ```text
//! <!-- BEGIN: measured three-mask,textbook 8,12 -->
//! (generated; replaced by `queens report --splice PAGE`)
//! <!-- END: measured -->
//! ```
//!
//! The first word after `measured` lists solver ids, the second the board
//! sizes; the table has one row per (solver, n), in that order, with the
//! count, the nodes, the median time and the time per node from the
//! records, or what the record says instead (over budget, an error). An
//! optional third word `vs=SOLVER` adds the speed-up over that solver at
//! the same n (its median over the row's): how a page shows what one idea
//! buys without typing a ratio.

use std::fmt::Write;

use super::format::{duration_ns, significant, thousands};
use super::overlay::Overlay;
use queens_record::Status;

/// How a measured block begins (the request follows on the same line).
pub const BEGIN_PREFIX: &str = "<!-- BEGIN: measured ";
/// How a measured block ends.
pub const END_LINE: &str = "<!-- END: measured -->";

/// What one block asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Request {
    solvers: Vec<String>,
    ns: Vec<usize>,
    /// `vs=SOLVER`: the baseline of a speed-up column.
    baseline: Option<String>,
}

impl Request {
    /// Reads `three-mask,textbook 8,12` or `three-mask,textbook 8,12 vs=three-mask`.
    fn parse(text: &str) -> Result<Request, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let (solvers, ns, baseline) = match words[..] {
            [solvers, ns] => (solvers, ns, None),
            [solvers, ns, versus] => match versus.strip_prefix("vs=") {
                Some(baseline) if !baseline.is_empty() => (solvers, ns, Some(baseline.to_string())),
                _ => return Err(format!("'{versus}' is not `vs=SOLVER`")),
            },
            _ => {
                return Err(format!(
                    "'{text}' is not `SOLVER[,SOLVER...] N[,N...] [vs=SOLVER]`"
                ));
            }
        };
        let ns = ns
            .split(',')
            .map(|n| {
                n.parse::<usize>()
                    .map_err(|_| format!("'{n}' is not a board size"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Request {
            solvers: solvers.split(',').map(str::to_string).collect(),
            ns,
            baseline,
        })
    }
}

/// The table for one request, from the overlaid records. A solver the
/// records do not know, or an n they have no entry for, is an error: the
/// page would otherwise show a number that does not exist. When every row
/// carries the same extra statistics of its solver (row-fold's widest
/// level, three-mask's positions tried), they get a column each.
fn table(request: &Request, overlay: &Overlay) -> Result<String, String> {
    let mut entries = Vec::new();
    if let Some(baseline) = &request.baseline
        && !overlay.solvers.iter().any(|s| &s.id == baseline)
    {
        return Err(format!("the records have no solver '{baseline}'"));
    }
    for solver in &request.solvers {
        if !overlay.solvers.iter().any(|s| &s.id == solver) {
            return Err(format!("the records have no solver '{solver}'"));
        }
        for &n in &request.ns {
            entries.push(
                overlay
                    .entry(solver, n)
                    .ok_or_else(|| format!("the records have no entry for {solver} at n = {n}"))?,
            );
        }
    }
    let extra_names: Vec<&str> = entries
        .iter()
        .find(|e| e.status == Status::Timed)
        .map(|e| e.extra.iter().map(|m| m.name.as_str()).collect())
        .unwrap_or_default();
    let same_extras = entries.iter().all(|e| {
        e.status != Status::Timed
            || e.extra
                .iter()
                .map(|m| m.name.as_str())
                .eq(extra_names.iter().copied())
    });
    let extra_names = if same_extras { extra_names } else { Vec::new() };
    let mut out = String::from("| solver | n | solutions | nodes | median time | ns / node |");
    let mut rule = String::from("|---|---:|---:|---:|---:|---:|");
    for name in &extra_names {
        let _ = write!(out, " {} |", name.replace('_', " "));
        rule.push_str("---:|");
    }
    if let Some(baseline) = &request.baseline {
        let _ = write!(out, " × faster than {baseline} |");
        rule.push_str("---:|");
    }
    out.push('\n');
    out.push_str(&rule);
    out.push('\n');
    for entry in entries {
        let optional = |value: Option<u64>| value.map_or("-".to_string(), thousands);
        let (median, per_node) = match (entry.status, entry.timing) {
            (Status::Timed, Some(timing)) => (
                duration_ns(timing.median_ns),
                entry.ns_per_node.map_or("-".to_string(), significant),
            ),
            (Status::OverBudget, _) => ("over budget".to_string(), "-".to_string()),
            _ => ("error".to_string(), "-".to_string()),
        };
        let _ = write!(
            out,
            "| {} | {} | {} | {} | {median} | {per_node} |",
            entry.solver,
            entry.n,
            optional(entry.solutions),
            optional(entry.nodes)
        );
        for name in &extra_names {
            let value = entry
                .extra
                .iter()
                .find(|m| m.name == *name)
                .map(|m| m.value);
            let _ = write!(out, " {} |", optional(value));
        }
        if let Some(baseline) = &request.baseline {
            let ratio = overlay
                .median_ns(baseline, entry.n)
                .zip(overlay.median_ns(&entry.solver, entry.n))
                .map_or("-".to_string(), |(base, this)| {
                    format!("{}×", significant(base / this))
                });
            let _ = write!(out, " {ratio} |");
        }
        out.push('\n');
    }
    Ok(out)
}

/// `document` with every measured block filled from `overlay`, and how
/// many blocks there were. Markers must pair up, in order.
pub fn splice_measured(document: &str, overlay: &Overlay) -> Result<(String, usize), String> {
    let mut out = String::with_capacity(document.len());
    let mut lines = document.split_inclusive('\n');
    let mut blocks = 0;
    while let Some(line) = lines.next() {
        out.push_str(line);
        let trimmed = line.trim_end();
        if trimmed == END_LINE {
            return Err(format!("{END_LINE} without a block before it"));
        }
        let Some(rest) = trimmed.strip_prefix(BEGIN_PREFIX) else {
            continue;
        };
        let request = rest
            .strip_suffix("-->")
            .map(str::trim)
            .ok_or_else(|| format!("'{trimmed}' does not end with -->"))
            .and_then(Request::parse)?;
        // Skip the old contents up to the end marker.
        let mut ended = None;
        for old in lines.by_ref() {
            if old.trim_end() == END_LINE {
                ended = Some(old);
                break;
            }
            if old.trim_end().starts_with(BEGIN_PREFIX) {
                return Err(format!("'{trimmed}' is not closed before the next block"));
            }
        }
        let end = ended.ok_or_else(|| format!("'{trimmed}' has no {END_LINE} after it"))?;
        out.push_str(&table(&request, overlay)?);
        out.push_str(end);
        blocks += 1;
    }
    Ok((out, blocks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Source;
    use queens_record::fixtures::sample_record;

    fn overlay() -> Overlay {
        Overlay::from_sources(&[Source {
            newer_code: Default::default(),
            label: "fixture".into(),
            record: sample_record(),
        }])
    }

    #[test]
    fn a_block_is_filled_from_the_records_and_refilled_the_same() {
        let page = format!(
            "# Page\ntext\n{BEGIN_PREFIX}three-mask 8 -->\nstale 99 ms\n{END_LINE}\nmore\n"
        );
        let (once, blocks) = splice_measured(&page, &overlay()).unwrap();
        assert_eq!(blocks, 1);
        assert!(once.contains("| three-mask | 8 | 92 | 2,057 |"), "{once}");
        assert!(!once.contains("stale"));
        assert!(
            once.starts_with("# Page\ntext\n") && once.ends_with(&format!("{END_LINE}\nmore\n"))
        );
        assert_eq!(splice_measured(&once, &overlay()).unwrap().0, once);
    }

    #[test]
    fn a_speed_up_column_divides_the_baselines_median_by_the_rows() {
        let page = format!("{BEGIN_PREFIX}three-mask 8 vs=three-mask -->\n{END_LINE}\n");
        let (filled, _) = splice_measured(&page, &overlay()).unwrap();
        assert!(filled.contains("| × faster than three-mask |"), "{filled}");
        assert!(filled.contains(" | 1.00× |"), "{filled}");
    }

    #[test]
    fn a_number_the_records_do_not_have_is_refused() {
        for (request, problem) in [
            ("nobody 8", "no solver 'nobody'"),
            ("three-mask 9", "no entry for three-mask at n = 9"),
            ("three-mask", "is not `SOLVER"),
            ("three-mask x", "not a board size"),
            ("three-mask 8 versus", "is not `vs=SOLVER`"),
            ("three-mask 8 vs=nobody", "no solver 'nobody'"),
        ] {
            let page = format!("{BEGIN_PREFIX}{request} -->\n{END_LINE}\n");
            let error = splice_measured(&page, &overlay()).unwrap_err();
            assert!(error.contains(problem), "{request}: {error}");
        }
        let unclosed = format!("{BEGIN_PREFIX}three-mask 8 -->\nrest\n");
        assert!(
            splice_measured(&unclosed, &overlay())
                .unwrap_err()
                .contains("no <!-- END")
        );
        let stray = format!("text\n{END_LINE}\n");
        assert!(
            splice_measured(&stray, &overlay())
                .unwrap_err()
                .contains("without a block")
        );
    }
}
