//! The x86-64 levels' tokens: each a zero-sized proof that the CPU has
//! the level's features, and the entry into code compiled with them.

/// Declares a level's token: a zero-sized proof that the CPU has
/// `$features`, made only by `new_unchecked` (called by
/// [`crate::arch::dispatch_to`] after detection), and its entry into code
/// compiled with those features.
macro_rules! token {
    ($(#[$doc:meta])* $name:ident, $features:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $name(());

        impl $name {
            /// The features `enter` enables, as written there.
            #[cfg(test)]
            pub(crate) const FEATURES: &'static str = $features;

            /// The token.
            ///
            /// # Safety
            ///
            /// The CPU running this must have the level's features.
            pub(crate) unsafe fn new_unchecked() -> $name {
                $name(())
            }

            /// Runs `f` inlined into a function compiled with the level's
            /// features.
            #[inline(always)]
            pub(crate) fn enter<R>(self, f: impl FnOnce() -> R) -> R {
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
