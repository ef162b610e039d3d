//! The GPU counts committed in bench-results/gpu (made on a lent GPU, not
//! in CI) are exact: every line's Q(n), and classes where it has them,
//! equal OEIS A000170 and A002562, and the engine's nodes equal
//! constellations' wherever both were counted.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use queens_core::oeis;

#[test]
fn every_recorded_gpu_count_equals_oeis() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-results/gpu");
    let mut lines = 0;
    let mut nodes: BTreeMap<(String, u64), u64> = BTreeMap::new();
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        for line in fs::read_to_string(&path).unwrap().lines() {
            let count: serde_json::Value = serde_json::from_str(line).unwrap();
            let n = count["n"].as_u64().unwrap();
            let solver = count["solver"].as_str().unwrap().to_string();
            let at = usize::try_from(n).unwrap();
            assert_eq!(count["solutions"].as_u64(), oeis::total(at), "{line}");
            if let Some(unique) = count.get("unique") {
                assert_eq!(unique.as_u64(), oeis::unique(at), "{line}");
            }
            nodes.insert((solver, n), count["nodes"].as_u64().unwrap());
            lines += 1;
        }
    }
    assert!(lines >= 5, "no GPU counts under {}", dir.display());
    for ((solver, n), gpu) in &nodes {
        if solver == "gpu-constellations"
            && let Some(cpu) = nodes.get(&("constellations".to_string(), *n))
        {
            assert_eq!(gpu, cpu, "nodes at n = {n}");
        }
    }
}
