"""A witness tower in every colouring: what the audit learns from one hard-won tower."""

from __future__ import annotations

from itertools import permutations

import pytest

from tower_print.brix import recolour
from tower_print.brix.checker import problems
from tower_print.brix.decks import Deck, shipped_deck
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import names_a_colour
from tower_print.brix.marco import mask_of, members
from tower_print.brix.recolour import ColouringIndex, colourings_meeting, recoloured
from tower_print.brix.sampling import sample_towers
from tower_print.brix.shape_library import box_of


def _every_colouring(tower: tuple[PlacedBrick, ...]) -> list[tuple[PlacedBrick, ...]]:
    """The tower's colours permuted over its places, bricks named in order of their colour:
    an enumeration of its own, independent of `shapes.colourings`."""
    out = []
    for colours in set(permutations(b.color for b in tower)):
        names = {colour: [b.name for b in tower if b.color == colour] for colour in colours}
        bricks = [PlacedBrick(names[colour].pop(), colour, *box_of(brick))
                  for brick, colour in zip(tower, colours, strict=True)]
        out.append(tuple(bricks))
    return out


def test_recoloured_towers_stand_claim_the_truth_and_cover_every_colouring() -> None:
    deck = shipped_deck("green")
    tower = sample_towers(deck.bricks, True, 1, seed=3)[0]
    base = deck.cards_met(tower)
    found = recoloured(deck, tower, lambda mask: mask & ~base == 0)
    assert found
    masks = [mask for mask, _ in found]
    for mask, other in found:
        assert problems(other, deck.bricks, deck.all_used, []) == []  # it stands, by the rules
        assert deck.cards_met(other) == mask
        assert mask & ~base  # more than the tower itself met
        assert sorted(map(box_of, other)) == sorted(map(box_of, tower))  # the same shape
    assert not any(a != b and a & ~b == 0 for a in masks for b in masks)  # none inside another
    for colouring in _every_colouring(tower):  # nothing a colouring meets is left out
        met = deck.cards_met(colouring)
        assert met & ~base == 0 or any(met & ~mask == 0 for mask in masks)


@pytest.fixture(scope="module")
def green_colourings() -> tuple[Deck, tuple[PlacedBrick, ...], list[int]]:
    """Green's deck, a sampled tower and the cards each of its colourings meets (by the
    independent enumeration above)."""
    deck = shipped_deck("green")
    tower = sample_towers(deck.bricks, True, 1, seed=5)[0]
    return deck, tower, [deck.cards_met(c) for c in _every_colouring(tower)]


def _sets_around(deck: Deck, tower: tuple[PlacedBrick, ...], mets: list[int]
                 ) -> tuple[list[int], list[int]]:
    """Sets of 4 cards naming colours, each met by some colouring (`mets`) but not by the tower
    as it is, and sets no colouring meets."""
    base = deck.cards_met(tower)
    coloured = mask_of(k for k, c in enumerate(deck.cards) if names_a_colour(c.condition))
    reachable = sorted({mask_of(members(met & coloured & ~base)[:4]) for met in mets
                        if (met & coloured & ~base).bit_count() >= 4})[:6]
    unreachable = [mask_of(members(coloured)[i:i + 4]) for i in range(0, 20, 4)]
    unreachable = [m for m in unreachable if not any(m & ~met == 0 for met in mets)][:3]
    assert len(reachable) >= 3 and unreachable  # the test asks something
    return reachable, unreachable


def _settled(deck: Deck, towers: list[tuple[PlacedBrick, ...]], sets: list[int]) -> list[int]:
    found = colourings_meeting(deck, towers, sets)
    for met, other in found:
        assert deck.cards_met(other) == met
        assert problems(other, deck.bricks, deck.all_used, []) == []
    return [m for m in sets if any(m & ~met == 0 for met, _ in found)]


def test_colourings_meeting_settles_exactly_the_sets_some_colouring_meets(
    green_colourings: tuple[Deck, tuple[PlacedBrick, ...], list[int]],
) -> None:
    deck, tower, mets = green_colourings
    reachable, unreachable = _sets_around(deck, tower, mets)
    found = colourings_meeting(deck, [tower], [*reachable, *unreachable])
    for met, other in found:
        assert met in mets
        assert sorted(map(box_of, other)) == sorted(map(box_of, tower))
    assert _settled(deck, [tower], [*reachable, *unreachable]) == reachable


def test_a_shape_settles_the_same_sets_whatever_its_colours_and_order(
    green_colourings: tuple[Deck, tuple[PlacedBrick, ...], list[int]],
) -> None:
    """`colourings_meeting` tries one tower of each shape (boxes in any order): sound only if
    any other colouring, its bricks listed in another order, settles the same sets."""
    deck, tower, mets = green_colourings
    sets = [*sum(_sets_around(deck, tower, mets), [])]
    other = min(_every_colouring(tower), key=lambda t: [b.name for b in t])[::-1]
    assert deck.cards_met(other) != deck.cards_met(tower)
    assert _settled(deck, [other], sets) == _settled(deck, [tower], sets)


def test_the_index_is_the_same_built_in_several_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An audit builds its file's index in `--jobs` processes (`ColouringIndex.add_all`):
    the same rows, in the same order, rebuilt as the same towers."""
    monkeypatch.setattr(recolour, "SHAPES_A_TASK", 2)
    deck = shipped_deck("green")
    towers = sample_towers(deck.bricks, True, 5, seed=7)
    here, spread = ColouringIndex(deck), ColouringIndex(deck)
    for tower in towers:
        here.add(tower)
    spread.add_all([*towers, towers[0]], jobs=2)  # a shape added again is passed over
    assert len(here.shapes) == len(towers) and spread.masks() == here.masks()
    assert [spread.tower(row) for row in range(len(here.masks()))] == [
        here.tower(row) for row in range(len(here.masks()))]
