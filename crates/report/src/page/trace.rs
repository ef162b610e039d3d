//! A recorded search as the page plays it: the `queens trace N --solver ID
//! --format json` document (format `queens-trace/1`), read into types so
//! that a page is never built from a trace it could not draw.
//!
//! The harness makes these (only it may run solvers); this library checks
//! them and embeds them in the page unchanged in meaning.

use serde::{Deserialize, Serialize};

/// The `format` field every trace document carries.
pub const TRACE_FORMAT: &str = "queens-trace/1";

/// Step events, the tags of the text trace.
const EVENTS: [&str; 7] = [
    "note", "place", "reject", "back", "solution", "level", "skip",
];

/// One solver's recorded search on one board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trace {
    /// Always [`TRACE_FORMAT`].
    pub format: String,
    /// The solver's id.
    pub solver: String,
    /// The board size.
    pub n: usize,
    /// The one-line legend of the tags.
    pub legend: String,
    /// How the solver's state is written (masks: which file first, what a 1 means).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convention: Option<String>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// True if the step bound stopped the search before its end.
    pub cut: bool,
    /// The whole search's nodes, when it was not cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The whole search's solutions, when it was not cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solutions: Option<u64>,
}

/// One step: what happened, the board after it, and the solver's own state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// One of note, place, reject, back, solution, level (skip: work passed over).
    pub event: String,
    /// The text trace's words for this step.
    pub text: String,
    /// The queens on the board: `[file, rank]`, 0-based, file 0 = a, rank 0 = rank 1.
    pub queens: Vec<[usize; 2]>,
    /// Squares the solver's own state marks taken or attacked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacked: Option<Vec<[usize; 2]>>,
    /// The solver's representation, as ordered name/value pairs.
    #[serde(default)]
    pub state: Vec<(String, String)>,
    /// The solver's node counter so far.
    pub nodes: u64,
    /// Solutions found so far.
    pub solutions: u64,
}

impl Trace {
    /// Reads one trace document, refusing one the page could not draw: a
    /// wrong format, an unknown event, a square off the board, counters
    /// that go backwards.
    pub fn from_json(json: &str) -> Result<Trace, String> {
        let trace: Trace =
            serde_json::from_str(json).map_err(|e| format!("not a trace document: {e}"))?;
        trace.check()?;
        Ok(trace)
    }

    /// The checks of [`Trace::from_json`], for a trace built in memory.
    pub fn check(&self) -> Result<(), String> {
        let at = |index: usize| format!("{} n = {} step {}", self.solver, self.n, index + 1);
        if self.format != TRACE_FORMAT {
            return Err(format!(
                "{} n = {}: format '{}', expected '{TRACE_FORMAT}'",
                self.solver, self.n, self.format
            ));
        }
        let mut before = (0, 0);
        for (index, step) in self.steps.iter().enumerate() {
            if !EVENTS.contains(&step.event.as_str()) {
                return Err(format!("{}: unknown event '{}'", at(index), step.event));
            }
            let squares = step.queens.iter().chain(step.attacked.iter().flatten());
            if let Some([file, rank]) = squares
                .into_iter()
                .find(|s| s[0] >= self.n || s[1] >= self.n)
            {
                return Err(format!(
                    "{}: square [{file}, {rank}] is off the board",
                    at(index)
                ));
            }
            if step.nodes < before.0 || step.solutions < before.1 {
                return Err(format!("{}: a counter went backwards", at(index)));
            }
            before = (step.nodes, step.solutions);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const SMALL: &str = r#"{"format":"queens-trace/1","solver":"three-mask","n":4,
      "legend":"tags: place = a queen put down","convention":"masks: file a first, 1 = free",
      "steps":[
        {"event":"note","text":"empty","queens":[],"state":[["safe","1111"]],"nodes":0,"solutions":0},
        {"event":"place","text":"queen on a","queens":[[0,0]],"attacked":[[0,1],[1,1]],
         "state":[["left","1111"],["safe","1111"]],"nodes":1,"solutions":0}
      ],
      "cut":true}"#;

    #[test]
    fn a_trace_document_reads_and_round_trips() {
        let trace = Trace::from_json(SMALL).unwrap();
        assert_eq!(trace.steps[1].queens, vec![[0, 0]]);
        assert_eq!(trace.steps[1].state[0], ("left".into(), "1111".into()));
        assert_eq!(trace.nodes, None);
        let again = Trace::from_json(&serde_json::to_string(&trace).unwrap()).unwrap();
        assert_eq!(again, trace);
    }

    #[test]
    fn a_trace_the_page_could_not_draw_is_refused() {
        let off = SMALL.replace("[[0,0]]", "[[4,0]]");
        assert!(
            Trace::from_json(&off)
                .unwrap_err()
                .contains("off the board")
        );
        let event = SMALL.replace("\"place\"", "\"jump\"");
        assert!(
            Trace::from_json(&event)
                .unwrap_err()
                .contains("unknown event")
        );
        let format = SMALL.replace("queens-trace/1", "queens-trace/9");
        assert!(Trace::from_json(&format).unwrap_err().contains("expected"));
        // The first step says 5 nodes, the second 1.
        let backwards = SMALL.replacen("\"nodes\":0", "\"nodes\":5", 1);
        assert!(
            Trace::from_json(&backwards)
                .unwrap_err()
                .contains("backwards"),
            "{backwards}"
        );
    }
}
