//! One table model, two renderers: a table is built once, as columns and
//! rows of cells where each cell is a figure or the status that stands in
//! for one, and written as Markdown ([`Table::markdown`], COMPARISON.md and
//! the README) or as a sortable HTML table (the `sortable` macro of
//! `templates/page.html`, which reads [`Table::page`]). What a status is
//! called is written here and nowhere else ([`Outcome`]).

use std::fmt::{self, Write};

use pulldown_cmark::{Event, Parser};

use super::format::{name, significant};

use queens_record::instructions::{InstructionsEntry, InstructionsStatus};
use queens_record::{Entry, SolverFacts, Status};

/// What became of one attempt at one n: the only place a status is worded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Counted correctly and timed.
    Timed,
    /// Its instructions were counted.
    Counted,
    /// Not run: the reason, where the record gives one.
    Skipped(String),
    /// Over the time budget, and why where the record says.
    OverBudget(Option<String>),
    /// Failed, with its message.
    Error(String),
}

impl Outcome {
    /// A bench record's entry.
    pub(crate) fn of(entry: &Entry) -> Outcome {
        match entry.status() {
            Status::Timed => Outcome::Timed,
            Status::OverBudget => Outcome::OverBudget(None),
            Status::Error => Outcome::Error(entry.error().unwrap_or("no message").into()),
        }
    }

    /// An instructions record's entry.
    pub(crate) fn of_instructions(entry: &InstructionsEntry) -> Outcome {
        let reason = || entry.reason().unwrap_or("no reason given").to_string();
        match entry.status() {
            InstructionsStatus::Counted => Outcome::Counted,
            InstructionsStatus::Skipped => Outcome::Skipped(reason()),
            InstructionsStatus::OverBudget => Outcome::OverBudget(Some(reason())),
            InstructionsStatus::Error => Outcome::Error(reason()),
        }
    }

    /// Whether the attempt gave figures (timed, or counted).
    pub(crate) fn measured(&self) -> bool {
        matches!(self, Outcome::Timed | Outcome::Counted)
    }

    /// The status alone, as a Markdown cell in place of a figure.
    pub(crate) fn word(&self) -> &'static str {
        match self {
            Outcome::Timed => "timed",
            Outcome::Counted => "counted",
            Outcome::Skipped(_) => "skipped",
            Outcome::OverBudget(_) => "over budget",
            Outcome::Error(_) => "**error**",
        }
    }

    /// Why there is no figure (a skip's reason, an error's message).
    pub(crate) fn detail(&self) -> Option<&str> {
        match self {
            Outcome::Skipped(why) | Outcome::OverBudget(Some(why)) | Outcome::Error(why) => {
                Some(why)
            }
            _ => None,
        }
    }
}

/// The status with its detail: "over budget", "error: wrong count".
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word().trim_matches('*'))?;
        match self.detail() {
            Some(detail) => write!(f, ": {detail}"),
            None => Ok(()),
        }
    }
}

/// One cell.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cell {
    /// A figure as written, and the number the page sorts it by.
    Figure(String, f64),
    /// Text, sorted as written.
    Text(String),
    /// A figure the entry does not have: a dash (sorted last on the page).
    Missing,
    /// Nothing was attempted here: an empty cell.
    Empty,
    /// A status in place of a figure: its word in Markdown, with its
    /// detail on the page.
    Status(Outcome),
    /// A solver as a row's title: `label` in Markdown (which may warn that
    /// its rows are stale), `name` on the page (its id, marked for an
    /// external program), a link to its part by `id` where the table links.
    Solver {
        id: String,
        name: String,
        label: String,
    },
}

impl Cell {
    /// A figure written by `shown`, or a dash when there is none.
    pub(crate) fn figure(value: Option<f64>, shown: impl Fn(f64) -> String) -> Cell {
        value.map_or(Cell::Missing, |v| Cell::Figure(shown(v), v))
    }

    /// A count, written by `shown` (sorted by its value).
    pub(crate) fn count(value: Option<u64>, shown: impl Fn(u64) -> String) -> Cell {
        value.map_or(Cell::Missing, |v| Cell::Figure(shown(v), v as f64))
    }

    /// A figure as text, or a hyphen where there is none.
    pub(crate) fn dash(text: Option<String>) -> Cell {
        Cell::Text(text.unwrap_or_else(|| "-".into()))
    }

    /// A solver named by its id alone.
    pub(crate) fn solver(id: &str) -> Cell {
        Cell::Solver {
            id: id.into(),
            name: id.into(),
            label: id.into(),
        }
    }

    /// A solver of the records, by its name (marked if it is external).
    pub(crate) fn named(solver: &SolverFacts) -> Cell {
        Cell::Solver {
            id: solver.id.clone(),
            name: name(solver),
            label: name(solver),
        }
    }

    /// Where a row titled by this cell links on the page: its solver's id.
    pub(crate) fn anchor(&self) -> String {
        match self {
            Cell::Solver { id, .. } => id.clone(),
            _ => self.shown(),
        }
    }

    /// The cell in a Markdown table.
    fn markdown(&self) -> String {
        match self {
            Cell::Figure(text, _) | Cell::Text(text) | Cell::Solver { label: text, .. } => {
                cell_text(text)
            }
            Cell::Missing => "—".into(),
            Cell::Empty => String::new(),
            Cell::Status(outcome) => outcome.word().into(),
        }
    }

    /// The cell as the page shows it.
    pub(crate) fn shown(&self) -> String {
        match self {
            Cell::Figure(text, _) | Cell::Text(text) | Cell::Solver { name: text, .. } => {
                text.clone()
            }
            Cell::Missing => "—".into(),
            Cell::Empty => String::new(),
            Cell::Status(outcome) => outcome.to_string(),
        }
    }

    /// The value the page sorts the cell by (none sorts last).
    pub(crate) fn sort(&self) -> String {
        match self {
            Cell::Figure(_, value) => value.to_string(),
            Cell::Missing | Cell::Empty => String::new(),
            _ => self.shown(),
        }
    }
}

/// One column: its title, whether its cells are numbers (flush right in
/// Markdown), and whether only the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Column {
    pub(crate) title: String,
    numbers: bool,
    page_only: bool,
}

impl Column {
    /// A column of text.
    pub(crate) fn text(title: impl Into<String>) -> Column {
        Column {
            title: title.into(),
            numbers: false,
            page_only: false,
        }
    }

    /// A column of numbers.
    pub(crate) fn numbers(title: impl Into<String>) -> Column {
        Column {
            numbers: true,
            ..Column::text(title)
        }
    }

    /// The column, shown on the page only if `page_only`.
    pub(crate) fn page_only(mut self, page_only: bool) -> Column {
        self.page_only = page_only;
        self
    }
}

/// A table: columns, and rows of one cell per column.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<Cell>>,
}

/// A table as the page's `sortable` macro writes it.
pub(crate) struct PageTable {
    pub(crate) id: &'static str,
    pub(crate) caption: &'static str,
    /// Whether each row's solver links to its part of the page.
    pub(crate) link: bool,
    pub(crate) columns: Vec<String>,
    /// Each row: its title cell, then the rest.
    pub(crate) rows: Vec<(Cell, Vec<Cell>)>,
}

impl Table {
    /// An empty table of these columns.
    pub(crate) fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
        }
    }

    /// Adds a row of one cell per column.
    pub(crate) fn push(&mut self, row: Vec<Cell>) {
        debug_assert_eq!(row.len(), self.columns.len());
        self.rows.push(row);
    }

    /// The columns the page (or COMPARISON.md) shows.
    fn shown(&self, page: bool) -> impl Iterator<Item = usize> + '_ {
        (0..self.columns.len()).filter(move |&i| page || !self.columns[i].page_only)
    }

    /// The table in Markdown, ending with its last row's newline.
    pub(crate) fn markdown(&self) -> String {
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        let shown: Vec<usize> = self.shown(false).collect();
        let mut out = line(
            shown
                .iter()
                .map(|&i| cell_text(&self.columns[i].title))
                .collect(),
        );
        out.push('|');
        for &i in &shown {
            out.push_str(if self.columns[i].numbers {
                "---:|"
            } else {
                "---|"
            });
        }
        out.push('\n');
        for row in &self.rows {
            out.push_str(&line(shown.iter().map(|&i| row[i].markdown()).collect()));
        }
        out
    }

    /// The table for the page, its first column the rows' titles.
    pub(crate) fn page(&self, id: &'static str, caption: &'static str, link: bool) -> PageTable {
        let shown: Vec<usize> = self.shown(true).collect();
        PageTable {
            id,
            caption,
            link,
            columns: shown
                .iter()
                .map(|&i| self.columns[i].title.clone())
                .collect(),
            rows: self
                .rows
                .iter()
                .map(|row| {
                    let mut cells = shown.iter().map(|&i| row[i].clone());
                    let title = cells.next().unwrap_or(Cell::Empty);
                    (title, cells.collect())
                })
                .collect(),
        }
    }
}

/// Text from a record as Markdown that shows it as written: outside its
/// code spans (`like this`, where nothing is markup, as the parser finds
/// them), what would be markup (an HTML tag or entity, a link's brackets,
/// a backslash escape) is escaped. Record text reaches no line of Markdown
/// but through here; a record's text holds no line break (its checks
/// refuse one).
pub(crate) fn markdown_text(text: &str) -> String {
    let escaped = |plain: &str| {
        let plain = plain.replace('\\', "\\\\").replace('&', "&amp;");
        let plain = plain.replace('<', "&lt;").replace('>', "&gt;");
        plain.replace('[', "\\[").replace(']', "\\]")
    };
    let (mut out, mut from) = (String::new(), 0);
    for (event, span) in Parser::new(text).into_offset_iter() {
        if let Event::Code(_) = event {
            out += &escaped(&text[from..span.start]);
            out += &text[span.start..span.end];
            from = span.end;
        }
    }
    out + &escaped(&text[from..])
}

/// Record text in a table's cell: as [`markdown_text`], and a `|` (which
/// ends a cell even in a code span) escaped.
fn cell_text(text: &str) -> String {
    markdown_text(text).replace('|', "\\|")
}

/// A ratio to the fastest: "1.23×".
pub(crate) fn ratio(value: f64) -> String {
    format!("{}×", significant(value))
}

/// Whether an entry was timed (and so has figures).
pub(crate) fn timed(entry: &Entry) -> bool {
    Outcome::of(entry) == Outcome::Timed
}

/// A Markdown table with one row per n (written by `n_text`) and one
/// column per id (titled as paired), each cell `cell(id, n)`.
pub(crate) fn by_n(
    ns: &[usize],
    ids: &[(&str, String)],
    n_text: fn(usize) -> String,
    cell: &dyn Fn(&str, usize) -> Cell,
) -> String {
    let mut columns = vec![Column::numbers("n")];
    columns.extend(ids.iter().map(|(_, title)| Column::numbers(title.clone())));
    let mut table = Table::new(columns);
    for &n in ns {
        let mut row = vec![Cell::Text(n_text(n))];
        row.extend(ids.iter().map(|(id, _)| cell(id, n)));
        table.push(row);
    }
    table.markdown()
}

/// The list of failed entries: "- solver at n = N: message".
pub(crate) fn error_list<'a>(
    entries: impl IntoIterator<Item = &'a Entry>,
    n_text: fn(usize) -> String,
) -> String {
    let mut out = String::new();
    for entry in entries {
        if let Outcome::Error(message) = Outcome::of(entry) {
            let _ = writeln!(
                out,
                "- {} at n = {}: {}",
                entry.solver,
                n_text(entry.n),
                markdown_text(&message)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut table = Table::new(vec![
            Column::text("solver"),
            Column::numbers("n"),
            Column::numbers("time").page_only(true),
            Column::numbers("status"),
        ]);
        table.push(vec![
            Cell::Solver {
                id: "a".into(),
                name: "a".into(),
                label: "a (stale)".into(),
            },
            Cell::count(Some(8), |n| n.to_string()),
            Cell::figure(Some(1500.0), |v| format!("{v} ns")),
            Cell::Status(Outcome::Error("wrong | count".into())),
        ]);
        table.push(vec![
            Cell::solver("b"),
            Cell::Empty,
            Cell::figure(None, |v| v.to_string()),
            Cell::Text("x|y".into()),
        ]);
        table
    }

    #[test]
    fn markdown_shows_its_columns_aligned_and_escaped() {
        assert_eq!(
            sample().markdown(),
            "| solver | n | status |\n|---|---:|---:|\n| a (stale) | 8 | **error** |\n| b |  | x\\|y |\n"
        );
    }

    #[test]
    fn the_page_sorts_by_value_and_says_why_a_figure_is_missing() {
        let page = sample().page("t", "a table", true);
        assert_eq!(page.columns, ["solver", "n", "time", "status"]);
        let (title, cells) = &page.rows[0];
        assert_eq!(title.shown(), "a");
        assert_eq!(
            cells
                .iter()
                .map(|c| (c.shown(), c.sort()))
                .collect::<Vec<_>>(),
            [
                ("8".into(), "8".into()),
                ("1500 ns".into(), "1500".into()),
                ("error: wrong | count".into(), "error: wrong | count".into())
            ]
        );
        assert_eq!(
            (page.rows[1].1[1].shown(), page.rows[1].1[1].sort()),
            ("—".into(), String::new())
        );
    }

    #[test]
    fn record_text_shows_as_written_outside_and_inside_code_spans() {
        assert_eq!(
            markdown_text("<script>alert(1)</script> & [x](y) \\ perf_event_open"),
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; \\[x\\](y) \\\\ perf_event_open"
        );
        // A code span keeps its text; an unclosed run of backticks is text.
        assert_eq!(
            markdown_text("one `doMove` <b> ``a`<i>`` `<u>"),
            "one `doMove` &lt;b&gt; ``a`<i>`` `&lt;u&gt;"
        );
        let mut table = Table::new(vec![Column::text("<th>"), Column::text("node")]);
        table.push(vec![Cell::solver("a<b"), Cell::Text("`x|y` <i>".into())]);
        assert_eq!(
            table.markdown(),
            "| &lt;th&gt; | node |\n|---|---|\n| a&lt;b | `x\\|y` &lt;i&gt; |\n"
        );
    }

    #[test]
    fn a_status_is_worded_once_for_both_renderers() {
        let error = Outcome::Error("wrong count".into());
        assert_eq!(error.word(), "**error**");
        assert_eq!(error.to_string(), "error: wrong count");
        assert_eq!(Outcome::OverBudget(None).to_string(), "over budget");
        assert_eq!(
            Outcome::OverBudget(Some("slow".into())).to_string(),
            "over budget: slow"
        );
        assert_eq!(
            Outcome::Skipped("no device".into()).to_string(),
            "skipped: no device"
        );
        assert!(Outcome::Counted.measured() && !error.measured());
    }
}
