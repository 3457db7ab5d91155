"""Every tower at most 2 flat bricks tall (an upright brick's height) with at most g bricks on
the table, enumerated in plain Python: does any of them stand and meet the cards?

    python benchmarks/brix_low_tower_enumeration.py --deck pink \
        --cards P01 P05 P06 P11 P54 --ground 3 --upright-ground 1 --least 8
    python benchmarks/brix_low_tower_enumeration.py --deck pink \
        --cards P01 P05 P06 P11 P54 --ground 3 --upright-ground 1 --least 8 \
        --record content/brix/conflicts/pink.yaml   # the proof, or a tower found, written there

Why: audits leave pink's sets with P54 ("three bricks or fewer touch the table, and one of them
is gray") and P11 or P36 (the gray brick reaches the top height) undecided at 60 s: 12 open
sets of 5 cards. The gray brick on the table and highest stands upright, so the tower is one
upright brick tall, and every brick not on the table lies on a lying brick that is: a small
world, where the colour counts the cards ask for (8 bricks with P01 P05 P06) must fit in.

Facts (Z3 proves each from the cards: no standing tower meets them and the fact's negation):
at most g bricks touch the table (--ground), the tower is at most 2 flat bricks tall, at least
k of the bricks on the table stand upright (--upright-ground), and there are at least (--least)
and at most (--bricks) that many bricks.

So each brick lies on the table, stands upright on it, or lies on lying bricks that do (a
brick lying higher, or one on an upright, would reach above the height; one resting on nothing
falls: statics holds bricks up only from below). How: the lying bricks on the table (at most g
- k, the first at x = y = 0, the others near enough to be joined: by a brick resting on both,
by two that touch, or through the uprights there is room for; each set once up to
translations, turns and mirrorings); the bricks lying on them, each with its centre, per axis,
between the corners of its shrunk contacts (it carries nothing, so it stands only so), pairwise
free; when those stand together (statics.stands: an upright on the table carries nothing and
changes nothing), the uprights on the table, each touching the tower; a tower whose bricks are
all joined and of a size the deck allows is read by the judge (`script_proofs.tower_judge`:
colour-free cards, statics.stands, every colouring).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator

from script_proofs import (
    TURNS,
    Box,
    boxes_collide,
    boxes_touch,
    conclude,
    footprints_overlap,
    proof_deck,
    proof_parser,
    prove_facts,
    shrunk_contact,
    tower_judge,
)

from tower_print.brix.decks import Deck
from tower_print.brix.geometry import PlacedBrick, is_connected
from tower_print.brix.shapes import colour_mixes
from tower_print.brix.statics import stands

FACTS = ("at least {over} bricks touch the ground", "the tower is at least 3 flat bricks tall")
"""Negations of --ground's fact and of the height."""
FEW_UPRIGHT = "at most {fewer} grounded bricks are vertical"
"""Negation of --upright-ground's fact."""
COUNTS = ("there are at least {over} bricks", "there are at most {under} bricks")
"""Negations of --bricks' and --least's facts."""


def main() -> None:
    parser = proof_parser(__doc__.split("\n\n")[0], ["P01", "P05", "P06", "P11", "P54"],
                          "the proof or the tower")
    parser.add_argument("--ground", type=int, default=3,
                        help="g: how many bricks the cards let touch the table at most")
    parser.add_argument("--upright-ground", type=int, default=0,
                        help="k: how many of those the cards make stand upright at least")
    parser.add_argument("--least", type=int, default=1,
                        help="how many bricks the cards ask for at least")
    parser.add_argument("--bricks", type=int, help="how many bricks the cards allow at most "
                                                   "(default: the deck's bricks, no fact)")
    args = parser.parse_args()
    deck, cards = proof_deck(parser, args)
    bricks = deck.bricks
    if bricks.length != 2 * bricks.thickness:
        parser.error("the world needs bricks as long as two lying bricks are thick")
    most = args.bricks or len(bricks.bricks)
    if not 0 <= args.upright_ground <= args.ground or not 1 <= args.least <= most:
        parser.error("need 0 <= --upright-ground <= --ground and 1 <= --least <= --bricks")
    negations = [FACTS[0].format(over=args.ground + 1), FACTS[1]]
    if args.upright_ground:
        negations.append(FEW_UPRIGHT.format(fewer=args.upright_ground - 1))
    if args.bricks:
        negations.append(COUNTS[0].format(over=args.bricks + 1))
    if args.least > 1:
        negations.append(COUNTS[1].format(under=args.least - 1))
    prove_facts(deck, cards, negations, args.timeout, args.record)
    start = time.monotonic()
    counts: Counter[str] = Counter()
    judge = tower_judge(deck, [deck.card(c).condition for c in cards], counts)
    standing = low_towers(deck, judge, args.ground, args.upright_ground,
                          range(args.least, most + 1), counts)
    command = (f"python benchmarks/brix_low_tower_enumeration.py --deck {args.deck} --cards "
               f"{' '.join(cards)} --ground {args.ground} --upright-ground {args.upright_ground}"
               f" --least {args.least}" + (f" --bricks {args.bricks}" if args.bricks else ""))
    conclude(deck, cards, standing, counts, time.monotonic() - start, command,
             f"every tower at most 2 flat bricks tall with at most {args.ground} bricks on the "
             "table", args.record)


def low_towers(deck: Deck, judge: Callable[[tuple[Box, ...]], tuple[PlacedBrick, ...] | None],
               ground: int, upright_ground: int, sizes: range, counts: Counter[str]
               ) -> list[tuple[PlacedBrick, ...]]:
    """The standing towers meeting the cards (`judge`; at most 5 kept) among those at most
    one upright tall with at most `ground` bricks on the table, at least `upright_ground` of
    them upright, and a number of bricks in `sizes` the deck's rule allows."""
    bricks = deck.bricks
    thick, width = bricks.thickness, bricks.width
    lying = [e for e in sorted(bricks.extents()) if not bricks.is_vertical(e)]
    upright = next(e for e in bricks.extents() if bricks.is_vertical(e))
    allowed = {k for k in sizes if colour_mixes(bricks, deck.all_used, k)}
    standing: list[tuple[PlacedBrick, ...]] = []
    for on_table in range(ground - upright_ground + 1):
        uprights_left = ground - on_table
        reach = 2 * (bricks.length - 1) + width * uprights_left  # the widest gap joined
        for base in _lying_bases(on_table, lying, reach, counts):
            places = _balanced_places(base, lying, thick, bricks.stability_margin)
            for upper in _free_sets(places, max(allowed) - on_table):
                if len(base) + len(upper) + uprights_left < min(allowed):
                    continue
                lying_part = base + upper
                if lying_part and not stands(_plain(lying_part), bricks.stability_margin):
                    counts["cut: the lying bricks cannot stand"] += 1
                    continue
                for extra in _upright_sets(lying_part, upright, uprights_left, upright_ground):
                    tower = lying_part + extra
                    if len(tower) not in allowed:
                        continue
                    if not is_connected(_plain(tower)):
                        counts["cut: not joined"] += 1
                        continue
                    met = judge(tower)
                    if met is not None and len(standing) < 5:
                        standing.append(met)
    return standing


def _lying_bases(count: int, lying: list[tuple[int, int, int]], reach: int,
                 counts: Counter[str]) -> Iterator[tuple[Box, ...]]:
    """Each set of `count` lying bricks on the table once up to translations, turns and
    mirrorings: the first at x = y = 0 in the first lying extent, each other within `reach`
    of an earlier one on both axes."""
    if count == 0:
        yield ()
        return
    seen: set[tuple[Box, ...]] = set()

    def grow(chosen: tuple[Box, ...]) -> Iterator[tuple[Box, ...]]:
        if len(chosen) == count:
            key = _canonical(chosen)
            if key not in seen:
                seen.add(key)
                counts["lying bases"] += 1
                yield chosen
            return
        for dx, dy, dz in lying:
            near = {(x, y) for b in chosen
                    for x in range(b[0] - dx - reach, b[0] + b[3] + reach + 1)
                    for y in range(b[1] - dy - reach, b[1] + b[4] + reach + 1)}
            for x, y in sorted(near):
                box = (x, y, 0, dx, dy, dz)
                if not any(boxes_collide(box, b) for b in chosen):
                    yield from grow((*chosen, box))

    yield from grow(((0, 0, 0, *lying[-1]),))


def _balanced_places(base: tuple[Box, ...], lying: list[tuple[int, int, int]], z: int,
                     margin: float) -> list[Box]:
    """Every lying box resting on the bricks `base` (tops at `z`) whose centre lies, per axis,
    between the corners of its contacts shrunk by the margin: a brick carrying nothing stands
    only so."""
    found = set()
    for dx, dy, dz in lying:
        for b in base:
            for x in range(b[0] - dx + 1, b[0] + b[3]):
                for y in range(b[1] - dy + 1, b[1] + b[4]):
                    box = (x, y, z, dx, dy, dz)
                    rects = [shrunk_contact(box, s, margin) for s in base
                             if footprints_overlap(box, s)]
                    if all(min(r[2 * k] for r in rects) <= box[k] + box[k + 3] / 2
                           <= max(r[2 * k + 1] for r in rects) for k in (0, 1)):
                        found.add(box)
    return sorted(found)


def _free_sets(places: list[Box], most: int) -> Iterator[tuple[Box, ...]]:
    """Every set of at most `most` pairwise free boxes among `places`, each once."""

    def grow(chosen: tuple[Box, ...], start: int) -> Iterator[tuple[Box, ...]]:
        yield chosen
        if len(chosen) == most:
            return
        for i in range(start, len(places)):
            if not any(boxes_collide(places[i], b) for b in chosen):
                yield from grow((*chosen, places[i]), i + 1)

    yield from grow((), 0)


def _upright_sets(tower: tuple[Box, ...], extent: tuple[int, int, int], most: int,
                  least: int) -> Iterator[tuple[Box, ...]]:
    """Every set of at most `most` uprights on the table, free of `tower` and each other, each
    touching `tower` or another of them, each set once; on an empty tower the first stands at
    x = y = 0."""
    dx, dy, _ = extent
    seen: set[tuple[Box, ...]] = set()

    def grow(chosen: tuple[Box, ...]) -> Iterator[tuple[Box, ...]]:
        key = tuple(sorted(chosen))
        if key in seen:
            return
        seen.add(key)
        if len(chosen) >= least:
            yield key
        if len(chosen) == most:
            return
        around = tower + chosen
        near = {(x, y) for b in around for x in range(b[0] - dx, b[0] + b[3] + 1)
                for y in range(b[1] - dy, b[1] + b[4] + 1)}
        for x, y in sorted(near):
            box = (x, y, 0, *extent)
            if not any(boxes_collide(box, b) for b in around) and any(
                    boxes_touch(box, b) for b in around):
                yield from grow((*chosen, box))

    yield from grow(() if tower else ((0, 0, 0, *extent),))


def _canonical(boxes: tuple[Box, ...]) -> tuple[Box, ...]:
    """The least, sorted and moved to x = y = 0, of the boxes' images by the turns and
    mirrorings of the plane (identity included)."""
    images = []
    for flip_x, flip_y, swap in [(False, False, False), *TURNS]:
        image = []
        for x, y, z, dx, dy, dz in boxes:
            if flip_x:
                x = -x - dx
            if flip_y:
                y = -y - dy
            if swap:
                x, y, dx, dy = y, x, dy, dx
            image.append((x, y, z, dx, dy, dz))
        x0, y0 = min(b[0] for b in image), min(b[1] for b in image)
        images.append(tuple(sorted((b[0] - x0, b[1] - y0, *b[2:]) for b in image)))
    return min(images)


def _plain(boxes: tuple[Box, ...]) -> tuple[PlacedBrick, ...]:
    """The boxes as bricks for statics alone (colour and name unread)."""
    return tuple(PlacedBrick(f"b{i}", "any", *box) for i, box in enumerate(boxes))


if __name__ == "__main__":
    main()
