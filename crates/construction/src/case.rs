//! Which pattern each n gets, and the pattern itself.

/// The case of n that decides the pattern: n mod 6, with the two sizes that
/// have no board and the one-queen board apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// n = 1: one queen.
    One,
    /// n = 2 or 3: no board exists.
    NoBoard,
    /// n mod 6 is 0, 1, 4 or 5: the even ranks, then the odd ones.
    Plain,
    /// n mod 6 = 2: the odd ranks start 3, 1 and rank 5 goes last.
    Two,
    /// n mod 6 = 3: rank 2 ends the even ranks, ranks 1 and 3 the odd ones.
    Three,
}

impl Case {
    /// The case of the n×n board.
    pub fn of(n: usize) -> Case {
        match n {
            1 => Case::One,
            2 | 3 => Case::NoBoard,
            _ => match n % 6 {
                2 => Case::Two,
                3 => Case::Three,
                _ => Case::Plain,
            },
        }
    }

    /// Which case n falls in and why its pattern holds, in one line.
    pub fn explain(self, n: usize) -> String {
        let r = n % 6;
        match self {
            Case::One => "n = 1: one queen, nothing to attack".to_string(),
            Case::NoBoard => {
                format!("n = {n}: no board exists (every placement of {n} queens has an attack)")
            }
            Case::Plain if n.is_multiple_of(2) => format!(
                "n = {n}, n mod 6 = {r}: even ranks 2..{n}, then odd ranks 1..{}; a clash between the halves would need n = 6k + 2",
                n - 1
            ),
            Case::Plain => format!(
                "n = {n}, n mod 6 = {r}: the board of n - 1 = {} (n - 1 mod 6 = {}), which leaves the long diagonal empty, plus a queen in the corner {n}",
                n - 1,
                (n - 1) % 6
            ),
            Case::Two => format!(
                "n = {n}, n mod 6 = 2: even ranks, then the odd ones as 3, 1, 7, 9, ..., 5: the plain pattern's clashes (n = 6k + 2) moved away"
            ),
            Case::Three => format!(
                "n = {n}, n mod 6 = 3: even ranks 4..{} then 2, odd ranks 5..{n} then 1, 3: the n mod 6 = 2 repair shifted for an odd board",
                n - 1
            ),
        }
    }
}

/// Calls `put` with the rank (1..=n) of the queen on each file, file a
/// first: n calls, no search, no memory. Nothing is called for n = 2 or 3.
pub fn write_ranks(n: usize, mut put: impl FnMut(u32)) {
    let n32 = n as u32;
    // Odd numbers from `from` to the largest odd number up to n.
    let odds = |from: u32| (from..=n32).step_by(2);
    match Case::of(n) {
        Case::NoBoard => {}
        Case::One => put(1),
        Case::Plain => {
            (2..=n32).step_by(2).for_each(&mut put);
            odds(1).for_each(&mut put);
        }
        Case::Two => {
            (2..=n32).step_by(2).for_each(&mut put);
            [3, 1].into_iter().for_each(&mut put);
            odds(7).for_each(&mut put);
            put(5);
        }
        Case::Three => {
            (4..=n32).step_by(2).for_each(&mut put);
            put(2);
            odds(5).for_each(&mut put);
            [1, 3].into_iter().for_each(&mut put);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(n: usize) -> Vec<u32> {
        let mut out = Vec::new();
        write_ranks(n, |r| out.push(r));
        out
    }

    #[test]
    fn the_cases_follow_n_mod_6() {
        assert_eq!(ranks(4), [2, 4, 1, 3]);
        assert_eq!(ranks(5), [2, 4, 1, 3, 5]);
        assert_eq!(ranks(8), [2, 4, 6, 8, 3, 1, 7, 5]);
        assert_eq!(ranks(9), [4, 6, 8, 2, 5, 7, 9, 1, 3]);
        assert_eq!(ranks(1), [1]);
        assert!(ranks(2).is_empty() && ranks(3).is_empty());
    }

    #[test]
    fn every_n_gets_a_permutation_of_its_ranks() {
        for n in (4..300).chain([1]) {
            let mut sorted = ranks(n);
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=n as u32).collect::<Vec<_>>(), "n = {n}");
        }
    }

    #[test]
    fn every_explanation_names_its_n() {
        for n in 1..=20 {
            assert!(Case::of(n).explain(n).starts_with(&format!("n = {n}")));
        }
    }
}
