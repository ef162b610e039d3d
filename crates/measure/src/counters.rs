//! Branch mispredictions counted by the processor, read in-process around a
//! run (Linux `perf_event_open`, user-space branch misses of this thread).
//! They are the evidence of why a repeated search gets cheaper: the
//! processor learns its branches and mispredicts fewer of them.
//!
//! Many machines cannot read them (a virtual machine without a virtual PMU,
//! `kernel.perf_event_paranoid` set high, a non-Linux system): opening the
//! counter then fails, and the reason, one line, goes into the record
//! instead of a figure.

/// What the kernel returns on reading a counter opened with
/// `PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING`:
/// three native-endian u64s, read straight into this (`repr(C)`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Events counted while the counter was on the processor.
    pub value: u64,
    /// Nanoseconds the counter was enabled.
    pub enabled: u64,
    /// Nanoseconds it actually counted (less than `enabled` when the kernel
    /// multiplexed counters).
    pub running: u64,
}

impl Reading {
    /// The count over the whole enabled time: scaled up when the counter
    /// ran only part of it, `None` when it never ran (nothing was counted,
    /// which is not zero events).
    pub fn estimate(&self) -> Option<f64> {
        match (self.running, self.enabled) {
            (0, _) => None,
            (running, enabled) if running >= enabled => Some(self.value as f64),
            (running, enabled) => Some(self.value as f64 * enabled as f64 / running as f64),
        }
    }
}

/// Branch misses per node: the median of the per-run counts over the
/// nodes of one run. `None` without counts or nodes.
pub fn per_node(misses_per_run: &[f64], nodes: u64) -> Option<f64> {
    let median = crate::stats::median(misses_per_run)?;
    (nodes > 0).then(|| median / nodes as f64)
}

/// The `kernel.perf_event_paranoid` level as the kernel writes it (an
/// integer and a newline), for the reason a counter could not be opened.
pub fn parse_paranoid(text: &str) -> Option<i32> {
    text.trim().parse().ok()
}

/// An open branch-miss counter of the calling thread, user space only.
#[derive(Debug)]
pub struct BranchMisses {
    #[cfg(target_os = "linux")]
    fd: std::os::fd::OwnedFd,
}

impl BranchMisses {
    /// Opens the counter, or says in one line why it cannot be read here.
    pub fn open() -> Result<Self, String> {
        #[cfg(target_os = "linux")]
        {
            linux::open().map_err(|error| {
                let paranoid = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
                    .ok()
                    .and_then(|text| parse_paranoid(&text))
                    .map_or(String::new(), |level| {
                        format!("; kernel.perf_event_paranoid is {level}")
                    });
                format!(
                    "the processor's branch-miss counter cannot be read here \
                     (perf_event_open: {error}{paranoid})"
                )
            })
        }
        #[cfg(not(target_os = "linux"))]
        {
            Err("branch-miss counters are read only on Linux (perf_event_open)".to_string())
        }
    }

    /// Runs `work` with the counter on; its result and the misses counted
    /// (`None` if the counter could not be read or never ran).
    pub fn count<T>(&self, work: impl FnOnce() -> T) -> (T, Option<f64>) {
        #[cfg(target_os = "linux")]
        {
            linux::count(&self.fd, work)
        }
        #[cfg(not(target_os = "linux"))]
        {
            (work(), None)
        }
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io::Error;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

    use super::Reading;

    /// `PERF_TYPE_HARDWARE` and `PERF_COUNT_HW_BRANCH_MISSES`.
    const TYPE_HARDWARE: u32 = 0;
    const BRANCH_MISSES: u64 = 5;
    /// `PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING`.
    const READ_FORMAT: u64 = 1 | 2;
    /// Flag bits: `disabled` (0), `exclude_kernel` (5), `exclude_hv` (6):
    /// start off, count this program's own branches only.
    const FLAGS: u64 = 1 | (1 << 5) | (1 << 6);
    /// `PERF_ATTR_SIZE_VER0`: the first 64 bytes of `perf_event_attr`
    /// hold every field set here; the kernel zero-extends the rest.
    const ATTR_BYTES: usize = 64;
    /// `_IO('$', 0)`, `_IO('$', 1)`, `_IO('$', 3)`.
    const IOC_ENABLE: u64 = 0x2400;
    const IOC_DISABLE: u64 = 0x2401;
    const IOC_RESET: u64 = 0x2403;

    /// `perf_event_attr` as bytes: type (u32 at 0), size (u32 at 4),
    /// config (u64 at 8), read_format (u64 at 32), flags (u64 at 40).
    fn attr() -> [u8; ATTR_BYTES] {
        let mut bytes = [0u8; ATTR_BYTES];
        bytes[0..4].copy_from_slice(&TYPE_HARDWARE.to_ne_bytes());
        bytes[4..8].copy_from_slice(&(ATTR_BYTES as u32).to_ne_bytes());
        bytes[8..16].copy_from_slice(&BRANCH_MISSES.to_ne_bytes());
        bytes[32..40].copy_from_slice(&READ_FORMAT.to_ne_bytes());
        bytes[40..48].copy_from_slice(&FLAGS.to_ne_bytes());
        bytes
    }

    pub(super) fn open() -> Result<super::BranchMisses, Error> {
        let attr = attr();
        // SAFETY: perf_event_open reads `size` (64) bytes from a valid,
        // initialised buffer of that length and returns a new descriptor or
        // -1; pid 0 and cpu -1 mean this thread on any processor, group -1
        // no group, flags 0.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_perf_event_open,
                attr.as_ptr(),
                0 as libc::pid_t,
                -1 as libc::c_int,
                -1 as libc::c_int,
                0 as libc::c_ulong,
            )
        };
        if fd < 0 {
            return Err(Error::last_os_error());
        }
        // SAFETY: the descriptor was just returned by the kernel, is owned
        // by no one else, and is closed once, by the OwnedFd.
        let fd = unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) };
        Ok(super::BranchMisses { fd })
    }

    fn ioctl(fd: &OwnedFd, request: u64) -> bool {
        // SAFETY: these perf ioctls take no argument and only act on the
        // counter behind a descriptor this process owns.
        unsafe { libc::ioctl(fd.as_raw_fd(), request as _, 0) == 0 }
    }

    pub(super) fn count<T>(fd: &OwnedFd, work: impl FnOnce() -> T) -> (T, Option<f64>) {
        let started = ioctl(fd, IOC_RESET) && ioctl(fd, IOC_ENABLE);
        let result = work();
        let stopped = ioctl(fd, IOC_DISABLE);
        let mut reading = Reading::default();
        let size = std::mem::size_of::<Reading>();
        // SAFETY: reads at most `size` bytes into a `repr(C)` struct of
        // three u64s this function owns (any bytes are valid u64s), from a
        // descriptor this process owns.
        let got = unsafe { libc::read(fd.as_raw_fd(), (&raw mut reading).cast(), size) };
        let read = got == size as isize;
        let misses = (started && stopped && read)
            .then(|| reading.estimate())
            .flatten();
        (result, misses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(value: u64, enabled: u64, running: u64) -> Reading {
        Reading {
            value,
            enabled,
            running,
        }
    }

    #[test]
    fn a_reading_is_three_words_and_multiplexing_is_scaled_up() {
        // The kernel writes three u64s: the struct is exactly those.
        assert_eq!(std::mem::size_of::<Reading>(), 24);
        // Counted a quarter of the time: four times the count.
        assert_eq!(reading(1_000, 400, 100).estimate(), Some(4_000.0));
        assert_eq!(reading(7, 50, 50).estimate(), Some(7.0));
        assert_eq!(
            reading(0, 50, 0).estimate(),
            None,
            "a counter that never ran counted nothing, not zero"
        );
    }

    #[test]
    fn misses_per_node_are_the_median_run_over_its_nodes() {
        assert_eq!(per_node(&[300.0, 100.0, 200.0], 100), Some(2.0));
        assert_eq!(per_node(&[], 100), None);
        assert_eq!(per_node(&[5.0], 0), None);
    }

    #[test]
    fn the_paranoid_level_parses_as_the_kernel_writes_it() {
        assert_eq!(parse_paranoid("2\n"), Some(2));
        assert_eq!(parse_paranoid("-1\n"), Some(-1));
        assert_eq!(parse_paranoid("garbage"), None);
    }

    /// Whichever this machine allows: an open counter counts a branchy loop
    /// (and counts nothing it was not around); an unreadable one says why,
    /// on one line, naming the call that failed.
    #[test]
    fn the_counter_either_counts_or_says_why_not() {
        match BranchMisses::open() {
            Ok(counter) => {
                let (sum, misses) = counter.count(|| {
                    let mut state = 0x9e37_79b9_u32;
                    let mut sum = 0u32;
                    for _ in 0..100_000 {
                        state ^= state << 13;
                        state ^= state >> 17;
                        state ^= state << 5;
                        if std::hint::black_box(state) & 1 == 1 {
                            sum = sum.wrapping_add(state);
                        }
                    }
                    sum
                });
                std::hint::black_box(sum);
                let misses = misses.expect("an open counter reads");
                // Half the coin flips are mispredicted, give or take.
                assert!(misses > 1_000.0, "{misses}");
            }
            Err(why) => {
                assert!(why.contains("perf_event_open") || why.contains("only on Linux"));
                // Without a counter, a run is still timed, with no figure
                // (cold's tests).
                assert!(!why.contains('\n'), "{why}");
            }
        }
    }
}
