//! The errors a solver or the shared helpers can report. Every message names
//! the limit that was crossed and why the limit exists, so a user reading one
//! line on stderr knows what to change.

use thiserror::Error;

/// Why a solver (or a shared helper) refused a request. Refusals are the
/// caller's to fix, so each message says what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum QueensError {
    /// n = 0 is not a board.
    #[error("n must be at least 1 (a board has at least one square)")]
    EmptyBoard,

    /// The solver's representation cannot hold a board this large.
    #[error("{solver} supports n <= {max_n} {reason}")]
    TooLarge {
        /// The solver's id.
        solver: &'static str,
        /// The largest n it supports.
        max_n: usize,
        /// Why the limit exists, e.g. "on a u64 board: one bit per square".
        reason: &'static str,
        /// The n asked for.
        n: usize,
    },

    /// The solver only counts: it never materialises boards.
    #[error(
        "{solver} only counts solutions; it cannot list them (use `count`, or pick a solver that enumerates)"
    )]
    CannotEnumerate {
        /// The solver's id.
        solver: &'static str,
    },

    /// Algebraic notation uses one letter per file.
    #[error("algebraic notation has files a..z, so n <= 26 (got n = {n})")]
    AlgebraicTooWide {
        /// The board size asked for.
        n: usize,
    },

    /// A square like `b5` could not be parsed.
    #[error("cannot read square '{text}': {why}")]
    BadSquare {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        why: &'static str,
    },

    /// A list of squares does not describe one queen per file.
    #[error("not a solution of an {n}x{n} board: {why}")]
    NotOneQueenPerFile {
        /// The board size.
        n: usize,
        /// Which file is empty or doubly taken.
        why: String,
    },

    /// The solver needs a device this machine does not offer (a GPU
    /// solver without an adapter), or the device failed during the count.
    #[error("{solver} cannot count here: {reason}")]
    Unavailable {
        /// The solver's id.
        solver: &'static str,
        /// What is missing or what went wrong, in one line.
        reason: String,
    },

    /// A part of a unit that the engine does not cut it into.
    #[error(
        "no part {index} of {of} of this unit (it can be cut into at most {})",
        crate::counted(*.max, "part", "parts")
    )]
    NoSuchPart {
        /// The part asked for.
        index: u32,
        /// Into how many parts.
        of: u32,
        /// The most parts the unit can be cut into.
        max: u32,
    },

    /// The worker threads of a split count could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
}

impl QueensError {
    /// `Ok` when an n×n board is within a limit of `max_n` (the one check
    /// of [`crate::SolverInfo`] and [`crate::FinderInfo`]): n = 0 is
    /// [`QueensError::EmptyBoard`], past `max_n` is
    /// [`QueensError::TooLarge`] naming `id` and `reason`.
    pub fn check_size(
        id: &'static str,
        max_n: usize,
        reason: &'static str,
        n: usize,
    ) -> Result<(), QueensError> {
        match n {
            0 => Err(QueensError::EmptyBoard),
            n if n > max_n => Err(QueensError::TooLarge {
                solver: id,
                max_n,
                reason,
                n,
            }),
            _ => Ok(()),
        }
    }
}

/// `text` as it may be echoed on a terminal or in a log: every control
/// character (C0, DEL, C1) and every Unicode line or paragraph separator
/// or bidirectional override is shown escaped (`\n`, `\x1b`, `\u{202e}`),
/// so that a solver id, a file name or an option value taken from the user
/// or from a file can neither split a one-line message in two nor send the
/// terminal an escape sequence. Text without such characters is returned
/// as it is, borrowed.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    fn hidden(c: char) -> bool {
        c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let shown = text.chars().map(|c| match c {
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        '\t' => "\\t".to_string(),
        c if !hidden(c) => c.to_string(),
        c if u32::from(c) < 0x100 => format!("\\x{:02x}", u32::from(c)),
        c => format!("\\u{{{:x}}}", u32::from(c)),
    });
    std::borrow::Cow::Owned(shown.collect())
}

/// A path as [`printable`] shows text: for a message that names a file the
/// user gave (its name may hold any byte but `/` and NUL).
pub fn printable_path(path: &std::path::Path) -> String {
    printable(&path.display().to_string()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn control_characters_are_shown_escaped_and_plain_text_is_untouched() {
        assert_eq!(printable("three-mask"), "three-mask");
        assert_eq!(printable("é ✓ 8×8"), "é ✓ 8×8");
        assert_eq!(printable("a\nb"), "a\\nb");
        assert_eq!(printable("\x1b[31mred"), "\\x1b[31mred");
        assert_eq!(printable("del\x7f c1\u{9b}"), "del\\x7f c1\\x9b");
        assert_eq!(printable("\u{202e}txt.exe"), "\\u{202e}txt.exe");
        for text in ["\r\n", "\x00", "\u{85}", "\u{2028}"] {
            assert!(!printable(text).chars().any(char::is_control), "{text:?}");
            assert!(!printable(text).contains('\u{2028}'));
        }
    }
}
