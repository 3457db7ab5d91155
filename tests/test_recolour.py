"""A witness tower in every colouring: what the audit learns from one hard-won tower."""

from __future__ import annotations

from itertools import permutations

from tower_print.brix.checker import problems
from tower_print.brix.decks import shipped_deck
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.recolour import recoloured
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
