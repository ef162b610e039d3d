//! A recorded search as the page plays it: the `queens trace N --solver ID
//! --format json` document (format `queens-trace`, version 1), read into types so
//! that a page is never built from a trace it could not draw.
//!
//! The harness makes these (only it may run solvers); this library checks
//! them and embeds them in the page unchanged in meaning.

use serde::{Deserialize, Serialize};

/// The `format` field every trace document carries.
pub const TRACE_FORMAT: &str = "queens-trace";
/// Its `format_version`.
pub const TRACE_VERSION: u32 = 1;
/// The same version 1 under the header written before `format_version`
/// (still read).
const OLD_HEADER: &str = "queens-trace/1";

/// miniz's best compression: the page is written once per report, and
/// every kB saved is one every reader downloads.
const PACK_LEVEL: u8 = 9;

/// Step events, the tags of the text trace (start and swap: a local
/// search's repair, `queens trace N --solver min-conflicts`).
const EVENTS: [&str; 9] = [
    "note", "place", "reject", "back", "solution", "level", "skip", "start", "swap",
];

/// One solver's recorded search on one board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trace {
    /// Always [`TRACE_FORMAT`].
    pub format: String,
    /// Always [`TRACE_VERSION`] (absent under the old header).
    #[serde(default)]
    pub format_version: Option<u32>,
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
    /// How this solver walks the tree of safe boards against three-mask,
    /// where it walks it: the facts the player aligns panes by (the caller
    /// adds them; `queens trace` does not print them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub walk: Option<Walk>,
}

/// How a solver that walks the tree of safe partial boards meets its boards
/// against three-mask, which puts its k-th queen on rank k, depth-first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walk {
    /// Its boards against three-mask's.
    pub image: Image,
    /// The order it meets them in.
    pub order: Order,
}

/// A solver's boards against three-mask's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Image {
    /// The very same boards: its k-th queen goes on rank k.
    Same,
    /// Mirrored in the a1-h8 diagonal: its k-th queen goes on file k.
    Transposed,
    /// Transposed, then mirrored left to right: its k-th queen goes on the
    /// k-th file from the right (a quarter turn of three-mask's board).
    TransposedMirrored,
}

/// The order a solver meets the tree's boards in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Depth-first, children in order: three-mask's order.
    DepthFirst,
    /// Depth-first, but only the walk's first half (the mirror's boards).
    DepthFirstHalf,
    /// Level by level; each level in the order the depth-first walk meets
    /// its boards.
    BreadthFirst,
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
    /// On a refusal, the square tested and refused: `[file, rank]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<[usize; 2]>,
    /// The solver's representation, as ordered name/value pairs.
    #[serde(default)]
    pub state: Vec<(String, String)>,
    /// The solver's node counter so far.
    pub nodes: u64,
    /// Solutions found so far.
    pub solutions: u64,
    /// Safe boards reached so far with 0, 1, ... queens: the search tree so
    /// far, level by level (`queens tree`'s profile at the end of a whole
    /// search); empty for a solver that walks no such tree.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<u64>,
    /// A repair's conflicts on this board (queens beyond the first on each
    /// diagonal); only in a local search's trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    /// The queens that share a diagonal with another: `[file, rank]`; only
    /// in a local search's trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicting: Option<Vec<[usize; 2]>>,
    /// The swap this step made; only in a local search's trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<Move>,
}

/// One swap of a local search: the queen on `file` moved from rank `from`
/// to `to`, the queen on `partner` the other way (0-based), the board's
/// conflicts `before` and `after`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    /// The file of the queen the repair moved.
    pub file: usize,
    /// The file of the queen it swapped ranks with.
    pub partner: usize,
    /// The moved queen's rank before.
    pub from: usize,
    /// The moved queen's rank after.
    pub to: usize,
    /// The conflicts before the swap.
    pub before: u64,
    /// The conflicts after it.
    pub after: u64,
}

impl Trace {
    /// Reads one trace document, refusing one the page could not draw: a
    /// wrong format, an unknown event, a square off the board, counters
    /// that go backwards.
    pub fn from_json(json: &str) -> Result<Trace, String> {
        let mut trace: Trace =
            serde_json::from_str(json).map_err(|e| format!("not a trace document: {e}"))?;
        if trace.format == OLD_HEADER && trace.format_version.is_none() {
            trace.format = TRACE_FORMAT.to_string();
            trace.format_version = Some(TRACE_VERSION);
        }
        trace.check()?;
        Ok(trace)
    }

    /// The trace as the page embeds it: its JSON document, raw-deflated
    /// (RFC 1951) and written in base64. Whole searches repeat themselves
    /// from step to step (the same masks, words and boards, one square
    /// apart), so this keeps the page's every depth-first search at n = 8
    /// to a few hundred kB; the page's script inflates a trace with the
    /// browser's own `DecompressionStream("deflate-raw")` when it is shown.
    /// The same trace always packs to the same text.
    pub fn packed(&self) -> String {
        use base64::Engine as _;
        let json = serde_json::to_string(self).expect("a trace serializes");
        let deflated = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), PACK_LEVEL);
        base64::engine::general_purpose::STANDARD.encode(deflated)
    }

    /// The checks of [`Trace::from_json`], for a trace built in memory.
    pub fn check(&self) -> Result<(), String> {
        let at = |index: usize| format!("{} n = {} step {}", self.solver, self.n, index + 1);
        if self.format != TRACE_FORMAT || self.format_version != Some(TRACE_VERSION) {
            return Err(format!(
                "{} n = {}: format '{}' version {}, expected '{TRACE_FORMAT}' version {TRACE_VERSION}",
                self.solver,
                self.n,
                self.format,
                self.format_version
                    .map_or("none".to_string(), |v| v.to_string())
            ));
        }
        let mut before = (0, 0);
        for (index, step) in self.steps.iter().enumerate() {
            if !EVENTS.contains(&step.event.as_str()) {
                return Err(format!("{}: unknown event '{}'", at(index), step.event));
            }
            let squares = step
                .queens
                .iter()
                .chain(step.attacked.iter().flatten())
                .chain(step.refused.iter())
                .chain(step.conflicting.iter().flatten());
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

    pub(crate) const SMALL: &str = r#"{"format":"queens-trace","format_version":1,"solver":"three-mask","n":4,
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

    /// Reads a trace written by [`Trace::packed`] back (and checks it), as
    /// the page's script does.
    fn unpack(packed: &str) -> Result<Trace, String> {
        use base64::Engine as _;
        let deflated = base64::engine::general_purpose::STANDARD
            .decode(packed)
            .map_err(|e| format!("not base64: {e}"))?;
        let json = miniz_oxide::inflate::decompress_to_vec(&deflated)
            .map_err(|e| format!("not a deflate stream: {e:?}"))?;
        Trace::from_json(&String::from_utf8_lossy(&json))
    }

    #[test]
    fn a_packed_trace_unpacks_to_itself_and_packs_the_same_every_time() {
        let trace = Trace::from_json(SMALL).unwrap();
        let packed = trace.packed();
        assert!(
            packed
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
        );
        assert_eq!(unpack(&packed).unwrap(), trace);
        assert_eq!(trace.packed(), packed);
        assert!(unpack("not base64!").is_err());
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
        let format = SMALL.replace("\"format_version\":1", "\"format_version\":9");
        assert!(Trace::from_json(&format).unwrap_err().contains("expected"));
        let unversioned = SMALL.replace("\"format_version\":1,", "");
        assert!(
            Trace::from_json(&unversioned)
                .unwrap_err()
                .contains("expected")
        );
        // The header written before format_version: still read, as version 1.
        let old = unversioned.replace("\"queens-trace\"", "\"queens-trace/1\"");
        assert_eq!(Trace::from_json(&old), Trace::from_json(SMALL));
        let old_other = old.replace("queens-trace/1", "queens-trace/2");
        assert!(
            Trace::from_json(&old_other)
                .unwrap_err()
                .contains("expected")
        );
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
