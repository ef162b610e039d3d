//! The x86-64 levels: their tokens, how each enters code compiled for it,
//! and (in the submodules) each one's kernel steps.

mod avx2;
mod avx512;
mod sse2;

use super::Isa;

/// Declares a level's token: a zero-sized proof that the CPU has
/// `$features`, made only by `new_unchecked` (called by
/// [`super::dispatch_to`] after detection), and its entry into code
/// compiled with those features.
macro_rules! token {
    ($(#[$doc:meta])* $name:ident, $features:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $name(());

        impl $name {
            /// The features `enter` enables, as written there.
            #[cfg(test)]
            const FEATURES: &'static str = $features;

            /// The token.
            ///
            /// # Safety
            ///
            /// The CPU running this must have the level's features.
            pub(in crate::arch) unsafe fn new_unchecked() -> $name {
                $name(())
            }

            /// Runs `f` inlined into a function compiled with the level's
            /// features.
            #[inline(always)]
            fn enter<R>(self, f: impl FnOnce() -> R) -> R {
                #[target_feature(enable = $features)]
                fn enter<R>(f: impl FnOnce() -> R) -> R {
                    f()
                }
                // SAFETY: `self` exists only where the CPU has these
                // features (see `new_unchecked`).
                unsafe { enter(f) }
            }
        }
    };
}

token!(
    /// SSE2, the x86-64 baseline (checked all the same).
    Sse2,
    "sse2"
);
token!(
    /// AVX2, BMI1, BMI2, POPCNT and LZCNT.
    Avx2,
    "avx2,bmi1,bmi2,popcnt,lzcnt"
);
token!(
    /// Avx2's features and AVX-512F and VL.
    Avx512,
    "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl"
);

impl Isa for Sse2 {
    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        self.enter(f)
    }
}

impl Isa for Avx2 {
    const PEXT: bool = true;

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        self.enter(f)
    }

    #[inline(always)]
    fn pext(self, value: u64, mask: u64) -> u64 {
        // SAFETY: `self` proves the CPU has BMI2.
        unsafe { std::arch::x86_64::_pext_u64(value, mask) }
    }
}

impl Isa for Avx512 {
    const PEXT: bool = true;

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        self.enter(f)
    }

    #[inline(always)]
    fn pext(self, value: u64, mask: u64) -> u64 {
        // SAFETY: `self` proves the CPU has BMI2.
        unsafe { std::arch::x86_64::_pext_u64(value, mask) }
    }

    #[inline(always)]
    fn fit(
        self,
        key: u64,
        side: u32,
        right_keys: &[u64],
        right_sides: &[u32],
        out: &mut [u64],
    ) -> usize {
        avx512::fit(self, key, side, right_keys, right_sides, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Level;

    #[test]
    fn each_token_enables_exactly_the_features_its_level_detects() {
        // The features a token's `enter` enables are a string literal; the
        // ones detection checks are `Level::features`: they must agree, or
        // a token could run code the CPU lacks.
        let declared = [
            (Level::Sse2, Sse2::FEATURES),
            (Level::Avx2, Avx2::FEATURES),
            (Level::Avx512, Avx512::FEATURES),
        ];
        for (level, features) in declared {
            assert_eq!(features.split(',').collect::<Vec<_>>(), level.features());
        }
    }
}
