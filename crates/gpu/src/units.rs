//! The engine's work units: constellations' own units (one canonical
//! constellation per orbit), heaviest first, cut into runs of similar
//! weight. A run is what one call to the GPU counts: many constellations
//! at once, because a dispatch costs the same fixed overhead however little
//! it holds, and a GPU needs hundreds of thousands of invocations to be
//! busy. Neighbouring constellations in a run have similar estimates, so
//! neighbouring invocations do similar work.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use queens_constellations::constellation::Constellation;
use queens_core::split::{Plan, WorkUnit, heaviest_first};

/// Units per board, about: enough for shards, threads and checkpoints to
/// have something to deal, few enough that each is a sizeable dispatch.
pub const UNITS: u64 = 64;

/// Constellations' units of the n×n board, heaviest first: the engine's
/// units are runs of this list.
#[derive(Debug)]
pub struct Order {
    /// The constellations' units, heaviest first (ties in their plan order).
    pub units: Vec<WorkUnit>,
    /// The work of making constellations' plan.
    pub nodes: u64,
}

/// Plans made so far, by n: a unit names a run of its board's order, so
/// counting one needs the order, and making it again for every unit would
/// cost as much as the plan itself each time.
static ORDERS: Mutex<Option<HashMap<usize, Arc<Order>>>> = Mutex::new(None);

/// The order of the n×n board's constellations (made once per process).
pub fn order(n: usize) -> Arc<Order> {
    if let Some(order) = ORDERS
        .lock()
        .expect("no panics while held")
        .get_or_insert_default()
        .get(&n)
    {
        return Arc::clone(order);
    }
    // Planned without the lock: another thread may plan the same board at
    // the same time, and both get the same (deterministic) order.
    let plan = queens_constellations::plan::plan(n);
    let units = heaviest_first(&plan, 0..plan.len())
        .into_iter()
        .map(|i| plan.unit(i))
        .collect();
    let order = Arc::new(Order {
        units,
        nodes: plan.nodes,
    });
    ORDERS
        .lock()
        .expect("no panics while held")
        .get_or_insert_default()
        .insert(n, Arc::clone(&order));
    order
}

/// A run of the order: `len` constellations from `start`, packed in a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub start: u32,
    pub len: u32,
}

impl Run {
    pub fn key(self) -> u64 {
        u64::from(self.start) | u64::from(self.len) << 32
    }

    pub fn from_key(key: u64) -> Self {
        Run {
            start: key as u32,
            len: (key >> 32) as u32,
        }
    }

    /// The run's constellations, or `None` if the key does not name a run
    /// of this order.
    pub fn constellations(self, order: &Order) -> Option<Vec<Constellation>> {
        let start = self.start as usize;
        let units = order
            .units
            .get(start..start.checked_add(self.len as usize)?)?;
        Some(
            units
                .iter()
                .map(|u| Constellation::from_key(u.key))
                .collect(),
        )
    }
}

/// The engine's plan: runs of about 1/[`UNITS`] of the total weight each
/// (a constellation heavier than that is a run of its own), weighted by
/// the sum of their constellations' estimates.
pub fn plan(n: usize) -> Plan {
    let order = order(n);
    let total: u64 = order.units.iter().map(|u| u.weight).sum();
    let target = total.div_ceil(UNITS).max(1);
    let mut units = Vec::new();
    let mut run = WorkUnit::whole(0, 0);
    let mut start = 0;
    for (i, unit) in order.units.iter().enumerate() {
        run.weight += unit.weight;
        if run.weight >= target || i + 1 == order.units.len() {
            let len = (i + 1 - start) as u32;
            run.key = Run {
                start: start as u32,
                len,
            }
            .key();
            units.push(run);
            run = WorkUnit::whole(0, 0);
            start = i + 1;
        }
    }
    Plan::whole(units, order.nodes)
}
