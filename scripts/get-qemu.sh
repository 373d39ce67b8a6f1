#!/usr/bin/env bash
# Unpacks Debian's qemu-system-arm (7.2, with the BBC micro:bit machine) and the libraries it
# needs that the machine lacks into ~/.cache/murmur/qemu, without installing anything: on these
# machines `apt-get install qemu-system-arm` would replace a newer qemu-utils. murmur finds it
# there (`murmur board --qemu`); so does scripts/qemu-microbit.
set -euo pipefail
dest="${XDG_CACHE_HOME:-$HOME/.cache}/murmur/qemu"
qemu="$dest/usr/bin/qemu-system-arm"
libs="$dest/usr/lib/x86_64-linux-gnu:$dest/lib/x86_64-linux-gnu"
# Whether this QEMU has the micro:bit machine. Its list is read whole before grep looks at it:
# `qemu -M help | grep -q` under pipefail fails when grep stops at the match while QEMU is
# still writing the rest of the list, line by line, and dies of SIGPIPE.
has_microbit() {
    local machines
    machines="$(LD_LIBRARY_PATH="$libs" "$qemu" -M help 2>/dev/null)" || return 1
    grep -q '^microbit' <<<"$machines"
}
if [ -x "$qemu" ] && has_microbit; then
    echo "$qemu"
    exit 0
fi
command -v apt-get >/dev/null || { echo "get-qemu.sh needs apt-get (Debian or Ubuntu); otherwise install QEMU and set MURMUR_QEMU" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
# The emulator, and the libraries it links that a plain machine does not have.
packages=(qemu-system-arm libfdt1 libcapstone4 libpmem1 librdmacm1 libibverbs1 libslirp0
          libvdeplug2 libndctl6 libdaxctl1 libnl-3-200 libnl-route-3-200)
if ! apt-get download "${packages[@]}" >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    apt-get download "${packages[@]}" >/dev/null
fi
mkdir -p "$dest"
for deb in ./*.deb; do dpkg -x "$deb" "$dest"; done
missing="$(LD_LIBRARY_PATH="$libs" ldd "$qemu" | grep 'not found' || true)"
if [ -n "$missing" ]; then
    echo "QEMU still lacks libraries:" >&2
    echo "$missing" >&2
    exit 1
fi
has_microbit || { echo "this QEMU has no microbit machine" >&2; exit 1; }
echo "$qemu"
