"""Every tower of at most n bricks standing on one upright brick alone on the table, enumerated in
plain Python: does any of them stand and meet the cards?

    python benchmarks/brix_pillar_enumeration.py --deck pink --cards P08 P13 P20 P44 P50 \
        --bricks 6 --height 5
    python benchmarks/brix_pillar_enumeration.py --deck pink --cards P08 P13 P20 P44 P50 \
        --bricks 6 --height 5 --record content/brix/conflicts/pink.yaml  # proof or tower

Why: pink's P08 ("the gray brick stands upright") and P44 ("every other brick's top is higher
than the gray brick's") leave the gray brick alone on the table, upright, with everything else
balanced on its small top; audits leave 29 sets of 5 cards holding both undecided at 60 s or
more. With few bricks (P04 or P50: at most 6; P33: exactly 5) such towers can be listed.

Facts (Z3 proves each from the cards: no standing tower meets them and the fact's negation,
`FACTS`): one brick touches the table and it stands upright, there are at most n bricks, and
(--height) the tower is at least that many flat bricks tall.

How: the upright brick at x = y = 0 (a tower is enumerated once, up to translation); then bricks
taken in order of (z, x, y, extent), each resting on an earlier one (so none but the first is
on the table, and each tower comes once, its bricks in that order), pairwise free; a tower that
can no longer reach --height with the bricks left is dropped. Each tower of a size the deck's
rule allows is read on the colour-free cards (the Evaluator), then statics.stands, then the
cards naming colours in every colouring the deck allows (`recolour.Colourings`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

from script_proofs import (
    Box,
    boxes_collide,
    named_tower,
    proof_parser,
    prove_facts,
    record_script_proof,
    record_towers,
)

from tower_print.brix.checker import check_witness
from tower_print.brix.decks import Deck, shipped_deck
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import Condition, names_a_colour
from tower_print.brix.recolour import Colourings
from tower_print.brix.shapes import colour_mixes
from tower_print.brix.statics import stands

FACTS = ("at least 2 bricks touch the ground", "some grounded brick is horizontal",
         "there are at least {more} bricks")
"""Negations of the facts: one brick on the table, upright, and at most n bricks."""
TALL = "the tower is at most {lower} flat bricks tall"
"""Negation of --height's fact."""


def main() -> None:
    parser = proof_parser(__doc__.split("\n\n")[0], ["P08", "P13", "P20", "P44", "P50"],
                          "the proof or the tower")
    parser.add_argument("--bricks", type=int, default=6, help="n: the most bricks the cards allow")
    parser.add_argument("--height", type=int, default=0,
                        help="how many flat bricks tall the cards make the tower at least")
    args = parser.parse_args()
    deck = shipped_deck(args.deck)
    cards = list(args.cards)
    negations = [fact.format(more=args.bricks + 1) for fact in FACTS]
    if args.height:
        negations.append(TALL.format(lower=args.height - 1))
    prove_facts(deck, cards, negations, args.timeout)
    start = time.monotonic()
    counts: Counter[str] = Counter()
    standing = pillar_towers(deck, [deck.card(c).condition for c in cards], args.bricks,
                             args.height * deck.bricks.thickness, counts)
    for name in ("towers", "meet the colour-free cards", "stand", "stand and meet the cards"):
        print(f"{name:26} {counts[name]:>12}")
    print(f"{time.monotonic() - start:.0f} s")
    command = (f"python benchmarks/brix_pillar_enumeration.py --deck {args.deck} --cards "
               f"{' '.join(cards)} --bricks {args.bricks} --height {args.height}")
    if standing:
        check_witness(standing[0], deck.bricks, deck.all_used,
                      [(c, deck.card(c).condition) for c in cards])
        print(f"a standing tower meeting the cards (check_witness passed; {len(standing)} "
              "kept):")
        for brick in standing[0]:
            print("  ", brick)
        if args.record:
            record_towers(args.record, deck, standing, f"enumeration ({command})")
        return
    print(f"no tower meeting {' '.join(cards)} stands: every tower on one upright enumerated")
    if args.record:
        record_script_proof(args.record, deck, tuple(cards), command,
                            "every tower on one upright brick enumerated, none stands",
                            "enumeration")
        print(f"added to {args.record}")


def pillar_towers(deck: Deck, conditions: list[Condition], most: int, height: int,
                  counts: Counter[str]) -> list[tuple[PlacedBrick, ...]]:
    """The standing towers meeting `conditions` (at most 5 kept) among those of at most `most`
    bricks on one upright brick, at least `height` lattice units tall."""
    bricks = deck.bricks
    extents = sorted(bricks.extents())
    tallest = max(e[2] for e in extents)
    judge_tower = _judge(deck, conditions, counts)
    sizes = {k for k in range(2, most + 1) if colour_mixes(bricks, deck.all_used, k)}
    standing: list[tuple[PlacedBrick, ...]] = []

    def grow(chosen: tuple[Box, ...], top: int) -> None:
        if top + tallest * (most - len(chosen)) < height:
            return
        if len(chosen) in sizes and top >= height:
            met = judge_tower(chosen)
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


def _judge(deck: Deck, conditions: list[Condition], counts: Counter[str]
           ) -> Callable[[tuple[Box, ...]], tuple[PlacedBrick, ...] | None]:
    """A tower's reading: None, or the tower in a colouring meeting every condition."""
    plain = [c for c in conditions if not names_a_colour(c)]
    coloured = [c for c in conditions if names_a_colour(c)]
    margin = deck.bricks.stability_margin

    def judge(boxes: tuple[Box, ...]) -> tuple[PlacedBrick, ...] | None:
        counts["towers"] += 1
        tower = named_tower(boxes, deck)
        if not all(Evaluator(tower, deck.bricks).condition(c) for c in plain):
            return None
        counts["meet the colour-free cards"] += 1
        if not stands(tower, margin):
            return None
        counts["stand"] += 1
        met = Colourings(deck, tower).meeting(coloured)
        if met is not None:
            counts["stand and meet the cards"] += 1
        return met

    return judge


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
