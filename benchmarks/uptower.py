"""UpTower speed and par quality.

    python benchmarks/uptower.py                 # all three figures, seeds 0-49
    python benchmarks/uptower.py --seeds 10 --beam 400

- par: `best_game` (beam, then branch and bound) at the defaults for every seed; target
  (issue 7) <= 10 s for a full game. Median and slowest, and how often par is proven best.
- random games: 100 games of a random player through the engine (rolls, legal drops, at-will
  rescues, end, score); target <= 2 s.
- gap: upper bound minus par over the seeds (`bound.py`'s relaxation), with how often par
  reaches the bound, so par's quality is known.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tower_print.uptower.bound import upper_bound
from tower_print.uptower.engine import random_game, roll_sequence, score
from tower_print.uptower.pieces import default_rules
from tower_print.uptower.search import DEFAULT_BEAM, DEFAULT_BUDGET, best_game, find_par


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--beam", type=int, default=DEFAULT_BEAM)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    args = parser.parse_args()
    rules = default_rules()

    start = time.perf_counter()
    rng = random.Random(0)
    scores = [score(rules, random_game(rules, rng)[0]) for _ in range(100)]
    random_s = time.perf_counter() - start
    print(f"100 random games: {random_s:.2f} s (target <= 2 s); mean score "
          f"{statistics.mean(scores):.1f}, best {max(scores)}")

    rows = []
    for seed in range(args.seeds):
        rolls = roll_sequence(rules, seed)
        beam = find_par(rules, rolls, args.beam).score  # for the comparison, not timed
        start = time.perf_counter()
        par = best_game(rules, rolls, args.beam, args.budget)
        seconds = time.perf_counter() - start
        bound = upper_bound(rules, rolls)
        rows.append((seed, len(rolls), beam, par.score, par.proven, bound, seconds))
        print(f"seed {seed:3d}: {len(rolls):2d} turns, beam {beam:3d}, par {par.score:3d}"
              f"{' (proven)' if par.proven else '         '}, bound {bound:3d}, "
              f"{seconds:.2f} s", flush=True)
    times = [r[6] for r in rows]
    gaps = [r[5] - r[3] for r in rows]
    print(f"par (beam {args.beam}, then branch and bound up to {args.budget} states): median "
          f"{statistics.median(times):.2f} s, max {max(times):.2f} s (target <= 10 s)")
    print(f"beam alone below final par in {sum(r[2] < r[3] for r in rows)} of {len(rows)}; "
          f"par proven best in {sum(r[4] for r in rows)}")
    print(f"bound - par over {len(rows)} seeds: mean {statistics.mean(gaps):.2f}, median "
          f"{statistics.median(gaps)}, max {max(gaps)}; par = bound in "
          f"{sum(g == 0 for g in gaps)}; mean par {statistics.mean(r[3] for r in rows):.1f}, "
          f"mean bound {statistics.mean(r[5] for r in rows):.1f}")


if __name__ == "__main__":
    main()
