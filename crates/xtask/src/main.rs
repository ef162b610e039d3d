//! `cargo xtask`: parses the command line, runs the chore from the
//! workspace root, and turns a failure into one line and its exit code.

use std::process::ExitCode;

use clap::Parser;
use xtask::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Every chore works on the checkout, wherever it is started from.
    if let Err(error) = std::env::set_current_dir(xtask::workspace::root()) {
        eprintln!("xtask: cannot enter the workspace root: {error}");
        return ExitCode::from(2);
    }
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{error}");
            ExitCode::from(error.exit_code())
        }
    }
}
