//! A one-node Slurm cluster on this Debian machine, for testing the
//! cluster path for real: munge for authentication, slurmctld and slurmd
//! as root daemons (no systemd), one partition holding this host with all
//! its CPUs. Everything it writes lives in `$QUEENS_SLURM_DIR` (default
//! /tmp/queens-slurm); clients find it through `SLURM_CONF`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::{Error, process};

/// The cluster's directory and configuration file.
#[derive(Debug, Clone)]
pub struct Cluster {
    /// Where its state, logs and pid files live.
    pub dir: PathBuf,
}

impl Cluster {
    /// `$QUEENS_SLURM_DIR`, default /tmp/queens-slurm.
    pub fn from_env() -> Cluster {
        let dir = std::env::var_os("QUEENS_SLURM_DIR")
            .filter(|d| !d.is_empty())
            .map_or_else(|| PathBuf::from("/tmp/queens-slurm"), PathBuf::from);
        Cluster { dir }
    }

    /// Its slurm.conf: clients find the cluster through `SLURM_CONF`.
    pub fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }

    /// A client command (sbatch, squeue, scontrol...) pointed at it.
    pub fn client(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", self.conf());
        command
    }

    fn pid_file(&self, daemon: &str) -> PathBuf {
        self.dir.join(format!("{daemon}.pid"))
    }

    fn pid(&self, daemon: &str) -> Option<String> {
        std::fs::read_to_string(self.pid_file(daemon))
            .ok()
            .map(|text| text.trim().to_string())
            .filter(|pid| !pid.is_empty())
    }

    fn running(&self, daemon: &str) -> bool {
        self.pid(daemon)
            .is_some_and(|pid| process::succeeds(Command::new("kill").args(["-0", &pid])))
    }

    /// Ends a daemon started here: SIGTERM, a bounded wait for it to save
    /// its state and exit, then SIGKILL, so that a later start finds its
    /// ports free.
    fn end(&self, daemon: &str) {
        let Some(pid) = self.pid(daemon) else { return };
        process::succeeds(Command::new("kill").arg(&pid));
        process::wait_until(Duration::from_secs(10), Duration::from_millis(200), || {
            !self.running(daemon)
        });
        process::succeeds(Command::new("kill").args(["-KILL", &pid]));
        let _ = std::fs::remove_file(self.pid_file(daemon));
    }

    /// Stops the daemons it started.
    pub fn stop(&self) {
        for daemon in ["slurmd", "slurmctld", "munged"] {
            self.end(daemon);
        }
    }

    /// Starts the cluster and waits (bounded) for the node to report in.
    pub fn start(&self) -> Result<(), Error> {
        if !process::on_path("slurmctld") || !process::on_path("munged") {
            println!("one-node slurm: installing slurm-wlm and munge");
            process::apt_install(&["slurm-wlm", "munge"])?;
        }
        let (state, spool) = (self.dir.join("state"), self.dir.join("spool"));
        for dir in [
            &state,
            &spool,
            Path::new("/run/munge"),
            Path::new("/etc/munge"),
        ] {
            fs::create_dir_all(dir).map_err(Error::io("one-node slurm: cannot create", dir))?;
        }
        munge_key()?;
        let host = process::stdout(Command::new("hostname").arg("-s"))?;
        let host = host.trim();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let conf = slurm_conf(&self.dir, host, cpus);
        fs::write(self.conf(), conf)
            .map_err(Error::io("one-node slurm: cannot write", &self.conf()))?;

        // A munged that already answers (the package's own, say) is used as
        // it is; otherwise one is started here, and stopped by `stop`.
        if !self.running("munged") && !munge_answers() {
            let pid_file = format!("--pid-file={}", self.pid_file("munged").display());
            process::run(Command::new("munged").args(["--force", &pid_file]))?;
        }
        // -c: a scratch cluster starts with an empty queue. Jobs recovered
        // from the saved state of an earlier run that was killed would
        // count as running, hold the node's CPUs and keep new ones pending.
        for (daemon, flags) in [("slurmctld", &["-c"][..]), ("slurmd", &[][..])] {
            if !self.running(daemon) {
                process::run(self.client(daemon).args(flags).arg("-f").arg(self.conf()))?;
            }
        }

        // The node reports in within seconds; give it a bounded while.
        let mut state = String::new();
        let up = process::wait_until(Duration::from_secs(60), Duration::from_secs(1), || {
            let sinfo = process::stdout(self.client("sinfo").args(["-h", "-N", "-o", "%T"]));
            state = sinfo
                .unwrap_or_default()
                .lines()
                .next()
                .unwrap_or_default()
                .to_string();
            if state.starts_with("down") || state.starts_with("drain") {
                let node = format!("nodename={host}");
                process::succeeds(
                    self.client("scontrol")
                        .args(["update", &node, "state=resume"]),
                );
            }
            matches!(state.as_str(), "idle" | "mixed" | "allocated")
        });
        if up {
            println!(
                "one-node slurm: {host} is {state} ({cpus} CPUs); SLURM_CONF={}",
                self.conf().display()
            );
            return Ok(());
        }
        let shown = if state.is_empty() { "none" } else { &state };
        Err(Error::Failed(format!(
            "one-node slurm: the node did not come up (state '{shown}'); see {0}/slurmctld.log and {0}/slurmd.log",
            self.dir.display()
        )))
    }
}

/// Munge authenticates every message between the daemons and the clients;
/// one key, readable by root only, is all a single node needs.
fn munge_key() -> Result<(), Error> {
    let key = Path::new("/etc/munge/munge.key");
    if key.metadata().map_or(true, |m| m.len() == 0) {
        process::run(Command::new("dd").args([
            "if=/dev/urandom",
            "of=/etc/munge/munge.key",
            "bs=1024",
            "count=1",
            "status=none",
        ]))?;
    }
    process::run(Command::new("chmod").args(["400", "/etc/munge/munge.key"]))?;
    // As the script did, a failure to chown (not root) is left to munged
    // to complain about.
    process::succeeds(Command::new("chown").args([
        "root:root",
        "/etc/munge/munge.key",
        "/run/munge",
    ]));
    Ok(())
}

/// Whether a munged answers already: a credential made and read back.
fn munge_answers() -> bool {
    let Ok(mut encode) = Command::new("munge")
        .arg("-n")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    let Some(credential) = encode.stdout.take() else {
        return false;
    };
    let decoded = process::succeeds(Command::new("unmunge").stdin(credential));
    encode.wait().is_ok_and(|status| status.success()) && decoded
}

/// The slurm.conf of this host alone.
pub fn slurm_conf(dir: &Path, host: &str, cpus: usize) -> String {
    include_str!("../templates/slurm.conf")
        .replace("{dir}", &dir.display().to_string())
        .replace("{host}", host)
        .replace("{cpus}", &cpus.to_string())
}
