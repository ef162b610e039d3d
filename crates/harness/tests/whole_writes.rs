//! Files written whole: `report` puts all its files in place or none of
//! them (a target that cannot be replaced leaves every other one as it
//! was), and the temporary file a write goes through lies beside its
//! target by the path the user gave, so that a working directory deeper
//! than the system's path limit takes checkpoints and records.

use std::path::PathBuf;
use std::process::Command;

use crate::common::{newest_committed_record, queens, refused, splitting_solvers, stderr, stdout};

/// The files `report` writes into `--out`.
const OUTPUTS: [&str; 5] = [
    "COMPARISON.md",
    "time-vs-n.svg",
    "nodes-vs-n.svg",
    "find-vs-n.svg",
    "index.html",
];

/// A report's targets, each holding its old version: `out/` with every
/// output, and a README with the comparison's markers.
struct Published {
    dir: tempfile::TempDir,
}

impl Published {
    fn new() -> Published {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("out")).unwrap();
        for name in OUTPUTS {
            std::fs::write(dir.path().join("out").join(name), format!("old {name}")).unwrap();
        }
        let readme = "# A page\n<!-- BEGIN: comparison -->\nold\n<!-- END: comparison -->\n";
        std::fs::write(dir.path().join("README.md"), readme).unwrap();
        Published { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Every target with its contents, `None` for one that is not a file.
    fn contents(&self) -> Vec<(String, Option<Vec<u8>>)> {
        let outputs = OUTPUTS.iter().map(|name| format!("out/{name}"));
        (outputs.chain(["README.md".to_string()]))
            .map(|name| (name.clone(), std::fs::read(self.path(&name)).ok()))
            .collect()
    }

    /// `queens report` of the newest committed record into these targets.
    fn report(&self) -> std::process::Output {
        let record = newest_committed_record();
        let (out, readme) = (self.path("out"), self.path("README.md"));
        queens(&[
            "report",
            record.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--splice",
            readme.to_str().unwrap(),
        ])
    }

    /// Asserts that `report` is refused naming `target` and changes nothing.
    fn refused_whole(&self, target: &str) {
        let before = self.contents();
        let output = self.report();
        refused(&output, target);
        for ((name, old), (_, new)) in before.iter().zip(self.contents()) {
            assert!(*old == new, "{name} changed though {target} was refused");
        }
        let left: Vec<String> = std::fs::read_dir(self.path("out"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with(".queens-tmp-"))
            .collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
    }
}

/// A file made immutable (`chattr +i`: not even root may replace it) for
/// as long as this lives.
struct Immutable(PathBuf);

impl Immutable {
    /// `None`, with why, where the file system or the process's
    /// capabilities allow no immutable file.
    fn make(path: PathBuf) -> Result<Immutable, String> {
        let output = Command::new("chattr").arg("+i").arg(&path).output();
        match output {
            Ok(output) if output.status.success() => Ok(Immutable(path)),
            Ok(output) => Err(String::from_utf8_lossy(&output.stderr).into_owned()),
            Err(e) => Err(e.to_string()),
        }
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

#[test]
fn a_report_is_put_in_place_whole_or_not_at_all() {
    let published = Published::new();
    // A directory where the page goes.
    let page = published.path("out/index.html");
    std::fs::remove_file(&page).unwrap();
    std::fs::create_dir(&page).unwrap();
    std::fs::write(page.join("kept"), "a file in the way").unwrap();
    published.refused_whole("index.html");
    std::fs::remove_dir_all(&page).unwrap();
    std::fs::write(&page, "old index.html").unwrap();
    // An immutable page, then an immutable README to splice: each refused
    // with every other target as it was.
    for target in ["out/index.html", "README.md"] {
        match Immutable::make(published.path(target)) {
            Ok(_locked) => published.refused_whole(target),
            Err(why) => eprintln!("NOT RUN: the immutable {target} (chattr +i failed: {why})"),
        }
    }
    // Nothing in the way: every target is replaced.
    let before = published.contents();
    let output = published.report();
    assert!(output.status.success(), "{}", stderr(&output));
    for ((name, old), (_, new)) in before.iter().zip(published.contents()) {
        assert!(*old != new, "{name} was not replaced");
    }
}

#[test]
fn a_working_directory_deeper_than_the_path_limit_takes_checkpoints_and_records() {
    let root = tempfile::tempdir().unwrap();
    // 24 names of 200 bytes: over 4,800 bytes, past Linux's 4,096. Only a
    // shell that enters them one by one can work there (no absolute path
    // reaches it; `cd -P`, as a logical `cd` builds one), and so the
    // commands run in one.
    let script = r#"
        for i in $(seq 24); do mkdir "$NAME" && cd -P "$NAME" || exit 9; done
        "$QUEENS" count 8 --solver "$SOLVER" --checkpoint x.ck; echo "count exit $?"
        "$QUEENS" compare --max-n 5 --budget 0.01 --solver "$SOLVER" --out .
        echo "compare exit $?"
        ls -a
    "#;
    let output = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(root.path())
        .env("NAME", "d".repeat(200))
        .env("QUEENS", env!("CARGO_BIN_EXE_queens"))
        .env("SOLVER", splitting_solvers()[0])
        .output()
        .unwrap();
    let (text, err) = (stdout(&output), stderr(&output));
    assert!(text.contains("count exit 0"), "{text}\n{err}");
    assert!(text.contains("compare exit 0"), "{text}\n{err}");
    let files: Vec<&str> = text.lines().collect();
    assert!(files.contains(&"x.ck"), "no checkpoint: {text}");
    assert!(
        files.iter().any(|f| f.ends_with("-compare.json")),
        "no record: {text}"
    );
    assert!(!text.contains(".queens-tmp-"), "a temporary file is left");
}
