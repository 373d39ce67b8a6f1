#!/usr/bin/env bash
# Builds the web page into web/dist: the app for wasm32-unknown-unknown in the size-optimised
# `web` profile, its JavaScript glue from wasm-bindgen (the CLI at the version Cargo.lock pins,
# installed once under the target directory), and index.html.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"
out="web/dist"

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
tools="$target_dir/tools/wasm-bindgen-$version"
if [ ! -x "$tools/bin/wasm-bindgen" ]; then
  echo "installing wasm-bindgen-cli $version"
  # Its own lock file names versions a mirror may not carry yet: resolve afresh if need be.
  cargo install wasm-bindgen-cli --version "$version" --locked --root "$tools" \
    || cargo install wasm-bindgen-cli --version "$version" --root "$tools"
fi

cargo build --profile web --target wasm32-unknown-unknown --bin murmur
rm -rf "$out"
mkdir -p "$out"
"$tools/bin/wasm-bindgen" --target web --no-typescript --remove-name-section \
  --remove-producers-section --out-dir "$out" --out-name murmur \
  "$target_dir/wasm32-unknown-unknown/web/murmur.wasm"
cp web/index.html "$out/"
echo "built $out: $(du -sh "$out" | cut -f1) ($(du -h "$out/murmur_bg.wasm" | cut -f1) of wasm)"
