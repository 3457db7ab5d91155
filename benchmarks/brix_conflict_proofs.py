"""What does proving a deck's known conflicts cost, one solver check each?

    python benchmarks/brix_conflict_proofs.py --deck green --sample 80 --jobs 2
    python benchmarks/brix_conflict_proofs.py --deck pink --sample 80 --jobs 2

A complete audit has to list every minimal conflict of the deck, and a conflict is listed only
once a solver check has found exactly its cards unsolvable (a proof of a larger set whose core
happens to be the conflict would do too). So the checks of the conflicts already known, each
asked on its own with the audit's own code (`SeedDecider`: the audit's solver, kept across
checks as each audit process keeps it, a fresh one tried when it runs out of time; the same
time limits), estimate a floor under any complete audit's worker time, whatever order its
search takes; the audit also needs a tower for each card of each conflict (its minimality) and
a tower for every maximal solvable set, and more conflicts than are known so far.

Takes a seeded random sample of the shipped conflicts file (`--sample`, 0: all of them), checks
each, and prints the seconds by size, and the sum over the whole file extrapolated from the
sample (a 95 % interval by the normal approximation), against the worker time of a 30-minute
audit on `--jobs` cores. A check that runs out of time counts with the time it took, so the
sum is low where any did (each such set is printed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from tower_print.brix.audit import AuditLog, AuditSettings, SeedDecider, largest_deal
from tower_print.brix.conflicts import card_masks, conflicts_folder, conflicts_to_take
from tower_print.brix.decks import Deck
from tower_print.brix.marco import members
from tower_print.brix.solver import UNSOLVABLE
from tower_print.brix.verify import open_deck

AUDIT_SECONDS = 1800.0
"""The issue's target for a complete audit of a shipped deck."""

_decider: SeedDecider | None = None


def _start(deck: Deck, settings: AuditSettings, folder: str) -> None:
    global _decider
    _decider = SeedDecider(deck, settings, AuditLog(Path(folder), deck))


def _prove(mask: int) -> tuple[int, str, float, int]:
    """(mask, status, seconds, cards in the core or met by the witness)."""
    assert _decider is not None
    start = time.monotonic()
    outcome = _decider.decide(mask, shrink=False)
    return mask, outcome.kind, time.monotonic() - start, outcome.mask.bit_count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", default="green", help="green or pink")
    parser.add_argument("--sample", type=int, default=80, help="conflicts to check (0: all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=AuditSettings.timeout)
    args = parser.parse_args()
    deck = open_deck(args.deck)
    known = conflicts_to_take(conflicts_folder() / f"{deck.name}.yaml", deck)
    masks = sorted(card_masks(deck, known.sets))
    sample = random.Random(args.seed).sample(masks, min(args.sample, len(masks)) or len(masks))
    settings = AuditSettings(timeout=args.timeout, max_cards=largest_deal(deck))
    seconds: dict[int, list[float]] = defaultdict(list)
    statuses: Counter[str] = Counter()
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as folder, ProcessPoolExecutor(
            args.jobs, mp_context=get_context("spawn"), initializer=_start,
            initargs=(deck, settings, folder)) as pool:
        for mask, status, took, found in pool.map(_prove, sample):
            seconds[mask.bit_count()].append(took)
            statuses[status] += 1
            if status != UNSOLVABLE or found != mask.bit_count():
                ids = " ".join(deck.cards[k].id for k in members(mask))
                print(f"  {status} ({found} of {mask.bit_count()} cards): {ids}")
    wall = time.monotonic() - start
    every = [s for times in seconds.values() for s in times]
    print(f"deck {deck.name}: {len(sample)} of its {len(masks)} known conflicts checked, "
          f"{args.jobs} jobs, {args.timeout:g} s per check; {wall:.0f} s wall; "
          + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    for size in sorted(seconds):
        times = sorted(seconds[size])
        print(f"  {size:2d} cards: {len(times):3d} checks, "
              f"median {statistics.median(times):6.2f} s, mean {statistics.mean(times):6.2f} s, "
              f"max {times[-1]:6.2f} s")
    mean, scale = statistics.mean(every), len(masks)
    # The sample is drawn without replacement: its error shrinks to nothing as it nears the file.
    spread = (statistics.stdev(every) / len(every) ** 0.5
              * ((scale - len(every)) / max(scale - 1, 1)) ** 0.5 if len(every) > 1 else 0.0)
    budget = AUDIT_SECONDS * args.jobs
    low, high = (mean - 1.96 * spread) * scale, (mean + 1.96 * spread) * scale
    print(f"  worker time to prove all {len(masks)} once: {mean * scale:.0f} s "
          f"(95 %: {max(low, 0):.0f}-{high:.0f} s) against {budget:.0f} s of worker time in "
          f"{AUDIT_SECONDS / 60:.0f} minutes on {args.jobs} cores "
          f"({mean * scale / budget:.2f} of it)")


if __name__ == "__main__":
    main()
