//! The CPU-specific code, and the one place that chooses it at run time.
//!
//! The binary is portable: every x86-64 kernel is compiled into it, each
//! inside functions that enable its target features, and the best one the
//! CPU running it has is chosen once, by feature detection, when the first
//! unit is counted. (The way BurntSushi's `memchr` organises its `arch/`:
//! one generic algorithm over a small vector trait, [`generic`], and one
//! implementation of that trait per instruction set.) A build for one CPU
//! (`target-cpu=native`) was about as fast, but died with an illegal
//! instruction on an older node of a cluster, and never compiled or tested
//! the kernels its build machine lacked.
//!
//! A level is a zero-sized *token* ([`Portable`], and on x86-64 `Sse2`,
//! `Avx2`, `Avx512`). Only [`dispatch_to`] makes tokens, and only of levels
//! the CPU has, so holding one proves the CPU has its features: that is
//! the whole argument behind the `unsafe` here, which is confined to the
//! entry into a level's code ([`Isa::run`]) and to the intrinsics (their
//! loads and stores, and the arithmetic Rust only lets a function with the
//! feature call safely). The search code is generic over the token, so
//! each level gets its own copy of the hot functions, each compiled with
//! the level's features (BMI1/BMI2/POPCNT for the searches' bit tricks,
//! the vector ISA for the join); [`Isa::run`] is how a hot function enters
//! that copy, once per call, never inside its loop.
//!
//! `QUEENS_KERNEL=portable|sse2|avx2|avx512` forces a level (tests and
//! users comparing kernels); a level the CPU lacks is refused.

pub(crate) mod generic;
pub(crate) mod isa;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use std::sync::OnceLock;

pub(crate) use generic::Step;
pub(crate) use isa::{FIT_SLACK, Isa, Task};
pub(crate) use portable::Portable;
#[cfg(target_arch = "x86_64")]
pub(crate) use x86_64::{Avx2, Avx512, Sse2};

mod level;
pub use level::{LEVELS, Level};

/// The environment variable that forces a level.
pub const KERNEL_VARIABLE: &str = "QUEENS_KERNEL";

/// The levels this CPU has, lowest first.
pub fn available() -> Vec<Level> {
    LEVELS
        .into_iter()
        .filter(|level| level.missing().is_empty())
        .collect()
}

/// The highest level this CPU has.
pub fn best() -> Level {
    *available()
        .last()
        .expect("the portable level needs nothing")
}

/// The level [`choice`] chose, or the best this CPU has where the choice
/// was refused (the engine's entry refuses such a count before it runs).
pub(crate) fn counting_level() -> Level {
    choice().map_or_else(|_| best(), |choice| choice.level)
}

/// The level the engine counts with, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The level.
    pub level: Level,
    /// Forced by `QUEENS_KERNEL` rather than detected.
    pub forced: bool,
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let level = self.level;
        if self.forced {
            return write!(f, "{} (forced by {KERNEL_VARIABLE})", level.name());
        }
        match level.features() {
            [] => write!(f, "{} (no SIMD level detected on this CPU)", level.name()),
            features => write!(
                f,
                "{} (the best level this CPU has: it detected {})",
                level.name(),
                features.join(", ")
            ),
        }
    }
}

/// The level chosen for this process: `QUEENS_KERNEL`'s if it is set (and
/// the CPU has it), else the highest the CPU has. Decided once; the error
/// is one line naming what is wrong.
pub fn choice() -> Result<Choice, String> {
    static CHOICE: OnceLock<Result<Choice, String>> = OnceLock::new();
    CHOICE
        .get_or_init(|| choose(std::env::var_os(KERNEL_VARIABLE).as_deref()))
        .clone()
}

/// [`choice`] for a given value of `QUEENS_KERNEL` (None: unset).
fn choose(forced: Option<&std::ffi::OsStr>) -> Result<Choice, String> {
    let Some(forced) = forced else {
        return Ok(Choice {
            level: best(),
            forced: false,
        });
    };
    let names = LEVELS.map(Level::name).join(", ");
    let level = LEVELS
        .into_iter()
        .find(|level| forced == level.name())
        .ok_or_else(|| {
            format!(
                "{KERNEL_VARIABLE}={} is not a kernel (one of {names})",
                forced.to_string_lossy()
            )
        })?;
    match level.missing()[..] {
        [] => Ok(Choice {
            level,
            forced: true,
        }),
        ref missing => Err(format!(
            "{KERNEL_VARIABLE}={}: this CPU lacks {}",
            level.name(),
            missing.join(", ")
        )),
    }
}

/// Runs `task` at `level` if the CPU has it (None otherwise): the dispatch
/// point. The engine calls it once per unit with the level of [`choice`];
/// the tests run every level this way.
pub(crate) fn dispatch_to<T: Task>(level: Level, task: T) -> Option<T::Output> {
    if !level.missing().is_empty() {
        return None;
    }
    // The tokens are made here only.
    match level {
        Level::Portable => Some(task.run(Portable)),
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => {
            // SAFETY: the check above found the level's features here.
            Some(task.run(unsafe { Sse2::new_unchecked() }))
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            // SAFETY: the check above found the level's features here.
            Some(task.run(unsafe { Avx2::new_unchecked() }))
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            // SAFETY: the check above found the level's features here.
            Some(task.run(unsafe { Avx512::new_unchecked() }))
        }
        #[cfg(not(target_arch = "x86_64"))]
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The levels a test runs: every one this CPU has. Each one it lacks is
    /// named on stderr (once per process), so that a skipped kernel is never
    /// a silent pass.
    pub(crate) fn tested_levels() -> Vec<Level> {
        static SKIPPED: std::sync::Once = std::sync::Once::new();
        SKIPPED.call_once(|| {
            for level in LEVELS {
                let missing = level.missing();
                if !missing.is_empty() {
                    eprintln!(
                        "skipped: the {} kernel (this CPU lacks {})",
                        level.name(),
                        missing.join(", ")
                    );
                }
            }
        });
        available()
    }

    #[test]
    fn a_forced_level_is_taken_if_the_cpu_has_it_and_refused_in_one_line_otherwise() {
        for level in LEVELS {
            let chosen = choose(Some(level.name().as_ref()));
            if level.missing().is_empty() {
                assert_eq!(
                    chosen,
                    Ok(Choice {
                        level,
                        forced: true
                    })
                );
            } else {
                let why = chosen.expect_err("a level the CPU lacks");
                assert!(why.contains("lacks") && !why.contains('\n'), "{why}");
                eprintln!("skipped: {} ({why})", level.name());
            }
        }
        let why = choose(Some("avx1024".as_ref())).expect_err("no such level");
        assert!(why.contains("portable, sse2, avx2, avx512"), "{why}");
    }

    #[test]
    fn unforced_the_best_level_the_cpu_has_is_chosen() {
        let chosen = choose(None).unwrap();
        assert!(!chosen.forced);
        assert_eq!(Some(&chosen.level), available().last());
        assert!(available().contains(&Level::Portable));
        // Levels include the ones below them.
        let available = available();
        assert!(available.iter().enumerate().all(|(i, &l)| l == LEVELS[i]));
        eprintln!("chosen here: {chosen}");
    }
}
