//! The first step of symmetry: the mirror. Reflecting a board in its
//! vertical centre line maps solutions to solutions, and a solution with its
//! first queen on the left half of the files has its image on the right
//! half. So three-mask's search need only try the left half of rank 1, and
//! count every board it finds twice; on an odd board the first queen may
//! also stand on the middle file, where the mirror keeps her, and then the
//! second queen's half decides (she cannot share the middle file). No board
//! is its own image once n > 1 (its rank-1 queen would have to be on the
//! middle file, and so would every other), so nothing is counted twice.
//!
//! The tree searched is about half of three-mask's: the gain this one
//! symmetry buys, measured side by side in the walk-through.

use std::ops::ControlFlow;

use queens_core::trace::{Detail, Observer, StepKind};
use queens_core::{GenericSearch, SearchStats, SolutionSink, SolverInfo, counted, file_letter};

use crate::search::{MAX_N, Mask, Search};

/// three-mask with the mirror: half of rank 1, every board counted twice.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreeMaskMirror;

/// The mirror solver's description.
pub static MIRROR_INFO: SolverInfo = SolverInfo {
    id: "three-mask-mirror",
    seed: "Eight queens puzzle (Forth), LiteratePrograms: http://en.literateprograms.org/Eight_queens_puzzle_(Forth); with the mirror symmetry",
    idea: "three-mask with the first queen on the left half of the files (the middle file: the second on the left half); each board counted with its mirror image",
    node: "a call of the Forth word `try` in the half of the tree searched (the root, safe partial placements, solutions)",
    max_n: MAX_N,
    limit_reason: "on a u32 mask: one bit per file",
    enumerates: true,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS-mirror.md"),
};

/// Hands every board found, and its mirror image, to the sink.
struct Mirrored<'a, S>(&'a mut S);

impl<S: SolutionSink> SolutionSink for Mirrored<'_, S> {
    const WANTS_BOARD: bool = S::WANTS_BOARD;

    fn solution(&mut self, rows: &[u8]) -> ControlFlow<()> {
        self.0.solution(rows)?;
        if !S::WANTS_BOARD {
            return ControlFlow::Continue(());
        }
        // rows[file] = rank: the image puts file f's queen on file n-1-f.
        let mut image = [0u8; MAX_N];
        for (slot, &rank) in image.iter_mut().zip(rows.iter().rev()) {
            *slot = rank;
        }
        self.0.solution(&image[..rows.len()])
    }
}

impl GenericSearch for ThreeMaskMirror {
    const INFO: &'static SolverInfo = &MIRROR_INFO;

    fn search<S: SolutionSink, O: Observer>(
        &self,
        n: usize,
        sink: &mut S,
        observer: &mut O,
    ) -> SearchStats {
        if n == 1 {
            // The one board of n = 1 is its own image: nothing to halve.
            return Search::new(n).run(sink, observer).stats();
        }
        let half = n / 2;
        let left: Mask = (1 << half) - 1;
        if O::ENABLED {
            let _ = observer.step(StepKind::Note, || {
                Detail::text(format!(
                    "mirror: rank 1's queen only on files a-{}; each board found counts with its mirror image",
                    file_letter(half - 1)
                ))
            });
        }
        let mut mirrored = Mirrored(sink);
        let (left_half, mut flow) = Search::new(n).run_from(&[], left, &mut mirrored, observer);
        let mut stats = left_half.stats();
        if n % 2 == 1 && flow.is_continue() {
            if O::ENABLED {
                let _ = observer.step(StepKind::Note, || {
                    Detail::text(format!(
                        "mirror, middle file: rank 1's queen on {}1, rank 2's only on files a-{}",
                        file_letter(half),
                        file_letter(half - 1)
                    ))
                });
            }
            let middle = half as u8;
            // The second search counts its nodes from 0: its steps report
            // them after the first search's, so that a trace's node
            // counter never goes back.
            let mut continued = Continued {
                inner: &mut *observer,
                nodes: stats.nodes,
            };
            let (middle_half, middle_flow) =
                Search::new(n).run_from(&[middle], left, &mut mirrored, &mut continued);
            flow = middle_flow;
            let more = middle_half.stats();
            stats.solutions += more.solutions;
            stats.nodes += more.nodes;
            for (mine, theirs) in stats.extra.iter_mut().zip(&more.extra) {
                mine.value += theirs.value;
            }
        }
        if O::ENABLED && flow.is_continue() {
            let (found, nodes) = (stats.solutions, stats.nodes);
            let _ = observer.step(StepKind::Note, || {
                Detail::text(format!(
                    "mirror: {} found, each counted with its image: {}",
                    counted(found, "board", "boards"),
                    counted(2 * found, "solution", "solutions")
                ))
                .solutions(2 * found)
                .nodes(nodes)
            });
        }
        stats.solutions *= 2;
        stats
    }
}

/// An observer that adds the nodes of searches already done to every node
/// count a later search reports, and passes everything else on.
struct Continued<'o, O> {
    inner: &'o mut O,
    nodes: u64,
}

impl<O: Observer> Observer for Continued<'_, O> {
    const ENABLED: bool = O::ENABLED;
    const PROFILES: bool = O::PROFILES;

    fn step<D: Into<Detail>>(
        &mut self,
        kind: StepKind,
        describe: impl FnOnce() -> D,
    ) -> ControlFlow<()> {
        let before = self.nodes;
        self.inner.step(kind, || {
            let mut detail: Detail = describe().into();
            detail.nodes = detail.nodes.map(|nodes| nodes + before);
            detail
        })
    }

    #[inline(always)]
    fn safe_boards(&mut self, queens: usize, count: u64) {
        self.inner.safe_boards(queens, count);
    }
}
