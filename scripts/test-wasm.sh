#!/usr/bin/env bash
# The neighbour sums' WebAssembly SIMD form (`simd128`, the web page's build) held to the same
# bits as every other lane form: murmur_core's lane-form tests and its pinned results
# (same_results.rs, the hashes the x86 forms give) built for wasm32-wasip1 with simd128 on, and
# run under Node's WASI (scripts/wasi-run.mjs). The tests that build thread pools stay native:
# WASI preview 1 has no threads.
#   bash scripts/test-wasm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip1 >/dev/null
export CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C target-feature=+simd128"
export CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings $PWD/scripts/wasi-run.mjs"
# The lane forms (the test asserts Simd128 is among them on this build), then the pinned hashes.
cargo test -p murmur_core --target wasm32-wasip1 --lib -- lane_form lanes::
# --nocapture: the cases this target leaves out say so in the log.
cargo test -p murmur_core --target wasm32-wasip1 --test same_results -- --nocapture
