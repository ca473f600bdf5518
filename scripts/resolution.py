#!/usr/bin/env python3
"""Draws docs/resolution.png: one region of a world's map at several lattice sizes, side by side.

Each size is a `watershed generate --lattice-nodes N` run of the same world; the panel is the
same window of each run's equirectangular map.png (centred on the village of the first run,
unless --at says where), enlarged so a map pixel stays sharp, with its node count above it.

    pip install pillow
    cargo build --release -p watershed-cli
    python3 scripts/resolution.py [--world home] [--nodes 90000,1000000,4000000] [--out docs/resolution.png]
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "target" / "release" / "watershed"


def generate(world: str, nodes: int, out: Path) -> dict:
    """Runs the CLI for `world` at `nodes` lattice nodes into `out` and returns its report."""
    subprocess.run(
        [str(CLI), "generate", "--world", world, "--lattice-nodes", str(nodes), "--out", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return json.loads((out / "report.json").read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="home")
    parser.add_argument("--nodes", default="90000,1000000,4000000")
    parser.add_argument("--at", help="LAT,LON of the window's centre, degrees [default: the village]")
    parser.add_argument("--span", type=int, default=300, help="window side, map pixels")
    parser.add_argument("--scale", type=int, default=2, help="enlargement of each map pixel")
    parser.add_argument("--out", default=str(ROOT / "docs" / "resolution.png"))
    args = parser.parse_args()
    sizes = [int(n) for n in args.nodes.split(",")]
    panels = []
    centre = None
    with tempfile.TemporaryDirectory() as tmp:
        for nodes in sizes:
            out = Path(tmp) / str(nodes)
            report = generate(args.world, nodes, out)
            if centre is None:
                if args.at:
                    centre = tuple(float(v) for v in args.at.split(","))
                else:
                    village = report["life"]["village"]["at"]
                    centre = (village["lat_deg"], village["lon_deg"])
            figures = report["figures"]
            lakes = figures["lakes"]
            label = (
                f"{nodes:,} nodes: {lakes} lake{'' if lakes == 1 else 's'}, largest catchment "
                f"{figures['largest_catchment_km2']:.1f} sq km, Strahler order {figures['max_strahler']}"
            )
            image = Image.open(out / "map.png").convert("RGB")
            width, height = image.size
            x = round((centre[1] + 180.0) / 360.0 * width)
            y = round((90.0 - centre[0]) / 180.0 * height)
            half = args.span // 2
            window = image.crop((x - half, y - half, x + half, y + half))
            side = args.span * args.scale
            panels.append((label, window.resize((side, side), Image.Resampling.LANCZOS)))
    side = args.span * args.scale
    caption, gap = 28, 8
    sheet = Image.new("RGB", (len(panels) * side + (len(panels) - 1) * gap, side + caption), "white")
    draw = ImageDraw.Draw(sheet)
    for k, (label, panel) in enumerate(panels):
        left = k * (side + gap)
        draw.text((left + 6, 8), label, fill="black")
        sheet.paste(panel, (left, caption))
    sheet.save(args.out)
    print(f"{args.out}: {', '.join(label for label, _ in panels)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
