#!/usr/bin/env bash
# murmur against Mesa on the ABM frameworks comparison's "Flocking" benchmark, in one run.
#   scripts/abm_compare.sh [MESA_RUNS]        (needs: pip install mesa networkx)
# MURMUR names the murmur command to use (default: `cargo run -q --`).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"
murmur="${MURMUR:-cargo run -q --}"
ours=$($murmur bench --only abm --json --abm-runs 100)
theirs=$(python3 scripts/mesa_flocking.py --runs "$runs")
python3 - "$ours" "$theirs" <<'PY'
import json, sys
ours = {l["size"]: l for l in map(json.loads, sys.argv[1].splitlines()) if l["kind"] == "abm"}
mesa = {l["size"]: l for l in map(json.loads, sys.argv[2].splitlines())}
# Published times relative to Agents.jl (JuliaDynamics/ABMFrameworksComparison).
table = {"small": {"Ark.jl": 0.73, "MASON": 1.42, "NetLogo": 15.4, "Mesa": 159},
         "large": {"Ark.jl": 0.36, "MASON": 0.61, "NetLogo": 19.1, "Mesa": 59.5}}
for size in ("small", "large"):
    m, o = mesa[size]["median_ms"], ours[size]["median_ms"]
    agents_jl = m / table[size]["Mesa"]          # Agents.jl's time implied by Mesa's ratio
    ratio = o / agents_jl
    place = sorted(list(table[size].items()) + [("Agents.jl", 1.0), ("murmur", ratio)], key=lambda kv: kv[1])
    print(f"{size}: murmur {o:.2f} ms, Mesa {m:.1f} ms -> murmur is {m / o:.0f}x faster than Mesa; "
          f"about {ratio:.2f} of Agents.jl's time; order: " + ", ".join(f"{k} {v:.2f}" for k, v in place))
PY
