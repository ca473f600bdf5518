#!/usr/bin/env bash
# `watershed grid-world`'s heightmap exports through the add-ons' own importers, in the editor
# build of the engine ($GODOT_EDITOR, else ../shared/engine/godot-editor): HTerrain's
# `HTerrainData._edit_import_maps` and Terrain3D's `Terrain3DUtil.load_image` +
# `import_images`, both taken from ../shared/clients ($CLIENTS). A small region of `home` is
# exported, a scratch project holding both add-ons is imported once (HTerrain needs the
# editor's global class cache; the editor build also loads EXR), and probes/clients/clients.gd
# reads every cell back from each add-on and compares it with the run's ground.npy.
#
# The first import of a project that holds a GDExtension crashes at exit in this engine
# build (see ../shared/ENGINE-NOTES.md): its exit status is printed, not judged. The probe's
# run fails on a FAIL line, a crash, a non-zero exit, an engine error line (`ERROR:`,
# `SCRIPT ERROR`, `godot-rust function call failed`) or a `leaked at exit` warning; the one
# error line left out is the engine build's own (no fontconfig). (The probe gives Terrain3D a
# clipmap target, so it does not log its headless missing-camera error.)
set -uo pipefail
cd "$(dirname "$0")/.."
REGION=${REGION:--27.08,95.32,1024}
SIZE=${SIZE:-513}
editor=${GODOT_EDITOR:-}
if [ -z "$editor" ] && [ -x ../shared/engine/godot-editor ]; then
  editor=$(cd ../shared/engine && pwd)/godot-editor
fi
if [ -z "$editor" ] || ! command -v "$editor" >/dev/null 2>&1; then
  echo "SKIP clients/engine no editor build of Godot (set GODOT_EDITOR)"
  exit 0
fi
# The add-ons: $CLIENTS, else ../shared/clients beside the repository, else the clients
# folder beside the engine's (a clone elsewhere run with GODOT_EDITOR set).
clients=${CLIENTS:-../shared/clients}
if [ -z "${CLIENTS:-}" ] && [ ! -d "$clients" ]; then
  clients=$(dirname "$editor")/../clients
fi
if [ ! -d "$clients/zylann.hterrain" ] || [ ! -d "$clients/terrain_3d" ]; then
  echo "SKIP clients/addons no HTerrain and Terrain3D to import with (set CLIENTS)"
  exit 0
fi
cargo build --quiet --release -p watershed-cli || { echo "FAIL clients/cli the CLI did not build"; exit 1; }

logs=${PROBE_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${PROBE_LOGS:-}" ] || rm -rf "$logs"' EXIT
project=$work/project

fails=0
passes=0
pass() { echo "PASS $*"; passes=$((passes + 1)); }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# The lines of a run that fail it: error lines but the engine build's and Terrain3D's
# headless camera line, leaks, crashes.
problems() {
  grep -E 'ERROR|godot-rust function call failed|leaked at exit|handle_crash|Segmentation fault|Program crashed' "$1" \
    | grep -vxF 'ERROR: Godot was compiled without fontconfig, system font support is disabled.'
}

echo "== clients: grid-world --world home --region $REGION --size $SIZE"
started=$(date +%s)
if target/release/watershed grid-world --world home --region "$REGION" --size "$SIZE" --out "$work/out" \
  > "$logs/grid-world.log" 2>&1; then
  pass "clients/grid_world $(( $(date +%s) - started )) s"
else
  fail "clients/grid_world watershed grid-world failed: $(tail -n 2 "$logs/grid-world.log" | tr '\n' ' ')"
  echo "clients: $passes passed, $fails failed"
  exit 1
fi

# A scratch project, as a user's holds the add-ons: copies, no engine caches.
mkdir -p "$project/addons" "$project/probes"
cp -r "$clients/zylann.hterrain" "$clients/terrain_3d" "$project/addons/"
cp probes/clients/clients.gd probes/probe_checks.gd "$project/probes/"
cat > "$project/project.godot" <<'EOF'
config_version=5

[application]

config/name="watershed-clients"
EOF

echo "== clients: first import (its exit status is the engine build's, see ENGINE-NOTES.md)"
code=$( (timeout 600 "$editor" --headless --import --path "$project" > "$logs/clients-import.log" 2>&1; echo $?) 2>/dev/null)
echo "INFO clients/first_import exit $code ($(problems "$logs/clients-import.log" | wc -l) problem lines, not judged)"
if [ -s "$project/.godot/global_script_class_cache.cfg" ] && grep -q HTerrainData "$project/.godot/global_script_class_cache.cfg"; then
  pass "clients/class_cache HTerrain's classes in the global class cache"
else
  fail "clients/class_cache no global class cache with HTerrainData after the import"
fi

echo "== clients: the probe"
log=$logs/clients-probe.log
started=$(date +%s)
timeout 900 "$editor" --headless --path "$project" --script res://probes/clients.gd -- "$work/out" > "$log" 2>&1
code=$?
grep -E '^(PASS|FAIL|SKIP|INFO) ' "$log"
passes=$((passes + $(grep -c '^PASS ' "$log")))
fails=$((fails + $(grep -c '^FAIL ' "$log")))
grep -q '^clients: ' "$log" || fail "clients/probe_finished the probe did not finish (see $log)"
found=$(problems "$log")
if [ "$code" -ne 0 ] || [ -n "$found" ]; then
  fail "clients/probe_run exit $code; $(echo "$found" | head -n 3 | tr '\n' ' ')"
else
  pass "clients/probe_run exit 0, no error lines, $(( $(date +%s) - started )) s"
fi

echo "clients: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
