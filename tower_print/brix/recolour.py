"""A witness tower in every colouring the deck's rule allows: many towers for the price of one.

Why: all bricks have one size and weight, so a tower that stands stands in every colouring
(`shapes`), and meets the same colour-free cards; the cards naming colours it meets change with
the colouring. The sets near a hard card (a generated deck's "each brick touches at least three
bricks") are each met by a rare kind of tower that the solver takes seconds to minutes to find;
one such tower, recoloured, meets many of the other sets holding that card, which the audit then
need not ask about (benchmarks/RESULTS.md, forty-ninth session).

The colourings are judged at once by `shapes.Shape.meets`; the ones kept are rebuilt as towers,
and what they meet is read again by the evaluator and their standing by the independent checker,
as for any witness.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tower_print.brix.checker import problems
from tower_print.brix.decks import Deck
from tower_print.brix.marco import mask_of
from tower_print.brix.shape_library import box_of
from tower_print.brix.shapes import Shape, Tower, colourings


def recoloured(
    deck: Deck, tower: Tower, known: Callable[[int], bool],
) -> list[tuple[int, Tower]]:
    """(cards met, tower) for colourings of `tower` each meeting a set of cards that no other
    colouring's set holds and that `known` (is this set known solvable?) does not hold."""
    shape = Shape([box_of(brick) for brick in tower], deck.bricks)
    best: dict[int, Tower] = {}
    for colours in colourings(deck.bricks, deck.all_used, len(tower)):
        shared: dict[object, np.ndarray] = {}
        verdicts = np.stack([shape.meets(card.condition, colours, shared)
                             for card in deck.cards], axis=1)
        rows, first = np.unique(verdicts, axis=0, return_index=True)
        for row, k in zip(rows, first, strict=True):
            best.setdefault(mask_of(np.flatnonzero(row).tolist()), shape.tower(colours[k]))
    kept: list[int] = []
    for mask in sorted(best, key=lambda m: (-m.bit_count(), m)):
        if not known(mask) and not any(mask & ~other == 0 for other in kept):
            kept.append(mask)
    return [(mask, best[mask]) for mask in kept if deck.cards_met(best[mask]) == mask
            and not problems(best[mask], deck.bricks, deck.all_used, [])]
