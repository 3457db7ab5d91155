"""Every tower of at most n bricks standing on one upright brick alone on the table, enumerated in
plain Python: does any of them stand and meet the cards?

    python benchmarks/brix_pillar_enumeration.py --deck pink --cards P08 P13 P20 P44 P50 \
        --bricks 6 --height 5
    python benchmarks/brix_pillar_enumeration.py --deck pink --cards P08 P13 P20 P44 P50 \
        --bricks 6 --height 5 --record content/brix/conflicts/pink.yaml  # proof or tower

Why: pink's P08 ("the gray brick stands upright") and P44 ("every other brick's top is higher
than the gray brick's") leave the gray brick alone on the table, upright, with everything else
balanced on its small top; audits leave 29 sets of 5 cards holding both undecided at 60 s or
more. With few bricks such towers can be listed: five (P33) take minutes, six (P04, P50)
about 80 times as many towers, out of reach without a bound that cuts falling towers early.

Facts (Z3 proves each from the cards: no standing tower meets them and the fact's negation,
`PILLAR_FACTS` and the count): one brick touches the table and it stands upright, there are at
most n bricks, and (--height) the tower is at least that many flat bricks tall.

How: the upright brick at x = y = 0 (a tower is enumerated once, up to translation); then bricks
taken in order of (z, x, y, extent), each resting on an earlier one (so none but the first is
on the table, and each tower comes once, its bricks in that order), pairwise free; a tower that
can no longer reach --height with the bricks left is dropped. Each tower of a size the deck's
rule allows is read on the colour-free cards (the Evaluator), then statics.stands, then the
cards naming colours in every colouring the deck allows (`recolour.Colourings`).

Results (2026-12-04, beside other runs): validation on the solvable P08 P33 P43 P44 (--bricks
5; pink's file is complete up to 4 cards): 13,249,418 towers, 222,491 meet the colour-free
cards, 52 stand and meet the cards (check_witness passed on the first), 719 s. Counted alone,
12,936,397 towers of 5 reach 5 flat bricks (108 s). P08 P33 P43 P44 with P15, P24 or P27:
no standing tower meets them (563-759 s each).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

from script_proofs import (
    PILLAR_FACTS,
    Box,
    boxes_collide,
    conclude,
    proof_deck,
    proof_parser,
    prove_facts,
    tower_judge,
)

from tower_print.brix.decks import Deck
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.shapes import colour_mixes

TALL = "the tower is at most {lower} flat bricks tall"
"""Negation of --height's fact."""


def main() -> None:
    parser = proof_parser(__doc__.split("\n\n")[0], ["P08", "P13", "P20", "P44", "P50"],
                          "the proof or the tower")
    parser.add_argument("--bricks", type=int, default=6, help="n: the most bricks the cards allow")
    parser.add_argument("--height", type=int, default=0,
                        help="how many flat bricks tall the cards make the tower at least")
    args = parser.parse_args()
    deck, cards = proof_deck(parser, args)
    negations = [*PILLAR_FACTS, f"there are at least {args.bricks + 1} bricks"]
    if args.height:
        negations.append(TALL.format(lower=args.height - 1))
    prove_facts(deck, cards, negations, args.timeout)
    start = time.monotonic()
    counts: Counter[str] = Counter()
    judge = tower_judge(deck, [deck.card(c).condition for c in cards], counts)
    standing = pillar_towers(deck, judge, args.bricks, args.height * deck.bricks.thickness)
    command = (f"python benchmarks/brix_pillar_enumeration.py --deck {args.deck} --cards "
               f"{' '.join(cards)} --bricks {args.bricks} --height {args.height}")
    conclude(deck, cards, standing, counts, time.monotonic() - start, command,
             "every tower on one upright brick", args.record)


def pillar_towers(deck: Deck, judge: Callable[[tuple[Box, ...]], tuple[PlacedBrick, ...] | None],
                  most: int, height: int) -> list[tuple[PlacedBrick, ...]]:
    """The standing towers meeting the cards (`judge`, `script_proofs.tower_judge`; at most 5
    kept) among those of at most `most` bricks on one upright brick, at least `height` lattice
    units tall."""
    bricks = deck.bricks
    extents = sorted(bricks.extents())
    tallest = max(e[2] for e in extents)
    sizes = {k for k in range(2, most + 1) if colour_mixes(bricks, deck.all_used, k)}
    standing: list[tuple[PlacedBrick, ...]] = []

    def grow(chosen: tuple[Box, ...], top: int) -> None:
        if top + tallest * (most - len(chosen)) < height:
            return
        if len(chosen) in sizes and top >= height:
            met = judge(chosen)
            if met is not None and len(standing) < 5:
                standing.append(met)
        if len(chosen) == most:
            return
        last = chosen[-1]
        for box in _resting_places(chosen, extents):
            if _order(box) > _order(last):
                grow((*chosen, box), max(top, box[2] + box[5]))

    for dx, dy, dz in extents:
        if bricks.is_vertical((dx, dy, dz)):
            grow(((0, 0, 0, dx, dy, dz),), dz)
    return standing


def _order(box: Box) -> tuple[int, ...]:
    return (box[2], box[0], box[1], box[3], box[4], box[5])


def _resting_places(chosen: tuple[Box, ...], extents: list[tuple[int, int, int]]) -> list[Box]:
    """Every box resting on a box of `chosen` (sharing area with its top) and free of them."""
    found = {(x, y, base[2] + base[5], dx, dy, dz)
             for base in chosen for dx, dy, dz in extents
             for x in range(base[0] - dx + 1, base[0] + base[3])
             for y in range(base[1] - dy + 1, base[1] + base[4])}
    return sorted(box for box in found if not any(boxes_collide(box, other) for other in chosen))


if __name__ == "__main__":
    main()
