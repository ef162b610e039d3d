//! What a run shows while it counts: a bar over the plan weight of its
//! units with an ETA (on stderr, when it is a terminal and the run is not
//! quiet), and one line when it resumes earlier work. The bar is cleared
//! however the run ends, so the terminal is left clean for the caller's
//! last line.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens_core::split::{Plan, UnitCount};

/// Whether anything is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    /// The bar (where stderr is a terminal) and the resume line.
    Shown,
    /// Nothing (`--quiet`).
    Quiet,
}

/// Says on stderr (a cluster job's log) that the work of an earlier attempt
/// is kept; stdout stays the record alone.
pub(crate) fn say_resumed(display: Display, checkpoint: &Path, resumed: usize, units: usize) {
    if display == Display::Quiet || resumed == 0 {
        return;
    }
    let _ = writeln!(
        std::io::stderr(),
        "queens: resuming from {}: {resumed} of {} already counted",
        queens_core::printable_path(checkpoint),
        queens_core::counted(units, "unit", "units")
    );
}

/// The bar of one run.
pub(crate) struct Progress<'a> {
    bar: ProgressBar,
    plan: &'a Plan,
    units: usize,
}

impl<'a> Progress<'a> {
    /// A bar over the weight of `mine` (indices into `plan`), with the units
    /// already `done` filled in.
    pub(crate) fn start(
        display: Display,
        plan: &'a Plan,
        mine: &[usize],
        done: &BTreeMap<usize, UnitCount>,
    ) -> Self {
        let target = if display == Display::Quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let style = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] [{wide_bar}] {percent:>3}%  ETA {eta}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        // `mine` and `done`'s keys are in plan order: one walk each.
        let weight = |units: &mut dyn Iterator<Item = &usize>| -> u64 {
            (plan.units_at(units.copied()))
                .map(|(_, unit)| unit.weight)
                .sum()
        };
        let bar =
            ProgressBar::with_draw_target(Some(weight(&mut mine.iter())), target).with_style(style);
        bar.set_position(weight(&mut done.keys()));
        let progress = Progress {
            bar,
            plan,
            units: mine.len(),
        };
        progress.say_done(done.len());
        progress
    }

    /// Unit `index` is counted, `done` units in all.
    pub(crate) fn counted(&self, index: usize, done: usize) {
        self.bar.inc(self.plan.weight(index));
        self.say_done(done);
    }

    fn say_done(&self, done: usize) {
        self.bar.set_message(format!(
            "{done}/{}",
            queens_core::counted(self.units, "unit", "units")
        ));
    }
}

impl Drop for Progress<'_> {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
