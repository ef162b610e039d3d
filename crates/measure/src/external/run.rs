//! One run of an external command: started in its config's folder in a
//! process group of its own, its output read as it comes (so that a
//! talkative program never blocks on a full pipe), its whole wall time
//! taken, and the whole group killed if it outlives its time.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

/// The most of a program's output kept (the rest is read and dropped): an
/// answer is a line, and a program that prints boards must not fill memory.
const KEPT_BYTES: u64 = 1 << 20;

/// What a run printed and how long it took, start to exit.
#[derive(Debug)]
pub(super) struct Ran {
    /// Spawn to exit.
    pub(super) wall: Duration,
    /// Standard output (its first [`KEPT_BYTES`]).
    pub(super) stdout: String,
}

/// Runs `words` in `dir`, killed after `limit`. A run that cannot start,
/// fails, or is killed is an error in words for its row.
pub(super) fn run(words: &[String], dir: &Path, limit: Duration) -> Result<Ran, String> {
    let mut command = Command::new(&words[0]);
    command
        .args(&words[1..])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own group, so that a kill reaches what it started too (a
        // shell script's children would otherwise hold the pipes open).
        .process_group(0);
    let started = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|error| format!("cannot start {}: {error}", words[0]))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut kept = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.by_ref().take(KEPT_BYTES).read_to_end(&mut kept);
                let _ = std::io::copy(&mut pipe, &mut std::io::sink());
            }
            String::from_utf8_lossy(&kept).into_owned()
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let status = child.wait_timeout(limit);
    let wall = started.elapsed();
    let status = match status {
        Ok(Some(status)) => status,
        Ok(None) | Err(_) => {
            // SAFETY: kill(2) on the group this run created; no memory is
            // shared with it.
            unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
            let _ = child.wait();
            return Err(format!(
                "no answer within {:.1} s: killed",
                limit.as_secs_f64()
            ));
        }
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    if !status.success() {
        let last = stderr.trim().lines().last().unwrap_or("").trim();
        let said = if last.is_empty() {
            String::new()
        } else {
            format!(": {}", last.escape_debug())
        };
        return Err(format!("{} failed ({status}){said}", words[0]));
    }
    Ok(Ran { wall, stdout })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, limit: Duration) -> Result<Ran, String> {
        let words = ["sh", "-c", script].map(String::from);
        run(&words, Path::new("."), limit)
    }

    #[test]
    fn a_run_gives_its_output_and_wall_time() {
        let ran = sh("echo 92", Duration::from_secs(10)).unwrap();
        assert_eq!(ran.stdout, "92\n");
        assert!(ran.wall > Duration::ZERO);
    }

    #[test]
    fn a_failure_says_how_with_its_last_line_of_stderr() {
        let why = sh("echo no >&2; exit 3", Duration::from_secs(10)).unwrap_err();
        assert!(
            why.contains("exit status: 3") && why.ends_with(": no"),
            "{why}"
        );
        let missing = run(
            &["/no/such/program".into()],
            Path::new("."),
            Duration::from_secs(1),
        );
        assert!(
            missing
                .unwrap_err()
                .starts_with("cannot start /no/such/program")
        );
    }

    #[test]
    fn a_hang_is_killed_with_what_it_started() {
        let started = Instant::now();
        // The child shell's sleep holds the pipes: only a group kill ends it.
        let why = sh("sleep 30 & sleep 30", Duration::from_millis(200)).unwrap_err();
        assert_eq!(why, "no answer within 0.2 s: killed");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_flood_of_output_neither_blocks_nor_fills_memory() {
        let ran = sh("yes 1 | head -c 3000000", Duration::from_secs(30)).unwrap();
        assert_eq!(ran.stdout.len() as u64, KEPT_BYTES);
    }
}
