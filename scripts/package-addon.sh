#!/usr/bin/env bash
# Packages the add-on for people without Rust: builds the release and editor libraries for
# Linux x86_64 and Windows x86_64 (cross-built with mingw-w64), lays out addons/watershed/
# with them and writes watershed-addon-<version>.zip (the workspace version).
#
#   scripts/package-addon.sh [--out DIR] [--platforms linux,windows] [--macos DIR]
#
#   --out DIR         where the zip and its staging folder go (default: target/package)
#   --platforms LIST  which libraries to build here, a comma list of linux and windows
#                     (default: both)
#   --macos DIR       also ship macOS: DIR holds libwatershed_godot.dylib and
#                     libwatershed_godot.editor.dylib, universal (x86_64 + arm64), built by
#                     the release workflow on a Mac
#
# The zip holds release and editor libraries only, no debug ones. Its copy of
# watershed.gdextension is written for that: the editor entries name the editor library,
# and both the debug and the release entries of a platform name its release library (a debug
# export and the headless template engine load the `*.debug.*` entry; a game run from the
# editor loads the editor entry, as the editor does). Only platforms whose
# libraries are in the zip are listed, so every entry names a file in the zip; the script
# fails when one does not, and when the zip is over 40 MB.
#
# Windows needs `rustup target add x86_64-pc-windows-gnu` and mingw-w64 (Debian:
# `apt-get install mingw-w64`). The Windows builds use target/windows so the Linux builds
# stay warm. Prints the zip's path on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=target/package
platforms=linux,windows
macos=""
max_bytes=$((40 * 1000 * 1000))
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --platforms) platforms=${2:?--platforms needs a list}; shift 2 ;;
    --macos) macos=${2:?--macos needs a folder}; shift 2 ;;
    *) echo "usage: scripts/package-addon.sh [--out DIR] [--platforms linux,windows] [--macos DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -z "$macos" ] || macos=$(cd "$macos" && pwd)

version=$(cargo metadata --no-deps --format-version 1 \
  | python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "watershed-godot"))')
plugin_version=$(sed -n 's/^version="\(.*\)"$/\1/p' addons/watershed/plugin.cfg)
if [ "$plugin_version" != "$version" ]; then
  echo "package-addon: addons/watershed/plugin.cfg says version $plugin_version, Cargo.toml $version" >&2
  exit 1
fi
stage=$out/stage
bin=$stage/addons/watershed/bin
rm -rf "$stage"
mkdir -p "$stage/addons"
# The add-on's own files as git tracks them (not the libraries a local build left in bin/).
git ls-files -z addons/watershed | grep -zv '^addons/watershed/bin/' | xargs -0 -I{} cp --parents {} "$stage/"
# The licence travels with the add-on: the zip is all an Asset Library user gets.
cp LICENSE "$stage/addons/watershed/LICENSE"
mkdir -p "$bin"

# The [libraries] lines of the zip's .gdextension, one platform at a time.
libraries=()
want() { [[ ",$platforms," == *",$1,"* ]]; }

if want linux; then
  echo "== Linux x86_64: release and editor libraries" >&2
  CARGO_TARGET_DIR=target cargo build --quiet --release -p watershed-godot
  CARGO_TARGET_DIR=target/editor cargo build --quiet --release --features editor -p watershed-godot
  cp target/release/libwatershed_godot.so "$bin/libwatershed_godot.so"
  cp target/editor/release/libwatershed_godot.so "$bin/libwatershed_godot.editor.so"
  libraries+=(
    'linux.editor.x86_64 = "res://addons/watershed/bin/libwatershed_godot.editor.so"'
    'linux.debug.x86_64 = "res://addons/watershed/bin/libwatershed_godot.so"'
    'linux.release.x86_64 = "res://addons/watershed/bin/libwatershed_godot.so"'
  )
fi

if want windows; then
  echo "== Windows x86_64 (mingw-w64): release and editor libraries" >&2
  command -v x86_64-w64-mingw32-gcc >/dev/null ||
    { echo "package-addon: no x86_64-w64-mingw32-gcc (Debian: apt-get install mingw-w64)" >&2; exit 1; }
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
  win=(--release --target x86_64-pc-windows-gnu -p watershed-godot)
  CARGO_TARGET_DIR=target/windows cargo build --quiet "${win[@]}"
  cp target/windows/x86_64-pc-windows-gnu/release/watershed_godot.dll "$bin/watershed_godot.dll"
  # The editor library in the same target dir: a fresh clone (CI) then builds godot-ffi and
  # the core once for both; the library itself is rebuilt whenever the feature set flips.
  CARGO_TARGET_DIR=target/windows cargo build --quiet "${win[@]}" --features editor
  cp target/windows/x86_64-pc-windows-gnu/release/watershed_godot.dll "$bin/watershed_godot.editor.dll"
  libraries+=(
    'windows.editor.x86_64 = "res://addons/watershed/bin/watershed_godot.editor.dll"'
    'windows.debug.x86_64 = "res://addons/watershed/bin/watershed_godot.dll"'
    'windows.release.x86_64 = "res://addons/watershed/bin/watershed_godot.dll"'
  )
fi

if [ -n "$macos" ]; then
  echo "== macOS universal: from $macos" >&2
  cp "$macos/libwatershed_godot.dylib" "$macos/libwatershed_godot.editor.dylib" "$bin/"
  libraries+=(
    'macos.editor = "res://addons/watershed/bin/libwatershed_godot.editor.dylib"'
    'macos.debug = "res://addons/watershed/bin/libwatershed_godot.dylib"'
    'macos.release = "res://addons/watershed/bin/libwatershed_godot.dylib"'
  )
fi
[ ${#libraries[@]} -gt 0 ] || { echo "package-addon: no platform to package" >&2; exit 2; }

# The zip's .gdextension: the repository's, with its [libraries] section replaced.
{
  awk '/^\[libraries\]/ { exit } { print }' addons/watershed/watershed.gdextension
  echo "[libraries]"
  echo "; Release and editor libraries only: debug exports load the release library; the"
  echo "; editor, and a game run from it, load the editor library. Editor entries come first:"
  echo "; with equal tag counts Godot takes the first match."
  printf '%s\n' "${libraries[@]}"
  echo
  awk 'found && /^\[/ { on = 1 } /^\[libraries\]/ { found = 1 } on { print }' addons/watershed/watershed.gdextension
} > "$stage/addons/watershed/watershed.gdextension"

# Every entry names a file in the zip, and every library in the zip is named.
gdext=$stage/addons/watershed/watershed.gdextension
missing=0
while read -r path; do
  if [ ! -f "$stage/${path#res://}" ]; then
    echo "package-addon: $path is in the .gdextension but not in the zip" >&2
    missing=1
  fi
done < <(sed -n 's/^[a-z0-9_.]* = "\(res:\/\/addons\/watershed\/bin\/[^"]*\)"$/\1/p' "$gdext")
for f in "$bin"/*; do
  grep -qF "res://addons/watershed/bin/$(basename "$f")\"" "$gdext" ||
    { echo "package-addon: $f is in the zip but no .gdextension entry names it" >&2; missing=1; }
done
[ "$missing" -eq 0 ] || exit 1

zip_path=$out/watershed-addon-$version.zip
rm -f "$zip_path"
# Python's zipfile (deflate), so the machine needs no zip tool.
(cd "$stage" && python3 - "$zip_path" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    for folder, dirs, files in os.walk("addons"):
        dirs.sort()
        for name in sorted(files):
            z.write(os.path.join(folder, name))
PY
)
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'; }
for f in "$bin"/*; do
  printf '  %-34s %s\n' "$(basename "$f")" "$(mb "$(stat -c %s "$f")")" >&2
done
size=$(stat -c %s "$zip_path")
echo "${zip_path#"$root"/}: $(mb "$size") (at most $(mb "$max_bytes"))" >&2
if [ "$size" -gt "$max_bytes" ]; then
  echo "package-addon: the zip is $size bytes, over $max_bytes" >&2
  exit 1
fi
echo "$zip_path"
