//! The x86-64 levels: their tokens (`tokens`), and each level's kernel
//! steps and other operations (`sse2`, `avx2`, `avx512`).

mod avx2;
mod avx512;
mod sse2;
mod tokens;

pub(crate) use tokens::{Avx2, Avx512, Sse2};

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
