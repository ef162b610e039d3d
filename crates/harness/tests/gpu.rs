//! The GPU engine as a user meets it. Without an adapter (simulated here
//! by asking wgpu for a backend this build does not have, as on a machine
//! without a GPU driver): a count is one line and exit 2, `list` says why
//! it is unavailable, `verify` and `compare` go on without it. With one
//! (CI installs Mesa's lavapipe and sets QUEENS_REQUIRE_GPU): its counts
//! are OEIS's, and `compare` does not time a software driver.

use crate::common;

use common::{NO_ADAPTER, refused, stderr, stdout, without_adapter};
use queens_core::oeis;
use serde_json::Value;

const GPU: &str = "gpu-constellations";

#[test]
fn without_an_adapter_a_count_is_refused_in_one_line() {
    for args in [
        &["count", "8", "--solver", GPU][..],
        &["count", "10", "--solver", GPU, "--unique", "--json"],
        &["count", "10", "--solver", GPU, "--shard", "1/2", "--json"],
    ] {
        refused(
            &without_adapter(args),
            &format!("gpu-constellations cannot count here: {NO_ADAPTER}"),
        );
    }
}

#[test]
fn without_an_adapter_list_says_why_and_verify_goes_on() {
    let listed = without_adapter(&["list"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    assert!(
        stdout(&listed).contains(&format!(
            "unavailable: gpu-constellations cannot count here: {NO_ADAPTER}"
        )),
        "{}",
        stdout(&listed)
    );
    let verified = without_adapter(&[
        "verify",
        "--max-n",
        "6",
        "--solver",
        GPU,
        "--solver",
        "three-mask",
    ]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    let text = stdout(&verified);
    assert!(
        text.starts_with("note: gpu-constellations cannot count here: "),
        "{text}"
    );
    assert_eq!(text.matches(GPU).count(), 1, "checked nowhere else: {text}");
    assert!(stderr(&verified).is_empty(), "{}", stderr(&verified));
}

fn required() -> bool {
    !queens_conformance::without_its_device(&queens_gpu::GPU_CONSTELLATIONS)
}

#[test]
fn with_an_adapter_counts_are_oeis_and_a_software_driver_is_not_timed() {
    if !required() {
        return;
    }
    let device = queens_core::Solver::accelerator(&queens_gpu::GPU_CONSTELLATIONS)
        .unwrap()
        .expect("a GPU engine names its device");
    for n in [1, 5, 8, 12] {
        let output = common::queens(&[
            "count",
            &n.to_string(),
            "--solver",
            GPU,
            "--unique",
            "--json",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let record: Value = serde_json::from_str(stdout(&output).trim()).unwrap();
        assert_eq!(record["solutions"].as_u64(), oeis::total(n), "n = {n}");
        assert_eq!(record["unique"].as_u64(), oeis::unique(n), "n = {n}");
    }
    // "On the GPU" may be a software driver on the CPU: the count says
    // which device counted.
    let counted = common::queens(&["count", "8", "--solver", GPU]);
    assert!(counted.status.success(), "{}", stderr(&counted));
    let device_row = stdout(&counted)
        .lines()
        .find(|l| l.starts_with("device "))
        .map(str::to_string)
        .unwrap_or_default();
    assert!(device_row.contains(&device.name), "{}", stdout(&counted));
    let verified = common::queens(&["verify", "--max-n", "9", "--solver", GPU]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert!(stdout(&verified).contains(GPU));
    if device.software {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().to_str().unwrap();
        let compared = common::queens(&[
            "compare",
            "--max-n",
            "5",
            "--solver",
            GPU,
            "--solver",
            "three-mask",
            "--out",
            out,
        ]);
        assert!(compared.status.success(), "{}", stderr(&compared));
        let text = stdout(&compared);
        assert!(
            text.contains("\nnote: gpu-constellations not timed: "),
            "{text}"
        );
        assert_eq!(text.matches(GPU).count(), 1, "timed nowhere else: {text}");
    }
}
