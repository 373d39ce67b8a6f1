// One tick of a flock on the GPU: count the birds per cell, (scan: scan.wgsl), scatter them into
// cell order, order each cell by bird id, then steer and integrate every bird from the
// cell-ordered copy back into the state buffer. The maths follows murmur_core's CPU path: the
// same grid layout, the same 3x3 cells with seam shifts on a torus, the same models.

struct Leader {
    pos: vec2<f32>,
    mode: u32,
    orbit_radius: f32,
    slowing_radius: f32,
    max_force: f32,
    weight: f32,
    flee_radius: f32,
    flee_force: f32,
    orbit_direction: f32,
    follow_range: f32,
    pad: f32,
}

struct Params {
    n: u32,
    cells: u32,
    nx: u32,
    ny: u32,
    min: vec2<f32>,
    size: vec2<f32>,
    inv_cell: vec2<f32>,
    wrapped: u32,
    edge_mode: u32,
    margin: f32,
    turn_factor: f32,
    model: u32,
    view_min_cos: f32,
    sight2: f32,
    near2: f32,
    cruise_speed: f32,
    player: u32,
    m0: vec4<f32>,
    m1: vec4<f32>,
    leader_count: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
    leaders: array<Leader, 8>,
}

// Edge modes and models, as numbered by the host (src/uniform.rs).
const EDGE_TURN: u32 = 0u;
const EDGE_WRAP: u32 = 1u;
const EDGE_BOUNCE: u32 = 2u;
const MODEL_REYNOLDS: u32 = 0u;
const MODEL_CORNELL: u32 = 1u;
const LEADER_FOLLOW: u32 = 0u;
const LEADER_FLEE: u32 = 1u;

@group(0) @binding(0) var<uniform> P: Params;
// Each bird's position (xy) and velocity (zw), by bird id.
@group(0) @binding(1) var<storage, read_write> birds: array<vec4<f32>>;
// The same, in cell order: what the steering pass reads, contiguously, cell by cell.
@group(0) @binding(2) var<storage, read_write> sorted: array<vec4<f32>>;
// The bird id at each place of `sorted`.
@group(0) @binding(3) var<storage, read_write> sorted_ids: array<u32>;
// Bird ids as the atomics scattered them: cell order, but any order within a cell.
@group(0) @binding(4) var<storage, read_write> scattered_ids: array<u32>;
// Each bird's cell and its arrival slot in that cell's count, by bird id.
@group(0) @binding(5) var<storage, read_write> place: array<vec2<u32>>;
// Birds per cell (cells + 1 entries, the last always 0, so that the scan ends on the total).
@group(0) @binding(6) var<storage, read_write> cell_count: array<atomic<u32>>;
// The exclusive scan of `cell_count`: cell c's birds are sorted[cell_start[c]..cell_start[c + 1]].
@group(0) @binding(7) var<storage, read_write> cell_start: array<u32>;
// Neighbours each bird saw this tick, by bird id.
@group(0) @binding(8) var<storage, read_write> neighbours: array<u32>;

const GROUP: u32 = 256u;

fn flat(wid: vec3<u32>, groups: vec3<u32>, lid: vec3<u32>) -> u32 {
    return (wid.x + wid.y * groups.x) * GROUP + lid.x;
}

// murmur_core's WorldBounds::wrap: into [min, min + size) on a torus, unchanged otherwise.
fn wrap_pos(p: vec2<f32>) -> vec2<f32> {
    let hi = P.min + P.size;
    if P.wrapped == 0u || (all(p >= P.min) && all(p < hi)) {
        return p;
    }
    let a = p - P.min;
    var q = a - P.size * floor(a / P.size);
    if q.x < 0.0 {
        q.x = q.x + P.size.x;
    }
    if q.y < 0.0 {
        q.y = q.y + P.size.y;
    }
    if q.x >= P.size.x {
        q.x = 0.0;
    }
    if q.y >= P.size.y {
        q.y = 0.0;
    }
    return q + P.min;
}

// The nearest image of an offset on a torus (WorldBounds::delta).
fn delta(here: vec2<f32>, there: vec2<f32>) -> vec2<f32> {
    let d = there - here;
    if P.wrapped == 0u {
        return d;
    }
    return d - P.size * round(d / P.size);
}

// GridLayout::cell_coords: the column and row of p, clamped to the grid.
fn cell_xy(p: vec2<f32>) -> vec2<u32> {
    var u = (p - P.min) * P.inv_cell;
    let n = vec2<f32>(f32(P.nx), f32(P.ny));
    if P.wrapped != 0u && !(all(u >= vec2<f32>(0.0)) && all(u < n)) {
        u = u - n * floor(u / n);
    }
    let cx = min(max(u.x, 0.0), n.x - 1.0);
    let cy = min(max(u.y, 0.0), n.y - 1.0);
    return vec2<u32>(u32(cx), u32(cy));
}

// 1. Clear the counts.
@compute @workgroup_size(256)
fn clear_counts(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let c = flat(wid, groups, lid);
    if c <= P.cells {
        atomicStore(&cell_count[c], 0u);
    }
}

// 2. Count the birds per cell; each bird keeps its cell and its arrival slot there.
@compute @workgroup_size(256)
fn count_birds(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = flat(wid, groups, lid);
    if i >= P.n {
        return;
    }
    let xy = cell_xy(wrap_pos(birds[i].xy));
    let c = xy.y * P.nx + xy.x;
    let slot = atomicAdd(&cell_count[c], 1u);
    place[i] = vec2<u32>(c, slot);
}

// 4. Scatter the ids into cell order (3. is the scan of the counts into cell_start).
@compute @workgroup_size(256)
fn scatter_ids(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = flat(wid, groups, lid);
    if i >= P.n {
        return;
    }
    let at = place[i];
    scattered_ids[cell_start[at.x] + at.y] = i;
}

// 4b. The arrival order within a cell changes from run to run; a bird's place is instead its
// rank by id among its cell's birds (what the CPU grid's stable sort gives). Each bird copies
// its state to that place: the coherent, cell-ordered buffer the steering pass reads.
@compute @workgroup_size(256)
fn order_cells(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = flat(wid, groups, lid);
    if i >= P.n {
        return;
    }
    let c = place[i].x;
    let start = cell_start[c];
    let end = cell_start[c + 1u];
    var rank = 0u;
    for (var j = start; j < end; j = j + 1u) {
        rank = rank + select(0u, 1u, scattered_ids[j] < i);
    }
    let k = start + rank;
    sorted_ids[k] = i;
    let b = birds[i];
    sorted[k] = vec4<f32>(wrap_pos(b.xy), b.zw);
}

// The cells to visit on one axis around cell c of n (murmur_core's grid `runs`): one run of up
// to three cells, or two across a torus seam with the far one shifted by the world's extent;
// on a torus of fewer than three cells, all of them and the nearest image of each offset.
struct Runs {
    first0: u32,
    last0: u32,
    shift0: f32,
    first1: u32,
    last1: u32,
    shift1: f32,
    len: u32,
    min_image: bool,
}

fn runs(c: u32, n: u32, wrapped: bool, extent: f32) -> Runs {
    var r = Runs(0u, 0u, 0.0, 0u, 0u, 0.0, 1u, false);
    if wrapped && n < 3u {
        r.last0 = n - 1u;
        r.min_image = true;
    } else if !wrapped || (c > 0u && c + 1u < n) {
        r.first0 = select(c - 1u, 0u, c == 0u);
        r.last0 = min(c + 1u, n - 1u);
    } else if c == 0u {
        r.first0 = n - 1u;
        r.last0 = n - 1u;
        r.shift0 = -extent;
        r.first1 = 0u;
        r.last1 = 1u;
        r.len = 2u;
    } else {
        r.first0 = n - 2u;
        r.last0 = n - 1u;
        r.first1 = 0u;
        r.last1 = 0u;
        r.shift1 = extent;
        r.len = 2u;
    }
    return r;
}

struct Sums {
    seen: u32,
    seen_offset: vec2<f32>,
    seen_velocity: vec2<f32>,
    near_offset: vec2<f32>,
    near_inverse: vec2<f32>,
    near_apart: u32,
}

// glam's normalize_or_zero, clamp_length_max and the models' with_length.
fn normalize_or_zero(v: vec2<f32>) -> vec2<f32> {
    let rcp = 1.0 / length(v);
    if rcp > 0.0 && rcp < 3.4e38 {
        return v * rcp;
    }
    return vec2<f32>(0.0);
}

fn clamp_length_max(v: vec2<f32>, max_len: f32) -> vec2<f32> {
    let l2 = dot(v, v);
    if l2 > max_len * max_len {
        return max_len * (v / sqrt(l2));
    }
    return v;
}

fn with_length(v: vec2<f32>, len: f32) -> vec2<f32> {
    return normalize_or_zero(v) * len;
}

fn perp(v: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(-v.y, v.x);
}

// Sums over bird k's neighbours (k a place in cell order), visiting cells as the CPU grid does.
fn neighbour_sums(k: u32, p: vec2<f32>, v: vec2<f32>) -> Sums {
    var s = Sums(0u, vec2<f32>(0.0), vec2<f32>(0.0), vec2<f32>(0.0), vec2<f32>(0.0), 0u);
    let xy = cell_xy(p);
    let wrapped = P.wrapped != 0u;
    let cols = runs(xy.x, P.nx, wrapped, P.size.x);
    let rows = runs(xy.y, P.ny, wrapped, P.size.y);
    var heading = vec2<f32>(0.0);
    var min_cos = P.view_min_cos;
    let view = min_cos > -1.0;
    if view {
        heading = normalize_or_zero(v);
        if all(heading == vec2<f32>(0.0)) {
            // A still bird sees all round.
            min_cos = -1.0;
        }
    }
    for (var ri = 0u; ri < rows.len; ri = ri + 1u) {
        let row_first = select(rows.first0, rows.first1, ri == 1u);
        let row_last = select(rows.last0, rows.last1, ri == 1u);
        let row_shift = select(rows.shift0, rows.shift1, ri == 1u);
        for (var ry = row_first; ry <= row_last; ry = ry + 1u) {
            let base = ry * P.nx;
            for (var ci = 0u; ci < cols.len; ci = ci + 1u) {
                let col_first = select(cols.first0, cols.first1, ci == 1u);
                let col_last = select(cols.last0, cols.last1, ci == 1u);
                let col_shift = select(cols.shift0, cols.shift1, ci == 1u);
                let start = cell_start[base + col_first];
                let end = cell_start[base + col_last + 1u];
                // As the CPU: the offset to a candidate is its position plus (shift - p).
                let offset = vec2<f32>(col_shift, row_shift) - p;
                for (var j = start; j < end; j = j + 1u) {
                    if j == k {
                        continue;
                    }
                    let other = sorted[j];
                    var d = other.xy + offset;
                    if cols.min_image {
                        d.x = d.x - P.size.x * round(d.x / P.size.x);
                    }
                    if rows.min_image {
                        d.y = d.y - P.size.y * round(d.y / P.size.y);
                    }
                    let d2 = d.x * d.x + d.y * d.y;
                    if view && d.x * heading.x + d.y * heading.y < min_cos * sqrt(d2) {
                        continue;
                    }
                    if d2 < P.sight2 {
                        s.seen = s.seen + 1u;
                        s.seen_offset = s.seen_offset + d;
                        s.seen_velocity = s.seen_velocity + other.zw;
                    }
                    if d2 < P.near2 {
                        s.near_offset = s.near_offset + d;
                        if 0.0 < d2 {
                            s.near_inverse = s.near_inverse + d * (1.0 / d2);
                            s.near_apart = s.near_apart + 1u;
                        }
                    }
                }
            }
        }
    }
    return s;
}

// The model's acceleration from the sums (murmur_core's Reynolds::steer, Cornell::steer).
fn model_steer(s: Sums, v: vec2<f32>) -> vec2<f32> {
    var a = vec2<f32>(0.0);
    if P.model == MODEL_CORNELL {
        let centering = P.m0.x;
        let avoid = P.m0.y;
        let matching = P.m0.z;
        a = -s.near_offset * avoid;
        if s.seen > 0u {
            let n = f32(s.seen);
            a = a + (s.seen_velocity / n - v) * matching;
            a = a + (s.seen_offset / n) * centering;
        }
    } else {
        let max_speed = P.m0.x;
        let max_force = P.m0.y;
        let separation_force_factor = P.m0.z;
        let separation_weight = P.m0.w;
        let alignment_weight = P.m1.x;
        let cohesion_weight = P.m1.y;
        if s.seen > 0u {
            let n = f32(s.seen);
            let align = clamp_length_max(with_length(s.seen_velocity / n, max_speed) - v, max_force);
            let cohere = clamp_length_max(with_length(s.seen_offset / n, max_speed) - v, max_force);
            a = a + align * alignment_weight + cohere * cohesion_weight;
        }
        if s.near_apart > 0u {
            let push = -s.near_inverse / f32(s.near_apart);
            let separate = clamp_length_max(
                with_length(push, max_speed) - v,
                max_force * separation_force_factor,
            );
            a = a + separate * separation_weight;
        }
    }
    return a;
}

// Velocity from acceleration under the model's speed rules.
fn model_integrate(v0: vec2<f32>, a: vec2<f32>) -> vec2<f32> {
    let v = v0 + a;
    if P.model == MODEL_CORNELL {
        let max_speed = P.m0.w;
        let min_speed = P.m1.x;
        let speed = length(v);
        if speed > max_speed {
            return v * (max_speed / speed);
        }
        if speed < min_speed {
            // A stopped bird sets off along +x.
            let rcp = 1.0 / speed;
            var direction = vec2<f32>(1.0, 0.0);
            if rcp > 0.0 && rcp < 3.4e38 {
                direction = v * rcp;
            }
            return direction * min_speed;
        }
        return v;
    }
    return clamp_length_max(v, P.m0.x);
}

// murmur_core's LeaderParams::steer for a bird at offset `to_leader` from the leader.
fn leader_steer(l: Leader, to_leader: vec2<f32>, v: vec2<f32>) -> vec2<f32> {
    let speed = P.cruise_speed;
    let dist = length(to_leader);
    let rcp = 1.0 / dist;
    let apart = rcp > 0.0 && rcp < 3.4e38;
    var heading = vec2<f32>(1.0, 0.0);
    let own = normalize_or_zero(v);
    if any(own != vec2<f32>(0.0)) {
        heading = own;
    }
    if l.mode == LEADER_FLEE {
        if dist >= l.flee_radius {
            return vec2<f32>(0.0);
        }
        var away = heading;
        if apart {
            away = -to_leader * rcp;
        }
        return clamp_length_max(away * speed - v, l.flee_force) * l.weight;
    }
    if l.mode != LEADER_FOLLOW {
        return vec2<f32>(0.0);
    }
    if l.follow_range > 0.0 && dist > l.follow_range {
        return vec2<f32>(0.0);
    }
    if !apart {
        return clamp_length_max(heading * speed - v, l.max_force) * l.weight;
    }
    let inward = to_leader * rcp;
    let band = max(l.slowing_radius, 1.1920929e-7);
    let radial = clamp((dist - l.orbit_radius) / band, -1.0, 1.0);
    let tangent = perp(-inward) * select(-1.0, 1.0, l.orbit_direction >= 0.0);
    let tangential = sqrt(max(1.0 - radial * radial, 0.0));
    let desired = (inward * radial + tangent * tangential) * speed;
    return clamp_length_max(desired - v, l.max_force) * l.weight;
}

// Edges::turn_acceleration.
fn turn_at_edges(p: vec2<f32>) -> vec2<f32> {
    var a = vec2<f32>(0.0);
    if P.edge_mode != EDGE_TURN {
        return a;
    }
    let lo = P.min + vec2<f32>(P.margin);
    let hi = P.min + P.size - vec2<f32>(P.margin);
    if p.x < lo.x {
        a.x = a.x + P.turn_factor;
    }
    if p.x > hi.x {
        a.x = a.x - P.turn_factor;
    }
    if p.y < lo.y {
        a.y = a.y + P.turn_factor;
    }
    if p.y > hi.y {
        a.y = a.y - P.turn_factor;
    }
    return a;
}

// Edges::confine for turn and bounce (wrap wraps; none leaves the bird alone).
fn confine(p_in: vec2<f32>, v_in: vec2<f32>) -> vec4<f32> {
    var p = p_in;
    var v = v_in;
    if P.edge_mode == EDGE_WRAP {
        return vec4<f32>(wrap_pos(p), v);
    }
    if P.edge_mode != EDGE_TURN && P.edge_mode != EDGE_BOUNCE {
        return vec4<f32>(p, v);
    }
    let lo = P.min;
    let hi = P.min + P.size;
    let bounce = P.edge_mode == EDGE_BOUNCE;
    for (var axis = 0u; axis < 2u; axis = axis + 1u) {
        let l = lo[axis];
        let h = hi[axis];
        if p[axis] < l {
            p[axis] = select(l, min(2.0 * l - p[axis], h), bounce);
            v[axis] = abs(v[axis]);
        } else if p[axis] > h {
            p[axis] = select(h, max(2.0 * h - p[axis], l), bounce);
            v[axis] = -abs(v[axis]);
        }
    }
    return vec4<f32>(p, v);
}

// 5. Steer and integrate each bird (k: its place in cell order) into the state buffer.
@compute @workgroup_size(256)
fn steer(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let k = flat(wid, groups, lid);
    if k >= P.n {
        return;
    }
    let id = sorted_ids[k];
    let me = sorted[k];
    let p = me.xy;
    let v = me.zw;
    let s = neighbour_sums(k, p, v);
    neighbours[id] = s.seen;
    if id == P.player {
        // The player is moved by the game; the flock only sees it.
        return;
    }
    var a = model_steer(s, v);
    for (var i = 0u; i < P.leader_count; i = i + 1u) {
        let l = P.leaders[i];
        a = a + leader_steer(l, delta(p, l.pos), v);
    }
    a = a + turn_at_edges(p);
    let v_new = model_integrate(v, a);
    birds[id] = confine(p + v_new, v_new);
}

// 3a. The counts into cell_start, which the scan then turns into each cell's first place.
@compute @workgroup_size(256)
fn copy_counts(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let c = flat(wid, groups, lid);
    if c <= P.cells {
        cell_start[c] = atomicLoad(&cell_count[c]);
    }
}
