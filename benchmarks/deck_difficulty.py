"""How hard is each card? The share of seeded random stable towers that meet it, per deck.

    python benchmarks/deck_difficulty.py                      # both decks, 2000 towers each
    python benchmarks/deck_difficulty.py --deck pink --samples 5000 --seed 3

A card met by few random towers is hard to meet by chance; the points on a card should follow
that (3-point cards well below 2-point cards). Towers come from tower_print.brix.sampling under
the deck's rule; cards are judged by the plain-Python evaluator. Same seed, same numbers.
"""

from __future__ import annotations

import argparse
import time

from tower_print.brix.decks import DECK_NAMES, shipped_deck
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.sampling import sample_towers


def report(name: str, samples: int, seed: int) -> None:
    deck = shipped_deck(name)
    start = time.perf_counter()
    towers = sample_towers(deck.bricks, deck.all_used, samples, seed=seed)
    sampled = time.perf_counter() - start
    judges = [Evaluator(tower, deck.bricks) for tower in towers]
    by_points: dict[int, list[float]] = {}
    print(f"{name} deck: {len(deck.cards)} cards, {samples} towers (seed {seed}, "
          f"sampled in {sampled:.1f} s)")
    for card in deck.cards:
        share = sum(judge.condition(card.condition) for judge in judges) / samples
        by_points.setdefault(card.points, []).append(share)
        print(f"  {card.id}  {card.points} pt  {share:6.3f}  {card.source}")
    for points, shares in sorted(by_points.items()):
        print(f"  mean share of {points}-point cards: {sum(shares) / len(shares):.3f} "
              f"(min {min(shares):.3f}, max {max(shares):.3f}, {len(shares)} cards)")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", choices=DECK_NAMES, action="append",
                        help="deck to measure (repeatable; default: all)")
    parser.add_argument("--samples", type=int, default=2000, help="random towers per deck")
    parser.add_argument("--seed", type=int, default=7, help="random seed")
    args = parser.parse_args()
    for name in args.deck or DECK_NAMES:
        report(name, args.samples, args.seed)


if __name__ == "__main__":
    main()
