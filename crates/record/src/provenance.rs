//! Where a record's numbers come from: the code, the compiler, the machine,
//! the moment and the command. Facts that cannot be found are recorded as
//! `null`/"unknown", never guessed.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::valid::{CORES, Hex, Line, Opt, Rule, Within, valid};

/// Who measured, with what, on what and when: enough to reproduce a record
/// or to know why it differs from another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// `git rev-parse HEAD` of the working directory, if it is a checkout.
    #[serde(default, deserialize_with = "valid::<Opt<Hex<7, 64>>, _, _>")]
    pub git_commit: Option<String>,
    /// Whether tracked or untracked files differed from that commit.
    pub git_dirty: Option<bool>,
    /// The compiler that built the measuring program.
    #[serde(deserialize_with = "valid::<Line, _, _>")]
    pub rustc: String,
    /// `model name` from /proc/cpuinfo.
    #[serde(deserialize_with = "valid::<Line, _, _>")]
    pub cpu_model: String,
    /// Cores available to the process.
    #[serde(deserialize_with = "valid::<Within<1, CORES>, _, _>")]
    pub cores: usize,
    /// Operating system name, distribution and kernel release.
    #[serde(deserialize_with = "valid::<Line, _, _>")]
    pub os: String,
    /// UTC, ISO 8601 with milliseconds, e.g. 2026-11-22T09:40:00.123Z: a
    /// moment that exists (checked as it is read).
    #[serde(deserialize_with = "valid::<UtcDate, _, _>")]
    pub date: String,
    /// The command that produced the record, as a user would type it.
    #[serde(deserialize_with = "valid::<Line, _, _>")]
    pub command: String,
}

impl Provenance {
    /// Collects the facts now, for a record made by `command`.
    pub fn collect(command: String) -> Self {
        Provenance {
            git_commit: git(&["rev-parse", "HEAD"]),
            git_dirty: git(&["status", "--porcelain"]).map(|changes| !changes.is_empty()),
            rustc: env!("QUEENS_RUSTC_VERSION").to_string(),
            cpu_model: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            os: operating_system(),
            date: utc_timestamp(SystemTime::now()),
            command,
        }
    }
}

/// `git ARGUMENTS`' trimmed output, or `None` where git fails (no git, not
/// a checkout); its complaints are not the caller's output.
pub fn git(arguments: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .args(arguments)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// `model name` from /proc/cpuinfo, or "unknown": the CPU a record names,
/// and the one a reader compares it with.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| model_name(&text))
        .unwrap_or_else(|| "unknown".to_string())
}

/// The first `model name` line's value.
fn model_name(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find(|line| line.starts_with("model name"))
        .and_then(|line| line.split_once(':'))
        .map(|(_, model)| model.trim().to_string())
}

fn operating_system() -> String {
    let read = |path| std::fs::read_to_string(path).ok();
    let distribution = read("/etc/os-release").and_then(|text| {
        let name = text
            .lines()
            .find_map(|line| line.strip_prefix("PRETTY_NAME="));
        name.map(|name| name.trim_matches('"').to_string())
    });
    let kernel = read("/proc/sys/kernel/osrelease").map(|k| format!("kernel {}", k.trim()));
    let system = [std::env::consts::OS, std::env::consts::ARCH].map(String::from);
    (system.into_iter().chain(distribution).chain(kernel))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `time` as UTC, RFC 3339 (ISO 8601) with milliseconds, e.g.
/// 2026-11-22T09:40:00.123Z; a clock set before 1970 reads as 1970.
pub fn utc_timestamp(time: SystemTime) -> String {
    humantime::format_rfc3339_millis(time.max(UNIX_EPOCH)).to_string()
}

/// A date as [`utc_timestamp`] writes it, refusing one that names no
/// moment (month 13, 30 February, 24:00): a record's file name and every
/// report that cites it are made from its date.
pub(crate) struct UtcDate;

impl Rule<String> for UtcDate {
    fn refuse(text: &String) -> Option<String> {
        let format = "a UTC date and time as YYYY-MM-DDTHH:MM:SS.mmmZ";
        (!is_utc_timestamp(text)).then(|| format!("'{text}' is not {format}"))
    }
}

/// Whether `text` is a moment written as [`utc_timestamp`] writes one:
/// it reads as a date and time that exist (no month 13, no 30 February, no
/// 24:00, no leap second) and writes back to the same text.
fn is_utc_timestamp(text: &str) -> bool {
    humantime::parse_rfc3339(text).is_ok_and(|time| utc_timestamp(time) == text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_model_is_the_first_model_name() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: X\nmodel name\t: Some CPU @ 2.20GHz\n\n\
                       processor\t: 1\nmodel name\t: Other\n";
        assert_eq!(model_name(cpuinfo).as_deref(), Some("Some CPU @ 2.20GHz"));
        assert_eq!(model_name("processor\t: 0\n"), None);
    }
    use std::time::Duration;

    #[test]
    fn timestamps_match_known_dates() {
        let at = |seconds: u64, millis: u64| {
            utc_timestamp(UNIX_EPOCH + Duration::from_secs(seconds) + Duration::from_millis(millis))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        let before = UNIX_EPOCH - Duration::from_secs(1);
        assert_eq!(utc_timestamp(before), "1970-01-01T00:00:00.000Z");
        // 2000-02-29 (a leap day in a year divisible by 400).
        assert_eq!(at(951_782_400, 0), "2000-02-29T00:00:00.000Z");
        // 2024-12-31T23:59:59.999Z, the last moment of a leap year.
        assert_eq!(at(1_735_689_599, 999), "2024-12-31T23:59:59.999Z");
        assert_eq!(at(1_735_689_600, 0), "2025-01-01T00:00:00.000Z");
    }

    #[test]
    fn only_a_moment_that_exists_is_a_date() {
        for good in [
            "2026-11-22T09:40:00.123Z",
            "2024-02-29T23:59:59.999Z",
            "2000-02-29T00:00:00.000Z",
            "2026-04-30T12:00:00.000Z",
            "2026-12-31T00:00:00.000Z",
        ] {
            assert!(is_utc_timestamp(good), "{good}");
        }
        for bad in [
            "9999-99-99T99:99:99.999Z",
            "2026-13-01T00:00:00.000Z",
            "2026-00-01T00:00:00.000Z",
            "2026-02-30T00:00:00.000Z",
            "2023-02-29T00:00:00.000Z",
            "1900-02-29T00:00:00.000Z",
            "2026-04-31T00:00:00.000Z",
            "2026-01-00T00:00:00.000Z",
            "2026-01-01T24:00:00.000Z",
            "2026-01-01T00:60:00.000Z",
            "2026-01-01T00:00:60.000Z",
            "2026-01-01T00:00:00Z",
            "2026-01-01 00:00:00.000Z",
            "2026-01-01T00:00:00.000",
            "2026-+1-01T00:00:00.000Z",
            "",
        ] {
            assert!(!is_utc_timestamp(bad), "{bad}");
        }
        // Every moment written is read back, a leap day and a year's end
        // among them.
        for days in (0..200_000u64).step_by(97).chain([11_016, 19_782]) {
            let time = UNIX_EPOCH + Duration::from_secs(days * 86_400 + 86_399);
            assert!(is_utc_timestamp(&utc_timestamp(time)), "{days}");
        }
    }
}
