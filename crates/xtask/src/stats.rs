//! The median the chores print, from the workspace's own timing
//! statistics (the same code that summarises a benchmark's samples).

/// The median of samples in seconds (0 for none).
pub fn median_seconds(samples: &[f64]) -> f64 {
    queens_measure::stats::median(samples).unwrap_or(0.0)
}

/// "1.95x faster" or "1.95x slower": `time` against `first`.
pub fn against(first: f64, time: f64) -> String {
    if time <= first {
        format!("{:.2}x faster", first / time)
    } else {
        format!("{:.2}x slower", time / first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_ratios() {
        assert!((median_seconds(&[0.3, 0.1, 0.2]) - 0.2).abs() < 1e-12);
        assert!((median_seconds(&[0.4, 0.1, 0.2, 0.3]) - 0.25).abs() < 1e-12);
        assert_eq!(against(2.0, 1.0), "2.00x faster");
        assert_eq!(against(1.0, 1.0), "1.00x faster");
        assert_eq!(against(1.0, 3.0), "3.00x slower");
    }
}
