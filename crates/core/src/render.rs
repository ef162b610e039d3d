//! Drawing a solution for a person: plain ASCII, or Unicode with a queen glyph
//! on alternating light and dark squares. Rank numbers run down the left edge
//! (highest rank on top, as a chess diagram is drawn) and file names along
//! the bottom: letters a to z, then past z the file's number, 27, 28, ...
//! (1-based, as ranks are, and as a trace names those files), each written
//! top to bottom under its own file so that the columns stay one character
//! wide.

use std::fmt::Write;

use crate::solution::file_label;

/// How squares are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `Q` for a queen, `.` for an empty square.
    Ascii,
    /// `♛` for a queen, `■`/`□` for dark/light squares (a1 is dark, as on a
    /// chessboard).
    Unicode,
}

/// Renders `rows` (row of the queen in each column) as a labelled board,
/// ending with a newline.
pub fn render(rows: &[u8], style: Style) -> String {
    let n = rows.len();
    let label_width = n.to_string().len();
    let mut out = String::new();
    // One line: its label, then one character per file, spaced.
    let mut line = |label: String, glyphs: Vec<char>| {
        let glyphs: Vec<String> = glyphs.iter().map(char::to_string).collect();
        let _ = writeln!(out, "{label:>label_width$} {}", glyphs.join(" "));
    };
    for row in (0..n).rev() {
        let glyphs = rows.iter().enumerate().map(|(col, &queen_row)| {
            match (style, queen_row as usize == row) {
                (Style::Ascii, true) => 'Q',
                (Style::Ascii, false) => '.',
                (Style::Unicode, true) => '♛',
                (Style::Unicode, false) if (row + col) % 2 == 0 => '■',
                (Style::Unicode, false) => '□',
            }
        });
        line((row + 1).to_string(), glyphs.collect());
    }
    // Each name is right-aligned in a block as tall as the longest, as
    // numbers in a column are: the last line holds every letter and every
    // number's last digit.
    let names: Vec<String> = (0..n).map(file_label).collect();
    let height = names.iter().map(String::len).max().unwrap_or(0);
    for at in 0..height {
        let glyphs = names.iter().map(|name| {
            let blank = height - name.len();
            match at.checked_sub(blank) {
                Some(i) => char::from(name.as_bytes()[i]),
                None => ' ',
            }
        });
        line(String::new(), glyphs.collect());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_board_has_ranks_top_down_and_files_left_to_right() {
        let board = render(&[1, 3, 0, 2], Style::Ascii);
        assert_eq!(
            board,
            "4 . Q . .\n3 . . . Q\n2 Q . . .\n1 . . Q .\n  a b c d\n"
        );
    }

    #[test]
    fn unicode_board_colours_a1_dark() {
        let board = render(&[1, 3, 0, 2], Style::Unicode);
        let bottom = board.lines().nth(3).unwrap();
        assert_eq!(bottom, "1 ■ □ ♛ □");
        assert_eq!(board.matches('♛').count(), 4);
    }

    #[test]
    fn files_past_z_are_named_by_their_number_under_their_own_column() {
        let rows: Vec<u8> = (0..30).map(|c| (c * 2 % 29) as u8).collect();
        let board = render(&rows, Style::Ascii);
        let lines: Vec<&str> = board.lines().collect();
        let (tens, units) = (lines[30], lines[31]);
        // One character per file in both lines, after the rank labels'
        // width and a space, as in every rank's line.
        let spaced = |names: &str| {
            names
                .chars()
                .map(String::from)
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            units,
            format!("   {}", spaced("abcdefghijklmnopqrstuvwxyz7890"))
        );
        assert_eq!(tens, format!("   {}2 2 2 3", " ".repeat(2 * 26)));
        // Read down each column: a..z, then 27..30, the 1-based numbers
        // that a trace names those files by.
        let column = |col: usize| -> String {
            let at = 3 + 2 * col;
            [tens, units]
                .iter()
                .filter_map(|line| line[at..].chars().next())
                .filter(|c| *c != ' ')
                .collect()
        };
        let read: Vec<String> = (0..30).map(column).collect();
        let named: Vec<String> = (0..30).map(file_label).collect();
        assert_eq!(read, named);
        assert_eq!(read[26], "27");
        assert_eq!(crate::file_name(26), "[27]");
        // The queens stand over the files they are in.
        assert_eq!(lines[29].chars().nth(3), Some('Q'), "file a, rank 1");
    }

    #[test]
    fn wide_boards_pad_rank_labels() {
        let rows: Vec<u8> = (0..10).collect();
        let board = render(&rows, Style::Ascii);
        assert!(board.starts_with("10 "));
        assert!(board.lines().nth(9).unwrap().starts_with(" 1 Q"));
    }
}
