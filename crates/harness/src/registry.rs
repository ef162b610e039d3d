//! The one list of solvers, and beside it the one list of finders (the
//! other question: one board, not all). Adding a solver or a finder means
//! adding its crate to the workspace (`members` and
//! `[workspace.dependencies]`), and its line here (in `SOLVERS` and, at its
//! place in the walk-through, in `LESSONS`; with its dependency line in this
//! crate's Cargo.toml); nothing else in the harness names a particular
//! solver or finder.

use itertools::Itertools;
use queens_core::find::FirstBoard;
use std::collections::BTreeMap;
use std::path::Path;

use queens_core::{Finder, FinderInfo, Solver, SolverInfo, printable};
use queens_measure::external;
use queens_report::page::{Image, Order, Walk};

use crate::error::CliError;

/// Every registered solver, fastest first: when no `--solver` is given, the
/// harness picks the first one that can do the job (see `bench-results/` for
/// the measurements behind this order).
pub static SOLVERS: &[&dyn Solver] = &[
    &queens_half_join::HALF_JOIN,
    &queens_constellations::CONSTELLATIONS,
    &queens_three_mask::ThreeMaskMirror,
    &queens_three_mask::ThreeMask,
    &queens_threat_mask::THREAT_MASK,
    &queens_threat_mask::THREAT_MASK_U128,
    &queens_textbook::Textbook,
    &queens_row_fold::RowFold,
    &queens_base_counting::BaseCounting,
    &queens_perm_filter::PERM_FILTER,
    &queens_perm_filter::PERM_FILTER_ITERTOOLS,
    // Last, out of the speed order: whether it can run at all depends on
    // the machine (a GPU adapter), and on a software driver it is the
    // slowest of all, so it is never the default; name it with --solver.
    &queens_gpu::GPU_CONSTELLATIONS,
];

/// Every registered solver in the order the walk-through
/// (docs/ALGORITHMS.md) teaches them, simplest first, each variant beside
/// the solver it varies: the order the report's page lists them in. The GPU
/// engine, which the walk-through does not teach, comes last.
pub static LESSONS: &[&dyn Solver] = &[
    &queens_perm_filter::PERM_FILTER,
    &queens_perm_filter::PERM_FILTER_ITERTOOLS,
    &queens_base_counting::BaseCounting,
    &queens_textbook::Textbook,
    &queens_row_fold::RowFold,
    &queens_threat_mask::THREAT_MASK,
    &queens_threat_mask::THREAT_MASK_U128,
    &queens_three_mask::ThreeMask,
    &queens_three_mask::ThreeMaskMirror,
    &queens_constellations::CONSTELLATIONS,
    &queens_half_join::HALF_JOIN,
    &queens_gpu::GPU_CONSTELLATIONS,
];

/// How each solver that walks the tree of safe boards walks it against
/// three-mask (the walk-through's table in "One tree, different costs"):
/// what the page's player aligns panes by, and what the one-tree test
/// checks against every solver's trace.
pub fn tree_walk(id: &str) -> Option<Walk> {
    let (image, order) = match id {
        "three-mask" | "threat-mask" | "threat-mask-u128" | "textbook" => {
            (Image::Same, Order::DepthFirst)
        }
        "three-mask-mirror" => (Image::Same, Order::DepthFirstHalf),
        "base-counting" => (Image::Transposed, Order::DepthFirst),
        "row-fold" => (Image::TransposedMirrored, Order::BreadthFirst),
        _ => return None,
    };
    Some(Walk { image, order })
}

/// The ids of [`LESSONS`], in its order.
pub fn teaching_order() -> Vec<&'static str> {
    LESSONS.iter().map(|s| s.info().id).collect()
}

/// The built-in solvers and the external programs of `config` that
/// `names` (`--solver`) select: all of the solvers when no built-in one is
/// named (none when only externals are), all of the externals when none of
/// them is named. The externals are read and checked, not yet built.
pub fn select_with(
    names: &[String],
    config: Option<&Path>,
) -> Result<(Vec<&'static dyn Solver>, Vec<external::Spec>), CliError> {
    let specs = match config {
        Some(path) => external::config::read(path, &subject_ids())?,
        None => Vec::new(),
    };
    let (named, built_in): (Vec<String>, Vec<String>) =
        (names.iter().cloned()).partition(|id| specs.iter().any(|spec| &spec.id == id));
    let specs = (specs.into_iter())
        .filter(|spec| named.is_empty() || named.contains(&spec.id))
        .collect();
    let solvers = match (built_in.is_empty(), named.is_empty()) {
        (true, false) => Vec::new(),
        _ => select(&built_in)?,
    };
    Ok((solvers, specs))
}

/// The external programs `specs` of `config` built, each to run on one
/// thread and be killed at `limit`; none without a config or specs.
pub fn prepare_externals(
    config: Option<&Path>,
    specs: Vec<external::Spec>,
    limit: std::time::Duration,
) -> Result<Vec<external::Program>, CliError> {
    match config {
        Some(path) if !specs.is_empty() => Ok(external::prepare(
            path,
            specs,
            external::Setup { threads: 1, limit },
        )?),
        _ => Ok(Vec::new()),
    }
}

/// Looks a solver up by id, or says which ids exist.
pub fn find(id: &str) -> Result<&'static dyn Solver, CliError> {
    by_id(SOLVERS, id, |s| s.info().id, "solver")
}

/// Looks a finder up by id, or says which ids exist.
pub fn find_finder(id: &str) -> Result<&'static dyn Finder, CliError> {
    by_id(FINDERS, id, |f| f.info().id, "finder")
}

/// The member of `list` whose id (`id_of`) is `id`, or one line naming
/// the ids of the `kind`s there are.
fn by_id<T: ?Sized>(
    list: &[&'static T],
    id: &str,
    id_of: fn(&T) -> &'static str,
    kind: &str,
) -> Result<&'static T, CliError> {
    list.iter()
        .copied()
        .find(|x| id_of(x) == id)
        .ok_or_else(|| {
            CliError::Input(format!(
                "unknown {kind} '{}'; known {kind}s: {}",
                printable(id),
                list.iter().map(|x| id_of(x)).join(", ")
            ))
        })
}

/// Every registered solver's `text` by id: its analysis (ANALYSIS.md),
/// what the report prints beside the solver's numbers, or its teaching
/// text (README), what the report's HTML page shows beside them.
pub fn texts(text: fn(&SolverInfo) -> &'static str) -> BTreeMap<&'static str, &'static str> {
    SOLVERS
        .iter()
        .map(|s| (s.info().id, text(s.info())))
        .collect()
}

/// The trees the depth-first solvers walk on the n×n board (see
/// `Solver::tree_profile`), in registry order: what the report puts beside
/// their cost per node.
pub fn trees(n: usize) -> Result<queens_report::Trees<'static>, CliError> {
    let mut profiles = Vec::new();
    for solver in SOLVERS.iter().filter(|s| s.info().supports(n)) {
        if let Some(profile) = solver.tree_profile(n)? {
            profiles.push((solver.info().id, profile));
        }
    }
    Ok(queens_report::Trees { n, profiles })
}

/// The ids of the solvers that split their work into units (and so run
/// on threads, in shards and from checkpoints), or "none".
pub fn splitting_ids() -> Vec<&'static str> {
    let ids: Vec<&'static str> = SOLVERS
        .iter()
        .filter(|s| s.work_split().is_some())
        .map(|s| s.info().id)
        .collect();
    if ids.is_empty() { vec!["none"] } else { ids }
}

/// The solvers of `solvers` that can be run here, and a note for each left
/// out (the run goes on without it and does not fail; the command prints
/// the notes with its output, so that stderr keeps its one line for a
/// failure): a solver whose device this machine lacks, and, when `timing`,
/// one whose device is a software driver (its counts are exact, so
/// `verify` keeps it, but its times are an emulation's on the CPU and are
/// not set beside the CPU solvers' as if they were a GPU's).
pub fn usable(
    solvers: Vec<&'static dyn Solver>,
    timing: bool,
) -> (Vec<&'static dyn Solver>, String) {
    let mut notes = Vec::new();
    let kept = solvers
        .into_iter()
        .filter(|solver| {
            let id = solver.info().id;
            match solver.accelerator() {
                Err(missing) => notes.push(format!("{missing} (skipped)")),
                Ok(Some(device)) if timing && device.software => notes.push(format!(
                    "{id} not timed: {device} is not a GPU (its counts are checked by `queens verify`)"
                )),
                Ok(_) => return true,
            }
            false
        })
        .collect();
    let notes = notes.iter().map(|line| format!("note: {line}\n")).collect();
    (kept, notes)
}

/// The solvers named by `--solver` (all of them when none is named).
pub fn select(ids: &[String]) -> Result<Vec<&'static dyn Solver>, CliError> {
    if ids.is_empty() {
        return Ok(SOLVERS.to_vec());
    }
    ids.iter().map(|id| find(id)).collect()
}

/// The named solver, or the fastest that supports n and, if `must_enumerate`,
/// can list boards. The error for a named solver is its own limit message.
pub fn choose(
    id: Option<&str>,
    n: usize,
    must_enumerate: bool,
) -> Result<&'static dyn Solver, CliError> {
    if let Some(id) = id {
        let solver = find(id)?;
        solver.info().check_n(n)?;
        if must_enumerate && !solver.info().enumerates {
            return Err(queens_core::QueensError::CannotEnumerate {
                solver: solver.info().id,
            }
            .into());
        }
        return Ok(solver);
    }
    let able = || (SOLVERS.iter().copied()).filter(|s| s.info().enumerates || !must_enumerate);
    if let Some(solver) = able().find(|s| s.info().supports(n)) {
        return Ok(solver);
    }
    let largest = able().map(|s| s.info().max_n).max().unwrap_or(0);
    // Listing stops where the solvers do; one board does not.
    let one_board = if must_enumerate {
        format!(" (`queens find {n}` finds one board of any size)")
    } else {
        String::new()
    };
    Err(CliError::Input(format!(
        "no registered solver supports n = {n}; the largest supported n is {largest}{one_board}"
    )))
}

/// Every registered finder, the default first: when no `--solver` is
/// given, `queens find` takes the first that supports n. The depth-first
/// solvers that list boards are here too, stopped at their first board
/// (the same id, the same search, through [`FirstBoard`]).
pub static FINDERS: &[&dyn Finder] = &[
    &queens_construction::CONSTRUCTION,
    &queens_min_conflicts::MIN_CONFLICTS,
    &queens_fail_first::FAIL_FIRST,
    &FirstBoard::new(&queens_three_mask::ThreeMask, &queens_three_mask::INFO),
    &FirstBoard::new(&queens_textbook::Textbook, &queens_textbook::INFO),
];

/// How `cargo bench` and `queens compare` climb n for a finder: a search
/// (fail-first, and a depth-first solver stopped at its first board) by
/// every even n to 32, where its time jumps erratically; one that writes or
/// repairs a board (construction, min-conflicts) by powers of ten.
pub fn find_climb(finder: &dyn Finder) -> queens_measure::find::Climb {
    use queens_measure::find::Climb;
    let id = finder.info().id;
    let first_board = SOLVERS.iter().any(|s| s.info().id == id);
    if first_board || id == queens_fail_first::FAIL_FIRST.info().id {
        Climb::Search
    } else {
        Climb::Decades
    }
}

/// The finders named (all of them when none is, nothing for "none"), each
/// with the sizes it climbs ([`find_climb`]).
pub fn timed_finders(ids: &[String]) -> Result<Vec<queens_measure::find::TimedFinder>, CliError> {
    let finders: Vec<&'static dyn Finder> = match ids {
        [] => FINDERS.to_vec(),
        [none] if none == "none" => Vec::new(),
        ids => ids
            .iter()
            .map(|id| find_finder(id))
            .collect::<Result<_, _>>()?,
    };
    Ok(finders
        .into_iter()
        .map(|f| (f, queens_measure::find::sizes(f, find_climb(f))))
        .collect())
}

/// The named finder, or the first that supports n. The error for a named
/// finder is its own limit message.
pub fn choose_finder(id: Option<&str>, n: usize) -> Result<&'static dyn Finder, CliError> {
    let finder = match id {
        Some(id) => find_finder(id)?,
        None => FINDERS
            .iter()
            .copied()
            .find(|f| f.info().supports(n))
            .unwrap_or(FINDERS[0]),
    };
    finder.info().check_n(n)?;
    Ok(finder)
}

/// One registered id, each once: a solver, a finder, or both (a
/// depth-first solver stopped at its first board is a finder of the same
/// id, with the same README). What `list` and `explain` show of it.
#[derive(Clone, Copy)]
pub struct Subject {
    /// Its id, idea, seed, limit and teaching text: a finder's own, or a
    /// solver's as its first board is found ([`FirstBoard`] makes them).
    pub info: FinderInfo,
    /// The solver's reading of its numbers (Markdown; empty for a finder).
    pub analysis: &'static str,
    /// The solver of this id, if there is one.
    pub solver: Option<&'static dyn Solver>,
    /// Whether a finder has this id.
    pub finds: bool,
}

impl Subject {
    /// The solver or finder `id`, or one line naming the ids there are.
    pub fn find(id: &str) -> Result<Subject, CliError> {
        let subject = subjects().into_iter().find(|s| s.info.id == id);
        subject.ok_or_else(|| {
            CliError::Input(format!(
                "unknown solver or finder '{}'; known: {}",
                printable(id),
                subject_ids().join(", ")
            ))
        })
    }

    /// The questions it answers, for `queens list`: "count", "list" (a
    /// solver that enumerates) and "find" (a finder of that id).
    pub fn questions(&self) -> String {
        let mut answers = Vec::new();
        if let Some(solver) = self.solver {
            answers.push("count");
            if solver.info().enumerates {
                answers.push("list");
            }
        }
        if self.finds {
            answers.push("find");
        }
        answers.join(",")
    }
}

/// Every registered solver, then every finder that is not also a solver.
pub fn subjects() -> Vec<Subject> {
    let finds = |id: &str| FINDERS.iter().any(|f| f.info().id == id);
    let mut all: Vec<Subject> = (SOLVERS.iter())
        .map(|&solver| Subject {
            info: *FirstBoard::new(solver, solver.info()).info(),
            analysis: solver.info().analysis,
            solver: Some(solver),
            finds: finds(solver.info().id),
        })
        .collect();
    for finder in FINDERS {
        if !all.iter().any(|s| s.info.id == finder.info().id) {
            all.push(Subject {
                info: *finder.info(),
                analysis: "",
                solver: None,
                finds: true,
            });
        }
    }
    all
}

/// Every id of [`subjects`], in their order.
pub fn subject_ids() -> Vec<&'static str> {
    subjects().iter().map(|s| s.info.id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plots_tell_every_registered_solver_apart() {
        // Each solver's line has its own dash only up to this many
        // solvers: one more needs another dash in the report's styles.
        assert!(
            SOLVERS.len() <= queens_report::DISTINCT_STYLES,
            "{} solvers, {} distinct plot styles",
            SOLVERS.len(),
            queens_report::DISTINCT_STYLES
        );
    }

    #[test]
    fn the_lessons_hold_every_solver_once() {
        let mut taught = teaching_order();
        let mut registered: Vec<&str> = SOLVERS.iter().map(|s| s.info().id).collect();
        taught.sort_unstable();
        registered.sort_unstable();
        assert_eq!(taught, registered);
    }

    #[test]
    fn every_solver_and_finder_is_one_subject_solvers_first() {
        let ids = subject_ids();
        let solvers: Vec<&str> = SOLVERS.iter().map(|s| s.info().id).collect();
        assert_eq!(ids[..solvers.len()], solvers[..]);
        for finder in FINDERS {
            let id = finder.info().id;
            assert_eq!(ids.iter().filter(|&&known| known == id).count(), 1, "{id}");
        }
        let answers = |id: &str| Subject::find(id).unwrap().questions();
        assert_eq!(answers("three-mask"), "count,list,find");
        assert_eq!(answers("half-join"), "count");
        assert_eq!(answers("construction"), "find");
        assert_eq!(Subject::find("construction").unwrap().analysis, "");
        let unknown = Subject::find("nope").map(drop).unwrap_err().to_string();
        assert!(unknown.contains("known: half-join,"), "{unknown}");
    }

    #[test]
    fn an_unknown_solver_or_finder_is_refused_naming_the_known_ones() {
        let solver = find("nope").map(drop).unwrap_err().to_string();
        assert!(solver.starts_with("unknown solver 'nope'; known solvers: half-join, "));
        let finder = find_finder("x\ny").map(drop).unwrap_err().to_string();
        assert!(finder.starts_with("unknown finder 'x\\ny'; known finders: construction, "));
        assert_eq!(find("textbook").unwrap().info().id, "textbook");
        assert_eq!(find_finder("fail-first").unwrap().info().id, "fail-first");
    }

    #[test]
    fn searches_climb_by_even_n_and_the_others_by_powers_of_ten() {
        use queens_measure::find::{Climb, sizes};
        let climb = |id: &str| find_climb(find_finder(id).unwrap());
        assert_eq!(climb("construction"), Climb::Decades);
        assert_eq!(climb("min-conflicts"), Climb::Decades);
        assert_eq!(climb("fail-first"), Climb::Search);
        for finder in FINDERS {
            let ns = sizes(*finder, find_climb(*finder));
            assert_eq!(ns.first(), Some(&8), "{}", finder.info().id);
            match find_climb(*finder) {
                // A solver's first board: a search, to 32 at most.
                Climb::Search => assert!(ns.iter().all(|&n| n <= 32 && n % 2 == 0)),
                Climb::Decades => assert!(ns.contains(&10_000_000)),
            }
        }
        assert!(timed_finders(&["none".to_string()]).unwrap().is_empty());
        assert_eq!(timed_finders(&[]).unwrap().len(), FINDERS.len());
    }
}
