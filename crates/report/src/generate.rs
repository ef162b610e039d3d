//! Every generated text from the records: COMPARISON.md, the two plots, the
//! HTML page and the README section, as strings (writing them is [`super::publish`]'s job).

use askama::Template;

use super::found::Found;
use super::inputs::{
    Analyses, COMPARISON_FILE, FIND_PLOT_FILE, InstructionsSource, NODES_PLOT_FILE, PAGE_FILE,
    PageInputs, Source, TIME_PLOT_FILE, Trees,
};
use super::overlay::Overlay;
use super::page::charts::{self, Measure, Series, Variant};
use super::page::page;
use super::page::styles::Styles;
use super::parts::Parts;
use super::tables;
use crate::error::Error;

/// Builds every output, as (file name, contents) in the order they are
/// written: COMPARISON.md, the README's two plots, the finders' plot when
/// the records time a finder (a plot with no line would only show made-up
/// axes; COMPARISON.md says why), and the page. `command` is the `queens
/// report ...` line printed at the top of COMPARISON.md and of the page;
/// `instructions`, the instructions record whose figures go beside the
/// times, if any.
pub(crate) fn generate(
    command: &str,
    sources: &[Source],
    instructions: Option<&InstructionsSource>,
    analyses: &Analyses<'_>,
    trees: &Trees<'_>,
    inputs: &PageInputs<'_>,
) -> Result<Vec<(&'static str, String)>, Error> {
    let overlay = Overlay::from_sources(sources);
    let found = Found::from_sources(sources);
    // The analyses name every registered solver: a solver's look is its
    // place among them, in the plot files and on the page alike.
    let solvers = overlay.facts.iter().map(|s| s.id.as_str());
    let finders = found.facts.iter().map(|f| f.id.as_str());
    let styles = Styles::new(analyses.keys().copied(), solvers.chain(finders));
    let parts = Parts {
        command,
        sources,
        instructions,
        overlay: &overlay,
        found: &found,
        analyses,
        trees,
        inputs,
        styles: &styles,
    };
    // The README's plots of every solver, the same as the page's.
    let standalone =
        |measure: &Measure, series: &[Series]| charts::svg(measure, series, Variant::Standalone);
    let mut files = vec![
        (
            COMPARISON_FILE,
            tables::Comparison { parts: &parts }.render(),
        ),
        (
            TIME_PLOT_FILE,
            standalone(&charts::TIME, &charts::TIME.series(&overlay, &styles)),
        ),
        (
            NODES_PLOT_FILE,
            standalone(&charts::NODES, &charts::NODES.series(&overlay, &styles)),
        ),
    ];
    if !found.facts.is_empty() {
        files.push((
            FIND_PLOT_FILE,
            standalone(&charts::FIND, &found.series(&styles)),
        ));
    }
    files.push((PAGE_FILE, page(&parts)));
    // A template fails only if a value cannot be written, which none of
    // these can; should one ever, the file it was for is named.
    let drawn = files.into_iter().map(|(file, drawing)| {
        let problem = |problem: askama::Error| Error::Render {
            file,
            problem: problem.to_string(),
        };
        Ok((file, drawing.map_err(problem)?))
    });
    drawn.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_record::fixtures::{one_sample, sample_record};
    use queens_record::{Entry, Outcome, SolverFacts, Timing, read, write_new};
    use std::collections::BTreeMap;

    /// Every output, by what it is.
    #[derive(Debug)]
    struct Outputs {
        comparison: String,
        time_plot: String,
        nodes_plot: String,
        find_plot: Option<String>,
        page: String,
    }

    impl Outputs {
        /// [`generate`]'s files, named.
        fn of(files: Result<Vec<(&'static str, String)>, Error>) -> Outputs {
            let files = files.unwrap();
            let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
            let mut files: BTreeMap<&str, String> = files.into_iter().collect();
            let mut take = |name| files.remove(name);
            let outputs = Outputs {
                comparison: take(COMPARISON_FILE).unwrap(),
                time_plot: take(TIME_PLOT_FILE).unwrap(),
                nodes_plot: take(NODES_PLOT_FILE).unwrap(),
                find_plot: take(FIND_PLOT_FILE),
                page: take(PAGE_FILE).unwrap(),
            };
            // Written in this order (the paths `queens report` prints).
            let mut order = vec![COMPARISON_FILE, TIME_PLOT_FILE, NODES_PLOT_FILE];
            order.extend(outputs.find_plot.as_ref().map(|_| FIND_PLOT_FILE));
            order.push(PAGE_FILE);
            assert_eq!(names, order);
            outputs
        }
    }

    /// The README section of `sources`, links relative to `prefix`.
    fn readme_section(sources: &[Source], prefix: &str) -> String {
        tables::readme_section(&Overlay::from_sources(sources), prefix)
    }

    fn analysis() -> Analyses<'static> {
        BTreeMap::from([("three-mask", "Three masks per rank.")])
    }

    /// The fixture plus a second solver with one timed n, one error and one
    /// over-budget n.
    fn two_solver_sources() -> Vec<Source> {
        let mut record = sample_record();
        record.solvers.push(SolverFacts {
            id: "slow-one".into(),
            node: "a permutation".into(),
            max_n: 12,
            enumerates: true,
            accelerator: None,
            external: None,
        });
        let timed = Entry {
            solver: "slow-one".into(),
            outcome: Outcome::Timed {
                warm: one_sample(56_000.0).unwrap(),
                // Three cold samples, as the fixture's settings say: 164 µs.
                cold: Some(Timing {
                    samples: 3,
                    median_ns: 164_000.0,
                    min_ns: 160_000.0,
                    max_ns: 170_000.0,
                    mad_ns: 4_000.0,
                }),
            },
            extra: Vec::new(),
            ..record.entries[0].clone()
        };
        let error = Entry {
            n: 9,
            outcome: Outcome::Error {
                why: "wrong count: slow-one found 351 solutions for n = 9, OEIS A000170 says 352"
                    .into(),
            },
            solutions: Some(351),
            ..timed.clone()
        };
        let over = Entry {
            n: 10,
            outcome: Outcome::OverBudget {
                why: "one run took 0.90 s, over the 0.50 s limit".into(),
            },
            ..timed.clone()
        };
        record.entries.extend([timed, error, over]);
        vec![Source {
            newer_code: Default::default(),
            label: "bench-results/fixture.json".into(),
            record,
        }]
    }

    #[test]
    fn the_same_records_give_the_same_bytes_even_after_a_round_trip() {
        let sources = two_solver_sources();
        let first = Outputs::of(generate(
            "queens report bench-results/fixture.json",
            &sources,
            None,
            &analysis(),
            &Trees::default(),
            &PageInputs::default(),
        ));
        let dir = tempfile::tempdir().unwrap();
        let path = write_new(dir.path(), "bench", &sources[0].record).unwrap();
        let reread = vec![Source {
            newer_code: Default::default(),
            label: "bench-results/fixture.json".into(),
            record: read(&path).unwrap(),
        }];
        let second = Outputs::of(generate(
            "queens report bench-results/fixture.json",
            &reread,
            None,
            &analysis(),
            &Trees::default(),
            &PageInputs::default(),
        ));
        assert_eq!(first.comparison, second.comparison);
        assert_eq!(first.time_plot, second.time_plot);
        assert_eq!(first.nodes_plot, second.nodes_plot);
        assert_eq!(first.find_plot, second.find_plot);
        assert_eq!(first.page, second.page);
        assert_eq!(
            readme_section(&sources, "bench-results/"),
            readme_section(&reread, "bench-results/")
        );
    }

    #[test]
    fn the_instructions_go_beside_the_times_in_both_outputs() {
        let counted = crate::inputs::InstructionsSource {
            label: "bench-results/x-instructions.json".into(),
            record: queens_record::fixtures::sample_instructions(),
        };
        let outputs = Outputs::of(generate(
            "queens report bench-results/fixture.json bench-results/x-instructions.json",
            &two_solver_sources(),
            Some(&counted),
            &analysis(),
            &Trees::default(),
            &PageInputs::default(),
        ));
        for text in [&outputs.comparison, &outputs.page] {
            assert!(text.contains("Instructions per solution and per node"));
            assert!(text.contains("bench-results/x-instructions.json"));
        }
        assert!(outputs.page.contains("id=\"instructions-table\""));
        assert!(outputs.page.contains("id=\"nodes-table\""));
        // The node table replaces the old list: every solver once.
        assert!(!outputs.comparison.contains("What one node is:"));
        assert!(outputs.comparison.contains("| slow-one | a permutation |"));
        // Without an instructions record, the section says how to make one.
        let without = outputs_of(&two_solver_sources()).comparison;
        assert!(without.contains("make one with `scripts/instructions`"));
    }

    #[test]
    fn the_report_names_its_command_and_shows_every_kind_of_entry() {
        let outputs = Outputs::of(generate(
            "queens report bench-results/fixture.json",
            &two_solver_sources(),
            None,
            &analysis(),
            &Trees {
                n: 8,
                profiles: vec![
                    ("three-mask", vec![1, 8, 42, 140, 344, 568, 550, 312, 92]),
                    ("slow-one", vec![1, 8, 42, 140, 344, 568, 550, 312, 92]),
                    ("halved", vec![1, 4, 21, 70, 172, 284, 275, 156, 46]),
                ],
            },
            &PageInputs::default(),
        ));
        let text = &outputs.comparison;
        // The trees beside the record's cost per node: one letter per tree.
        assert!(
            text.contains("## One tree, different costs (n = 8)"),
            "{text}"
        );
        assert!(
            text.contains("| three-mask | 1 | 8 | 42 | 140 | 344 | 568 | 550 | 312 | 92 | 2,057 | A | 2,057 | 41.0 µs | 19.9 |"),
            "{text}"
        );
        assert!(text.contains("| 1,029 | B | - | - | - |"), "{text}");
        let first_line = text.lines().next().unwrap();
        assert!(first_line.contains("Generated by `queens report bench-results/fixture.json`"));
        assert!(first_line.contains("Do not edit by hand"));
        // Ranked cold: three-mask is fastest at n = 8 (41.0 µs against
        // 164 µs cold; 14.0 against 56.0 µs warm).
        assert!(text.contains("**41.0 µs (1.00×)**"), "{text}");
        assert!(text.contains("164 µs (4.00×)"), "{text}");
        assert!(text.contains("2,057 × 19.9"), "{text}");
        // Both figures side by side, and why the branch misses are absent.
        assert!(text.contains("| 19.9 / 6.81 | 79.7 / 27.2 |"), "{text}");
        assert!(
            text.contains("are absent: perf_event_open failed"),
            "{text}"
        );
        // The summary ranks at the one n both reached, and says which.
        assert!(text.contains("| × fastest at n = 8 (all 2) |"), "{text}");
        assert!(text.contains("| slow-one | 4.00× | 164 µs |"), "{text}");
        assert!(text.contains("| 9 |  | **error** |"), "{text}");
        assert!(text.contains("says 352"), "{text}");
        assert!(text.contains("over budget at n = 10"), "{text}");
        assert!(
            text.contains("peak_level_bytes") && text.contains("4,096"),
            "{text}"
        );
        assert!(text.contains("Three masks per rank."));
        assert!(
            text.contains("not in the registry"),
            "slow-one has no analysis: {text}"
        );
        assert!(outputs.time_plot.starts_with("<svg") && outputs.time_plot.contains("slow-one"));
        assert!(outputs.nodes_plot.contains("three-mask"));
    }

    #[test]
    fn a_later_record_replaces_an_earlier_entry_for_the_same_solver_and_n() {
        let mut sources = two_solver_sources();
        let mut later = sources[0].record.clone();
        later.entries.truncate(1);
        if let Outcome::Timed { warm, cold } = &mut later.entries[0].outcome {
            *warm = one_sample(7_000.0).unwrap();
            *cold = cold.map(|t| Timing {
                median_ns: 7_000.0,
                min_ns: 7_000.0,
                ..t
            });
        }
        sources.push(Source {
            newer_code: Default::default(),
            label: "later.json".into(),
            record: later,
        });
        let overlay = Overlay::from_sources(&sources);
        assert_eq!(overlay.median_ns("three-mask", 8), Some(7_000.0));
        assert_eq!(overlay.median_ns("slow-one", 8), Some(164_000.0));
    }

    #[test]
    fn a_gpu_engines_row_names_its_device() {
        let mut sources = two_solver_sources();
        sources[0].record.solvers[1].accelerator = Some(queens_core::Accelerator {
            name: "Some GPU".into(),
            driver: "1.0".into(),
            backend: "vulkan".into(),
            software: false,
        });
        let section = readme_section(&sources, "bench-results/");
        assert!(section.contains("| slow-one (on Some GPU) |"), "{section}");
        assert!(section.contains("| three-mask |"), "{section}");
    }

    /// As git would tell it: `kept` last changed in a commit the record of
    /// `source` contains, `changed.0` in one it does not (its hash the
    /// digit `changed.1` written forty times).
    fn code_changes(source: &Source, kept: &str, changed: (&str, char)) -> crate::CodeChanges {
        let measured_at = source.record.provenance.git_commit.clone().unwrap();
        crate::CodeChanges::from([
            (
                kept.to_string(),
                crate::CodeChange {
                    commit: "1".repeat(40),
                    contained_in: [measured_at].into(),
                },
            ),
            (
                changed.0.to_string(),
                crate::CodeChange {
                    commit: changed.1.to_string().repeat(40),
                    contained_in: Default::default(),
                },
            ),
        ])
    }

    #[test]
    fn rows_measured_before_their_solvers_code_changed_say_so() {
        let mut sources = two_solver_sources();
        let code = code_changes(&sources[0], "three-mask", ("slow-one", '2'));
        sources[0].newer_code = crate::inputs::stale_solvers(&sources[0].record, &code);
        let section = readme_section(&sources, "bench-results/");
        assert!(
            section
                .contains("| slow-one (measured before its code changed in 222222222222: rerun) |"),
            "{section}"
        );
        assert!(section.contains("| three-mask |"), "{section}");
        // A later record that covers slow-one and contains the change
        // clears the flag; one without a commit cannot say, and flags nothing.
        let mut later = sources[0].record.clone();
        later.solvers.retain(|s| s.id == "slow-one");
        later.entries.retain(|e| e.solver == "slow-one");
        later.provenance.git_commit = Some("3333333333333333333333333333333333333333".into());
        let mut code_later = code.clone();
        code_later
            .get_mut("slow-one")
            .unwrap()
            .contained_in
            .insert("3333333333333333333333333333333333333333".into());
        sources.push(Source {
            newer_code: crate::inputs::stale_solvers(&later, &code_later),
            label: "later.json".into(),
            record: later.clone(),
        });
        assert!(!readme_section(&sources, "bench-results/").contains("measured before"));
        later.provenance.git_commit = None;
        assert!(crate::inputs::stale_solvers(&later, &code).is_empty());
    }

    #[test]
    fn finder_rows_measured_before_their_code_changed_say_so() {
        let mut sources = found_sources();
        let code = code_changes(&sources[0], "construction", ("min-conflicts", '4'));
        sources[0].newer_code = crate::inputs::stale_solvers(&sources[0].record, &code);
        let comparison = outputs_of(&sources).comparison;
        let section = comparison.split("## Find one board").nth(1).unwrap();
        assert!(
            section.contains(
                "| min-conflicts (measured before its code changed in 444444444444: rerun) |"
            ),
            "{section}"
        );
        assert!(section.contains("| construction |"), "{section}");
        // Without git's word nothing is flagged.
        assert!(
            !outputs_of(&found_sources())
                .comparison
                .contains("measured before")
        );
    }

    fn found_sources() -> Vec<Source> {
        vec![Source {
            newer_code: Default::default(),
            label: "bench-results/fixture.json".into(),
            record: queens_record::fixtures::find_record(),
        }]
    }

    fn found_outputs() -> Outputs {
        outputs_of(&found_sources())
    }

    fn outputs_of(sources: &[Source]) -> Outputs {
        Outputs::of(generate(
            "queens report bench-results/fixture.json",
            sources,
            None,
            &analysis(),
            &Trees::default(),
            &PageInputs::default(),
        ))
    }

    #[test]
    fn a_counting_table_never_shows_a_finder_row() {
        let with = found_outputs();
        let without = outputs_of(&without_sources());
        // Everything before the finders' section is the same with or
        // without them: three-mask's first board (1.00 µs cold at n = 8)
        // never stands in for its count (41.0 µs), and no finder has a row.
        let counts = |text: &str| text.split("## Find one board").next().unwrap().to_string();
        assert_eq!(counts(&with.comparison), counts(&without.comparison));
        for finder in ["construction", "min-conflicts"] {
            assert!(!counts(&with.comparison).contains(finder), "{finder}");
        }
        assert_eq!(with.time_plot, without.time_plot);
        assert_eq!(with.nodes_plot, without.nodes_plot);
        assert_eq!(
            readme_section(&found_sources(), "bench-results/"),
            readme_section(&without_sources(), "bench-results/")
        );
    }

    fn without_sources() -> Vec<Source> {
        vec![Source {
            newer_code: Default::default(),
            label: "bench-results/fixture.json".into(),
            record: queens_record::fixtures::sample_record(),
        }]
    }

    #[test]
    fn the_finders_section_shows_time_and_steps_by_n_and_its_plot() {
        let outputs = found_outputs();
        let text = &outputs.comparison;
        let section = text.split("## Find one board").nth(1).unwrap();
        let section = section.split("\n## ").next().unwrap();
        assert!(section.contains("seed 1."), "{section}");
        assert!(section.contains("(find-vs-n.svg)"), "{section}");
        // Rows by n, columns by finder in the records' order; times cold
        // (twice the warm in the fixture), then the steps.
        assert!(
            section.contains("| n | construction | min-conflicts | three-mask |"),
            "{section}"
        );
        assert!(
            section.contains("| 8 | 100 ns | 4.00 µs | 1.00 µs |"),
            "{section}"
        );
        assert!(
            section.contains("| 1,000,000 | 4.00 ms | over budget |  |"),
            "{section}"
        );
        assert!(section.contains("| 8 | 8 | 30 | 114 |"), "{section}");
        // Its memory and cost per step at the largest n it was timed at.
        assert!(
            section
                .contains("| construction | a queen written | 3.81 MiB (n = 1,000,000) | 4.00 |"),
            "{section}"
        );
        assert!(section.contains("Errors: none"), "{section}");
        // The plot: log-log, every finder with its own line.
        let plot = outputs.find_plot.as_ref().unwrap();
        assert!(plot.starts_with("<svg xmlns"), "{plot}");
        assert!(plot.contains("n (board size, log scale)"));
        for finder in ["construction", "min-conflicts", "three-mask"] {
            assert!(
                plot.contains(&format!("data-solver=\"{finder}\"")),
                "{finder}"
            );
        }
        assert!(
            plot.contains(">1,000,000</text>"),
            "a tick per power of ten"
        );
        assert!(
            plot.contains("construction, n = 1000000: 4.00 ms"),
            "{plot}"
        );
    }

    #[test]
    fn a_wrong_board_is_listed_as_an_error_and_not_drawn() {
        let mut sources = found_sources();
        let entry = sources[0]
            .record
            .entries
            .iter_mut()
            .find(|e| e.question == queens_record::FIND_ONE && e.n == 1_000_000)
            .unwrap();
        *entry = Entry {
            outcome: Outcome::Error {
                why: "wrong board: construction (n = 1000000, seed 1): not a solution".into(),
            },
            ..entry.clone()
        };
        assert_eq!(queens_record::meaning::check(&sources[0].record), Ok(()));
        let outputs = outputs_of(&sources);
        let text = &outputs.comparison;
        assert!(
            text.contains("| 1,000,000 | **error** | over budget |  |"),
            "{text}"
        );
        assert!(
            text.contains("- construction at n = 1,000,000: wrong board: construction"),
            "{text}"
        );
        assert!(
            !outputs
                .find_plot
                .unwrap()
                .contains("construction, n = 1000000")
        );
    }

    #[test]
    fn markup_in_a_records_text_reaches_no_output_raw() {
        let mut sources = found_sources();
        let script = "<script>alert(1)</script>";
        let record = &mut sources[0].record;
        let p = &mut record.provenance;
        for text in [&mut p.cpu_model, &mut p.os, &mut p.rustc] {
            *text = format!("{text} {script}");
        }
        // The command is shown as code, where markup is inert: a backtick
        // of its own ends that early, and what follows is text.
        p.command = format!("{} `{script}", p.command);
        record.solvers[0].node = script.into();
        record.finders[0].step = script.into();
        record.settings.branch_misses_unavailable = Some(script.into());
        let entry = record
            .entries
            .iter_mut()
            .find(|e| e.n == 1_000_000)
            .unwrap();
        entry.outcome = Outcome::Error { why: script.into() };
        let outputs = outputs_of(&sources);
        let text = &outputs.comparison;
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;";
        // command, cpu_model, os, rustc, node, step, the branch misses'
        // reason and the error (in the list and in the table).
        assert_eq!(text.matches(escaped).count(), 8, "{text}");
        for output in [text, &outputs.page, &outputs.time_plot] {
            assert!(!output.contains(script), "{output}");
        }
    }

    /// The fixture with an external program beside three-mask, timed at
    /// n = 8 (1.20 ms cold, its start-up bound) with no nodes and no heap,
    /// as `queens compare --external` records one.
    fn external_sources() -> Vec<Source> {
        let mut sources = without_sources();
        let record = &mut sources[0].record;
        record.solvers.push(SolverFacts {
            id: "c-three-mask".into(),
            node: "none: an external program is timed whole (process start-up included)".into(),
            max_n: 16,
            enumerates: false,
            accelerator: None,
            external: Some(queens_record::ExternalFacts {
                config: "examples/external/externals.toml".into(),
                command: "./three-mask {n}".into(),
                build: Some("cc -O2 -o three-mask three_mask.c".into()),
                build_output: None,
                version: Some("cc 12 <script>alert(1)</script>".into()),
                program: "three-mask".into(),
                program_sha256: "0123456789abcdef".repeat(4),
                startup_ns: Some(1_200_000),
                startup_n: Some(8),
            }),
        });
        let cold = one_sample(1_200_000.0).map(|t| Timing { samples: 3, ..t });
        record.entries.push(Entry {
            solver: "c-three-mask".into(),
            outcome: Outcome::Timed {
                warm: one_sample(1_100_000.0).unwrap(),
                cold,
            },
            nodes: None,
            extra: Vec::new(),
            peak_heap_bytes: None,
            ..record.entries[0].clone()
        });
        assert_eq!(queens_record::meaning::check(record), Ok(()));
        sources
    }

    #[test]
    fn an_external_programs_rows_are_marked_with_its_start_up_and_provenance() {
        // Texts under the external's id, as a registry that knew it would
        // give: the report must not take them.
        let mut analyses = analysis();
        analyses.insert("c-three-mask", "REGISTRY ANALYSIS");
        let inputs = PageInputs {
            teachings: BTreeMap::from([("c-three-mask", "REGISTRY TEACHING")]),
            ..PageInputs::default()
        };
        let outputs = Outputs::of(generate(
            "queens report bench-results/fixture.json",
            &external_sources(),
            None,
            &analyses,
            &Trees::default(),
            &inputs,
        ));
        let text = &outputs.comparison;
        // Marked in the summary and in the per-n tables, with a dash where
        // nodes are needed: 1.20 ms against 41.0 µs.
        assert!(
            text.contains(
                "| c-three-mask (external) | 29.3× | 1.20 ms | — | 8 | the run's largest n |"
            ),
            "{text}"
        );
        assert!(
            text.contains("| n | three-mask | c-three-mask (external) |"),
            "{text}"
        );
        assert!(text.contains("| 8 | **41.0 µs (1.00×)** | 1.20 ms (29.3×) |"));
        // No nodes (nor heap) to show: a dash, in every table that needs them.
        for row in [
            "| 8 | 2,057 × 19.9 | — |",
            "| 8 | 19.9 / 6.81 | — |",
            "| 8 | 143 B | — |",
        ] {
            assert!(text.contains(row), "{row}: {text}");
        }
        let note = "Rows marked (external) are programs outside this workspace, timed whole, \
                    process start-up included: c-three-mask's time at n = 8, 1.20 ms, bounds \
                    its start-up. They can be reproduced only from the config file named in the \
                    record (`examples/external/externals.toml`); nothing in a record is ever run.";
        assert_eq!(text.matches(note).count(), 1, "{text}");
        // The README's summary, the same.
        let readme = readme_section(&external_sources(), "");
        assert!(readme.contains("| c-three-mask (external) |") && readme.contains(note));
        // Its provenance stands in for the registry's texts.
        let provenance = "### c-three-mask (external)\n\nAn external program, not in the \
                          registry: `./three-mask {n}` from `examples/external/externals.toml`, \
                          built by `cc -O2 -o three-mask three_mask.c`, version \
                          `cc 12 <script>alert(1)</script>`; the file it ran, `three-mask`, has \
                          SHA-256 0123456789ab….";
        assert!(text.contains(provenance), "{text}");
        let page = &outputs.page;
        for output in [text, page] {
            assert!(!output.contains("REGISTRY"), "{output}");
        }
        assert!(
            page.contains("<a href=\"#solver-c-three-mask\">c-three-mask (external)</a>"),
            "{page}"
        );
        assert!(page.contains("<h3>c-three-mask (external)</h3>"), "{page}");
        assert!(
            page.contains(
                "<td>1.20 ms</td><td>1.10 ms</td><td>—</td><td>—</td><td>—</td><td>—</td></tr>"
            ),
            "{page}"
        );
        assert!(
            page.contains("bounds its start-up. They can be reproduced only from the config"),
            "{page}"
        );
        assert!(page.contains("SHA-256 0123456789ab…"), "{page}");
        assert!(!page.contains("<script>alert"), "{page}");
        // Nothing to watch: the built-in solver's part links the player,
        // the external's does not.
        assert!(page.contains("data-watch=\"three-mask\""));
        assert!(!page.contains("data-watch=\"c-three-mask\""));
        // The plots name it marked, and switch it by its id.
        assert!(
            outputs
                .time_plot
                .contains(">c-three-mask (external)</text>"),
            "{}",
            outputs.time_plot
        );
        assert!(
            outputs
                .time_plot
                .contains("<title>c-three-mask (external), n = 8: 1.20 ms</title>")
        );
        assert!(page.contains("data-solver=\"c-three-mask\""));
        assert!(
            !outputs.nodes_plot.contains("c-three-mask"),
            "no nodes, no line"
        );
    }

    #[test]
    fn an_external_never_timed_says_so_and_a_shared_config_is_named_once() {
        let mut solvers = external_sources().remove(0).record.solvers;
        let mut untimed = solvers[1].clone();
        untimed.id = "py-count".into();
        let facts = untimed.external.as_mut().unwrap();
        (facts.startup_ns, facts.startup_n) = (None, None);
        solvers.push(untimed);
        let note = crate::external::note(&solvers).unwrap();
        assert!(
            note.contains("1.20 ms, bounds its start-up; py-count was never timed. "),
            "{note}"
        );
        assert_eq!(note.matches("externals.toml").count(), 1, "{note}");
    }

    #[test]
    fn records_without_externals_say_nothing_of_them() {
        let outputs = outputs_of(&two_solver_sources());
        for output in [&outputs.comparison, &outputs.page, &outputs.time_plot] {
            for word in ["(external)", "start-up", "ever run", "SHA-256"] {
                assert!(!output.contains(word), "{word}");
            }
        }
    }

    #[test]
    fn records_without_finders_say_so() {
        let outputs = outputs_of(&without_sources());
        assert!(
            outputs
                .comparison
                .contains("## Find one board\n\nThese records time no finder")
        );
        assert!(outputs.page.contains("These records time no finder"));
        assert_eq!(outputs.find_plot, None, "no plot of nothing");
    }
}
