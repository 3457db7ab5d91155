"""Every tower of the pink deal P33 P43 P44 P32 P31 P24 with gray upright alone on the table,
enumerated: how many meet the cards, and whether any of them stands.

Why: the solver leaves this deal unknown (Z3 runs through falling candidates for as long as it
is given). By hand every other case falls to heights and contacts (see benchmarks/RESULTS.md,
"brix verify"): gray must have the strictly lowest top, so it is the only brick on the table
when it stands upright, and when it lies the cards run out of bricks to touch. This script
settles the case left without Z3: it builds every set of four bricks above gray in which each
brick rests on an earlier one (bricks taken in order of height, so each set once), keeps the
towers that meet the cards (the colour-free ones read by the evaluator; "some red brick touches
every yellow brick" in any colouring of the four, one brick of each colour), and asks the
statics LP whether any of them stands. Takes about ten minutes.
"""

from __future__ import annotations

import time
from itertools import permutations

from tower_print.brix.decks import shipped_deck
from tower_print.brix.evaluate import Evaluator, holds
from tower_print.brix.geometry import PlacedBrick, collide
from tower_print.brix.statics import stands

DEAL = ("P33", "P43", "P44", "P32", "P31", "P24")
COLOURS = ("yellow", "purple", "red", "blue")


def main() -> None:
    deck = shipped_deck("pink")
    cards = {c.id: c.condition for c in deck.cards if c.id in DEAL}
    bricks = deck.bricks
    extents = sorted(bricks.extents())
    gray = PlacedBrick("gray-1", "gray", 0, 0, 0, bricks.width, bricks.width, bricks.length)
    colour_free = [cards[k] for k in ("P43", "P24", "P31", "P33")]
    counts = {"towers": 0, "meet the colour-free cards": 0, "meet every card": 0, "stand": 0}
    start = time.monotonic()

    def grow(tower: tuple[PlacedBrick, ...]) -> None:
        if len(tower) == 5:
            counts["towers"] += 1
            named = _coloured(tower, COLOURS)
            judge = Evaluator(named, bricks)
            if not all(judge.condition(card) for card in colour_free):
                return
            counts["meet the colour-free cards"] += 1
            if not any(holds(cards["P32"], coloured, bricks) and holds(cards["P44"], coloured,
                                                                       bricks)
                       for coloured in _colourings(named)):
                return
            counts["meet every card"] += 1
            if stands(named, bricks.stability_margin):
                counts["stand"] += 1
                print("stands:", named)
            return
        last = _order(tower[-1]) if len(tower) > 1 else None
        for brick in sorted(_resting_places(tower, extents), key=_order):
            if last is None or _order(brick) > last:
                grow((*tower, brick))

    grow((gray,))
    for name, value in counts.items():
        print(f"{name:28} {value:>10}")
    print(f"{time.monotonic() - start:.0f} s")


def _order(b: PlacedBrick) -> tuple[int, ...]:
    return (b.z, b.x, b.y, b.dx, b.dy, b.dz)


def _resting_places(
    tower: tuple[PlacedBrick, ...], extents: list[tuple[int, int, int]]
) -> set[PlacedBrick]:
    """Every box resting on a brick of `tower` (sharing area with its top) and free."""
    found = set()
    for base in tower:
        for dx, dy, dz in extents:
            for x in range(base.x - dx + 1, base.x + base.dx):
                for y in range(base.y - dy + 1, base.y + base.dy):
                    box = PlacedBrick("", "", x, y, base.top, dx, dy, dz)
                    if not any(collide(box, other) for other in tower):
                        found.add(box)
    return found


def _coloured(tower: tuple[PlacedBrick, ...], order: tuple[str, ...]) -> tuple[PlacedBrick, ...]:
    """Gray as it is, the other bricks coloured in `order`, one brick of each colour."""
    gray, *rest = tower
    return (gray, *(PlacedBrick(f"{c}-1", c, b.x, b.y, b.z, b.dx, b.dy, b.dz)
                    for c, b in zip(order, rest, strict=True)))


def _colourings(tower: tuple[PlacedBrick, ...]) -> list[tuple[PlacedBrick, ...]]:
    return [_coloured(tower, order) for order in permutations(COLOURS)]


if __name__ == "__main__":
    main()
