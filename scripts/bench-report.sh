#!/usr/bin/env bash
# Writes docs/benchmarks.md (and its plot, docs/benchmarks.svg, and the raw lines it was made
# from, docs/benchmarks.jsonl) from one run on this machine: `murmur bench` (every part but the
# GPU's; with --gpu that too), krABMaga's and Mesa's flocking beside murmur's ABM model.
#   bash scripts/bench-report.sh [--quick] [--gpu]
# About 10 minutes on 2 cores (2 with --quick). A peer that cannot run here (krABMaga not
# downloadable, Mesa not installed: pip install mesa networkx) is named in the report as not run.
# MURMUR names the murmur command (default: the debug build, as `cargo run` builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
quick=() gpu=0 mesa_runs=10
for arg in "$@"; do
    case "$arg" in
        --quick) quick=(--quick) mesa_runs=3 ;;
        --gpu) gpu=1 ;;
        *) echo "bench-report: unknown argument $arg (takes --quick, --gpu)" >&2; exit 2 ;;
    esac
done
if [ -z "${MURMUR:-}" ]; then
    cargo build --quiet --bin murmur
    MURMUR="${CARGO_TARGET_DIR:-target}/debug/murmur"
fi
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT

echo "bench-report: murmur bench" >&2
$MURMUR bench --json "${quick[@]}" > "$raw/murmur.jsonl"
if [ "$gpu" = 1 ]; then
    echo "bench-report: murmur bench --gpu" >&2
    $MURMUR bench --gpu --json "${quick[@]}" | grep -v '"kind":"machine"' >> "$raw/murmur.jsonl"
fi

echo "bench-report: krABMaga" >&2
# The bench crate, outside the workspace (its own lock): its own folder in the target directory.
if CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/bench" cargo run --quiet --release \
    --manifest-path plugins/murmur_bench/Cargo.toml --bin krabmaga_flockers -- --sizes 1000,16000,128000 \
    > "$raw/krabmaga.jsonl" 2> "$raw/krabmaga.err"; then :; else
    printf '{"kind":"not_run","peer":"krABMaga","why":%s}\n' \
        "$(tail -1 "$raw/krabmaga.err" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))')" \
        > "$raw/krabmaga.jsonl"
fi

echo "bench-report: Mesa" >&2
if python3 -c 'import mesa' 2> /dev/null; then
    python3 scripts/mesa_flocking.py --runs "$mesa_runs" --peer-sizes 1000 > "$raw/mesa.jsonl"
    python3 -c 'import mesa; print(mesa.__version__)' > "$raw/mesa.version"
else
    echo '{"kind":"not_run","peer":"Mesa","why":"mesa is not installed here (pip install mesa networkx)"}' \
        > "$raw/mesa.jsonl"
fi

commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- src plugins Cargo.toml Cargo.lock scripts || commit="$commit with uncommitted changes"
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2> /dev/null || echo unknown)
flags=$(awk -F': ' '/^flags/ { print $2; exit }' /proc/cpuinfo 2> /dev/null || true)
python3 scripts/bench_report.py --raw "$raw" --commit "$commit" --cpu "$cpu" --cores "$(nproc)" \
    --flags "$flags" --quick "${#quick[@]}"
echo "bench-report: wrote docs/benchmarks.md, docs/benchmarks.svg, docs/benchmarks.jsonl" >&2
