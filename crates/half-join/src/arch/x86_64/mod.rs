//! The x86-64 levels: their tokens (`tokens`), and each level's kernel
//! steps and other operations (`sse2`, `avx2`, `avx512`).

mod avx2;
mod avx512;
mod sse2;
mod tokens;

pub(crate) use tokens::{Avx2, Avx512, Sse2};
