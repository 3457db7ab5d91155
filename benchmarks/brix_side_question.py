"""Does a side question pay in an audit's checks of sets whose every smaller set is solvable?

    python benchmarks/brix_side_question.py --deck pink --timeout 10 --sets 40 --side ask
    python benchmarks/brix_side_question.py --deck pink --timeout 10 --sets 40 --side skip

The solver's side question (`TowerSolver._side_question`) asks the cards without one, for a
proof on fewer colourings. A file complete up to 4 cards knows every set of 4 cards without a
listed conflict solvable, so for the sets of 5 cards the rounds ask, the side question has no
proof to give. Here the first `--sets` sets of 5 cards the file lists undecided and for which
the solver would ask a side question are checked one after the other on one kept solver, as an
audit's process does, with the side question asked as before (`--side ask`) or skipped because
the sets it would ask are known solvable (`--side skip`, what the audit does since its solver is
told what its facts know). Run the two side by side; prints each verdict and the counts.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from tower_print.brix.conflicts import read_conflict_file
from tower_print.brix.shape_library import shape_library
from tower_print.brix.solver import TowerSolver
from tower_print.brix.verify import open_deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", default="pink", choices=["green", "pink"])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--sets", type=int, default=40)
    parser.add_argument("--side", choices=["ask", "skip"], required=True)
    args = parser.parse_args()
    deck = open_deck(args.deck)
    known = read_conflict_file(Path(f"content/brix/conflicts/{args.deck}.yaml"), deck)
    assert known is not None and known.complete_up_to >= 4
    skip = args.side == "skip"
    solver = TowerSolver(deck.bricks, deck.all_used, library=shape_library(
        deck.bricks, deck.all_used), solvable_known=(
            lambda rest: skip and len(rest) <= known.complete_up_to))
    probe = TowerSolver(deck.bricks, deck.all_used)  # only to see which sets get one
    chosen = [ids for ids, _ in known.undecided if len(ids) == 5 and probe._side_question(
        probe._question([deck.card(i).item() for i in ids])) is not None][:args.sets]
    verdicts: Counter[str] = Counter()
    start = time.monotonic()
    for ids in chosen:
        began = time.monotonic()
        status, _, _ = solver.check([deck.card(i).item() for i in ids], began + args.timeout,
                                    any_tower=True)
        verdicts[status] += 1
        print(f"{' '.join(ids)}: {status} in {time.monotonic() - began:.1f} s", flush=True)
    print(f"side {args.side}: {len(chosen)} sets, {dict(verdicts)}, "
          f"{time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
