//! `queens`: the command-line harness. Parses the command, runs it, and
//! turns a failure into one line on stderr with the exit code its kind
//! decides (`CliError::exit_code`: 1 a failed verification, 2 bad input).

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use queens_core::printable;
use queens_harness::cli::Cli;
use queens_harness::error::{CliError, exit_with};

/// Every allocation is counted while `queens_measure::heap::peak_during`
/// watches a run (`compare` measures peak heap); otherwise the cost is one
/// relaxed load. Installed here, by the program, not by a library.
#[global_allocator]
static ALLOCATOR: queens_measure::heap::CountingAllocator = queens_measure::heap::CountingAllocator;

fn main() -> ExitCode {
    restore_default_sigpipe();
    quiet_vulkan_device_select();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return report_parse_error(error),
    };
    // A forced half-join kernel the CPU lacks (or no kernel at all) is bad
    // input, refused before any command runs.
    if let Err(why) = queens_half_join::kernel::choice() {
        exit_with(CliError::Input(why));
    }
    match cli.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => exit_with(error),
    }
}

/// Help and version go to stdout with exit 0 (help for a command given
/// without its arguments to stderr, exit 2); anything else is bad input:
/// clap's first line (which names the argument and the reason), exit 2.
fn report_parse_error(error: clap::Error) -> ExitCode {
    let bad_input = CliError::Input(String::new()).exit_code();
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = error.print();
        return ExitCode::from(if error.use_stderr() { bad_input } else { 0 });
    }
    // A value given is echoed: clap's text would be cut by a newline in it
    // (and loses its escape sequences), so the line is made here from the
    // value, escaped.
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(printable(text)),
        _ => None,
    };
    let value = context(ContextKind::InvalidValue);
    let first = match (error.kind(), value, context(ContextKind::InvalidArg)) {
        (ErrorKind::ValueValidation | ErrorKind::InvalidValue, Some(value), Some(arg))
            if !value.is_empty() =>
        {
            let why = std::error::Error::source(&error)
                .map(|why| format!(": {why}"))
                .unwrap_or_default();
            format!("invalid value '{value}' for '{arg}'{why}")
        }
        (ErrorKind::UnknownArgument, _, Some(arg)) => format!("unexpected argument '{arg}' found"),
        _ => match context(ContextKind::InvalidSubcommand) {
            Some(name) => format!("unrecognized subcommand '{name}'"),
            None => {
                let text = error.render().to_string();
                let first = text.lines().next().unwrap_or("invalid command line");
                first.strip_prefix("error: ").unwrap_or(first).to_string()
            }
        },
    };
    // clap lists the allowed values, or the missing arguments, on later
    // lines: keep them on this one.
    let allowed = match (error.kind(), error.get(ContextKind::ValidValue)) {
        (_, Some(ContextValue::Strings(values))) if !values.is_empty() => {
            format!("; possible values: {}", values.join(", "))
        }
        (ErrorKind::MissingRequiredArgument, _) => match error.get(ContextKind::InvalidArg) {
            Some(ContextValue::Strings(missing)) => format!(" {}", missing.join(", ")),
            _ => String::new(),
        },
        _ => String::new(),
    };
    // Not eprintln!, which panics when stderr is closed.
    let line = format!("{first}{allowed} (see `queens --help`)");
    let _ = writeln!(std::io::stderr(), "queens: {}", printable(&line));
    ExitCode::from(bad_input)
}

/// Rust ignores SIGPIPE, which turns `queens solve 12 | head` into a panic
/// in `println!` once `head` exits. A command-line filter should end quietly
/// instead, like every other Unix tool: restore the default action.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread or I/O exists;
    // setting a signal's disposition to SIG_DFL has no other precondition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Mesa's Vulkan device-selection layer, loaded implicitly with any Mesa
/// driver, asks the Wayland compositor which GPU is the default one, and on
/// a machine with no session (a server, CI, a container) libwayland writes
/// "error: XDG_RUNTIME_DIR is invalid ..." to stderr: noise around the
/// GPU engine's one-line answers. wgpu picks the adapter itself, so the
/// layer is turned off (its documented switch) unless the user set it.
fn quiet_vulkan_device_select() {
    const SWITCH: &str = "NODEVICE_SELECT";
    if std::env::var_os(SWITCH).is_none() {
        // SAFETY: called first thing in main, before any thread exists, so
        // no other thread can be reading the environment while it changes.
        unsafe { std::env::set_var(SWITCH, "1") };
    }
}
