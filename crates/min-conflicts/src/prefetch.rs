//! Prefetch hints: tell the processor which cache line the search will read
//! a few steps from now, so that the wait for memory overlaps the steps in
//! between instead of stalling each one.

/// Asks for `slice[index]` to be brought into the nearest cache. A hint
/// only: an index out of range, or another architecture, does nothing.
#[inline]
pub(crate) fn read<T>(slice: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = slice.get(index) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE, which `_mm_prefetch` needs, is part of every x86_64
        // processor; a prefetch reads nothing into the program and cannot
        // fault, and the pointer is to a live element anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, index);
}
