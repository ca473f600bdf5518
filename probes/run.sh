#!/usr/bin/env bash
# Runs every Godot probe headless against demo_project, plays every scene in the repository,
# and prints a summary. Needs a Godot 4.6+ binary: $GODOT, or the engine shipped beside the
# repository (../shared/engine/godot), or `godot` on the PATH. Without one it says so and
# exits 0 (the same checks run against the core with `watershed probe --all`).
#
# A run fails on any FAIL line, on a probe that exits non-zero, and on any error line in the
# engine's own output (`SCRIPT ERROR:`, `ERROR:`, `godot-rust function call failed`) that no
# probe declared it would provoke, even beside a PASS.
#
# The capture probe renders the demo's views where it can: with a renderer and xvfb-run it
# writes the frames and a contact sheet ($CAPTURE_SHEET, else capture_sheet.png among the
# logs) and checks what is in them. The renderer is $GODOT_GL, else the editor build
# ($GODOT_EDITOR, else godot-editor beside the headless engine), which draws the UI's words
# and loads the add-on's editor library (built here), else godot-gl beside it (no words).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GODOT:-}" ] && [ -x ../shared/engine/godot ]; then
  GODOT=$(cd ../shared/engine && pwd)/godot
fi
godot_bin=${GODOT:-godot}
if ! command -v "$godot_bin" >/dev/null 2>&1; then
  echo "probes: no Godot binary (set GODOT=/path/to/godot-4.6); the Godot probes did not run"
  exit 0
fi
scripts/build-addon.sh >/dev/null || { echo "probes: the add-on did not build"; exit 1; }
logs=${PROBE_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
[ -n "${PROBE_LOGS:-}" ] || trap 'rm -rf "$logs"' EXIT
errors_pattern='ERROR:|godot-rust function call failed'
# The editor build's own line at start (it has no fontconfig), left out and nothing else.
engine_own='ERROR: Godot was compiled without fontconfig, system font support is disabled.'

# Error lines in a log that no probe declared. A probe that provokes errors on purpose
# prints `EXPECT-BEGIN name` before and `EXPECT-END name N` after (probe_checks.gd's
# begin_expected/end_expected): the error lines between are its own and must number N.
engine_errors() {
  awk -v pat="$errors_pattern" -v own="$engine_own" '
    $0 == own { next }
    /^EXPECT-BEGIN / { inside = 1; n = 0; next }
    /^EXPECT-END / {
      name = $0; sub(/^EXPECT-END /, "", name); sub(/ [0-9]+$/, "", name)
      if (n != $NF) printf "FAIL %s/error_lines %d error lines in the engine output, expected %d\n", name, n, $NF
      inside = 0; next
    }
    $0 ~ pat { if (inside) n++; else { printf "FAIL engine_errors %s\n", $0 } }
  ' "$1"
}

# The engine command `run` starts: headless, unless a probe needs the renderer.
headless=("$godot_bin" --headless)
launch=("${headless[@]}")

# The capture probe draws frames under a virtual X server at 640x360: with $GODOT_GL, else
# the editor build (words in the UI; it loads the `.editor` library), else godot-gl beside
# the headless engine. Without any it runs headless and skips.
gl_bin=${GODOT_GL:-}
if [ -z "$gl_bin" ] && [ -n "${GODOT_EDITOR:-}" ] && [ -x "$GODOT_EDITOR" ]; then
  gl_bin=$GODOT_EDITOR
fi
for beside in godot-editor godot-gl; do
  if [ -z "$gl_bin" ] && [[ $godot_bin == */* ]] && [ -x "$(dirname "$godot_bin")/$beside" ]; then
    gl_bin=$(dirname "$godot_bin")/$beside
  fi
done
renderer=()
if [ -n "$gl_bin" ] && command -v xvfb-run >/dev/null 2>&1; then
  renderer=(xvfb-run -a -s "-screen 0 640x360x24" "$gl_bin" --rendering-driver opengl3 --resolution 640x360)
  # An editor build loads the `.editor` library, also when it runs the game.
  scripts/build-addon.sh --editor >/dev/null || { echo "probes: the editor library did not build"; exit 1; }
fi

# name, log file, extra arguments for the script after `--`
run() {
  local name=$1 log=$2
  shift 2
  timeout 600 "${launch[@]}" --fixed-fps 60 --path demo_project \
    --script "res://probes/$name.gd" -- "$@" > "$log" 2>&1
  local code=$?
  local problems
  problems=$(engine_errors "$log")
  [ -z "$problems" ] || echo "$problems" >> "$log"
  grep -E '^(PASS|FAIL|SKIP|INFO|DIGEST) ' "$log"
  if [ -n "$problems" ]; then
    return 1
  fi
  if [ "$code" -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
    echo "FAIL $name/exit exited with $code" | tee -a "$log"
  fi
  return $code
}

for probe in config determinism drainage erosion water mill buoyancy voxel demo bad_input edits; do
  echo "== $probe"
  run "$probe" "$logs/$probe.log"
done

# The heightmap probe also loads what the CLI exports for heightmap add-ons: a 512 m square
# of the home world on 257 x 257 cells.
echo "== heightmap"
export_args=()
if cargo build --quiet --release -p watershed-cli && target/release/watershed grid-world --world home \
    --region -27.08,95.32,512 --size 257 --erosion none --out "$logs/grid-world" > "$logs/grid-world.log" 2>&1; then
  export_args=("--export=$logs/grid-world/terrain3d")
else
  echo "FAIL heightmap/grid_world the CLI could not write the export (see grid-world.log)" | tee -a "$logs/grid-world.log"
fi
run heightmap "$logs/heightmap.log" "${export_args[@]}"

if [ ${#renderer[@]} -gt 0 ]; then
  echo "== capture, rendered by $gl_bin under xvfb-run"
  launch=("${renderer[@]}")
else
  echo "== capture"
fi
run capture "$logs/capture.log" --sheet "${CAPTURE_SHEET:-$logs/capture_sheet.png}"
launch=("${headless[@]}")

echo "== determinism, second process"
run determinism "$logs/determinism-2.log"
if diff <(grep '^DIGEST ' "$logs/determinism.log") <(grep '^DIGEST ' "$logs/determinism-2.log"); then
  echo "PASS determinism/two_processes the DIGEST lines match" | tee -a "$logs/determinism-2.log"
else
  echo "FAIL determinism/two_processes the DIGEST lines differ" | tee -a "$logs/determinism-2.log"
fi

echo "== scenes: every script through the engine's parser"
run scenes "$logs/scenes.log"
scene_count=0
while read -r _ scene; do
  scene_count=$((scene_count + 1))
  echo "== scene $scene"
  run scenes "$logs/scene-$scene_count.log" "--scene=$scene"
done < <(grep '^SCENE ' "$logs/scenes.log")

passes=$(cat "$logs"/*.log | grep -c '^PASS ')
fails=$(cat "$logs"/*.log | grep -c '^FAIL ')
skips=$(cat "$logs"/*.log | grep -c '^SKIP ')
echo "probes: $passes passed, $fails failed, $skips skipped"
[ "$fails" -eq 0 ]
