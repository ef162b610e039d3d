//! Trace text: the board word drawn as an n×n grid of bits, rank n at the
//! top and file a on the left, so a learner sees squares where the word has
//! bits (bit index = row * n + col).

use queens_core::file_letter;
use queens_core::trace::Detail;

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

/// The board word as data: the queens (file of each row placed so far), the
/// squares whose bit is 0 (threatened, or holding a queen), and the word
/// itself, rank by rank from the top, under `name`.
pub(crate) fn board_detail(word: u128, n: usize, files_by_row: &[u8], placements: u64) -> Detail {
    Detail::default()
        .files_by_rank(files_by_row)
        .attacked(
            (0..n * n)
                .filter(|&square| word >> square & 1 == 0)
                .map(|square| (square % n, square / n)),
        )
        .state("board", grid_rows(word, n).join(" "))
        .nodes(placements)
}

fn square_name(row: usize, col: usize) -> String {
    format!("{}{}", file_letter(col), row + 1)
}

pub(crate) fn describe_start<W: Word>(n: usize) -> Detail {
    let board = W::ALL.to_u128();
    Detail {
        text: format!(
            "empty {n}x{n} board in one {}: bit row*{n}+col, 1 = not threatened\n{}",
            W::NAME,
            side_by_side(&[board], &[], n)
        ),
        ..board_detail(board, n, &[], 0)
    }
}

/// A queen put on (col, row): the board before, her threat mask, and the
/// board after, as text; as data, the board after.
pub(crate) fn describe_placement<W: Word>(
    board: W,
    threat: W,
    n: usize,
    files_by_row: &[u8],
    placements: u64,
) -> Detail {
    let (board, threat) = (board.to_u128(), threat.to_u128());
    let row = files_by_row.len() - 1;
    let col = files_by_row[row] as usize;
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
    let detail = board_detail(board & threat, n, files_by_row, placements)
        .state("threat", grid_rows(threat, n).join(" "));
    Detail {
        text: format!(
            "rank {}: open {open_in_row} -> queen on {square} (bit {}): board AND threat({square})\n{}",
            row + 1,
            row * n + col,
            side_by_side(&[board, threat, board & threat], &['&', '='], n)
        ),
        ..detail
    }
}

/// Rank `row + 1` has no open square: the queen below is taken back.
pub(crate) fn describe_dead_row(
    board: u128,
    n: usize,
    files_by_row: &[u8],
    placements: u64,
) -> Detail {
    let row = files_by_row.len();
    Detail {
        text: format!(
            "rank {}: bits {}..{} of the board are all 0, no open square: take back rank {}'s queen",
            row + 1,
            row * n,
            row * n + n - 1,
            row
        ),
        ..board_detail(board, n, &files_by_row[..row - 1], placements)
    }
}

/// Every open square of rank `row + 1` was tried: the queen below is taken
/// back (`board` is the word before she was put down).
pub(crate) fn describe_exhausted_row(
    board: u128,
    n: usize,
    files_by_row: &[u8],
    placements: u64,
) -> Detail {
    let row = files_by_row.len();
    Detail {
        text: format!(
            "rank {}: every open square tried: take back rank {row}'s queen",
            row + 1
        ),
        ..board_detail(board, n, &files_by_row[..row - 1], placements)
    }
}

pub(crate) fn describe_solution(
    board: u128,
    n: usize,
    files_by_row: &[u8],
    placements: u64,
) -> Detail {
    let squares: Vec<String> = files_by_row
        .iter()
        .enumerate()
        .map(|(row, &col)| square_name(row, col as usize))
        .collect();
    Detail {
        text: format!(
            "all {} filled: {}",
            queens_core::counted(n, "rank", "ranks"),
            squares.join(" ")
        ),
        ..board_detail(board, n, files_by_row, placements)
    }
}
