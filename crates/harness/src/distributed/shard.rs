//! `--shard I/K`: which part of a split count this run does, and the record
//! a shard leaves for `queens merge`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Shard `index` of `count`, both counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ShardSpec {
    /// Which shard, from 1.
    pub index: usize,
    /// How many shards in all.
    pub count: usize,
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for ShardSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let malformed = || "expected I/K (shard I of K, 1 <= I <= K), e.g. 3/8".to_string();
        let (index, count) = text.trim().split_once('/').ok_or_else(malformed)?;
        let index: usize = index.trim().parse().map_err(|_| malformed())?;
        let count: usize = count.trim().parse().map_err(|_| malformed())?;
        if count == 0 {
            return Err("the number of shards K must be at least 1".to_string());
        }
        if index == 0 {
            return Err(format!(
                "shards are numbered from 1: 1/{count} .. {count}/{count}"
            ));
        }
        if index > count {
            return Err(format!(
                "there is no shard {index} of {count}: 1/{count} .. {count}/{count}"
            ));
        }
        Ok(ShardSpec { index, count })
    }
}

/// clap's value parser for `--shard`.
pub fn parse_shard(text: &str) -> Result<ShardSpec, String> {
    text.parse()
}

/// The part of a `count --shard I/K --json` record that `merge` needs
/// besides the counts: which shard, of which partition, with which options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// Which shard, from 1.
    pub index: usize,
    /// How many shards in all.
    pub count: usize,
    /// The partition's version ([`queens_core::split::WorkSplit::version`]).
    pub split: String,
    /// Work units in this shard.
    pub units: usize,
    /// This shard's share of Burnside's fixed pairs (with `--unique` only):
    /// the classes are the sum over all shards divided by 8.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fixed_pairs: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs_parse_and_refuse_nonsense() {
        assert_eq!("3/8".parse(), Ok(ShardSpec { index: 3, count: 8 }));
        assert_eq!("1/1".parse(), Ok(ShardSpec { index: 1, count: 1 }));
        for bad in ["0/4", "5/4", "1/0", "3", "a/b", "-1/4", "2/4/8", ""] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad}");
        }
    }
}
