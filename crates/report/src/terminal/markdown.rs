//! Markdown (CommonMark with tables, as the crates' READMEs are written)
//! rendered as plain text for a terminal: headings underlined, paragraphs
//! and list items wrapped to the width, code blocks kept line for line,
//! tables laid out by [`Table`] (aligned columns, or a block per row), and
//! a link's address after its text. No escape sequences: the text reads
//! the same in a terminal, a pager or a file.

use pulldown_cmark::{Alignment, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::lines::{WIDTH, Width, columns, wrap, wrap_each};
use super::table::{Align, Column, Table};

/// How far code is indented to set it apart from prose.
const CODE_INDENT: &str = "    ";

/// `text` rendered to fit `width` (see the module's documentation); the
/// result ends in a newline unless it is empty.
pub fn markdown(text: &str, width: Width) -> String {
    let mut renderer = Renderer {
        width,
        ..Renderer::default()
    };
    for event in Parser::new_ext(text, Options::ENABLE_TABLES) {
        renderer.event(event);
    }
    renderer.flush_inline();
    let mut out = renderer.lines.join("\n");
    let kept = out.trim_end_matches('\n').len();
    out.truncate(kept);
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// A block the current text is inside, which prefixes its lines.
enum Container {
    /// `> ` on every line.
    Quote,
    /// A list item: its bullet (`- `, `3. `) on its first line, as many
    /// spaces on the others.
    Item { bullet: String, used: bool },
}

/// A code or HTML block being collected, printed line for line.
struct Verbatim {
    text: String,
    /// Whether it is indented (code) or not (HTML).
    code: bool,
}

#[derive(Default)]
struct Renderer {
    width: Width,
    lines: Vec<String>,
    containers: Vec<Container>,
    /// Per open list, the next number (`None`: a bulleted list).
    lists: Vec<Option<u64>>,
    /// The text of the paragraph, heading, item or cell being collected.
    inline: String,
    /// Per open link: where its text starts in `inline`, and its address.
    links: Vec<(usize, String)>,
    verbatim: Option<Verbatim>,
    /// The table being collected, once its head is read.
    table: Option<Table>,
    /// The alignments of its columns, and the cells of its current row.
    alignments: Vec<Alignment>,
    cells: Vec<String>,
}

impl Renderer {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) | Event::Html(text) => match &mut self.verbatim {
                Some(block) => block.text.push_str(&text),
                None => self.inline.push_str(&text),
            },
            Event::Code(code) => {
                self.inline.push('`');
                self.inline.push_str(&code);
                self.inline.push('`');
            }
            Event::InlineHtml(html) => self.inline.push_str(&html),
            Event::SoftBreak => self.inline.push(' '),
            Event::HardBreak => self.inline.push('\n'),
            Event::Rule => {
                self.gap();
                let (_, rest) = self.prefixes();
                let room = match self.width.less(columns(&rest)) {
                    Width::Columns(room) => room,
                    Width::Unlimited => WIDTH,
                };
                self.emit(vec![format!("{rest}{}", "-".repeat(room))]);
            }
            // Math, footnotes and task lists: their options are off.
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph | Tag::Heading { .. } => self.gap(),
            Tag::BlockQuote(_) => {
                self.gap();
                self.containers.push(Container::Quote);
            }
            Tag::CodeBlock(_) | Tag::HtmlBlock => {
                self.flush_inline();
                self.gap();
                self.verbatim = Some(Verbatim {
                    text: String::new(),
                    code: matches!(tag, Tag::CodeBlock(_)),
                });
            }
            Tag::List(first) => {
                // A list inside an item follows the item's own text
                // directly; any other is a block of its own.
                if self.in_item() {
                    self.flush_inline();
                } else {
                    self.gap();
                }
                self.lists.push(first);
            }
            Tag::Item => {
                self.flush_inline();
                let bullet = match self.lists.last_mut() {
                    Some(Some(number)) => {
                        *number += 1;
                        format!("{}. ", *number - 1)
                    }
                    _ => "- ".to_string(),
                };
                self.containers.push(Container::Item {
                    bullet,
                    used: false,
                });
            }
            Tag::Table(alignments) => {
                self.gap();
                self.alignments = alignments;
            }
            Tag::TableHead | Tag::TableRow | Tag::TableCell => self.inline.clear(),
            Tag::Emphasis => self.inline.push('_'),
            Tag::Strong => self.inline.push('*'),
            Tag::Link { dest_url, .. } => self.links.push((self.inline.len(), dest_url.into())),
            Tag::Image { dest_url, .. } => {
                self.inline.push_str("[image: ");
                self.links.push((self.inline.len(), dest_url.into()));
            }
            // Strikethrough, footnotes, definition lists and the like:
            // their options are off.
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.flush_inline(),
            TagEnd::Heading(level) => self.heading(level),
            TagEnd::BlockQuote(_) => {
                self.flush_inline();
                self.containers.pop();
            }
            TagEnd::CodeBlock | TagEnd::HtmlBlock => self.verbatim(),
            TagEnd::List(_) => {
                self.lists.pop();
            }
            TagEnd::Item => {
                self.flush_inline();
                self.containers.pop();
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.inline);
                self.cells.push(cell.trim().to_string());
            }
            TagEnd::TableHead => self.table_head(),
            TagEnd::TableRow => {
                let row = std::mem::take(&mut self.cells);
                if let Some(table) = &mut self.table {
                    table.row(row);
                }
            }
            TagEnd::Table => self.table(),
            TagEnd::Emphasis => self.inline.push('_'),
            TagEnd::Strong => self.inline.push('*'),
            TagEnd::Link => self.link_end(""),
            TagEnd::Image => self.link_end("]"),
            _ => {}
        }
    }

    /// A link's address after its text, unless the text is the address
    /// (`<https://...>`) or it points inside the same page (`#section`).
    fn link_end(&mut self, close: &str) {
        let Some((start, url)) = self.links.pop() else {
            return;
        };
        self.inline.push_str(close);
        let text = &self.inline[start..];
        let shown = url.strip_prefix("mailto:").unwrap_or(&url);
        if !url.is_empty() && !url.starts_with('#') && text != shown {
            self.inline.push_str(&format!(" ({url})"));
        }
    }

    /// The prefixes of the next block's first line and of its others.
    fn prefixes(&self) -> (String, String) {
        let mut first = String::new();
        let mut rest = String::new();
        for container in &self.containers {
            match container {
                Container::Quote => {
                    first.push_str("> ");
                    rest.push_str("> ");
                }
                Container::Item { bullet, used } => {
                    let spaces = " ".repeat(columns(bullet));
                    first.push_str(if *used { &spaces } else { bullet });
                    rest.push_str(&spaces);
                }
            }
        }
        (first, rest)
    }

    fn in_item(&self) -> bool {
        self.containers
            .iter()
            .any(|c| matches!(c, Container::Item { .. }))
    }

    /// Lines out, without trailing spaces; the items' bullets are then
    /// printed, and their later lines indented instead.
    fn emit(&mut self, lines: Vec<String>) {
        if lines.is_empty() {
            return;
        }
        for line in lines {
            self.lines.push(line.trim_end().to_string());
        }
        for container in &mut self.containers {
            if let Container::Item { used, .. } = container {
                *used = true;
            }
        }
    }

    /// A blank line before a block, unless it is the first thing printed
    /// or the first thing in a list item (it goes on the bullet's line).
    fn gap(&mut self) {
        let fresh_item = matches!(
            self.containers.last(),
            Some(Container::Item { used: false, .. })
        );
        if self.lines.is_empty() || fresh_item || self.lines.last().is_some_and(|l| l.is_empty()) {
            return;
        }
        let (_, rest) = self.prefixes();
        self.lines.push(rest.trim_end().to_string());
    }

    /// The collected text as wrapped lines (each hard break a new line).
    fn flush_inline(&mut self) {
        let text = std::mem::take(&mut self.inline);
        if text.trim().is_empty() {
            return;
        }
        for part in text.split('\n') {
            let (first, rest) = self.prefixes();
            let lines = wrap(part.trim(), self.width, &first, &rest);
            self.emit(lines);
        }
    }

    /// A heading: its text, underlined (`=` for the first level, `-` for
    /// the second, `~` below).
    fn heading(&mut self, level: HeadingLevel) {
        let text = std::mem::take(&mut self.inline);
        let (first, rest) = self.prefixes();
        let lines = wrap(text.trim(), self.width, &first, &rest);
        let longest = lines
            .iter()
            .map(|line| columns(line) - columns(&rest).min(columns(line)))
            .max()
            .unwrap_or(0);
        let rule = match level {
            HeadingLevel::H1 => '=',
            HeadingLevel::H2 => '-',
            _ => '~',
        };
        let underline = format!("{rest}{}", rule.to_string().repeat(longest.max(1)));
        self.emit(lines);
        self.emit(vec![underline]);
    }

    /// A code block line for line, indented unless that would make a line
    /// wrap that fits without (a pasted trace is as wide as a terminal);
    /// an HTML block as it is. A line wider than the width even so is
    /// wrapped, its continuation two columns further in.
    fn verbatim(&mut self) {
        let Some(block) = self.verbatim.take() else {
            return;
        };
        let (first, rest) = self.prefixes();
        let fits_indented = block.text.lines().all(|line| {
            self.width
                .fits(columns(&rest) + columns(CODE_INDENT) + columns(line))
        });
        let indent = if block.code && fits_indented {
            CODE_INDENT
        } else {
            ""
        };
        let (first, rest) = (format!("{first}{indent}"), format!("{rest}{indent}"));
        let lines = wrap_each(&block.text, self.width, &first, &rest, 2);
        self.emit(lines);
    }

    /// A table's columns from its head: every column may wrap, numbers
    /// stay flush right where the Markdown says so.
    fn table_head(&mut self) {
        let titles = std::mem::take(&mut self.cells);
        let columns = titles
            .into_iter()
            .enumerate()
            .map(|(i, title)| Column {
                title,
                align: match self.alignments.get(i) {
                    Some(Alignment::Right) => Align::Right,
                    _ => Align::Left,
                },
                wraps: true,
            })
            .collect();
        self.table = Some(Table::new(columns).with_rule());
    }

    /// The collected table through [`Table`].
    fn table(&mut self) {
        let Some(table) = self.table.take() else {
            return;
        };
        let (first, rest) = self.prefixes();
        let text = table.render(self.width.less(columns(&rest)));
        let lines = text
            .lines()
            .enumerate()
            .map(|(i, line)| format!("{}{line}", if i == 0 { &first } else { &rest }))
            .collect();
        self.emit(lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str, width: usize) -> String {
        let out = markdown(text, Width::Columns(width));
        for line in out.lines() {
            assert!(columns(line) <= width, "{line:?} over {width}:\n{out}");
            assert_eq!(line, line.trim_end(), "trailing space:\n{out}");
        }
        out
    }

    #[test]
    fn headings_are_underlined_and_paragraphs_wrapped() {
        let out = render(
            "# three-mask\n\nOne two three\nfour five six seven.\n\n## Cost\n\nShort.\n",
            20,
        );
        assert_eq!(
            out,
            "three-mask\n==========\n\nOne two three four\nfive six seven.\n\nCost\n----\n\nShort.\n"
        );
    }

    #[test]
    fn lists_hang_under_their_bullets_and_code_is_kept() {
        let out = render(
            "- one two three four five\n- `seven`\n  1. six\n\n```text\n$ queens trace 4\n  x  y\n```\n",
            20,
        );
        assert_eq!(
            out,
            "- one two three four\n  five\n- `seven`\n  1. six\n\n    $ queens trace 4\n      x  y\n"
        );
    }

    #[test]
    fn a_code_block_that_fits_only_unindented_is_not_indented() {
        let out = render("```\n12345678\n```\n", 10);
        assert_eq!(out, "12345678\n");
        let out = render("```\n123456\n```\n", 10);
        assert_eq!(out, "    123456\n");
    }

    #[test]
    fn links_show_their_address_once() {
        let out = render(
            "See [the paper](https://doi.org/x), <https://a.org/b> and [here](#cost).\n",
            100,
        );
        assert_eq!(
            out,
            "See the paper (https://doi.org/x), https://a.org/b and here.\n"
        );
    }

    #[test]
    fn a_table_is_aligned_text_or_a_block_per_row() {
        let table = "| n | solutions |\n|---:|---|\n| 8 | 92 |\n| 10 | 724 |\n";
        assert_eq!(
            render(table, 40),
            " n  solutions\n--  ---------\n 8  92\n10  724\n"
        );
        let wide = "| a | b |\n|---|---|\n| averyveryverylongword | anotherverylongword |\n";
        let out = render(wide, 30);
        assert!(out.starts_with("a: averyveryverylongword;"), "{out}");
    }
}
