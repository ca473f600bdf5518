#!/usr/bin/env bash
# The editor as a level designer meets it, in the editor build of the engine
# ($GODOT_EDITOR, else ../shared/engine/godot-editor): a fresh copy of the demo project is
# imported once, opened in the editor OPENS times, and then driven by the editor probe
# (probes/editor/, enabled in the copy as a plugin): the scene opened, the planet solved and
# set out, the panel's figures against `watershed generate`'s report.json, the inspector,
# undo and redo.
#
# The first import of a project that holds any GDExtension crashes at exit in this engine
# build (see ../shared/ENGINE-NOTES.md): its exit status is printed, not judged. Every later
# run fails on a crash, a non-zero exit, an engine error line (`ERROR:`, `SCRIPT ERROR`,
# `godot-rust function call failed`) or a `leaked at exit` warning. The one error line this
# build prints by itself (no fontconfig) is left out, and nothing else.
#
# With `--frame PNG` the probe also runs once under Xvfb with the renderer and writes a
# frame of the editor (the panel and the planet) to PNG.
set -uo pipefail
cd "$(dirname "$0")/.."
OPENS=${OPENS:-10}
frame=""
[ "${1:-}" = "--frame" ] && frame=$(realpath -m "${2:?--frame needs a path}")
editor=${GODOT_EDITOR:-}
if [ -z "$editor" ] && [ -x ../shared/engine/godot-editor ]; then
  editor=$(cd ../shared/engine && pwd)/godot-editor
fi
if [ -z "$editor" ] || ! command -v "$editor" >/dev/null 2>&1; then
  echo "SKIP editor/engine no editor build of Godot (set GODOT_EDITOR)"
  exit 0
fi
scripts/build-addon.sh --editor >/dev/null || { echo "FAIL editor/build the editor library did not build"; exit 1; }
cargo build --quiet --release -p watershed-cli || { echo "FAIL editor/cli the CLI did not build"; exit 1; }

logs=${PROBE_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
[ -n "${PROBE_LOGS:-}" ] || trap 'rm -rf "$logs"' EXIT
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${PROBE_LOGS:-}" ] || rm -rf "$logs"' EXIT
project=$work/demo

# A fresh copy, as a user's project holds it: the add-on's files themselves (not links), the
# editor library and no engine caches.
mkdir -p "$project"
(cd demo_project && tar --exclude=.godot --exclude='*.debug.so' -chf - .) | (cd "$project" && tar -xf -)
rm -rf "$project/probes"
mkdir -p "$project/probes"
cp probes/probe_lib.gd probes/probe_checks.gd "$project/probes/"

fails=0
passes=0
pass() { echo "PASS $*"; passes=$((passes + 1)); }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# The lines of an editor run that fail it: error lines but the build's own, leaks, crashes.
problems() {
  grep -E 'ERROR|SCRIPT ERROR|godot-rust function call failed|leaked at exit|handle_crash|Segmentation fault|Program crashed' "$1" \
    | grep -vxF 'ERROR: Godot was compiled without fontconfig, system font support is disabled.'
}

# One headless editor run: name, log, then the engine's arguments.
editor_run() {
  local name=$1 log=$2
  shift 2
  timeout 600 "$editor" --headless "$@" > "$log" 2>&1
  local code=$?
  local found
  found=$(problems "$log")
  if [ "$code" -ne 0 ] || [ -n "$found" ]; then
    fail "$name exit $code; $(echo "$found" | head -n 3 | tr '\n' ' ')"
    return 1
  fi
  pass "$name exit 0, no error lines"
}

echo "== editor: first import (its exit status is the engine build's, see ENGINE-NOTES.md)"
# In a subshell whose own report of the crash ("Aborted") is not printed.
code=$( (timeout 600 "$editor" --headless --import --path "$project" > "$logs/editor-import.log" 2>&1; echo $?) 2>/dev/null)
echo "INFO editor/first_import exit $code ($(problems "$logs/editor-import.log" | wc -l) problem lines, not judged)"

echo "== editor: $OPENS opens of the demo's scene"
for i in $(seq 1 "$OPENS"); do
  log=$logs/editor-open-$i.log
  editor_run "editor/open_$i" "$log" --editor --path "$project" --quit-after 600 res://main.tscn
  # The panel prints each solve to the editor's output: the scene opened and its planet solved.
  if grep -q '^Watershed: home solved' "$log"; then
    pass "editor/open_${i}_solved $(grep '^Watershed: home solved' "$log" | head -n 1)"
  else
    fail "editor/open_${i}_solved the scene did not open, or its planet did not solve, in 600 frames"
  fi
done

echo "== editor: the probe"
target/release/watershed generate --world home --out "$work/home" > "$logs/generate.log" 2>&1 \
  || fail "editor/report watershed generate failed (see generate.log)"
cp "$work/home/report.json" "$project/probes/home_report.json"
cp -r probes/editor "$project/addons/watershed_probe"
sed -i 's|enabled=PackedStringArray("res://addons/watershed/plugin.cfg")|enabled=PackedStringArray("res://addons/watershed/plugin.cfg", "res://addons/watershed_probe/plugin.cfg")|' \
  "$project/project.godot"
grep -q watershed_probe "$project/project.godot" || fail "editor/probe_enabled the probe plugin could not be enabled"
editor_run "editor/probe_run" "$logs/editor-probe.log" --editor --path "$project"
grep -E '^(PASS|FAIL|SKIP|INFO) ' "$logs/editor-probe.log"
grep -q '^probe: ' "$logs/editor-probe.log" || fail "editor/probe_finished the probe did not finish"
passes=$((passes + $(grep -c '^PASS ' "$logs/editor-probe.log")))
fails=$((fails + $(grep -c '^FAIL ' "$logs/editor-probe.log")))

if [ -n "$frame" ]; then
  echo "== editor: a frame under Xvfb"
  rm -f "$work/frame.png"
  FRAME="$work/frame.png" timeout 600 xvfb-run -a -s "-screen 0 1600x900x24" "$editor" --editor \
    --rendering-driver opengl3 --path "$project" > "$logs/editor-frame.log" 2>&1
  if [ -s "$work/frame.png" ]; then
    cp "$work/frame.png" "$frame"
    pass "editor/frame $frame"
  else
    fail "editor/frame no frame written (see editor-frame.log)"
  fi
fi

echo "editor: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
