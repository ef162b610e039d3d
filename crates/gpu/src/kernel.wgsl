// The interior search of one task, per invocation: the same depth-first
// walk as the constellations crate's `Interior::search` (counting
// instance), from the task's row to the end, with the last two rows
// counted in closed form. One bit per file in a u32 (n <= 32); the stack
// of frames lives in the invocation's private memory.
//
// Counts are 64-bit, as (low, high) pairs of u32 with a carry: WGSL has no
// 64-bit integers, and one task's nodes can pass 2^32 on big boards.

struct Task {
    shape: u32,
    level: u32,
    depth: u32,
    rising: u32,
    falling: u32,
    files: u32,
    open: u32,
    pad: u32,
}

struct Params {
    // The board's files, one bit each.
    full: u32,
    // Tasks in this dispatch (the tasks binding is this dispatch's slice).
    count: u32,
    pad: u32,
    // Invocations per row of the dispatch grid (x groups * 64).
    stride: u32,
}

// Rows per shape: one slot per possible free row (tasks.rs's ROWS).
const ROWS: u32 = 32u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> tasks: array<Task>;
// Per shape and free row: (border queens' diagonal attacks, gap).
@group(0) @binding(2) var<storage, read> rows: array<vec2<u32>>;
// Per task: (solutions low, high, nodes low, high).
@group(0) @binding(3) var<storage, read_write> counts: array<vec4<u32>>;

fn add(total: vec2<u32>, x: u32) -> vec2<u32> {
    let low = total.x + x;
    return vec2<u32>(low, total.y + select(0u, 1u, low < x));
}

// (rising, falling, files, open) of each row on the way down.
var<private> stack: array<vec4<u32>, 32>;
var<private> solutions: vec2<u32>;
var<private> nodes: vec2<u32>;

// The last two rows without trying them (see Interior::last_two_rows):
// with O the second-to-last row's open files and B the last row's without
// a queen below it, a queen on q takes q, q << gap and q >> gap from B.
fn last_two_rows(frame: vec4<u32>, last: vec2<u32>) {
    let open = frame.w;
    if open == 0u {
        return;
    }
    let gap = last.y;
    let base = params.full & ~((frame.x << gap) | (frame.y >> gap) | frame.z | last.x);
    let both = countOneBits(open) * countOneBits(base);
    let taken = countOneBits(base & open) + countOneBits(base & (open << gap))
        + countOneBits(base & (open >> gap));
    let found = both - taken;
    solutions = add(solutions, found);
    nodes = add(nodes, countOneBits(open) + found);
}

@compute @workgroup_size(64)
fn count(@builtin(global_invocation_id) id: vec3<u32>) {
    let local = id.x + id.y * params.stride;
    if local >= params.count {
        return;
    }
    let task = tasks[local];
    let base = task.shape * ROWS;
    let top = task.level;
    let terminal = task.depth - 2u;
    solutions = vec2<u32>(0u, 0u);
    nodes = vec2<u32>(0u, 0u);
    var frame = vec4<u32>(task.rising, task.falling, task.files, task.open);
    if top == terminal {
        last_two_rows(frame, rows[base + terminal + 1u]);
    } else {
        var level = top;
        loop {
            if frame.w == 0u {
                if level == top {
                    break;
                }
                level -= 1u;
                frame = stack[level];
                continue;
            }
            let queen = frame.w & (~frame.w + 1u);
            frame.w ^= queen;
            nodes = add(nodes, 1u);
            let below = level + 1u;
            let row = rows[base + below];
            let rising = (frame.x | queen) << row.y;
            let falling = (frame.y | queen) >> row.y;
            let files = frame.z | queen;
            let child = vec4<u32>(rising, falling, files,
                params.full & ~(rising | falling | files | row.x));
            if below == terminal {
                last_two_rows(child, rows[base + below + 1u]);
                continue;
            }
            if child.w != 0u {
                stack[level] = frame;
                level = below;
                frame = child;
            }
        }
    }
    counts[local] = vec4<u32>(solutions, nodes);
}
