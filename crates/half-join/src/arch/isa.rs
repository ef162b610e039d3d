//! What each level's token offers: the kernel steps, an entry into code
//! compiled for the level, and the few other operations whose best form
//! depends on the CPU; and work that runs at whichever level is chosen.

use super::generic::Step;

/// What a level's code does: an instruction set's token, with the join's
/// vector steps in both layouts' words and the few other operations whose
/// best form depends on the CPU. Only [`super::dispatch_to`] makes tokens.
pub(crate) trait Isa: Step<u32> + Copy + Send + Sync + 'static {
    /// The steps of the wide word (`u64`): the level's own, or another's
    /// where the level has no better (SSE2 has no 64-bit compare).
    type Wide: Step<u64>;

    /// Whether [`Isa::pext`] is one instruction (BMI2): the index's bit
    /// permutation uses it then, and byte tables otherwise.
    const PEXT: bool = false;

    /// Runs `f` compiled for this level: `f`, and everything inlined into
    /// it, with the level's target features enabled. A hot function enters
    /// once per call, around its loops.
    ///
    /// Callers mark `f` `#[inline(always)]`. The level's intrinsics inline
    /// only into code compiled with its features, so `f` must be inlined
    /// into the featured entry first; left to LLVM, it was not in the
    /// tests' build (debug assertions and 16 codegen units at opt-level
    /// 3), and every vector operation became a call: the join ran about
    /// 13 times slower there than in the release build.
    fn run<R>(self, f: impl FnOnce() -> R) -> R;

    /// The wide word's steps.
    fn wide(self) -> Self::Wide;

    /// The bits of `value` under `mask`, packed from bit 0 up (BMI2's
    /// `pext`; here one bit at a time, for the tests).
    #[inline(always)]
    fn pext(self, value: u64, mask: u64) -> u64 {
        let (mut rest, mut packed, mut to) = (mask, 0, 0);
        while rest != 0 {
            packed |= (value >> rest.trailing_zeros() & 1) << to;
            to += 1;
            rest &= rest - 1;
        }
        packed
    }

    /// The halves of one left piece of a quarter with the right pieces
    /// whose side keys are disjoint from `side` (see [`fit_scalar`]).
    #[inline(always)]
    fn fit(
        self,
        key: u64,
        side: u32,
        right_keys: &[u64],
        right_sides: &[u32],
        out: &mut [u64],
    ) -> usize {
        fit_scalar(key, side, right_keys, right_sides, out)
    }
}

/// Words [`Isa::fit`] may write past the halves it keeps.
pub(crate) const FIT_SLACK: usize = 8;

/// The halves of one left piece (`key`, `side`) with the right pieces
/// whose side keys are disjoint from `side`: writes `key | right key` for
/// each, in order, from `out[0]`, and returns how many. Words after them
/// may be overwritten too: `out` must hold `right_keys.len() + FIT_SLACK`.
///
/// One pair at a time: each half is written, and kept (the next
/// overwrites it otherwise) only if the pieces fit. The loop of the levels
/// without AVX-512, and the reference the AVX-512 one (eight pieces at a
/// time) is tested against. (The pieces are `crate::quarters`'.)
#[inline(always)]
pub(crate) fn fit_scalar(
    key: u64,
    side: u32,
    right_keys: &[u64],
    right_sides: &[u32],
    out: &mut [u64],
) -> usize {
    let mut len = 0;
    for (&right_key, &right_side) in right_keys.iter().zip(right_sides) {
        out[len] = key | right_key;
        len += usize::from(side & right_side == 0);
    }
    len
}

/// Work to run at one level, whichever is chosen: its `run` is generic
/// over the level, and monomorphised for each.
pub(crate) trait Task {
    /// What it returns.
    type Output;
    /// Runs it with `isa`'s code.
    fn run<L: Isa>(self, isa: L) -> Self::Output;
}
