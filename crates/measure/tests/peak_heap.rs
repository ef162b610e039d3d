//! The peak heap of a run is the search's, not its answer's. A test binary
//! of its own with one test: no other test thread allocates while the
//! counter watches, so the figure can be compared exactly.

use queens_core::CountOptions;
use queens_measure::{Counting, Subject};
use queens_three_mask::ThreeMask;

#[global_allocator]
static ALLOCATOR: queens_measure::heap::CountingAllocator = queens_measure::heap::CountingAllocator;

#[test]
fn a_search_without_heap_shows_none_though_its_answer_has_some() {
    // three-mask searches on the stack; its statistics carry one named
    // counter on the heap, which once read as the search's memory.
    let options = CountOptions::default();
    let run = Counting {
        solver: &ThreeMask,
        options,
    }
    .check(8);
    assert_eq!(run.solutions, Some(92));
    assert!(!run.extra.is_empty(), "the answer holds a counter");
    assert_eq!(run.peak_heap_bytes, 0);
}
