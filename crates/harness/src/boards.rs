//! How `solve` and `find` print a board: the formats both offer, the size
//! past which a drawing is refused, and the rank list written fast enough
//! for a board of 10^8 queens.

use std::io::{self, Write};

use clap::ValueEnum;
use queens_core::render::{self, Style};
use queens_core::{MAX_ALGEBRAIC_N, QueensError, Solution};

use crate::error::CliError;

/// The largest board drawn square by square: n lines of 2n characters,
/// which past this no terminal shows and no reader takes in.
pub const MAX_DRAWN_N: usize = 100;

/// How a board is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// ASCII board with rank and file labels (n <= 100).
    Board,
    /// Unicode board: a queen glyph on light and dark squares (n <= 100).
    Unicode,
    /// One line per board: `a2 b4 c1 d3` (n <= 26).
    Algebraic,
    /// JSON: rows of each file, 0-based (see the command's help).
    Json,
    /// One line per board: the rank (1..n) of the queen on each file, file
    /// a first: `2 4 1 3`. Any n.
    Ranks,
}

impl Format {
    /// Refuses, in one line, a format that cannot show an n×n board.
    pub fn check_n(self, n: usize) -> Result<(), CliError> {
        match self {
            Format::Algebraic if n > MAX_ALGEBRAIC_N => {
                Err(QueensError::AlgebraicTooWide { n }.into())
            }
            Format::Board | Format::Unicode if n > MAX_DRAWN_N => Err(CliError::Input(format!(
                "a drawn board has n <= {MAX_DRAWN_N} (got n = {n}); use --format ranks or json"
            ))),
            _ => Ok(()),
        }
    }

    /// Draws or names one board of rows given as bytes (`check_n` passed),
    /// ending with a newline; not for JSON, which each command frames.
    pub fn write_small(self, out: &mut impl Write, rows: &[u8]) -> io::Result<()> {
        match self {
            Format::Board => write!(out, "{}", render::render(rows, Style::Ascii)),
            Format::Unicode => write!(out, "{}", render::render(rows, Style::Unicode)),
            Format::Algebraic => writeln!(
                out,
                "{}",
                Solution::from_rows(rows)
                    .to_algebraic()
                    .expect("n <= 26 checked before the search")
            ),
            Format::Ranks => write_ranks(out, rows.iter().map(|&r| u32::from(r))),
            Format::Json => Ok(serde_json::to_writer(out, rows)?),
        }
    }
}

/// Writes `rows` as ranks (row + 1) separated by spaces, then a newline,
/// through a buffer: `write!` per number would spend most of a
/// 10^7-queen board's time formatting.
pub fn write_ranks(out: &mut impl Write, rows: impl Iterator<Item = u32>) -> io::Result<()> {
    const CHUNK: usize = 1 << 16;
    let mut buffer = Vec::with_capacity(CHUNK + 16);
    let mut digits = itoa::Buffer::new();
    for (i, row) in rows.enumerate() {
        if i > 0 {
            buffer.push(b' ');
        }
        buffer.extend_from_slice(digits.format(row + 1).as_bytes());
        if buffer.len() >= CHUNK {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    buffer.push(b'\n');
    out.write_all(&buffer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_one_based_and_json_rows_zero_based() {
        let mut out = Vec::new();
        write_ranks(&mut out, [1, 3, 0, 2, 9, 1_000_000_000].into_iter()).unwrap();
        assert_eq!(out, b"2 4 1 3 10 1000000001\n");
        let mut out = Vec::new();
        Format::Json.write_small(&mut out, &[1, 3, 0, 2]).unwrap();
        assert_eq!(out, b"[1,3,0,2]");
        let mut out = Vec::new();
        Format::Json.write_small(&mut out, &[]).unwrap();
        assert_eq!(out, b"[]");
    }

    #[test]
    fn long_lists_cross_the_buffer_whole() {
        let n = 100_000u32;
        let mut out = Vec::new();
        write_ranks(&mut out, 0..n).unwrap();
        let text = String::from_utf8(out).unwrap();
        let read: Vec<u32> = text
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(read, (1..=n).collect::<Vec<_>>());
    }

    #[test]
    fn drawings_and_letters_stop_where_they_stop_being_read() {
        assert!(Format::Board.check_n(MAX_DRAWN_N).is_ok());
        assert!(Format::Unicode.check_n(MAX_DRAWN_N + 1).is_err());
        assert!(Format::Algebraic.check_n(27).is_err());
        assert!(Format::Ranks.check_n(100_000_000).is_ok());
        assert!(Format::Json.check_n(100_000_000).is_ok());
    }
}
