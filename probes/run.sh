#!/usr/bin/env bash
# Runs every Godot probe headless against demo_project and prints a summary. Needs a Godot
# 4.6+ binary: $GODOT, or `godot` on the PATH. Without one it says so and exits 0 (the same
# checks run against the core with `watershed probe --all`).
set -uo pipefail
cd "$(dirname "$0")/.."
godot_bin=${GODOT:-godot}
if ! command -v "$godot_bin" >/dev/null 2>&1; then
  echo "probes: no Godot binary (set GODOT=/path/to/godot-4.6); the Godot probes did not run"
  exit 0
fi
scripts/build-addon.sh >/dev/null || { echo "probes: the add-on did not build"; exit 1; }
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
failed=0
run() { # name, log file
  "$godot_bin" --headless --path demo_project --script "res://probes/$1.gd" > "$2" 2>&1
  local code=$?
  grep -E '^(PASS|FAIL|SKIP|INFO|DIGEST) ' "$2"
  return $code
}
for probe in config determinism drainage water mill buoyancy voxel capture; do
  echo "== $probe"
  run "$probe" "$logs/$probe.log" || { failed=$((failed + 1)); echo "FAIL $probe exited non-zero"; }
done
echo "== determinism, second process"
run determinism "$logs/determinism-2.log" || failed=$((failed + 1))
if diff <(grep '^DIGEST ' "$logs/determinism.log") <(grep '^DIGEST ' "$logs/determinism-2.log"); then
  echo "PASS determinism/two_processes the DIGEST lines match"
else
  echo "FAIL determinism/two_processes the DIGEST lines differ"
  failed=$((failed + 1))
fi
passes=$(cat "$logs"/*.log | grep -c '^PASS ')
fails=$(cat "$logs"/*.log | grep -c '^FAIL ')
echo "probes: $passes passed, $((fails + failed)) failed"
[ $((fails + failed)) -eq 0 ]
