#!/usr/bin/env python3
"""Times Mesa's boid_flockers model on the ABM frameworks comparison's "Flocking" benchmark.

Parameters as declared by JuliaDynamics/ABMFrameworksComparison: speed 1.0, separation 1.0,
cohere 0.03, separate 0.015, match 0.05; small = 200 birds in 100x100 with vision 5, large =
400 birds in 150x150 with vision 15; 100 steps; the median of seeded runs.

Needs `pip install mesa networkx`. Prints one JSON object per size. Not a dependency of murmur:
`scripts/abm_compare.sh` runs it beside `murmur bench --only abm`.
"""

import argparse
import json
import statistics
import sys
import time

try:
    from mesa.examples.basic.boid_flockers.model import BoidFlockers
except ImportError as e:  # pragma: no cover - a setup problem, said plainly
    sys.exit(f"mesa is not installed ({e}); run: pip install mesa networkx")

SIZES = {"small": (200, 100, 5), "large": (400, 150, 15)}


def run_once(boids, side, vision, seed, steps=100):
    model = BoidFlockers(
        population_size=boids,
        width=side,
        height=side,
        speed=1.0,
        vision=vision,
        separation=1.0,
        cohere=0.03,
        separate=0.015,
        match=0.05,
        seed=seed,
    )
    started = time.perf_counter()
    for _ in range(steps):
        model.step()
    return (time.perf_counter() - started) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="seeded runs per size (median taken)")
    parser.add_argument(
        "--peer-sizes",
        type=str,
        default="",
        help="also these flock sizes as krABMaga's Flockers table runs them (200 steps, vision 5, "
        "world side 100 sqrt(N / 200)), comma-separated; one run each",
    )
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("--runs must be at least 1")
    try:
        peer_sizes = [int(n) for n in args.peer_sizes.split(",") if n.strip()]
    except ValueError:
        sys.exit(f"--peer-sizes takes whole numbers, got {args.peer_sizes!r}")
    if any(n < 1 for n in peer_sizes):
        sys.exit("--peer-sizes takes sizes of at least 1")
    for size, (boids, side, vision) in SIZES.items():
        times = [run_once(boids, side, vision, seed) for seed in range(1, args.runs + 1)]
        print(json.dumps({"kind": "mesa", "size": size, "boids": boids, "runs": args.runs, "median_ms": statistics.median(times)}), flush=True)
    for boids in peer_sizes:
        side = 100 * (boids / 200) ** 0.5
        ms = run_once(boids, side, 5, 1, steps=200)
        print(json.dumps({"kind": "mesa_peers", "boids": boids, "steps": 200, "side": side, "runs": 1, "ms": ms}), flush=True)


if __name__ == "__main__":
    main()
