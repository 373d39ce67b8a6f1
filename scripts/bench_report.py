#!/usr/bin/env python3
"""Writes docs/benchmarks.md, docs/benchmarks.svg and docs/benchmarks.jsonl from one run's lines.

Run by scripts/bench-report.sh, which gathers the lines (murmur bench --json, the krABMaga peer,
Mesa) into a folder; this turns them into the page. Standard library only.
"""

import argparse
import datetime
import json
import math
import os
import sys

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")
# Times relative to Agents.jl on the ABM frameworks comparison's Flocking model, as that
# comparison publishes them (JuliaDynamics/ABMFrameworksComparison).
PUBLISHED = {
    "small": {"Ark.jl": 0.73, "MASON": 1.42, "NetLogo": 15.4, "Mesa": 159},
    "large": {"Ark.jl": 0.36, "MASON": 0.61, "NetLogo": 19.1, "Mesa": 59.5},
}
SIMD_FLAGS = ["sse4_2", "avx", "avx2", "fma", "avx512f", "avx512vl", "avx512bw", "neon", "asimd"]


def read_lines(path):
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"bench_report: {path}:{n}: not a JSON line ({e}): {line[:80]}")
    return out


def num(x, digits=1):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:,.{digits}f}"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def plot(series, path):
    """A log-log line chart of steps/s against flock size, one line per series, as SVG."""
    width, height, left, right, top, bottom = 720, 440, 70, 190, 30, 50
    points = [p for _, _, pts in series for p in pts]
    if not points:
        return False
    xs = [math.log10(x) for x, _ in points]
    ys = [math.log10(y) for _, y in points if y > 0]
    x0, x1 = math.floor(min(xs)), math.ceil(max(xs))
    y0, y1 = math.floor(min(ys)), math.ceil(max(ys))
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)
    px = lambda x: left + (math.log10(x) - x0) / (x1 - x0) * (width - left - right)
    py = lambda y: height - bottom - (math.log10(y) - y0) / (y1 - y0) * (height - top - bottom)
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="18" font-size="14">steps a second against flock size (log-log)</text>',
    ]
    for e in range(x0, x1 + 1):
        x = px(10**e)
        svg.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - bottom}" stroke="#ddd"/>')
        svg.append(f'<text x="{x:.1f}" y="{height - bottom + 16}" text-anchor="middle">{10**e:,}</text>')
    for e in range(y0, y1 + 1):
        y = py(10**e)
        svg.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#ddd"/>')
        label = f"{10**e:,}" if e >= 0 else f"{10**e:g}"
        svg.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    svg.append(f'<text x="{(left + width - right) / 2}" y="{height - 12}" text-anchor="middle">birds</text>')
    svg.append(f'<text x="16" y="{(top + height - bottom) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {(top + height - bottom) / 2})">steps/s</text>')
    for i, (name, colour, pts) in enumerate(series):
        pts = sorted(p for p in pts if p[1] > 0)
        path_d = " ".join(f"{'M' if j == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for j, (x, y) in enumerate(pts))
        svg.append(f'<path d="{path_d}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in pts:
            svg.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')
        ly = top + 14 + 18 * i
        svg.append(f'<line x1="{width - right + 12}" y1="{ly - 4}" x2="{width - right + 32}" y2="{ly - 4}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        svg.append(f'<text x="{width - right + 38}" y="{ly}">{name}</text>')
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--raw", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--cpu", required=True)
    ap.add_argument("--cores", required=True)
    ap.add_argument("--flags", default="")
    ap.add_argument("--quick", default="0")
    a = ap.parse_args()

    ours = read_lines(os.path.join(a.raw, "murmur.jsonl"))
    kr = read_lines(os.path.join(a.raw, "krabmaga.jsonl"))
    mesa = read_lines(os.path.join(a.raw, "mesa.jsonl"))
    mesa_version = ""
    if os.path.exists(os.path.join(a.raw, "mesa.version")):
        mesa_version = open(os.path.join(a.raw, "mesa.version")).read().strip()
    of = lambda lines, kind: [l for l in lines if l.get("kind") == kind]
    machine = (of(ours, "machine") or [{}])[0]
    threads = machine.get("threads", "?")
    flags = set(a.flags.split())
    simd = [f for f in SIMD_FLAGS if f in flags]
    today = datetime.date.today().isoformat()

    md = [
        "# Benchmarks",
        "",
        "Generated by `bash scripts/bench-report.sh` from one run on one machine; do not edit, run",
        "it again (the raw lines are in [benchmarks.jsonl](benchmarks.jsonl)). Machines differ: compare",
        "the ratios of figures taken in the same run. How each figure is taken and where the time goes:",
        "[performance.md](performance.md).",
        "",
        f"- **Machine**: {a.cpu}, {a.cores} cores ({threads} threads used for the all-threads lines); "
        f"SIMD features: {', '.join(simd) or 'none named'}; the neighbour sums took the "
        f"**{machine.get('lane_form', '?')}** form.",
        f"- **Commit**: {a.commit}; **date**: {today}; murmur's debug build as `cargo run` builds it "
        f"(`murmur_core` and `murmur_flock` at opt-level 3){'; `--quick` (shorter windows)' if a.quick != '0' else ''}.",
        "",
    ]

    sims = of(ours, "sim")
    gpus = [l for l in of(ours, "gpu") if l.get("gpu_steps_per_s")]
    if sims:
        preset = sims[0].get("preset", "")
        md += [
            "## Steps a second against flock size",
            "",
            f"`FastFlock`, the `{preset}` preset, on a torus (a 3-torus in 3D) sized for a mean of 20",
            "neighbours within the interaction radius; the window of steps after a random start, run",
            "again from a copy of the start until 1.5 s are timed.",
            "",
            "![steps a second against flock size](benchmarks.svg)",
            "",
        ]
        rows = []
        for l in sims:
            rows.append([
                l.get("space", "2d").upper(), f"{l['boids']:,}", l["threads"], num(l["steps_per_s"]),
                num(l["boid_steps_per_s_per_core"] / 1e6, 2),
                f"{num(l['neighbours_first'])} → {num(l['neighbours_last'])}", num(l["bytes_per_boid"]),
            ])
        md += [table(["space", "birds", "threads", "steps/s", "M bird-steps/s a core",
                      "mean neighbours", "bytes/bird"], rows), ""]
        colours = {("2d", 1): "#1f77b4", ("2d", "all"): "#6baed6", ("3d", 1): "#d62728",
                   ("3d", "all"): "#ff9896"}
        series = []
        for space in ("2d", "3d"):
            for t in (1, "all"):
                pts = [(l["boids"], l["steps_per_s"]) for l in sims if l.get("space", "2d") == space
                       and ((t == 1 and l["threads"] == 1) or (t == "all" and l["threads"] != 1))]
                if pts:
                    label = f"CPU {space.upper()}, {'1 thread' if t == 1 else f'{threads} threads'}"
                    series.append((label, colours[(space, t)], pts))
        if gpus:
            series.append(("GPU 2D", "#2ca02c", [(l["boids"], l["gpu_steps_per_s"]) for l in gpus]))
        plot(series, os.path.join(DOCS, "benchmarks.svg"))

    deep = of(ours, "3d")
    if deep:
        md += ["## 3D beside 2D", ""]
        rows = []
        for l in deep:
            rows.append([
                f"{l['boids']:,}", num(l["fast_2d_steps_per_s"]), num(l["fast_3d_steps_per_s"]),
                f"{l['fast_3d_over_2d']:.2f}x",
                num(l.get("ecs_2d_steps_per_s")), num(l.get("ecs_3d_steps_per_s")),
                f"{l['ecs_3d_over_fast_3d']:.2f}x" if "ecs_3d_over_fast_3d" in l else "–",
            ])
        md += [
            "The same model in each space, each world sized for the same mean neighbours, windows",
            "taken in turns on all threads; the plugins are `FlockPlugins` in a headless app.",
            "",
            table(["birds", "FastFlock 2D steps/s", "FastFlock 3D steps/s", "3D / 2D",
                   "plugins 2D steps/s", "plugins 3D steps/s", "plugins 3D / FastFlock 3D"], rows),
            "",
        ]

    for l in of(ours, "ecs"):
        p = l["ecs_phase_ms"]
        md += [
            "## The Bevy plugins against the bare core",
            "",
            f"{l['boids']:,} birds, {l['threads']} threads, the same {l['steps']} steps from one start "
            "in turns (the same bits):",
            "",
            table(["path", "steps/s", "share of FastFlock"], [
                ["`FastFlock`", num(l["fast_core_steps_per_s"]), "1.00x"],
                ["`FlockSim` (the reference)", num(l["core_steps_per_s"]),
                 f"{l['core_steps_per_s'] / l['fast_core_steps_per_s']:.2f}x"],
                ["`FlockPlugins`", num(l["ecs_steps_per_s"]), f"{l['ecs_share_of_fast_core']:.2f}x"],
            ]),
            "",
            f"A tick of the plugins phase by phase (ms): collect {p['collect_neighbours']:.2f}, steer "
            f"{p['steer']:.2f}, leader to edges {p['follow_leader_to_turn_at_edges']:.2f}, integrate "
            f"{p['integrate']:.2f}, hunt and write back {p['write_back']:.2f}, the rest of Bevy's frame "
            f"{p['rest_of_frame']:.2f}.",
            "",
        ]

    nb = of(ours, "neighbours")
    if nb:
        sizes = sorted({l["boids"] for l in nb})
        methods = []
        for l in nb:
            if l["method"] not in methods:
                methods.append(l["method"])
        rows = []
        for n in sizes:
            row = [f"{n:,}"]
            for m in methods:
                hit = [l for l in nb if l["boids"] == n and l["method"] == m]
                row.append(num(hit[0]["ms"]) if hit else "–")
            rows.append(row)
        md += ["## Neighbour collection", "",
               "Every bird's neighbours within the radius, one thread (ms); every method finds the same pairs.",
               "", table(["birds"] + methods, rows), ""]

    peers = of(ours, "peers")
    kr_rows = [l for l in kr if l.get("peer") == "krabmaga"]
    kr_missing = of(kr, "not_run")
    mesa_peer = of(mesa, "mesa_peers")
    md += [
        "## Beside the peers",
        "",
        "### krABMaga's Flockers table sizes",
        "",
        "The ABM frameworks comparison's Flocking model (murmur's `abm` preset: speed 1, separation 1,",
        "vision 5, cohere 0.03, separate 0.015, match 0.05) at the sizes of krABMaga's published",
        "Flockers table, 200 steps, one thread, the world grown with the flock (side 100 √(N / 200),",
        "the comparison's small density). krABMaga runs the same model written on its own API",
        "([plugins/murmur_bench](../plugins/murmur_bench/README.md), which says what differs); Mesa",
        "runs its boid_flockers example with the same parameters. Each figure is the best of a few",
        "seeded runs (one run at 128,000 birds), the start's set-up not timed.",
        "",
    ]
    if peers:
        rows = []
        for l in peers:
            n = l["boids"]
            k = [x for x in kr_rows if x.get("agents", x.get("boids")) == n]
            m = [x for x in mesa_peer if x["boids"] == n]
            kms = k[0].get("best_ms", k[0]["ms"]) if k else None
            rows.append([
                f"{n:,}", num(l["ms"]), num(kms) if k else "not run",
                f"{kms / l['ms']:,.0f}x" if k else "–",
                num(m[0]["ms"], 0) if m else "not run", f"{m[0]['ms'] / l['ms']:,.0f}x" if m else "–",
                f"{num(l['mean_neighbours'], 2)} / {num(k[0].get('mean_neighbours'), 2) if k else '–'}",
            ])
        md += [table(["birds", "murmur ms", "krABMaga ms", "murmur faster by", "Mesa ms",
                      "murmur faster by", "mean neighbours at the end, murmur / krABMaga"], rows), ""]
    for miss in kr_missing + [l for l in mesa if l.get("kind") == "not_run"]:
        md += [f"{miss['peer']} did not run here: {miss['why']}", ""]
    if kr_rows:
        md += [f"krABMaga {kr_rows[0].get('version', '')}, built in release, single-threaded. "
               f"Mesa {mesa_version or '(not run)'}, Python {sys.version.split()[0]}; Mesa ran at 1,000 "
               "birds only (larger flocks take it minutes to hours).", ""]

    abm = {l["size"]: l for l in of(ours, "abm")}
    mesa_abm = {l["size"]: l for l in of(mesa, "mesa")}
    if abm:
        md += ["### The ABM frameworks comparison's own sizes", "",
               "Small: 200 birds on 100 x 100, vision 5; large: 400 birds on 150 x 150, vision 15; 100",
               "steps; the median over seeded runs. Agents.jl's time is worked out from Mesa's here and",
               "the comparison's published Mesa / Agents.jl ratio.", ""]
        rows = []
        for size in ("small", "large"):
            if size not in abm:
                continue
            o = abm[size]["median_ms"]
            m = mesa_abm.get(size, {}).get("median_ms")
            if m:
                agents = m / PUBLISHED[size]["Mesa"]
                place = sorted(list(PUBLISHED[size].items()) + [("Agents.jl", 1.0), ("murmur", o / agents)],
                               key=lambda kv: kv[1])
                order = ", ".join(f"{k} {v:.2f}" for k, v in place)
                rows.append([size, num(o, 2), num(m, 0), f"{m / o:,.0f}x", order])
            else:
                rows.append([size, num(o, 2), "not run", "–", "–"])
        md += [table(["size", "murmur ms", "Mesa ms", "murmur faster by",
                      "time relative to Agents.jl (published table, murmur worked out)"], rows), ""]

    if of(ours, "gpu"):
        rows = [[f"{l['boids']:,}", l.get("gpu") or "no GPU", num(l.get("gpu_ms_per_tick"), 3),
                 num(l.get("gpu_steps_per_s")), num(l["cpu_steps_per_s"]),
                 f"{l['gpu_over_cpu']:.2f}x" if l.get("gpu_over_cpu") else "–"] for l in of(ours, "gpu")]
        md += ["## The GPU path", "", "The flock on the GPU (2D, compute shaders) beside `FastFlock` on all threads.",
               "", table(["birds", "adapter", "GPU ms/tick", "GPU steps/s", "CPU steps/s", "GPU / CPU"], rows), ""]
    else:
        md += ["## The GPU path", "", "Not in this run (`bash scripts/bench-report.sh --gpu` adds it where a",
               "compute-capable adapter is present).", ""]

    with open(os.path.join(DOCS, "benchmarks.md"), "w") as f:
        f.write("\n".join(md))
    with open(os.path.join(DOCS, "benchmarks.jsonl"), "w") as f:
        for source, lines in (("murmur", ours), ("krabmaga", kr), ("mesa", mesa)):
            for l in lines:
                f.write(json.dumps({"source": source, **l}) + "\n")


if __name__ == "__main__":
    main()
