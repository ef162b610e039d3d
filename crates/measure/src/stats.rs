//! Statistics of a handful of timed runs that one noisy sample cannot
//! sway: the median and the median absolute deviation, and the [`Timing`]
//! a record stores. Plain functions of the samples, so that anything that
//! times runs (the benches, `queens compare`, scripts comparing builds)
//! summarises them the same way.

use queens_record::Timing;

/// The middle of the samples (the mean of the two middle ones for an even
/// count); `None` for no samples. NaN sorts last and is not special-cased:
/// a measurement is never NaN.
pub fn median(samples: &[f64]) -> Option<f64> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        length if length % 2 == 1 => Some(sorted[middle]),
        _ => Some((sorted[middle - 1] + sorted[middle]) / 2.0),
    }
}

/// The median of the distances from the median: a spread that one outlier
/// cannot inflate (a standard deviation would follow it). `None` for no
/// samples.
pub fn median_absolute_deviation(samples: &[f64]) -> Option<f64> {
    let center = median(samples)?;
    let deviations: Vec<f64> = samples.iter().map(|x| (x - center).abs()).collect();
    median(&deviations)
}

/// Summarises per-run times in nanoseconds as a record stores them; `None`
/// for no samples.
pub fn timing(samples_ns: &[f64]) -> Option<Timing> {
    let fastest = samples_ns.iter().copied().min_by(f64::total_cmp)?;
    let slowest = samples_ns.iter().copied().max_by(f64::total_cmp)?;
    Some(Timing {
        samples: samples_ns.len(),
        median_ns: median(samples_ns)?,
        min_ns: fastest,
        max_ns: slowest,
        mad_ns: median_absolute_deviation(samples_ns)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_statistics_resist_one_outlier() {
        let timing = timing(&[10.0, 12.0, 11.0, 1000.0, 13.0]).unwrap();
        assert_eq!(timing.samples, 5);
        assert_eq!(timing.median_ns, 12.0);
        assert_eq!(timing.min_ns, 10.0);
        assert_eq!(timing.max_ns, 1000.0);
        // Deviations 2, 0, 1, 988, 1: their median is 1.
        assert_eq!(timing.mad_ns, 1.0);
    }

    #[test]
    fn an_even_count_takes_the_mean_of_the_middle_two_and_none_has_no_median() {
        assert_eq!(median(&[4.0, 2.0]), Some(3.0));
        assert_eq!(median(&[]), None);
        assert_eq!(median_absolute_deviation(&[]), None);
        assert_eq!(timing(&[]), None);
    }

    #[test]
    fn the_record_fixture_holds_the_statistics_of_its_samples() {
        // queens-record writes these numbers out by hand, as it cannot
        // depend on this crate; they must stay what `timing` computes.
        let expected = timing(&[14_000.5, 15_000.25, 13_999.75]);
        assert_eq!(
            queens_record::fixtures::sample_record().entries[0].timing(),
            expected
        );
        assert_eq!(queens_record::fixtures::one_sample(7.0), timing(&[7.0]));
    }
}
