//! The memory budget: a command that allocates by n asks the solver what
//! its search will hold (`Solver::peak_bytes`) before it starts, and
//! refuses in one line (exit 2) what the budget cannot hold, instead of
//! growing until the kernel kills it. The budget is `--max-memory SIZE`
//! when given, else what this machine can give now: the kernel's
//! `MemAvailable`, inside a control group with a limit its `memory.max`,
//! and under an address-space limit (`RLIMIT_AS`) what the limit leaves,
//! whichever is smallest.

use std::sync::OnceLock;

use queens_core::memory::Question;
use queens_core::{Finder, Solver};
use queens_distributed::run::BYTES_PER_LISTED_UNIT;
use queens_report::format::bytes;

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
    /// What each thread of the search takes of it beside the heap it
    /// declares: address space for its stack and allocator arena
    /// ([`THREAD_ADDRESS_BYTES`]), nothing of memory (both are mapped as
    /// they are touched).
    pub per_thread: u64,
}

/// Address space one thread reserves beside its heap: glibc gives each
/// thread that allocates its own arena, 64 MiB of address space reserved at
/// once on 64-bit (`HEAP_MAX_SIZE`), and Rust's threads a 2 MiB stack. Under
/// `ulimit -v` a count on 2 threads was measured to need about 150 MiB more
/// than on 1.
pub const THREAD_ADDRESS_BYTES: u64 = 66 << 20;

/// Address space kept free beside the search's declared heap and its
/// threads': the signal watcher's and the progress bar's threads (their
/// stacks), the output buffers and what the allocator rounds up to pages.
/// The program itself (binary, libraries, heap so far) is measured, not
/// reserved: `VmSize`.
const ADDRESS_HEADROOM: u64 = 32 << 20;

/// The source of a budget the user gave.
const MAX_MEMORY_SOURCE: &str = "--max-memory";

/// The budget now for a search on `threads` threads: `--max-memory`, else
/// the machine's, the source leaving the least room for the search (`None`
/// when none is known: nothing is refused).
pub fn budget(threads: usize) -> Option<Budget> {
    let sources = match MAX_MEMORY.get() {
        Some(&Some(bytes)) => vec![Some((bytes, MAX_MEMORY_SOURCE, 0))],
        _ => vec![
            (std::fs::read_to_string("/proc/meminfo").ok())
                .and_then(|text| kib_field(&text, "MemAvailable:"))
                .map(|bytes| (bytes, "this machine has available (MemAvailable)", 0)),
            cgroup_limit().map(|bytes| (bytes, "this control group allows (memory.max)", 0)),
            address_space_left().map(|bytes| {
                let source = "of address space this process may still map (ulimit -v)";
                (bytes, source, THREAD_ADDRESS_BYTES)
            }),
        ],
    };
    let room = |(bytes, _, per_thread): &(u64, _, u64)| {
        bytes.saturating_sub(per_thread.saturating_mul(threads as u64))
    };
    let (bytes, source, per_thread) = sources.into_iter().flatten().min_by_key(room)?;
    Some(Budget {
        bytes,
        source,
        per_thread,
    })
}

/// What the address-space limit (`RLIMIT_AS`: `ulimit -v`, a scheduler's
/// `h_vmem`) leaves a search: the limit, less what this process maps
/// already (`VmSize`) and [`ADDRESS_HEADROOM`]. Address space is not
/// memory: a search that fits the machine can still be denied it. Read,
/// as the kernel shows it, from /proc/self/limits (its soft limit, in
/// bytes, or `unlimited`), beside the other figures of the budget.
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find_map(|line| line.strip_prefix("Max address space"))?;
    let limit: u64 = line.split_whitespace().next()?.parse().ok()?;
    let mapped = kib_field(
        &std::fs::read_to_string("/proc/self/status").ok()?,
        "VmSize:",
    )?;
    Some(limit.saturating_sub(mapped + ADDRESS_HEADROOM))
}

/// A field in kB of /proc/meminfo or /proc/self/status, in bytes.
fn kib_field(text: &str, field: &str) -> Option<u64> {
    let line = text.lines().find_map(|line| line.strip_prefix(field))?;
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
    let unit = ["K", "M", "G", "T"].iter().position(|u| bare.ends_with(u));
    let (number, shift) = unit.map_or((bare, 0), |u| (&bare[..bare.len() - 1], 10 * (u + 1)));
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

/// The threads a search by `solver` runs on: `threads` for a solver that
/// splits its work (each a started thread), else none but the caller's.
fn started_threads(solver: &dyn Solver, threads: usize) -> usize {
    usize::from(solver.work_split().is_some()) * threads.max(1)
}

/// What `solver` declares it holds to answer `question` for n on
/// `threads` threads (a solver that does not split its work runs on one):
/// what it holds once, and each thread's share.
pub fn need(solver: &dyn Solver, n: usize, question: Question, threads: usize) -> u64 {
    let threads = started_threads(solver, threads).max(1) as u64;
    (solver.shared_bytes(n, question))
        .saturating_add(solver.peak_bytes(n, question).saturating_mul(threads))
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
    refusal(solver, n, question, threads, None).map_or(Ok(()), |line| Err(CliError::Input(line)))
}

/// The one-line refusal of a search past the budget, if it is, with the
/// lists of `units` if known (the plan is then made: a budget measured now
/// holds it already, one given is charged it). A split count asks with its
/// `units` to list ([`queens_distributed::run::BYTES_PER_LISTED_UNIT`]
/// each) once its plan is made and dealt, so that a shard is weighed by its
/// own share; a climb that meets a refusal (`compare`) stops with its line.
pub fn refusal(
    solver: &dyn Solver,
    n: usize,
    question: Question,
    threads: usize,
    units: Option<usize>,
) -> Option<String> {
    let started = started_threads(solver, threads);
    let budget = budget(started)?;
    let mut need = need(solver, n, question, threads);
    let mut what = format!("{} n = {n}", question.verb());
    if let Some(units) = units {
        let held = solver.shared_bytes(n, question) * u64::from(budget.source != MAX_MEMORY_SOURCE);
        need = (need - held).saturating_add(units as u64 * BYTES_PER_LISTED_UNIT);
        what += &format!(
            " (listing {})",
            queens_core::counted(units, "unit", "units")
        );
    }
    need = need.saturating_add(budget.per_thread.saturating_mul(started as u64));
    let (on_threads, advice) = match started {
        0 | 1 => (String::new(), ", another solver"),
        _ => (
            format!(" on {threads} threads"),
            ", another solver, fewer --threads",
        ),
    };
    past(
        solver.info().id,
        need,
        &format!("{what}{on_threads}"),
        budget,
        advice,
    )
}

/// The line refusing `id`'s `need` to `what` past `budget`, if it is;
/// `advice` adds what else to try.
fn past(id: &str, need: u64, what: &str, budget: Budget, advice: &str) -> Option<String> {
    (need > budget.bytes).then(|| {
        format!(
            "{id} would need up to {} to {what}, more than the {} {}; \
             try a smaller n{advice} or a larger --max-memory",
            bytes(need),
            bytes(budget.bytes),
            budget.source,
        )
    })
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
    // On the caller's thread: no thread is started.
    let what = format!("find a board of n = {n}");
    past(
        finder.info().id,
        find_need(finder, n),
        &what,
        budget(0)?,
        "",
    )
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
        assert_eq!(kib_field(meminfo, "MemAvailable:"), Some(2 << 20));
        assert_eq!(kib_field("MemTotal: 5 kB\n", "MemAvailable:"), None);
    }
}
