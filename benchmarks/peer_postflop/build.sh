#!/usr/bin/env bash
# Build pokerlab's postflop-solver peer harness, outside the repository, offline.
#
#   benchmarks/peer_postflop/build.sh PEER_SRC_DIR [BUILD_DIR]
#
# PEER_SRC_DIR: an exported tree of github.com/b-inary/postflop-solver (its Cargo.toml at the top).
# BUILD_DIR:    where to build (default: $PEER_BUILD_DIR, else ~/.cache/pokerlab-peer).
#
# Crates come from Debian's vendored registry (/usr/share/cargo/registry), installed with
#   apt-get install -y librust-rayon-dev librust-once-cell-dev librust-regex-dev \
#                      librust-serde-json-dev librust-libc-dev
# The peer's own Cargo.toml asks for newer minor versions (once_cell 1.18, rayon 1.8, regex 1.9) than
# Debian bookworm ships; the copy in BUILD_DIR has those requirements relaxed to "1" (the APIs it uses
# exist in the older versions), and its optional bincode/zstd dependencies are removed (Debian has no
# bincode 2 / cargo must resolve even unused optional dependencies), so no save/load of solved trees.
#
# Environment: PEER_RUSTFLAGS (default "-C target-cpu=native", matching numba's host-CPU JIT on the
# pokerlab side; set PEER_RUSTFLAGS="" for a portable x86-64 baseline build), CARGO (cargo binary),
# CARGO_REGISTRY_DIR (default /usr/share/cargo/registry). --cap-lints=allow is always added: the peer
# (last commit Oct 2023) trips lints that newer rustc denies by default (dangerous_implicit_autorefs).
# Prints the path of the built binary on the last line (export it as POKERLAB_PEER_POSTFLOP).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
peer_src="${1:-}"
if [[ -z "$peer_src" || ! -f "$peer_src/Cargo.toml" ]]; then
    echo "usage: $0 PEER_SRC_DIR [BUILD_DIR]   (PEER_SRC_DIR must hold postflop-solver's Cargo.toml)" >&2
    exit 2
fi
peer_src="$(cd "$peer_src" && pwd)"
build_dir="${2:-${PEER_BUILD_DIR:-$HOME/.cache/pokerlab-peer}}"
registry="${CARGO_REGISTRY_DIR:-/usr/share/cargo/registry}"
cargo_bin="${CARGO:-}"
if [[ -z "$cargo_bin" ]]; then
    if command -v cargo >/dev/null 2>&1; then cargo_bin="cargo"; else cargo_bin="$HOME/.cargo/bin/cargo"; fi
fi
if [[ ! -d "$registry" ]]; then
    echo "error: no vendored crate registry at $registry (apt-get install librust-rayon-dev ...)" >&2
    exit 2
fi

case "$build_dir" in
    "$here"|"$here"/*) echo "error: BUILD_DIR must be outside the repository harness dir" >&2; exit 2 ;;
esac
mkdir -p "$build_dir"
build_dir="$(cd "$build_dir" && pwd)"

# 1. A copy of the peer with relaxed dependency requirements (the original tree is not modified).
rm -rf "$build_dir/peer-src"
mkdir -p "$build_dir/peer-src"
cp -R "$peer_src/." "$build_dir/peer-src/"
rm -rf "$build_dir/peer-src/target" "$build_dir/peer-src/Cargo.lock"
sed -i -E \
    -e 's/^(once_cell|regex)[[:space:]]*=[[:space:]]*"[^"]*"/\1 = "1"/' \
    -e 's/^(rayon[[:space:]]*=[[:space:]]*\{[[:space:]]*version[[:space:]]*=[[:space:]]*)"[^"]*"/\1"1"/' \
    -e '/^(bincode|zstd)[[:space:]]*=/d' \
    -e 's/^default[[:space:]]*=.*/default = ["rayon"]/' \
    -e 's/^rayon[[:space:]]*=[[:space:]]*\[.*\]/rayon = ["dep:rayon"]/' \
    "$build_dir/peer-src/Cargo.toml"

# 2. Our harness (manifest + source only) next to it; its manifest points at ../peer-src.
rm -rf "$build_dir/harness"
mkdir -p "$build_dir/harness"
cp "$here/Cargo.toml" "$build_dir/harness/Cargo.toml"
cp -R "$here/src" "$build_dir/harness/src"

# 3. Offline source replacement: crates-io -> Debian's directory registry.
mkdir -p "$build_dir/harness/.cargo"
cat > "$build_dir/harness/.cargo/config.toml" <<CFG
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "$registry"

[net]
offline = true
CFG

rev="unknown"
if git -C "$peer_src" rev-parse HEAD >/dev/null 2>&1; then rev="$(git -C "$peer_src" rev-parse HEAD)"; fi
if [[ -n "${PEER_POSTFLOP_REV:-}" ]]; then rev="$PEER_POSTFLOP_REV"; fi

(
    cd "$build_dir/harness"
    PEER_POSTFLOP_REV="$rev" RUSTFLAGS="${PEER_RUSTFLAGS--C target-cpu=native} --cap-lints=allow" \
        "$cargo_bin" build --release --offline --target-dir "$build_dir/target" >&2
)
bin="$build_dir/target/release/peer-postflop"
test -x "$bin"
echo "$bin"
