"""Does splitting a question by its number of upright bricks decide what the whole did not?

    python benchmarks/brix_split_cases.py --deck pink --timeout 60 \\
        --sets "P28 P34 P48 P51" "P08 P34 P42 P44" "P26 P31 P44 P50"
    python benchmarks/brix_split_cases.py --deck pink --timeout 60 --unknowns CACHE.jsonl

Each set is asked twice, each time on a fresh solver with `--timeout` seconds: whole
(`TowerSolver.check`, any tower), and split into one question per upright count
(`TowerSolver.check_by_cases`, what an audit asks once a set runs out of time). Prints both
verdicts and times per set, and the counts of sets each decided. `--unknowns` takes the sets
an audit's cache log (`--cache` folder, a .jsonl file per deck) left undecided. Every tower is
re-verified by the checker inside the solver; a conflict from the split is asked whole once
more (`--timeout`), and a verdict that disagrees stops the run.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tower_print.brix.decks import Deck
from tower_print.brix.solver import SOLVABLE, UNSOLVABLE, TowerSolver
from tower_print.brix.verify import open_deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default="pink")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--sets", nargs="*", default=[], help="card ids, a quoted set each")
    parser.add_argument("--unknowns", type=Path, help="an audit cache log (.jsonl)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    sets = [tuple(s.split()) for s in args.sets]
    if args.unknowns:
        sets += _unknowns(args.unknowns)
    sets = list(dict.fromkeys(sets))
    decided = {"whole": 0, "by cases": 0}
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(_ask, args.deck, cards, args.timeout) for cards in sets]
        for cards, job in zip(sets, jobs, strict=True):
            answers = job.result()
            line = "; ".join(f"{how} {status} {seconds:.1f} s{' ' + extra if extra else ''}"
                             for how, status, seconds, extra in answers)
            print(f"{' '.join(cards)}: {line}", flush=True)
            for how, status, _, _ in answers:
                decided[how] += status in (SOLVABLE, UNSOLVABLE)
    print(f"{len(sets)} sets at {args.timeout:g} s: decided whole {decided['whole']}, "
          f"by cases {decided['by cases']}")


def _unknowns(log: Path) -> list[tuple[str, ...]]:
    """The sets the audit log left undecided, and never decided later."""
    undecided: dict[tuple[str, ...], bool] = {}
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record.get("kind") == "unknown":
            undecided.setdefault(tuple(record["seed"]), True)
        elif record.get("kind") in (SOLVABLE, UNSOLVABLE) and "seed" in record:
            undecided[tuple(record["seed"])] = False
    return [cards for cards, still in undecided.items() if still]


def _ask(deck_name: str, cards: tuple[str, ...], timeout: float
         ) -> list[tuple[str, str, float, str]]:
    """(how, status, seconds, the conflict's cards or "") asked whole, then by cases."""
    deck: Deck = open_deck(deck_name)
    items = [deck.card(c).item() for c in cards]
    answers = []
    for how in ("whole", "by cases"):
        solver = TowerSolver(deck.bricks, deck.all_used)
        start = time.monotonic()
        deadline = start + timeout
        status, _, conflict = (solver.check(items, deadline, any_tower=True) if how == "whole"
                               else solver.check_by_cases(items, deadline))
        seconds = time.monotonic() - start
        named = " ".join(it.label for it in conflict)
        if how == "by cases" and status == UNSOLVABLE:
            again = TowerSolver(deck.bricks, deck.all_used).check(
                list(conflict), time.monotonic() + timeout, any_tower=True)[0]
            if again == SOLVABLE:
                raise SystemExit(f"{' '.join(cards)}: the split's conflict {named} is solvable")
            named += f" (asked whole: {again})"
        answers.append((how, status, seconds, named))
    return answers


if __name__ == "__main__":
    main()
