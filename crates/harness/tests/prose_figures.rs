//! Every number a reader sees comes from data. The pages that teach and
//! report (the top README, every crate's README and ANALYSIS files, the
//! walk-through docs/ALGORITHMS.md) are scanned for *measured figures*: a
//! number with a unit of time, memory or work, or a ratio ("2.5 s",
//! "143 B", "19.6×", "five times", "40 %"). Such a figure may stand only
//!
//! - inside a generated block (`<!-- BEGIN: ... -->` to `<!-- END: ... -->`),
//!   which `queens report` or an xtask writes from a record and CI
//!   regenerates, or
//! - in a pasted output that `docs_traces` runs and compares, or
//! - on the allow-list below, each entry naming the test that checks it.
//!
//! Exact counts (solutions, nodes, OEIS values, n!) carry no unit and pass:
//! they are the same on every machine, and the tests check them. So do
//! whole powers of two of bytes ("a task is 32 bytes", "chunks of 64 MiB"):
//! sizes fixed in the code, not measured; a measured peak is practically
//! never one, and the report writes even those with a decimal ("32.0 MiB"). What the
//! rule keeps out is a typed time or ratio, which goes stale with the next
//! record and which no test can check. To pass, reword the figure away (a
//! qualitative statement that stays true), splice it from the record, or
//! check it in a test and name that test here.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::workspace;

/// Figures that a test checks, each as (page, the text around it, the test
/// that checks it: a function that must exist in the workspace's sources).
/// An entry whose text no longer appears fails too, so the list cannot
/// outlive what it excuses.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "predict the request: past ten minutes",
        "the_threshold_is_the_readmes_ten_minutes",
    ),
    (
        "README.md",
        "predicted to take over ten minutes",
        "the_threshold_is_the_readmes_ten_minutes",
    ),
    (
        "docs/ALGORITHMS.md",
        "**Answer: +41.1%**",
        "every_exercise_answer_is_what_its_command_prints",
    ),
];

/// Units that make a number a measured figure when they follow it, with
/// or without a space: times, memory, work, ratios.
const UNITS: &[&str] = &[
    // time
    "s",
    "ms",
    "µs",
    "us",
    "ns",
    "sec",
    "secs",
    "second",
    "seconds",
    "minute",
    "minutes",
    "min",
    "mins",
    "hour",
    "hours",
    "day",
    "days", // memory
    "B",
    "KB",
    "KiB",
    "MB",
    "MiB",
    "GB",
    "GiB",
    "TB",
    "TiB",
    "bytes", // work
    "instructions",
    "cycles", // ratios
    "×",
    "times",
    "fold",
    "%",
    "percent",
];

/// Units of memory, whose whole powers of two are sizes fixed in the code.
const MEMORY: &[&str] = &[
    "B", "KB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB", "bytes",
];

/// Numbers written as words, which can make a ratio as well as digits can
/// ("five to six times the time").
const NUMBER_WORDS: &[&str] = &[
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "hundred",
    "hundreds",
    "thousand",
    "thousands",
    "million",
    "millions",
    "billion",
    "dozen",
    "dozens",
    "half",
];

/// The commands whose pasted outputs `docs_traces` runs and compares.
const CHECKED_OUTPUTS: [&str; 3] = ["$ queens trace ", "$ queens tree ", "$ queens solve "];

/// The pages scanned: README.md, docs/ALGORITHMS.md, and each crate's
/// README.md and ANALYSIS*.md.
fn pages() -> Vec<PathBuf> {
    let root = workspace();
    let mut pages = vec![root.join("README.md"), root.join("docs/ALGORITHMS.md")];
    for entry in fs::read_dir(root.join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        for file in fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name == "README.md" || (name.starts_with("ANALYSIS") && name.ends_with(".md")) {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// The lines of a page a reader takes as typed prose: (line number, text),
/// leaving out generated blocks and the pasted outputs a test compares.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut kept = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        let trimmed = line.trim();
        if trimmed.starts_with("<!-- BEGIN:") {
            // A generated block: up to its END marker.
            for (_, inner) in lines.by_ref() {
                if inner.trim().starts_with("<!-- END:") {
                    break;
                }
            }
            continue;
        }
        if trimmed.starts_with("```") {
            let block: Vec<(usize, &str)> = lines
                .by_ref()
                .take_while(|(_, l)| !l.trim().starts_with("```"))
                .collect();
            let compared = block
                .first()
                .is_some_and(|(_, first)| CHECKED_OUTPUTS.iter().any(|c| first.starts_with(c)));
            if !compared {
                kept.extend(block.into_iter().map(|(i, l)| (i + 1, l)));
            }
            continue;
        }
        kept.push((index + 1, line));
    }
    kept
}

/// The measured figures in one line of prose: each as the text from its
/// number through its unit.
fn figures(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let (number_end, is_number) = if chars[i].is_ascii_digit() && starts_word {
            let mut end = i;
            while end < chars.len()
                && (chars[end].is_ascii_digit()
                    || ((chars[end] == '.' || chars[end] == ',')
                        && chars.get(end + 1).is_some_and(char::is_ascii_digit)))
            {
                end += 1;
            }
            (end, true)
        } else if chars[i].is_alphabetic() && starts_word {
            let mut end = i;
            while end < chars.len() && chars[end].is_alphabetic() {
                end += 1;
            }
            let word: String = chars[i..end].iter().collect::<String>().to_lowercase();
            (end, NUMBER_WORDS.contains(&word.as_str()))
        } else {
            (i + 1, false)
        };
        if !is_number {
            i = number_end;
            continue;
        }
        // An identifier such as `u64` or a square such as `h5` began with a
        // letter and was skipped above; a number glued to letters after it
        // (`2nd`, `x86_64`, `8x8`) is a word, not a quantity.
        let mut unit_start = number_end;
        while chars.get(unit_start) == Some(&' ') {
            unit_start += 1;
        }
        // `2.5-fold`, `ten-fold`.
        if unit_start == number_end && chars.get(unit_start) == Some(&'-') {
            unit_start += 1;
        }
        let mut unit_end = unit_start;
        while unit_end < chars.len()
            && (chars[unit_end].is_alphabetic() || matches!(chars[unit_end], 'µ' | '×' | '%'))
        {
            unit_end += 1;
            if matches!(chars[unit_end - 1], '×' | '%') {
                break;
            }
        }
        let unit: String = chars[unit_start..unit_end].iter().collect();
        let glued_to_more = chars
            .get(unit_end)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_');
        // `n×n`, `8×8`: a product of sizes, not a ratio.
        let a_dimension = unit == "×" && glued_to_more;
        // A long unit glued to the number (`2nd`, `64bit`) makes a word.
        let a_word = unit_start == number_end && unit != "×" && unit != "%" && unit.len() > 2;
        let number: String = chars[i..number_end].iter().collect();
        let a_fixed_size = MEMORY.contains(&unit.as_str())
            && number.parse::<u64>().is_ok_and(u64::is_power_of_two);
        let excused = a_dimension || a_fixed_size || a_word;
        if UNITS.contains(&unit.as_str()) && !excused {
            found.push(chars[i..unit_end].iter().collect());
        }
        i = number_end.max(i + 1);
    }
    found
}

/// Whether a function of this name is defined somewhere in the workspace's
/// Rust sources (an allow-list entry must name a real test).
fn defined(function: &str) -> bool {
    fn walk(dir: &Path, needle: &str) -> bool {
        fs::read_dir(dir).unwrap().any(|entry| {
            let path = entry.unwrap().path();
            if path.is_dir() {
                path.file_name().is_none_or(|n| n != "target") && walk(&path, needle)
            } else {
                path.extension().is_some_and(|e| e == "rs")
                    && fs::read_to_string(&path).is_ok_and(|text| text.contains(needle))
            }
        })
    }
    walk(&workspace().join("crates"), &format!("fn {function}("))
}

#[test]
fn no_measured_figure_is_typed_into_prose() {
    let mut typed = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for page in pages() {
        let name = page
            .strip_prefix(workspace())
            .unwrap_or(&page)
            .display()
            .to_string();
        let text = fs::read_to_string(&page).unwrap();
        for (number, line) in prose_lines(&text) {
            for figure in figures(line) {
                let excused = ALLOWED.iter().position(|(file, around, _)| {
                    *file == name && line.contains(around) && around.contains(&figure)
                });
                match excused {
                    Some(index) => used[index] = true,
                    None => {
                        typed.push(format!("{name}:{number}: \"{figure}\" in: {}", line.trim()))
                    }
                }
            }
        }
    }
    assert!(
        typed.is_empty(),
        "measured figures typed into prose (reword them, splice them from the record, \
         or check them in a test and list them in prose_figures.rs):\n{}",
        typed.join("\n")
    );
    for ((file, around, test), used) in ALLOWED.iter().zip(used) {
        assert!(used, "{file}: the allowed \"{around}\" is no longer there");
        assert!(defined(test), "{file}: \"{around}\" names no test: {test}");
    }
}

#[test]
fn the_scanner_catches_typed_figures_and_passes_counts() {
    for (line, want) in [
        (
            "it took about 1.6 s to about 0.95 s",
            vec!["1.6 s", "0.95 s"],
        ),
        ("n = 12 takes 0.23 s, n = 13 1.4 s", vec!["0.23 s", "1.4 s"]),
        ("a peak of 143 B and 2.22 MiB", vec!["143 B", "2.22 MiB"]),
        ("ranks best at 1.63× and 2.84× (13)", vec!["1.63×", "2.84×"]),
        ("same nodes, five to six times the time", vec!["six times"]),
        (
            "4.8 ns/node, 169 µs and 10%",
            vec!["4.8 ns", "169 µs", "10%"],
        ),
        ("under 2 minutes", vec!["2 minutes"]),
        ("about 2.5-fold per n", vec!["2.5-fold"]),
    ] {
        assert_eq!(figures(line), want, "{line}");
    }
    for line in [
        "92 solutions and 2,057 nodes at n = 8 on the 8×8 board (n×n)",
        "a u64 holds a1 b6 c8 d3 e7 f4 g2 h5; 8! = 40,320; x86_64",
        "Q(18) in 4 shards, 2 at a time, on 2 cores; C(64,8) = 4,426,165,368",
        "rustc 1.95, `--budget 5`, shard 2/8",
        "a task is 32 bytes, chunks of 64 MiB, 1 MiB at most",
    ] {
        assert!(figures(line).is_empty(), "{line}: {:?}", figures(line));
    }
}

#[test]
fn generated_blocks_and_compared_outputs_are_not_prose() {
    let page = "a 1.6 s\n<!-- BEGIN: measured x 8 -->\n| 2.5 s |\n<!-- END: measured -->\n\
                ```text\n$ queens trace 4\n3 s\n```\n```sh\nqueens count 8  # 9 s\n```\nb\n";
    let kept: Vec<&str> = prose_lines(page).into_iter().map(|(_, l)| l).collect();
    assert_eq!(kept, ["a 1.6 s", "queens count 8  # 9 s", "b"]);
}

/// N. Wirth's ladder of search spaces, which opens the walk-through: every
/// rung is computed here, and the page must show these values.
#[test]
fn the_walk_through_opens_with_wirths_ladder_computed() {
    fn thousands(mut value: u64) -> String {
        let mut groups = Vec::new();
        while value >= 1000 {
            groups.push(format!("{:03}", value % 1000));
            value /= 1000;
        }
        groups.push(value.to_string());
        groups.reverse();
        groups.join(",")
    }
    /// `4.4·10^9`: two significant figures, as the page rounds them.
    fn about(value: u64) -> String {
        let exponent = (value as f64).log10().floor() as i32;
        let mantissa = value as f64 / 10f64.powi(exponent);
        format!("{mantissa:.1}·10^{exponent}")
    }
    let squares_choose_8: u64 = (0..8).map(|k| 64 - k).product::<u64>() / (1..=8).product::<u64>();
    let one_per_file = 8u64.pow(8);
    let permutations: u64 = (1..=8).product();
    let profile = queens_core::Solver::tree_profile(&queens_three_mask::ThreeMask, 8)
        .unwrap()
        .expect("three-mask walks the tree of safe boards");
    let safe_boards: u64 = profile.iter().sum();
    let text = fs::read_to_string(workspace().join("docs/ALGORITHMS.md")).unwrap();
    let opening = &text[..text.find("## How to read a trace").unwrap()];
    for shown in [
        format!("C(64,8) = {}", thousands(squares_choose_8)),
        format!("about {}", about(squares_choose_8)),
        format!("8^8 = {}", thousands(one_per_file)),
        format!("about {}", about(one_per_file)),
        format!("8! = {}", thousands(permutations)),
        format!("{} partial boards", thousands(safe_boards)),
    ] {
        assert!(
            opening.contains(&shown),
            "the opening does not show {shown}"
        );
    }
}

/// One finder's figures at one n in the newest committed record: steps to
/// its board, and its warm and cold medians (ns); `None` where it was not
/// timed there.
fn found(record: &serde_json::Value, finder: &str, n: u64) -> Option<(f64, f64, f64)> {
    let entry = record["entries"].as_array()?.iter().find(|e| {
        e["question"] == "find-one" && e["solver"] == finder && e["n"].as_u64() == Some(n)
    })?;
    let outcome = &entry["outcome"];
    Some((
        entry["nodes"].as_f64()?,
        outcome["warm"]["median_ns"].as_f64()?,
        outcome["cold"]["median_ns"].as_f64()?,
    ))
}

/// What the walk-through's section on finders says of the record's "Find
/// one board" figures, without typing them: why a few points stand off the
/// lines of the plot, and what fail-first's steps cost against three-mask's.
#[test]
fn the_finders_figures_are_what_the_walk_through_explains() {
    let path = crate::common::newest_committed_record();
    let record: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    // The page's words with its line breaks ignored.
    let text = fs::read_to_string(workspace().join("docs/ALGORITHMS.md"))
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let record_name = path.display();

    // The construction's n = 8 above its n = 10, and the reason the page
    // gives: every finder's cold sample pays more over its warm one at
    // n = 8, the opening of each cold round, than at n = 10.
    assert!(text.contains("its n = 8 stands above its n = 10"));
    let (_, _, construction_8) = found(&record, "construction", 8).unwrap();
    let (_, _, construction_10) = found(&record, "construction", 10).unwrap();
    assert!(
        construction_8 > construction_10,
        "{record_name}: the construction's n = 8 no longer stands above its n = 10: \
         reword the walk-through"
    );
    let finders: Vec<&str> = record["finders"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["id"].as_str())
        .collect();
    let mut compared = 0;
    for finder in &finders {
        if let (Some((_, warm_8, cold_8)), Some((_, warm_10, cold_10))) =
            (found(&record, finder, 8), found(&record, finder, 10))
        {
            assert!(
                cold_8 / warm_8 > cold_10 / warm_10,
                "{record_name}: {finder}'s cold over warm is not larger at n = 8 than at 10"
            );
            compared += 1;
        }
    }
    assert!(
        compared >= 2,
        "{record_name}: finders timed at n = 8 and 10"
    );

    // min-conflicts: more swaps at n = 10 than at 100, and so more time.
    assert!(text.contains("seed 1 tries far more swaps than at n = 100"));
    let (steps_10, _, time_10) = found(&record, "min-conflicts", 10).unwrap();
    let (steps_100, _, time_100) = found(&record, "min-conflicts", 100).unwrap();
    assert!(
        steps_10 > steps_100 && time_10 > time_100,
        "{record_name}: min-conflicts' n = 10 is no longer above its n = 100: reword"
    );
    assert_eq!(
        record["settings"]["find_seed"].as_u64(),
        Some(1),
        "the walk-through says the finders are timed with seed 1"
    );

    // fail-first: fewer but dearer steps than three-mask, at every n the
    // record times both.
    assert!(text.contains("Fewer but dearer steps"));
    let mut both = 0;
    for n in 1..=64 {
        if let (Some((ff_steps, _, ff_time)), Some((tm_steps, _, tm_time))) = (
            found(&record, "fail-first", n),
            found(&record, "three-mask", n),
        ) {
            assert!(
                ff_steps < tm_steps,
                "{record_name}, n = {n}: fail-first takes no fewer steps than three-mask"
            );
            assert!(
                ff_time / ff_steps > tm_time / tm_steps,
                "{record_name}, n = {n}: fail-first's step is no dearer than three-mask's"
            );
            both += 1;
        }
    }
    assert!(both >= 5, "{record_name}: both timed at several n");
}
