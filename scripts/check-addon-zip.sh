#!/usr/bin/env bash
# Checks the add-on zip scripts/package-addon.sh wrote, as someone without Rust meets it:
#
#   scripts/check-addon-zip.sh ZIP
#
# 1. The demo, from the zip: a fresh copy of demo_project (its tracked files, no add-on
#    link, no engine caches) with the zip unzipped into it plays its main scene in the
#    headless engine ($GODOT, else ../shared/engine/godot, else `godot` on the PATH). The
#    autoload probes/zip_watch.gd, added to the copy only, prints the Watershed library the
#    engine mapped and the demo's status line once the planet has solved. Fails unless the
#    one library mapped is the zip's Linux release library (the template engine loads the
#    `linux.debug.x86_64` entry, which the zip maps to it), the planet solves, the engine
#    exits 0, and the output holds no error line (`ERROR`, `SCRIPT ERROR`, `godot-rust
#    function call failed`), no `leaked at exit` and no crash.
# 2. Windows, when the zip holds it: both DLLs export gdext_rust_init and import only
#    system DLLs (x86_64-w64-mingw32-objdump).
# 3. Windows under Wine, when wine is here: the CLI cross-built the same way prints the
#    same `digest` as the Linux CLI for every world in worlds.json. Debian's Wine 8 lacks
#    bcryptprimitives.dll; scripts/wine-bcryptprimitives.c stands in beside the .exe.
#
# A check whose tool is missing says so in one line and is skipped.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/check-addon-zip.sh ZIP" >&2; exit 2; }
# The zip as the caller named it, before moving to the repository's root.
zip=$(realpath -e "$1") || { echo "check-addon-zip: no zip at $1" >&2; exit 2; }
cd "$(dirname "$0")/.." || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
skip() { echo "SKIP $*"; }

unzip_to() {
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$zip" "$1"
}
listing=$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$zip") ||
  { echo "check-addon-zip: $zip is not a readable zip" >&2; exit 2; }

# 1. The demo from the zip.
if [ -z "${GODOT:-}" ] && [ -x ../shared/engine/godot ]; then
  GODOT=$(cd ../shared/engine && pwd)/godot
fi
godot_bin=${GODOT:-godot}
if ! command -v "$godot_bin" >/dev/null 2>&1; then
  skip "zip/demo no Godot binary (set GODOT); the demo was not played from the zip"
elif ! grep -qx 'addons/watershed/bin/libwatershed_godot.so' <<< "$listing"; then
  skip "zip/demo the zip holds no Linux library"
else
  project=$work/demo
  mkdir -p "$project"
  # The demo's tracked files, links followed (worlds.json), without the add-on link and the
  # probes; then the add-on from the zip and the watcher as an autoload.
  (cd demo_project && git ls-files | grep -v -e '^addons/' -e '^probes$' | xargs -I{} cp -L --parents {} "$project/")
  unzip_to "$project"
  cp probes/zip_watch.gd "$project/zip_watch.gd"
  printf '\n[autoload]\n\nZipWatch="*res://zip_watch.gd"\n' >> "$project/project.godot"
  log=$work/demo.log
  timeout 300 "$godot_bin" --headless --path "$project" > "$log" 2>&1
  code=$?
  grep -E '^(ZIP |Initialize godot-rust)' "$log"
  expected=$(realpath "$project/addons/watershed/bin/libwatershed_godot.so")
  mapped=$(sed -n 's/^ZIP library //p' "$log")
  if [ "$mapped" = "$expected" ]; then
    pass "zip/library the engine mapped the zip's release library, and no other"
  else
    fail "zip/library mapped '${mapped//$'\n'/, }', expected $expected"
  fi
  if grep -q '^ZIP solved ' "$log"; then
    pass "zip/solved the demo's planet solved"
  else
    fail "zip/solved no status line with the solve's counts"
  fi
  problems=$(grep -E 'ERROR|godot-rust function call failed|leaked at exit|handle_crash|Segmentation fault|Program crashed' "$log")
  if [ "$code" -eq 0 ] && [ -z "$problems" ]; then
    pass "zip/clean exit 0, no error lines"
  else
    fail "zip/clean exit $code; $(echo "$problems" | head -n 5 | tr '\n' ' ')"
    tail -n 40 "$log"
  fi
fi

# 2. The Windows libraries' exports and imports.
if ! grep -q '^addons/watershed/bin/watershed_godot.dll$' <<< "$listing"; then
  skip "zip/windows the zip holds no Windows library"
elif ! command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1; then
  skip "zip/windows no x86_64-w64-mingw32-objdump (Debian: mingw-w64); the DLLs were not read"
else
  mkdir -p "$work/zip"
  unzip_to "$work/zip"
  # What a Windows 10+ machine has in System32 (api-ms-win-* are its API sets).
  system='^(kernel32|ntdll|advapi32|bcrypt|bcryptprimitives|ws2_32|userenv|user32|shell32|ole32|oleaut32|msvcrt|ucrtbase|synchronization|api-ms-win-.*)\.dll$'
  for dll in watershed_godot.dll watershed_godot.editor.dll; do
    dump=$(x86_64-w64-mingw32-objdump -p "$work/zip/addons/watershed/bin/$dll")
    # The export name table: `[   0] gdext_rust_init` (binutils 2.40, Debian 12), or
    # `[   0] +base[   1]  0000 gdext_rust_init` (later binutils).
    if grep -qE '^[[:space:]]*\[ *[0-9]+\]( \+base\[ *[0-9]+\] +[0-9a-f]+)? gdext_rust_init$' <<< "$dump"; then
      pass "zip/$dll exports gdext_rust_init"
    else
      fail "zip/$dll does not export gdext_rust_init"
    fi
    imports=$(sed -n 's/^[[:space:]]*DLL Name: //p' <<< "$dump" | sort -u)
    foreign=$(grep -viE "$system" <<< "$imports")
    if [ -z "$foreign" ]; then
      pass "zip/$dll imports only system DLLs: $(echo "$imports" | tr '\n' ' ')"
    else
      fail "zip/$dll imports $(echo "$foreign" | tr '\n' ' ')"
    fi
  done
fi

# 3. The Windows CLI under Wine against the Linux CLI, every world.
if ! grep -q '^addons/watershed/bin/watershed_godot.dll$' <<< "$listing"; then
  :
elif ! command -v wine >/dev/null 2>&1; then
  skip "wine/digests no wine (Debian: wine wine64); the Windows CLI was not run"
else
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
  if ! cargo build --quiet --release -p watershed-cli ||
     ! CARGO_TARGET_DIR=target/windows cargo build --quiet --release --target x86_64-pc-windows-gnu -p watershed-cli; then
    fail "wine/build the CLI did not build"
  else
    mkdir -p "$work/win"
    cp target/windows/x86_64-pc-windows-gnu/release/watershed.exe "$work/win/"
    x86_64-w64-mingw32-gcc -O2 -shared -o "$work/win/bcryptprimitives.dll" scripts/wine-bcryptprimitives.c -ladvapi32
    export WINEPREFIX=$work/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml='
    wineboot --init > "$work/wineboot.log" 2>&1 || true
    worlds=$(python3 -c 'import json; print(" ".join(w["name"] for w in json.load(open("worlds.json"))["worlds"]))')
    same=0 total=0
    for world in $worlds; do
      total=$((total + 1))
      target/release/watershed digest --world "$world" > "$work/$world.linux" 2>&1
      wine "$work/win/watershed.exe" digest --world "$world" 2> "$work/$world.wine.err" | tr -d '\r' > "$work/$world.wine"
      if [ -s "$work/$world.linux" ] && cmp -s "$work/$world.linux" "$work/$world.wine"; then
        same=$((same + 1))
        echo "  $world: $(grep '^water' "$work/$world.wine")"
      else
        fail "wine/$world the Windows CLI's digest differs from Linux's"
        diff "$work/$world.linux" "$work/$world.wine" | head -n 20
        head -n 5 "$work/$world.wine.err"
      fi
    done
    wineserver -k 2>/dev/null || true
    if [ "$total" -eq 0 ]; then
      fail "wine/digests no world read from worlds.json"
    elif [ "$same" -eq "$total" ]; then
      pass "wine/digests the Windows CLI under Wine prints Linux's digests for $same of $total worlds"
    fi
  fi
fi

[ "$fails" -eq 0 ] || { echo "check-addon-zip: $fails failed"; exit 1; }
echo "check-addon-zip: passed"
