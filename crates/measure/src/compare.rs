//! A whole `queens compare` run as one library call: cross-validate the
//! solvers, climb each one's n within its time budget, and return the
//! record (with provenance) ready to be written. The command only parses its
//! arguments, draws progress, prints the table and writes the file.

use std::time::{Duration, Instant};

use queens_core::{CountOptions, Finder, Solver};

use queens_record::{Entry, FinderFacts, Provenance, Record, Settings, SolverFacts, Status};

use crate::climb;
use crate::cold::{self, COMPARE_COLD_ROUNDS};
use crate::error::Error;
use crate::external::Program;
use crate::find::{self, FIND_SEED, Finding};
use crate::run::{Counting, Subject};
use crate::validate;

/// The smallest n timed: below 4 the counts are 1, 0, 0 and every solver is
/// all fixed cost.
pub const MIN_N: usize = 4;
/// Cross-validation lists and compares every board, so it stops here even
/// when timing goes higher (the timed runs check their counts anyway).
pub const CROSS_VALIDATE_MAX_N: usize = 10;

/// What to compare and how long each solver may take.
#[derive(Clone)]
pub struct Plan<'a> {
    /// The solvers, in the order they are to appear.
    pub solvers: &'a [&'static dyn Solver],
    /// Time n = [`MIN_N`] up to this (each solver also stops at its own
    /// limit or budget).
    pub max_n: usize,
    /// Each solver's total time allowance.
    pub budget: Duration,
    /// The finders to time finding one board, each with the sizes it
    /// climbs ([`crate::find::sizes`]), after the solvers.
    pub finders: &'a [find::TimedFinder],
    /// Each finder's total time allowance.
    pub find_budget: Duration,
    /// Programs outside the workspace, climbing after the solvers within
    /// the same budget each and taking their cold samples among them.
    pub externals: &'a [Program],
    /// The command as typed, for the record's provenance.
    pub command: String,
    /// Whether a solver's climb may go on to n (see [`climb::Admit`]):
    /// the command's memory budget and time threshold.
    pub admit_solver: &'a AdmitSubject<'a, dyn Solver>,
    /// The same for a finder's climb.
    pub admit_finder: &'a AdmitSubject<'a, dyn Finder>,
    /// The same for an external's climb (the time threshold only: its
    /// memory is not known before it runs).
    pub admit_external: &'a climb::Admit<'a>,
}

/// [`climb::Admit`] for any subject of a run: the subject, n, and the
/// predicted time of that n's runs.
pub type AdmitSubject<'a, S> = dyn Fn(&S, usize, Option<Duration>) -> Option<String> + 'a;

/// A subject with the sizes it climbs, its budget and what admits its steps.
type Climb<'a> = (&'a dyn Subject, Vec<usize>, Duration, Box<climb::Admit<'a>>);

/// What a run says as it goes, for a display of how far it has got.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// The solvers agree with each other, the checker and OEIS: this many
    /// (solver, n) pairs, for n up to `max_n`, in `elapsed`.
    CrossValidated {
        /// (solver, n) pairs that agreed.
        pairs: usize,
        /// The largest n cross-validated.
        max_n: usize,
        /// How long it took.
        elapsed: Duration,
    },
    /// One (subject, n) settled.
    Step(Progress<'a>),
    /// A solver's or finder's climb is over: its entries (timed, then the
    /// one that stopped it, if any) and how long the climb took, its cold
    /// rounds aside (they come after every climb, [`Event::ColdRounds`]).
    Climbed {
        /// The solver or finder.
        subject: &'a str,
        /// Its entries, in the order of n.
        entries: &'a [Entry],
        /// The climb's wall-clock time.
        elapsed: Duration,
    },
    /// The cold rounds begin: every timed (subject, n) run once a round,
    /// between runs of the others, this many rounds.
    ColdRounds {
        /// Rounds to run.
        rounds: usize,
    },
}

/// How far a run has got, for a progress display.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// The solver being timed.
    pub solver: &'a str,
    /// The n just settled (timed, over budget or an error).
    pub n: usize,
    /// (solver, n) steps settled or passed over so far.
    pub done: usize,
    /// Steps in all: every n each solver could reach.
    pub total: usize,
}

/// What a run established.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// (solver, n) pairs cross-validated before timing.
    pub cross_validated: usize,
    /// The largest n cross-validated.
    pub cross_validated_max_n: usize,
    /// The record of the timings, with an error entry for any wrong count.
    pub record: Record,
}

impl Comparison {
    /// Whether any entry is a wrong count or a failure: such a run is a
    /// failed verification even though its record is kept.
    pub fn has_errors(&self) -> bool {
        self.record
            .entries
            .iter()
            .any(|e| e.status() == Status::Error)
    }
}

/// Runs the comparison. `on_event` hears of the cross-validation, of
/// every step ([`Event::Step`]: once per n settled, and once more when a
/// subject stops early, with the steps it passed over counted), of each
/// subject's whole climb and of the cold rounds.
pub fn run(plan: &Plan<'_>, on_event: &mut dyn FnMut(Event<'_>)) -> Result<Comparison, Error> {
    if plan.max_n < MIN_N {
        return Err(Error::Input(format!(
            "--max-n must be at least {MIN_N}, got {}",
            plan.max_n
        )));
    }
    let cross_validated_max_n = plan.max_n.min(CROSS_VALIDATE_MAX_N);
    let started = Instant::now();
    // Externals alone have no boards to cross-validate: each of their
    // counts is checked against OEIS as it is run.
    let cross_validated = match plan.solvers {
        [] => 0,
        solvers => validate::cross_validate(solvers, cross_validated_max_n, &mut |_| {
            std::ops::ControlFlow::Continue(())
        })?,
    };
    on_event(Event::CrossValidated {
        pairs: cross_validated,
        max_n: cross_validated_max_n,
        elapsed: started.elapsed(),
    });

    let options = CountOptions::default();
    let counting: Vec<Counting> = (plan.solvers.iter())
        .map(|&solver| Counting { solver, options })
        .collect();
    let finding: Vec<Finding> = (plan.finders.iter())
        .map(|&(finder, _)| Finding {
            finder,
            seed: FIND_SEED,
        })
        .collect();
    // Every subject with the sizes it climbs, its budget and what admits
    // its steps: solvers, then externals, then finders.
    let mut climbs: Vec<Climb> = Vec::new();
    for subject in &counting {
        let sizes = climb::n_range(subject.solver, MIN_N, plan.max_n).collect();
        let admit = |n, predicted| (plan.admit_solver)(subject.solver, n, predicted);
        climbs.push((subject, sizes, plan.budget, Box::new(admit)));
    }
    for program in plan.externals {
        let sizes = program.sizes(MIN_N, plan.max_n).collect();
        climbs.push((program, sizes, plan.budget, Box::new(plan.admit_external)));
    }
    for (subject, (_, sizes)) in finding.iter().zip(plan.finders) {
        let admit = |n, predicted| (plan.admit_finder)(subject.finder, n, predicted);
        climbs.push((subject, sizes.clone(), plan.find_budget, Box::new(admit)));
    }
    let total = climbs.iter().map(|(_, sizes, ..)| sizes.len()).sum();
    let (mut done, mut entries) = (0, Vec::new());
    // A subject that stopped early leaves its remaining n unvisited,
    // counted as passed over.
    for (subject, sizes, budget, admit) in &climbs {
        let (id, mut settled, started) = (subject.id(), 0, Instant::now());
        let rule = (*budget, COMPARE_COLD_ROUNDS);
        let climbed =
            climb::time_within_budget(*subject, sizes.iter().copied(), rule, admit, |n| {
                settled += 1;
                done += 1;
                on_event(Event::Step(Progress {
                    solver: id,
                    n,
                    done,
                    total,
                }));
            });
        done += sizes.len().saturating_sub(settled);
        on_event(Event::Climbed {
            subject: id,
            entries: &climbed,
            elapsed: started.elapsed(),
        });
        entries.extend(climbed);
    }
    on_event(Event::ColdRounds {
        rounds: COMPARE_COLD_ROUNDS,
    });
    // The externals' rounds go through the solvers' too: a program's run
    // follows other searches, as a solver's does.
    let mut counters = cold::subjects(&counting);
    counters.extend(cold::subjects(plan.externals));
    let branch_misses_unavailable = cold::attach_cold(&mut entries, &counters, COMPARE_COLD_ROUNDS);
    let found_misses =
        cold::attach_cold(&mut entries, &cold::subjects(&finding), COMPARE_COLD_ROUNDS);
    for program in plan.externals {
        program.settle(&mut entries);
    }
    let seeded = finding.iter().any(|f| f.finder.info().seeded);

    let record = Record::new(
        Provenance::collect(plan.command.clone()),
        Settings {
            tool: "queens compare".to_string(),
            threads: options.threads,
            min_n: MIN_N,
            max_n: Some(plan.max_n),
            max_run_seconds: None,
            budget_seconds: Some(plan.budget.as_secs_f64()),
            cold_rounds: Some(COMPARE_COLD_ROUNDS),
            branch_misses_unavailable: branch_misses_unavailable.or(found_misses),
            find_seed: seeded.then_some(FIND_SEED),
        },
        (plan.solvers.iter().map(|&s| SolverFacts::of(s)))
            .chain(plan.externals.iter().map(|p| p.facts(&entries)))
            .collect(),
        entries,
    )
    .with_finders(finding.iter().map(|f| FinderFacts::of(f.finder)).collect());
    Ok(Comparison {
        cross_validated,
        cross_validated_max_n,
        record,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_three_mask::ThreeMask;

    #[test]
    fn a_small_comparison_times_every_n_and_reports_every_step() {
        let mut steps = Vec::new();
        let mut climbed = Vec::new();
        let (mut validated, mut cold) = (None, None);
        let comparison = run(
            &Plan {
                solvers: &[&ThreeMask],
                max_n: 6,
                budget: Duration::from_secs(30),
                finders: &[],
                find_budget: Duration::ZERO,
                command: "test".into(),
                admit_solver: &|_, _, _| None,
                admit_finder: &|_, _, _| None,
                externals: &[],
                admit_external: &climb::admit_all,
            },
            &mut |event| match event {
                Event::Step(p) => steps.push((p.n, p.done, p.total)),
                Event::Climbed {
                    subject, entries, ..
                } => climbed.push((subject.to_string(), entries.len())),
                Event::CrossValidated { pairs, max_n, .. } => validated = Some((pairs, max_n)),
                Event::ColdRounds { rounds } => cold = Some(rounds),
            },
        )
        .unwrap();
        assert_eq!(comparison.cross_validated, 6);
        assert!(!comparison.has_errors());
        let ns: Vec<usize> = comparison.record.entries.iter().map(|e| e.n).collect();
        assert_eq!(ns, vec![4, 5, 6]);
        // Every timed n has its cold samples beside the warm ones, and the
        // record is one a reader accepts.
        for entry in &comparison.record.entries {
            assert_eq!(entry.cold().unwrap().samples, COMPARE_COLD_ROUNDS);
        }
        assert_eq!(queens_record::meaning::check(&comparison.record), Ok(()));
        assert_eq!(steps, vec![(4, 1, 3), (5, 2, 3), (6, 3, 3)]);
        assert_eq!(climbed, vec![("three-mask".to_string(), 3)]);
        assert_eq!(validated, Some((6, 6)));
        assert_eq!(cold, Some(COMPARE_COLD_ROUNDS));
    }

    #[test]
    fn a_max_n_below_the_smallest_timed_n_is_input() {
        let error = run(
            &Plan {
                solvers: &[&ThreeMask],
                max_n: 3,
                budget: Duration::from_secs(1),
                finders: &[],
                find_budget: Duration::ZERO,
                command: "test".into(),
                admit_solver: &|_, _, _| None,
                admit_finder: &|_, _, _| None,
                externals: &[],
                admit_external: &climb::admit_all,
            },
            &mut |_| {},
        )
        .unwrap_err();
        assert!(matches!(error, Error::Input(_)), "{error}");
    }

    #[test]
    fn finders_are_timed_beside_the_counts_without_mixing_them() {
        static FIRST: queens_core::find::FirstBoard =
            queens_core::find::FirstBoard::new(&ThreeMask, &queens_three_mask::INFO);
        let finders: [find::TimedFinder; 1] = [(&FIRST, vec![8, 10])];
        let comparison = run(
            &Plan {
                solvers: &[&ThreeMask],
                max_n: 8,
                budget: Duration::from_secs(30),
                finders: &finders,
                find_budget: Duration::from_secs(10),
                command: "test".into(),
                admit_solver: &|_, _, _| None,
                admit_finder: &|_, _, _| None,
                externals: &[],
                admit_external: &climb::admit_all,
            },
            &mut |_| {},
        )
        .unwrap();
        let record = &comparison.record;
        assert_eq!(queens_record::meaning::check(record), Ok(()));
        assert_eq!(record.finders.len(), 1);
        // three-mask at n = 8 twice: its count and its first board.
        let at_8: Vec<queens_record::Question> = record
            .entries
            .iter()
            .filter(|e| e.solver == "three-mask" && e.n == 8)
            .map(|e| e.question)
            .collect();
        assert_eq!(at_8, vec![queens_record::COUNT, queens_record::FIND_ONE]);
        for entry in &record.entries {
            assert_eq!(entry.status(), Status::Timed, "{entry:?}");
            assert_eq!(entry.cold().unwrap().samples, COMPARE_COLD_ROUNDS);
        }
        // Not seeded: no seed recorded.
        assert_eq!(record.settings.find_seed, None);
    }
}
