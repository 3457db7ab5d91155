"""Does splitting a question by its number of upright bricks decide what the whole did not?

    python benchmarks/brix_split_cases.py --deck pink --timeout 60 \\
        --sets "P28 P34 P48 P51" "P08 P34 P42 P44" "P26 P31 P44 P50"
    python benchmarks/brix_split_cases.py --deck pink --timeout 60 --unknowns CACHE.jsonl
    python benchmarks/brix_split_cases.py --deck pink --timeout 60 --ways "by cases" "by cases,
        hint" --hint masterpiece --undecided content/brix/conflicts/pink.yaml --jobs 2

Each set is asked twice, each time on a fresh solver with `--timeout` seconds: whole
(`TowerSolver.check`, any tower), and split into one question per upright count
(`TowerSolver.check_by_cases`, what an audit asks once a set runs out of time), and with
--hint NAME split after a first question with that challenge as a hint (a third of the time;
"by cases, hint"); --ways picks among them. Prints the verdicts and times per set, and the
counts of sets each decided. `--unknowns` takes the sets an audit's cache log (`--cache`
folder, a .jsonl file per deck) left undecided, `--undecided` those a conflicts file lists
undecided. Every tower is
re-verified by the checker inside the solver; a conflict from the split is asked whole once
more (`--timeout`), and a verdict that disagrees stops the run.

Results (2026-12-02, `--ways "by cases" "by cases, hint" --hint masterpiece --timeout 60`, one
process per deck side by side): the sets the shipped files listed undecided at the start of
the forty-seventh session (all 20 of green's, the first 20 of pink's 33). Green: by cases 4
decided, with the hint 8 (the 4 more all solvable, towers in 12-24 s); the one unsolvable set,
G26 G27 G32 G40 G44, took 50.3 s instead of 41.5 s. Pink: 0 and 3 (towers in 4-10 s). So the
audit's retry asks the hint first (`audit.HINT_CHALLENGE`).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tower_print.brix.challenges import default_challenges
from tower_print.brix.conflicts import conflicts_to_take
from tower_print.brix.decks import Deck
from tower_print.brix.solver import SOLVABLE, UNSOLVABLE, TowerSolver
from tower_print.brix.verify import open_deck

WAYS = ("whole", "by cases", "by cases, hint")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", default="pink")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--sets", nargs="*", default=[], help="card ids, a quoted set each")
    parser.add_argument("--unknowns", type=Path, help="an audit cache log (.jsonl)")
    parser.add_argument("--undecided", type=Path, help="a conflicts file of the deck")
    parser.add_argument("--hint", help="a challenge asked first in the way 'by cases, hint'")
    parser.add_argument("--ways", nargs="+", choices=WAYS, default=list(WAYS[:2]))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if WAYS[2] in args.ways and not args.hint:
        raise SystemExit(f"'{WAYS[2]}' needs --hint")
    sets = [tuple(s.split()) for s in args.sets]
    if args.unknowns:
        sets += _unknowns(args.unknowns)
    if args.undecided:
        sets += [tuple(ids) for ids, _ in
                 conflicts_to_take(args.undecided, open_deck(args.deck)).undecided]
    sets = list(dict.fromkeys(sets))
    decided = dict.fromkeys(args.ways, 0)
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(_ask, args.deck, cards, args.timeout, args.ways, args.hint)
                for cards in sets]
        for cards, job in zip(sets, jobs, strict=True):
            answers = job.result()
            line = "; ".join(f"{how} {status} {seconds:.1f} s{' ' + extra if extra else ''}"
                             for how, status, seconds, extra in answers)
            print(f"{' '.join(cards)}: {line}", flush=True)
            for how, status, _, _ in answers:
                decided[how] += status in (SOLVABLE, UNSOLVABLE)
    print(f"{len(sets)} sets at {args.timeout:g} s: decided "
          + ", ".join(f"{how} {count}" for how, count in decided.items()))


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


def _ask(deck_name: str, cards: tuple[str, ...], timeout: float, ways: list[str],
         hint_name: str | None) -> list[tuple[str, str, float, str]]:
    """(how, status, seconds, the conflict's cards or "") asked each of the `ways`."""
    deck: Deck = open_deck(deck_name)
    items = [deck.card(c).item() for c in cards]
    hint = (default_challenges(deck.bricks.color_names).get(hint_name).item()
            if hint_name else None)
    answers = []
    for how in ways:
        solver = TowerSolver(deck.bricks, deck.all_used)
        start = time.monotonic()
        deadline = start + timeout
        status, _, conflict = (solver.check(items, deadline, any_tower=True) if how == WAYS[0]
                               else solver.check_by_cases(
                                   items, deadline, hint if how == WAYS[2] else None))
        seconds = time.monotonic() - start
        named = " ".join(it.label for it in conflict)
        if how != WAYS[0] and status == UNSOLVABLE:
            again = TowerSolver(deck.bricks, deck.all_used).check(
                list(conflict), time.monotonic() + timeout, any_tower=True)[0]
            if again == SOLVABLE:
                raise SystemExit(f"{' '.join(cards)}: the split's conflict {named} is solvable")
            named += f" (asked whole: {again})"
        answers.append((how, status, seconds, named))
    return answers


if __name__ == "__main__":
    main()
