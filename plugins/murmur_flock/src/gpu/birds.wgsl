// The GPU flock's birds, drawn straight from its state buffer: one instance a bird, nine
// vertices (a body and two wings) laid along its heading and coloured by the neighbours it saw,
// as murmur_flock's CPU mesh draws them.

#import bevy_render::view::View

@group(0) @binding(0) var<uniform> view: View;

struct Look {
    small: vec4<f32>,
    large: vec4<f32>,
    plain: vec4<f32>,
    world_min: vec2<f32>,
    world_size: vec2<f32>,
    around: vec2<f32>,
    size: f32,
    large_at: f32,
    frame: f32,
    // 1: each bird at its image nearest `around` (a wrapped world drawn around a camera).
    wrapped: u32,
    flapping: u32,
    by_size: u32,
    // A bird drawn by something else (the player's gold bird), or u32 max.
    skip: u32,
    // How far the clock is towards the next tick (0 to 1): a bird is drawn that far along its
    // last move, as the CPU's birds are (`drawn_position`).
    fraction: f32,
    pad1: u32,
    pad2: u32,
}

@group(1) @binding(0) var<storage, read> birds: array<vec4<f32>>;
@group(1) @binding(1) var<storage, read> neighbours: array<u32>;
@group(1) @binding(2) var<uniform> look: Look;

struct Out {
    @builtin(position) clip: vec4<f32>,
    @location(0) colour: vec4<f32>,
}

fn rotate(v: vec2<f32>, by: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(by.x * v.x - by.y * v.y, by.y * v.x + by.x * v.y);
}

@vertex
fn vertex(@builtin(vertex_index) corner: u32, @builtin(instance_index) bird: u32) -> Out {
    var shape = array<vec2<f32>, 9>(
        vec2<f32>(0.6, 0.0), vec2<f32>(-0.45, 0.13), vec2<f32>(-0.45, -0.13),
        vec2<f32>(0.3, 0.06), vec2<f32>(-0.45, 0.08), vec2<f32>(-0.2, 0.55),
        vec2<f32>(0.3, -0.06), vec2<f32>(-0.45, -0.08), vec2<f32>(-0.2, -0.55),
    );
    var out: Out;
    let b = birds[bird];
    var p = b.xy - b.zw * (1.0 - look.fraction);
    if look.wrapped != 0u {
        let d = p - look.around;
        p = look.around + d - look.world_size * round(d / look.world_size);
    }
    var heading = vec2<f32>(0.0, 1.0);
    let speed = length(b.zw);
    if speed > 0.0 {
        heading = b.zw / speed;
    }
    var local = shape[corner];
    if look.flapping != 0u && corner >= 3u {
        // The wings turn about the bird's centre in opposite phases.
        var flap = sin(look.frame * 0.2 + p.x * 0.05) * 0.4;
        if corner >= 6u {
            flap = -flap;
        }
        local = rotate(local, vec2<f32>(cos(flap), sin(flap)));
    }
    var world = p + rotate(local * look.size, heading);
    if bird == look.skip {
        // Collapsed to a point: nothing is drawn.
        world = p;
    }
    out.clip = view.clip_from_world * vec4<f32>(world, 0.0, 1.0);
    if look.by_size != 0u {
        let t = min(f32(neighbours[bird]) / look.large_at, 1.0);
        out.colour = look.small + (look.large - look.small) * t;
    } else {
        out.colour = look.plain;
    }
    return out;
}

@fragment
fn fragment(in: Out) -> @location(0) vec4<f32> {
    return in.colour;
}
