//! A number with its noun, the noun agreeing with the number: "1 class",
//! "2 classes", "0 units". Counts in the output come from the work, and
//! one of them is 1 sooner or later (n = 1, one shard, one thread, a
//! sample of one draw), where "1 classes" reads as a slip.

use std::fmt::Display;

/// `count` and its noun: `one` when `count` is 1, `many` otherwise (0 and
/// every other number take the plural, as English does). Both forms are
/// given, as English plurals are not all an added "s" ("class",
/// "classes").
pub fn counted<T>(count: T, one: &str, many: &str) -> String
where
    T: Copy + Display + PartialEq + From<u8>,
{
    format!("{count} {}", noun(count, one, many))
}

/// The noun alone, for a number printed another way (with thousands
/// separators, say): `one` when `count` is 1, `many` otherwise.
pub fn noun<'a, T>(count: T, one: &'a str, many: &'a str) -> &'a str
where
    T: PartialEq + From<u8>,
{
    if count == T::from(1) { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_noun_agrees_with_its_number() {
        assert_eq!(counted(1usize, "class", "classes"), "1 class");
        assert_eq!(counted(2usize, "class", "classes"), "2 classes");
        assert_eq!(counted(0u64, "unit", "units"), "0 units");
        assert_eq!(counted(11u64, "unit", "units"), "11 units");
        assert_eq!(counted(1u32, "sub-part", "sub-parts"), "1 sub-part");
        assert_eq!(
            counted(u64::MAX, "solution", "solutions"),
            format!("{} solutions", u64::MAX)
        );
        assert_eq!(noun(1u64, "node", "nodes"), "node");
        assert_eq!(noun(1000u64, "node", "nodes"), "nodes");
    }
}
