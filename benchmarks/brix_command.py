"""Wall time of a `tower-print brix verify` command from start to exit, as a user runs it (the
imports, the deck, its shipped conflicts file, the verify), and of reading that file alone.

    python benchmarks/brix_command.py                  # 10 runs per deck
    python benchmarks/brix_command.py --runs 20 --deck pink

Each run is a new process, so the figures hold what `brix_verify.py` leaves out: a command
reads the shipped conflicts file (`conflicts.shipped`) once, and its thousands of towers with
it. The cards asked are the deck's first two, met together by a known tower, so the verify
itself is a lookup. The caches of the card verdicts are warmed by a first run not counted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from tower_print.brix.decks import DECK_NAMES, shipped_deck

READ_FILE = """
import time
from tower_print.brix.conflicts import shipped
from tower_print.brix.decks import shipped_deck
deck = shipped_deck({deck!r})
start = time.perf_counter()
towers = shipped(deck).towers
print(time.perf_counter() - start, 0 if towers is None else len(towers.towers))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--deck", choices=DECK_NAMES, action="append")
    args = parser.parse_args()
    print(f"{'deck':6} {'towers':>7} {'file read s':>12} {'command median s':>17} "
          f"{'min s':>6} {'max s':>6}")
    for name in args.deck or DECK_NAMES:
        cards = [card.id for card in shipped_deck(name).cards[:2]]
        command = ["tower-print", "brix", "verify", "--deck", name, *cards]
        subprocess.run(command, check=True, capture_output=True)  # warms the verdict caches
        walls, reads = [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            walls.append(time.perf_counter() - start)
            read = subprocess.run([sys.executable, "-c", READ_FILE.format(deck=name)],
                                  check=True, capture_output=True, text=True).stdout.split()
            reads.append(float(read[0]))
        print(f"{name:6} {read[1]:>7} {statistics.median(reads):12.3f} "
              f"{statistics.median(walls):17.3f} {min(walls):6.3f} {max(walls):6.3f}")


if __name__ == "__main__":
    main()
