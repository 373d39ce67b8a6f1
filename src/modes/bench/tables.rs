//! The tables `murmur bench` prints without `--json`.

use super::*;

pub(super) fn print(lines: &[serde_json::Value]) {
    fn of<'a>(
        lines: &'a [serde_json::Value],
        kind: &'a str,
    ) -> impl Iterator<Item = &'a serde_json::Value> {
        lines.iter().filter(move |l| l["kind"] == kind)
    }
    let f = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
    let mut sims = of(lines, "sim").peekable();
    if sims.peek().is_some() {
        let first = sims.peek().cloned().unwrap_or_default();
        println!(
            "simulation (FastFlock, {} preset, torus; the {} steps after a random start, whose \
             density is set by --neighbours; neighbours: mean within the radius at the first and \
             last of them)",
            first["preset"].as_str().unwrap_or(""),
            first["steps"]
        );
        println!(
            "{:>5} {:>10} {:>7} {:>12} {:>16} {:>18} {:>18} {:>13} {:>10}",
            "space",
            "boids",
            "threads",
            "steps/s",
            "boid-steps/s",
            "boid-steps/s/core",
            "pair tests/s/core",
            "neighbours",
            "bytes/boid"
        );
        for l in sims {
            println!(
                "{:>5} {:>10} {:>7} {:>12.1} {:>16.3e} {:>18.3e} {:>18.3e} {:>13} {:>10.1}",
                l["space"].as_str().unwrap_or("2d"),
                l["boids"],
                l["threads"],
                f(&l["steps_per_s"]),
                f(&l["boid_steps_per_s"]),
                f(&l["boid_steps_per_s_per_core"]),
                f(&l["pair_tests_per_s_per_core"]),
                format!(
                    "{:.1} -> {:.1}",
                    f(&l["neighbours_first"]),
                    f(&l["neighbours_last"])
                ),
                f(&l["bytes_per_boid"])
            );
        }
    }
    for l in of(lines, "ecs") {
        println!(
            "\nBevy plugins (FlockPlugins, headless) at {} birds: {:.1} steps/s = {:.2}x FastFlock ({:.1} steps/s), {:.2}x the bare core FlockSim ({:.1} steps/s); the same {} steps from one start, the same bits",
            l["boids"],
            f(&l["ecs_steps_per_s"]),
            f(&l["ecs_share_of_fast_core"]),
            f(&l["fast_core_steps_per_s"]),
            f(&l["ecs_share_of_core"]),
            f(&l["core_steps_per_s"]),
            l["steps"]
        );
        let p = &l["ecs_phase_ms"];
        println!(
            "  a tick of the plugins, phase by phase (ms, one more window): CollectNeighbours \
             {:.2}, Steer {:.2} (the move worked out with it, when nothing changes the \
             accelerations after it), FollowLeader to TurnAtEdges {:.2}, Integrate {:.2} (the \
             move, or taking the one worked out) + {:.2} (hunters and the write-back to the \
             entities), the rest of the frame {:.2}; FastFlock's whole tick {:.2}",
            f(&p["collect_neighbours"]),
            f(&p["steer"]),
            f(&p["follow_leader_to_turn_at_edges"]),
            f(&p["integrate"]),
            f(&p["write_back"]),
            f(&p["rest_of_frame"]),
            1e3 / f(&l["fast_core_steps_per_s"]),
        );
    }
    let neighbours: Vec<_> = of(lines, "neighbours").collect();
    if !neighbours.is_empty() {
        println!(
            "\nneighbour collection, one thread, every bird's neighbours (ms; ratio to the grid)"
        );
        let mut sizes: Vec<u64> = neighbours
            .iter()
            .filter_map(|l| l["boids"].as_u64())
            .collect();
        sizes.dedup();
        for n in sizes {
            let row: Vec<_> = neighbours.iter().filter(|l| l["boids"] == n).collect();
            let grid = row
                .iter()
                .find(|l| l["method"] == "grid")
                .map_or(f64::NAN, |l| f(&l["ms"]));
            let cells: Vec<String> = row
                .iter()
                .map(|l| {
                    format!(
                        "{} {:.1} ms ({:.1}x){}",
                        l["method"].as_str().unwrap_or(""),
                        f(&l["ms"]),
                        f(&l["ms"]) / grid,
                        if l["same_pairs_as_grid"] == true {
                            ""
                        } else {
                            " DIFFERENT PAIRS"
                        }
                    )
                })
                .collect();
            println!("{n:>10}: {}", cells.join(", "));
        }
        if !cfg!(feature = "baselines") {
            println!(
                "(the k-d tree and R-tree baselines are left out of this build: \
                 `cargo run --features baselines -- bench`)"
            );
        }
    }
    let gpu: Vec<_> = of(lines, "gpu").collect();
    if let Some(first) = gpu.first() {
        println!(
            "\nthe GPU path ({}, {} preset, {} torus, {} ticks a window) beside FastFlock on {} \
             threads",
            first["gpu"].as_str().unwrap_or("no GPU"),
            first["preset"].as_str().unwrap_or(""),
            first["space"].as_str().unwrap_or(""),
            first["steps"],
            first["cpu_threads"]
        );
        println!(
            "{:>10} {:>14} {:>14} {:>14} {:>10}",
            "boids", "GPU ms/tick", "GPU steps/s", "CPU steps/s", "GPU/CPU"
        );
        for l in gpu {
            println!(
                "{:>10} {:>14.3} {:>14.1} {:>14.1} {:>10.2}",
                l["boids"],
                f(&l["gpu_ms_per_tick"]),
                f(&l["gpu_steps_per_s"]),
                f(&l["cpu_steps_per_s"]),
                f(&l["gpu_over_cpu"])
            );
        }
    }
    for l in of(lines, "3d") {
        if l.get("ecs_3d_steps_per_s").is_some() {
            println!(
                "\n3D beside 2D ({} preset, torus, {} birds, {} threads; mean neighbours 2D {:.1}, 3D {:.1}): FastFlock {:.1} steps/s in 2D, {:.1} in 3D = {:.2}x; the plugins {:.1} steps/s in 2D ({:.2}x FastFlock), {:.1} in 3D ({:.2}x FastFlock 3D)",
                l["preset"].as_str().unwrap_or(""),
                l["boids"],
                l["threads"],
                f(&l["mean_neighbours_2d"]),
                f(&l["mean_neighbours_3d"]),
                f(&l["fast_2d_steps_per_s"]),
                f(&l["fast_3d_steps_per_s"]),
                f(&l["fast_3d_over_2d"]),
                f(&l["ecs_2d_steps_per_s"]),
                f(&l["ecs_2d_over_fast_2d"]),
                f(&l["ecs_3d_steps_per_s"]),
                f(&l["ecs_3d_over_fast_3d"]),
            );
        } else {
            println!(
                "{} birds: FastFlock {:.2} steps/s in 2D, {:.2} in 3D = {:.2}x ({:.3e} 3D boid-steps/s a core; mean neighbours 3D {:.1})",
                l["boids"],
                f(&l["fast_2d_steps_per_s"]),
                f(&l["fast_3d_steps_per_s"]),
                f(&l["fast_3d_over_2d"]),
                f(&l["fast_3d_boid_steps_per_s_per_core"]),
                f(&l["mean_neighbours_3d"]),
            );
        }
    }
    for l in of(lines, "peers") {
        println!(
            "ABM Flocking at krABMaga's table sizes: {} birds, {} steps, side {:.0}: {:.1} ms \
             (best of {}, one thread; mean neighbours at the end {:.1})",
            l["boids"],
            l["steps"],
            f(&l["side"]),
            f(&l["ms"]),
            l["runs"],
            f(&l["mean_neighbours"]),
        );
    }
    for l in of(lines, "abm") {
        println!(
            "ABM Flocking {} ({} birds, 100 steps): median {:.3} ms over {} runs",
            l["size"].as_str().unwrap_or(""),
            l["boids"],
            f(&l["median_ms"]),
            l["runs"]
        );
    }
}
