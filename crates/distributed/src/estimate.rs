//! `queens count N --estimate`: the time and memory of a whole count,
//! predicted from a timed random sample of its work, within a time budget,
//! before committing a machine (or a cluster) to it.
//!
//! # Three stages
//!
//! **Units** are drawn with probability proportional to their plan weight,
//! with replacement. A unit of a large board can take hours, so a drawn unit
//! is not timed whole: its *shared* work
//! ([`queens_core::split::WorkSplit::prepare_unit`]) is timed once, then a uniform random
//! sample of its **parts** ([`queens_core::split::WorkSplit::parts`]), drawn without
//! replacement from a cut of `M` parts. A part can itself take minutes (at
//! n = 28 one file set of a half-join unit takes from half a second to over
//! twenty minutes), so a timed part is not counted whole either: its own
//! shared work ([`queens_core::split::WorkSplit::prepare_part`], which says into how many
//! **parts of parts** `Q` it is cut) is timed apart, then a uniform random
//! sample of `m'` of its parts of parts ([`queens_core::split::WorkSplit::count_sub_part`]), drawn
//! without replacement. An engine that does not cut its parts has `Q = 1`:
//! its parts are timed whole ([`queens_core::split::WorkSplit::count_part`]); one that counts
//! only whole units has `M = 1` too, and its units are timed whole.
//!
//! Each level expands the same way (simple random sampling's expansion
//! estimator). A part of shared seconds `q` whose parts of parts timed took `t̄`
//! on average is estimated at `P̂ = q + Q · t̄`, with within-part variance
//! estimated by `v = Q² (1 − m'/Q) S² / m'` (`S²` the parts of parts' sample
//! variance). A unit of shared seconds `s` whose `m` parts timed were
//! estimated at `P̂_j` (variances `v_j`) is estimated at
//! `T̂ = s + M · mean(P̂_j)`, with variance estimated by the classic
//! multi-stage formula `M² (1 − m/M) s₁² / m + (M/m) Σ v_j`, `s₁²` the
//! sample variance of the `P̂_j` (Cochran, *Sampling Techniques*, 3rd ed.,
//! 1977, chapter 10, two-stage sampling with equal first-stage
//! probabilities, and chapter 11 for first-stage units of unequal sizes, as
//! parts are): the first term, from the spread between the parts'
//! estimates, also carries their sub-sampling's variance, but only a share
//! `1 − m/M` of it; the second adds the rest, and is the whole of it when
//! every part is timed. For samples of a size fixed in advance (see below)
//! both estimates and both variance estimates are unbiased; a level timed
//! whole has no variance.
//!
//! Draw `i` of `k` then gives `z_i = W · T̂_i / w_i` (W the total weight,
//! `w_i` the unit's), and the estimate is their mean, the Hansen-Hurwitz
//! estimator. Its standard error is `sqrt(Σ (z_i − z̄)² / (k (k − 1)))`:
//! for primary units drawn with replacement and subsampled independently at
//! each draw, this one formula is unbiased for the *whole* multi-stage
//! variance, between units and within them at every level below (Cochran,
//! *Sampling Techniques*, 3rd ed., 1977, section 11.9, "units selected with
//! unequal probabilities with replacement"; Särndal, Swensson and Wretman,
//! *Model Assisted Survey Sampling*, 1992, section 4.5 on two-stage
//! sampling with the pwr estimator). A unit drawn twice is therefore
//! subsampled afresh, its parts and their parts of parts alike (the shared time
//! of a unit or of a part is kept, not measured twice). With few draws that
//! formula is itself noisy, and can fall below the within-unit part alone,
//! which is known from the parts: the variance reported is the larger of
//! the two, `max(v_wr, Σ (W/w_i)² v_i / k²)`, so the parts' own spread is
//! always carried. One draw has no spread between units to measure: its
//! error is reported as the estimate itself, which says "one unit is no
//! sample".
//!
//! # Parts and shards
//!
//! A plan may cut an engine's long unit into **parts**
//! ([`queens_core::split::Plan::cut`]), and threads, shards and
//! checkpoints hand out parts. The stages above are the engine's: its
//! parts and their shared work are a whole unit's. So the sample draws the
//! engine's whole units, never parts: the run's parts are grouped by the
//! unit they belong to ([`queens_core::split::Plan::whole_units`]'s
//! grouping), and a unit is drawn with probability proportional to the
//! run's weight in it (the weights of the parts of it the run holds). A
//! unit the run holds whole (a whole count holds every unit whole) is cut
//! and sampled as above. Of a unit a shard holds only some parts of, the
//! population is the engine's finest parts those parts hold: cuts nest
//! (see [`queens_core::split::Part`]), so part `i` of `P` is exactly the finest parts `j` of
//! `M` with `⌊i·M/P⌋ ≤ j < ⌊(i+1)·M/P⌋`. A uniform sample of those parts
//! (`Part { index: j, of: M }`), each timed as above, is expanded by the
//! number held, `H`, in place of `M`: `T̂ = s + H · mean(P̂_j)`.
//!
//! This stays unbiased: the shard's time is `Σ_u T_u`, `T_u` the shared
//! work `s_u` of unit `u` plus its held parts; each `T̂_u` is unbiased for
//! `T_u` (a uniform sample of fixed size from the `H_u` parts held, as
//! above from `M`); and a unit of the run's weight `w_u` (each part
//! weighing at least 1, so every unit held can be drawn) is drawn with
//! probability `w_u / W`, so `E[W · T̂_u / w_u] = Σ_u T_u`, the
//! Hansen-Hurwitz argument unchanged. The shared work is counted once per
//! unit in the run: a thread that counts several parts of one unit in a
//! row prepares it once; a run whose threads interleave the parts of
//! many units pays it more often, which this does not see.
//!
//! What the run hands out is parts, so the estimate also predicts the
//! longest of them: its share by weight of the estimated time
//! ([`Estimate::longest_piece_seconds`]), the time the plan meant a part
//! to take.
//!
//! # How the time is spent
//!
//! A draw spends on its parts about as long as its unit's shared work took
//! (the cost of a draw is then balanced between its stages), at least a
//! 64th of the budget, at most a quarter of it so that several units are
//! drawn: as many parts as take that long at the mean cost of a part so
//! far. A part gets the same balance one level down: as many parts of parts as
//! take about as long as its shared work (capped by the draw's share) at
//! the mean part of a part time so far. Both are at least two where there are
//! two, so that the spread at that level can be estimated.
//! Where parts vary far more than their parts of parts (the usual case: a part
//! is a file set, a part of a part a few seconds of it) this spends the time on
//! more parts, which is what lowers the variance.
//!
//! How many parts are timed is fixed before they are timed, from what
//! the parts before them took: a sample that stopped once its own parts
//! had taken long enough would stop sooner after a long part, and its
//! mean would lean toward the long ones (with parts of 0 s and 1 s, equally
//! many, and a stop once 1 s is reached, the mean expected is ln 2, not
//! 1/2). Only the budget ends a sample early, and it does depend on the
//! times drawn: where a long part also costs long to time, a long draw
//! ends the sample sooner, and with few draws the mean leans toward it (a
//! lean of the order of one over the number of draws). This is why an
//! engine cuts a long part into *more* parts of parts of a few seconds rather
//! than longer ones: a draw then costs about the same whatever its size,
//! and the budget's end says nothing about the times drawn.
//!
//! # The budget
//!
//! The budget bounds the whole estimate, counted from [`Sample::started`]
//! (the caller starts it before making the plan). Nothing already started
//! can be cut short, so sampling stops *before* a step whose predicted time
//! would pass the budget: a new draw needs the largest unit shared work
//! seen so far plus one part; a part needs the largest part shared work
//! seen so far plus one part of a part; a part of a part needs the mean part of a part time
//! so far. The first part of a part of a part whose shared work was done is
//! always timed (the check before that shared work counted it), so at
//! least one part of a part of one part of one unit is always timed. The first
//! shared work of a unit or of a part cannot be predicted: when one alone
//! passes the budget the estimate says so
//! ([`Estimate::shared_over_budget`]) instead of pretending the budget
//! held.
//!
//! A part of a part of each draw is timed twice when a tenth of the time allows;
//! how much those pairs differ says how much the machine's speed moves,
//! which the interval must also cover ([`speed_noise`]).
//!
//! When every unit of the plan has been timed whole, the answer is the
//! measured sum, whose only error is the machine's speed. Memory is the
//! process's peak while timing the sample (one thread): the engine's
//! buffers, kept from unit to unit, grow to the largest unit timed, and a
//! run on T threads holds T of them.

mod population;
mod sampler;
mod stats;
mod types;

use queens_core::QueensError;

use sampler::{Budget, Sampler};
pub use stats::{Prediction, speed_noise};
pub use types::{Estimate, Sample, Status};

/// Times a random three-stage sample of the chosen units' work on this
/// thread within the budget (see the module documentation), reporting each
/// step to `watch` before it starts. A unit that cannot be counted (its
/// device went away) ends the sample with that error.
pub fn estimate(
    sample: &Sample<'_>,
    watch: &mut dyn FnMut(&Status),
) -> Result<Estimate, QueensError> {
    estimate_on(sample, &|| sample.started.elapsed().as_secs_f64(), watch)
}

/// [`estimate`] on any clock, seconds since the estimate began (a test's
/// runs in no time): draws while the budget allows, then makes the result.
pub(crate) fn estimate_on(
    sample: &Sample<'_>,
    clock: &dyn Fn() -> f64,
    watch: &mut dyn FnMut(&Status),
) -> Result<Estimate, QueensError> {
    let population = population::Population::new(sample.plan, sample.chosen);
    let sampling = clock();
    let budget = Budget {
        clock,
        seconds: sample.budget.as_secs_f64(),
    };
    let mut sampler = Sampler::new(sample, &population, budget);
    while sampler.goes_on() {
        sampler.draw(watch)?;
    }
    Ok(sampler.result(clock() - sampling))
}

#[cfg(test)]
mod tests;
