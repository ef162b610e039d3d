//! Where a record's numbers come from: the code, the compiler, the machine,
//! the moment and the command. Facts that cannot be found are recorded as
//! `null`/"unknown", never guessed.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serialize, de::Error};

/// Who measured, with what, on what and when: enough to reproduce a record
/// or to know why it differs from another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// `git rev-parse HEAD` of the working directory, if it is a checkout.
    pub git_commit: Option<String>,
    /// Whether tracked or untracked files differed from that commit.
    pub git_dirty: Option<bool>,
    /// The compiler that built the measuring program.
    pub rustc: String,
    /// `model name` from /proc/cpuinfo.
    pub cpu_model: String,
    /// Cores available to the process.
    pub cores: usize,
    /// Operating system name, distribution and kernel release.
    pub os: String,
    /// UTC, ISO 8601 with milliseconds, e.g. 2026-11-22T09:40:00.123Z: a
    /// moment that exists ([`utc_date`]).
    #[serde(deserialize_with = "utc_date")]
    pub date: String,
    /// The command that produced the record, as a user would type it.
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
    let distribution = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("PRETTY_NAME="))
                .map(|name| name.trim_matches('"').to_string())
        });
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|release| release.trim().to_string());
    let mut parts = vec![
        std::env::consts::OS.to_string(),
        std::env::consts::ARCH.to_string(),
    ];
    parts.extend(distribution);
    parts.extend(kernel.map(|k| format!("kernel {k}")));
    parts.join(", ")
}

/// `time` as UTC, ISO 8601 with milliseconds. Written here rather than with
/// a date crate: only this one conversion is needed.
pub fn utc_timestamp(time: SystemTime) -> String {
    let since_epoch = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since_epoch.as_secs();
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    let in_day = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        in_day / 3600,
        in_day % 3600 / 60,
        in_day % 60,
        since_epoch.subsec_millis()
    )
}

/// Reads a date as [`utc_timestamp`] writes it, refusing one that names no
/// moment (month 13, 30 February, 24:00): a record's file name and every
/// report that cites it are made from its date.
fn utc_date<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let text = String::deserialize(deserializer)?;
    let problem = format!("'{text}' is not a UTC date and time as YYYY-MM-DDTHH:MM:SS.mmmZ");
    (is_utc_timestamp(&text).then_some(text)).ok_or_else(|| D::Error::custom(problem))
}

/// Whether `text` is a moment written as [`utc_timestamp`] writes one.
fn is_utc_timestamp(text: &str) -> bool {
    const SHAPE: &[u8] = b"dddd-dd-ddTdd:dd:dd.dddZ";
    let shaped = text.len() == SHAPE.len()
        && (text.bytes().zip(SHAPE)).all(|(c, &s)| c == s || (s == b'd' && c.is_ascii_digit()));
    // Read only where the shape holds (all digits), so no sign slips by.
    let field = |at: usize, len: usize| text.get(at..at + len).and_then(|f| f.parse().ok());
    let (year, month, day) = (field(0, 4).unwrap_or(1), field(5, 2), field(8, 2));
    let leap = u32::from(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0));
    let days = [31, 28 + leap, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    // The month's days, `None` (below every day) for no month 1 to 12.
    let in_month = month.and_then(|m: u32| days.get(m.checked_sub(1)? as usize));
    let time =
        [(11, 24), (14, 60), (17, 60)].map(|(at, end)| field(at, 2).is_some_and(|f| f < end));
    shaped && day.is_some_and(|d| d >= 1 && Some(&d) <= in_month) && time == [true; 3]
}

/// Days since 1970-01-01 to a proleptic Gregorian date, counting in 400-year
/// eras (146 097 days each) whose years start on 1 March, so that the leap
/// day falls at the end of a year.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
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
