//! One parser for every number on the command line: each argument names
//! itself and its allowed range once, and every refusal is one line that
//! says what is allowed and what was given. clap calls it while parsing, so a
//! bad number never reaches a command.

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

use queens_core::printable;

/// The largest board any argument accepts. No solver here goes past 32 (the
/// width of a machine word of masks), so this only keeps absurd values out
/// before a solver explains its own, smaller limit.
pub const MAX_BOARD: usize = 1024;

/// A kind of number an argument can take.
pub trait Number: Copy + PartialOrd + Display + FromStr + Send + Sync + 'static {
    /// How the refusal names the kind: "a whole number", "a number".
    const KIND: &'static str;
    /// Whether it is written in digits alone (with a minus sign): longer
    /// digit strings than the type holds are out of range, not malformed.
    const WHOLE: bool;
    /// The largest value of the type: a range up to it has no upper bound
    /// worth naming.
    const LARGEST: Self;
}

macro_rules! number_kind {
    ($($t:ty: $kind:literal, $whole:literal, $largest:expr;)*) => {$(
        impl Number for $t {
            const KIND: &'static str = $kind;
            const WHOLE: bool = $whole;
            const LARGEST: Self = $largest;
        }
    )*};
}
number_kind! {
    usize: "a whole number", true, usize::MAX;
    u64: "a whole number", true, u64::MAX;
    f64: "a number", false, f64::INFINITY;
}

/// A clap value parser for `name` (as the user types it: `--threads`, or
/// `n` for a positional argument) accepting `range`; `why` explains the
/// upper bound when it is not obvious (empty for none). Every refusal
/// tells malformed text from a value outside the range (including those no
/// machine type could hold, and NaN is malformed).
pub fn number<T: Number>(
    name: &'static str,
    range: RangeInclusive<T>,
    why: &'static str,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        // Echoed in the refusal: escaped, so that it stays one line.
        let text = printable(text.trim());
        let (low, high) = (*range.start(), *range.end());
        let bounded = high != T::LARGEST;
        let because = if why.is_empty() {
            String::new()
        } else {
            format!(" ({why})")
        };
        let malformed = || match bounded {
            true => format!(
                "{name} must be {} from {low} to {high}, got '{text}'",
                T::KIND
            ),
            false => format!("{name} must be {} >= {low}, got '{text}'", T::KIND),
        };
        let below = || format!("{name} must be at least {low}, got {text}");
        let above = || match bounded {
            true => format!("{name} is at most {high}{because}, got {text}"),
            false => format!("{name} {text} is too large"),
        };
        let digits = text.strip_prefix('-').unwrap_or(&text);
        if T::WHOLE && (digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit())) {
            return Err(malformed());
        }
        match text.parse::<T>() {
            Err(_) if T::WHOLE && text.starts_with('-') => Err(below()),
            Err(_) if T::WHOLE => Err(above()),
            Ok(value) if range.contains(&value) => Ok(value),
            Ok(value) if value < low => Err(below()),
            Ok(value) if value > high => Err(above()),
            // NaN, or no number at all.
            _ => Err(malformed()),
        }
    }
}

/// The board and the solver, shared by the commands that run one solver on
/// one board (`count`, `solve`, `trace`).
#[derive(Debug, clap::Args)]
pub struct Board {
    /// Board size (n queens on an n×n board).
    // Each solver's own upper limit is checked later, with a message that
    // names the solver and the reason.
    #[arg(value_parser = number("n", 1..=MAX_BOARD, "no solver here goes past 32"))]
    pub n: usize,
    /// Solver id (see `queens list`); default: the fastest registered solver
    /// that supports n and can do what the command asks.
    #[arg(long)]
    pub solver: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_in_range_are_read() {
        let parse = number("--threads", 1usize..=64, "");
        assert_eq!(parse("8"), Ok(8));
        assert_eq!(parse(" 64 "), Ok(64));
        assert_eq!(parse("1"), Ok(1));
    }

    #[test]
    fn every_refusal_names_the_argument_the_range_and_the_text() {
        let parse = number("--steps", 1usize..=500, "a trace is for reading");
        assert_eq!(parse("0").unwrap_err(), "--steps must be at least 1, got 0");
        assert_eq!(
            parse("-2").unwrap_err(),
            "--steps must be at least 1, got -2"
        );
        assert_eq!(
            parse("501").unwrap_err(),
            "--steps is at most 500 (a trace is for reading), got 501"
        );
        for malformed in ["lots", "8.5", "", "-", "3/4", "1e3"] {
            assert!(
                parse(malformed)
                    .unwrap_err()
                    .starts_with("--steps must be a whole number from 1 to 500"),
                "{malformed}"
            );
        }
    }

    #[test]
    fn values_no_machine_type_holds_are_out_of_range_not_malformed() {
        let parse = number("n", 1usize..=MAX_BOARD, "");
        assert!(
            parse("99999999999999999999999999999999999999999")
                .unwrap_err()
                .contains("at most")
        );
        assert!(
            parse("-99999999999999999999999999999999999999999")
                .unwrap_err()
                .contains("at least")
        );
    }

    #[test]
    fn a_range_up_to_the_types_largest_value_names_no_upper_bound() {
        let parse = number("--limit", 1u64..=u64::MAX, "");
        assert_eq!(
            parse("many").unwrap_err(),
            "--limit must be a whole number >= 1, got 'many'"
        );
        assert_eq!(
            parse("99999999999999999999999").unwrap_err(),
            "--limit 99999999999999999999999 is too large"
        );
        assert_eq!(parse("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn seconds_refuse_nan_and_infinity() {
        let parse = number("--budget", 0.001..=86_400.0, "");
        assert_eq!(parse("2.5"), Ok(2.5));
        assert!(parse("NaN").unwrap_err().contains("must be a number"));
        assert!(parse("inf").unwrap_err().contains("at most"));
        assert!(parse("0").unwrap_err().contains("at least 0.001"));
    }
}
