// The parallel prefix sum (exclusive scan) over any number of u32s, in levels: each workgroup
// scans its block of 256 in workgroup memory and writes the block's total; the totals are
// scanned the same way (a level deeper while more than one block remains), then added back.

struct Scan {
    // Entries of `data` this level scans.
    len: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<uniform> scan: Scan;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;

const BLOCK: u32 = 256u;

var<workgroup> tile: array<u32, BLOCK>;

fn block_of(wid: vec3<u32>, groups: vec3<u32>) -> u32 {
    // Dispatches fold into two dimensions past 65,535 workgroups.
    return wid.x + wid.y * groups.x;
}

// Exclusive scan of each block in place; the block's total goes to `sums[block]`.
@compute @workgroup_size(256)
fn scan_blocks(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let block = block_of(wid, groups);
    let i = block * BLOCK + lid.x;
    var own = 0u;
    if i < scan.len {
        own = data[i];
    }
    tile[lid.x] = own;
    workgroupBarrier();
    // Hillis-Steele: after the step with offset `o`, each entry sums the 2o entries up to it.
    for (var o = 1u; o < BLOCK; o = o * 2u) {
        var left = 0u;
        if lid.x >= o {
            left = tile[lid.x - o];
        }
        workgroupBarrier();
        tile[lid.x] = tile[lid.x] + left;
        workgroupBarrier();
    }
    if i < scan.len {
        data[i] = tile[lid.x] - own;
    }
    if lid.x == BLOCK - 1u {
        sums[block] = tile[BLOCK - 1u];
    }
}

// Adds each block's scanned total (the sum of every block before it) to its entries.
@compute @workgroup_size(256)
fn add_back(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let block = block_of(wid, groups);
    let i = block * BLOCK + lid.x;
    if i < scan.len {
        data[i] = data[i] + sums[block];
    }
}
