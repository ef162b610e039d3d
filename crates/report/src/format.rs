//! Numbers and names as the report prints them, and lists that name each
//! item once: fixed rules, so that the same record always gives the same
//! bytes.

/// Three significant digits with a unit: 850 ns, 1.23 µs, 45.6 ms, 2.01 s.
pub fn duration_ns(ns: f64) -> String {
    let (value, unit) = if ns >= 1e9 {
        (ns / 1e9, "s")
    } else if ns >= 1e6 {
        (ns / 1e6, "ms")
    } else if ns >= 1e3 {
        (ns / 1e3, "µs")
    } else {
        (ns, "ns")
    };
    format!("{} {unit}", significant(value))
}

/// Three significant figures (integers above 999 in full): 0.0123, 1.23,
/// 12.3, 456, 1234; a measurement or an estimate has no more. The one rule
/// for every figure the project prints.
pub fn significant(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.digits$}")
}

/// 365,596: thousands separated for reading, not parsing.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// 512 B, 1.50 KiB, 3.20 MiB, 1.02 GiB.
pub fn bytes(value: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if value < 1024 {
        return format!("{value} B");
    }
    let mut scaled = value as f64 / 1024.0;
    let mut unit = 0;
    while scaled >= 1024.0 && unit < UNITS.len() - 1 {
        scaled /= 1024.0;
        unit += 1;
    }
    format!("{} {}", significant(scaled), UNITS[unit])
}

/// A solver's or finder's name, and after it a warning when its rows were
/// measured before its code last changed (in `changed`).
pub(crate) fn stale_label(name: &str, changed: Option<&String>) -> String {
    match changed {
        Some(commit) => format!(
            "{name} (measured before its code changed in {}: rerun)",
            short(commit)
        ),
        None => name.to_string(),
    }
}

/// What follows an external program's id wherever it is named (the note
/// under the summary says what it means).
pub(crate) const EXTERNAL: &str = "(external)";

/// A solver's id as rows name it: marked [`EXTERNAL`] for a program
/// outside the workspace.
pub(crate) fn name(solver: &queens_record::SolverFacts) -> String {
    match solver.external {
        Some(_) => format!("{} {EXTERNAL}", solver.id),
        None => solver.id.clone(),
    }
}

/// A commit's (or a hash's) first 12 digits, as every output names one.
pub(crate) fn short(commit: &str) -> String {
    commit.chars().take(12).collect()
}

/// "commit" and a commit's first 12 digits, or "no git commit".
pub(crate) fn commit(commit: Option<&str>) -> String {
    commit.map_or("no git commit".into(), |c| format!("commit {}", short(c)))
}

/// The items in their first order, each once (a report's lists name each
/// record's reason, seed or solver once, where it first appears).
pub(crate) fn distinct<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_keeps_three_figures_at_every_scale() {
        let cases = [
            (1234.5, "1234"),
            (123.45, "123"),
            (12.345, "12.3"),
            (1.2345, "1.23"),
            (0.012345, "0.0123"),
            (-0.5, "-0.500"),
            (0.0, "0"),
            (f64::INFINITY, "inf"),
        ];
        for (x, shown) in cases {
            assert_eq!(significant(x), shown, "{x}");
        }
    }

    #[test]
    fn formats_are_fixed() {
        assert_eq!(duration_ns(850.0), "850 ns");
        assert_eq!(duration_ns(1234.0), "1.23 µs");
        assert_eq!(duration_ns(45_600_000.0), "45.6 ms");
        assert_eq!(duration_ns(2_010_000_000.0), "2.01 s");
        assert_eq!(thousands(365_596), "365,596");
        assert_eq!(thousands(92), "92");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(1536), "1.50 KiB");
        assert_eq!(bytes(3 << 20), "3.00 MiB");
    }
}
