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
from functools import partial

import numpy as np

from tower_print.brix.bricks import BrickSet
from tower_print.brix.checker import problems
from tower_print.brix.decks import Deck
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.in_processes import map_in_parts
from tower_print.brix.language import Condition, names_a_colour
from tower_print.brix.shape_library import box_of
from tower_print.brix.shapes import (
    Box,
    MergedMemo,
    Shape,
    Tower,
    arrangements,
    colour_mixes,
    coloured_tower,
    named_colours,
)


def recoloured(
    deck: Deck, tower: Tower, known: Callable[[int], bool],
) -> list[tuple[int, Tower]]:
    """(cards met, tower) for colourings of `tower` each meeting a set of cards that no other
    colouring's set holds and that `known` (is this set known solvable?) does not hold."""
    index = ColouringIndex(deck)
    index.add(tower)
    masks = index.masks()
    found = [(masks[row], index.tower(row))
             for row in sorted(range(len(masks)), key=lambda k: (-masks[k].bit_count(), masks[k]))
             if not known(masks[row])]
    return [(mask, other) for mask, other in found if deck.cards_met(other) == mask
            and not problems(other, deck.bricks, deck.all_used, [])]


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


class ColouringIndex:
    """Every set of cards some colouring of the towers added meets, one tower of each shape,
    looked up at once (`meeting`).

    Why: pink's eleventh round ran out of its first try (3 s) on 130 of the 544 sets of 6 cards
    it asked; 54 of them, and 55 of the 63 it found solvable, were met by a colouring of one of
    the 3,265 shapes of its file's towers, each a look-up. Of the sets of cards a shape's
    colourings meet only the largest are kept (one in twelve on pink's file), each with the
    first colouring meeting it, to rebuild as a tower, read again by the evaluator and the
    checker, as any witness."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.memo = ColourMemo(deck.bricks)
        self.words = _words(deck)
        self.tried: set[tuple[Box, ...]] = set()
        self.shapes: list[tuple[list[Box], list[tuple[int, ...]]]] = []  # slots, colour mixes
        self.met = np.zeros((0, self.words), dtype=np.uint64)  # the sets kept, one per row
        self.owner = np.zeros(0, dtype=np.int64)  # the shape (number) of each row
        self.colouring = np.zeros(0, dtype=np.int64)  # its colouring, counted over the mixes
        self.waiting: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # added since

    def add(self, tower: Tower) -> None:
        """Index every colouring of the tower's shape, unless one of that shape was added."""
        self.add_all([tower])

    def add_all(self, towers: Iterable[Tower], jobs: int = 1) -> None:
        """`add` each tower, the colourings of the new shapes judged in `jobs` processes."""
        new = []
        for tower in towers:
            shape = tuple(sorted(box_of(brick) for brick in tower))
            if shape not in self.tried:
                self.tried.add(shape)
                new.append(tower)
        work = _kept_colourings if jobs > 1 else partial(_kept_colourings, memo=self.memo)
        for kept in map_in_parts(work, self.deck, new, jobs, SHAPES_A_TASK):
            if kept is not None:
                rows, first, boxes, mixes = kept
                self.waiting.append((rows, np.full(len(rows), len(self.shapes)), first))
                self.shapes.append((boxes, mixes))

    def meeting(self, mask: int) -> tuple[int, Tower] | None:
        """(cards met, tower): a colouring meeting every card of `mask`, checked; or None."""
        self._gather()
        wanted = np.array([mask >> 64 * w & (1 << 64) - 1 for w in range(self.words)],
                          dtype=np.uint64)
        for row in np.flatnonzero(np.all(self.met & wanted == wanted, axis=1)):
            tower = self.tower(int(row))
            met = self.deck.cards_met(tower)
            if mask & ~met == 0 and not problems(tower, self.deck.bricks, self.deck.all_used, []):
                return met, tower
        return None

    def _gather(self) -> None:
        """Take the rows of the shapes added since into the arrays looked up."""
        if self.waiting:
            self.met, self.owner, self.colouring = (
                np.concatenate([whole, *parts]) for whole, *parts in zip(
                    (self.met, self.owner, self.colouring), *self.waiting, strict=True))
            self.waiting = []

    def masks(self) -> list[int]:
        """The set of cards each row kept stands for (bit k: card k)."""
        self._gather()
        return [sum(int(word) << 64 * w for w, word in enumerate(row)) for row in self.met]

    def tower(self, row: int) -> Tower:
        """The colouring a row was kept with, as a tower (not yet checked)."""
        boxes, mixes = self.shapes[self.owner[row]]
        number = int(self.colouring[row])
        for mix in mixes:
            colours = arrangements(mix)
            if number < len(colours):
                return coloured_tower(boxes, self.deck.bricks, colours[number])
            number -= len(colours)
        raise IndexError(row)


SHAPES_A_TASK = 200
"""Shapes one process judges at a time (`ColouringIndex.add_all`). Pink's file after its
twenty-second round, 34,501 towers of 3,434 shapes: 101 s in one process beside a running
round's two workers; its first 4,000 towers (1,746 shapes) 55 s in one, 42 s in two."""

Kept = tuple[np.ndarray, np.ndarray, list[Box], list[tuple[int, ...]]]


def _kept_colourings(
    deck: Deck, towers: Sequence[Tower], memo: ColourMemo | None = None,
) -> list[Kept | None]:
    """For each tower, the sets of cards its colourings meet (rows of words) that lie inside
    no other, the colouring first meeting each (counted over the mixes), its boxes and colour
    mixes; None when the rule allows no colouring of it. `memo`: one shared with earlier
    towers (judged in this process), else a fresh one."""
    memo = memo or ColourMemo(deck.bricks)
    words = _words(deck)
    plain = [k for k, card in enumerate(deck.cards) if not names_a_colour(card.condition)]
    coloured = [k for k, card in enumerate(deck.cards) if names_a_colour(card.condition)]
    kept: list[Kept | None] = []
    for tower in towers:
        colourings = Colourings(deck, tower, memo)
        count = sum(len(arrangements(mix)) for mix in colourings.mixes)
        if not count:
            kept.append(None)
            continue
        met = np.zeros((count, words), dtype=np.uint64)
        judge = Evaluator(tower, deck.bricks)
        for k in plain:  # colour-free: met in every colouring or none
            if judge.condition(deck.cards[k].condition):
                met[:, k // 64] |= np.uint64(1 << k % 64)
        for k in coloured:
            condition = deck.cards[k].condition
            verdict = np.concatenate([colourings.verdict(j, condition)
                                      for j in range(len(colourings.mixes))])
            met[:, k // 64] |= verdict.astype(np.uint64) << np.uint64(k % 64)
        rows, first = np.unique(met, axis=0, return_index=True)
        largest = _largest(rows)
        kept.append((rows[largest], first[largest], list(colourings.shape.boxes),
                     colourings.mixes))
    return kept


def _words(deck: Deck) -> int:
    """64-bit words a set of the deck's cards takes in the index: bit k of word k // 64."""
    return (len(deck.cards) + 63) // 64


def _largest(rows: np.ndarray) -> np.ndarray:
    """The numbers of the `rows` (sets of cards, as words) inside no other row."""
    order = np.argsort([-sum(int(word).bit_count() for word in row) for row in rows],
                       kind="stable")
    kept = np.ones(len(rows), dtype=bool)
    for k, row in enumerate(order):
        if kept[k]:
            later = rows[order[k + 1:]]
            kept[k + 1:] &= ~np.all(later & rows[row] == later, axis=1)
    return np.sort(order[kept])


def colourings_meeting(deck: Deck, towers: Iterable[Tower], sets: Iterable[int]
                       ) -> list[tuple[int, Tower]]:
    """(cards met, tower) for colourings of `towers` that meet `sets` (card masks): one for each
    set some colouring meets (`ColouringIndex`), the sets it meets besides left out after it;
    each read again by the evaluator and the checker, as any witness.

    Why: a conflicts file keeps each tower in the colours the set it was found for asked for;
    in other colours it meets other sets. Green's 15,372 towers settled 46 of the 195 sets its
    file listed as undecided (Z3 left each at 10 or 60 s) in 90 s."""
    index = ColouringIndex(deck)
    index.add_all(towers)
    found: list[tuple[int, Tower]] = []
    for mask in sorted(set(sets)):
        if not any(mask & ~met == 0 for met, _ in found):
            hit = index.meeting(mask)
            if hit is not None:
                found.append(hit)
    return found
