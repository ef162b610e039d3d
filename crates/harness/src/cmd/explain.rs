//! `queens explain ID`: a solver's or finder's teaching text (its crate
//! README, which is also its crate doc), then what the newest reference
//! record in `bench-results/` measured for it (the record `queens report`
//! reads by default), so the idea and what it buys are read side by side.
//! The whole is Markdown, rendered for a terminal unless `--markdown` asks
//! for it as written.
//!
//! A README may hold more than a learner needs first: its idea, then how the
//! crate is engineered. A level-2 heading that begins with
//! [`ENGINEERING_HEADING`] divides the two; `explain` prints the idea and
//! names what follows, and `--engineering` prints the whole text. Every
//! other reader of a README (the crate doc, the report's page) shows it
//! whole, the heading included.

use itertools::Itertools;
use std::path::PathBuf;

use queens_core::{printable, printable_path};
use queens_record::{COUNT, Entry, FIND_ONE, Measured, Newest, Question, newest_measurements};
use queens_report::format::{self, significant};
use queens_report::terminal::{self, Width};

use crate::error::{CliError, print};
use crate::registry::Subject;

/// `queens explain`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Solver or finder id (see `queens list`).
    pub id: String,
    /// Directory of bench records; the newest reference record in it
    /// (`scripts/bench`'s, `*-bench.json`: the one `queens report` reads) is
    /// used, never a quick `queens compare`'s.
    #[arg(long, default_value = queens_record::RECORDS_DIR)]
    pub records: PathBuf,
    /// Print the text as the Markdown it is written in, not rendered for a
    /// terminal (to read in a Markdown viewer, or to paste).
    #[arg(long)]
    pub markdown: bool,
    /// Print the whole teaching text: the idea and then the engineering
    /// (kernels, units, cost model) of a README that divides them; without
    /// it, only the idea.
    #[arg(long)]
    pub engineering: bool,
}

/// The heading (a line of its own) where a README's engineering begins; its
/// text may go on ("## Engineering: how it is made fast").
pub const ENGINEERING_HEADING: &str = "## Engineering";

/// A teaching text divided where its engineering begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lesson<'a> {
    /// The text up to the engineering heading: all of it, where there is none.
    pub idea: &'a str,
    /// From the engineering heading on, if the text has one.
    pub engineering: Option<&'a str>,
}

impl<'a> Lesson<'a> {
    /// Divides `teaching` at the first line outside a code block that is
    /// [`ENGINEERING_HEADING`] or begins with it and a space or a colon.
    pub fn of(teaching: &'a str) -> Self {
        let engineering = prose(teaching).find(|(_, line)| {
            (line.trim_end().strip_prefix(ENGINEERING_HEADING))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ':']))
        });
        Lesson {
            idea: engineering.map_or(teaching, |(start, _)| &teaching[..start]),
            engineering: engineering.map(|(start, _)| &teaching[start..]),
        }
    }

    /// The titles of the engineering's sections (its level-3 headings,
    /// outside code blocks), in order.
    pub fn engineering_sections(&self) -> Vec<&'a str> {
        let lines = prose(self.engineering.unwrap_or_default()).skip(1);
        (lines.filter_map(|(_, line)| line.strip_prefix("### ")))
            .map(str::trim)
            .collect()
    }
}

/// The lines of `text` outside code blocks (the fences' own lines left
/// out), each with where it starts.
fn prose(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    let mut start = 0;
    text.split_inclusive('\n').filter_map(move |line| {
        let at = start;
        start += line.len();
        fenced ^= line.starts_with("```");
        (!fenced && !line.starts_with("```")).then_some((at, line))
    })
}

/// Prints the teaching text and the measured rows.
pub fn run(args: &Args) -> Result<(), CliError> {
    let subject = Subject::find(&args.id)?;
    // Read the record before printing anything, so that a broken record is
    // one line on stderr and not half an explanation.
    let newest = newest_measurements(&args.records, subject.info.id)?;
    let text = render(&subject, &newest, args.engineering);
    let text = if args.markdown {
        text
    } else {
        terminal::markdown(&text, Width::terminal(false))
    };
    print(&text)
}

/// The whole output as Markdown: teaching text (the idea only, and what
/// follows it named, unless `engineering`), a rule, then the measured rows
/// with the solver's own reading of them (`SolverInfo::analysis`), or one
/// line saying why there are none and how to point at records.
pub fn render(subject: &Subject, newest: &Newest, engineering: bool) -> String {
    let lesson = Lesson::of(subject.info.teaching);
    let (text, after) = if engineering {
        (subject.info.teaching, kernel_line(subject.info.id))
    } else {
        let pointer = lesson
            .engineering
            .map(|_| engineering_pointer(subject.info.id, &lesson));
        (lesson.idea, pointer)
    };
    let mut out = text.trim_end().to_string();
    if let Some(after) = after {
        out += &format!("\n\n{after}");
    }
    out.push_str("\n\n---\n\n");
    match newest {
        Newest::Missing(why) => {
            out.push_str(&format!(
                "No measurements of {} yet: {}. Point `--records DIR` at a directory of \
                 bench records, such as `{}/` in a checkout of this workspace.\n",
                subject.info.id,
                printable(why),
                queens_record::RECORDS_DIR
            ));
        }
        Newest::Found(measured) if measured.rows.is_empty() => out.push_str(&format!(
            "The newest reference record, {}, has no rows for {}.\n",
            printable_path(&measured.file),
            subject.info.id
        )),
        Newest::Found(measured) => {
            out.push_str(&table(measured, subject.info.id));
            if !subject.analysis.trim().is_empty() {
                out.push('\n');
                out.push_str(subject.analysis.trim_end());
                out.push('\n');
            }
        }
    }
    out
}

/// One paragraph after the idea: where the engineering is, and what it
/// covers (its sections' titles, each up to a colon: "Units: threads,
/// shards" is "Units").
fn engineering_pointer(id: &str, lesson: &Lesson<'_>) -> String {
    let sections = (lesson.engineering_sections().into_iter())
        .map(|title| title.split(':').next().unwrap_or(title).trim())
        .join("; ");
    let covers = if sections.is_empty() {
        String::new()
    } else {
        format!(": {sections}")
    };
    format!(
        "_The engineering, in `queens explain {id} --engineering` and the crate's \
         README{covers}._"
    )
}

/// For half-join, which code counts on this machine: the instruction-set
/// level chosen at run time (see its README, "One binary for a whole
/// cluster"), why, and the levels the CPU has.
fn kernel_line(id: &str) -> Option<String> {
    use queens_half_join::kernel;
    if id != queens_half_join::INFO.id {
        return None;
    }
    let chosen = match kernel::choice() {
        Ok(choice) => choice.to_string(),
        Err(why) => why,
    };
    let available = kernel::available().iter().map(|l| l.name()).join(", ");
    Some(format!(
        "Kernel on this machine: {chosen}; this CPU has {available} ({} forces one).",
        kernel::KERNEL_VARIABLE
    ))
}

/// One solver's or finder's rows of one record, with where they come
/// from. Every text that comes from the record (its provenance, a row's
/// reason) is shown through [`printable`]: a record is a file anyone may
/// have written, and an ESC or a newline in it must not reach the terminal
/// as is.
fn table(measured: &Measured, id: &str) -> String {
    let from = &measured.provenance;
    let mut out = format!(
        "Measured: {id} in {} (`{}`; {}, {}; {})\n\n",
        printable_path(&measured.file),
        printable(&from.command),
        printable(&from.cpu_model),
        queens_core::counted(from.cores, "core", "cores"),
        printable(&from.date)
    );
    out.push_str(
        "Times are medians. Cold: each run one search between runs of other searches. Warm: \
         the same search repeated back to back, which lets the processor's branch predictor \
         learn it.\n",
    );
    let rows = |question: Question| -> Vec<&Entry> {
        (measured.rows.iter())
            .filter(|r| r.question == question)
            .collect()
    };
    out.push_str(&count_table(&rows(COUNT)));
    out.push_str(&found_table(&rows(FIND_ONE)));
    let timed = |row: &Entry| row.timing().is_some();
    if measured.rows.iter().any(timed) && measured.rows.iter().all(|r| r.cold().is_none()) {
        out.push_str(
            "\nThis record has no cold figure (schema version 1): only the warm median, which \
             flatters small boards. Rerun `scripts/bench` for both.\n",
        );
    }
    match &measured.branch_misses_unavailable {
        Some(why) => out.push_str(&format!(
            "\nBranch misses per node are absent: {}.\n",
            printable(why)
        )),
        None if !measured.has_cold => out
            .push_str("\nBranch misses per node are absent: not recorded (a version-1 record).\n"),
        None => {}
    }
    out
}

/// A cold figure, "not recorded" for a timed row without one (a version-1
/// record), `-` for a row not timed.
fn cold_cell(row: &Entry, value: Option<f64>, write: fn(f64) -> String) -> String {
    match value {
        Some(value) => write(value),
        None if row.timing().is_some() => "not recorded".to_string(),
        None => "-".to_string(),
    }
}

/// The counts, one Markdown row per n; why a row was not timed under the
/// table (a sentence, too long for a column).
fn count_table(rows: &[&Entry]) -> String {
    let head = "\n| n | solutions | nodes | cold | warm | cold ns/node | warm ns/node \
         | branch misses/node cold / warm | peak heap | status |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
    markdown_table(head, rows, |row| {
        let (cold, warm) = (
            row.cold_branch_misses_per_node,
            row.warm_branch_misses_per_node,
        );
        let misses = cold.zip(warm).map_or("-".into(), |(cold, warm)| {
            format!("{} / {}", significant(cold), significant(warm))
        });
        vec![
            row.n.to_string(),
            optional(row.solutions),
            optional(row.nodes),
            cold_cell(row, row.cold_median_ns(), format::duration_ns),
            row.warm_median_ns().map_or("-".into(), format::duration_ns),
            cold_cell(row, row.cold_ns_per_node(), significant),
            row.ns_per_node().map_or("-".into(), significant),
            misses,
            row.peak_heap_bytes.map_or("-".into(), format::bytes),
        ]
    })
}

/// The boards found, one Markdown row per n: the time to one checked
/// board and the steps it took.
fn found_table(rows: &[&Entry]) -> String {
    let head = "\nFinding one board (each board checked before it was timed):\n\n\
         | n | steps | cold | warm | peak heap | status |\n\
         |---:|---:|---:|---:|---:|---|\n";
    markdown_table(head, rows, |row| {
        vec![
            format::thousands(row.n as u64),
            optional(row.nodes),
            cold_cell(row, row.cold_median_ns(), format::duration_ns),
            row.warm_median_ns().map_or("-".into(), format::duration_ns),
            row.peak_heap_bytes.map_or("-".into(), format::bytes),
        ]
    })
}

/// `head` (the titles and the rule), a Markdown row per entry of its
/// `cells` and its status, then why each row with a reason was not timed;
/// nothing without rows.
fn markdown_table(head: &str, rows: &[&Entry], cells: impl Fn(&Entry) -> Vec<String>) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = head.to_string();
    for row in rows {
        let mut cells = cells(row);
        cells.push(status_text(row));
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out + &reasons(rows)
}

/// A count with thousands separators, or `-` where the record has none.
fn optional(value: Option<u64>) -> String {
    value.map_or("-".into(), format::thousands)
}

/// The status as the record spells it.
fn status_text(entry: &Entry) -> String {
    let quoted = serde_json::to_string(&entry.status()).expect("a status serialises");
    quoted.trim_matches('"').to_string()
}

/// Why each row with a reason was not timed (or failed), as a Markdown
/// list: `- n = 14: not run: ...`.
fn reasons(rows: &[&Entry]) -> String {
    let mut out = String::new();
    for row in rows {
        if let Some(why) = row.error() {
            if out.is_empty() {
                out.push('\n');
            }
            out.push_str(&format!(
                "- n = {}, {}: {}\n",
                format::thousands(row.n as u64),
                status_text(row),
                printable(why)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_record::fixtures::{sample_record, warm_only_record};
    use queens_record::{Measured, Record};

    fn explained(record: Record) -> String {
        render(
            &Subject::find("three-mask").unwrap(),
            &Newest::Found(Box::new(Measured {
                file: "bench-results/fixture.json".into(),
                provenance: record.provenance.clone(),
                rows: record.entries.clone(),
                has_cold: record.has_cold(),
                branch_misses_unavailable: record.settings.branch_misses_unavailable.clone(),
            })),
            false,
        )
    }

    #[test]
    fn explain_shows_cold_and_warm_and_why_branch_misses_are_absent() {
        let out = explained(sample_record());
        // The fixture: 41.0 µs cold, 14.0 µs warm over 2,057 nodes.
        assert!(
            out.contains(
                "| 8 | 92 | 2,057 | 41.0 µs | 14.0 µs | 19.9 | 6.81 | - | 143 B | timed |"
            ),
            "{out}"
        );
        assert!(out.contains("Branch misses per node are absent: perf_event_open failed"));
    }

    #[test]
    fn a_warm_only_record_is_explained_without_a_guessed_cold_figure() {
        let out = explained(warm_only_record());
        assert!(
            out.contains("| 8 | 92 | 2,057 | not recorded | 14.0 µs | not recorded | 6.81 |"),
            "{out}"
        );
        assert!(out.contains("no cold figure (schema version 1)"), "{out}");
    }

    #[test]
    fn text_from_a_record_reaches_the_terminal_escaped() {
        let mut record = sample_record();
        record.provenance.command = "queens compare\x1b[2J\nforged line".to_string();
        record.provenance.cpu_model = "cpu\x1b]0;title\x07".to_string();
        record.settings.branch_misses_unavailable = Some("no\ncounter\x1b[31m".to_string());
        record.entries[0].outcome = queens_record::Outcome::Error {
            why: "bad\x1b[1m\nrow".to_string(),
        };
        let out = explained(record);
        assert!(!out.contains('\x1b'), "an ESC reached the output: {out:?}");
        assert!(!out.contains('\x07'), "a BEL reached the output: {out:?}");
        assert!(
            out.contains("queens compare\\x1b[2J\\nforged line"),
            "{out}"
        );
        assert!(out.contains("no\\ncounter\\x1b[31m"), "{out}");
        assert!(out.contains("bad\\x1b[1m\\nrow"), "{out}");
        // The forged newlines did not start lines of their own.
        assert!(!out.lines().any(|line| line.starts_with("forged line")));
        assert!(!out.lines().any(|line| line.starts_with("row")));
    }
}
