//! Trace text: the board word drawn as an n×n grid of bits, rank n at the
//! top and file a on the left, so a learner sees squares where the word has
//! bits (bit index = row * n + col).

use queens_core::file_letter;

use crate::word::Word;

/// The bits of `word` for the n×n board, one string per rank, top rank first.
fn grid_rows(word: u128, n: usize) -> Vec<String> {
    (0..n)
        .rev()
        .map(|row| {
            (0..n)
                .map(|col| {
                    if word >> (row * n + col) & 1 == 1 {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect()
        })
        .collect()
}

/// Grids side by side with an operator between them on the middle rank,
/// rank numbers on the left and file letters underneath.
fn side_by_side(words: &[u128], operators: &[char], n: usize) -> String {
    let grids: Vec<Vec<String>> = words.iter().map(|&w| grid_rows(w, n)).collect();
    let middle = n / 2;
    let mut lines: Vec<String> = (0..n)
        .map(|line| {
            let mut text = format!("  {:>2} ", n - line);
            for (index, grid) in grids.iter().enumerate() {
                if index > 0 {
                    let op = if line == middle {
                        operators[index - 1]
                    } else {
                        ' '
                    };
                    text.push_str(&format!(" {op} "));
                }
                text.push_str(&grid[line]);
            }
            text
        })
        .collect();
    let files: String = (0..n).map(file_letter).collect();
    lines.push(format!("     {}", vec![files; words.len()].join("   ")));
    lines.join("\n")
}

fn square_name(row: usize, col: usize) -> String {
    format!("{}{}", file_letter(col), row + 1)
}

pub fn describe_start<W: Word>(n: usize) -> String {
    format!(
        "empty {n}x{n} board in one {}: bit row*{n}+col, 1 = not threatened\n{}",
        W::NAME,
        side_by_side(&[W::ALL.to_u128()], &[], n)
    )
}

pub fn describe_placement<W: Word>(
    board: W,
    threat: W,
    n: usize,
    row: usize,
    col: usize,
) -> String {
    let (board, threat) = (board.to_u128(), threat.to_u128());
    let open_in_row: String = (0..n)
        .map(|c| {
            if board >> (row * n + c) & 1 == 1 {
                '1'
            } else {
                '0'
            }
        })
        .collect();
    let square = square_name(row, col);
    format!(
        "rank {}: open {open_in_row} -> queen on {square} (bit {}): board AND threat({square})\n{}",
        row + 1,
        row * n + col,
        side_by_side(&[board, threat, board & threat], &['&', '='], n)
    )
}

pub fn describe_dead_row(n: usize, row: usize) -> String {
    format!(
        "rank {}: bits {}..{} of the board are all 0, no open square: back",
        row + 1,
        row * n,
        row * n + n - 1
    )
}

pub fn describe_solution(rows: &[u8]) -> String {
    let squares: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(col, &row)| square_name(row as usize, col))
        .collect();
    format!("all {} ranks filled: {}", rows.len(), squares.join(" "))
}
