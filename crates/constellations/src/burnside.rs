//! Unique counts without canonicalising solutions: Burnside's lemma.
//!
//! The classes number (1/8) Σ_s |Stab(s)|, where Stab(s) is the set of
//! symmetries fixing solution s. A symmetry fixing s fixes s's constellation,
//! so only units whose constellation has symmetries besides the identity
//! (orbits of 4 or 2, a few percent of the units) need to look at boards;
//! every other solution has |Stab(s)| = 1 and is accounted for by its count.

use queens_core::SolutionSink;
use queens_core::symmetry::Transform;
use std::ops::ControlFlow;

use crate::interior::MAX_N;

/// Sums |Stab(s)| over the solutions it is shown, testing only the
/// symmetries that can fix them (those fixing their constellation).
pub(crate) struct FixedPairs {
    candidates: Vec<Transform>,
    image: [u8; MAX_N],
    pub pairs: u64,
}

impl FixedPairs {
    pub(crate) fn new(stabilizer: impl IntoIterator<Item = Transform>) -> Self {
        FixedPairs {
            candidates: stabilizer
                .into_iter()
                .filter(|&t| t != Transform::Identity)
                .collect(),
            image: [0; MAX_N],
            pairs: 0,
        }
    }
}

impl SolutionSink for FixedPairs {
    const WANTS_BOARD: bool = true;

    fn solution(&mut self, rows: &[u8]) -> ControlFlow<()> {
        let image = &mut self.image[..rows.len()];
        let fixing = self
            .candidates
            .iter()
            .filter(|t| {
                t.apply_into(rows, image);
                *image == *rows
            })
            .count();
        self.pairs += 1 + fixing as u64;
        ControlFlow::Continue(())
    }
}
