//! Lines that fit a width: [`Width`], and [`wrap`], which breaks a long
//! line at spaces onto continuation lines and never cuts a word away.

/// The columns that output fits by default: wider than the classic 80, so
/// that the comparison's nine numeric columns stay one line per row, and
/// narrower than a laptop's half-screen terminal.
pub const WIDTH: usize = 100;

/// How wide a command's output may be: [`WIDTH`] columns unless told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// Fit this many columns: wrap what is longer.
    Columns(usize),
    /// No limit (`--wide`): every row of a table on one line, however long.
    Unlimited,
}

impl Default for Width {
    fn default() -> Width {
        Width::Columns(WIDTH)
    }
}

impl Width {
    /// [`WIDTH`], or [`Width::Unlimited`] when `--wide` was given.
    pub fn terminal(wide: bool) -> Width {
        if wide {
            Width::Unlimited
        } else {
            Width::Columns(WIDTH)
        }
    }

    /// Whether a line of `columns` characters fits.
    pub fn fits(self, columns: usize) -> bool {
        match self {
            Width::Columns(limit) => columns <= limit,
            Width::Unlimited => true,
        }
    }

    /// What is left after `used` columns (an indent, a prefix); at least
    /// one column, so that text always moves forward.
    pub fn less(self, used: usize) -> Width {
        match self {
            Width::Columns(limit) => Width::Columns(limit.saturating_sub(used).max(1)),
            Width::Unlimited => Width::Unlimited,
        }
    }
}

/// The columns a text takes: its characters.
pub fn columns(text: &str) -> usize {
    text.chars().count()
}

/// One line of text wrapped to `width`: the first output line begins with
/// `first`, every later one with `rest` (a hanging indent). It breaks at
/// spaces and keeps the text's own spacing between the words it does not
/// break at (an aligned column inside a line stays aligned); a word longer
/// than a whole line is split where the line ends, never cut. Every line
/// comes back without trailing spaces; an empty text gives the prefix alone.
pub fn wrap(text: &str, width: Width, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    // Columns in `line` and whether it holds a word yet (beyond its prefix).
    let mut used = columns(first);
    let mut has_word = false;
    for (space, word) in words(text) {
        let length = columns(word);
        // Spaces before the first word are the text's own indent; spaces
        // at a break are dropped with it.
        let mut lead = if has_word || lines.is_empty() {
            space
        } else {
            ""
        };
        if has_word && !width.fits(used + columns(lead) + length) {
            lines.push(line.trim_end().to_string());
            line = rest.to_string();
            used = columns(rest);
            has_word = false;
            lead = "";
        }
        line.push_str(lead);
        used += columns(lead);
        if width.fits(used + length) {
            line.push_str(word);
            used += length;
            has_word = true;
            continue;
        }
        // A word longer than a whole line: split it where lines end.
        for c in word.chars() {
            if has_word && !width.fits(used + 1) {
                lines.push(line.trim_end().to_string());
                line = rest.to_string();
                used = columns(rest);
            }
            // At least one character a line, whatever the width.
            line.push(c);
            used += 1;
            has_word = true;
        }
    }
    lines.push(line.trim_end().to_string());
    lines
}

/// The words of a line, each with the spaces before it (empty for the
/// first word unless the line begins with spaces).
fn words(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let start = rest.find(|c: char| c != ' ')?;
        let end = rest[start..].find(' ').map_or(rest.len(), |at| start + at);
        let (space, word) = (&rest[..start], &rest[start..end]);
        rest = &rest[end..];
        Some((space, word))
    })
}

/// Every line of `text` wrapped to `width`, each keeping its own indent and
/// continuing `hanging` columns further in; the result ends in a newline
/// when `text` does, and no line ends in spaces.
pub fn wrap_lines(text: &str, width: Width, hanging: usize) -> String {
    let mut out = wrap_each(text, width, "", "", hanging).join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Each line of `text` wrapped as [`wrap_lines`] wraps it, after `first`
/// (on the first line) or `rest` (on every other line and continuation).
pub(super) fn wrap_each(
    text: &str,
    width: Width,
    first: &str,
    rest: &str,
    hanging: usize,
) -> Vec<String> {
    let hanging = " ".repeat(hanging);
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let body = line.trim_start_matches(' ');
        let indent = &line[..line.len() - body.len()];
        let start = format!("{}{indent}", if index == 0 { first } else { rest });
        out.extend(wrap(
            body,
            width,
            &start,
            &format!("{rest}{indent}{hanging}"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_fits_is_kept_as_it_is_less_its_trailing_spaces() {
        assert_eq!(wrap("a  b   ", Width::Columns(10), "", ""), ["a  b"]);
        assert_eq!(wrap("", Width::Columns(10), "> ", ""), [">"]);
        assert_eq!(wrap("x", Width::Unlimited, "- ", "  "), ["- x"]);
    }

    #[test]
    fn a_long_line_breaks_at_spaces_with_a_hanging_indent() {
        let lines = wrap("one two three four", Width::Columns(9), "", "  ");
        assert_eq!(lines, ["one two", "  three", "  four"]);
        for line in &lines {
            assert!(columns(line) <= 9);
        }
    }

    #[test]
    fn a_word_longer_than_the_line_is_split_not_cut() {
        let lines = wrap("ab abcdefghij", Width::Columns(5), "", "");
        assert_eq!(lines, ["ab", "abcde", "fghij"]);
        // A width below the prefix still moves on, one character a line.
        let lines = wrap("abc", Width::Columns(1), ">>", ">>");
        assert_eq!(lines.concat().replace(">>", ""), "abc");
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(columns("1.23 µs"), 7);
        let lines = wrap("µµµµ µµµµ", Width::Columns(4), "", "");
        assert_eq!(lines, ["µµµµ", "µµµµ"]);
    }

    #[test]
    fn wrap_lines_keeps_each_lines_indent() {
        let text = "  note: one two three\nshort\n";
        assert_eq!(
            wrap_lines(text, Width::Columns(15), 6),
            "  note: one two\n        three\nshort\n"
        );
    }
}
