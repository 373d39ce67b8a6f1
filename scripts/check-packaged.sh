#!/usr/bin/env bash
# Type-checks crates as they would be published: from the .crate files `cargo package` wrote,
# each murmur dependency also taken from its .crate file, nothing read from the workspace.
#   scripts/check-packaged.sh PACKAGE_DIR CRATE...
# PACKAGE_DIR holds NAME-VERSION.crate files (target/package); CRATE names the crates to check.
# Every murmur_* crate found there is unpacked, so the checked crates' murmur dependencies
# resolve to their packaged forms.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ]; then
    echo "usage: scripts/check-packaged.sh PACKAGE_DIR CRATE..." >&2
    exit 2
fi
package_dir="$1"
shift
lock="$PWD/Cargo.lock"
work="$package_dir/checked"
rm -rf "$work"
mkdir -p "$work"

members=()
manifests=()
for file in "$package_dir"/murmur_*.crate; do
    [ -e "$file" ] || { echo "no murmur_*.crate in $package_dir: run cargo package first" >&2; exit 1; }
    tar -xzf "$file" -C "$work"
done
for crate in "$@"; do
    dir="$(cd "$work" && ls -d "$crate"-[0-9]* 2>/dev/null | head -n 1 || true)"
    if [ -z "$dir" ]; then
        echo "$crate was not packaged into $package_dir" >&2
        exit 1
    fi
    members+=("\"$dir\"")
    manifests+=("$work/$dir/Cargo.toml")
done
# Each murmur crate a checked crate names (a packaged manifest spells a dependency as a
# `[dependencies.NAME]` table) comes from its packaged form.
patches=()
for dir in "$work"/murmur_*-[0-9]*/; do
    dir="$(basename "$dir")"
    name="${dir%-*}"
    # grep reads the files itself: `cat ... | grep -q` under pipefail fails whenever grep
    # stops at an early match before cat has written everything (cat dies of SIGPIPE), which
    # dropped a patch at random and failed the check.
    if grep -q "^\[[a-z-]*dependencies\.$name\]" "${manifests[@]}"; then
        patches+=("$name = { path = \"$dir\" }")
    fi
done

{
    echo '[workspace]'
    echo 'resolver = "2"'
    echo "members = [$(IFS=,; echo "${members[*]}")]"
    echo
    echo '[patch.crates-io]'
    printf '%s\n' "${patches[@]}"
} >"$work/Cargo.toml"
# The workspace's lock file: the same dependency versions the tests ran against.
cp "$lock" "$work/Cargo.lock"

echo "checking the packaged $* (in $work)"
(cd "$work" && cargo check --workspace --offline)
