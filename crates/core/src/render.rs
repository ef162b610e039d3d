//! Drawing a solution for a person: plain ASCII, or Unicode with a queen glyph
//! on alternating light and dark squares. Rank numbers run down the left edge
//! (highest rank on top, as a chess diagram is drawn) and file letters along
//! the bottom.

use std::fmt::Write;

use crate::solution::{MAX_ALGEBRAIC_N, file_letter};

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
    for row in (0..n).rev() {
        let _ = write!(out, "{:>label_width$} ", row + 1);
        for (col, &queen_row) in rows.iter().enumerate() {
            let glyph = match (style, queen_row as usize == row) {
                (Style::Ascii, true) => 'Q',
                (Style::Ascii, false) => '.',
                (Style::Unicode, true) => '♛',
                (Style::Unicode, false) if (row + col) % 2 == 0 => '■',
                (Style::Unicode, false) => '□',
            };
            out.push(glyph);
            if col + 1 < n {
                out.push(' ');
            }
        }
        out.push('\n');
    }
    let _ = write!(out, "{:label_width$} ", "");
    for col in 0..n {
        // Past 26 files there are no letters: label by column number mod 10.
        let label = if n <= MAX_ALGEBRAIC_N {
            file_letter(col)
        } else {
            char::from_digit((col % 10) as u32, 10).unwrap_or('?')
        };
        out.push(label);
        if col + 1 < n {
            out.push(' ');
        }
    }
    out.push('\n');
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
    fn wide_boards_pad_rank_labels() {
        let rows: Vec<u8> = (0..10).collect();
        let board = render(&rows, Style::Ascii);
        assert!(board.starts_with("10 "));
        assert!(board.lines().nth(9).unwrap().starts_with(" 1 Q"));
    }
}
