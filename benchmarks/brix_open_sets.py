"""How far a deck's conflicts file is from complete for the next size of card set: of every
set of that many cards, how many a tower meets (the file's or the audit pool's), how many hold
a listed conflict, and how many are still open (the next audit's work at that size).

    python benchmarks/brix_open_sets.py                       # both decks, the shipped files
    python benchmarks/brix_open_sets.py --deck green --conflicts /tmp/green.yaml --sizes 5 6

The pool is the one an audit with the same --seed and --samples draws first (its sets met are
known to every audit), so the open sets are those an audit taking the file --known would still
have to decide. Sets listed as undecided are counted among the open ones (and apart).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from tower_print.brix.audit import AuditSettings, _pool_chunk, pool_chunks
from tower_print.brix.conflicts import ConflictFile, card_masks, conflicts_folder, current_file
from tower_print.brix.decks import DECK_NAMES, Deck, shipped_deck
from tower_print.brix.new_sets import SetsOfSize, open_sets_of_size


def pool_masks(deck: Deck, seed: int, samples: int, jobs: int) -> list[int]:
    """The card sets met by the audit's tower pool, drawn as `Explorer._sample_pool` does."""
    with ProcessPoolExecutor(jobs) as executor:
        parts = executor.map(_pool_chunk, *zip(*[(deck, seed, k, n)
                                                 for k, n in pool_chunks(samples)], strict=True))
        return [mask for part in parts for mask in part]


def conflict_masks(deck: Deck, known: ConflictFile) -> set[int]:
    """The file's conflicts, minimised or not, as card masks."""
    return set(card_masks(deck, (*known.sets, *known.unminimised)))


def sets_marked(deck: Deck, known: ConflictFile, size: int, met: Iterable[int]
                ) -> tuple[SetsOfSize, np.ndarray]:
    """The sets of `size` cards, those inside a set `met` marked, and which hold one of the
    file's conflicts."""
    sets = SetsOfSize(len(deck.cards), size)
    for mask in met:
        sets.mark_inside(mask)
    held = np.zeros(math.comb(len(deck.cards), size), dtype=bool)
    for conflict in conflict_masks(deck, known):
        if conflict.bit_count() <= size:
            held[sets.ranks_holding(conflict)] = True
    return sets, held


def open_sets(deck: Deck, known: ConflictFile, seed: int, samples: int, jobs: int
              ) -> list[int]:
    """The card masks of the sets of one card more than the file is complete for that no
    tower of it or of the audit's pool meets and that hold none of its conflicts."""
    met = {deck.cards_met(tower) for tower in known.towers}
    met.update(pool_masks(deck, seed, samples, jobs))
    return open_sets_of_size(len(deck.cards), known.complete_up_to + 1, met,
                             conflict_masks(deck, known), jobs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", choices=DECK_NAMES, action="append")
    parser.add_argument("--conflicts", type=Path, help="a conflicts file (one --deck)")
    parser.add_argument("--sizes", type=int, nargs="*",
                        help="set sizes (default: one more than the file is complete for)")
    parser.add_argument("--seed", type=int, default=AuditSettings.seed)
    parser.add_argument("--samples", type=int, default=AuditSettings.samples)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"{'deck':6} {'size':>4} {'sets':>10} {'met by a tower':>15} {'hold a conflict':>16} "
          f"{'open':>7} {'of them undecided':>18} {'s':>6}")
    for name in args.deck or DECK_NAMES:
        started = time.perf_counter()
        deck = shipped_deck(name)
        path = args.conflicts or conflicts_folder() / f"{name}.yaml"
        known = current_file(path, deck)
        met = {deck.cards_met(tower) for tower in known.towers}
        met.update(pool_masks(deck, args.seed, args.samples, args.jobs))
        undecided = card_masks(deck, [ids for ids, _ in known.undecided])
        for size in args.sizes or [known.complete_up_to + 1]:
            sets, held = sets_marked(deck, known, size, met)
            unmet = ~sets.met & ~held
            listed = sum(1 for mask in undecided if mask.bit_count() == size
                         and unmet[sets.ranks(mask)[0]])
            print(f"{name:6} {size:4} {len(held):10,} {int(sets.met.sum()):15,} "
                  f"{int(held.sum()):16,} {int(unmet.sum()):7,} {listed:18,} "
                  f"{time.perf_counter() - started:6.1f}")


if __name__ == "__main__":
    main()
