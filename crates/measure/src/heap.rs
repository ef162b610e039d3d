//! Peak heap bytes of one run, for every solver alike: a global allocator that
//! forwards to the system allocator and, while a run is being watched, keeps
//! the live byte count and its high-water mark; a request the system refuses
//! ends the program in one line (see `granted`).
//!
//! Counting is switched off outside a watched run, so timed runs pay one
//! relaxed load per allocation and nothing else. The figure is the peak of
//! bytes allocated *during* the run above what was live when it started
//! (memory freed during the run that was allocated before it can make the live
//! count dip below zero; the peak is never reported below zero). Threads
//! other than the run's own are counted too, so measure with nothing else
//! running (the harness never runs two solvers at once).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

/// The counting allocator; the program that measures installs it (see `lib.rs`).
pub struct CountingAllocator;

static WATCHING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
/// One watched run at a time: the counters are global.
static ONE_WATCH_AT_A_TIME: Mutex<()> = Mutex::new(());

/// `pointer`, the system allocator's answer to a request of `bytes` that
/// changes the live bytes by `change`, counted while a run is watched.
/// A null (the request refused) ends the program as the `queens` command
/// ends on bad input, one line and exit 2, where Rust would abort with a
/// backtrace: the memory check before a search is made from declarations
/// and `--max-memory` overrides it, so an address-space limit (`ulimit -v`)
/// or another process can still deny an allocation. The line is formatted
/// on the stack and written with `write` and `_exit`, which allocate
/// nothing and wait for no lock another thread may hold.
fn granted(pointer: *mut u8, bytes: usize, change: isize) -> *mut u8 {
    if pointer.is_null() {
        let mut line = [0u8; 256];
        let mut cursor = std::io::Cursor::new(&mut line[..]);
        let _ = writeln!(
            cursor,
            "queens: out of memory: an allocation of {bytes} bytes was refused (by the machine's memory or this process's address-space limit, ulimit -v); try a smaller n, fewer --threads or more memory"
        );
        let written = cursor.position() as usize;
        #[cfg(unix)]
        // SAFETY: writes the line's bytes, which `line` holds, to stderr,
        // and ends the process without running anything else.
        unsafe {
            libc::write(2, line.as_ptr().cast(), written);
            libc::_exit(2)
        }
        #[cfg(not(unix))]
        std::process::abort()
    }
    counted(change);
    pointer
}

/// Adds `change` to the live bytes while a run is watched.
fn counted(change: isize) {
    if WATCHING.load(Ordering::Relaxed) {
        let live = LIVE.fetch_add(change, Ordering::Relaxed) + change;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged; the bookkeeping only touches atomics and never allocates.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` (a non-zero-size layout)
        // is passed on unchanged to the system allocator.
        let pointer = unsafe { System.alloc(layout) };
        granted(pointer, layout.size(), layout.size() as isize)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`: the caller's layout, passed on unchanged.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        granted(pointer, layout.size(), layout.size() as isize)
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: `pointer` came from this allocator, which got it from
        // `System` with this same layout (the caller's contract).
        unsafe { System.dealloc(pointer, layout) };
        counted(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `pointer` and `layout` are as `System` handed them out
        // (see `dealloc`); `new_size` is the caller's, passed on unchanged.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        // Counted as a change in size: whether the block moved is the
        // system allocator's business, not the solver's footprint.
        granted(moved, new_size, new_size as isize - layout.size() as isize)
    }
}

/// Runs `run` with the counters on and returns its result with the peak heap
/// bytes it held above its starting point. Only meaningful in a program whose
/// global allocator is [`CountingAllocator`] (every program linking this
/// library); watched runs are serialised.
pub fn peak_during<T>(run: impl FnOnce() -> T) -> (T, u64) {
    let _only_us = ONE_WATCH_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    LIVE.store(0, Ordering::SeqCst);
    PEAK.store(0, Ordering::SeqCst);
    WATCHING.store(true, Ordering::SeqCst);
    let result = run();
    WATCHING.store(false, Ordering::SeqCst);
    let peak = PEAK.load(Ordering::SeqCst).max(0) as u64;
    (result, peak)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;

    /// Other tests run in parallel threads and their allocations and frees
    /// are counted too while we watch: allow them this much either way.
    const OTHER_TESTS: u64 = 256 << 10;

    #[test]
    fn a_held_buffer_is_seen_at_its_full_size() {
        let (_, peak) = peak_during(|| {
            let buffer = black_box(vec![7u8; 1 << 20]);
            black_box(buffer.len())
        });
        assert!(
            peak + OTHER_TESTS >= 1 << 20,
            "peak {peak} below the 1 MiB buffer held"
        );
    }

    #[test]
    fn freed_memory_does_not_accumulate() {
        // Ten 1 MiB buffers, one at a time: the peak is one buffer, not ten.
        let (_, peak) = peak_during(|| {
            for _ in 0..10 {
                black_box(vec![1u8; 1 << 20]);
            }
        });
        assert!(
            peak + OTHER_TESTS >= 1 << 20,
            "peak {peak} below one buffer"
        );
        // Other tests may allocate concurrently while we watch (a little);
        // ten buffers of our own would be 10 MiB.
        assert!(
            peak < 5 << 20,
            "peak {peak}: freed buffers were still counted"
        );
    }
}
