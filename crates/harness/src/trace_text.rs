//! How a trace's text is laid out, for the solvers' traces
//! ([`crate::cmd::trace`]) and min-conflicts' repair
//! ([`crate::repair_trace`]) alike: a header line wrapped under its label,
//! a numbered, tagged step whose lines wrap at [`WIDTH`], and the cuts
//! that keep one step from flooding a terminal.

use queens_core::counted;
use queens_report::terminal::{Width, wrap, wrap_lines};

use crate::trace_json::MAX_STEPS;

/// A step of more lines than this (a whole level of partial boards, a wide
/// grid) is cut, saying how much was left out.
pub const MAX_LINES_PER_STEP: usize = 24;
/// Lines are cut at this many characters for the same reason.
pub const MAX_LINE_CHARS: usize = 240;
/// A line longer than this (the terminal width every table of the
/// command line fits) wraps onto continuation lines, two columns further
/// in than the step's text, so that a step reads as one however narrow
/// the terminal.
pub const WIDTH: usize = queens_report::terminal::WIDTH;

/// The lines above a trace's steps: `title` (what is traced, on which
/// board), then `lines` (its tags, its convention), each wrapped to
/// [`WIDTH`] with its continuation lines under the text after the label.
pub fn header(title: &str, lines: [&str; 2]) -> String {
    let mut out = format!("{title}\n");
    for line in lines {
        let label = line.find(": ").map_or(0, |colon| colon + 2);
        out += &(wrap_lines(line, Width::Columns(WIDTH), label) + "\n");
    }
    out
}

/// The last line of a trace cut after `shown` steps: the `search` goes
/// on, and twice as many steps show more, up to [`MAX_STEPS`].
pub fn cut_footer(shown: usize, search: &str) -> String {
    let more = if shown < MAX_STEPS {
        format!("; --steps {} shows more", (shown * 2).min(MAX_STEPS))
    } else {
        String::new()
    };
    let shown = counted(shown, "step", "steps");
    format!("-- cut after {shown}: the {search} goes on{more}\n")
}

/// `  7 place    text`, with the lines after the first indented under the
/// text, lines over [`WIDTH`] wrapped two columns further in, and long
/// steps and lines cut with a note of what was left out. `tag` is a
/// [`StepKind`](queens_core::trace::StepKind), or the repair trace's own word.
pub fn format_step(
    number: usize,
    number_width: usize,
    tag: impl std::fmt::Display,
    text: &str,
) -> String {
    let prefix = format!("{number:>number_width$} {tag:<8} ");
    let indent = " ".repeat(prefix.chars().count());
    let hanging = format!("{indent}  ");
    let lines: Vec<&str> = text.lines().collect();
    let shown = lines.len().min(MAX_LINES_PER_STEP);
    let mut out = String::new();
    for (index, line) in lines.iter().take(shown).enumerate() {
        let first = if index == 0 { &prefix } else { &indent };
        for wrapped in wrap(&cut_line(line), Width::Columns(WIDTH), first, &hanging) {
            out.push_str(&wrapped);
            out.push('\n');
        }
    }
    if lines.is_empty() {
        out.push_str(prefix.trim_end());
        out.push('\n');
    }
    if lines.len() > shown {
        out.push_str(&format!(
            "{indent}... {} more lines of this step not shown\n",
            lines.len() - shown
        ));
    }
    out
}

fn cut_line(line: &str) -> String {
    let length = line.chars().count();
    if length <= MAX_LINE_CHARS {
        return line.trim_end().to_string();
    }
    let kept: String = line.chars().take(MAX_LINE_CHARS).collect();
    format!("{kept} ... ({} more characters)", length - MAX_LINE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::trace::StepKind;

    #[test]
    fn a_block_step_is_indented_under_its_text() {
        let text = format_step(3, 2, StepKind::Place, "first\n  second");
        assert_eq!(text, " 3 place    first\n              second\n");
    }

    #[test]
    fn long_steps_and_lines_are_cut_with_a_note() {
        let many: Vec<String> = (0..MAX_LINES_PER_STEP + 5).map(|i| i.to_string()).collect();
        let text = format_step(1, 1, StepKind::Level, &many.join("\n"));
        assert_eq!(text.lines().count(), MAX_LINES_PER_STEP + 1);
        assert!(text.ends_with("... 5 more lines of this step not shown\n"));
        let wide = "x".repeat(MAX_LINE_CHARS + 7);
        assert!(cut_line(&wide).ends_with("... (7 more characters)"));
    }

    #[test]
    fn a_long_line_wraps_two_columns_under_its_text() {
        let long = ["word"; 30].join(" ");
        let text = format_step(1, 1, StepKind::Note, &long);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 1, "{text}");
        assert!(
            lines.iter().all(|line| line.chars().count() <= WIDTH),
            "{text}"
        );
        assert!(lines[1].starts_with(&" ".repeat("1 note     ".len() + 2)));
        let words: Vec<&str> = text.split_whitespace().skip(2).collect();
        assert_eq!(words.join(" "), long);
    }
}
