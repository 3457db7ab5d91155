"""Every tower of n bricks in which one brick touches all the others, enumerated in plain Python:
does any of them stand and meet the cards?

    python benchmarks/brix_hub_enumeration.py --deck pink --cards P20 P26 P37 P50 --height 6
    python benchmarks/brix_hub_enumeration.py --deck pink --cards P20 P26 P37 P50 --height 6 \
        --record content/brix/conflicts/pink.yaml   # the proof, or a tower found, written there

Why: audits leave pink's P20 P26 P37 P50 undecided at 60 s ("there are as many vertical
bricks as horizontal bricks", "some brick touches at least 5 bricks", "the tower is at least 3
upright bricks tall", "the tower is at least 5 flat bricks tall and there are at most 6
bricks"), and eight undecided sets of 5 cards hold it. Six bricks with one touching the five
others is a small world: every brick lies in one place beside the hub.

Facts (Z3 proves each from the cards: no standing tower meets them and the fact's negation,
`FACTS`): there are exactly n bricks, some brick touches at least n - 1 bricks, so a hub H
touches every other brick, and the tower is at least --height flat bricks tall, so some brick
(H or one touching it) has its top that high.

How: H at x = y = 0 (a tower is enumerated once per brick that can be its hub, in each of its
places up to translation), each extent, each z from 0 to the tallest brick's height (a brick
on the table touches H, so H lies on it, beside it or on the table). The others come from the
places that touch H (geometry's touches: faces meeting over an area), taken in order of
height, each on the table or resting on H or on an earlier one (statics: nothing else holds a
brick up), pairwise free. A finished tower needs H on the table or resting on one of them;
then, when it comes first among its images by the turns and mirrorings that map H onto itself
(`script_proofs.first_of_turns`: the cards name no horizontal direction), the colour-free
cards (the Evaluator), statics.stands, and the cards that name colours in every colouring the
deck allows (`script_proofs.colourings`).

Results (2026-12-01, one process beside other runs): P20 P26 P37 P50 (--height 6): Z3 proves the
four facts in 0.2-0.7 s; 315,332 towers, 126,048 meet the cards (all four name no colour), none
stands (52 s). Validation: P26 P37 P50, solvable (pink's file is complete up to 3 cards and
lists no conflict inside it): the same 315,332 towers, 257 standing (check_witness passed on
the first: five uprights and a sixth on the hub, 74 s). P21 P26 P37 P50 P53: the same towers,
5,441 meet the colour-free cards, 141 of them stand, none meets P21 in any colouring (55 s).
--height 5: P26 P31 P44 P50 and P26 P44 P50 P55, 7,940,224 towers each, 527,538 and 477,076
meet the colour-free cards, 252 stand, none with the gray brick lowest (P44; 28-30 min each,
two runs side by side beside others). P07 P26 P31 P46 P50 and P07 P26 P46 P50 P55: the same
towers and counts to the 252 standing, none with the gray brick off the table (P07; 18-20 min).
P04 P21 P26 P37 P53 (P04: at most 6 bricks, P37: height 12): as P21 P26 P37 P50 P53 (54 s).
--pillar (2026-12-04): pink's P08 P44 ("the gray brick stands upright", "every other brick's
top is higher than the gray brick's") leave the gray brick alone on the table, upright, and
the rest above its top (Z3 proves the two facts in 0.5 s). Validation: P04 P08 P26 P44 (--bricks
6 --height 3), solvable (the file is complete up to 4 cards): 1,928,009 towers, 12 stand, all
meet the cards (check_witness passed on the first; 264 s).
Turns and mirrorings (2026-12-05), checked on P26 P37 P50's world (every tower judged by
statics.stands alone): the same 35 classes of standing towers, 39,620 judged instead of
315,332, 13 s instead of 35 s. --height 5: P11 P20 P26 P38 P50 and P20 P26 P36 P38 P50, 1,346,105
towers judged (7,940,224 before), 639,491 meet the colour-free cards, 2,781 stand, none meets
the cards naming the gray brick in any colouring (335-486 s, beside three other runs on two cores).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

from script_proofs import (
    PILLAR_FACTS,
    Box,
    box_rests_on,
    boxes_collide,
    boxes_touch,
    conclude,
    first_of_turns,
    proof_deck,
    proof_parser,
    prove_facts,
    tower_judge,
)

from tower_print.brix.decks import Deck
from tower_print.brix.geometry import PlacedBrick

FACTS = ("there are at most {n1} bricks", "there are at least {n2} bricks",
         "every brick touches at most {n2h} bricks", "the tower is at most {low} flat bricks tall")
"""Negations of the facts: exactly n bricks, one touching the n - 1 others, the tower at least
--height flat bricks tall."""


def main() -> None:
    parser = proof_parser(__doc__.split("\n\n")[0], ["P20", "P26", "P37", "P50"],
                          "the proof or the tower")
    parser.add_argument("--bricks", type=int, default=6, help="n: how many bricks the cards allow")
    parser.add_argument("--height", type=int, default=6,
                        help="how many flat bricks tall the cards make the tower at least")
    parser.add_argument("--pillar", action="store_true",
                        help="the cards leave one brick on the table, upright (pink's P08 P44)")
    args = parser.parse_args()
    deck, cards = proof_deck(parser, args)
    n = args.bricks
    prove_facts(deck, cards, [*(fact.format(n1=n - 1, n2=n + 1, n2h=n - 2, low=args.height - 1)
                                for fact in FACTS), *(PILLAR_FACTS if args.pillar else ())],
                args.timeout, args.record)
    start = time.monotonic()
    counts: Counter[str] = Counter()
    judge = tower_judge(deck, [deck.card(c).condition for c in cards], counts)
    height = args.height * deck.bricks.thickness
    standing = [tower for hub in hubs(deck)
                for tower in towers_around(hub, n, height, deck, judge, args.pillar)][:5]
    command = f"python benchmarks/brix_hub_enumeration.py --deck {args.deck} --cards " + (
        f"{' '.join(cards)} --bricks {n} --height {args.height}{' --pillar' * args.pillar}")
    conclude(deck, cards, standing, counts, time.monotonic() - start, command,
             "every tower around a hub", args.record)


def hubs(deck: Deck) -> list[Box]:
    """The hub at x = y = 0: each extent, each z up to the tallest brick's height."""
    tallest = max(e[2] for e in deck.bricks.extents())
    return [(0, 0, z, *extent) for extent in sorted(deck.bricks.extents())
            for z in range(0, tallest + 1, 2)]


def places_touching(hub: Box, deck: Deck) -> list[Box]:
    """Every box on or above the table that touches the hub, lowest first."""
    hx, hy, hz, hdx, hdy, hdz = hub
    found = [(x, y, z, dx, dy, dz) for dx, dy, dz in deck.bricks.extents()
             for x in range(hx - dx, hx + hdx + 1) for y in range(hy - dy, hy + hdy + 1)
             for z in range(max(0, hz - dz), hz + hdz + 1)]
    return sorted((box for box in found if boxes_touch(box, hub)), key=lambda b: (b[2], b))


def towers_around(hub: Box, n: int, height: int, deck: Deck,
                  judge: Callable[[tuple[Box, ...]], tuple[PlacedBrick, ...] | None],
                  pillar: bool = False) -> list[tuple[PlacedBrick, ...]]:
    """The standing towers meeting the cards (`judge`, `script_proofs.tower_judge`) with this
    hub, at least `height` tall (at most 5 kept). Each holds a tall brick (top at `height` or
    more, the hub or one touching it): the first of them in the order of places is chosen
    before the rest, which skip the tall ones before it, so each tower comes once. `pillar`:
    only towers with one brick on the table, upright (a place on the table is taken only when
    none is and it is upright)."""
    def on_table_allowed(box: Box, chosen: tuple[Box, ...]) -> bool:
        return not pillar or box[2] > 0 or (
            deck.bricks.is_vertical(box[3:]) and all(b[2] > 0 for b in chosen))

    if not on_table_allowed(hub, ()):
        return []
    places = [box for box in places_touching(hub, deck) if on_table_allowed(box, (hub,))]
    standing: list[tuple[PlacedBrick, ...]] = []

    def finish(boxes: tuple[Box, ...]) -> None:
        if not first_of_turns(boxes[1:], hub):  # a turned or mirrored tower comes instead
            return
        met = judge(boxes)
        if met is not None and len(standing) < 5:
            standing.append(met)

    def held(box: Box, chosen: tuple[Box, ...]) -> bool:
        return box[2] == 0 or any(box_rests_on(box, b) for b in chosen)

    def grow(chosen: tuple[Box, ...], start: int, skip: int) -> None:
        if len(chosen) == n:
            if all(held(b, chosen) for b in chosen):
                finish(chosen)
            return
        for i in range(start, len(places)):
            box = places[i]
            if ((i < skip and _top(box) >= height) or not on_table_allowed(box, chosen)
                    or any(boxes_collide(box, b) for b in chosen)):
                continue
            if held(box, chosen):  # the tall brick's support is checked when the tower is done
                grow((*chosen, box), i + 1, skip)

    if _top(hub) >= height:
        grow((hub,), 0, 0)
    else:
        for first, tall in enumerate(places):
            if _top(tall) >= height:
                grow((hub, tall), 0, first)
    return standing


def _top(box: Box) -> int:
    return box[2] + box[5]


if __name__ == "__main__":
    main()
