#!/usr/bin/env bash
# Builds the Watershed extension library and copies it into addons/watershed/bin under the
# names addons/watershed/watershed.gdextension expects.
#   scripts/build-addon.sh            debug build  (…/libwatershed_godot.debug.so)
#   scripts/build-addon.sh --release  release build (…/libwatershed_godot.so)
set -euo pipefail
cd "$(dirname "$0")/.."
profile=debug
flag=()
suffix=.debug
if [ "${1:-}" = "--release" ]; then
  profile=release
  flag=(--release)
  suffix=
fi
cargo build -p watershed-godot "${flag[@]}"
case "$(uname -s)" in
  Linux*) src=libwatershed_godot.so; dst=libwatershed_godot$suffix.so ;;
  Darwin*) src=libwatershed_godot.dylib; dst=libwatershed_godot$suffix.dylib ;;
  MINGW* | MSYS* | CYGWIN*) src=watershed_godot.dll; dst=watershed_godot$suffix.dll ;;
  *) echo "unknown platform $(uname -s)" >&2; exit 1 ;;
esac
mkdir -p addons/watershed/bin
cp "target/$profile/$src" "addons/watershed/bin/$dst"
echo "addons/watershed/bin/$dst"
