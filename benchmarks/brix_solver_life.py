"""How long should an audit worker keep its solver? The sets an audit checked, asked again in
the same order under each renewal policy, the policies side by side (one process each).

    python benchmarks/brix_solver_life.py --deck pink --cache /tmp/pink23/cache --sets 26 \\
        --limit 30 --tier 15 --policy 1:inf --policy 25:inf

`--cache`: an audit's cache folder; its sets are those it checked (decided by a check, or out
of time at `--tier` seconds), in the order it logged them. Each is asked as the audit asks a
try (`SeedDecider.check` with `short`, `--limit` seconds) by a decider whose solver is renewed
after `checks:seconds` (`audit.SOLVER_LIFE`, `audit.SOLVER_SEARCH`: `inf` for never). Run
beside a running audit, each process gets less than a core: give a longer `--limit`.

Results (2026-12-07, eighty-fourth session): see `audit.SOLVER_SEARCH` and
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tower_print.brix import audit
from tower_print.brix.marco import mask_of
from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE
from tower_print.brix.verify import open_deck


def checked_sets(folder: Path, tier: float) -> list[tuple[str, ...]]:
    """The seeds the audit logged as decided by a check or out of time at `tier`, in order."""
    sets = []
    for log in sorted(folder.glob("*.jsonl")):
        for line in log.read_text().splitlines():
            record = json.loads(line)
            if (record.get("kind") == UNKNOWN and record.get("timeout") == tier) or (
                    record.get("kind") in (SOLVABLE, UNSOLVABLE) and record.get("checks", 0)):
                sets.append(tuple(record["seed"]))
    return sets


def ask(deck_name: str, sets: list[tuple[str, ...]], limit: float, policy: str,
        ) -> list[tuple[str, float]]:
    """(status, seconds) for each set, asked in turn under the renewal `policy`."""
    checks, seconds = policy.split(":")
    audit.SOLVER_LIFE = int(checks)
    audit.SOLVER_SEARCH = float(seconds)
    deck = open_deck(deck_name)
    index = {card.id: k for k, card in enumerate(deck.cards)}
    answers = []
    with tempfile.TemporaryDirectory() as folder:
        decider = audit.SeedDecider(deck, audit.AuditSettings(seed=0),
                                    audit.AuditLog(Path(folder), deck))
        for cards in sets:
            start = time.monotonic()
            status, _, _ = decider.check(mask_of(index[c] for c in cards),
                                         audit.Outcome(0, UNKNOWN, 0), short=limit)
            answers.append((status, time.monotonic() - start))
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", default="pink")
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--tier", type=float, default=15.0)
    parser.add_argument("--sets", type=int, default=30)
    parser.add_argument("--limit", type=float, default=15.0)
    parser.add_argument("--policy", action="append", required=True,
                        help="checks:seconds of a solver's life, e.g. 25:inf or 25:15")
    args = parser.parse_args()
    sets = checked_sets(args.cache, args.tier)[:args.sets]
    with ProcessPoolExecutor(len(args.policy)) as pool:
        runs = list(pool.map(ask, *zip(*[(args.deck, sets, args.limit, policy)
                                          for policy in args.policy], strict=True)))
    for k, cards in enumerate(sets):
        print(f"{k:3} {' '.join(cards)}: " + "; ".join(
            f"{policy} {status} {seconds:.1f} s"
            for policy, (status, seconds) in zip(args.policy, (run[k] for run in runs),
                                                 strict=True)), flush=True)
    both = [k for k in range(len(sets)) if all(run[k][0] != UNKNOWN for run in runs)]
    for policy, run in zip(args.policy, runs, strict=True):
        decided = sum(status != UNKNOWN for status, _ in run)
        print(f"{policy}: {decided} of {len(sets)} decided in {sum(s for _, s in run):.0f} s; "
              f"the {len(both)} every policy decided in {sum(run[k][1] for k in both):.1f} s")


if __name__ == "__main__":
    main()
