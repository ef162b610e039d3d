//! The HTML page in a real browser: headless Chromium (Debian's `chromium`)
//! driven over the DevTools protocol. It loads the page `queens report`
//! writes, checks that every solver's numbers are there, sorts a table,
//! switches a solver off and on in the plots, plays every recorded trace
//! step by step comparing the drawn boards with the trace, drives the player
//! from the keyboard, takes screenshots, and fails on any console error,
//! uncaught exception or request that leaves the file system.
//!
//! Ignored by plain `cargo test` (it needs Chromium): `scripts/browser-test`
//! installs Chromium if it is missing and runs it; CI runs that script.
//! Screenshots go to `$QUEENS_SCREENSHOTS` (default: `target/tmp/browser-screenshots`).

mod cdp;
mod layout;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::common::workspace;
use cdp::Browser;
use queens_harness::{page_traces, registry};
use queens_report::{PAGE_FILE, PageInputs, Request, Trace, publish};
use serde_json::{Value, json};

/// The records the committed COMPARISON.md names on its first line: the
/// page under test is made from the same records as the committed one.
fn committed_records() -> Vec<PathBuf> {
    let comparison = std::fs::read_to_string(workspace().join("bench-results/COMPARISON.md"))
        .expect("bench-results/COMPARISON.md is committed");
    let first = comparison.lines().next().unwrap_or_default();
    let command = first
        .split("`queens report ")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("COMPARISON.md's first line names its records");
    command
        .split_whitespace()
        .map(|path| workspace().join(path))
        .collect()
}

/// The traces the page plays, as `queens report` gathers them: every
/// solver at every n it supports from 4 to 8.
fn traces() -> Vec<Trace> {
    let traces = page_traces::gather().expect("every trace can go on the page");
    for solver in registry::SOLVERS {
        let info = solver.info();
        for n in (page_traces::MIN_N..=page_traces::MAX_N).filter(|&n| info.supports(n)) {
            assert!(
                traces.iter().any(|t| t.solver == info.id && t.n == n),
                "no trace of {} at n = {n} on the page",
                info.id
            );
        }
    }
    traces
}

/// Writes the page as `queens report` does, into `dir`; returns its path.
fn write_page(dir: &Path, traces: &[Trace]) -> PathBuf {
    publish(&Request {
        records: committed_records(),
        out: dir.to_path_buf(),
        splice: Vec::new(),
        analyses: registry::texts(|info| info.analysis),
        trees: registry::trees(queens_harness::cmd::report::TREE_N).expect("the trees"),
        page: PageInputs {
            teachings: registry::texts(|info| info.teaching),
            traces: traces.to_vec(),
            trace_steps: page_traces::PAGE_STEPS,
            order: registry::teaching_order(),
            heatmaps: page_traces::heatmaps().expect("the heatmaps"),
        },
        code: Default::default(),
    })
    .expect("the report is written");
    dir.join(PAGE_FILE)
}

fn screenshots() -> PathBuf {
    let dir = std::env::var_os("QUEENS_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-screenshots"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Where an element is on the page: (x, y, width, height).
fn rect(browser: &mut Browser, selector: &str) -> (f64, f64, f64, f64) {
    let value = browser
        .evaluate(&format!(
            "(() => {{ const r = document.querySelector({}).getBoundingClientRect(); \
             return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }})()",
            json!(selector)
        ))
        .unwrap();
    let v: Vec<f64> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    (v[0], v[1], v[2], v[3].min(4000.0))
}

fn shoot(browser: &mut Browser, name: &str, selector: &str) {
    let path = screenshots().join(name);
    let region = rect(browser, selector);
    browser.screenshot(&path, region).unwrap();
    eprintln!("screenshot {}", path.display());
}

/// `a1`-style names of `[file, rank]` squares, sorted.
fn names(squares: &[[usize; 2]]) -> Vec<String> {
    let mut names: Vec<String> = squares
        .iter()
        .map(|[file, rank]| format!("{}{}", (b'a' + *file as u8) as char, rank + 1))
        .collect();
    names.sort();
    names
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// What pane `index` draws now: its solver, its queens and attacked squares
/// (sorted names), and its node counter's text.
const PANE_JS: &str = "(index) => { const p = document.getElementById('pane-' + index); \
    const squares = (cls) => Array.from(p.querySelectorAll('.board .square.' + cls)).map((s) => s.getAttribute('data-square')).sort(); \
    return { solver: p.querySelector('.pane-solver').value, queens: squares('queen'), attacked: squares('attacked'), conflict: squares('conflict'), \
             refused: squares('refused'), attackers: squares('attacker'), \
             nodes: p.querySelector('.nodes').textContent, solutions: p.querySelector('.solutions').textContent, \
             tree: p.querySelector('.tree').getAttribute('aria-label'), text: p.querySelector('.text').textContent, end: p.querySelector('.cut').textContent }; }";

/// Checks a pane's drawing against step `step` of `trace` (its last step
/// once the trace is over, as the player shows it).
fn check_pane(drawn: &Value, trace: &Trace, step: usize) {
    let index = step.min(trace.steps.len() - 1);
    let expected = &trace.steps[index];
    let at = format!("{} n = {} step {}", trace.solver, trace.n, index + 1);
    assert_eq!(drawn["solver"], trace.solver.as_str(), "{at}");
    // A refused square is drawn refused, never as a queen, with at least
    // one queen that attacks it ringed.
    let placed: Vec<[usize; 2]> = (expected.queens.iter())
        .filter(|q| Some(**q) != expected.refused)
        .copied()
        .collect();
    assert_eq!(strings(&drawn["queens"]), names(&placed), "{at}: queens");
    let refused: Vec<[usize; 2]> = expected.refused.into_iter().collect();
    assert_eq!(strings(&drawn["refused"]), names(&refused), "{at}: refused");
    let attackers = strings(&drawn["attackers"]);
    if let Some([file, rank]) = expected.refused {
        let attacks = |q: &[usize; 2]| {
            q[0] == file || q[1] == rank || q[0].abs_diff(file) == q[1].abs_diff(rank)
        };
        let expected: Vec<[usize; 2]> = placed.iter().filter(|q| attacks(q)).copied().collect();
        assert!(
            !expected.is_empty(),
            "{at}: a refused square with no attacker"
        );
        assert_eq!(attackers, names(&expected), "{at}: its attackers");
    } else {
        assert!(attackers.is_empty(), "{at}: attackers with no refusal");
    }
    assert_eq!(
        strings(&drawn["attacked"]),
        names(expected.attacked.as_deref().unwrap_or_default()),
        "{at}: attacked squares"
    );
    if let Some(conflicts) = expected.conflicts {
        check_repair(drawn, trace, index, conflicts, &at);
        return;
    }
    assert_eq!(
        drawn["nodes"],
        format!("nodes so far: {}", expected.nodes),
        "{at}"
    );
    assert_eq!(
        drawn["solutions"],
        format!("solutions so far: {}", expected.solutions),
        "{at}"
    );
    // The tree so far beside the board: its levels, as the step counts them.
    if !expected.levels.is_empty() {
        let levels: Vec<String> = expected
            .levels
            .iter()
            .enumerate()
            .map(|(k, count)| format!("{k}: {count}"))
            .collect();
        assert_eq!(
            drawn["tree"],
            format!(
                "search tree so far, boards by number of queens: {}",
                levels.join(", ")
            ),
            "{at}: the tree so far"
        );
    }
    // The last step of a whole search: the counter reads what the page's
    // "Search over" line says.
    if index + 1 == trace.steps.len() && !trace.cut {
        let (nodes, solutions) = (trace.nodes.unwrap(), trace.solutions.unwrap());
        assert_eq!(
            drawn["end"],
            format!("Search over: {nodes} nodes, {solutions} solutions in all."),
            "{at}"
        );
        assert_eq!(drawn["nodes"], format!("nodes so far: {nodes}"), "{at}");
        assert_eq!(strings(&drawn["queens"]), Vec::<String>::new(), "{at}");
    }
}

/// A local search's repair (min-conflicts): the queens in conflict ringed,
/// the swaps tried and the conflicts under the board, the step's words
/// naming the queen moved, and the last step saying the board is repaired.
fn check_repair(drawn: &Value, trace: &Trace, index: usize, conflicts: u64, at: &str) {
    let expected = &trace.steps[index];
    assert_eq!(
        strings(&drawn["conflict"]),
        names(expected.conflicting.as_deref().unwrap_or_default()),
        "{at}: queens in conflict"
    );
    assert_eq!(
        drawn["nodes"],
        format!("swaps tried so far: {}", expected.nodes),
        "{at}"
    );
    assert_eq!(
        drawn["solutions"],
        format!("conflicts: {conflicts}"),
        "{at}"
    );
    assert_eq!(drawn["text"], expected.text.as_str(), "{at}");
    if let Some(moved) = expected.moved {
        let file = char::from(b'a' + moved.file as u8);
        assert!(
            expected
                .text
                .starts_with(&format!("queen {file} from rank")),
            "{at}: {}",
            expected.text
        );
    }
    if index + 1 == trace.steps.len() {
        assert_eq!(
            drawn["end"],
            format!(
                "Repaired: no conflict left, after {} swaps tried.",
                trace.nodes.unwrap()
            ),
            "{at}"
        );
        assert_eq!(strings(&drawn["conflict"]), Vec::<String>::new(), "{at}");
    }
}

fn find_trace<'a>(traces: &'a [Trace], id: &str, n: usize) -> &'a Trace {
    traces.iter().find(|t| t.solver == id && t.n == n).unwrap()
}

/// Puts the player on n with these two solvers, at step 1.
fn choose(browser: &mut Browser, n: usize, left: &str, right: &str) {
    browser
        .evaluate(&format!(
            "(async () => {{ const set = (el, v) => {{ el.value = v; el.dispatchEvent(new Event('change')); }}; \
             set(document.getElementById('watch-n'), '{n}'); \
             set(document.querySelector('#pane-0 .pane-solver'), {}); \
             set(document.querySelector('#pane-1 .pane-solver'), {}); \
             await window.queensPage.settled(); \
             document.getElementById('watch-first').click(); }})()",
            json!(left),
            json!(right)
        ))
        .unwrap();
    let where_ = browser.evaluate("window.queensPage.where()").unwrap();
    assert_eq!(where_["n"], n);
    assert_eq!(where_["solvers"], json!([left, right]));
}

/// Both panes' drawings at each of `steps` steps from the current one,
/// clicking "forward" after each (in one script call: thousands of steps
/// take a second, not a minute).
fn walk(browser: &mut Browser, steps: usize) -> Vec<Value> {
    let drawn = browser
        .evaluate(&format!(
            "(() => {{ const pane = {PANE_JS}; const seen = []; \
             for (let i = 0; i < {steps}; i++) {{ seen.push([pane(0), pane(1)]); \
             document.getElementById('watch-forward').click(); }} return seen; }})()"
        ))
        .unwrap();
    drawn.as_array().unwrap().clone()
}

/// Every trace at a position of `half` parity (0 or 1), every step, with
/// its partner in the other pane: after each click on "forward" both boards
/// must be the traces' boards at that step.
fn every_board_follows_its_trace(browser: &mut Browser, traces: &[Trace], half: usize) -> usize {
    let mut checked = 0;
    let ours = traces
        .iter()
        .enumerate()
        .filter(|(position, _)| position % 2 == half);
    for (position, trace) in ours {
        let partner = traces
            .iter()
            .cycle()
            .skip(position + 1)
            .find(|other| other.n == trace.n)
            .unwrap();
        choose(browser, trace.n, &trace.solver, &partner.solver);
        let total = trace.steps.len().max(partner.steps.len());
        for (step, panes) in walk(browser, total).iter().enumerate() {
            check_pane(&panes[0], trace, step);
            check_pane(&panes[1], partner, step);
            checked += 1;
        }
    }
    checked
}

fn set_align(browser: &mut Browser, how: &str) {
    browser
        .evaluate(&format!("(() => {{ const a = document.getElementById('watch-align'); a.value = '{how}'; a.dispatchEvent(new Event('change')); }})()"))
        .unwrap();
}

/// Safe boards reached so far: the tree's node count the player aligns on.
fn reached(step: &queens_report::page::Step) -> u64 {
    step.levels.iter().sum()
}

/// With the panes kept at the same node count, two solvers walking one
/// tree in one order: the right pane shows the step where it reaches as
/// many of the tree's boards as the left pane's step.
fn boards_follow_by_nodes(browser: &mut Browser, left: &Trace, right: &Trace) {
    choose(browser, left.n, &left.solver, &right.solver);
    set_align(browser, "nodes");
    for (step, panes) in walk(browser, left.steps.len()).iter().enumerate() {
        let nodes = reached(&left.steps[step]);
        let partner =
            (right.steps.iter().position(|s| reached(s) >= nodes)).unwrap_or(right.steps.len() - 1);
        check_pane(&panes[0], left, step);
        check_pane(&panes[1], right, partner);
        // One tree at two costs: both panes draw the same tree so far.
        assert_eq!(panes[0]["tree"], panes[1]["tree"], "step {}", step + 1);
    }
    set_align(browser, "steps");
}

/// Every pair of depth-first tree walkers at n = 5, aligned by nodes: at
/// every step where the left one reaches a new board of the tree, the
/// right pane draws the very same board (turned back into the left pane's
/// orientation where the two draw the tree differently, as it says); a
/// depth-first and a breadth-first walker are not aligned by nodes, and the
/// page says why.
fn aligned_panes_draw_one_board(browser: &mut Browser, traces: &[Trace]) -> usize {
    let walkers: Vec<&Trace> = (traces.iter())
        .filter(|t| t.n == 5 && t.walk.is_some())
        .collect();
    let depth_first = |t: &Trace| t.walk.unwrap().order != queens_report::page::Order::BreadthFirst;
    let mut compared = 0;
    for left in &walkers {
        for right in &walkers {
            if left.solver == right.solver {
                continue;
            }
            choose(browser, 5, &left.solver, &right.solver);
            set_align(browser, "nodes");
            let drawn = walk(browser, left.steps.len());
            let note = browser
                .evaluate("document.querySelector('#pane-1 .aligned').textContent")
                .unwrap();
            let note = note.as_str().unwrap().to_string();
            if depth_first(left) != depth_first(right) {
                assert!(note.starts_with("Not aligned by nodes"), "{note}");
                set_align(browser, "steps");
                continue;
            }
            let turned = left.walk.unwrap().image != right.walk.unwrap().image;
            assert_eq!(note.contains("turned back"), turned, "{note}");
            for (step, panes) in drawn.iter().enumerate().skip(1) {
                let nodes = reached(&left.steps[step]);
                // A half walk (the mirror's) ends first: compared while it lasts.
                let lasts = reached(right.steps.last().unwrap()) >= nodes;
                if lasts && nodes > reached(&left.steps[step - 1]) {
                    assert_eq!(
                        panes[0]["queens"],
                        panes[1]["queens"],
                        "n = 5, {} step {} against {}",
                        left.solver,
                        step + 1,
                        right.solver
                    );
                    compared += 1;
                }
            }
            set_align(browser, "steps");
        }
    }
    compared
}

/// The scrubber and the jumps, on textbook's n = 5 search: the next and
/// previous solution, backtrack and refusal are the trace's, a jump with
/// none ahead is disabled, and the scrubber follows every move.
fn jumps_and_scrubber(browser: &mut Browser, trace: &Trace) {
    choose(browser, trace.n, &trace.solver, &trace.solver);
    let step = |browser: &mut Browser| {
        let state = browser
            .evaluate("[window.queensPage.where().step, Number(document.getElementById('watch-scrub').value)]")
            .unwrap();
        assert_eq!(
            state[0].as_u64().unwrap() + 1,
            state[1].as_u64().unwrap(),
            "the scrubber follows"
        );
        state[0].as_u64().unwrap() as usize
    };
    let enabled = |browser: &mut Browser, id: &str| {
        browser
            .evaluate(&format!("!document.getElementById('{id}').disabled"))
            .unwrap()
            == true
    };
    for event in ["solution", "back", "reject"] {
        let at: Vec<usize> = (trace.steps.iter().enumerate())
            .filter(|(_, s)| s.event == event)
            .map(|(i, _)| i)
            .collect();
        assert!(!at.is_empty(), "{event}: none in the trace");
        browser
            .evaluate("document.getElementById('watch-first').click()")
            .unwrap();
        assert!(!enabled(browser, &format!("watch-prev-{event}")));
        for &index in &at {
            browser
                .evaluate(&format!(
                    "document.getElementById('watch-next-{event}').click()"
                ))
                .unwrap();
            assert_eq!(step(browser), index, "next {event}");
        }
        assert!(
            !enabled(browser, &format!("watch-next-{event}")),
            "{event}: none ahead"
        );
        if at.len() > 1 {
            browser
                .evaluate(&format!(
                    "document.getElementById('watch-prev-{event}').click()"
                ))
                .unwrap();
            assert_eq!(step(browser), at[at.len() - 2], "previous {event}");
        }
    }
    browser
        .evaluate("(() => { const s = document.getElementById('watch-scrub'); s.value = '7'; s.dispatchEvent(new Event('input')); })()")
        .unwrap();
    assert_eq!(step(browser), 6);
    // The drawn tree: a dot per safe board, a red stub per refusal.
    let tree = browser
        .evaluate("[document.querySelectorAll('#pane-0 .search-tree circle').length, document.querySelectorAll('#pane-0 .search-tree .pruned').length]")
        .unwrap();
    let last = trace.steps.last().unwrap();
    assert_eq!(
        tree[0].as_u64().unwrap(),
        reached(last),
        "a dot per safe board, the empty one too"
    );
    let refusals = trace.steps.iter().filter(|s| s.event == "reject").count();
    assert_eq!(tree[1].as_u64().unwrap() as usize, refusals);
}

#[test]
#[ignore = "drives headless Chromium: scripts/browser-test runs it (CI does)"]
fn the_page_works_in_chromium_offline_and_its_player_obeys_every_control() {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let traces = traces();
    assert!(!traces.is_empty(), "no trace to play");
    let page = write_page(dir.path(), &traces);
    let bytes = std::fs::metadata(&page).unwrap().len();
    let mut browser = Browser::launch(1280, 1000).unwrap();
    browser.open(&page).unwrap();
    assert_eq!(
        browser
            .evaluate("window.queensPage && window.queensPage.ready")
            .unwrap(),
        true
    );

    // Every solver of the records: a summary row, a line in each plot, a section.
    let ids: Vec<String> = strings(
        &browser
            .evaluate("Array.from(document.querySelectorAll('#summary-table tbody th')).map((th) => th.textContent)")
            .unwrap(),
    );
    assert!(ids.len() >= 2, "{ids:?}");
    for id in &ids {
        // Peak heap may be 0 B throughout, which a log scale cannot show.
        for plot in ["plot-time", "plot-nodes", "plot-ns-per-node"] {
            let line = browser
                .evaluate(&format!(
                    "Boolean(document.querySelector('#{plot} g.series[data-solver=\"{id}\"]'))"
                ))
                .unwrap();
            assert_eq!(line, true, "{id}: a line in {plot}");
        }
        let section = browser
            .evaluate(&format!(
                "Boolean(document.querySelector('#solver-{id} .analysis'))"
            ))
            .unwrap();
        assert_eq!(section, true, "{id}: its section");
    }
    shoot(&mut browser, "1-summary.png", "header");
    shoot(&mut browser, "1-summary-table.png", "#summary");

    // Every point of every plot carries its value for hover.
    let hover = browser
        .evaluate(
            "(() => { const points = Array.from(document.querySelectorAll('.plot .point')); \
             return [points.length, points.filter((p) => /, n = \\d+: \\S/.test(p.querySelector('title').textContent)).length]; })()",
        )
        .unwrap();
    assert!(
        hover[0].as_u64().unwrap() > 0 && hover[0] == hover[1],
        "points with values: {hover}"
    );

    // Sorting: the summary by its third column (a ranking or a time), ascending, then descending.
    let times_js = "Array.from(document.querySelectorAll('#summary-table tbody tr')).map((r) => r.children[2].getAttribute('data-sort')).filter((v) => v !== '').map(Number)";
    browser
        .evaluate("document.querySelector('#summary-table thead th:nth-child(3) button').click()")
        .unwrap();
    let ascending: Vec<f64> = serde_json::from_value(browser.evaluate(times_js).unwrap()).unwrap();
    assert!(ascending.windows(2).all(|w| w[0] <= w[1]), "{ascending:?}");
    browser
        .evaluate("document.querySelector('#summary-table thead th:nth-child(3) button').click()")
        .unwrap();
    let descending: Vec<f64> = serde_json::from_value(browser.evaluate(times_js).unwrap()).unwrap();
    assert!(
        descending.windows(2).all(|w| w[0] >= w[1]),
        "{descending:?}"
    );

    // A solver switched off disappears from every plot, and comes back.
    let off = &ids[0];
    let visible_js = format!(
        "Array.from(document.querySelectorAll('.plot [data-solver=\"{off}\"]')).map((g) => getComputedStyle(g).display !== 'none')"
    );
    let toggle_js =
        format!("document.querySelector('.legend input[data-solver=\"{off}\"]').click()");
    browser.evaluate(&toggle_js).unwrap();
    let shown: Vec<bool> = serde_json::from_value(browser.evaluate(&visible_js).unwrap()).unwrap();
    assert!(
        !shown.is_empty() && shown.iter().all(|v| !v),
        "{off} still drawn: {shown:?}"
    );
    let others = browser
        .evaluate(&format!(
            "Array.from(document.querySelectorAll('.plot g.series')).filter((g) => g.getAttribute('data-solver') !== '{off}').every((g) => getComputedStyle(g).display !== 'none')"
        ))
        .unwrap();
    assert_eq!(others, true, "the other solvers stay drawn");
    shoot(&mut browser, "2-plots-one-solver-off.png", ".plots");
    browser.evaluate(&toggle_js).unwrap();
    let shown: Vec<bool> = serde_json::from_value(browser.evaluate(&visible_js).unwrap()).unwrap();
    assert!(shown.iter().all(|v| *v), "{off} not back: {shown:?}");

    // The repair's pane (min-conflicts at n = 8): its start drawn with the
    // queens in conflict ringed.
    let repair = find_trace(&traces, "min-conflicts", 8);
    choose(&mut browser, 8, "min-conflicts", "three-mask");
    let drawn = browser.evaluate(&format!("({PANE_JS})(0)")).unwrap();
    check_pane(&drawn, repair, 0);
    shoot(&mut browser, "repair", "#pane-0");

    boards_follow_by_nodes(
        &mut browser,
        find_trace(&traces, "three-mask", 6),
        find_trace(&traces, "textbook", 6),
    );
    let textbook = find_trace(&traces, "textbook", 5);
    assert!(
        (textbook.steps.iter())
            .filter(|s| s.event == "reject")
            .all(|s| s.refused.is_some()),
        "textbook's every refusal names its square"
    );
    jumps_and_scrubber(&mut browser, textbook);
    shoot(&mut browser, "3a-player-tree-and-refusal.png", "#watch");
    let compared = aligned_panes_draw_one_board(&mut browser, &traces);
    assert!(compared > 100, "aligned boards compared: {compared}");
    choose(&mut browser, 5, "three-mask", "base-counting");
    set_align(&mut browser, "nodes");
    browser
        .evaluate("(() => { const s = document.getElementById('watch-scrub'); s.value = '12'; s.dispatchEvent(new Event('input')); })()")
        .unwrap();
    shoot(&mut browser, "3d-player-aligned-transposed.png", ".panes");
    set_align(&mut browser, "steps");
    browser
        .evaluate("(() => { const h = document.getElementById('heat-n'); h.value = '8'; h.dispatchEvent(new Event('change')); })()")
        .unwrap();
    let heat = browser
        .evaluate("Array.from(document.querySelectorAll('#heat .heat-square')).map((c) => Number(c.textContent))")
        .unwrap();
    let heat: Vec<u64> = serde_json::from_value(heat).unwrap();
    assert_eq!(heat.len(), 64);
    // Every rank (a row of the drawn grid) holds the 92 solutions' queens.
    assert!(
        heat.chunks(8).all(|rank| rank.iter().sum::<u64>() == 92),
        "{heat:?}"
    );
    shoot(&mut browser, "3e-heatmap.png", "#heat");

    // The keyboard: forward, forward, back, then play and pause with Space.
    // One tree at two costs: three-mask and textbook at n = 6.
    let (first, second) = (
        find_trace(&traces, "three-mask", 6),
        find_trace(&traces, "textbook", 6),
    );
    choose(&mut browser, first.n, &first.solver, &second.solver);
    browser
        .evaluate(
            "document.getElementById('watch').scrollIntoView(); document.activeElement.blur()",
        )
        .unwrap();
    let pane = |browser: &mut Browser, index: usize| {
        browser.evaluate(&format!("({PANE_JS})({index})")).unwrap()
    };
    browser.press("ArrowRight", "ArrowRight", 39).unwrap();
    browser.press("ArrowRight", "ArrowRight", 39).unwrap();
    browser.press("ArrowLeft", "ArrowLeft", 37).unwrap();
    assert_eq!(
        browser.evaluate("window.queensPage.where().step").unwrap(),
        1
    );
    let drawn = pane(&mut browser, 0);
    check_pane(&drawn, first, 1);
    browser.press(" ", "Space", 32).unwrap();
    assert_eq!(
        browser
            .evaluate("window.queensPage.where().playing")
            .unwrap(),
        true
    );
    std::thread::sleep(std::time::Duration::from_millis(800));
    browser.press(" ", "Space", 32).unwrap();
    let where_ = browser.evaluate("window.queensPage.where()").unwrap();
    assert_eq!(where_["playing"], false);
    let step = where_["step"].as_u64().unwrap() as usize;
    assert!(step > 1, "playing moved on: {where_}");
    let drawn = pane(&mut browser, 0);
    check_pane(&drawn, first, step);
    let drawn = pane(&mut browser, 1);
    check_pane(&drawn, second, step);
    shoot(&mut browser, "3-player.png", "#watch");
    // Two other representations: the threat word's grid and the levels of row-fold.
    choose(&mut browser, 5, "threat-mask", "row-fold");
    // The keys are the player's only while it is in view, and the full-page
    // screenshot just taken may have resized the viewport and moved it.
    browser
        .evaluate(
            "document.getElementById('watch').scrollIntoView(); document.activeElement.blur()",
        )
        .unwrap();
    for _ in 0..6 {
        browser.press("ArrowRight", "ArrowRight", 39).unwrap();
    }
    assert_eq!(
        browser.evaluate("window.queensPage.where().step").unwrap(),
        6
    );
    check_pane(
        &pane(&mut browser, 0),
        find_trace(&traces, "threat-mask", 5),
        6,
    );
    check_pane(
        &pane(&mut browser, 1),
        find_trace(&traces, "row-fold", 5),
        6,
    );
    shoot(&mut browser, "3b-player-threat-mask-row-fold.png", ".panes");
    shoot(
        &mut browser,
        "4-solver-section.png",
        &format!("#solver-{}", first.solver),
    );

    // The last step of a whole n = 8 search, from the keyboard: End.
    choose(&mut browser, 8, "three-mask", "textbook");
    browser
        .evaluate(
            "document.getElementById('watch').scrollIntoView(); document.activeElement.blur()",
        )
        .unwrap();
    browser.press("End", "End", 35).unwrap();
    for (index, id) in ["three-mask", "textbook"].iter().enumerate() {
        let trace = find_trace(&traces, id, 8);
        assert!(!trace.cut, "{id} n = 8: the whole search is on the page");
        check_pane(&pane(&mut browser, index), trace, usize::MAX);
    }
    shoot(&mut browser, "3c-player-search-over.png", ".panes");

    let problems = browser.problems();
    assert!(
        problems.is_empty(),
        "the page had problems:\n{}",
        problems.join("\n")
    );
    phone_width(&page, &traces);
    eprintln!(
        "browser test: page {bytes} bytes, {} traces, {:.1} s",
        traces.len(),
        started.elapsed().as_secs_f64()
    );
}

/// The player, every trace's every step in both panes: most of the
/// browser's time, so two tests of half the traces each, which run on two
/// test threads at once, each with its own browser.
fn boards_follow_their_traces(half: usize) {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let traces = traces();
    let page = write_page(dir.path(), &traces);
    let mut browser = Browser::launch(1280, 1000).unwrap();
    browser.open(&page).unwrap();
    let steps = every_board_follows_its_trace(&mut browser, &traces, half);
    assert!(steps > 0, "no step compared");
    let problems = browser.problems();
    assert!(
        problems.is_empty(),
        "the page had problems:\n{}",
        problems.join("\n")
    );
    eprintln!(
        "browser test: {steps} steps of half {half} of the traces compared, {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore = "drives headless Chromium: scripts/browser-test runs it (CI does)"]
fn every_board_follows_its_trace_in_the_first_half() {
    boards_follow_their_traces(0);
}

#[test]
#[ignore = "drives headless Chromium: scripts/browser-test runs it (CI does)"]
fn every_board_follows_its_trace_in_the_second_half() {
    boards_follow_their_traces(1);
}

/// At phone width (420 px) the tree so far still stands beside the board,
/// inside the screen.
fn phone_width(page: &Path, traces: &[Trace]) {
    let mut browser = Browser::launch(420, 900).unwrap();
    browser.open(page).unwrap();
    choose(&mut browser, 8, "three-mask", "textbook");
    browser
        .evaluate(
            "document.getElementById('watch').scrollIntoView(); document.activeElement.blur()",
        )
        .unwrap();
    for _ in 0..40 {
        browser.press("ArrowRight", "ArrowRight", 39).unwrap();
    }
    check_pane(
        &browser.evaluate(&format!("({PANE_JS})(0)")).unwrap(),
        find_trace(traces, "three-mask", 8),
        40,
    );
    // The two boards side by side, each readable, the tree under its board
    // and on screen, and the controls still on screen with the boards.
    let (board_x, board_y, board_width, board_height) = rect(&mut browser, "#pane-0 .board");
    let (other_x, other_y, other_width, _) = rect(&mut browser, "#pane-1 .board");
    let (tree_x, tree_y, tree_width, _) = rect(&mut browser, "#pane-0 .tree");
    assert!(
        board_width > 140.0,
        "the board keeps a readable size: {board_width}"
    );
    assert!(
        (other_y - board_y).abs() < 40.0 && other_x >= board_x + board_width,
        "the second board beside the first: {other_x}, {other_y} against {board_x}, {board_y}"
    );
    assert!(other_x + other_width <= 420.0, "the second board on screen");
    assert!(
        tree_y >= board_y + board_height - 1.0 && tree_x + tree_width <= 420.0,
        "the tree under the board, on screen"
    );
    browser
        .evaluate("window.scrollTo(0, document.querySelector('#pane-0 .board').getBoundingClientRect().top + window.scrollY - 250)")
        .unwrap();
    for _ in 0..3 {
        browser.press("ArrowRight", "ArrowRight", 39).unwrap();
    }
    // In the window's coordinates: the bar stuck at its top, short enough
    // to leave the boards in view.
    let bar = browser
        .evaluate("(() => { const c = document.querySelector('#watch .controls').getBoundingClientRect(); \
                   const b = document.querySelector('#pane-0 .board').getBoundingClientRect(); \
                   return [c.top, c.bottom, b.bottom]; })()")
        .unwrap();
    let bar: Vec<f64> = serde_json::from_value(bar).unwrap();
    assert!(
        bar[0].abs() < 2.0 && bar[1] < 450.0 && bar[2] > bar[1],
        "the controls stay on screen above the boards: {bar:?}"
    );
    shoot(&mut browser, "5-player-phone.png", "#watch");
    let problems = browser.problems();
    assert!(problems.is_empty(), "at 420 px:\n{}", problems.join("\n"));
}
