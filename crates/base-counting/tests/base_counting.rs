//! What is particular to the odometer: the document's counting order, its
//! skips, and a limit set by the digit type. The contract every solver keeps
//! (counts, classes, listed sets, limits, traces) is checked in
//! tests/conformance.rs.

use queens_base_counting::BaseCounting;
use queens_conformance::no_two_attack;
use queens_core::trace::{StepKind, TraceRecorder};
use queens_core::{CountOptions, Solver};

/// Every number of `n` digits base n + 1 whose digits are non-zero up to its
/// trailing zeros, in increasing order (the digits are single characters for
/// n <= 9, so text order is numeric order).
fn all_prefix_numbers(n: usize) -> Vec<Vec<u8>> {
    let mut numbers = vec![vec![]];
    let mut frontier = vec![vec![]];
    for _ in 0..n {
        frontier = frontier
            .iter()
            .flat_map(|prefix: &Vec<u8>| {
                (1..=n as u8).map(move |rank| {
                    let mut longer = prefix.clone();
                    longer.push(rank);
                    longer
                })
            })
            .collect();
        numbers.extend(frontier.iter().cloned());
    }
    numbers.sort_by_key(|digits| {
        let mut padded = digits.clone();
        padded.resize(n, 0);
        padded
    });
    numbers
}

/// The document's claim: the odometer visits exactly the valid
/// configurations, in increasing order, and its skips lose none. The traced
/// numbers of the valid steps must be every valid number in order.
#[test]
fn valid_configurations_come_in_counting_order() {
    for n in 1..=6 {
        let mut recorder = TraceRecorder::new(1_000_000);
        let stats = BaseCounting.trace(n, &mut recorder).unwrap();
        let visited: Vec<String> = recorder
            .texts()
            .iter()
            .filter(|(kind, _)| matches!(kind, StepKind::Place | StepKind::Solution))
            .map(|(_, text)| text.split_whitespace().next().unwrap().to_string())
            .collect();
        let expected: Vec<String> = all_prefix_numbers(n)
            .into_iter()
            .filter(|digits| !digits.is_empty() && no_two_attack(digits))
            .map(|digits| {
                let mut padded = digits;
                padded.resize(n, 0);
                padded.iter().map(|d| d.to_string()).collect()
            })
            .collect();
        assert_eq!(visited, expected, "n = {n}");
        assert_eq!(
            stats.metric("valid_configurations"),
            Some(expected.len() as u64)
        );
    }
}

#[test]
fn trace_names_the_rules_and_stops_when_asked() {
    let mut recorder = TraceRecorder::new(5);
    BaseCounting.trace(4, &mut recorder).unwrap();
    assert!(recorder.stopped_early());
    let texts = recorder.texts();
    let lines: Vec<&str> = texts.iter().map(|(_, text)| text.as_str()).collect();
    assert!(
        lines[0].starts_with("0000: 625 numbers of 4 digits in base 5"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "1000  advance adds a1: valid");
    assert_eq!(lines[2], "1100  advance adds b1: b1 and a1 share a rank");
    assert_eq!(
        lines[3],
        "1200  advanceWithoutAdding skips 11__ (25 numbers): b2 and a1 share a diagonal"
    );
    assert_eq!(
        lines[4],
        "1300  advanceWithoutAdding skips 12__ (25 numbers): valid"
    );
}

#[test]
fn limit_is_the_digit_type() {
    let err = BaseCounting
        .count(256, &CountOptions::default())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "base-counting supports n <= 15 so that its base-(n+1) number fits in a u64"
    );
}
