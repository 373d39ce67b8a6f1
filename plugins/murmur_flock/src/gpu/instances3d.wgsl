// A 3D GPU flock's birds as the 3D birds' shader (draw3d/birds3d.wgsl) draws them: one instance
// a bird, written straight from the simulation's state buffer each frame, in the operations the
// CPU path's `instances_of_flocks` and `banked` use (drawn between ticks, turned along its
// heading, banked into its turn, coloured by its neighbours).

struct Look {
    small: vec4<f32>,
    large: vec4<f32>,
    plain: vec4<f32>,
    size: f32,
    large_at: f32,
    flap: f32,
    fraction: f32,
    // About the flock's strongest steering: what a full bank takes.
    scale: f32,
    by_size: u32,
    bank_by: u32,
    // The player's bird, drawn by the game on its own (u32::MAX: none).
    skip: u32,
    n: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

struct Bird {
    p: vec4<f32>,
    v: vec4<f32>,
}

struct Instance {
    position_size: vec4<f32>,
    rotation: vec4<f32>,
    colour_flap: vec4<f32>,
}

@group(0) @binding(0) var<uniform> L: Look;
@group(0) @binding(1) var<storage, read> birds: array<Bird>;
@group(0) @binding(2) var<storage, read> neighbours: array<u32>;
@group(0) @binding(3) var<storage, read_write> instances: array<Instance>;

const UP: vec3<f32> = vec3<f32>(0.0, 1.0, 0.0);
const MAX_BANK: f32 = 1.0;

fn normalize_or(v: vec3<f32>, fallback: vec3<f32>) -> vec3<f32> {
    let rcp = 1.0 / length(v);
    if rcp > 0.0 && rcp < 3.4028235e38 {
        return v * rcp;
    }
    return fallback;
}

// As flock3d.wgsl's `bank_axes`: the axes a bird's turning is stored along.
fn bank_axes(v: vec3<f32>) -> array<vec3<f32>, 2> {
    let forward = normalize_or(v, vec3<f32>(0.0, 0.0, -1.0));
    let right = normalize_or(cross(forward, UP), vec3<f32>(1.0, 0.0, 0.0));
    return array<vec3<f32>, 2>(right, cross(right, forward));
}

fn any_orthonormal(v: vec3<f32>) -> vec3<f32> {
    let sign = select(1.0, -1.0, (bitcast<u32>(v.z) & 0x80000000u) != 0u);
    let a = -1.0 / (sign + v.z);
    let b = v.x * v.y * a;
    return vec3<f32>(b, sign + v.y * v.y * a, -v.y);
}

// glam's Quat::from_rotation_axes: the rotation whose matrix has these columns.
fn quat_from_axes(x: vec3<f32>, y: vec3<f32>, z: vec3<f32>) -> vec4<f32> {
    if z.z <= 0.0 {
        let dif10 = y.y - x.x;
        let omm22 = 1.0 - z.z;
        if dif10 <= 0.0 {
            let four_xsq = omm22 - dif10;
            let inv4x = 0.5 / sqrt(four_xsq);
            return vec4<f32>(four_xsq * inv4x, (x.y + y.x) * inv4x, (x.z + z.x) * inv4x, (y.z - z.y) * inv4x);
        }
        let four_ysq = omm22 + dif10;
        let inv4y = 0.5 / sqrt(four_ysq);
        return vec4<f32>((x.y + y.x) * inv4y, four_ysq * inv4y, (y.z + z.y) * inv4y, (z.x - x.z) * inv4y);
    }
    let sum10 = y.y + x.x;
    let opm22 = 1.0 + z.z;
    if sum10 <= 0.0 {
        let four_zsq = opm22 - sum10;
        let inv4z = 0.5 / sqrt(four_zsq);
        return vec4<f32>((x.z + z.x) * inv4z, (y.z + z.y) * inv4z, four_zsq * inv4z, (x.y - y.x) * inv4z);
    }
    let four_wsq = opm22 + sum10;
    let inv4w = 0.5 / sqrt(four_wsq);
    return vec4<f32>((y.z - z.y) * inv4w, (z.x - x.z) * inv4w, (x.y - y.x) * inv4w, four_wsq * inv4w);
}

// murmur_flock's `banked` (Bevy's Transform::looking_to): a bird flying along unit `forward`,
// its up tilted into the lateral `turning`.
fn banked(forward: vec3<f32>, turning: vec3<f32>) -> vec4<f32> {
    let lateral = turning - forward * dot(turning, forward);
    let bank = min(atan(length(lateral) / max(L.scale, 1.1754944e-38)), MAX_BANK);
    let side = normalize_or(lateral, vec3<f32>(0.0));
    var up = normalize_or(UP * cos(bank) + side * sin(bank), UP);
    let c = cross(up, forward);
    if dot(c, c) < 1e-6 {
        up = vec3<f32>(0.0, 0.0, 1.0);
    }
    let back = -forward;
    var right = normalize_or(cross(up, back), vec3<f32>(0.0));
    if all(right == vec3<f32>(0.0)) {
        right = any_orthonormal(up);
    }
    return quat_from_axes(right, cross(back, right), back);
}

@compute @workgroup_size(256)
fn instances_of_birds(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = (wid.x + wid.y * groups.x) * 256u + lid.x;
    if i >= L.n {
        return;
    }
    let b = birds[i];
    let pos = b.p.xyz;
    let vel = b.v.xyz;
    let forward = normalize_or(vel, vec3<f32>(0.0, 0.0, -1.0));
    var turning = vec3<f32>(0.0);
    if L.bank_by != 0u {
        let axes = bank_axes(vel);
        turning = axes[0] * b.p.w + axes[1] * b.v.w;
    }
    var colour = L.plain;
    if L.by_size != 0u {
        let t = min(f32(neighbours[i]) / L.large_at, 1.0);
        colour = L.small + (L.large - L.small) * t;
    }
    let size = select(L.size, 0.0, i == L.skip);
    instances[i] = Instance(
        vec4<f32>(pos - vel * (1.0 - L.fraction), size),
        banked(forward, turning),
        vec4<f32>(colour.rgb, L.flap),
    );
}
