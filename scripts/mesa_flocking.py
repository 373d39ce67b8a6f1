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


def run_once(boids, side, vision, seed):
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
    for _ in range(100):
        model.step()
    return (time.perf_counter() - started) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="seeded runs per size (median taken)")
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("--runs must be at least 1")
    for size, (boids, side, vision) in SIZES.items():
        times = [run_once(boids, side, vision, seed) for seed in range(1, args.runs + 1)]
        print(json.dumps({"kind": "mesa", "size": size, "boids": boids, "runs": args.runs, "median_ms": statistics.median(times)}))


if __name__ == "__main__":
    main()
