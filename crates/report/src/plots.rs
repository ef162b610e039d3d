//! The two SVG plots, every solver on each: median time against n and nodes
//! against n, both on a log scale, where exponential growth is a straight
//! line whose slope is the growth factor per n.

use plotters::prelude::*;

use super::format::{duration_ns, thousands};
use super::overlay::Overlay;

const SIZE: (u32, u32) = (960, 600);

pub fn time_vs_n(overlay: &Overlay) -> Result<String, String> {
    let series = collect(overlay, |overlay, solver, n| overlay.median_ns(solver, n));
    plot(
        "Median time of one count against n (log scale)",
        "median time per run",
        &series,
        &|ns| duration_ns(ns),
    )
}

pub fn nodes_vs_n(overlay: &Overlay) -> Result<String, String> {
    let series = collect(overlay, |overlay, solver, n| {
        overlay.median_ns(solver, n)?;
        overlay.entry(solver, n)?.nodes.map(|nodes| nodes as f64)
    });
    plot(
        "Nodes (each solver's unit of work) against n (log scale)",
        "nodes",
        &series,
        &|nodes| thousands(nodes.round() as u64),
    )
}

type Series = Vec<(String, Vec<(i32, f64)>)>;

/// One series per solver, of the timed n where `value` is positive.
fn collect(overlay: &Overlay, value: impl Fn(&Overlay, &str, usize) -> Option<f64>) -> Series {
    overlay
        .solvers
        .iter()
        .map(|solver| {
            let points = overlay
                .ns
                .iter()
                .filter_map(|&n| {
                    Some((
                        n as i32,
                        value(overlay, &solver.id, n).filter(|v| *v > 0.0)?,
                    ))
                })
                .collect();
            (solver.id.clone(), points)
        })
        .collect()
}

fn plot(
    title: &str,
    y_label: &str,
    series: &Series,
    y_format: &dyn Fn(f64) -> String,
) -> Result<String, String> {
    let points = || series.iter().flat_map(|(_, points)| points.iter());
    let x_min = points().map(|p| p.0).min().unwrap_or(4);
    let x_max = points()
        .map(|p| p.0)
        .max()
        .unwrap_or(x_min + 1)
        .max(x_min + 1);
    let y_min = points().map(|p| p.1).min_by(f64::total_cmp).unwrap_or(1.0);
    let y_max = points().map(|p| p.1).max_by(f64::total_cmp).unwrap_or(10.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(96)
            .build_cartesian_2d(x_min..x_max, (y_min / 2.0..y_max * 2.0).log_scale())
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("n (board size)")
            .y_desc(y_label)
            .x_labels((x_max - x_min + 1) as usize)
            .y_label_formatter(&|v| y_format(*v))
            .draw()
            .map_err(plot_error)?;
        for (index, (id, points)) in series.iter().enumerate() {
            if points.is_empty() {
                continue;
            }
            let color = Palette99::pick(index).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(plot_error)?
                .label(id.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(2))
                });
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|&point| Circle::new(point, 3, color.filled())),
                )
                .map_err(plot_error)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

fn plot_error(error: impl std::fmt::Display) -> String {
    format!("cannot draw a plot: {error}")
}
