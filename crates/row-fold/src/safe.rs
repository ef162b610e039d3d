//! The document's one rule, on its own so that the fold (which applies it)
//! and the narration (which explains its verdicts) both depend on it, not on
//! each other.

/// The document's `safeAddition rows row 1`: may a queen go on `row` in the
/// column just left of `rows` (newest queen first)? Not if the queen `i`
/// columns away sits on the same row, or `i` rows away (a diagonal).
///
/// Unlike the Haskell `&&` chain this looks at every queen even after a
/// clash: where the first clash falls is unpredictable, so stopping early
/// costs a mispredicted branch per test, while the full pass has one branch
/// per test and LLVM vectorises it. It runs twice the instructions and takes
/// about 15 % less time (n = 13, side by side).
#[inline(always)]
pub fn safe_addition(rows: &[u8], row: u8) -> bool {
    rows.iter().enumerate().fold(true, |safe, (i, &r)| {
        safe & (r != row) & (r.abs_diff(row) as usize != i + 1)
    })
}
