//! `queens`: the command-line harness. Parses the command, dispatches to one
//! module per subcommand, and turns errors into one line on stderr with exit
//! code 2 (bad input) or 1 (failed verification).

use std::process::ExitCode;

use clap::Parser;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use queens_harness::cli::{Cli, Command};
use queens_harness::commands;
use queens_harness::error::CliError;

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return report_parse_error(error),
    };
    let result = match cli.command {
        Command::List => commands::list::run(),
        Command::Count(args) => commands::count::run(&args),
        Command::Solve(args) => commands::solve::run(&args),
        Command::Verify(args) => commands::verify::run(&args),
        Command::Merge(args) => commands::merge::run(&args),
        Command::Compare(args) => commands::compare::run(&args),
        Command::Report(args) => commands::report::run(&args),
        Command::Trace(args) => commands::trace::run(&args),
        Command::Explain(args) => commands::explain::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("queens: {error}");
            ExitCode::from(error.exit_code() as u8)
        }
    }
}

/// Help and version go to stdout with exit 0; anything else is bad input:
/// clap's first line (which names the argument and the reason), exit 2.
fn report_parse_error(error: clap::Error) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            ExitCode::from(2)
        }
        _ => {
            let text = error.render().to_string();
            let first = text.lines().next().unwrap_or("invalid command line");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            // clap lists the allowed values, or the missing arguments, on
            // later lines: keep them on this one.
            let allowed = match (error.kind(), error.get(ContextKind::ValidValue)) {
                (_, Some(ContextValue::Strings(values))) => {
                    format!("; possible values: {}", values.join(", "))
                }
                (ErrorKind::MissingRequiredArgument, _) => match error.get(ContextKind::InvalidArg)
                {
                    Some(ContextValue::Strings(missing)) => format!(" {}", missing.join(", ")),
                    _ => String::new(),
                },
                _ => String::new(),
            };
            eprintln!("queens: {first}{allowed} (see `queens --help`)");
            ExitCode::from(CliError::Usage(String::new()).exit_code() as u8)
        }
    }
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
