#!/usr/bin/env bash
# Builds the web page into web/dist: the app for wasm32-unknown-unknown in the size-optimised
# `web` profile, its JavaScript glue from wasm-bindgen (the CLI at the version Cargo.lock pins,
# installed once under the target directory), optionally binaryen's wasm-opt (WASM_OPT), index.html
# told the module's size (its loading bar), and each file precompressed (.br, .gz) for
# web/serve.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"
out="web/dist"

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
# binaryen's wasm-opt from npm (web/package.json pins it; older builds, such as Debian 12's 108,
# break the module's reference-typed table).
wasm_opt=web/node_modules/.bin/wasm-opt
if [ -n "${WASM_OPT:-}" ] && [ ! -x "$wasm_opt" ]; then
  echo "installing the page's build tools (npm ci --prefix web)"
  npm ci --prefix web --no-audit --no-fund
fi
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
tools="$target_dir/tools/wasm-bindgen-$version"
if [ ! -x "$tools/bin/wasm-bindgen" ]; then
  echo "installing wasm-bindgen-cli $version"
  # Its own lock file names versions a mirror may not carry yet: resolve afresh if need be.
  cargo install wasm-bindgen-cli --version "$version" --locked --root "$tools" \
    || cargo install wasm-bindgen-cli --version "$version" --root "$tools"
fi

# WebAssembly SIMD (simd128): the neighbour sums' v128 form and vectorised per-bird loops. Every
# browser with WebGL2 has run it since 2023; the engine checks it when it loads the module.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:--C target-feature=+simd128}"
cargo build --profile web --target wasm32-unknown-unknown --bin murmur
rm -rf "$out"
mkdir -p "$out"
"$tools/bin/wasm-bindgen" --target web --no-typescript --remove-name-section \
  --remove-producers-section --out-dir "$out" --out-name murmur \
  "$target_dir/wasm32-unknown-unknown/web/murmur.wasm"
# binaryen's wasm-opt only when asked (WASM_OPT="-Oz", or any of its levels): measured on this
# module, -Oz makes it 16% smaller raw but 1.5% larger over the wire in brotli (5.51 MB against
# 5.43 MB without it) and took 4 min 37 s of a build (binaryen.js runs on one thread).
if [ -n "${WASM_OPT:-}" ]; then
  before=$(stat -c %s "$out/murmur_bg.wasm")
  # The features rustc's wasm32 target turns on, which wasm-opt must accept and keep.
  # shellcheck disable=SC2086 # WASM_OPT may hold several flags
  "$wasm_opt" $WASM_OPT --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-reference-types --enable-mutable-globals --enable-multivalue --enable-simd \
    "$out/murmur_bg.wasm" -o "$out/murmur_bg.opt.wasm"
  mv "$out/murmur_bg.opt.wasm" "$out/murmur_bg.wasm"
  echo "wasm-opt $WASM_OPT: $before -> $(stat -c %s "$out/murmur_bg.wasm") bytes (binaryen $("$wasm_opt" --version | grep -o '[0-9]\+' | head -1))"
fi
bytes=$(stat -c %s "$out/murmur_bg.wasm")
sed "s/__WASM_BYTES__/$bytes/" web/index.html > "$out/index.html"
node web/compress.mjs "$out"
echo "built $out: $(du -sh "$out" | cut -f1) ($(du -h "$out/murmur_bg.wasm" | cut -f1) of wasm)"
