//! What the kernel is handed: for each constellation of a unit, its
//! interior's constants (a *shape*), and the starting points of its search
//! (*tasks*), made by placing the first few interior rows on the host so
//! that a big constellation becomes many invocations of similar size.

use bytemuck::{Pod, Zeroable};
use queens_constellations::constellation::Constellation;
use queens_constellations::interior::{Interior, MAX_N, Mask};

/// The kernel's rows per shape: one slot per possible free row, so that a
/// shape's rows start at `shape * MAX_N` (WGSL's `ROWS`).
pub const ROWS: usize = MAX_N;

/// One free row of a shape, as the kernel reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Row {
    /// The border queens' diagonal attacks on the row.
    pub border: Mask,
    /// Rows the interior diagonals move to reach it from the free row below.
    pub gap: u32,
}

/// One invocation's starting point: the search of a constellation's
/// interior from free row `level` on, with these masks (the kernel's
/// `Task`; 32 bytes, so that an array of them has no padding).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Task {
    /// Index of the constellation's shape in the unit.
    pub shape: u32,
    /// The free row to place a queen on next.
    pub level: u32,
    /// The constellation's free rows (at least 2: see [`Expansion`]).
    pub depth: u32,
    /// Interior queens' rising diagonals on row `level`.
    pub rising: Mask,
    /// Interior queens' falling diagonals on row `level`.
    pub falling: Mask,
    /// Files taken (border and interior queens).
    pub files: Mask,
    /// Files of row `level` open for a queen (never 0).
    pub open: Mask,
    /// Padding to 32 bytes.
    pub pad: u32,
}

/// A unit's constellations made ready for the kernel.
#[derive(Debug, Default)]
pub struct Expansion {
    /// `ROWS` rows per constellation, in the unit's order.
    pub rows: Vec<Row>,
    /// The starting points, grouped by constellation in the unit's order.
    pub tasks: Vec<Task>,
    /// Per constellation: completions and nodes found on the host (the
    /// queens placed while expanding, and whole interiors of fewer than two
    /// free rows, which the kernel's closed form for the last two rows
    /// cannot take: only boards with n <= 5 have them).
    pub host: Vec<(u64, u64)>,
}

impl Expansion {
    /// Expands every constellation until it has at least `per_constellation`
    /// starting points or only its last two free rows are left.
    pub fn new(n: usize, constellations: &[Constellation], per_constellation: usize) -> Self {
        let mut expansion = Expansion::default();
        for (shape, &constellation) in constellations.iter().enumerate() {
            let interior = Interior::new(n, constellation);
            let rows: Vec<Row> = interior
                .rows()
                .map(|(border, gap)| Row { border, gap })
                .collect();
            let mut host = (0, 0);
            if interior.depth() < 2 {
                host = small_interior(&interior, &rows);
            } else {
                host.1 = expansion.expand(&interior, &rows, shape as u32, per_constellation);
            }
            expansion.rows.extend(&rows);
            expansion.rows.resize((shape + 1) * ROWS, Row::default());
            expansion.host.push(host);
        }
        expansion
    }

    /// Breadth-first from the first free row: each level replaces every
    /// task by its children (one per open file, a node each, dead children
    /// dropped: the kernel would find nothing under them) until there are
    /// enough tasks or the next level is the second-to-last row, where the
    /// kernel's closed form takes over. Returns the nodes placed here.
    fn expand(&mut self, interior: &Interior, rows: &[Row], shape: u32, wanted: usize) -> u64 {
        let depth = interior.depth();
        let full = interior.full();
        let open = |rising: Mask, falling: Mask, files: Mask, level: usize| {
            full & !(rising | falling | files | rows[level].border)
        };
        let first = Task {
            shape,
            level: 0,
            depth: depth as u32,
            rising: 0,
            falling: 0,
            files: interior.border_files(),
            open: open(0, 0, interior.border_files(), 0),
            pad: 0,
        };
        let mut frontier = if first.open == 0 { vec![] } else { vec![first] };
        let mut nodes = 0;
        let mut level = 0;
        while frontier.len() < wanted && level + 2 < depth {
            let below = level + 1;
            let gap = rows[below].gap;
            let mut next = Vec::new();
            for task in &frontier {
                let mut rest = task.open;
                while rest != 0 {
                    let queen = rest & rest.wrapping_neg();
                    rest ^= queen;
                    nodes += 1;
                    let rising = (task.rising | queen) << gap;
                    let falling = (task.falling | queen) >> gap;
                    let files = task.files | queen;
                    let child = Task {
                        level: below as u32,
                        rising,
                        falling,
                        files,
                        open: open(rising, falling, files, below),
                        ..*task
                    };
                    if child.open != 0 {
                        next.push(child);
                    }
                }
            }
            frontier = next;
            level = below;
        }
        self.tasks.extend(frontier);
        nodes
    }
}

/// An interior of zero or one free rows: no search, only its open files.
fn small_interior(interior: &Interior, rows: &[Row]) -> (u64, u64) {
    match rows.first() {
        // Nothing left to place: the border queens are the whole board.
        None => (1, 0),
        Some(row) => {
            let open = interior.full() & !(interior.border_files() | row.border);
            let found = u64::from(open.count_ones());
            (found, found)
        }
    }
}
