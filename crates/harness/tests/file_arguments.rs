//! Files given as arguments: a named pipe, a directory or a device given
//! where a file is meant is refused in one line at once (a run that would
//! block fails here on a deadline rather than hanging the suite), a legal
//! name near the 255-byte limit can be a checkpoint, a killed writer's
//! temporary file is cleaned by the next write, and untrusted text never
//! reaches the terminal raw.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

use crate::common::{newest_committed_record, queens, refused, splitting_solvers, stderr};

/// A refusal comes at once; this much is left for a loaded machine.
const DEADLINE: Duration = Duration::from_secs(20);

/// Runs `queens ARGS`, killing it and failing if it has not ended by
/// [`DEADLINE`]: a command blocked on a pipe must fail the test, not hang it.
fn queens_within_deadline(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the queens binary runs");
    let started = Instant::now();
    while child
        .try_wait()
        .expect("the child can be waited for")
        .is_none()
    {
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`queens {}` still runs after {DEADLINE:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("its output is read")
}

/// A named pipe at `path` (nothing ever writes to it).
fn mkfifo(path: &Path) {
    let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

/// Every command that reads or writes a file, given `bad` where the file
/// goes.
fn commands_given(bad: &str, out: &str) -> Vec<Vec<String>> {
    let record = newest_committed_record().display().to_string();
    let solver = splitting_solvers()[0];
    [
        vec!["merge", bad],
        vec!["recheck", bad],
        vec!["report", bad, "--out", out],
        vec!["report", &record, "--out", out, "--splice", bad],
        vec!["count", "8", "--solver", solver, "--checkpoint", bad],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(str::to_string).collect())
    .collect()
}

fn run(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    queens_within_deadline(&args)
}

#[test]
fn a_named_pipe_where_a_file_is_meant_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("shard.json");
    mkfifo(&pipe);
    let out = dir.path().join("out");
    for args in commands_given(pipe.to_str().unwrap(), out.to_str().unwrap()) {
        let output = run(&args);
        refused(&output, "is a named pipe (FIFO), not a file");
        assert!(stderr(&output).contains("shard.json"), "{args:?}");
    }
}

#[test]
fn a_directory_or_a_device_where_a_file_is_meant_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for (bad, kind) in [
        (dir.path().to_str().unwrap(), "is a directory, not a file"),
        ("/dev/null", "is a device, not a file"),
    ] {
        for args in commands_given(bad, out.to_str().unwrap()) {
            let output = run(&args);
            refused(&output, kind);
        }
    }
}

#[test]
fn a_checkpoint_name_of_240_bytes_works() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{}.checkpoint", "c".repeat(240 - ".checkpoint".len()));
    assert_eq!(name.len(), 240);
    let checkpoint = dir.path().join(&name);
    let output = queens_within_deadline(&[
        "count",
        "8",
        "--solver",
        splitting_solvers()[0],
        "--checkpoint",
        checkpoint.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(checkpoint.is_file(), "no checkpoint written");
}

#[test]
fn a_killed_writers_temporary_file_is_cleaned_by_the_next_compare() {
    let dir = tempfile::tempdir().unwrap();
    // Left by a compare killed mid-write five minutes ago: its process id
    // (past the kernel's largest, 2^22) runs no more.
    let stale = dir.path().join(".queens-tmp-00400001-abcdefgh");
    std::fs::write(&stale, "half a record").unwrap();
    let file = std::fs::File::options().write(true).open(&stale).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(300))
        .unwrap();
    // Not ours: kept, however old.
    let other = dir.path().join(".someone-elses.tmp");
    std::fs::write(&other, "theirs").unwrap();
    let output = queens(&[
        "compare",
        "--max-n",
        "5",
        "--budget",
        "0.01",
        "--solver",
        splitting_solvers()[0],
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!stale.exists(), "the stale temporary file is still there");
    assert!(other.exists(), "a file that is not ours was removed");
}

#[test]
fn untrusted_text_is_echoed_escaped_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let named = dir.path().join("shard\nqueens: all is well\x1b[2J.json");
    for args in [
        vec!["count", "8", "--solver", "evil\nqueens: ok\x1b]0;title\x07"],
        vec!["merge", named.to_str().unwrap()],
        vec!["count", "8\n\x1b[31m"],
        vec!["list", "--a\nb\x1b[31m"],
        vec!["cou\nnt\x1b[31m"],
    ] {
        let output = queens_within_deadline(&args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
        assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
        assert!(err.contains("\\n") && err.contains("\\x1b"), "{err:?}");
    }
}
