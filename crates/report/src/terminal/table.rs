//! A table of text that fits a width: columns as wide as their widest
//! cell; when the whole is too wide, long titles wrap over short cells and
//! the columns that hold text (not numbers) wrap their cells onto
//! continuation lines; when even that cannot fit, each row is printed as a
//! block of `title: value` pairs. A row may
//! carry a note, printed after its last column where it fits and under the
//! row where it does not, and lines to print under it.

use super::lines::{Width, columns, wrap};

/// Columns between two cells.
const GAP: usize = 2;

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text: flush left.
    Left,
    /// Numbers: flush right, so that digits of the same place line up.
    Right,
}

/// One column: its title, its alignment, and whether its cells may wrap
/// (text may; a number or an id split over two lines would misread).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The title printed above the column.
    pub title: String,
    /// Left or right.
    pub align: Align,
    /// Whether a cell (and the title) may wrap onto more lines.
    pub wraps: bool,
}

impl Column {
    /// A column that keeps each cell on one line.
    pub fn fixed(title: &str, align: Align) -> Column {
        Column {
            title: title.to_string(),
            align,
            wraps: false,
        }
    }
}

/// One row: a cell per column, an optional note, and lines under it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Row {
    cells: Vec<String>,
    note: String,
    below: Vec<String>,
}

/// A table to print (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Row>,
    rule: bool,
    indent_below: usize,
}

impl Table {
    /// An empty table of these columns.
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
            rule: false,
            indent_below: 2,
        }
    }

    /// Draws a line of dashes under the titles (Markdown's tables have one).
    pub fn with_rule(mut self) -> Table {
        self.rule = true;
        self
    }

    /// How far in the lines under a row start (notes that do not fit after
    /// it, and [`Table::below`]'s lines); 2 unless set.
    pub fn indent_below(mut self, columns: usize) -> Table {
        self.indent_below = columns;
        self
    }

    /// Adds a row (missing cells are empty, extra ones are ignored).
    pub fn row(&mut self, cells: Vec<String>) -> &mut Table {
        self.row_with_note(cells, String::new())
    }

    /// Adds a row with a note after its last column (or under it).
    pub fn row_with_note(&mut self, mut cells: Vec<String>, note: String) -> &mut Table {
        cells.resize(self.columns.len(), String::new());
        self.rows.push(Row {
            cells,
            note,
            below: Vec::new(),
        });
        self
    }

    /// Adds a line under the last row added, wrapped to the width with
    /// its continuation lines two columns further in.
    pub fn below(&mut self, line: String) -> &mut Table {
        if let Some(row) = self.rows.last_mut() {
            row.below.push(line);
        }
        self
    }

    /// The table as text of at most `width` columns, ending in a newline
    /// (nothing for a table without rows).
    pub fn render(&self, width: Width) -> String {
        if self.rows.is_empty() {
            return String::new();
        }
        let natural: Vec<usize> = (0..self.columns.len())
            .map(|i| {
                self.rows
                    .iter()
                    .map(|row| columns(&row.cells[i]))
                    .chain([columns(&self.columns[i].title)])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let lines = match self.fitted(natural, width) {
            Some(widths) => self.lines(&widths, width),
            None => self.blocks(width),
        };
        lines.into_iter().map(|line| line + "\n").collect()
    }

    /// Column widths that fit `width`: the natural ones when they fit;
    /// otherwise every cell of a number column whole and as many text
    /// cells whole as fit, the text columns sharing what is left in
    /// proportion to what they lack; then the room still free unwraps the
    /// titles, the tallest first. `None` when even the narrowest layout
    /// (text down to its longest word, titles wrapped) is too wide.
    fn fitted(&self, natural: Vec<usize>, width: Width) -> Option<Vec<usize>> {
        let gaps = GAP * (natural.len() - 1);
        let room = match width {
            Width::Columns(limit) if limit < natural.iter().sum::<usize>() + gaps => {
                limit.checked_sub(gaps)?
            }
            _ => return Some(natural),
        };
        let title = |i: usize| longest_word(&self.columns[i].title);
        let widest_cell = |i: usize, whole: bool| {
            self.rows
                .iter()
                .map(|row| {
                    if whole {
                        columns(&row.cells[i])
                    } else {
                        longest_word(&row.cells[i])
                    }
                })
                .max()
                .unwrap_or(0)
        };
        let indices = 0..self.columns.len();
        let narrowest: Vec<usize> = indices
            .clone()
            .map(|i| widest_cell(i, !self.columns[i].wraps).max(title(i)).max(1))
            .collect();
        let whole: Vec<usize> = indices
            .map(|i| widest_cell(i, true).max(narrowest[i]))
            .collect();
        if narrowest.iter().sum::<usize>() > room {
            return None;
        }
        let mut widths = if whole.iter().sum::<usize>() <= room {
            whole
        } else {
            share(&narrowest, &whole, room)
        };
        let mut spare = room - widths.iter().sum::<usize>();
        // Unwrap titles while the room lasts, the tallest first: a header
        // of many lines costs more than a header line longer.
        loop {
            let lines =
                |i: usize, w: usize| wrap(&self.columns[i].title, Width::Columns(w), "", "").len();
            let next = (0..widths.len())
                .filter_map(|i| {
                    let now = lines(i, widths[i]);
                    let need = (1..=spare).find(|&more| lines(i, widths[i] + more) < now)?;
                    Some((now, std::cmp::Reverse(need), i))
                })
                .max();
            let Some((_, std::cmp::Reverse(need), i)) = next else {
                break;
            };
            widths[i] += need;
            spare -= need;
        }
        Some(widths)
    }

    /// The table laid out in columns of `widths`.
    fn lines(&self, widths: &[usize], width: Width) -> Vec<String> {
        let table_width = widths.iter().sum::<usize>() + GAP * (widths.len() - 1);
        let titles: Vec<String> = self.columns.iter().map(|c| c.title.clone()).collect();
        let mut out = self.physical_lines(&titles, widths, true);
        if self.rule {
            let dashes: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
            out.push(dashes.join(&" ".repeat(GAP)));
        }
        let indent = " ".repeat(self.indent_below);
        let hanging = format!("{indent}  ");
        for row in &self.rows {
            let mut lines = self.physical_lines(&row.cells, widths, false);
            let mut under = Vec::new();
            if !row.note.is_empty() {
                // Notes that fit start in one column, after the table.
                let inline = table_width + GAP + columns(&row.note);
                if width.fits(inline) {
                    let first = &mut lines[0];
                    let pad = table_width + GAP - columns(first);
                    first.push_str(&" ".repeat(pad));
                    first.push_str(&row.note);
                } else {
                    under.push(row.note.as_str());
                }
            }
            under.extend(row.below.iter().map(String::as_str));
            for text in under {
                lines.extend(wrap(text, width, &indent, &hanging));
            }
            out.extend(lines);
        }
        out
    }

    /// One row's cells (or the titles), wrapped to their columns: as many
    /// lines as its tallest cell, each without trailing spaces. Titles
    /// always wrap, and sit on the bottom line(s), right above the cells.
    fn physical_lines(&self, cells: &[String], widths: &[usize], titles: bool) -> Vec<String> {
        let mut wrapped: Vec<Vec<String>> = cells
            .iter()
            .zip(&self.columns)
            .zip(widths)
            .map(|((cell, column), &w)| {
                if column.wraps || titles {
                    wrap(cell, Width::Columns(w), "", "")
                } else {
                    vec![cell.clone()]
                }
            })
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        if titles {
            for lines in &mut wrapped {
                let missing = height - lines.len();
                lines.splice(0..0, std::iter::repeat_n(String::new(), missing));
            }
        }
        (0..height)
            .map(|line| {
                let parts: Vec<String> = wrapped
                    .iter()
                    .zip(&self.columns)
                    .zip(widths)
                    .map(|((cell, column), &w)| {
                        let text = cell.get(line).map_or("", String::as_str);
                        let pad = " ".repeat(w.saturating_sub(columns(text)));
                        match column.align {
                            Align::Left => format!("{text}{pad}"),
                            Align::Right => format!("{pad}{text}"),
                        }
                    })
                    .collect();
                parts.join(&" ".repeat(GAP)).trim_end().to_string()
            })
            .collect()
    }

    /// Each row as a block: `title: value` pairs (empty cells left out)
    /// wrapped to the width, the note after them, the lines under it.
    fn blocks(&self, width: Width) -> Vec<String> {
        let indent = " ".repeat(self.indent_below);
        let mut out = Vec::new();
        for row in &self.rows {
            let mut pairs: Vec<String> = row
                .cells
                .iter()
                .zip(&self.columns)
                .filter(|(cell, _)| !cell.is_empty())
                .map(|(cell, column)| format!("{}: {cell}", column.title))
                .collect();
            if !row.note.is_empty() {
                pairs.push(row.note.clone());
            }
            out.extend(wrap(&pairs.join("; "), width, "", &indent));
            for text in &row.below {
                out.extend(wrap(text, width, &indent, &format!("{indent}  ")));
            }
        }
        out
    }
}

/// Widths from `low` toward `high` that add up to `room` (which lies
/// between their sums): each column gets a share of the room above `low`
/// in proportion to what it lacks, the rounding going to those that lack
/// most.
fn share(low: &[usize], high: &[usize], room: usize) -> Vec<usize> {
    let lacks: Vec<usize> = low.iter().zip(high).map(|(l, h)| h - l).collect();
    let lacking: usize = lacks.iter().sum();
    let spare = room - low.iter().sum::<usize>();
    let mut widths: Vec<usize> = low
        .iter()
        .zip(&lacks)
        .map(|(l, lack)| l + spare * lack / lacking.max(1))
        .collect();
    let mut left = room - widths.iter().sum::<usize>();
    while left > 0 {
        let Some(i) = (0..widths.len())
            .filter(|&i| widths[i] < high[i])
            .max_by_key(|&i| (high[i] - widths[i], std::cmp::Reverse(i)))
        else {
            break;
        };
        widths[i] += 1;
        left -= 1;
    }
    widths
}

/// The columns of the longest word in a text (what it cannot wrap below).
fn longest_word(text: &str) -> usize {
    text.split_whitespace().map(columns).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut table = Table::new(vec![
            Column::fixed("n", Align::Right),
            Column::fixed("solver", Align::Left),
            Column {
                title: "idea".into(),
                align: Align::Left,
                wraps: true,
            },
        ]);
        table.row_with_note(
            vec![
                "8".into(),
                "three-mask".into(),
                "three masks of free squares".into(),
            ],
            "over budget".into(),
        );
        table.row(vec!["12".into(), "textbook".into(), "a board".into()]);
        table
    }

    fn assert_fits(text: &str, width: usize) {
        for line in text.lines() {
            assert!(columns(line) <= width, "{line:?} is over {width}:\n{text}");
            assert_eq!(line, line.trim_end(), "trailing space:\n{text}");
        }
    }

    #[test]
    fn a_table_that_fits_is_one_line_per_row_with_the_note_after_it() {
        let text = sample().render(Width::Columns(80));
        assert_eq!(
            text,
            " n  solver      idea\n \
             8  three-mask  three masks of free squares  over budget\n\
             12  textbook    a board\n"
        );
        assert_eq!(text, sample().render(Width::Unlimited));
    }

    #[test]
    fn a_narrow_table_wraps_its_text_and_puts_the_note_under_the_row() {
        let text = sample().render(Width::Columns(30));
        assert_fits(&text, 30);
        assert_eq!(
            text,
            " n  solver      idea\n \
             8  three-mask  three masks of\n                \
             free squares\n  \
             over budget\n\
             12  textbook    a board\n"
        );
    }

    #[test]
    fn a_long_title_wraps_above_its_short_numbers() {
        let mut table = Table::new(vec![
            Column::fixed("id", Align::Left),
            Column::fixed("cold ns/node", Align::Right),
        ]);
        table.row(vec!["a".into(), "6.25".into()]);
        assert_eq!(
            table.render(Width::Columns(11)),
            "       cold\nid  ns/node\na      6.25\n"
        );
    }

    #[test]
    fn a_table_too_wide_to_wrap_prints_each_row_as_a_block() {
        let text = sample().render(Width::Columns(16));
        assert_fits(&text, 16);
        assert!(text.starts_with("n: 8; solver:\n  three-mask;"), "{text}");
        // Every fact is still there.
        let words: String = text.split_whitespace().collect();
        for fact in ["three-mask", "overbudget", "textbook", "aboard"] {
            assert!(words.contains(fact), "{fact}: {text}");
        }
    }

    #[test]
    fn lines_below_a_row_are_wrapped_and_indented() {
        let mut table = Table::new(vec![Column::fixed("id", Align::Left)]).indent_below(4);
        table.row(vec!["a".into()]);
        table.below("seed: one two three".into());
        assert_eq!(
            table.render(Width::Columns(16)),
            "id\na\n    seed: one\n      two three\n"
        );
    }
}
