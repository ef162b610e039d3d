//! Records written before `Subtotal` had named fields still read, and still
//! pass their checksum: `fixtures/shard-format-2.json` was written by the
//! code of that time (subtotals as tuples), and its checksum covers every
//! byte of their JSON, so any change to how a subtotal is written would
//! fail here.

use queens_core::split::UnitCount;
use queens_distributed::merge::ShardFile;
use queens_distributed::shard::Subtotal;

const OLD_RECORD: &str = include_str!("fixtures/shard-format-2.json");

#[test]
fn a_shard_record_of_the_tuple_era_reads_with_its_checksum() {
    let file: ShardFile = serde_json::from_str(OLD_RECORD).unwrap();
    assert_eq!(
        file.shard.subtotals[1],
        Subtotal {
            unit: 4,
            count: UnitCount {
                solutions: 52,
                fixed_pairs: 8,
                nodes: 411,
                pair_tests: 0,
            },
        }
    );
    assert!(file.is_readable());
    assert!(file.is_sealed());
    let written = serde_json::to_string(&file.shard.subtotals).unwrap();
    assert_eq!(written, "[[1,40,4,300],[4,52,8,411]]");
}
