//! `cargo xtask browser-test` (scripts/browser-test): the HTML page
//! (bench-results/index.html, made by `queens report`) in a real browser.
//! The test itself is the harness's `tests/browser.rs` (it drives headless
//! Chromium over the page made from the committed records, plays every
//! trace step by step, sorts, switches solvers, takes screenshots and fails
//! on any console error); this chore installs Debian's chromium if it is
//! missing (as root, like CI) and runs that test, which plain `cargo test`
//! skips. Screenshots: `$QUEENS_SCREENSHOTS` (default
//! target/tmp/browser-screenshots). `$QUEENS_CHROMIUM` names another browser.

use std::process::Command;

use crate::{Error, process};

/// Installs Chromium if needed and runs the browser test.
pub fn run() -> Result<(), Error> {
    let chromium = std::env::var("QUEENS_CHROMIUM")
        .ok()
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "chromium".to_string());
    if !process::on_path(&chromium) {
        println!("chromium is missing: installing Debian's package");
        process::apt_install(&["chromium"])?;
    }
    // --workspace, as the README's test command: the same features, so
    // the test binaries `cargo test --workspace` built are reused (with
    // `-p queens-harness` alone cargo resolved other features and built
    // the harness's tests again). Only the harness's integration tests
    // have a `browser::` module.
    process::run(Command::new("cargo").args([
        "test",
        "--quiet",
        "--workspace",
        "--test",
        "integration",
        "browser::",
        "--",
        "--ignored",
        "--nocapture",
    ]))
}
