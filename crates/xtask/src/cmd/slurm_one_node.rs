//! `cargo xtask slurm-one-node [start|stop|env]` (scripts/slurm/one-node):
//! the one-node Slurm cluster of [`crate::slurm`]. `start` (the default)
//! installs slurm-wlm and munge from Debian's packages if they are missing
//! and waits for the node; `stop` ends the daemons it started; `env`
//! prints the `export SLURM_CONF=...` line clients need. Starting it twice
//! is harmless; starting its controller begins with an empty queue (it is
//! a scratch cluster).

use crate::Error;
use crate::slurm::Cluster;

/// What to do.
#[derive(Debug, Clone, Copy, Default, clap::ValueEnum)]
pub enum Action {
    /// Start the cluster (installing what is missing).
    #[default]
    Start,
    /// Stop the daemons it started.
    Stop,
    /// Print the line that points clients at it.
    Env,
}

/// The action, `start` if none.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// start, stop or env.
    #[arg(value_enum, default_value_t)]
    pub action: Action,
}

/// Runs the action.
pub fn run(args: &Args) -> Result<(), Error> {
    let cluster = Cluster::from_env();
    match args.action {
        Action::Start => cluster.start(),
        Action::Stop => {
            cluster.stop();
            println!("one-node slurm: stopped");
            Ok(())
        }
        Action::Env => {
            println!("export SLURM_CONF={}", cluster.conf().display());
            Ok(())
        }
    }
}
