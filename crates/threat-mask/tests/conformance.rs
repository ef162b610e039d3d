//! The workspace's solver contract (see the queens-conformance crate), for
//! both words: each is counted to its own limit, 8 and 11.

queens_conformance::suite!(u64: queens_threat_mask::THREAT_MASK);
queens_conformance::suite!(u128: queens_threat_mask::THREAT_MASK_U128);
