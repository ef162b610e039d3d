//! What the plain and split counts share: the device row, and the words
//! of a whole board's count refused by OEIS ([`queens_distributed::published`],
//! as `merge` checks its total: a mismatch is exit 1 and nothing printed on
//! stdout).

/// The device that counted, for a solver that counts on one (the GPU
/// engine): "on the GPU" may well be Mesa's software driver on the CPU, and
/// the reader should not have to guess which. CPU solvers get no row.
pub(super) fn device_row(solver: &dyn queens_core::Solver) -> Option<(&'static str, String)> {
    let device = solver.accelerator().ok().flatten()?;
    Some(("device", device.to_string()))
}

/// How a count's refusal by OEIS begins.
pub(super) const WHOSE: &str = "this count found";

/// What to do about a count OEIS refuses: a resumed one may have been
/// handed wrong units by its checkpoint.
pub(super) fn advice(resumed: bool) -> &'static str {
    if resumed {
        "the checkpoint's saved units or the solver are wrong (`--recheck K` recounts K saved units; delete the checkpoint to count from the start)"
    } else {
        "the solver is wrong (`queens verify` cross-checks it)"
    }
}
