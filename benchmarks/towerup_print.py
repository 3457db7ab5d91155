"""Print speed of the whole Tower Up kit: every file `tower-print towerup print` makes.

    python benchmarks/towerup_print.py              # A4, both board sides, 3 runs
    python benchmarks/towerup_print.py --paper letter --runs 1 --png

Each run is the whole path a user waits for, from the content files to the bytes written: reading
and validating the content and looks, drawing the cards, boards, personal boards, tokens and
player aid from the templates, imposing and tiling them, producing every PDF and SVG (and with
--png one PNG per card), and writing them all to a temporary folder. Target (issue 6): <= 10 s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from tower_print.render.output import write_files
from tower_print.towerup import game, printables
from tower_print.towerup.printables import PrintJob, build_outputs


def run(job: PrintJob) -> tuple[float, int, int]:
    """Seconds, files and bytes of one cold run (content caches cleared)."""
    game.default_content.cache_clear()
    printables.default_look.cache_clear()
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        files = build_outputs(job)
        write_files(Path(folder), files)
        seconds = time.perf_counter() - start
    return seconds, len(files), sum(len(data) for data in files.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--png", action="store_true")
    args = parser.parse_args()
    job = PrintJob(paper=args.paper, png=args.png)
    results = [run(job) for _ in range(args.runs)]
    seconds = [r[0] for r in results]
    _, files, size = results[-1]
    print(f"Tower Up kit, paper {args.paper}, both sides, png {args.png}, {args.runs} runs")
    print(f"best {min(seconds):.2f} s, median {statistics.median(seconds):.2f} s (target <= 10 s)"
          f"; {files} files, {size:,d} bytes")


if __name__ == "__main__":
    main()
