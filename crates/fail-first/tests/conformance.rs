//! The workspace's finder contract (see queens-conformance's `finders`), to
//! its limit of 10^3.

queens_conformance::finder_suite!(queens_fail_first::FAIL_FIRST);
