//! The document's `solutions = filter ((n ==) . length) (allValidConfsFollowing [])`:
//! count up through the valid configurations with `nextValid` and keep the
//! full ones. Written once, generic over what happens to a solution
//! ([`SolutionSink`]) and over tracing ([`Observer`]).

use std::ops::ControlFlow;

use queens_core::trace::{Detail, Observer, StepKind};
use queens_core::{SearchStats, SolutionSink, counted, file_letter};

use crate::configuration::{Change, Clash, Configuration, MAX_N};

/// One board's odometer and its counters.
pub struct Search {
    configuration: Configuration,
    /// Configurations given to the validity test.
    tested: u64,
    /// Configurations that passed it (`allValidConfsFollowing []`).
    valid: u64,
    solutions: u64,
    /// Scratch for the shared row-per-column convention.
    rows: [u8; MAX_N],
}

/// Which rule produced the configuration about to be tested (for tracing).
enum Rule {
    Advance(Change),
    /// `advanceWithoutAdding` after an invalid number: `skipped` is its
    /// prefix with wildcards, every number that starts with it.
    Skip {
        change: Change,
        skipped: String,
    },
}

impl Search {
    pub fn new(n: usize) -> Self {
        Search {
            configuration: Configuration::empty(n),
            tested: 0,
            valid: 0,
            solutions: 0,
            rows: [0; MAX_N],
        }
    }

    pub fn run<S: SolutionSink, O: Observer>(mut self, sink: &mut S, observer: &mut O) -> Self {
        let _ = self.count_up(sink, observer);
        self
    }

    pub fn stats(&self) -> SearchStats {
        SearchStats {
            solutions: self.solutions,
            unique: None,
            nodes: self.tested,
            extra: Vec::new(),
        }
        .with_metric("valid_configurations", self.valid)
    }

    /// `allValidConfsFollowing []`, keeping the full boards.
    fn count_up<S: SolutionSink, O: Observer>(
        &mut self,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        if O::PROFILES {
            // The all-zero number: the empty board, where counting starts,
            // counted (like every node) before the step that shows it.
            observer.safe_boards(0, 1);
        }
        if O::ENABLED {
            let n = self.configuration.n();
            observer.step(StepKind::Note, || Detail {
                text: format!(
                    "{}: {} of {} in base {}; digit = rank of the file's queen (0 = empty), file a first",
                    self.configuration.number(n),
                    counted(self.configuration.numbers_with_prefix(0), "number", "numbers"),
                    counted(n, "digit", "digits"),
                    n + 1
                ),
                ..self.detail()
            })?;
        }
        while self.next_valid(observer)? {
            self.valid += 1;
            if self.configuration.is_full() {
                self.solutions += 1;
                if S::WANTS_BOARD {
                    let rows = &mut self.rows[..self.configuration.n()];
                    self.configuration.write_rows(rows);
                    sink.solution(rows)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// `nextValid`: `advance`, then, while the result is invalid, skip every
    /// number that starts with it (`advanceWithoutAdding`). `false` when the
    /// count runs out (the document's `Nothing`).
    #[inline]
    fn next_valid<O: Observer>(&mut self, observer: &mut O) -> ControlFlow<(), bool> {
        let Some(change) = self.configuration.advance() else {
            if O::ENABLED {
                observer.step(StepKind::Note, || Detail {
                    text: "advance: every queen on the top rank: done".into(),
                    ..self.detail()
                })?;
            }
            return ControlFlow::Continue(false);
        };
        let mut rule = Rule::Advance(change);
        loop {
            self.tested += 1;
            let clash = self.configuration.newest_clash();
            if O::PROFILES && clash.is_none() {
                // A valid number is a safe board: counted here, before the
                // step that shows it.
                observer.safe_boards(self.configuration.queens().len(), 1);
            }
            if O::ENABLED {
                self.trace_test(&rule, clash, observer)?;
            }
            if clash.is_none() {
                return ControlFlow::Continue(true);
            }
            let skipped = if O::ENABLED {
                let prefix = self.configuration.queens().len();
                let count = self.configuration.numbers_with_prefix(prefix);
                format!(
                    "{} ({})",
                    self.configuration.number(prefix),
                    counted(count, "number", "numbers")
                )
            } else {
                String::new()
            };
            let Some(change) = self.configuration.advance_without_adding() else {
                if O::ENABLED {
                    observer.step(StepKind::Note, || Detail {
                        text: format!("advanceWithoutAdding skips {skipped}: file a's queen is on the top rank: done"),
                        ..self.detail()
                    })?;
                }
                return ControlFlow::Continue(false);
            };
            rule = Rule::Skip { change, skipped };
        }
    }

    /// The odometer as data: its queens (digit = rank, 0 = no queen yet),
    /// the number itself, the tests made so far (traced runs only).
    fn detail(&self) -> Detail {
        let c = &self.configuration;
        Detail::default()
            .queens(
                c.queens()
                    .iter()
                    .enumerate()
                    .map(|(file, &rank)| (file, rank as usize - 1)),
            )
            .state("number", c.number(c.n()))
            .nodes(self.tested)
    }

    /// One line per tested configuration: the number, the rule that made it,
    /// the verdict; before it, when the odometer carried (files emptied: the
    /// search backs up), a `back` line saying so.
    fn trace_test<O: Observer>(
        &self,
        rule: &Rule,
        clash: Option<(usize, Clash)>,
        observer: &mut O,
    ) -> ControlFlow<()> {
        let c = &self.configuration;
        let kind = match clash {
            Some(_) => StepKind::Reject,
            None if c.is_full() => StepKind::Solution,
            None => StepKind::Place,
        };
        let queens = c.queens();
        let square = |file: usize| format!("{}{}", file_letter(file), queens[file]);
        let newest = square(queens.len() - 1);
        let (skipped, dropped) = match rule {
            Rule::Advance(Change::Added) => (None, 0),
            Rule::Advance(Change::Raised { dropped }) => (None, *dropped),
            Rule::Skip { change, skipped } => match change {
                Change::Raised { dropped } => (Some(skipped), *dropped),
                Change::Added => (Some(skipped), 0),
            },
        };
        if dropped > 0 {
            observer.step(StepKind::Backtrack, || {
                let skips = skipped.map_or(String::new(), |s| {
                    format!("advanceWithoutAdding skips {s}, ")
                });
                let files = queens.len()..queens.len() + dropped;
                let first = file_letter(files.start);
                let emptied = if dropped == 1 {
                    format!("empties file {first}")
                } else {
                    format!("empties files {first}-{}", file_letter(files.end - 1))
                };
                Detail {
                    text: format!(
                        "{}  {skips}{emptied}: every rank tried there, back to file {}",
                        c.number(c.n()),
                        file_letter(queens.len() - 1)
                    ),
                    ..self.detail()
                }
            })?;
        }
        observer.step(kind, || {
            let how = match (rule, dropped) {
                (Rule::Advance(Change::Added), _) => format!("advance adds {newest}"),
                (_, 1..) => format!("raises {newest}"),
                (Rule::Advance(_), _) => format!("advance raises {newest}"),
                (Rule::Skip { skipped, .. }, _) => {
                    format!("advanceWithoutAdding skips {skipped}")
                }
            };
            let verdict = match clash {
                None if c.is_full() => "valid, all files filled".to_string(),
                None => "valid".to_string(),
                Some((file, Clash::Rank)) => format!("{newest} and {} share a rank", square(file)),
                Some((file, Clash::Diagonal)) => {
                    format!("{newest} and {} share a diagonal", square(file))
                }
            };
            let detail = self.detail();
            // The newest digit is the square tested: refused, not placed.
            let detail = match clash {
                Some(_) => detail.refused(queens.len() - 1, queens[queens.len() - 1] as usize - 1),
                None => detail,
            };
            Detail {
                text: format!("{}  {how}: {verdict}", c.number(c.n())),
                ..detail
            }
        })
    }
}
