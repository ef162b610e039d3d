//! The memory budget: a command that allocates by n asks the solver what
//! its search will hold (`Solver::peak_bytes`) before it starts, and
//! refuses in one line (exit 2) what the budget cannot hold, instead of
//! growing until the kernel kills it. The budget is `--max-memory SIZE`
//! when given, else what this machine can give now: the kernel's
//! `MemAvailable` and, inside a control group with a limit, its
//! `memory.max`, whichever is smaller.

use std::sync::OnceLock;

use queens_core::memory::Question;
use queens_core::{Finder, Solver};

use crate::error::CliError;

/// `--max-memory`, set once by the command line before a command runs.
static MAX_MEMORY: OnceLock<Option<u64>> = OnceLock::new();

/// Records `--max-memory` (bytes) for the commands that check the budget.
pub fn set_max_memory(bytes: Option<u64>) {
    let _ = MAX_MEMORY.set(bytes);
}

/// The budget and where it comes from (for the refusal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Bytes a command may plan to hold.
    pub bytes: u64,
    /// What set it, as the refusal names it.
    pub source: &'static str,
}

/// The budget now: `--max-memory`, else the machine's (`None` when neither
/// is known: nothing is refused).
pub fn budget() -> Option<Budget> {
    if let Some(&Some(bytes)) = MAX_MEMORY.get() {
        return Some(Budget {
            bytes,
            source: "--max-memory",
        });
    }
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| mem_available(&text))
        .map(|bytes| Budget {
            bytes,
            source: "this machine has available (MemAvailable)",
        });
    let cgroup = cgroup_limit().map(|bytes| Budget {
        bytes,
        source: "this control group allows (memory.max)",
    });
    match (available, cgroup) {
        (Some(a), Some(c)) => Some(if c.bytes < a.bytes { c } else { a }),
        (one, other) => one.or(other),
    }
}

/// `MemAvailable` of /proc/meminfo, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kib: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// The cgroup v2 `memory.max` of this process's group, if it sets one.
fn cgroup_limit() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = groups.lines().find_map(|line| line.strip_prefix("0::"))?;
    let max = std::fs::read_to_string(format!("/sys/fs/cgroup{}/memory.max", path.trim())).ok()?;
    max.trim().parse().ok()
}

/// Reads `--max-memory`: bytes, or a number with K, M, G or T (powers of
/// 1024, an optional `iB` or `B` after it), e.g. `2G`, `512M`, `1.5GiB`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || {
        format!(
            "--max-memory must be a size such as 512M, 2G or 1.5GiB (K, M, G, T: powers of 1024), got '{text}'"
        )
    };
    let trimmed = text.trim();
    let upper = trimmed.to_ascii_uppercase();
    let bare = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (number, shift) = match bare.chars().last() {
        Some('K') => (&bare[..bare.len() - 1], 10),
        Some('M') => (&bare[..bare.len() - 1], 20),
        Some('G') => (&bare[..bare.len() - 1], 30),
        Some('T') => (&bare[..bare.len() - 1], 40),
        _ => (bare, 0),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    if !value.is_finite() || value <= 0.0 {
        return Err(bad());
    }
    let bytes = value * (1u64 << shift) as f64;
    if bytes >= u64::MAX as f64 {
        return Err(format!("--max-memory {trimmed} is too large"));
    }
    Ok(bytes as u64)
}

/// Bytes as a person reads them: `6.1 GiB`, `512 MiB`, `900 B`.
pub fn size_text(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else if value < 10.0 {
        format!("{value:.1} {}", UNITS[unit])
    } else {
        format!("{value:.0} {}", UNITS[unit])
    }
}

/// What `solver` declares it holds to answer `question` for n on
/// `threads` threads (a solver that does not split its work runs on one):
/// what it holds once, and each thread's share.
pub fn need(solver: &dyn Solver, n: usize, question: Question, threads: usize) -> u64 {
    let threads = if solver.work_split().is_some() {
        threads.max(1)
    } else {
        1
    };
    solver.shared_bytes(n, question).saturating_add(
        solver
            .peak_bytes(n, question)
            .saturating_mul(threads as u64),
    )
}

/// `Ok` when the search fits the budget; otherwise the one-line refusal
/// naming the need and the limit. n must already be within the solver's
/// limits (the declaration is made for boards the solver takes).
pub fn check(
    solver: &dyn Solver,
    n: usize,
    question: Question,
    threads: usize,
) -> Result<(), CliError> {
    let Some(budget) = budget() else {
        return Ok(());
    };
    refusal(solver, n, question, threads, budget).map_or(Ok(()), Err)
}

/// The refusal for a need past `budget`, if it is.
fn refusal(
    solver: &dyn Solver,
    n: usize,
    question: Question,
    threads: usize,
    budget: Budget,
) -> Option<CliError> {
    refusal_text(solver, n, question, threads, budget).map(CliError::Input)
}

/// [`refusal`]'s line.
fn refusal_text(
    solver: &dyn Solver,
    n: usize,
    question: Question,
    threads: usize,
    budget: Budget,
) -> Option<String> {
    let need = need(solver, n, question, threads);
    if need <= budget.bytes {
        return None;
    }
    let on_threads = if solver.work_split().is_some() && threads > 1 {
        format!(" on {threads} threads")
    } else {
        String::new()
    };
    Some(format!(
        "{} would need up to {} to {} n = {n}{on_threads}, more than the {} {}; \
         try a smaller n, another solver{} or a larger --max-memory",
        solver.info().id,
        size_text(need),
        question.verb(),
        size_text(budget.bytes),
        budget.source,
        if on_threads.is_empty() {
            ""
        } else {
            ", fewer --threads"
        },
    ))
}

/// Why a count of n by `solver` (one thread) does not fit the budget, if
/// it does not: the line a climb that meets it stops with (`compare`).
pub fn count_refusal(solver: &dyn Solver, n: usize) -> Option<String> {
    refusal_text(solver, n, Question::Count, 1, budget()?)
}

/// The output buffer `queens find` prints a board through.
pub const FIND_OUTPUT_BYTES: u64 = 1 << 20;

/// What `queens find` holds for n: the finder's declaration (its board
/// included), the checker's three sets of marks (rows and the 2n
/// diagonals of each direction, a bit each, in words), and the output
/// buffer.
pub fn find_need(finder: &dyn Finder, n: usize) -> u64 {
    let marks = 8 * (n.div_ceil(64) + 2 * (2 * n).div_ceil(64)) as u64;
    finder
        .peak_bytes(n)
        .saturating_add(marks)
        .saturating_add(FIND_OUTPUT_BYTES)
}

/// Why finding one board of n with `finder` does not fit the budget, if it
/// does not.
pub fn find_refusal(finder: &dyn Finder, n: usize) -> Option<String> {
    let budget = budget()?;
    let need = find_need(finder, n);
    (need > budget.bytes).then(|| {
        format!(
            "{} would need up to {} to find a board of n = {n}, more than the {} {}; \
             try a smaller n or a larger --max-memory",
            finder.info().id,
            size_text(need),
            size_text(budget.bytes),
            budget.source,
        )
    })
}

/// `Ok` when finding one board of n fits the budget; otherwise the
/// one-line refusal naming the need and the limit.
pub fn check_find(finder: &dyn Finder, n: usize) -> Result<(), CliError> {
    find_refusal(finder, n).map_or(Ok(()), |line| Err(CliError::Input(line)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_powers_of_1024_and_bad_ones_say_what_is_wanted() {
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("8KB"), Ok(8 << 10));
        for bad in ["", "G", "-1G", "0", "two", "1.5.2M", "NaN", "inf"] {
            let error = parse_size(bad).unwrap_err();
            assert!(error.starts_with("--max-memory must be"), "{bad}: {error}");
        }
    }

    #[test]
    fn mem_available_is_read_in_bytes() {
        let meminfo = "MemTotal:       16000000 kB\nMemFree:  100 kB\nMemAvailable:    2048 kB\n";
        assert_eq!(mem_available(meminfo), Some(2 << 20));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn sizes_print_with_a_unit() {
        assert_eq!(size_text(900), "900 B");
        assert_eq!(size_text(3 << 29), "1.5 GiB");
        assert_eq!(size_text(512 << 20), "512 MiB");
    }
}
