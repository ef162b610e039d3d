//! `queens trace N --solver half-join`: the split and the diagonals a key's
//! bits stand for, then unit by unit each top set with its top halves and
//! bottom halves (squares and the diagonals they take across the middle),
//! and every pair: fitting (disjoint diagonals: a solution) or refused (a
//! shared diagonal).
//!
//! Words as in every trace and in constellations': a *rising* diagonal runs
//! like a1-h8, a *falling* one like a8-h1 (the layout's direction 0 and 1);
//! a *unit* is one independent piece of the count, its *orbit* the symmetric
//! images it stands for, its *weight* its predicted time; in a mask a 1 is a
//! free diagonal.

use std::ops::ControlFlow;

use queens_core::trace::{Detail, Observer, StepKind, TraceSink, Tracing, bits};
use queens_core::{SearchStats, Solution, check, counted, file_name};

use crate::board::{Board, SplitSymmetry, Unit};

/// A half: each rank's file (ranks counted from the board's edge) and key.
struct Half {
    files: Vec<usize>,
    key: u64,
}

/// Every half using exactly `set`, by plain recursion (what the engine
/// finds, by its own search below n = 14, or from quarter pieces from
/// there on, made here the easiest way to follow), handed to `visit`
/// one at a time until it says stop: a set can have millions of halves at
/// n = 28, and a trace shows a few before its step limit.
fn for_each_half(
    board: &Board,
    middle: Option<u8>,
    set: u32,
    table: &[[u64; 32]],
    visit: &mut dyn FnMut(&Half) -> ControlFlow<()>,
) -> ControlFlow<()> {
    fn extend(
        board: &Board,
        attacked: &[u32],
        set: u32,
        table: &[[u64; 32]],
        half: &mut Half,
        visit: &mut dyn FnMut(&Half) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let rank = half.files.len();
        if rank == board.half {
            return visit(half);
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
            let flow = extend(board, attacked, set, table, half, visit);
            half.files.pop();
            half.key = saved;
            flow?;
        }
        ControlFlow::Continue(())
    }
    let attacked = board.middle_attacks(middle);
    let mut half = Half {
        files: Vec::new(),
        key: 0,
    };
    extend(board, &attacked, set, table, &mut half, visit)
}

fn files_text(set: u32, n: usize) -> String {
    let files: String = (0..n)
        .filter(|f| set >> f & 1 == 1)
        .map(file_name)
        .collect();
    if files.is_empty() { "-".into() } else { files }
}

/// A diagonal of the whole board by its end squares, `a1-d4`: direction 0
/// (rising) keeps file − rank, 1 (falling) keeps file + rank; `(file,
/// rank)` is any square on it.
fn diagonal_name(n: usize, dir: usize, (file, rank): (usize, usize)) -> String {
    let on_it: Vec<(usize, usize)> = (0..n)
        .filter_map(|r| {
            let f = if dir == 0 {
                (file + r).checked_sub(rank)?
            } else {
                (file + rank).checked_sub(r)?
            };
            (f < n).then_some((f, r))
        })
        .collect();
    let name = |(f, r): (usize, usize)| format!("{}{}", file_name(f), r + 1);
    format!("{}-{}", name(on_it[0]), name(on_it[on_it.len() - 1]))
}

/// The crossing diagonals, per direction and key offset, by name: read off
/// the top half's table (every crossing diagonal has a square there).
fn diagonal_names(board: &Board) -> [Vec<String>; 2] {
    let width = board.layout.width();
    let mut names = [vec![String::new(); width], vec![String::new(); width]];
    for (rank, row) in board.layout.top.iter().enumerate() {
        for (file, &key) in row[..board.n].iter().enumerate() {
            for (dir, offsets) in board.layout.diagonals(key).into_iter().enumerate() {
                for offset in (0..width).filter(|&o| offsets >> o & 1 == 1) {
                    names[dir][offset] = diagonal_name(board.n, dir, (file, rank));
                }
            }
        }
    }
    names
}

/// A key as words (`rising a1-d4 b1-d3, falling -`): the diagonals it takes.
fn taken(names: &[Vec<String>; 2], board: &Board, key: u64) -> String {
    let per_dir: Vec<String> = board
        .layout
        .diagonals(key)
        .into_iter()
        .zip(["rising", "falling"])
        .enumerate()
        .map(|(dir, (offsets, word))| {
            let listed: Vec<&str> = (0..board.layout.width())
                .filter(|&o| offsets >> o & 1 == 1)
                .map(|o| names[dir][o].as_str())
                .collect();
            let listed = if listed.is_empty() {
                "-".to_string()
            } else {
                listed.join(" ")
            };
            format!("{word} {listed}")
        })
        .collect();
    per_dir.join(", ")
}

/// A key as the step's state: the two directions' masks in the shared
/// convention (1 = a diagonal this half leaves free), key bit order.
fn key_state(board: &Board, key: u64, detail: Detail) -> Detail {
    let width = board.layout.width();
    let all = (1u128 << width) - 1;
    let [rising, falling] = board.layout.diagonals(key);
    detail
        .state("rising", bits(all & !u128::from(rising), width))
        .state("falling", bits(all & !u128::from(falling), width))
}

pub(crate) fn trace(n: usize, sink: &mut dyn TraceSink) -> SearchStats {
    let board = Board::new(n);
    let plan = crate::plan::plan(&Board::new(n));
    let mut observer = Tracing::new(sink);
    // Nodes are the engine's own (plan plus each unit's half-board
    // searches), so a trace reports the work a count does.
    let mut stats = SearchStats {
        nodes: plan.nodes,
        ..SearchStats::default()
    };
    let width = board.layout.width();
    let h = board.half;
    let units = plan.len() - 1;
    let middle_text = if board.is_odd() {
        format!(", middle rank {}", h + 1)
    } else {
        String::new()
    };
    let names = diagonal_names(&board);
    let intro = observer.step(StepKind::Note, || {
        format!(
            "top half ranks 1-{h}, bottom half ranks {}-{n}{middle_text}\n\
             a key has one bit for each of the {width}+{width} diagonals that cross the middle, \
             and marks those a half takes:\n\
             \x20 rising  {}\n\
             \x20 falling {}\n\
             halves fit when their files complement and no diagonal is taken by both\n\
             {}: a unit is the middle queen and the top half's files in the block {}; \
             its halves are made (each queen placed, and from n = 14 each pair of quarter pieces tried, is a node) and joined",
            n - h + 1,
            names[0].join(" "),
            names[1].join(" "),
            counted(units, "unit", "units"),
            files_text(board.block, n)
        )
    });
    if intro.is_break() {
        return stats;
    }
    for (index, work) in plan.iter().take(units).enumerate() {
        let number = (index + 1, units, work.weight);
        if trace_unit(
            &board,
            &names,
            number,
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

/// One unit: `(number, units, weight)` says which of how many, and its
/// estimated cost in the plan.
fn trace_unit(
    board: &Board,
    names: &[Vec<String>; 2],
    (number, units, weight): (usize, usize, u64),
    unit: Unit,
    observer: &mut Tracing<'_>,
    stats: &mut SearchStats,
) -> ControlFlow<()> {
    let n = board.n;
    let (images, fixing) = board.orbit(unit);
    let orbit = images.len() as u64;
    observer.step(StepKind::Note, || {
        let middle = unit.middle.map_or(String::new(), |m| {
            format!("middle queen {}{}; ", file_name(m as usize), board.half + 1)
        });
        let board_detail = Detail::default().queens(unit.middle.map(|m| (m as usize, board.half)));
        Detail {
            text: format!(
                "unit {number}/{units}: {middle}top half's files in the block: {}\n\
                 orbit {orbit}: its count stands for {} (its images by the mirror and \
                 the flip); weight {weight}: its predicted time in microseconds (the cost \
                 model's, calibrated from n = {calibrated})",
                files_text(unit.pattern, n),
                counted(orbit, "unit", "units"),
                calibrated = crate::cost::FIRST_N,
            ),
            ..board_detail.nodes(stats.nodes)
        }
    })?;
    let middle = unit.middle.map(|m| (m as usize, board.half));
    let squares = |files: &[usize], row: &dyn Fn(usize) -> usize| -> String {
        let mut named: Vec<(usize, usize)> = files
            .iter()
            .enumerate()
            .map(|(r, &f)| (f, row(r)))
            .collect();
        named.sort_unstable();
        named
            .iter()
            .map(|&(f, r)| format!("{}{}", file_name(f), r + 1))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let top_row = |r: usize| r;
    let bottom_row = |r: usize| n - 1 - r;
    // A half's queens as (file, rank) on the board, with the middle queen.
    let placed = |halves: &[(&Half, &dyn Fn(usize) -> usize)]| -> Detail {
        Detail::default().queens(
            halves
                .iter()
                .flat_map(|(half, row)| half.files.iter().enumerate().map(|(r, &f)| (f, row(r))))
                .chain(middle),
        )
    };
    let sets = top_sets(board, unit, &fixing);
    for (top_set, set_orbit) in sets {
        let bottom_set = board.bottom_set(unit.middle, top_set);
        observer.step(StepKind::Note, || {
            format!(
                "top set {} (bottom set {}); orbit {set_orbit}: \
                 it stands for {set_orbit} top sets (its images by the symmetries that keep the unit)",
                files_text(top_set, n),
                files_text(bottom_set, n),
            )
        })?;
        // Each half is shown as it is made; only the halves shown are
        // kept for the pairs below, so a trace cut among a set's halves
        // (at n = 28 a set has millions) holds a few.
        let mut tops = Vec::new();
        let mut bottoms = Vec::new();
        for (side, list, row, table) in [
            (
                "top",
                &mut tops,
                &top_row as &dyn Fn(usize) -> usize,
                &board.layout.top,
            ),
            ("bottom", &mut bottoms, &bottom_row, &board.layout.bottom),
        ] {
            let set = if side == "top" { top_set } else { bottom_set };
            for_each_half(board, unit.middle, set, table, &mut |half| {
                observer.step(StepKind::Place, || Detail {
                    text: format!(
                        "{side} half {}: takes {}",
                        squares(&half.files, row),
                        taken(names, board, half.key)
                    ),
                    ..key_state(board, half.key, placed(&[(half, row)]))
                })?;
                list.push(Half {
                    files: half.files.clone(),
                    key: half.key,
                });
                ControlFlow::Continue(())
            })?;
        }
        let mut fits = 0u64;
        for top in &tops {
            for bottom in &bottoms {
                let shared = top.key & bottom.key;
                let pair = [
                    (top, &top_row as &dyn Fn(usize) -> usize),
                    (bottom, &bottom_row),
                ];
                if shared != 0 {
                    observer.step(StepKind::Reject, || Detail {
                        text: format!(
                            "{} + {}: both take {}",
                            squares(&top.files, &top_row),
                            squares(&bottom.files, &bottom_row),
                            taken(names, board, shared)
                        ),
                        ..key_state(board, top.key | bottom.key, placed(&pair))
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
                observer.step(StepKind::Solution, || Detail {
                    text: format!("solution: {}", Solution::from_rows(rows.clone())),
                    ..key_state(board, top.key | bottom.key, placed(&pair))
                })?;
            }
        }
        stats.solutions += orbit * set_orbit * fits;
        let solutions = stats.solutions;
        observer.step(StepKind::Note, || {
            Detail::text(format!(
                "set done: {}, {}; \
                 {} x set orbit {set_orbit} x unit orbit {orbit} = {}",
                counted(tops.len(), "top half", "top halves"),
                counted(bottoms.len(), "bottom half", "bottom halves"),
                counted(fits, "pair fits", "pairs fit"),
                counted(orbit * set_orbit * fits, "solution", "solutions")
            ))
            .solutions(solutions)
        })?;
    }
    // The engine's own nodes for the unit (its halves made its way): run
    // once every step of the unit was shown, so that a trace cut inside a
    // unit (any at n = 28) never runs that unit's whole count.
    let unit_nodes = crate::unit::count_unit(board, unit).count.nodes;
    stats.nodes += unit_nodes;
    let nodes = stats.nodes;
    observer.step(StepKind::Note, || {
        Detail::text(format!(
            "unit {number}/{units} done: the engine made its halves in {}",
            counted(unit_nodes, "node", "nodes")
        ))
        .nodes(nodes)
    })
}

/// The top sets the engine joins for a unit, with their orbits.
fn top_sets(board: &Board, unit: Unit, fixing: &[SplitSymmetry]) -> Vec<(u32, u64)> {
    let mut sets = Vec::new();
    crate::unit::for_each_top_set(board, unit, fixing, |set, weight| sets.push((set, weight)));
    sets
}
