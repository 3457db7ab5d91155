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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from tower_print.brix.bricks import BrickSet
from tower_print.brix.checker import problems
from tower_print.brix.decks import Deck
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.language import Condition, names_a_colour
from tower_print.brix.marco import mask_of, members
from tower_print.brix.shape_library import box_of
from tower_print.brix.shapes import (
    MergedMemo,
    Shape,
    Tower,
    arrangements,
    colour_mixes,
    named_colours,
)


def recoloured(
    deck: Deck, tower: Tower, known: Callable[[int], bool],
) -> list[tuple[int, Tower]]:
    """(cards met, tower) for colourings of `tower` each meeting a set of cards that no other
    colouring's set holds and that `known` (is this set known solvable?) does not hold."""
    shape = Shape([box_of(brick) for brick in tower], deck.bricks)
    memo = ColourMemo(deck.bricks)
    best: dict[int, Tower] = {}
    for mix in colour_mixes(deck.bricks, deck.all_used, len(tower)):
        verdicts = np.stack([shape.meets_mix(card.condition, memo.named(card.condition), mix,
                                             memo.shared) for card in deck.cards], axis=1)
        rows, first = np.unique(verdicts, axis=0, return_index=True)
        for row, k in zip(rows, first, strict=True):
            best.setdefault(mask_of(np.flatnonzero(row).tolist()),
                            shape.tower(arrangements(mix)[k]))
    kept: list[int] = []
    for mask in sorted(best, key=lambda m: (-m.bit_count(), m)):
        if not known(mask) and not any(mask & ~other == 0 for other in kept):
            kept.append(mask)
    return [(mask, best[mask]) for mask in kept if deck.cards_met(best[mask]) == mask
            and not problems(best[mask], deck.bricks, deck.all_used, [])]


@dataclass
class ColourMemo:
    """What colourings decide alone, kept across the towers judged (`Shape.meets_mix`): the
    colours each condition names (by identity: the conditions must outlive the memo) and the
    colour-only selections of each block of merged colourings."""

    brick_set: BrickSet
    colours: dict[int, frozenset[int]] = field(default_factory=dict)
    shared: MergedMemo = field(default_factory=dict)

    def named(self, condition: Condition) -> frozenset[int]:
        if id(condition) not in self.colours:
            self.colours[id(condition)] = named_colours(condition, self.brick_set)
        return self.colours[id(condition)]


class Colourings:
    """One tower in every colouring the deck's rule allows (same boxes), judged on all of them
    at once (`Shape.meets_mix`), each condition once and on the colourings merged as it sees
    them: for a tower known to stand, 5 ms for green's 2,520 colourings and two cards, where
    building and judging each colouring took 380 ms. Merged, the audit's start on pink's file
    (18,871 towers, 215 undecided sets: `Explorer._recolour_known_towers`) took 51 s, not
    388 s (both beside two running audits on two cores)."""

    def __init__(self, deck: Deck, tower: Tower, memo: ColourMemo | None = None) -> None:
        self.deck = deck
        self.memo = memo or ColourMemo(deck.bricks)
        self.shape = Shape([box_of(brick) for brick in tower], deck.bricks)
        self.mixes = colour_mixes(deck.bricks, deck.all_used, len(tower))
        self.verdicts: list[dict[int, np.ndarray]] = [{} for _ in self.mixes]  # by id

    def meeting(self, conditions: Sequence[Condition]) -> Tower | None:
        """The first colouring meeting every condition (read again by the evaluator), or
        None. The conditions must live as long as this object (remembered by identity)."""
        for k, mix in enumerate(self.mixes):
            colours = arrangements(mix)
            met = np.ones(len(colours), dtype=bool)
            for condition in conditions:
                met &= self.verdict(k, condition)
                if not met.any():
                    break
            for row in np.flatnonzero(met):
                tower = self.shape.tower(colours[row])
                judge = Evaluator(tower, self.deck.bricks)
                if all(judge.condition(condition) for condition in conditions):
                    return tower
        return None

    def verdict(self, k: int, condition: Condition) -> np.ndarray:
        """Whether each colouring of mix number k meets `condition` (remembered)."""
        verdicts = self.verdicts[k]
        if id(condition) not in verdicts:
            verdicts[id(condition)] = self.shape.meets_mix(
                condition, self.memo.named(condition), self.mixes[k], self.memo.shared)
        return verdicts[id(condition)]

    def some_meet(self, sets: np.ndarray) -> np.ndarray:
        """For each row of `sets` (numbers of the deck's cards, padded with the number of
        cards): whether some colouring meets all of them by the shapes' verdicts (to be read
        again: `meeting`).

        Why: the audit's start tries each of a file's towers on hundreds of sets. One packed
        bit per colouring, each card's bits ANDed into every set holding it at once; the card
        taken next is the one most sets still open hold, so a card whose sets are all out
        already is never judged."""
        width = sum(len(arrangements(mix)) for mix in self.mixes)
        unmet = np.full((len(sets), (width + 7) // 8), 0xFF, dtype=np.uint8)
        pending = sets.copy()
        open_ = np.ones(len(sets), dtype=bool)
        while True:
            waiting = pending[open_]
            waiting = waiting[waiting < len(self.deck.cards)]
            if not waiting.size:
                return open_
            card = int(np.bincount(waiting).argmax())
            condition = self.deck.cards[card].condition
            bits = np.packbits(np.concatenate(
                [self.verdict(k, condition) for k in range(len(self.mixes))]))
            holding = pending == card
            rows = np.flatnonzero(holding.any(axis=1) & open_)
            unmet[rows] &= bits
            open_[rows] = unmet[rows].any(axis=1)
            pending[holding] = len(self.deck.cards)


def colourings_meeting(deck: Deck, towers: Iterable[Tower], sets: Iterable[int]
                       ) -> list[tuple[int, Tower]]:
    """(cards met, tower) for colourings of `towers` that meet `sets` (card masks): one for each
    set some colouring meets, the sets it meets besides left out of the search after it; each
    read again by the evaluator and the checker, as any witness.

    Why: a conflicts file keeps each tower in the colours the set it was found for asked for;
    in other colours it meets other sets. Green's 15,372 towers settled 46 of the 195 sets its
    file listed as undecided (Z3 left each at 10 or 60 s) in 90 s. A tower is read on the
    colour-free cards once (they hold in every colouring or none), so only the sets whose
    colour-free cards it meets are tried on it, all at once (`Colourings.some_meet`), and one
    tower of each shape: the others have the same colourings. On pink's file (26,735 towers in
    3,265 shapes, 2,788 undecided sets) 500 of the towers took 15 s one set at a time, 0.4 s
    so; all of them 39 s (482 sets settled), beside an audit on two cores."""
    order = sorted(set(sets))
    plain = mask_of(k for k, card in enumerate(deck.cards)
                    if not names_a_colour(card.condition))
    masks = np.array(order, dtype=object)  # Python ints: a deck may hold more than 64 cards
    coloured_cards = [members(mask & ~plain) for mask in order]
    rows = np.full((len(order), max(map(len, coloured_cards), default=0)), len(deck.cards))
    for row, cards in zip(rows, coloured_cards, strict=True):
        row[:len(cards)] = cards
    left = np.ones(len(order), dtype=bool)
    found: list[tuple[int, Tower]] = []
    memo = ColourMemo(deck.bricks)
    shapes_tried: set[tuple[tuple[int, ...], ...]] = set()
    for tower in towers:
        if not left.any():
            break
        shape = tuple(sorted(box_of(brick) for brick in tower))
        if shape in shapes_tried:
            continue  # the same colourings as a tower before it: nothing new to meet
        shapes_tried.add(shape)
        judge = Evaluator(tower, deck.bricks)
        plain_unmet = plain & ~mask_of(k for k in members(plain)
                                       if judge.condition(deck.cards[k].condition))
        reachable = np.flatnonzero(left & (masks & plain_unmet == 0).astype(bool))
        if not reachable.size:
            continue
        recoloured = Colourings(deck, tower, memo)
        for k in reachable[recoloured.some_meet(rows[reachable])]:
            if not left[k]:
                continue  # met by a colouring found for a set before it
            coloured = recoloured.meeting([deck.cards[card].condition
                                           for card in coloured_cards[k]])
            if coloured is None or problems(coloured, deck.bricks, deck.all_used, []):
                continue
            met = deck.cards_met(coloured)
            found.append((met, coloured))
            left &= (masks & ~met != 0).astype(bool)
    return found
