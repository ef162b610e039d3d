//! The time budget: a command that could run for hours at sizes it allows
//! (`tree`, `verify`, `count` with a solver that does not split its work)
//! predicts its time before it commits to it, and past [`THRESHOLD`] refuses
//! in one line that names the prediction and [`LONG`], the option that goes
//! ahead anyway. A run that goes ahead and is predicted to last more than a
//! few seconds shows a bar with the time left on stderr (only when stderr is
//! a terminal).
//!
//! The prediction is measured, not typed in: the same work is timed at
//! growing n (the smaller sizes a command does anyway, or a short
//! calibration that stops at the second step taking [`MIN_TIMED`]), and
//! the last step's time is carried to the requested n with the growth
//! ratio of the last two such steps (never less than [`MIN_GROWTH`] per n). The searches
//! grow faster than geometrically (a backtracking tree's ratio rises with
//! n, a permutation filter's is n itself), so the prediction errs short:
//! what it refuses would take at least that long.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use queens_report::format::significant;

use crate::error::CliError;

/// Predicted time past which a command asks for [`LONG`].
pub const THRESHOLD: Duration = Duration::from_secs(10 * 60);

/// The option that runs a command predicted to take longer than
/// [`THRESHOLD`].
pub const LONG: &str = "--long";

/// A step shorter than this (in seconds) is mostly fixed cost and noise:
/// its growth says little, so a prediction waits for a longer one.
pub const MIN_TIMED: f64 = 0.02;

/// The shortest step a growth ratio is taken from: as long as the step
/// that carries it. A step of a few milliseconds on a busy machine can
/// take several times as long as on a quiet one (another process's slice,
/// a cold cache), and a ratio to it is carried over many n: a search that
/// grows tenfold per n was once measured to grow threefold, so that a
/// forty-minute request ran instead of asking for `--long`. With a
/// quarter of [`MIN_TIMED`] here, textbook's n = 11 (about 5 ms) stretched
/// by a loaded machine gave n = 12 a ratio near 3 where it is near 6, and
/// `count 20` ran for hours unasked; a slice stretches a step of this
/// length by a fraction. Calibration so ends at the second step this long.
pub const MIN_RATIO_BASE: f64 = MIN_TIMED;

/// The least growth per n assumed: every count here at least doubles from
/// one n to the next once fixed costs stop dominating (Q(n) itself grows
/// about fivefold per n and more).
pub const MIN_GROWTH: f64 = 2.0;

/// The most growth per n believed from two steps: a busy machine can
/// slow one step down, and the ratio is carried over many n.
pub const MAX_GROWTH: f64 = 16.0;

/// How many times calibration runs each step, keeping the fastest.
pub const RUNS_PER_STEP: usize = 2;

/// Runs predicted to last longer than this show a progress bar.
const BAR_AFTER: f64 = 3.0;

/// The times of one series of steps: one solver's work at n = 1, 2, ...
#[derive(Clone, Copy, Debug, Default)]
pub struct Growth {
    /// (n, seconds) of the last step timed.
    last: Option<(usize, f64)>,
    /// The growth per n from the step before it to the last.
    ratio: Option<f64>,
}

impl Growth {
    /// Records that the step at `n` (larger than any before) took `seconds`.
    pub fn record(&mut self, n: usize, seconds: f64) {
        // A step of a millisecond or less is timer and cache noise: a ratio
        // to it could be anything, and would carry far.
        if let Some((before, previous)) = self.last
            && n > before
            && previous >= MIN_RATIO_BASE
        {
            let ratio = (seconds / previous).powf(1.0 / (n - before) as f64);
            self.ratio = Some(ratio.min(MAX_GROWTH));
        }
        self.last = Some((n, seconds));
    }

    /// Whether the last step was long enough to carry a prediction, and
    /// grew from one before it (a first step can be all start-up cost: a
    /// GPU's adapter, a table built once).
    pub fn is_informative(&self) -> bool {
        self.ratio.is_some() && self.last.is_some_and(|(_, seconds)| seconds >= MIN_TIMED)
    }

    /// The predicted seconds of the step at `n`: the last step's time grown
    /// by the measured ratio (at least [`MIN_GROWTH`]) for each n beyond it.
    /// Nothing timed yet predicts nothing.
    pub fn predict(&self, n: usize) -> f64 {
        let Some((last_n, seconds)) = self.last else {
            return 0.0;
        };
        if n <= last_n {
            return seconds;
        }
        let ratio = self.ratio.unwrap_or(MIN_GROWTH).max(MIN_GROWTH);
        seconds * ratio.powf((n - last_n) as f64)
    }

    /// Times `step` at n = 1, 2, ... up to `n - 1`, stopping at the second
    /// step that takes [`MIN_TIMED`] (see [`MIN_RATIO_BASE`]): what a
    /// prediction of the step at `n` needs, at a cost of a fraction of that
    /// step. Each step runs
    /// [`RUNS_PER_STEP`] times and counts its fastest run: on a busy
    /// machine another process's slice can stretch one run of a short step
    /// several times over, and a ratio to a stretched step, carried over
    /// many n, once let a search of hours start as if it took seconds.
    pub fn calibrate<E>(
        n: usize,
        mut step: impl FnMut(usize) -> Result<(), E>,
    ) -> Result<Growth, E> {
        Growth::calibrate_timed(n, |k| {
            let started = Instant::now();
            step(k)?;
            Ok(started.elapsed().as_secs_f64())
        })
    }

    /// [`Growth::calibrate`] with each run's seconds given by `run`: the
    /// clock is a value, so that tests can hand it the times a busy
    /// machine would give.
    fn calibrate_timed<E>(
        n: usize,
        mut run: impl FnMut(usize) -> Result<f64, E>,
    ) -> Result<Growth, E> {
        let mut growth = Growth::default();
        for k in 1..n {
            let mut fastest = f64::INFINITY;
            for _ in 0..RUNS_PER_STEP {
                fastest = fastest.min(run(k)?);
            }
            growth.record(k, fastest);
            if growth.is_informative() {
                break;
            }
        }
        Ok(growth)
    }
}

/// Refuses a run predicted to take `seconds` when that is past
/// [`THRESHOLD`] and `long` was not given: `what` names the request,
/// `basis` what the prediction comes from.
pub fn allow(what: &str, seconds: f64, basis: &str, long: bool) -> Result<(), CliError> {
    if long || seconds <= THRESHOLD.as_secs_f64() {
        return Ok(());
    }
    Err(CliError::Input(format!(
        "{what} would take about {} (predicted from {basis}); add {LONG} to run it anyway",
        human(seconds)
    )))
}

/// A minute in seconds: below it, [`human`] says seconds.
pub const MINUTE: f64 = 60.0;

/// A duration as a person reads it: "40 s", "12 min", "3.5 h", "2e3 years".
pub fn human(seconds: f64) -> String {
    const HOUR: f64 = 60.0 * MINUTE;
    const DAY: f64 = 24.0 * HOUR;
    const YEAR: f64 = 365.25 * DAY;
    if !seconds.is_finite() {
        return "longer than the universe has existed".to_string();
    }
    match seconds {
        s if s < MINUTE => format!("{s:.0} s"),
        s if s < HOUR => format!("{:.0} min", s / MINUTE),
        s if s < DAY => format!("{:.1} h", s / HOUR),
        s if s < YEAR => format!("{:.1} days", s / DAY),
        // Whole years, so "1 year" must be said as such.
        s if s < 1e4 * YEAR => queens_core::counted((s / YEAR).round() as u64, "year", "years"),
        s => format!("{:.1e} years", s / YEAR),
    }
}

/// Seconds to three significant figures, and past a minute the same time
/// again in a person's unit: "30.7 s", "41400 s (11.5 h)". Below a minute
/// the second form would only repeat the first, rounded.
pub fn seconds_and_human(seconds: f64) -> String {
    let plain = format!("{} s", significant(seconds));
    if seconds < MINUTE {
        plain
    } else {
        format!("{plain} ({})", human(seconds))
    }
}

/// A bar of `length` steps drawn on `target` as every bar of the command
/// is: the time elapsed, the bar, then `fields` (indicatif's template).
pub fn styled_bar(length: u64, target: ProgressDrawTarget, fields: &str) -> ProgressBar {
    let template = format!("{{elapsed:>4}} [{{bar:30}}] {fields}");
    let style = ProgressStyle::with_template(&template).expect("a fixed template");
    let bar = ProgressBar::with_draw_target(Some(length), target);
    bar.set_style(style.progress_chars("=> "));
    bar
}

/// A bar of predicted time on stderr: drawn only for a run predicted to
/// last more than a few seconds, and only when stderr is a terminal.
pub struct TimeBar {
    bar: ProgressBar,
    started: Instant,
}

impl TimeBar {
    /// A bar for a run predicted to take `seconds` in all.
    pub fn start(seconds: f64) -> TimeBar {
        let target = if seconds > BAR_AFTER {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let time_bar = TimeBar {
            bar: styled_bar(1000, target, "{msg}"),
            started: Instant::now(),
        };
        time_bar.left(seconds);
        time_bar
    }

    /// The run is predicted to need `seconds` more.
    pub fn left(&self, seconds: f64) {
        self.left_while(seconds, "about", "(predicted)");
    }

    /// The run has `seconds` more, said as `before` the time and `after`
    /// it (what it is doing, say).
    pub fn left_while(&self, seconds: f64, before: &str, after: &str) {
        let elapsed = self.started.elapsed().as_secs_f64();
        let share = elapsed / (elapsed + seconds).max(f64::MIN_POSITIVE);
        self.bar.set_position((share * 1000.0) as u64);
        self.bar
            .set_message(format!("{before} {} left {after}", human(seconds)));
    }

    /// Redraws every second, so that the elapsed time moves while one long
    /// step runs without news.
    pub fn tick_steadily(&self) {
        self.bar.enable_steady_tick(Duration::from_secs(1));
    }

    /// Runs `write` with the bar out of the way, so that lines printed on
    /// the same terminal are not torn by it.
    pub fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        self.bar.suspend(write)
    }
}

impl Drop for TimeBar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_carries_the_last_ratio_forward() {
        let mut growth = Growth::default();
        growth.record(8, 0.02);
        growth.record(9, 0.1);
        assert!(growth.is_informative());
        let predicted = growth.predict(11);
        assert!((predicted - 0.1 * 25.0).abs() < 1e-9, "{predicted}");
        assert_eq!(growth.predict(9), 0.1);
    }

    #[test]
    fn growth_is_never_assumed_below_the_floor() {
        let mut growth = Growth::default();
        growth.record(5, 0.1);
        growth.record(6, 0.1);
        assert!((growth.predict(8) - 0.1 * MIN_GROWTH * MIN_GROWTH).abs() < 1e-9);
        assert_eq!(Growth::default().predict(20), 0.0);
    }

    #[test]
    fn calibration_stops_at_the_first_informative_step() {
        let mut steps = Vec::new();
        let growth = Growth::calibrate_timed(30, |k| {
            steps.push(k);
            // The first step too short to give a ratio, the second and
            // third long enough, so the third's ratio carries.
            Ok::<f64, ()>(k as f64 * MIN_TIMED / 2.0)
        })
        .unwrap();
        assert_eq!(steps, vec![1, 1, 2, 2, 3, 3]);
        assert!(growth.is_informative());
    }

    #[test]
    fn calibration_counts_the_fastest_run_of_a_step() {
        // The first run of step 2 is stretched, as by another process's
        // slice: counted, it would end calibration at step 2 with a ratio
        // far above the step's own. Its faster second run is counted, so
        // calibration goes on to step 3.
        let mut runs = Vec::new();
        let growth = Growth::calibrate_timed(30, |k| {
            let stretched = k == 2 && !runs.contains(&2);
            runs.push(k);
            // Step 1 could give a ratio, step 2 (run fastest) cannot carry
            // one, step 3 carries its own.
            Ok::<f64, ()>(match k {
                2 if stretched => 10.0 * MIN_TIMED,
                2 => MIN_TIMED / 2.0,
                _ => k as f64 * MIN_TIMED,
            })
        })
        .unwrap();
        assert_eq!(runs, vec![1, 1, 2, 2, 3, 3]);
        assert!(growth.predict(3) < 10.0 * MIN_TIMED);
    }

    #[test]
    fn no_ratio_is_taken_from_a_step_of_a_few_milliseconds() {
        // A short step slowed by another process would carry a small ratio
        // over many n; calibration goes on to a second long step instead.
        let mut growth = Growth::default();
        growth.record(8, MIN_RATIO_BASE / 2.0);
        growth.record(9, MIN_TIMED);
        assert!(!growth.is_informative());
        growth.record(10, 10.0 * MIN_TIMED);
        assert!(growth.is_informative());
        assert!((growth.predict(11) / (100.0 * MIN_TIMED) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_refusal_names_the_prediction_and_the_option() {
        assert!(allow("x", 10.0, "y", false).is_ok());
        assert!(allow("x", 1e9, "y", true).is_ok());
        let refusal = allow("tree 14", 3.0 * 3600.0, "its sizes up to 10", false)
            .unwrap_err()
            .to_string();
        assert!(
            refusal.contains("3.0 h") && refusal.contains(LONG),
            "{refusal}"
        );
        assert_eq!(human(45.0), "45 s");
        assert_eq!(human(1e12), "3.2e4 years");
    }

    #[test]
    fn a_year_is_one_year_and_a_short_time_is_said_once() {
        const YEAR: f64 = 365.25 * 86_400.0;
        assert_eq!(human(1.2 * YEAR), "1 year");
        assert_eq!(human(2.0 * YEAR), "2 years");
        // Below a minute the seconds are the person's unit already.
        assert_eq!(seconds_and_human(30.7), "30.7 s");
        assert_eq!(seconds_and_human(41_433.7), "41434 s (11.5 h)");
        assert_eq!(seconds_and_human(300.0), "300 s (5 min)");
    }

    /// The README states the threshold in words ("past ten minutes"); this
    /// keeps the words and the constant together (prose_figures lists it).
    #[test]
    fn the_threshold_is_the_readmes_ten_minutes() {
        assert_eq!(THRESHOLD, Duration::from_secs(600));
        let readme = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"),
        )
        .unwrap();
        assert!(readme.contains("past ten minutes"));
        assert!(allow("x", 599.0, "y", false).is_ok());
        assert!(allow("x", 601.0, "y", false).is_err());
    }
}
