//! Generate-and-test as one loop, generic over where the permutations come
//! from ([`PermutationSource`]), what happens to a solution ([`SolutionSink`])
//! and whether steps are traced ([`Observer`]): counting, listing and tracing,
//! in both variants, share it.

use std::ops::ControlFlow;

use queens_core::trace::{Detail, Observer, StepKind};
use queens_core::{SearchStats, SolutionSink};

use crate::diagonal::{Clash, InPostTerms, first_clash_column};
use crate::generate::PermutationSource;

/// One board's generate-and-test and its tallies.
#[derive(Clone, Debug)]
pub struct Search {
    n: usize,
    /// Permutations generated: the nodes.
    permutations: u64,
    solutions: u64,
}

impl Search {
    pub fn new(n: usize) -> Self {
        Search {
            n,
            permutations: 0,
            solutions: 0,
        }
    }

    /// Generates the permutations of `G` and keeps those with no shared
    /// diagonal. Stops when the sink or the observer says so.
    pub fn run<G: PermutationSource, S: SolutionSink, O: Observer>(
        mut self,
        sink: &mut S,
        observer: &mut O,
    ) -> Self {
        let n = self.n;
        if O::ENABLED {
            let flow = observer.step(StepKind::Note, || {
                format!(
                    "all permutations of the rows [1..{n}] ({}), each read as [X,Y] queens with X = file 1..{n}; keep those with no shared diagonal",
                    G::METHOD
                )
            });
            if flow.is_break() {
                return self;
            }
        }
        let (mut permutations, mut solutions) = (0u64, 0u64);
        let _ = G::for_each_permutation(n, |rows| {
            permutations += 1;
            match first_clash_column(rows, G::WALK) {
                Some(stop) => {
                    if O::ENABLED {
                        observer.step(StepKind::Reject, || Detail {
                            text: format!(
                                "{}  clash: {}",
                                in_post_terms(rows),
                                InPostTerms(rows, Clash::find(rows, stop, G::WALK))
                            ),
                            ..board(rows, permutations)
                        })?;
                    }
                }
                None => {
                    solutions += 1;
                    if O::ENABLED {
                        observer.step(StepKind::Solution, || Detail {
                            text: format!("{}  safe", in_post_terms(rows)),
                            ..board(rows, permutations)
                        })?;
                    }
                    if S::WANTS_BOARD {
                        sink.solution(rows)?;
                    }
                }
            }
            ControlFlow::Continue(())
        });
        self.permutations = permutations;
        self.solutions = solutions;
        self
    }

    pub fn stats(&self) -> SearchStats {
        SearchStats {
            solutions: self.solutions,
            unique: None,
            nodes: self.permutations,
            extra: Vec::new(),
        }
    }
}

/// The permutation on the board: the queen of file X (column) on rank Y
/// (its row), and the permutation itself (traced runs only).
fn board(rows: &[u8], permutations: u64) -> Detail {
    Detail::default()
        .queens(
            rows.iter()
                .enumerate()
                .map(|(file, &row)| (file, row as usize)),
        )
        .state("permutation", in_post_terms(rows))
        .nodes(permutations)
}

/// The permutation as the post's list of rows, counted from 1.
fn in_post_terms(rows: &[u8]) -> String {
    let rows: Vec<String> = rows.iter().map(|row| (row + 1).to_string()).collect();
    format!("[{}]", rows.join(","))
}
