//! The published counts as the last word on a whole count: `count` (fresh,
//! resumed, on threads, one shard of one) and `merge` both end here, so a
//! total that a forged checkpoint or a wrong shard has bent cannot leave
//! either with exit 0 where OEIS knows the answer.

use queens_core::oeis;
use queens_core::split::SYMMETRIES;

use crate::Error;

/// Compares a whole board's `solutions` (and `classes`, when counted) with
/// A000170 and A002562. `whose` starts the refusal ("this count found",
/// "the shards add up to"); `advice` ends it with what to do. Returns
/// whether OEIS knows n, i.e. whether anything was compared.
pub fn check(
    n: usize,
    solutions: u64,
    classes: Option<u64>,
    whose: &str,
    advice: &str,
) -> Result<bool, Error> {
    let refusal = |found: u64, what: &str, sequence: &str, expected: u64| {
        Error::Verification(format!(
            "{whose} {found} {what} for n = {n}, but OEIS {sequence} says {expected}: {advice}"
        ))
    };
    if let Some(expected) = oeis::total(n)
        && expected != solutions
    {
        return Err(refusal(solutions, "solutions", "A000170", expected));
    }
    if let (Some(found), Some(expected)) = (classes, oeis::unique(n))
        && found != expected
    {
        return Err(refusal(found, "classes", "A002562", expected));
    }
    Ok(oeis::total(n).is_some())
}

/// The classes of a whole board from its units' `fixed_pairs` (Burnside:
/// an eighth of them), or a refusal worded as [`check`]'s if they are not a
/// multiple of 8, which no real count gives.
pub fn classes(fixed_pairs: u64, whose: &str, advice: &str) -> Result<u64, Error> {
    if fixed_pairs.is_multiple_of(SYMMETRIES) {
        return Ok(fixed_pairs / SYMMETRIES);
    }
    Err(Error::Verification(format!(
        "{whose} {fixed_pairs} fixed pairs, which is not a multiple of {SYMMETRIES}: {advice}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_published_total_passes_and_says_it_was_compared() {
        let n = 8;
        let total = oeis::total(n).unwrap();
        assert!(check(n, total, oeis::unique(n), "found", "fix it").unwrap());
    }

    #[test]
    fn one_solution_off_or_one_class_off_is_refused() {
        let n = 10;
        let total = oeis::total(n).unwrap();
        let classes = oeis::unique(n).unwrap();
        let off = check(n, total + 1, None, "this count found", "recount").unwrap_err();
        assert!(matches!(off, Error::Verification(_)));
        assert!(off.to_string().contains("A000170"), "{off}");
        let classes_off = check(n, total, Some(classes - 1), "found", "recount").unwrap_err();
        assert!(classes_off.to_string().contains("A002562"), "{classes_off}");
    }

    #[test]
    fn fixed_pairs_give_an_eighth_or_a_refusal() {
        assert_eq!(classes(96, "found", "").unwrap(), 12);
        let odd = classes(97, "found", "recount").unwrap_err();
        assert!(odd.to_string().contains("not a multiple of 8"), "{odd}");
    }

    #[test]
    fn an_unpublished_n_compares_nothing() {
        let beyond = oeis::MAX_KNOWN_N + 1;
        assert!(!check(beyond, 12345, Some(1), "found", "").unwrap());
    }
}
