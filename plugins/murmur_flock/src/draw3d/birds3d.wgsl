// murmur's 3D birds: one instance a bird, thirty vertices (a body of eight faces and two wings)
// laid along its heading and banked as it turns, the wings flapping, lit by the scene's lights
// (Bevy's PBR functions: the sun, its shadows, ambient light, fog) like any other object.

#import bevy_pbr::{
    mesh_view_bindings::{view, globals},
    pbr_types::{pbr_input_new, STANDARD_MATERIAL_FLAGS_FOG_ENABLED_BIT},
    pbr_functions::{apply_pbr_lighting, calculate_view, main_pass_post_lighting_processing},
}

struct Instance {
    // Where the bird is drawn, and its length.
    @location(0) position_size: vec4<f32>,
    // Its orientation: its local -z forward, +y up.
    @location(1) rotation: vec4<f32>,
    // Its colour, and how far its wings flap (radians; 0: held still).
    @location(2) colour_flap: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_position: vec3<f32>,
    @location(1) world_normal: vec3<f32>,
    @location(2) colour: vec4<f32>,
}

// The body: a double pyramid from the beak (-z) to the tail (+z) about a ring of four points.
const BEAK = vec3<f32>(0.0, 0.0, -0.6);
const TAIL = vec3<f32>(0.0, 0.0, 0.45);
const RIGHT = vec3<f32>(0.1, 0.0, 0.0);
const LEFT = vec3<f32>(-0.1, 0.0, 0.0);
const TOP = vec3<f32>(0.0, 0.09, 0.0);
const BELLY = vec3<f32>(0.0, -0.07, 0.0);
// A wing's root (front, back) and tip, on the right; the left one mirrors it.
const ROOT_FRONT = vec3<f32>(0.07, 0.0, -0.2);
const ROOT_BACK = vec3<f32>(0.07, 0.0, 0.2);
const WING_TIP = vec3<f32>(0.6, 0.0, 0.15);

fn rotate(q: vec4<f32>, v: vec3<f32>) -> vec3<f32> {
    let t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

// Corner `i` of the bird, unturned, its wings at rest.
fn corner(i: u32) -> vec3<f32> {
    var body = array<vec3<f32>, 24>(
        BEAK, RIGHT, TOP, BEAK, TOP, LEFT, BEAK, LEFT, BELLY, BEAK, BELLY, RIGHT,
        TAIL, TOP, RIGHT, TAIL, LEFT, TOP, TAIL, BELLY, LEFT, TAIL, RIGHT, BELLY,
    );
    if i < 24u {
        return body[i];
    }
    var wing = array<vec3<f32>, 3>(ROOT_FRONT, ROOT_BACK, WING_TIP);
    let w = wing[(i - 24u) % 3u];
    if i < 27u {
        return w;
    }
    return vec3<f32>(-w.x, w.y, w.z);
}

// A wing's corner turned about the body's axis at its root: up by `flap` (both wings at once).
fn flapped(p: vec3<f32>, flap: f32) -> vec3<f32> {
    let side = sign(p.x);
    let root = vec3<f32>(side * ROOT_FRONT.x, 0.0, 0.0);
    let r = p - root;
    let a = side * flap;
    let c = cos(a);
    let s = sin(a);
    return root + vec3<f32>(r.x * c - r.y * s, r.x * s + r.y * c, r.z);
}

@vertex
fn vertex(@builtin(vertex_index) index: u32, bird: Instance) -> VertexOut {
    let position = bird.position_size.xyz;
    let size = bird.position_size.w;
    let wing = index >= 24u;
    // The flap of each bird in its own phase, from where it is.
    let flap = bird.colour_flap.w * sin(globals.time * 11.0 + dot(position, vec3<f32>(0.05, 0.03, 0.04)));
    let first = index - index % 3u;
    var a = corner(first);
    var b = corner(first + 1u);
    var c = corner(first + 2u);
    if wing {
        a = flapped(a, flap);
        b = flapped(b, flap);
        c = flapped(c, flap);
    }
    var normal = normalize(cross(b - a, c - a));
    if wing {
        // A wing's face looks up, turned with the wing (it is lit from both sides).
        let turn = sign(a.x) * flap;
        let up = vec3<f32>(-sin(turn), cos(turn), 0.0);
        if dot(normal, up) < 0.0 {
            normal = -normal;
        }
    } else if dot(normal, a + b + c) < 0.0 {
        // The body's faces look out from its middle.
        normal = -normal;
    }
    var local = a;
    let k = index % 3u;
    if k == 1u {
        local = b;
    } else if k == 2u {
        local = c;
    }
    let world = position + rotate(bird.rotation, local * size);
    var out: VertexOut;
    out.world_position = world;
    out.world_normal = rotate(bird.rotation, normal);
    out.clip = view.clip_from_world * vec4<f32>(world, 1.0);
    out.colour = vec4<f32>(bird.colour_flap.rgb, 1.0);
    return out;
}

@fragment
fn fragment(in: VertexOut, @builtin(front_facing) is_front: bool) -> @location(0) vec4<f32> {
    var pbr = pbr_input_new();
    pbr.material.base_color = in.colour;
    pbr.material.perceptual_roughness = 0.7;
    pbr.material.flags = STANDARD_MATERIAL_FLAGS_FOG_ENABLED_BIT;
    pbr.frag_coord = in.clip;
    pbr.world_position = vec4<f32>(in.world_position, 1.0);
    var n = normalize(in.world_normal);
    if !is_front {
        n = -n;
    }
    pbr.world_normal = n;
    pbr.N = n;
    // An orthographic projection keeps w at 1.
    pbr.is_orthographic = view.clip_from_view[3].w == 1.0;
    pbr.V = calculate_view(pbr.world_position, pbr.is_orthographic);
    let lit = apply_pbr_lighting(pbr);
    return main_pass_post_lighting_processing(pbr, lit);
}
