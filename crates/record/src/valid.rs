//! The values one field of a record may hold, checked as the field is read
//! (`#[serde(deserialize_with = "valid::<Rule, _, _>")]`), so that a record
//! read from a file holds none other; the checks that compare fields with
//! each other are [`crate::meaning`]'s. A refusal names the field, as a
//! path into the document.

use std::fmt::Display;
use std::marker::PhantomData;

use queens_core::Metric;
use serde::de::{Deserialize, Deserializer, Error};

/// What a field of some kind may hold.
pub(crate) trait Rule<T> {
    /// Why `value` is not one such a field holds, if it is not.
    fn refuse(value: &T) -> Option<String>;
}

/// Reads a field and refuses a value that breaks rule `R`.
pub(crate) fn valid<'de, R: Rule<T>, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    let value = T::deserialize(deserializer)?;
    R::refuse(&value).map_or(Ok(value), |why| Err(D::Error::custom(why)))
}

/// Rule `R` for an optional field: null is always valid.
pub(crate) struct Opt<R>(PhantomData<R>);

impl<T, R: Rule<T>> Rule<Option<T>> for Opt<R> {
    fn refuse(value: &Option<T>) -> Option<String> {
        value.as_ref().and_then(R::refuse)
    }
}

/// Text a report prints in one table cell or line: no line breaks or
/// other control characters, and not absurdly long.
pub(crate) struct Line;

impl Rule<String> for Line {
    fn refuse(text: &String) -> Option<String> {
        if text.chars().any(char::is_control) {
            return Some("contains a line break or control character".into());
        }
        (text.len() > 4096).then(|| "longer than 4096 bytes".into())
    }
}

/// A [`Line`] that is not blank.
pub(crate) struct Filled;

impl Rule<String> for Filled {
    fn refuse(text: &String) -> Option<String> {
        match text.trim().is_empty() {
            true => Some("empty".into()),
            false => Line::refuse(text),
        }
    }
}

/// A solver's or finder's id: lowercase letters, digits and '-'.
pub(crate) struct Id;

impl Rule<String> for Id {
    fn refuse(id: &String) -> Option<String> {
        (!is_id(id)).then(|| "not an id (lowercase letters, digits and '-', at most 64)".into())
    }
}

/// Whether `id` can name a solver, a finder or an external program in a
/// record: 1 to 64 lowercase letters, digits and '-'.
pub fn is_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && (id.bytes()).all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// `DIGITS` hexadecimal digits or, when `FEWEST` is less, `FEWEST` to
/// `DIGITS` of them.
pub(crate) struct Hex<const FEWEST: usize, const DIGITS: usize>;

impl<const FEWEST: usize, const DIGITS: usize> Rule<String> for Hex<FEWEST, DIGITS> {
    fn refuse(hex: &String) -> Option<String> {
        let fits =
            (FEWEST..=DIGITS).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit());
        (!fits).then(|| match FEWEST == DIGITS {
            true => format!("not a SHA-256 in hex ({DIGITS} digits)"),
            false => format!("not a commit id ({FEWEST} to {DIGITS} hexadecimal digits)"),
        })
    }
}

/// A whole number in `LOW..=HIGH`.
pub(crate) struct Within<const LOW: u64, const HIGH: u64>;

impl<T: Copy + Display + TryInto<u64>, const LOW: u64, const HIGH: u64> Rule<T>
    for Within<LOW, HIGH>
{
    fn refuse(value: &T) -> Option<String> {
        let fits = (*value).try_into().is_ok_and(|v| (LOW..=HIGH).contains(&v));
        (!fits).then(|| format!("{value} is not in {LOW}..={HIGH}"))
    }
}

/// A duration in seconds: above 0 and at most `MAX`.
pub(crate) struct Seconds<const MAX: u64>;

impl<const MAX: u64> Rule<f64> for Seconds<MAX> {
    fn refuse(&s: &f64) -> Option<String> {
        let fits = s.is_finite() && s > 0.0 && s <= MAX as f64;
        (!fits).then(|| format!("not a duration in seconds (above 0, at most {MAX} s)"))
    }
}

/// A duration in seconds, 0 to `MAX`.
pub(crate) struct Span<const MAX: u64>;

impl<const MAX: u64> Rule<f64> for Span<MAX> {
    fn refuse(s: &f64) -> Option<String> {
        let fits = (0.0..=MAX as f64).contains(s);
        (!fits).then(|| format!("not a duration in seconds (0 to {MAX} s)"))
    }
}

/// A finite number, 0 or more.
pub(crate) struct NonNegative;

impl Rule<f64> for NonNegative {
    fn refuse(&value: &f64) -> Option<String> {
        (!(value.is_finite() && value >= 0.0))
            .then(|| format!("{value} is not a finite number >= 0"))
    }
}

/// One run's time in nanoseconds: more than 0, at most a day (a longer
/// run is not a measurement this tool makes).
pub(crate) struct RunNs;

impl Rule<f64> for RunNs {
    fn refuse(&ns: &f64) -> Option<String> {
        let fits = ns.is_finite() && ns > 0.0 && ns <= DAY_NS as f64;
        (!fits).then(|| format!("{ns} is not a run time (more than 0, at most a day in ns)"))
    }
}

/// A solver's own figures: each named as a metric is.
pub(crate) struct MetricNames;

impl Rule<Vec<Metric>> for MetricNames {
    fn refuse(metrics: &Vec<Metric>) -> Option<String> {
        let named = |name: &str| {
            !name.is_empty() && (name.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'_')
        };
        let (k, _) = (metrics.iter().enumerate()).find(|(_, m)| !named(&m.name))?;
        Some(format!("extra[{k}].name is not a metric name"))
    }
}

/// A device named on one line each (its name, driver and backend).
pub(crate) struct Device;

impl Rule<queens_core::Accelerator> for Device {
    fn refuse(device: &queens_core::Accelerator) -> Option<String> {
        let named = Filled::refuse(&device.name).map(|why| format!("name: {why}"));
        let line = |(field, text)| Line::refuse(text).map(|why| format!("{field}: {why}"));
        named.or_else(|| {
            [("driver", &device.driver), ("backend", &device.backend)]
                .into_iter()
                .find_map(line)
        })
    }
}

/// A day in nanoseconds.
pub(crate) const DAY_NS: u64 = 86_400_000_000_000;
/// A week in seconds.
pub(crate) const WEEK: u64 = 86_400 * 7;
/// A year in seconds.
pub(crate) const YEAR: u64 = 86_400 * 365;
/// More cores or threads than any machine has.
pub(crate) const CORES: u64 = 1 << 20;
/// More samples than any run takes.
pub(crate) const SAMPLES: u64 = 1 << 30;
/// More heap than any machine has (1 PiB).
pub(crate) const HEAP: u64 = 1 << 50;
/// The largest board a count in a record may mention: no solver here
/// passes 32.
pub(crate) const COUNT_N: u64 = 64;
/// The largest board a finder in a record may mention
/// (`queens_core::find::MAX_FIND_N`).
pub(crate) const FIND_N: u64 = queens_core::find::MAX_FIND_N as u64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_refuses_what_no_real_run_writes() {
        let text = |s: &str| s.to_string();
        assert_eq!(Line::refuse(&text("one line")), None);
        assert!(Line::refuse(&text("two\nlines")).is_some());
        assert!(Line::refuse(&"x".repeat(4097)).is_some());
        assert!(Filled::refuse(&text(" ")).is_some());
        assert_eq!(Id::refuse(&text("three-mask")), None);
        assert!(Id::refuse(&text("Three Mask")).is_some());
        assert!(Hex::<7, 64>::refuse(&"é".repeat(20)).is_some());
        assert!(Hex::<64, 64>::refuse(&"ab".repeat(31)).is_some());
        assert_eq!(Hex::<64, 64>::refuse(&"ab".repeat(32)), None);
        assert!(Within::<1, 64>::refuse(&0usize).is_some());
        assert_eq!(Within::<1, 64>::refuse(&64usize), None);
        assert!(Seconds::<YEAR>::refuse(&0.0).is_some());
        assert!(Span::<WEEK>::refuse(&f64::NAN).is_some());
        assert_eq!(Span::<WEEK>::refuse(&0.0), None);
        assert!(NonNegative::refuse(&-1.0).is_some());
        for ns in [0.0, 1e308, f64::INFINITY] {
            assert!(RunNs::refuse(&ns).is_some(), "{ns}");
        }
        let metric = |name: &str| Metric {
            name: name.into(),
            value: 1,
        };
        assert!(MetricNames::refuse(&vec![metric("ok_1"), metric("not ok")]).is_some());
        assert_eq!(Opt::<Line>::refuse(&None), None);
    }
}
