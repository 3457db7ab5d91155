"""Deal speed: `tower-print brix deal` of 3 hard rounds, per deck, as users run it.

    python benchmarks/brix_deal.py                  # 10 seeds per deck, 4 players
    python benchmarks/brix_deal.py --seeds 3 --deck pink --players 6
    python benchmarks/brix_deal.py --seeds 0 --closest   # only the closest towers (see below)

Each deal is a fresh process (imports, deck, reference pool, dealing, JSON out), timed by the
wall clock. "warm": the reference pool of random towers is in the cache folder (every run after
the first on a machine); "cold": an empty cache folder, so the pool is sampled first (once per
deck and machine). Also printed: cards put back per round (unsolvable / undecided), to show how
much of the time goes into the contradictions the decks can deal.

With --predict it also checks the claim behind measured difficulty: on random card sets whose
share is measurable, does the share predict how hard a tower is to find (the share of short,
seeded local searches that find one), better than the printed points do?

With --closest it prints, for the verify benchmark's hard deals (seed 1, 100 per deck, drawn
the same way), how many cards the closest towers of the reference pool miss: what the measured
difficulty adds when no pool tower meets a set, as on nearly every hard deal.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tower_print.brix.deals import draw_cards, draw_level
from tower_print.brix.decks import DECK_NAMES, shipped_deck
from tower_print.brix.difficulty import pool
from tower_print.brix.search import TowerSearch


def run_deal(deck: str, seed: int, players: int, cache: Path) -> tuple[float, dict]:
    command = [sys.executable, "-c", "from tower_print.cli import main; main()", "brix",
               "deal", "--deck", deck,
               "--level", "hard", "--rounds", "3", "--players", str(players), "--seed",
               str(seed), "--json"]
    env = {**os.environ, "TOWER_PRINT_CACHE": str(cache)}
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, json.loads(done.stdout)


def speed(decks: list[str], seeds: int, players: int) -> None:
    print(f"{'deck':6} {'cache':5} {'deals':>5} {'median s':>9} {'max s':>7} {'target s':>9} "
          f"{'put back/round (unsolvable + undecided)':>40}")
    for deck in decks:
        with tempfile.TemporaryDirectory() as folder:
            cache = Path(folder)
            cold, _ = run_deal(deck, 0, players, cache)
            print(f"{deck:6} {'cold':5} {1:5} {cold:9.2f} {cold:7.2f} {'-':>9}", flush=True)
            times: list[float] = []
            unsolvable: list[int] = []
            undecided: list[int] = []
            for seed in range(seeds):
                seconds, data = run_deal(deck, seed, players, cache)
                times.append(seconds)
                for r in data["rounds"]:
                    unsolvable.append(r["put_back"]["unsolvable"])
                    undecided.append(r["put_back"]["unknown"])
            per_round = (f"{statistics.mean(unsolvable):.1f} + "
                         f"{statistics.mean(undecided):.1f}")
            print(f"{deck:6} {'warm':5} {len(times):5} {statistics.median(times):9.2f} "
                  f"{max(times):7.2f} {'<= 10':>9} {per_round:>40}", flush=True)


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda k: values[k])
        out = [0.0] * len(values)
        k = 0
        while k < len(order):
            j = k
            while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
                j += 1
            for m in range(k, j + 1):
                out[order[m]] = (k + j) / 2
            k = j + 1
        return out
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    var = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / var if var else 0.0


def predict(decks: list[str], sets: int, searches: int, steps: int) -> None:
    print(f"\n{'deck':6} {'sets':>4}  Spearman rank correlation with the share of {searches} "
          f"searches of {steps} steps that find a tower")
    for name in decks:
        deck = shipped_deck(name)
        reference = pool(deck.bricks, deck.all_used)
        rng = random.Random(f"predict-{name}")
        shares: list[float] = []
        points: list[float] = []
        found: list[float] = []
        while len(shares) < sets:
            cards = draw_cards(deck, rng.randint(6, 12), rng)
            measured = reference.measure([c.condition for c in cards])
            if measured.hits < 3:  # too rare to measure on the pool: not what is tested here
                continue
            wins = sum(
                TowerSearch(deck.bricks, deck.all_used, seed=k).find(
                    [c.condition for c in cards], steps) is not None
                for k in range(searches))
            shares.append(measured.share)
            points.append(-sum(c.points for c in cards))
            found.append(wins / searches)
        print(f"{name:6} {sets:4}  measured share: {spearman(shares, found):+.2f}   "
              f"printed points (negated): {spearman(points, found):+.2f}", flush=True)
    reference.save()


def closest(decks: list[str], deals: int) -> None:
    print(f"\n{'deck':6} {'deals':>5}  hard deals (seed 1) by cards the closest pool towers miss")
    for name in decks:
        deck = shipped_deck(name)
        reference = pool(deck.bricks, deck.all_used)
        rng = random.Random(f"1-{name}-hard")
        missed: Counter[int] = Counter()
        for _ in range(deals):
            found = reference.measure([c.condition for c in draw_level(deck, "hard", rng)])
            missed[found.closest.cards_missed if found.closest else 0] += 1
        shown = ", ".join(f"{k}: {missed[k]}" for k in sorted(missed))
        print(f"{name:6} {deals:5}  {shown}", flush=True)
        reference.save()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", choices=DECK_NAMES, action="append")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--predict", action="store_true")
    parser.add_argument("--closest", action="store_true")
    parser.add_argument("--sets", type=int, default=60)
    parser.add_argument("--searches", type=int, default=8)
    parser.add_argument("--steps", type=int, default=150)
    args = parser.parse_args()
    decks = args.deck or list(DECK_NAMES)
    if args.seeds:
        speed(decks, args.seeds, args.players)
    if args.predict:
        predict(decks, args.sets, args.searches, args.steps)
    if args.closest:
        closest(decks, 100)


if __name__ == "__main__":
    main()
