//! One tree, walked board for board: the walk-through says which solvers
//! walk the tree of safe partial boards on the same boards, which on its
//! transpose or a mirrored transpose, and which in another order
//! (breadth-first), in a table of the section "One tree, different costs".
//! This test holds that table, checks that the page prints it word for
//! word, and checks every claim against the solvers' own traces: at n = 5
//! and n = 6 every pair of tree-walking solvers is aligned at every node
//! of the tree (the k-th safe board each reaches), and the two boards must
//! be one board once each is turned back by its stated image.

use std::collections::BTreeMap;

use queens_core::trace::TraceRecorder;
use queens_harness::registry::{SOLVERS, tree_walk};
use queens_report::page::{Image, Order};

use crate::common::workspace;

/// A square as (file, rank), 0-based: the traces' own convention.
type Square = (u8, u8);

/// One row of the walk-through's table: id, where the k-th queen goes,
/// the board against three-mask's, the order (in words; the facts the test
/// reads are the registry's `tree_walk`, which the page's player reads too).
struct Claim {
    id: &'static str,
    fills: &'static str,
    board: &'static str,
    order: &'static str,
}

const CLAIMS: &[Claim] = &[
    Claim {
        id: "three-mask",
        fills: "rank k",
        board: "the same",
        order: "depth-first",
    },
    Claim {
        id: "threat-mask",
        fills: "rank k",
        board: "the same",
        order: "depth-first",
    },
    Claim {
        id: "threat-mask-u128",
        fills: "rank k",
        board: "the same",
        order: "depth-first",
    },
    Claim {
        id: "textbook",
        fills: "rank k",
        board: "the same",
        order: "depth-first",
    },
    Claim {
        id: "three-mask-mirror",
        fills: "rank k",
        board: "the same",
        order: "depth-first, and stops halfway (section 7.1)",
    },
    Claim {
        id: "base-counting",
        fills: "file k, from file a",
        board: "transposed (mirrored in the a1-h8 diagonal)",
        order: "depth-first",
    },
    Claim {
        id: "row-fold",
        fills: "file k, from the last file leftwards",
        board: "transposed, then mirrored left to right (a quarter turn)",
        order: "breadth-first: level by level, each level in the depth-first order",
    },
];

/// The page that states the claims.
const PAGE: &str = "docs/ALGORITHMS.md";

fn claim(id: &str) -> &'static Claim {
    CLAIMS
        .iter()
        .find(|c| c.id == id && tree_walk(id).is_some())
        .unwrap_or_else(|| {
            panic!(
                "{id} walks the tree of safe boards but the walk-through's table \
                 (and this test's CLAIMS) or the registry's tree_walk does not \
                 say how: add its row"
            )
        })
}

/// The three-mask square that a solver's `(file, rank)` stands for, by
/// its image (the page's script turns boards back the same way).
fn undo(image: Image, (file, rank): (usize, usize), n: usize) -> (usize, usize) {
    match image {
        Image::Same => (file, rank),
        Image::Transposed => (rank, file),
        Image::TransposedMirrored => (rank, n - 1 - file),
    }
}

/// A board as three-mask would draw it, as a sorted list of squares.
fn undone(queens: &[Square], image: Image, n: usize) -> Vec<Square> {
    let mut board: Vec<Square> = queens
        .iter()
        .map(|&(file, rank)| {
            let (file, rank) = undo(image, (file as usize, rank as usize), n);
            (file as u8, rank as u8)
        })
        .collect();
    board.sort_unstable();
    board
}

/// What a solver's whole trace shows of the tree, turned back into
/// three-mask's boards: for a depth-first walk, the board each step shows
/// when it reaches one more safe board (the k-th safe board, k = 1, 2, ...:
/// the node count the player aligns on); for the breadth-first walk, the
/// boards each level shows, in the order shown.
struct Walk {
    /// Depth-first: the k-th safe board at index k - 1.
    nodes: Vec<Vec<Square>>,
    /// Breadth-first: the boards shown with k queens, at index k.
    levels: Vec<Vec<Vec<Square>>>,
}

fn walk(id: &str, n: usize) -> Walk {
    let solver = SOLVERS.iter().find(|s| s.info().id == id).unwrap();
    claim(id);
    let queens_report::page::Walk { image, order } = tree_walk(id).unwrap();
    let mut recorder = TraceRecorder::new(usize::MAX);
    solver
        .trace(n, &mut recorder)
        .unwrap_or_else(|e| panic!("{id}: trace failed: {e}"));
    assert!(!recorder.stopped_early(), "{id} n = {n}: a whole trace");
    let mut nodes: Vec<Vec<Square>> = Vec::new();
    let mut levels: Vec<Vec<Vec<Square>>> = vec![Vec::new(); n + 1];
    for step in recorder.steps() {
        let board = undone(&step.detail.queens, image, n);
        let reached: u64 = step.levels.iter().sum();
        if order != Order::BreadthFirst && reached as usize > nodes.len() {
            assert_eq!(
                reached as usize,
                nodes.len() + 1,
                "{id} n = {n}: a depth-first walk shows each safe board it reaches"
            );
            nodes.push(board.clone());
        }
        let level = &mut levels[board.len()];
        if level.last() != Some(&board) {
            level.push(board);
        }
    }
    Walk { nodes, levels }
}

/// The depth-first walk's boards, level by level (each level in the order
/// the walk meets them): what a breadth-first walk of the tree lists.
fn by_level(nodes: &[Vec<Square>], n: usize) -> Vec<Vec<Vec<Square>>> {
    let mut levels = vec![Vec::new(); n + 1];
    for board in nodes {
        levels[board.len()].push(board.clone());
    }
    levels
}

fn walk_of(id: &str) -> Order {
    claim(id);
    tree_walk(id).unwrap().order
}

fn show(board: &[Square]) -> String {
    let names: Vec<String> = board
        .iter()
        .map(|&(file, rank)| format!("{}{}", (b'a' + file) as char, rank + 1))
        .collect();
    format!("[{}]", names.join(" "))
}

#[test]
fn every_tree_walker_has_its_row_in_the_walk_through() {
    let text = std::fs::read_to_string(workspace().join(PAGE)).unwrap();
    for claim in CLAIMS {
        let row = format!(
            "| {} | {} | {} | {} |",
            claim.id, claim.fills, claim.board, claim.order
        );
        assert!(
            text.lines().any(|line| line == row),
            "{PAGE} lacks the row the test checks:\n{row}"
        );
    }
    for n in [5, 6, 8] {
        let trees = queens_harness::registry::trees(n).unwrap();
        for (id, _) in &trees.profiles {
            claim(id);
        }
    }
}

#[test]
fn tree_walkers_meet_the_same_boards_at_every_node_count() {
    for n in [5, 6] {
        let trees = queens_harness::registry::trees(n).unwrap();
        let walks: BTreeMap<&str, Walk> = trees
            .profiles
            .iter()
            .map(|(id, _)| (*id, walk(id, n)))
            .collect();
        let reference = &walks["three-mask"];
        let tree_size = reference.nodes.len();
        let depth_first: Vec<&str> = walks
            .keys()
            .copied()
            .filter(|id| walk_of(id) != Order::BreadthFirst)
            .collect();
        for id in &depth_first {
            let nodes = walks[id].nodes.len();
            let expected = match walk_of(id) {
                Order::DepthFirstHalf => {
                    assert!(
                        2 * nodes > tree_size && nodes < tree_size,
                        "{id}: about half"
                    );
                    nodes
                }
                _ => tree_size,
            };
            assert_eq!(nodes, expected, "{id} n = {n}: safe boards reached");
        }
        // Every pair of depth-first walkers, at every node count both reach.
        for (i, a) in depth_first.iter().enumerate() {
            for b in &depth_first[i + 1..] {
                let (wa, wb) = (&walks[a].nodes, &walks[b].nodes);
                for (k, (ba, bb)) in wa.iter().zip(wb).enumerate() {
                    assert_eq!(
                        ba,
                        bb,
                        "n = {n}, safe board {}: {a} and {b}, turned back by their stated \
                         images, stand on different boards {} and {}",
                        k + 1,
                        show(ba),
                        show(bb)
                    );
                }
            }
        }
        // A breadth-first walker against every depth-first one: its level
        // k, in the order it shows, is their level k in their order.
        for (id, w) in walks
            .iter()
            .filter(|(id, _)| walk_of(id) == Order::BreadthFirst)
        {
            let mut shown = 0;
            for other in &depth_first {
                let levels = by_level(&walks[other].nodes, n);
                for (k, (mine, theirs)) in w.levels.iter().zip(&levels).enumerate() {
                    for (j, (a, b)) in mine.iter().zip(theirs).enumerate() {
                        assert_eq!(
                            a,
                            b,
                            "n = {n}, level {k}, board {}: {id} shows {} where {other} \
                             meets {}",
                            j + 1,
                            show(a),
                            show(b)
                        );
                        shown += 1;
                    }
                }
            }
            assert!(
                shown > 2 * n,
                "{id} n = {n}: its trace shows boards of each level"
            );
        }
    }
}

#[test]
fn an_image_turns_a_board_back() {
    // a1 is a1 in every image; three-mask's b1 (a queen on rank 1, file b)
    // is the odometer's a2 and the fold's e2 on a 5x5 board.
    assert_eq!(undo(Image::Transposed, (0, 1), 5), (1, 0));
    assert_eq!(undo(Image::TransposedMirrored, (4, 1), 5), (1, 0));
    assert_eq!(undo(Image::TransposedMirrored, (4, 0), 5), (0, 0));
    assert_eq!(undo(Image::Same, (3, 2), 5), (3, 2));
    // Every row of the table has its facts in the registry, and only those.
    for claim in CLAIMS {
        assert!(tree_walk(claim.id).is_some(), "{}", claim.id);
    }
    assert_eq!(tree_walk("perm-filter"), None);
}
