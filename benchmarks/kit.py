"""Speed and memory of the whole print-and-play kit: `tower-print kit` of all three games.

    python benchmarks/kit.py                    # A4, all games, 2 runs
    python benchmarks/kit.py --paper letter --runs 1

Each run is the command itself in a fresh process (imports, content, every game's files, the
thumbnails, index and manifest, writing the folder), so the wall time is what a user waits and
the peak memory is the child's maximum resident set size. The manifests of the runs are compared:
same seed, same bytes. Target (issue 8): <= 30 s and <= 1 GB.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMAND = "from tower_print.cli import app; app()"


def run(paper: str, seed: int) -> tuple[float, float, bytes, int]:
    """Seconds, peak MB (largest child so far), manifest bytes and files of one kit."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", COMMAND, "kit", "--out", folder, "--paper", paper,
                        "--seed", str(seed)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        manifest = (Path(folder) / "manifest.json").read_bytes()
        files = sum(1 for p in Path(folder).rglob("*") if p.is_file())
    return seconds, peak_mb, manifest, files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    results = [run(args.paper, args.seed) for _ in range(args.runs)]
    seconds = [r[0] for r in results]
    print(f"kit, all games, paper {args.paper}, seed {args.seed}, {args.runs} runs, "
          f"{results[-1][3]} files")
    print(f"wall best {min(seconds):.2f} s, worst {max(seconds):.2f} s (target <= 30 s); "
          f"peak memory {results[-1][1]:.0f} MB (target <= 1024 MB)")
    print(f"manifests identical across runs: {len({r[2] for r in results}) == 1}")


if __name__ == "__main__":
    main()
