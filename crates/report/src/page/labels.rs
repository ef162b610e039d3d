//! Where each solver's name goes in a plot: beside its line's last point,
//! with no leader line, so that nothing drawn for a label can be read as
//! data (a leader running from a line's end across the plot looks like the
//! line going on). Each name takes the free spot nearest its point that
//! covers the fewest markers and lines, and never another name.

/// A rectangle in SVG units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Area {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Area {
    /// Whether the two share any point (touching edges do not count).
    pub(crate) fn overlaps(&self, other: &Area) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }

    fn grown(&self, by: f64) -> Area {
        Area {
            left: self.left - by,
            top: self.top - by,
            right: self.right + by,
            bottom: self.bottom + by,
        }
    }

    fn inside(&self, bounds: &Area) -> bool {
        self.left >= bounds.left
            && self.right <= bounds.right
            && self.top >= bounds.top
            && self.bottom <= bounds.bottom
    }

    fn holds(&self, (x, y): (f64, f64)) -> bool {
        (self.left..=self.right).contains(&x) && (self.top..=self.bottom).contains(&y)
    }

    /// Whether the segment from `a` to `b` passes through the rectangle
    /// (Liang and Barsky's clipping: the part of the segment between the
    /// four edges' crossings is not empty).
    fn crossed_by(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut enter, mut leave) = (0.0_f64, 1.0_f64);
        for (p, q) in [
            (-dx, a.0 - self.left),
            (dx, self.right - a.0),
            (-dy, a.1 - self.top),
            (dy, self.bottom - a.1),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else if p < 0.0 {
                enter = enter.max(q / p);
            } else {
                leave = leave.min(q / p);
            }
        }
        enter <= leave
    }
}

/// The label text's size: 12 units, one line.
const FONT: f64 = 12.0;
/// A label's height and where its baseline sits below its top: Chromium's
/// box of a 12-unit DejaVu Sans name reaches 11.75 units above the baseline
/// and, with a descender (the j of half-join), 3.92 below.
const HEIGHT: f64 = 16.0;
pub(crate) const BASELINE: f64 = 12.0;
/// Clear space between a point and its label: a marker reaches 6 units out.
const GAP: f64 = 8.0;
/// Names never touch: this much space stays between two.
const SPACE: f64 = 1.5;
/// The vertical step between tried spots, and how many steps up and down.
const STEP: f64 = HEIGHT / 2.0;
const STEPS: usize = 64;
/// How far (in distance cost) a spot counts as near its point.
const NEAR: f64 = 40.0;
/// What a spot costs beyond its distance (units) from its point: each
/// marker it covers, each line segment it crosses, and being left of or
/// above/below the point rather than right of it, where a line's end is
/// read on.
const MARKER_COST: f64 = 30.0;
/// How close to a name another line's marker may come before the name
/// could be read as that marker's.
const MARKER_REACH: f64 = 10.0;
const SEGMENT_COST: f64 = 4.0;
const LEFT_COST: f64 = 8.0;
const CENTRED_COST: f64 = 4.0;

/// The width of `text` at 12 units in DejaVu Sans, rounded up (Verdana,
/// the next font the plots name, is as wide): classes of letters rather
/// than a table of every glyph, erring wide so that names never meet.
pub(crate) fn text_width(text: &str) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | '\'' | '|' | ' ' => 0.30,
            'f' | 'r' | 't' | '-' | '(' | ')' => 0.42,
            'm' | 'w' | 'M' | 'W' => 0.98,
            _ => 0.64,
        })
        .sum();
    ems * FONT
}

/// A line segment: its two ends.
pub(crate) type Segment = ((f64, f64), (f64, f64));

/// What is drawn already: every line's points (markers sit on them), and
/// the frame's edges, which a name should not straddle either (with its
/// halo it would cut the frame, and the stub left reads as a line).
pub(crate) struct Drawn<'a> {
    /// Each line's points in order.
    pub lines: &'a [Vec<(f64, f64)>],
    /// The frame's edges, as segments.
    pub edges: &'a [Segment],
}

impl Drawn<'_> {
    /// How much a label over `area` for the line ending at `own` hides or
    /// misleads: a marker under it or close enough beside it to read as
    /// the one it names (other than its own point), and lines it crosses.
    fn cost(&self, area: &Area, own: (f64, f64)) -> f64 {
        let near = area.grown(MARKER_REACH);
        let markers = self
            .lines
            .iter()
            .flatten()
            .filter(|point| **point != own && near.holds(**point))
            .count();
        let segments = self
            .lines
            .iter()
            .flat_map(|line| line.windows(2))
            .filter(|pair| area.crossed_by(pair[0], pair[1]))
            .count()
            + self
                .edges
                .iter()
                .filter(|(a, b)| area.crossed_by(*a, *b))
                .count();
        markers as f64 * MARKER_COST + segments as f64 * SEGMENT_COST
    }
}

/// Where the labels go: for each (text, its line's last point), in order,
/// its area, inside `bounds`, overlapping no other (when more names than
/// fit in `bounds` crowd one spot, the last ones placed may overlap).
pub(crate) fn place(ends: &[(&str, (f64, f64))], drawn: &Drawn<'_>, bounds: &Area) -> Vec<Area> {
    // The rightmost ends first: they have the least room, at the edge.
    let mut order: Vec<usize> = (0..ends.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (ends[a].1, ends[b].1);
        pb.0.total_cmp(&pa.0)
            .then(pa.1.total_cmp(&pb.1))
            .then(ends[a].0.cmp(ends[b].0))
    });
    let mut placed: Vec<Option<Area>> = vec![None; ends.len()];
    let mut taken = Taken::new(bounds);
    for index in order {
        let (text, point) = ends[index];
        let free = |area: &Area| area.inside(bounds) && !taken.overlaps(area);
        // A near spot over a line beats a clear one far away, where the
        // name would no longer read as this line's: spots are weighed
        // within the nearest band (NEAR wide) that has a free one.
        let best = spots(text_width(text), point)
            .filter(|(area, _)| free(area))
            .map(|(area, distance)| {
                (
                    area,
                    (
                        (distance / NEAR).floor(),
                        distance + drawn.cost(&area, point),
                    ),
                )
            })
            // The first of equally good spots (spots come nearest first).
            .min_by(|(_, a), (_, b)| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)))
            .map(|(area, _)| area);
        let area = best.unwrap_or_else(|| clamp(spot_right(text_width(text), point, 0.0), bounds));
        taken.add(area.grown(SPACE));
        placed[index] = Some(area);
    }
    placed.into_iter().flatten().collect()
}

/// The names placed so far (each grown by [`SPACE`]), filed in a grid of
/// square cells over the bounds, so that whether a spot is free is asked
/// of the names near it, not of every name: a plot of thousands of lines
/// would otherwise try each spot of each name against every other name.
struct Taken {
    left: f64,
    top: f64,
    columns: usize,
    rows: usize,
    cells: Vec<Vec<Area>>,
}

/// A grid cell's side: about a short name's width.
const CELL: f64 = 64.0;

impl Taken {
    fn new(bounds: &Area) -> Taken {
        let count = |length: f64| ((length / CELL).ceil().max(1.0)) as usize;
        let (columns, rows) = (
            count(bounds.right - bounds.left),
            count(bounds.bottom - bounds.top),
        );
        Taken {
            left: bounds.left,
            top: bounds.top,
            columns,
            rows,
            cells: vec![Vec::new(); columns * rows],
        }
    }

    /// The cells `area` touches (clamped to the grid: what lies outside is
    /// filed in the edge cells).
    fn cells(&self, area: &Area) -> impl Iterator<Item = usize> + '_ {
        let index = |value: f64, origin: f64, count: usize| {
            (((value - origin) / CELL).floor().max(0.0) as usize).min(count - 1)
        };
        let (first_column, last_column) = (
            index(area.left, self.left, self.columns),
            index(area.right, self.left, self.columns),
        );
        let (first_row, last_row) = (
            index(area.top, self.top, self.rows),
            index(area.bottom, self.top, self.rows),
        );
        (first_row..=last_row).flat_map(move |row| {
            (first_column..=last_column).map(move |column| row * self.columns + column)
        })
    }

    fn add(&mut self, area: Area) {
        let cells: Vec<usize> = self.cells(&area).collect();
        for cell in cells {
            self.cells[cell].push(area);
        }
    }

    fn overlaps(&self, area: &Area) -> bool {
        self.cells(area)
            .any(|cell| self.cells[cell].iter().any(|taken| taken.overlaps(area)))
    }
}

/// The label's area right of `point`, its middle `dy` below the point's.
fn spot_right(width: f64, (x, y): (f64, f64), dy: f64) -> Area {
    let top = y + dy - HEIGHT / 2.0;
    Area {
        left: x + GAP,
        top,
        right: x + GAP + width,
        bottom: top + HEIGHT,
    }
}

/// Moved inside `bounds` (the fallback when nowhere is free).
fn clamp(area: Area, bounds: &Area) -> Area {
    let dx = (bounds.left - area.left).max(0.0) + (bounds.right - area.right).min(0.0);
    let dy = (bounds.top - area.top).max(0.0) + (bounds.bottom - area.bottom).min(0.0);
    Area {
        left: area.left + dx,
        top: area.top + dy,
        right: area.right + dx,
        bottom: area.bottom + dy,
    }
}

/// The spots a label of `width` may take around `point`, nearest first,
/// each with its distance cost: right of the point, left of it (both at
/// rising offsets up and down), and centred above or below it.
fn spots(width: f64, point: (f64, f64)) -> impl Iterator<Item = (Area, f64)> {
    let (x, y) = point;
    (0..=STEPS).flat_map(move |step| {
        let offset = step as f64 * STEP;
        let offsets = if step == 0 {
            vec![0.0]
        } else {
            vec![-offset, offset]
        };
        let mut spots = Vec::new();
        for dy in offsets {
            let right = spot_right(width, point, dy);
            let left = Area {
                left: x - GAP - width,
                right: x - GAP,
                ..right
            };
            spots.push((right, dy.abs()));
            spots.push((left, dy.abs() + LEFT_COST));
        }
        let centred = |top: f64| Area {
            left: x - width / 2.0,
            top,
            right: x + width / 2.0,
            bottom: top + HEIGHT,
        };
        spots.push((centred(y - GAP - HEIGHT - offset), offset + CENTRED_COST));
        spots.push((centred(y + GAP + offset), offset + CENTRED_COST));
        spots
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: Area = Area {
        left: 86.0,
        top: 2.0,
        right: 758.0,
        bottom: 376.0,
    };

    fn placed(ends: &[(&str, (f64, f64))], lines: &[Vec<(f64, f64)>]) -> Vec<Area> {
        let drawn = Drawn { lines, edges: &[] };
        place(ends, &drawn, &BOUNDS)
    }

    fn assert_apart(areas: &[Area]) {
        for (i, a) in areas.iter().enumerate() {
            assert!(a.inside(&BOUNDS), "{a:?}");
            for b in &areas[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} and {b:?} overlap");
            }
        }
    }

    #[test]
    fn a_segment_crosses_a_rectangle_only_when_it_passes_through() {
        let area = Area {
            left: 0.0,
            top: 0.0,
            right: 10.0,
            bottom: 10.0,
        };
        assert!(area.crossed_by((-5.0, 5.0), (15.0, 5.0)));
        assert!(area.crossed_by((5.0, 5.0), (6.0, 6.0)));
        assert!(area.crossed_by((-5.0, -4.0), (15.0, 14.0)));
        assert!(!area.crossed_by((-5.0, 5.0), (-1.0, 5.0)));
        assert!(!area.crossed_by((-5.0, 20.0), (20.0, 12.0)));
        assert!(!area.crossed_by((11.0, -3.0), (20.0, 12.0)));
    }

    #[test]
    fn a_lone_end_is_labelled_right_beside_it() {
        let lines = vec![vec![(100.0, 300.0), (200.0, 200.0), (300.0, 100.0)]];
        let areas = placed(&[("three-mask", (300.0, 100.0))], &lines);
        assert_eq!(areas[0].left, 300.0 + GAP);
        assert_eq!((areas[0].top + areas[0].bottom) / 2.0, 100.0);
    }

    #[test]
    fn names_of_lines_ending_together_never_overlap() {
        // Twelve lines ending on one point (the worst case), then twelve
        // ending on a diagonal as close as the plots' points get, then
        // twelve at the right edge one unit apart.
        let names: Vec<String> = (0..12).map(|i| format!("solver-number-{i}")).collect();
        let layouts: [fn(usize) -> (f64, f64); 3] = [
            |_| (400.0, 200.0),
            |i| (300.0 + 43.7 * (i % 7) as f64, 40.0 + 3.0 * i as f64),
            |i| (610.0, 100.0 + i as f64),
        ];
        for end in layouts {
            let lines: Vec<Vec<(f64, f64)>> = (0..12)
                .map(|i| vec![(86.0, 350.0 - i as f64), end(i)])
                .collect();
            let ends: Vec<(&str, (f64, f64))> =
                (0..12).map(|i| (names[i].as_str(), end(i))).collect();
            let areas = placed(&ends, &lines);
            assert_eq!(areas.len(), 12);
            assert_apart(&areas);
        }
    }

    #[test]
    fn names_of_many_random_plots_never_overlap_and_stay_near_their_points() {
        // A fixed pseudo-random sequence (a 64-bit LCG): the same plots on
        // every run, many shapes of them.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |below: f64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * below
        };
        let names: Vec<String> = (0..12).map(|i| "x".repeat(5 + i)).collect();
        for _ in 0..200 {
            let lines: Vec<Vec<(f64, f64)>> = (0..12)
                .map(|_| {
                    let points = 2 + next(11.0) as usize;
                    (0..points)
                        .map(|p| (86.0 + 43.7 * p as f64, 16.0 + next(360.0)))
                        .collect()
                })
                .collect();
            let ends: Vec<(&str, (f64, f64))> = lines
                .iter()
                .zip(&names)
                .map(|(line, name)| (name.as_str(), *line.last().unwrap()))
                .collect();
            let areas = placed(&ends, &lines);
            assert_apart(&areas);
            // Twelve names around a plot this size always find room within
            // a few lines of their point.
            for (area, (_, (x, y))) in areas.iter().zip(&ends) {
                let dx = (area.left - x).max(x - area.right).max(0.0);
                let dy = (area.top - y).max(y - area.bottom).max(0.0);
                assert!(dx.hypot(dy) < 8.0 * HEIGHT, "{area:?} far from ({x}, {y})");
            }
        }
    }

    #[test]
    fn a_name_is_at_least_as_wide_as_dejavu_sans_draws_it() {
        // Chromium's measurement of DejaVu Sans at 12 px.
        for (text, drawn) in [
            ("perm-filter-itertools", 116.5),
            ("three-mask-mirror", 109.3),
        ] {
            let width = text_width(text);
            assert!(width >= drawn && width < drawn * 1.15, "{text}: {width}");
        }
    }
}
