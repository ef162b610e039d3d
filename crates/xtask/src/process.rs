//! Running other programs: every exit status is checked, and a failure
//! names the command that failed.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::Error;

/// The command as one line, for messages.
pub fn describe(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(OsStr::to_string_lossy)
        .collect::<Vec<_>>()
        .join(" ")
}

fn spawn_failed(command: &Command, error: std::io::Error) -> Error {
    Error::Failed(format!("cannot run `{}`: {error}", describe(command)))
}

/// Anything but exit status 0 is an error naming the command.
fn checked(command: &Command, status: std::process::ExitStatus) -> Result<(), Error> {
    match status.success() {
        true => Ok(()),
        false => Err(Error::Failed(format!(
            "`{}` failed ({status})",
            describe(command)
        ))),
    }
}

/// Starts the command; a failure to start names it.
pub fn spawn(command: &mut Command) -> Result<std::process::Child, Error> {
    let child = command.spawn();
    child.map_err(|error| spawn_failed(command, error))
}

/// Runs the command; anything but exit status 0 is an error.
pub fn run(command: &mut Command) -> Result<(), Error> {
    let status = command.status();
    checked(
        command,
        status.map_err(|error| spawn_failed(command, error))?,
    )
}

/// Runs the command and returns its standard output (its standard error
/// goes to ours); anything but exit status 0 is an error.
pub fn stdout(command: &mut Command) -> Result<String, Error> {
    let output = command.stderr(Stdio::inherit()).output();
    let output = output.map_err(|error| spawn_failed(command, error))?;
    checked(command, output.status)?;
    String::from_utf8(output.stdout)
        .map_err(|_| Error::Failed(format!("`{}` printed no UTF-8", describe(command))))
}

/// Whether the command exits with 0 (output discarded): a question, not a
/// step, so a failure to start it is a "no" too.
pub fn succeeds(command: &mut Command) -> bool {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// A scratch directory, removed when dropped.
pub fn scratch(chore: &str) -> Result<tempfile::TempDir, Error> {
    tempfile::tempdir()
        .map_err(|error| Error::Failed(format!("{chore}: no scratch directory: {error}")))
}

/// Asks `done` every `every` until it says yes or `limit` has passed:
/// whether it said yes.
pub fn wait_until(limit: Duration, every: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    loop {
        if done() {
            return true;
        }
        if started.elapsed() > limit {
            return false;
        }
        std::thread::sleep(every);
    }
}

/// Whether an executable of this name is on `PATH` (or the path itself
/// when it has a slash).
pub fn on_path(name: &str) -> bool {
    if name.contains('/') {
        return Path::new(name).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| is_executable(&dir.join(name))))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// Installs Debian packages (as root, like CI), without the packages they
/// only recommend: what the checks need and nothing more.
pub fn apt_install(packages: &[&str]) -> Result<(), Error> {
    run(Command::new("apt-get")
        .args(["update", "-qq"])
        .stdout(Stdio::null()))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "-qq", "--no-install-recommends"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .stdout(Stdio::null()))
}

/// Installs those of these Debian packages that are missing.
pub fn install_missing(packages: &[&str]) -> Result<(), Error> {
    match succeeds(Command::new("dpkg").arg("-s").args(packages)) {
        true => Ok(()),
        false => apt_install(packages),
    }
}
