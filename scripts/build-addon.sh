#!/usr/bin/env bash
# Builds the Watershed extension library and copies it into addons/watershed/bin under the
# names addons/watershed/watershed.gdextension expects.
#   scripts/build-addon.sh            debug build   (…/libwatershed_godot.debug.so): headless
#                                     runs, probes and debug exports
#   scripts/build-addon.sh --release  release build (…/libwatershed_godot.so): release exports
#   scripts/build-addon.sh --editor   editor build  (…/libwatershed_godot.editor.so): the Godot
#                                     editor, optimised like the release build and with the
#                                     class reference (gdext register-docs); built in
#                                     target/editor so the other builds stay warm
set -euo pipefail
cd "$(dirname "$0")/.."
profile=debug
flag=()
suffix=.debug
target_dir=target
case "${1:-}" in
  "") ;;
  --release) profile=release; flag=(--release); suffix= ;;
  --editor) profile=release; flag=(--release --features editor); suffix=.editor; target_dir=target/editor ;;
  *) echo "usage: scripts/build-addon.sh [--release | --editor]" >&2; exit 2 ;;
esac
CARGO_TARGET_DIR=$target_dir cargo build -p watershed-godot "${flag[@]}"
case "$(uname -s)" in
  Linux*) src=libwatershed_godot.so; dst=libwatershed_godot$suffix.so ;;
  Darwin*) src=libwatershed_godot.dylib; dst=libwatershed_godot$suffix.dylib ;;
  MINGW* | MSYS* | CYGWIN*) src=watershed_godot.dll; dst=watershed_godot$suffix.dll ;;
  *) echo "unknown platform $(uname -s)" >&2; exit 1 ;;
esac
mkdir -p addons/watershed/bin
cp "$target_dir/$profile/$src" "addons/watershed/bin/$dst"
echo "addons/watershed/bin/$dst"
