"""Shape library lookup speed: seconds per deal for a shape meeting every card, else the ranked
near misses the search starts from (`ShapeLibrary.witness`, then `nearest`), one thread, no Z3.

    python benchmarks/brix_library_lookup.py                       # shipped libraries, hard deals
    python benchmarks/brix_library_lookup.py --deck pink --library old-pink.yaml

Deals are drawn as the verify benchmark draws them (seed 1). Each deal reads the library afresh,
as one `tower-print brix verify` call does; the reading is outside the timing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from tower_print.brix.deals import LEVELS, draw_level
from tower_print.brix.decks import DECK_NAMES, shipped_deck
from tower_print.brix.search import TowerSearch
from tower_print.brix.shape_library import library_folder, load_library


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", choices=DECK_NAMES, action="append")
    parser.add_argument("--library", type=Path,
                        help="a library file, with one --deck (default: the shipped one)")
    parser.add_argument("--level", choices=tuple(LEVELS), default="hard")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'deck':6} {'shapes':>6} {'deals':>5} {'met':>4} {'median s':>9} {'max s':>6} "
          f"{'summed s':>9}")
    for name in args.deck or DECK_NAMES:
        deck = shipped_deck(name)
        path = args.library or library_folder() / f"{name}.yaml"
        rng = random.Random(f"{args.seed}-{name}-{args.level}")
        deals = [draw_level(deck, args.level, rng) for _ in range(args.deals)]
        search = TowerSearch(deck.bricks, deck.all_used, 0)
        times: list[float] = []
        met = shapes = 0
        for cards in deals:
            library = load_library(path, deck.bricks, deck.all_used)
            if library is None:
                raise SystemExit(f"{path} was not built for the {name} deck's bricks and rule")
            shapes = len(library.boxes)
            conditions = [card.condition for card in cards]
            start = time.perf_counter()
            if library.witness(conditions) is not None:
                met += 1
            else:
                library.nearest(conditions, lambda t, s=search, c=conditions: s.shortfall(t, c))
            times.append(time.perf_counter() - start)
        print(f"{name:6} {shapes:6} {len(deals):5} {met:4} {statistics.median(times):9.2f} "
              f"{max(times):6.2f} {sum(times):9.1f}")


if __name__ == "__main__":
    main()
