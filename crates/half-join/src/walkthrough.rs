//! `queens trace N --solver half-join`: the split, then unit by unit each
//! top set with its top halves and bottom halves (squares and the diagonals
//! they take across the middle), and every pair: fitting (disjoint
//! diagonals: a solution) or refused (a shared diagonal).

use std::ops::ControlFlow;

use queens_core::trace::{Observer, StepKind, TraceSink, Tracing, bits};
use queens_core::{SearchStats, Solution, check, file_letter};

use crate::board::{Board, Keep, Unit};

/// A half: each rank's file (ranks counted from the board's edge) and key.
struct Half {
    files: Vec<usize>,
    key: u64,
}

/// Every half using exactly `set`, by plain recursion (the engine's search,
/// without its bit tricks, so that the trace is easy to follow).
fn halves(board: &Board, middle: Option<u8>, set: u32, table: &[[u64; 32]]) -> Vec<Half> {
    fn extend(
        board: &Board,
        attacked: &[u32],
        set: u32,
        table: &[[u64; 32]],
        half: &mut Half,
        out: &mut Vec<Half>,
    ) {
        let rank = half.files.len();
        if rank == board.half {
            out.push(Half {
                files: half.files.clone(),
                key: half.key,
            });
            return;
        }
        for file in 0..board.n {
            let taken = half.files.contains(&file);
            let clash = half
                .files
                .iter()
                .enumerate()
                .any(|(r, &f)| f.abs_diff(file) == rank - r);
            if set >> file & 1 == 0 || taken || clash || attacked[rank] >> file & 1 == 1 {
                continue;
            }
            let saved = half.key;
            half.files.push(file);
            half.key |= table[rank][file];
            extend(board, attacked, set, table, half, out);
            half.files.pop();
            half.key = saved;
        }
    }
    let attacked = board.middle_attacks(middle);
    let mut out = Vec::new();
    let mut half = Half {
        files: Vec::new(),
        key: 0,
    };
    extend(board, &attacked, set, table, &mut half, &mut out);
    out
}

fn files_text(set: u32, n: usize) -> String {
    let files: String = (0..n)
        .filter(|f| set >> f & 1 == 1)
        .map(file_letter)
        .collect();
    if files.is_empty() { "-".into() } else { files }
}

pub fn trace(n: usize, sink: &mut dyn TraceSink) -> SearchStats {
    let board = Board::new(n);
    let plan = crate::plan::plan(n);
    let mut observer = Tracing::new(sink);
    // Nodes are the engine's own (plan plus each unit's half-board
    // searches), so a trace reports the work a count does.
    let mut stats = SearchStats {
        nodes: plan.nodes,
        ..SearchStats::default()
    };
    let width = board.layout.width();
    let h = board.half;
    let units = plan.units.len() - 1;
    let middle_text = if board.is_odd() {
        format!(", middle rank {}", h + 1)
    } else {
        String::new()
    };
    let intro = observer.step(StepKind::Note, || {
        format!(
            "top half ranks 1-{h}, bottom half ranks {}-{n}{middle_text}; a key marks \
             the {width}+{width} diagonals a half takes across the middle; halves fit when \
             files complement and keys are disjoint; {units} units, block {}",
            n - h + 1,
            files_text(board.block, n)
        )
    });
    if intro.is_break() {
        return stats;
    }
    for (index, work) in plan.units[..units].iter().enumerate() {
        if trace_unit(
            &board,
            index + 1,
            units,
            Unit::from_key(work.key),
            &mut observer,
            &mut stats,
        )
        .is_break()
        {
            break;
        }
    }
    stats
}

fn trace_unit(
    board: &Board,
    number: usize,
    units: usize,
    unit: Unit,
    observer: &mut Tracing<'_>,
    stats: &mut SearchStats,
) -> ControlFlow<()> {
    let n = board.n;
    let width = board.layout.width();
    let (images, fixing) = board.orbit(unit);
    let orbit = images.len() as u64;
    stats.nodes += crate::unit::count_unit(board, unit).nodes;
    observer.step(StepKind::Note, || {
        let middle = unit.middle.map_or(String::new(), |m| {
            format!(
                "middle queen {}{}; ",
                file_letter(m as usize),
                board.half + 1
            )
        });
        format!(
            "unit {number}/{units}: {middle}top half's files in the block: {}; orbit {orbit}: \
             its count stands for {orbit} units",
            files_text(unit.pattern, n)
        )
    })?;
    let key_text = |key: u64| {
        let [falling, rising] = board.layout.diagonals(key);
        format!(
            "falling {} rising {}",
            bits(u128::from(falling), width),
            bits(u128::from(rising), width)
        )
    };
    let squares = |files: &[usize], row: &dyn Fn(usize) -> usize| -> String {
        let mut named: Vec<(usize, usize)> = files
            .iter()
            .enumerate()
            .map(|(r, &f)| (f, row(r)))
            .collect();
        named.sort_unstable();
        named
            .iter()
            .map(|&(f, r)| format!("{}{}", file_letter(f), r + 1))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let top_row = |r: usize| r;
    let bottom_row = |r: usize| n - 1 - r;
    let mut result = ControlFlow::Continue(());
    let sets = top_sets(board, unit, &fixing);
    for (top_set, weight) in sets {
        let bottom_set = board.bottom_set(unit.middle, top_set);
        let tops = halves(board, unit.middle, top_set, &board.layout.top);
        let bottoms = halves(board, unit.middle, bottom_set, &board.layout.bottom);
        observer.step(StepKind::Note, || {
            format!(
                "top set {} (bottom set {}): {} top halves, {} bottom halves; weight {weight}",
                files_text(top_set, n),
                files_text(bottom_set, n),
                tops.len(),
                bottoms.len()
            )
        })?;
        for half in &tops {
            observer.step(StepKind::Place, || {
                format!(
                    "top half {}: {}",
                    squares(&half.files, &top_row),
                    key_text(half.key)
                )
            })?;
        }
        for half in &bottoms {
            observer.step(StepKind::Place, || {
                format!(
                    "bottom half {}: {}",
                    squares(&half.files, &bottom_row),
                    key_text(half.key)
                )
            })?;
        }
        let mut fits = 0u64;
        for top in &tops {
            for bottom in &bottoms {
                let shared = top.key & bottom.key;
                if shared != 0 {
                    observer.step(StepKind::Reject, || {
                        format!(
                            "{} + {}: shared {}",
                            squares(&top.files, &top_row),
                            squares(&bottom.files, &bottom_row),
                            key_text(shared)
                        )
                    })?;
                    continue;
                }
                fits += 1;
                let mut rows = vec![0u8; n];
                for (r, &f) in top.files.iter().enumerate() {
                    rows[f] = r as u8;
                }
                for (r, &f) in bottom.files.iter().enumerate() {
                    rows[f] = (n - 1 - r) as u8;
                }
                if let Some(m) = unit.middle {
                    rows[m as usize] = board.half as u8;
                }
                debug_assert!(check::is_valid(&rows), "a fitting pair is a solution");
                observer.step(StepKind::Solution, || {
                    format!("solution: {}", Solution::from_rows(rows.clone()))
                })?;
            }
        }
        stats.solutions += orbit * weight * fits;
        result = observer.step(StepKind::Note, || {
            format!(
                "set done: {fits} pairs fit x weight {weight} x orbit {orbit} = {} solutions",
                orbit * weight * fits
            )
        });
        result?;
    }
    result
}

/// The top sets the engine joins for a unit, with their weights.
fn top_sets(board: &Board, unit: Unit, fixing: &[Keep]) -> Vec<(u32, u64)> {
    let mut sets = Vec::new();
    crate::unit::for_each_top_set(board, unit, fixing, |set, weight| sets.push((set, weight)));
    sets
}
