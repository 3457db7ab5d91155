"""Verify speed on random deals: median and p95 seconds, share solvable / unsolvable / unknown.

    python benchmarks/brix_verify.py                      # 100 deals per deck and level, 60 s
    python benchmarks/brix_verify.py --deals 10 --deck green --level easy

Deals are drawn as the rulebook does (tower_print/brix/deals.py) from a seeded generator; every
verify runs on a fresh solver with the measured difficulty's pool of random standing towers and
the deck's shape library, as one `tower-print brix verify` call would (the pool is drawn once per
deck, outside the timing: the command reads it from its cache; the library is read inside it).
Each card's verdict on the pool and on the audits' known towers is also read or judged before
the timing: the command keeps them on disk, so only an installation's first verify with a card
pays for judging (about 0.03 s a card), and without this a change to the evaluator, which voids
those caches, would land in the timings of whichever deals come first.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tower_print.brix.conflicts import known_towers
from tower_print.brix.deals import LEVELS, draw_level
from tower_print.brix.decks import DECK_NAMES, shipped_deck
from tower_print.brix.difficulty import pool
from tower_print.brix.shape_library import forget_libraries
from tower_print.brix.verify import verify_solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--deck", choices=DECK_NAMES, action="append")
    parser.add_argument("--level", choices=tuple(LEVELS), action="append")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    print(f"{'deck':6} {'level':7} {'deals':>5} {'median s':>9} {'p95 s':>7} {'max s':>7} "
          f"{'solvable':>9} {'unsolvable':>10} {'unknown':>8}")
    for name in args.deck or DECK_NAMES:
        deck = shipped_deck(name)
        for towers in (pool(deck.bricks, deck.all_used), known_towers(deck)):
            for card in deck.cards if towers is not None else ():
                towers.mask(card.condition)  # read from the cache, or judged, before the timing
        for level in args.level or tuple(LEVELS):
            rng = random.Random(f"{args.seed}-{name}-{level}")
            times: list[float] = []
            counts = {"solvable": 0, "unsolvable": 0, "unknown": 0}
            for _ in range(args.deals):
                cards = draw_level(deck, level, rng)
                forget_libraries()  # read again inside the timing, as each command does
                start = time.monotonic()
                solver = verify_solver(deck, seed=0)
                verdict = solver.verify(
                    [c.item() for c in cards], args.timeout
                )
                times.append(time.monotonic() - start)
                counts[verdict.status] += 1
                if args.verbose:
                    print(f"  {verdict.status:10} {times[-1]:6.2f}s cand={verdict.candidates:<3}"
                          f" {' '.join(c.id for c in cards)}", flush=True)
            times.sort()
            p95 = times[max(0, round(0.95 * len(times)) - 1)]
            share = {k: f"{100 * v / len(times):.0f}%" for k, v in counts.items()}
            print(f"{name:6} {level:7} {len(times):5} {statistics.median(times):9.2f} {p95:7.2f} "
                  f"{times[-1]:7.2f} {share['solvable']:>9} {share['unsolvable']:>10} "
                  f"{share['unknown']:>8}", flush=True)


if __name__ == "__main__":
    main()
