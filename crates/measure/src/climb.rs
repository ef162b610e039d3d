//! How far up n each solver goes. Run time grows by a roughly constant
//! factor per n (about n for permutation generators, 5-6 for backtrackers),
//! so the last run predicts the next one; a solver stops climbing before a
//! run that would blow its limit, and the n where it stopped is recorded as
//! over budget, which is itself a result ("perm-filter reached n = 11").

use std::time::{Duration, Instant};

use queens_core::{Solver, oeis};

use queens_record::{Entry, Outcome};

use crate::run::{CheckedRun, Subject};
use crate::stats;

/// Predicts the next run from the growth between the last two.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ladder {
    previous: Option<Duration>,
    last: Option<Duration>,
}

/// Below this, run times are fixed costs and timer noise, not growth.
const TOO_SHORT_TO_EXTRAPOLATE: Duration = Duration::from_micros(200);

impl Ladder {
    /// Notes the latest run's time.
    pub fn record(&mut self, run: Duration) {
        self.previous = self.last;
        self.last = Some(run);
    }

    /// The expected duration of the next n's run, when the runs so far are
    /// long enough to say.
    pub fn predicted_next(&self) -> Option<Duration> {
        let (previous, last) = (self.previous?, self.last?);
        if previous < TOO_SHORT_TO_EXTRAPOLATE {
            return None;
        }
        let growth = (last.as_secs_f64() / previous.as_secs_f64()).max(1.0);
        Some(last.mul_f64(growth))
    }
}

/// The n a solver can be asked about: from `min_n` up to the smallest of
/// `max_n`, its own limit and the largest published count.
pub fn n_range(solver: &dyn Solver, min_n: usize, max_n: usize) -> std::ops::RangeInclusive<usize> {
    min_n..=max_n.min(solver.info().max_n).min(oeis::MAX_KNOWN_N)
}

/// A probed (solver, n) or (finder, n): ready to be timed, or already
/// settled.
#[derive(Clone, Debug)]
pub enum Planned {
    /// Checked and quick enough: time it.
    Time(CheckedRun),
    /// Already decided (an error, or over the limit): record as is.
    Settled(Box<Entry>),
}

/// Probes are allowed to overshoot the limit this much before they are
/// skipped on prediction alone: predictions are rough.
const PROBE_SLACK: f64 = 4.0;

/// Whether a climb may go on to n, told the predicted time of that n's
/// runs (its checking run and the cold rounds to come) when the runs so
/// far can say: `None` to go on, or why not, and the climb stops there
/// with a row that says so. `queens compare` refuses what its memory
/// budget cannot hold and a step past its time threshold this way; a
/// climb that refuses nothing passes [`admit_all`].
pub type Admit<'a> = dyn Fn(usize, Option<Duration>) -> Option<String> + 'a;

/// The [`Admit`] that refuses nothing.
pub fn admit_all(_n: usize, _predicted: Option<Duration>) -> Option<String> {
    None
}

/// The bench grid of one subject: checking runs over `sizes`, as long as
/// one run takes at most `max_run`. Errors do not stop the climb (their run
/// time still predicts the next); the first run over `max_run` does.
pub fn probe(
    subject: &dyn Subject,
    sizes: impl IntoIterator<Item = usize>,
    max_run: Duration,
) -> Vec<Planned> {
    let mut ladder = Ladder::default();
    let mut plan = Vec::new();
    for n in sizes {
        if let Some(predicted) = ladder
            .predicted_next()
            .filter(|p| *p > max_run.mul_f64(PROBE_SLACK))
        {
            let why = format!(
                "not run: predicted {} per run, over the {} limit",
                seconds(predicted),
                seconds(max_run)
            );
            plan.push(Planned::Settled(Box::new(subject.skipped(n, why))));
            break;
        }
        let run = subject.check(n);
        ladder.record(run.wall);
        if let Some(why) = run.error.clone() {
            plan.push(Planned::Settled(Box::new(
                run.entry(Outcome::Error { why }),
            )));
        } else if run.wall > max_run {
            let why = format!(
                "one run took {}, over the {} limit",
                seconds(run.wall),
                seconds(max_run)
            );
            plan.push(Planned::Settled(Box::new(
                run.entry(Outcome::OverBudget { why }),
            )));
            break;
        } else {
            plan.push(Planned::Time(run));
        }
    }
    plan
}

/// How `time_within_budget` samples one n.
const MIN_SAMPLES: usize = 3;
const MAX_SAMPLES: usize = 15;
/// Enough time at one n for a stable median of short runs.
const TIME_PER_N: Duration = Duration::from_millis(100);
/// Runs shorter than this are timed in batches, so that each sample is long
/// against the clock's resolution.
const MIN_SAMPLE: Duration = Duration::from_millis(1);

/// `queens compare`'s loop for one subject: over `sizes`, a checking run
/// then repeated timed runs (median of up to 15), all within `budget` of
/// total time, which also pays for the `cold_rounds` one-run samples each
/// timed n will get later ([`crate::cold`]): they are set aside from the
/// budget as soon as the checking run says what one run costs. A run
/// predicted not to fit in what is left is not started, nor an n that
/// `admit` refuses. `progress` is called once per n settled.
pub fn time_within_budget(
    subject: &dyn Subject,
    sizes: impl IntoIterator<Item = usize>,
    (budget, cold_rounds): (Duration, usize),
    admit: &Admit<'_>,
    mut progress: impl FnMut(usize),
) -> Vec<Entry> {
    let per_run = 1 + u32::try_from(cold_rounds).unwrap_or(u32::MAX);
    let mut ladder = Ladder::default();
    let mut spent = Duration::ZERO;
    let mut entries = Vec::new();
    for n in sizes {
        // What `admit` refuses is refused first; then a run predicted not
        // to fit in what is left of the budget.
        let predicted = ladder.predicted_next();
        let left = budget.saturating_sub(spent);
        let over = predicted.filter(|p| p.saturating_mul(per_run) > left);
        let over = over.map(|predicted| {
            format!(
                "not run: predicted {} per run, more than the {} left of its {} budget",
                seconds(predicted),
                seconds(left),
                seconds(budget)
            )
        });
        if let Some(why) = admit(n, predicted.map(|p| p.saturating_mul(per_run))).or(over) {
            entries.push(subject.skipped(n, why));
            progress(n);
            break;
        }
        let run = subject.check(n);
        // The checking run, and the cold runs this n will get if timed.
        spent += run.wall.saturating_mul(per_run);
        ladder.record(run.wall);
        if let Some(why) = run.error.clone() {
            entries.push(run.entry(Outcome::Error { why }));
            progress(n);
            continue;
        }
        let samples = sample_runs(&mut || subject.time(n), run.wall, budget, &mut spent);
        progress(n);
        match stats::timing(&samples) {
            Some(warm) => entries.push(run.entry(Outcome::timed(warm))),
            None => {
                let why = format!(
                    "the checking run took {}; no time left for timed runs in its {} budget",
                    seconds(run.wall),
                    seconds(budget)
                );
                entries.push(run.entry(Outcome::OverBudget { why }));
                break;
            }
        }
    }
    entries
}

/// Per-run nanoseconds of repeated runs (each call of `run` is one timed
/// run), in batches long against the clock when one run is short,
/// stopping early rather than overrun the budget: [`time_within_budget`]'s
/// loop, for a counter and a finder alike.
pub(crate) fn sample_runs(
    run: &mut dyn FnMut() -> Duration,
    first_run: Duration,
    budget: Duration,
    spent: &mut Duration,
) -> Vec<f64> {
    let batch = if first_run.is_zero() {
        1000
    } else {
        (MIN_SAMPLE.as_secs_f64() / first_run.as_secs_f64())
            .ceil()
            .clamp(1.0, 1e6) as u32
    };
    let mut samples = Vec::new();
    let mut last_sample = first_run * batch;
    let started = Instant::now();
    while samples.len() < MAX_SAMPLES
        && (samples.len() < MIN_SAMPLES || started.elapsed() < TIME_PER_N)
        && *spent + last_sample <= budget
    {
        let mut total = Duration::ZERO;
        for _ in 0..batch {
            total += run();
        }
        *spent += total;
        last_sample = total;
        samples.push(total.as_nanos() as f64 / f64::from(batch));
    }
    samples
}

/// A duration for messages: "0.52 s", "12 ms".
pub fn seconds(duration: Duration) -> String {
    let s = duration.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else {
        format!("{:.0} ms", s * 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Counting;
    use queens_core::CountOptions;
    use queens_record::COUNT;
    use queens_record::Status;
    use queens_three_mask::ThreeMask;

    fn three_mask() -> Counting<'static> {
        Counting {
            solver: &ThreeMask,
            options: CountOptions::default(),
        }
    }

    #[test]
    fn the_ladder_extrapolates_only_from_long_runs() {
        let mut ladder = Ladder::default();
        ladder.record(Duration::from_micros(10));
        ladder.record(Duration::from_micros(50));
        assert_eq!(ladder.predicted_next(), None);
        ladder.record(Duration::from_millis(1));
        ladder.record(Duration::from_millis(5));
        assert_eq!(ladder.predicted_next(), Some(Duration::from_millis(25)));
    }

    #[test]
    fn a_zero_budget_times_nothing_and_says_so() {
        let entries = time_within_budget(
            &three_mask(),
            4..=8,
            (Duration::ZERO, 0),
            &admit_all,
            |_| {},
        );
        assert_eq!(entries.len(), 1, "{entries:?}");
        assert_eq!(entries[0].status(), Status::OverBudget);
        assert_eq!(
            entries[0].solutions,
            Some(2),
            "the checking run still counted n = 4"
        );
        assert!(entries[0].error().unwrap().contains("no time left"));
    }

    #[test]
    fn a_budget_times_every_small_n_with_correct_counts() {
        let entries = time_within_budget(
            &three_mask(),
            n_range(&ThreeMask, 4, 7),
            (Duration::from_secs(60), 5),
            &admit_all,
            |_| {},
        );
        let ns: Vec<usize> = entries.iter().map(|e| e.n).collect();
        assert_eq!(ns, vec![4, 5, 6, 7]);
        for entry in &entries {
            assert_eq!(entry.status(), Status::Timed);
            assert_eq!(entry.solutions, oeis::total(entry.n));
            assert!(entry.timing().unwrap().samples >= MIN_SAMPLES);
        }
    }

    /// A subject whose checking runs report a wall time without taking
    /// it: each n ten times the one before.
    struct Claimed;

    impl Subject for Claimed {
        fn question(&self) -> queens_record::Question {
            COUNT
        }
        fn id(&self) -> &'static str {
            "claimed"
        }
        fn check(&self, n: usize) -> CheckedRun {
            CheckedRun {
                question: COUNT,
                solver: "claimed",
                n,
                wall: Duration::from_millis(10u64.pow(n as u32 - 3)),
                peak_heap_bytes: 0,
                error: None,
                nodes: None,
                solutions: None,
                unique: None,
                extra: Vec::new(),
            }
        }
        fn time(&self, _n: usize) -> Duration {
            Duration::from_micros(1)
        }
    }

    #[test]
    fn a_climb_stops_where_its_admission_refuses_told_the_predicted_step() {
        // Steps of 10 ms, 100 ms, 1 s, ...: with 5 cold rounds a step costs
        // six runs, so the step after a 1 s run is predicted at 60 s.
        let told = std::cell::RefCell::new(Vec::new());
        let admit = |n: usize, predicted: Option<Duration>| {
            told.borrow_mut().push((n, predicted));
            predicted
                .filter(|p| *p > Duration::from_secs(30))
                .map(|p| format!("not run: {} predicted", seconds(p)))
        };
        let entries = time_within_budget(
            &Claimed,
            4..=12,
            (Duration::from_secs(86_400), 5),
            &admit,
            |_| {},
        );
        let ns: Vec<usize> = entries.iter().map(|e| e.n).collect();
        assert_eq!(ns, vec![4, 5, 6, 7], "{entries:?}");
        let last = entries.last().unwrap();
        assert_eq!(last.status(), Status::OverBudget);
        assert_eq!(last.error(), Some("not run: 60.00 s predicted"));
        // The first steps predict nothing (too short to extrapolate from);
        // n = 6 is told 6 x 100 ms x 10.
        let told = told.borrow();
        assert_eq!(told[0], (4, None));
        assert_eq!(told[2], (6, Some(Duration::from_secs(6))));
    }

    #[test]
    fn the_probe_stops_at_the_first_run_over_the_limit() {
        let plan = probe(&three_mask(), 4..=9, Duration::ZERO);
        assert_eq!(plan.len(), 1);
        assert!(
            matches!(&plan[0], Planned::Settled(entry) if entry.status() == Status::OverBudget)
        );
    }
}
