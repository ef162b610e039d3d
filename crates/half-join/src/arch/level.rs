//! The instruction-set levels the kernels are compiled for, and which of
//! them this CPU has.

/// An instruction-set level, from plain Rust up. On x86-64 each includes
/// the ones below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Plain Rust, no target features: the code of every other
    /// architecture, and a reference on x86-64.
    Portable,
    /// The x86-64 baseline: 128-bit SSE2 join kernels; the searches use no
    /// POPCNT or BMI (the baseline has neither).
    Sse2,
    /// x86-64-v3's integer part: 256-bit AVX2 kernels, and BMI1, BMI2
    /// (`pext` for the index's bit permutation), POPCNT and LZCNT in the
    /// searches.
    Avx2,
    /// Avx2 plus AVX-512F and VL: masked 256- and 512-bit kernels (a mask
    /// of the disjoint lanes, a masked add), masked loads of a run's last
    /// partial step, and a compress that packs the quarters' fitting pieces.
    Avx512,
}

/// Every level, lowest first.
pub const LEVELS: [Level; 4] = [Level::Portable, Level::Sse2, Level::Avx2, Level::Avx512];

impl Level {
    /// The name `QUEENS_KERNEL` takes.
    pub fn name(self) -> &'static str {
        match self {
            Level::Portable => "portable",
            Level::Sse2 => "sse2",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }

    /// The CPU features the level needs (as `is_x86_feature_detected!`
    /// names them).
    pub const fn features(self) -> &'static [&'static str] {
        match self {
            Level::Portable => &[],
            Level::Sse2 => &["sse2"],
            Level::Avx2 => &["avx2", "bmi1", "bmi2", "popcnt", "lzcnt"],
            Level::Avx512 => &[
                "avx2", "bmi1", "bmi2", "popcnt", "lzcnt", "avx512f", "avx512vl",
            ],
        }
    }

    /// The features of the level this CPU lacks (all of them off x86-64,
    /// except for the portable level, which needs none).
    pub fn missing(self) -> Vec<&'static str> {
        self.features()
            .iter()
            .copied()
            .filter(|&feature| !has(feature))
            .collect()
    }
}

/// Whether the CPU running this has a feature (detected once per feature
/// by the standard library, which caches the answer).
#[cfg(target_arch = "x86_64")]
fn has(feature: &str) -> bool {
    match feature {
        "sse2" => std::arch::is_x86_feature_detected!("sse2"),
        "avx2" => std::arch::is_x86_feature_detected!("avx2"),
        "bmi1" => std::arch::is_x86_feature_detected!("bmi1"),
        "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
        "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
        "lzcnt" => std::arch::is_x86_feature_detected!("lzcnt"),
        "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
        "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
        _ => false,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn has(_: &str) -> bool {
    false
}
