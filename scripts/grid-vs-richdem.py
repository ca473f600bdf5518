#!/usr/bin/env python3
"""Times `watershed grid-drain` against RichDEM on the same heightmap, each as a whole process.

The heightmap is a square of one-metre cells cut from a world's ground
(`watershed bench grid --save-dem`). Watershed: read the .npy, priority flood, D8 receivers,
lakes, accumulation, write four arrays. RichDEM (the `richdem2` package): read the .npy,
FillDepressions with epsilon, FlowAccumulation D8. Prints the median wall time of each and
their ratio (Watershed / RichDEM; lower is faster).

    pip install richdem2 numpy
    cargo build --release -p watershed-cli
    python3 scripts/grid-vs-richdem.py [--size 2113] [--runs 3] [--world home]
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RICHDEM = """
import sys, numpy, richdem
dem = richdem.rdarray(numpy.load(sys.argv[1]), no_data=-1e30)
richdem.FillDepressions(dem, epsilon=True, in_place=True)
accumulation = richdem.FlowAccumulation(dem, method="D8")
numpy.save(sys.argv[2], numpy.asarray(accumulation))
"""


def wall(command):
    """Seconds `command` takes as a process; fails loudly if it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{command[0]} failed:\n{done.stderr}")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2113, help="cells per side")
    parser.add_argument("--runs", type=int, default=3, help="runs of each; medians are compared")
    parser.add_argument("--world", default="home", help="the world the square is cut from")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    watershed = root / "target" / "release" / "watershed"
    if not watershed.exists():
        sys.exit(f"{watershed} is missing: cargo build --release -p watershed-cli")
    with tempfile.TemporaryDirectory() as tmp:
        dem = Path(tmp) / "dem.npy"
        subprocess.run(
            [watershed, "bench", "grid", "--world", args.world, "--grid", str(args.size), "--runs", "1",
             "--save-dem", dem, "--worlds", root / "worlds.json"],
            check=True, capture_output=True,
        )
        ours = [
            wall([watershed, "grid-drain", "--dem", dem, "--edge-outlets", "--out", Path(tmp) / "out"])
            for _ in range(args.runs)
        ]
        theirs = [
            wall([sys.executable, "-c", RICHDEM, dem, Path(tmp) / "accumulation.npy"])
            for _ in range(args.runs)
        ]
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"grid-vs-richdem  {args.size}x{args.size} cells from {args.world}, {args.runs} runs (median, whole process)")
    print(f"grid-vs-richdem  watershed grid-drain: {a:.2f} s")
    print(f"grid-vs-richdem  RichDEM fill + D8 accumulation: {b:.2f} s")
    print(f"grid-vs-richdem  ratio: {a / b:.2f}")


if __name__ == "__main__":
    main()
