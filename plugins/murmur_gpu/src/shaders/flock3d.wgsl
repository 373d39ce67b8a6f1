// One tick of a 3D flock on the GPU (y up): the kernels of flock.wgsl for birds in a box of cubic
// cells (narrower along x, as murmur_core's 3D grid lays them: a bird visits `reach_x` cells
// either side of its own along x, one along y and z, nine runs of cells in all), with leaders
// circling on a ring about an axis, and solids (spheres, boxes turned about the vertical, the
// ground) that the birds look ahead for, steer round, and are kept out of. The maths follows
// murmur_core's CPU path step for step.

struct Leader {
    pos: vec3<f32>,
    mode: u32,
    axis: vec3<f32>,
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

struct Solid {
    centre: vec3<f32>,
    kind: u32,
    half: vec3<f32>,
    size: f32,
    turn: vec2<f32>,
    unturn: vec2<f32>,
}

struct Params {
    n: u32,
    cells: u32,
    nx: u32,
    ny: u32,
    nz: u32,
    reach_x: u32,
    wrapped: u32,
    edge_mode: u32,
    min: vec3<f32>,
    margin: f32,
    size: vec3<f32>,
    turn_factor: f32,
    inv_cell: vec3<f32>,
    model: u32,
    view_min_cos: f32,
    sight2: f32,
    near2: f32,
    cruise_speed: f32,
    player: u32,
    leader_count: u32,
    solid_count: u32,
    pad0: u32,
    m0: vec4<f32>,
    m1: vec4<f32>,
    // look_ahead, force, clearance, the model's near radius
    avoid: vec4<f32>,
    leaders: array<Leader, 8>,
    solids: array<Solid, 8>,
}

// One bird: position and velocity; their fourth floats carry the tick's turning (see `steer`),
// which only the drawing reads.
struct Bird {
    p: vec4<f32>,
    v: vec4<f32>,
}

// Edge modes, models, leader modes and solids, as numbered by the host (src/uniform*.rs).
const EDGE_TURN: u32 = 0u;
const EDGE_WRAP: u32 = 1u;
const EDGE_BOUNCE: u32 = 2u;
const MODEL_CORNELL: u32 = 1u;
const LEADER_FOLLOW: u32 = 0u;
const LEADER_FLEE: u32 = 1u;
const SOLID_SPHERE: u32 = 0u;
const SOLID_BOX: u32 = 1u;
const SOLID_GROUND: u32 = 2u;
const BIG: f32 = 3.4028235e38;
const UP: vec3<f32> = vec3<f32>(0.0, 1.0, 0.0);

@group(0) @binding(0) var<uniform> P: Params;
// Each bird's state, by bird id.
@group(0) @binding(1) var<storage, read_write> birds: array<Bird>;
// The same, in cell order: what the steering pass reads, contiguously, cell by cell.
@group(0) @binding(2) var<storage, read_write> sorted: array<Bird>;
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

fn finite(v: vec3<f32>) -> bool {
    return all(abs(v) <= vec3<f32>(BIG));
}

// murmur_core's WorldBounds::wrap: into [min, min + size) on a torus, unchanged otherwise.
fn wrap_pos(p: vec3<f32>) -> vec3<f32> {
    let hi = P.min + P.size;
    if P.wrapped == 0u || (all(p >= P.min) && all(p < hi)) {
        return p;
    }
    let a = p - P.min;
    var q = a - P.size * floor(a / P.size);
    for (var axis = 0u; axis < 3u; axis = axis + 1u) {
        if q[axis] < 0.0 {
            q[axis] = q[axis] + P.size[axis];
        }
        if q[axis] >= P.size[axis] {
            q[axis] = 0.0;
        }
    }
    return q + P.min;
}

// The nearest image of an offset on a torus (WorldBounds::delta).
fn delta(here: vec3<f32>, there: vec3<f32>) -> vec3<f32> {
    let d = there - here;
    if P.wrapped == 0u {
        return d;
    }
    return d - P.size * round(d / P.size);
}

fn counts() -> vec3<u32> {
    return vec3<u32>(P.nx, P.ny, P.nz);
}

// GridLayout::cell_coords: the column, row and layer of p, clamped to the grid.
fn cell_xyz(p: vec3<f32>) -> vec3<u32> {
    var u = (p - P.min) * P.inv_cell;
    let n = vec3<f32>(counts());
    if P.wrapped != 0u && !(all(u >= vec3<f32>(0.0)) && all(u < n)) {
        u = u - n * floor(u / n);
    }
    let c = min(max(u, vec3<f32>(0.0)), n - vec3<f32>(1.0));
    return vec3<u32>(c);
}

fn cell_index(c: vec3<u32>) -> u32 {
    return (c.z * P.ny + c.y) * P.nx + c.x;
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
    let c = cell_index(cell_xyz(wrap_pos(birds[i].p.xyz)));
    let slot = atomicAdd(&cell_count[c], 1u);
    place[i] = vec2<u32>(c, slot);
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

// 4. Scatter the ids into cell order (3b. is the scan of the counts into cell_start).
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

// 4b. Each bird's place is its rank by id among its cell's birds (the CPU grid's stable sort),
// not the atomics' arrival order; it copies its state there (the cell-ordered buffer).
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
    sorted[k] = Bird(vec4<f32>(wrap_pos(b.p.xyz), 0.0), b.v);
}

// The cells to visit on one axis around cell c of n, `reach` either side (murmur_core's grid
// `runs`): one run, or two across a torus seam with the far one shifted by the world's extent;
// on a torus too small for the reach, all of them and the nearest image of each offset.
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

fn runs(c: u32, n: u32, reach: u32, wrapped: bool, extent: f32) -> Runs {
    var r = Runs(0u, 0u, 0.0, 0u, 0u, 0.0, 1u, false);
    if wrapped && n < 2u * reach + 1u {
        r.last0 = n - 1u;
        r.min_image = true;
    } else if !wrapped || (c >= reach && c + reach < n) {
        r.first0 = select(c - reach, 0u, c < reach);
        r.last0 = min(c + reach, n - 1u);
    } else if c < reach {
        r.first0 = n - (reach - c);
        r.last0 = n - 1u;
        r.shift0 = -extent;
        r.first1 = 0u;
        r.last1 = c + reach;
        r.len = 2u;
    } else {
        r.first0 = c - reach;
        r.last0 = n - 1u;
        r.first1 = 0u;
        r.last1 = c + reach - n;
        r.shift1 = extent;
        r.len = 2u;
    }
    return r;
}

fn run_first(r: Runs, i: u32) -> u32 {
    return select(r.first0, r.first1, i == 1u);
}

fn run_last(r: Runs, i: u32) -> u32 {
    return select(r.last0, r.last1, i == 1u);
}

fn run_shift(r: Runs, i: u32) -> f32 {
    return select(r.shift0, r.shift1, i == 1u);
}

struct Sums {
    seen: u32,
    seen_offset: vec3<f32>,
    seen_velocity: vec3<f32>,
    near_offset: vec3<f32>,
    near_inverse: vec3<f32>,
    near_apart: u32,
}

// glam's normalize_or_zero, normalize_or, clamp_length_max, any_orthonormal_vector, and the
// models' with_length.
fn normalize_or(v: vec3<f32>, fallback: vec3<f32>) -> vec3<f32> {
    let rcp = 1.0 / length(v);
    if rcp > 0.0 && rcp < BIG {
        return v * rcp;
    }
    return fallback;
}

fn normalize_or_zero(v: vec3<f32>) -> vec3<f32> {
    return normalize_or(v, vec3<f32>(0.0));
}

// A unit vector, or zero for "none" (glam's try_normalize).
fn unit(v: vec3<f32>) -> vec3<f32> {
    return normalize_or_zero(v);
}

fn is_none(v: vec3<f32>) -> bool {
    return all(v == vec3<f32>(0.0));
}

fn clamp_length_max(v: vec3<f32>, max_len: f32) -> vec3<f32> {
    let l2 = dot(v, v);
    if l2 > max_len * max_len {
        return max_len * (v / sqrt(l2));
    }
    return v;
}

fn with_length(v: vec3<f32>, len: f32) -> vec3<f32> {
    return normalize_or_zero(v) * len;
}

fn any_orthonormal(v: vec3<f32>) -> vec3<f32> {
    // f32::signum: -1 for every negative z, -0 included.
    let sign = select(1.0, -1.0, (bitcast<u32>(v.z) & 0x80000000u) != 0u);
    let a = -1.0 / (sign + v.z);
    let b = v.x * v.y * a;
    return vec3<f32>(b, sign + v.y * v.y * a, -v.y);
}

// Sums over bird k's neighbours (k a place in cell order), visiting cells as the CPU grid does.
fn neighbour_sums(k: u32, p: vec3<f32>, v: vec3<f32>) -> Sums {
    var s = Sums(0u, vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0), 0u);
    let c = cell_xyz(p);
    let wrapped = P.wrapped != 0u;
    let cols = runs(c.x, P.nx, P.reach_x, wrapped, P.size.x);
    let rows = runs(c.y, P.ny, 1u, wrapped, P.size.y);
    let layers = runs(c.z, P.nz, 1u, wrapped, P.size.z);
    var heading = vec3<f32>(0.0);
    var min_cos = P.view_min_cos;
    let view = min_cos > -1.0;
    if view {
        heading = normalize_or_zero(v);
        if is_none(heading) {
            // A still bird sees all round.
            min_cos = -1.0;
        }
    }
    for (var li = 0u; li < layers.len; li = li + 1u) {
        let z_shift = run_shift(layers, li);
        for (var z = run_first(layers, li); z <= run_last(layers, li); z = z + 1u) {
            for (var ri = 0u; ri < rows.len; ri = ri + 1u) {
                let y_shift = run_shift(rows, ri);
                for (var y = run_first(rows, ri); y <= run_last(rows, ri); y = y + 1u) {
                    let base = (z * P.ny + y) * P.nx;
                    for (var ci = 0u; ci < cols.len; ci = ci + 1u) {
                        let start = cell_start[base + run_first(cols, ci)];
                        let end = cell_start[base + run_last(cols, ci) + 1u];
                        // As the CPU: the offset to a candidate is its position plus
                        // (shift - p).
                        let offset = vec3<f32>(run_shift(cols, ci), y_shift, z_shift) - p;
                        for (var j = start; j < end; j = j + 1u) {
                            if j == k {
                                continue;
                            }
                            let other = sorted[j];
                            var d = other.p.xyz + offset;
                            if cols.min_image {
                                d.x = d.x - P.size.x * round(d.x / P.size.x);
                            }
                            if rows.min_image {
                                d.y = d.y - P.size.y * round(d.y / P.size.y);
                            }
                            if layers.min_image {
                                d.z = d.z - P.size.z * round(d.z / P.size.z);
                            }
                            let d2 = d.x * d.x + d.y * d.y + d.z * d.z;
                            if view
                                && d.x * heading.x + d.y * heading.y + d.z * heading.z
                                    < min_cos * sqrt(d2) {
                                continue;
                            }
                            if d2 < P.sight2 {
                                s.seen = s.seen + 1u;
                                s.seen_offset = s.seen_offset + d;
                                s.seen_velocity = s.seen_velocity + other.v.xyz;
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
        }
    }
    return s;
}

// The model's acceleration from the sums (murmur_core's Reynolds::steer, Cornell::steer).
fn model_steer(s: Sums, v: vec3<f32>) -> vec3<f32> {
    var a = vec3<f32>(0.0);
    if P.model == MODEL_CORNELL {
        let centering = P.m0.x;
        let avoid_factor = P.m0.y;
        let matching = P.m0.z;
        a = -s.near_offset * avoid_factor;
        if s.seen > 0u {
            let n = f32(s.seen);
            a = a + (s.seen_velocity / n - v) * matching;
            a = a + (s.seen_offset / n) * centering;
        }
    } else {
        let max_speed = P.m0.x;
        let max_force = P.m0.y;
        if s.seen > 0u {
            let n = f32(s.seen);
            let align = clamp_length_max(with_length(s.seen_velocity / n, max_speed) - v, max_force);
            let cohere = clamp_length_max(with_length(s.seen_offset / n, max_speed) - v, max_force);
            a = a + align * P.m1.x + cohere * P.m1.y;
        }
        if s.near_apart > 0u {
            let push = -s.near_inverse / f32(s.near_apart);
            let separate = clamp_length_max(with_length(push, max_speed) - v, max_force * P.m0.z);
            a = a + separate * P.m0.w;
        }
    }
    return a;
}

// Velocity from acceleration under the model's speed rules.
fn model_integrate(v0: vec3<f32>, a: vec3<f32>) -> vec3<f32> {
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
            return normalize_or(v, vec3<f32>(1.0, 0.0, 0.0)) * min_speed;
        }
        return v;
    }
    return clamp_length_max(v, P.m0.x);
}

// LeaderParams::ring_velocity: to the nearest point of the ring about the leader's axis, easing
// into flight along it.
fn ring_velocity(l: Leader, to_leader: vec3<f32>, v: vec3<f32>, speed: f32) -> vec3<f32> {
    let axis = l.axis;
    let along = dot(to_leader, axis);
    let planar = to_leader - axis * along;
    var inward = unit(planar);
    if is_none(inward) {
        let heading = unit(v - axis * dot(v, axis));
        if is_none(heading) {
            inward = -any_orthonormal(axis);
        } else {
            inward = -heading;
        }
    }
    let to_ring = axis * along + inward * (length(planar) - l.orbit_radius);
    let band = max(l.slowing_radius, 1.1920929e-7);
    let closeness = min(length(to_ring) / band, 1.0);
    let towards = normalize_or_zero(to_ring);
    let direction = select(-1.0, 1.0, l.orbit_direction >= 0.0);
    let tangent = normalize_or_zero(cross(axis, -inward)) * direction;
    let tangential = sqrt(max(1.0 - closeness * closeness, 0.0));
    return (towards * closeness + tangent * tangential) * speed;
}

// murmur_core's LeaderParams::steer for a bird at offset `to_leader` from the leader.
fn leader_steer(l: Leader, to_leader: vec3<f32>, v: vec3<f32>) -> vec3<f32> {
    let speed = P.cruise_speed;
    let dist = length(to_leader);
    let x = vec3<f32>(1.0, 0.0, 0.0);
    if l.mode == LEADER_FLEE {
        if dist >= l.flee_radius {
            return vec3<f32>(0.0);
        }
        var away = unit(-to_leader);
        if is_none(away) {
            away = normalize_or(v, x);
        }
        return clamp_length_max(away * speed - v, l.flee_force) * l.weight;
    }
    if l.mode != LEADER_FOLLOW {
        return vec3<f32>(0.0);
    }
    if l.follow_range > 0.0 && dist > l.follow_range {
        return vec3<f32>(0.0);
    }
    if is_none(unit(to_leader)) {
        return clamp_length_max(normalize_or(v, x) * speed - v, l.max_force) * l.weight;
    }
    let desired = ring_velocity(l, to_leader, v, speed);
    return clamp_length_max(desired - v, l.max_force) * l.weight;
}

// Edges::turn_acceleration.
fn turn_at_edges(p: vec3<f32>) -> vec3<f32> {
    var a = vec3<f32>(0.0);
    if P.edge_mode != EDGE_TURN {
        return a;
    }
    let lo = P.min + vec3<f32>(P.margin);
    let hi = P.min + P.size - vec3<f32>(P.margin);
    for (var axis = 0u; axis < 3u; axis = axis + 1u) {
        if p[axis] < lo[axis] {
            a[axis] = a[axis] + P.turn_factor;
        }
        if p[axis] > hi[axis] {
            a[axis] = a[axis] - P.turn_factor;
        }
    }
    return a;
}

// Edges::confine for turn and bounce (wrap wraps; none leaves the bird alone).
fn confine(p_in: vec3<f32>, v_in: vec3<f32>) -> Bird {
    var p = p_in;
    var v = v_in;
    if P.edge_mode == EDGE_WRAP {
        return Bird(vec4<f32>(wrap_pos(p), 0.0), vec4<f32>(v, 0.0));
    }
    if P.edge_mode == EDGE_TURN || P.edge_mode == EDGE_BOUNCE {
        let lo = P.min;
        let hi = P.min + P.size;
        let bounce = P.edge_mode == EDGE_BOUNCE;
        for (var axis = 0u; axis < 3u; axis = axis + 1u) {
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
    }
    return Bird(vec4<f32>(p, 0.0), vec4<f32>(v, 0.0));
}

// --- Solids (murmur_core::solids) ---

// glam's Vec2::rotate by the rotation (cos, sin).
fn rotate(r: vec2<f32>, v: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(r.x * v.x - r.y * v.y, r.y * v.x + r.x * v.y);
}

// A point or direction turned about the vertical by the rotation `r` (Solid::to_local and
// from_local, the horizontal plane taken as (x, -z)).
fn turn_about_up(r: vec2<f32>, d: vec3<f32>) -> vec3<f32> {
    let f = rotate(r, vec2<f32>(d.x, -d.z));
    return vec3<f32>(f.x, d.y, -f.y);
}

struct Hit {
    hit: bool,
    t: f32,
    normal: vec3<f32>,
}

// Solid::distance_and_normal: signed distance (negative inside) in `t`, the outward normal.
fn distance_and_normal(s: Solid, p: vec3<f32>) -> Hit {
    if s.kind == SOLID_SPHERE {
        let d = p - s.centre;
        return Hit(true, length(d) - s.size, normalize_or(d, UP));
    }
    if s.kind == SOLID_BOX {
        let local = turn_about_up(s.unturn, p - s.centre);
        let q = abs(local) - s.half;
        let sign = select(vec3<f32>(1.0), vec3<f32>(-1.0), local < vec3<f32>(0.0));
        let outside = max(q, vec3<f32>(0.0));
        if any(outside != vec3<f32>(0.0)) {
            let normal = normalize_or(outside * sign, UP);
            return Hit(true, length(outside), turn_about_up(s.turn, normal));
        }
        // Inside: out through the nearest face.
        var axis = vec3<f32>(0.0, 0.0, 1.0);
        if q.x >= q.y && q.x >= q.z {
            axis = vec3<f32>(1.0, 0.0, 0.0);
        } else if q.y >= q.z {
            axis = UP;
        }
        return Hit(true, max(max(q.x, q.y), q.z), turn_about_up(s.turn, axis * sign));
    }
    return Hit(true, p.y - s.size, UP);
}

// Solid::near: a ball of radius `reach` about p may touch the solid.
fn solid_near(s: Solid, p: vec3<f32>, reach: f32) -> bool {
    if s.kind == SOLID_SPHERE {
        let d = p - s.centre;
        return dot(d, d) < (s.size + reach) * (s.size + reach);
    }
    if s.kind == SOLID_BOX {
        let r = length(s.half) + reach;
        let d = p - s.centre;
        return dot(d, d) < r * r;
    }
    return p.y - s.size < reach;
}

// Solid::cast: how far a ball of radius r at `from` goes along unit `dir` before it touches.
fn cast_one(s: Solid, origin: vec3<f32>, dir: vec3<f32>, r: f32, reach: f32) -> Hit {
    let none = Hit(false, 0.0, vec3<f32>(0.0));
    var t = 0.0;
    var normal = vec3<f32>(0.0);
    if s.kind == SOLID_SPHERE {
        let big = s.size + r;
        let m = origin - s.centre;
        let c = dot(m, m) - big * big;
        if c <= 0.0 {
            return Hit(true, 0.0, normalize_or(m, -dir));
        }
        let b = dot(m, dir);
        let disc = b * b - c;
        if b > 0.0 || disc < 0.0 {
            return none;
        }
        t = -b - sqrt(disc);
        normal = normalize_or(m + dir * t, -dir);
    } else if s.kind == SOLID_BOX {
        let o = turn_about_up(s.unturn, origin - s.centre);
        let d = turn_about_up(s.unturn, dir);
        let big = s.half + vec3<f32>(r);
        var enter = -BIG;
        var exit = BIG;
        var face = vec3<f32>(0.0);
        for (var a = 0u; a < 3u; a = a + 1u) {
            if d[a] == 0.0 {
                if abs(o[a]) > big[a] {
                    return none;
                }
                continue;
            }
            let t1 = (-big[a] - o[a]) / d[a];
            let t2 = (big[a] - o[a]) / d[a];
            let near = min(t1, t2);
            let far = max(t1, t2);
            if near > enter {
                enter = near;
                face = vec3<f32>(0.0);
                face[a] = -sign(d[a]);
            }
            exit = min(exit, far);
        }
        if enter > exit || exit < 0.0 {
            return none;
        }
        if enter <= 0.0 {
            return Hit(true, 0.0, distance_and_normal(s, origin).normal);
        }
        t = enter;
        normal = turn_about_up(s.turn, face);
    } else {
        let above = origin.y - (s.size + r);
        if above <= 0.0 {
            return Hit(true, 0.0, UP);
        }
        if dir.y >= 0.0 {
            return none;
        }
        t = above / -dir.y;
        normal = UP;
    }
    if t <= reach {
        return Hit(true, max(t, 0.0), normal);
    }
    return none;
}

// The first solid a cast from p along dir touches within reach.
fn cast_all(p: vec3<f32>, dir: vec3<f32>, r: f32, reach: f32) -> Hit {
    var best = Hit(false, 0.0, vec3<f32>(0.0));
    for (var i = 0u; i < P.solid_count; i = i + 1u) {
        let s = P.solids[i];
        if !solid_near(s, p, reach) {
            continue;
        }
        let h = cast_one(s, p, dir, r, reach);
        if h.hit && (!best.hit || h.t < best.t) {
            best = h;
        }
    }
    return best;
}

// murmur_core::solids::avoid: the steering round the solids ahead of a bird about to fly along
// v + acc.
fn avoid(p: vec3<f32>, v: vec3<f32>, acc: vec3<f32>) -> vec3<f32> {
    let look_ahead = P.avoid.x;
    let force = P.avoid.y;
    let clearance = P.avoid.z;
    let near = P.avoid.w;
    let zero = vec3<f32>(0.0);
    if P.solid_count == 0u || force == 0.0 || look_ahead == 0.0 {
        return zero;
    }
    var dir = unit(v + acc);
    if is_none(dir) {
        dir = unit(v);
    }
    if is_none(dir) || !finite(p) {
        return zero;
    }
    let speed = length(v);
    let cruise = P.cruise_speed;
    let reach = max(max(speed, 0.5 * cruise) * look_ahead, near) + clearance;
    var close = false;
    for (var i = 0u; i < P.solid_count; i = i + 1u) {
        close = close || solid_near(P.solids[i], p, reach);
    }
    if !close {
        return zero;
    }
    let ahead = cast_all(p, dir, clearance, reach);
    if !ahead.hit {
        return zero;
    }
    let normal = ahead.normal;
    // Turn first the way the surface slopes away; head-on, upwards, else any way square to the
    // heading.
    var side = unit(normal - dir * dot(normal, dir));
    if is_none(side) {
        side = unit(UP - dir * dir.y);
    }
    if is_none(side) {
        side = any_orthonormal(dir);
    }
    let other = cross(dir, side);
    var heading = normal;
    var found = false;
    for (var step = 1u; step <= 12u && !found; step = step + 1u) {
        let angle = (f32(step) * 15.0) * 0.017453292;
        let sn = sin(angle);
        let cs = cos(angle);
        for (var w = 0u; w < 4u && !found; w = w + 1u) {
            var s = side;
            if w == 1u {
                s = other;
            } else if w == 2u {
                s = -other;
            } else if w == 3u {
                s = -side;
            }
            let d = dir * cs + s * sn;
            // A slimmer ball for the search: a bird already at its clearance from a wall must
            // still find the way along it clear.
            if !cast_all(p, d, 0.5 * clearance, reach).hit {
                heading = d;
                found = true;
            }
        }
    }
    let urgency = 1.0 - clamp(ahead.t / reach, 0.0, 1.0);
    let desired = heading * max(speed, cruise);
    return clamp_length_max(desired - v, force * (0.5 + urgency));
}

// murmur_core::solids::keep_out: a bird within its clearance of a solid is put back on that
// margin and loses the part of its velocity that points in (the ground last); then wrapped, as
// the CPU does.
fn keep_out(b: Bird) -> Bird {
    var p = b.p.xyz;
    var v = b.v.xyz;
    let clearance = P.avoid.z;
    for (var at = 0u; at < 2u * P.solid_count; at = at + 1u) {
        let s = P.solids[at % P.solid_count];
        // The first round takes the solids above ground, the second the ground.
        if (s.kind == SOLID_GROUND) != (at >= P.solid_count) || !solid_near(s, p, clearance) {
            continue;
        }
        let h = distance_and_normal(s, p);
        if h.t < clearance && finite(p) {
            p = p + h.normal * (clearance - h.t);
            let inward = min(dot(v, h.normal), 0.0);
            v = v - h.normal * inward;
        }
    }
    return Bird(vec4<f32>(wrap_pos(p), 0.0), vec4<f32>(v, 0.0));
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
    let p = me.p.xyz;
    let v = me.v.xyz;
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
    a = a + avoid(p, v, a);
    a = a + turn_at_edges(p);
    let v_new = model_integrate(v, a);
    var b = confine(p + v_new, v_new);
    if P.solid_count > 0u {
        b = keep_out(b);
    }
    // For drawing (a bird banks into its turn): the tick's acceleration across the new heading,
    // along `bank_axes`' right and up, in the state's unused fourth floats.
    let axes = bank_axes(b.v.xyz);
    b.p.w = dot(a, axes[0]);
    b.v.w = dot(a, axes[1]);
    birds[id] = b;
}

// Right and up across a bird's heading (level, unless it flies straight up or down): the axes
// the steering pass writes a bird's turning along, and the drawing reads it back from.
fn bank_axes(v: vec3<f32>) -> array<vec3<f32>, 2> {
    let forward = normalize_or(v, vec3<f32>(0.0, 0.0, -1.0));
    let right = normalize_or(cross(forward, UP), vec3<f32>(1.0, 0.0, 0.0));
    return array<vec3<f32>, 2>(right, cross(right, forward));
}
