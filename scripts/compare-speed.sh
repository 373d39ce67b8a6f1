#!/usr/bin/env bash
# The 2D tick's speed at an earlier commit beside this checkout's, in one run: builds the
# `fastprof` example (plugins/murmur_bench, murmur_core's before; FastFlock at the bench density, a
# torus, about 20 neighbours) in release at both, then runs the two in turns, ROUNDS times per
# preset on one thread, and prints each preset's best "one more step" time at both and their ratio (now / then; under 1 is faster).
#
#   bash scripts/compare-speed.sh a4f62b4 [BOIDS] [ROUNDS] [PRESETS...]
#
# Defaults: 50000 birds, 5 rounds, every 2D preset with a fast path. Only murmur_core is built
# (about a minute each). The CPU and its SIMD features are printed first: compare ratios, never
# figures from two machines.
set -euo pipefail
cd "$(dirname "$0")/.."
then_commit="${1:?usage: compare-speed.sh COMMIT [BOIDS] [ROUNDS] [PRESETS...]}"
boids="${2:-50000}"
rounds="${3:-5}"
shift $(( $# < 3 ? $# : 3 ))
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(reynolds cornell spaceboids abm vicsek couzin)

work="$(mktemp -d)"
trap 'git worktree remove --force "$work/then" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/then" "$then_commit" >/dev/null
target="${CARGO_TARGET_DIR:-target}"
build() { # DIR TARGET -> path of the built example
    # fastprof lives in the bench crate (plugins/murmur_bench) since it moved out of murmur_core;
    # an earlier commit may still have it in murmur_core.
    if [ -f "$1/plugins/murmur_bench/Cargo.toml" ]; then
        (cd "$1" && CARGO_TARGET_DIR="$2" cargo build --quiet --release --no-default-features \
            --manifest-path plugins/murmur_bench/Cargo.toml --example fastprof)
    else
        (cd "$1" && CARGO_TARGET_DIR="$2" cargo build --quiet --release -p murmur_core --example fastprof)
    fi
    echo "$2/release/examples/fastprof"
}
then_bin="$(build "$work/then" "$target/compare-then")"
now_bin="$(build . "$target/compare-now")"

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
    "SIMD: $(grep -m1 '^flags' /proc/cpuinfo | grep -oE 'avx512f|avx2|sse4_2' | sort -u | tr '\n' ' ')"
echo "then: $(git rev-parse --short "$then_commit"), now: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with uncommitted changes)')"
echo "$boids birds, 1 thread, best of 20 steps from the state after 100, best of $rounds rounds"
printf '%-12s %10s %10s %8s\n' preset "then ms" "now ms" ratio
best_of() { # BIN PRESET -> the best "one more step" time of ROUNDS runs, the two builds in turns
    RAYON_NUM_THREADS=1 "$1" "$2" "$boids" 100 | awk '/one more step/ { print $1 }'
}
for preset in "${presets[@]}"; do
    t_then=inf
    t_now=inf
    for _ in $(seq "$rounds"); do
        a="$(best_of "$then_bin" "$preset")"
        b="$(best_of "$now_bin" "$preset")"
        t_then="$(awk -v x="$t_then" -v y="$a" 'BEGIN { print (x == "inf" || y < x) ? y : x }')"
        t_now="$(awk -v x="$t_now" -v y="$b" 'BEGIN { print (x == "inf" || y < x) ? y : x }')"
    done
    printf '%-12s %10s %10s %8s\n' "$preset" "$t_then" "$t_now" \
        "$(awk -v a="$t_then" -v b="$t_now" 'BEGIN { printf "%.3f", b / a }')"
done
