//! The x86-64 levels' tokens: each a zero-sized proof that the CPU has
//! the level's features, and the entry into code compiled with them.

use crate::arch::level::Level;

/// Declares a level's token: a zero-sized proof that the CPU has
/// `$features`, made only by `new_unchecked` (called by
/// [`crate::arch::dispatch_to`] after detection), and its entry into code
/// compiled with those features.
macro_rules! token {
    ($(#[$doc:meta])* $name:ident, $level:expr, $features:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $name(());

        // The features `enter` enables are a literal, the ones detection
        // checks are `Level::features`: they must agree, or a token could
        // run code the CPU lacks.
        const _: () = assert!(
            lists_features($features, $level.features()),
            "a token enables other features than its level detects"
        );

        impl $name {
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

/// Whether `list` is `features` joined by commas, in order.
const fn lists_features(list: &str, features: &[&str]) -> bool {
    let list = list.as_bytes();
    let mut at = 0;
    let mut i = 0;
    while i < features.len() {
        if i > 0 {
            if at >= list.len() || list[at] != b',' {
                return false;
            }
            at += 1;
        }
        let feature = features[i].as_bytes();
        let mut j = 0;
        while j < feature.len() {
            if at >= list.len() || list[at] != feature[j] {
                return false;
            }
            at += 1;
            j += 1;
        }
        i += 1;
    }
    at == list.len()
}

token!(
    /// SSE2, the x86-64 baseline (checked all the same).
    Sse2,
    Level::Sse2,
    "sse2"
);
token!(
    /// AVX2, BMI1, BMI2, POPCNT and LZCNT.
    Avx2,
    Level::Avx2,
    "avx2,bmi1,bmi2,popcnt,lzcnt"
);
token!(
    /// Avx2's features and AVX-512F and VL.
    Avx512,
    Level::Avx512,
    "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl"
);

#[cfg(test)]
mod tests {
    use super::lists_features;

    #[test]
    fn the_features_check_takes_exactly_the_joined_list() {
        assert!(lists_features("avx2,bmi1", &["avx2", "bmi1"]));
        assert!(lists_features("", &[]));
        for wrong in ["avx2", "avx2,bmi1,", "avx2bmi1", "bmi1,avx2", "avx2,bmi2"] {
            assert!(!lists_features(wrong, &["avx2", "bmi1"]), "{wrong}");
        }
    }
}
