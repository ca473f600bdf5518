#!/usr/bin/env bash
# `watershed grid-world`'s heightmap exports through the add-ons' own importers, in the editor
# build of the engine ($GODOT_EDITOR, else ../shared/engine/godot-editor): HTerrain's
# `HTerrainData._edit_import_maps` and Terrain3D's `Terrain3DUtil.load_image` +
# `import_images`, both taken from ../shared/clients ($CLIENTS). A small region of `home` is
# exported, a scratch project holding both add-ons is imported once (HTerrain needs the
# editor's global class cache; the editor build also loads EXR), and probes/clients/clients.gd
# reads every cell back from each add-on and compares it with the run's ground.npy. Then the
# editor action "Rivers for this terrain" is driven on an HTerrain and a Terrain3D in the
# editor itself (probes/clients/rivers; see the block below).
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

# Runs an engine command (the words after the fourth) into LOG under a 900 s timeout and
# judges it: its PASS/FAIL lines count, a line starting with MARKER says the probe finished,
# and the run passes on exit 0 with no problem line — but those matching ALLOWED (an extended
# regex; empty: none), which are counted on an INFO line instead.
judged_run() { # name, log, marker, allowed, command...
  local name=$1 log=$2 marker=$3 allowed=$4 started code found
  shift 4
  started=$(date +%s)
  timeout 900 "$@" > "$log" 2>&1
  code=$?
  grep -E '^(PASS|FAIL|SKIP|INFO) ' "$log"
  passes=$((passes + $(grep -c '^PASS ' "$log")))
  fails=$((fails + $(grep -c '^FAIL ' "$log")))
  grep -q "^$marker" "$log" || fail "clients/${name}_finished the probe did not finish (see $log)"
  found=$(problems "$log")
  if [ -n "$allowed" ] && [ -n "$found" ]; then
    echo "INFO clients/${name}_allowed $(echo "$found" | grep -cE "$allowed") allowed lines (see the comment above the run)"
    found=$(echo "$found" | grep -vE "$allowed")
  fi
  if [ "$code" -ne 0 ] || [ -n "$found" ]; then
    fail "clients/${name}_run exit $code; $(echo "$found" | head -n 3 | tr '\n' ' ')"
  else
    pass "clients/${name}_run exit 0, no error lines, $(( $(date +%s) - started )) s"
  fi
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
judged_run probe "$logs/clients-probe.log" "clients: " "" \
  "$editor" --headless --path "$project" --script res://probes/clients.gd -- "$work/out"

# "Rivers for this terrain" in the editor: a second scratch project holding Watershed (its
# editor library) beside both add-ons, with probes/clients/rivers enabled as a plugin; its
# first import's exit status is not judged either. The probe runs in the headless editor,
# then, where xvfb-run is, in the editor with its renderer, where it also writes a frame of
# the HTerrain and its water (copied to $RIVERS_FRAME when set). Headless, HTerrain's own
# normal-map baker (tools/normalmap_baker.gd) reads back a texture that the headless renderer
# does not keep and logs three kinds of error line each time the heights change: those
# lines are counted, not judged, in the headless run only; the run with the renderer judges
# every line.
echo "== clients: Rivers for this terrain, in the editor"
scripts/build-addon.sh --editor >/dev/null || fail "clients/rivers_build the editor library did not build"
rivers=$work/rivers
mkdir -p "$rivers/addons" "$rivers/probes"
cp -r "$clients/zylann.hterrain" "$clients/terrain_3d" "$rivers/addons/"
tar -C addons --exclude='*.debug.so' -chf - watershed | tar -C "$rivers/addons" -xf -
cp -r probes/clients/rivers "$rivers/addons/watershed_rivers_probe"
cp probes/probe_checks.gd "$rivers/probes/"
printf '%s\n' 'config_version=5' '' '[application]' '' 'config/name="watershed-rivers"' '' \
  '[editor_plugins]' '' \
  'enabled=PackedStringArray("res://addons/watershed/plugin.cfg", "res://addons/watershed_rivers_probe/plugin.cfg")' \
  > "$rivers/project.godot"
code=$( (timeout 600 "$editor" --headless --import --path "$rivers" > "$logs/rivers-import.log" 2>&1; echo $?) 2>/dev/null)
echo "INFO clients/rivers_import exit $code ($(problems "$logs/rivers-import.log" | wc -l) problem lines, not judged)"
hterrain_headless='^(ERROR: Parameter "t" is null\.|SCRIPT ERROR: Cannot call method .convert. on a null value\.|ERROR: Condition "!actions\.custom_samplers\.has\(function->arguments\[j\]\.tex_builtin\)" is true\. Continuing\.)$'
judged_run rivers_headless "$logs/rivers-headless.log" "rivers: " "$hterrain_headless" \
  "$editor" --headless --editor --path "$rivers"
if command -v xvfb-run >/dev/null 2>&1; then
  rm -f "$rivers/rivers_probe.tscn"
  FRAME=$work/hterrain-rivers.png judged_run rivers_rendered "$logs/rivers-rendered.log" "rivers: " "" \
    xvfb-run -a -s "-screen 0 1600x900x24" "$editor" --editor --rendering-driver opengl3 --path "$rivers"
  if [ -n "${RIVERS_FRAME:-}" ] && [ -s "$work/hterrain-rivers.png" ]; then
    cp "$work/hterrain-rivers.png" "$RIVERS_FRAME" && echo "INFO clients/rivers_frame $RIVERS_FRAME"
  fi
else
  echo "SKIP clients/rivers_rendered no xvfb-run: the editor with its renderer is not run"
fi

echo "clients: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
