"""Every tower of at most n bricks standing on one upright brick alone on the table (or, with
--lying, one brick alone in any position), enumerated in plain Python: does any of them stand
and meet the cards?

    python benchmarks/brix_pillar_enumeration.py --deck pink --cards P08 P13 P20 P44 P50 \
        --bricks 6 --height 5
    python benchmarks/brix_pillar_enumeration.py --deck pink --cards P08 P13 P20 P44 P50 \
        --bricks 6 --height 5 --record content/brix/conflicts/pink.yaml  # proof or tower

Why: pink's P08 ("the gray brick stands upright") and P44 ("every other brick's top is higher
than the gray brick's") leave the gray brick alone on the table, upright, with everything else
balanced on its small top; audits leave 29 sets of 5 cards holding both undecided at 60 s or
more. With few bricks such towers can be listed: five (P33) take minutes; six (P04, P50) are
about 80 times as many, within reach only with the balance test that cuts falling towers
before they are finished (`Partial`). Other sets leave one brick on the table, in any position:
70 of pink's 133 undecided sets of 5 cards (Z3 proves it within 10 s), 6 of them with at most 6
bricks, exactly 3 flat bricks tall (P04, P28: --lying --at-most 3).

Facts (Z3 proves each from the cards: no standing tower meets them and the fact's negation,
`PILLAR_FACTS` and the count): one brick touches the table and it stands upright (with
--lying: no fact; with --flat: it lies), there are at most n bricks, the tower is at least
(--height) and at most (--at-most) that many flat bricks tall, and (--on-upright) at least that
many bricks rest on the one on the table (P13's "the gray brick touches three bricks or
more": with the gray brick upright on the table and every other top higher, only the bricks on
its top touch it).
With --two-ground the first fact is weaker: at most two bricks touch the table and some brick
rests on every brick that does (pink's P39 with P51 and P48: only blue bricks touch the table,
and the gray brick sits on every blue one), so a second brick on the table, as tall as the
first, lies within a brick's reach of it (`_bridged_bases`), and a finished tower with two has
a brick resting on both; with --exactly-two, two bricks touch the table (a fact too), and
with --upright-bridge each brick resting on both stands upright (a fact: pink's P39 with P11 or
P36 and P22 or P24 put the gray brick upright on two blue uprights), so the second brick on the
table lies within an upright's reach of the first and a brick resting on both is upright.
With --also, further sets of cards whose facts leave the same towers (each proved with each
set) share the run: the towers are read on the cards every set holds, and each set is
concluded on its own (in that world P11, P36, P22 and P24 always hold, so one run serves the
four P39 P48 P51 sets).

How: the brick on the table at x = y = 0 (a tower is enumerated once, up to translation);
then bricks taken in order of (z, x, y, extent), each resting on an earlier one (so none but
the first is on the table, and each tower comes once, its bricks in that order), pairwise free;
a tower that can no longer reach --height with the bricks left, or is above --at-most, is
dropped, and so is one that cannot hold up its parts (`Partial`: a test that falling towers
fail, cutting most of them bricks before they are finished), and one whose lower levels a turn
or mirroring of the brick on the table puts first (`first_of_turns`: each tower comes once up
to those, the cards naming no horizontal direction). Each tower of a size the deck's
rule allows is read on the colour-free cards (the Evaluator), then statics.stands, then the
cards naming colours in every colouring the deck allows (`recolour.Colourings`).

Results (2026-12-04, beside other runs): validation on the solvable P08 P33 P43 P44 (--bricks
5; pink's file is complete up to 4 cards): 13,249,418 towers, 222,491 meet the colour-free
cards, 52 stand and meet the cards (check_witness passed on the first), 719 s. Counted alone,
12,936,397 towers of 5 reach 5 flat bricks (108 s). P08 P33 P43 P44 with P15, P24 or P27:
no standing tower meets them (563-759 s each).
The balance test (2026-12-04), checked against the enumeration without it, every tower of the
size judged by statics.stands alone (the deck's size rule lifted): at most 5 bricks, the same
4,504 standing towers among 13,423,975 (88,004 judged with the test), 608 of them with 2 bricks
on the upright (15,600 judged); 6 bricks with 3 on the upright, the same 24 standing among
3,629,916 (25,102 judged). With 6 bricks (Z3 proves each fact in 0.2-3 s): P13's sets,
--on-upright 3, P04 P08 P13 P44 with P20 or P43 (24,814 towers, 25-33 s) and P08 P13 P44 P50
with P20, P30 or P43 (--height 5, 11,363 towers, 21-34 s); P04 P08 P30 P44 P53 (--on-upright
3, 20 s); P53's others, --on-upright 2, P04 P08 P44 P53 with P20 or P43 (500,224 towers,
430-557 s) and P08 P44 P50 P53 with P20 or P43 (--height 5, 386,749 towers, 325-445 s): no
standing tower meets any of them (beside three other processes on two cores).
Each tower once up to turns and mirrorings (2026-12-05), checked the same way: the same
classes of standing towers, each once, 865 at most 5 bricks on an upright (11,872 judged, 12 s
instead of 88 s), 95 at 4 (381 towers before), 572 at 4 on a lying or upright brick (1,631).
With it, P50's sets with --height 5 --on-upright 2 take 49,463 towers (386,749 before), 45-93
s, and with --height 6 17,880 (137,189), 59-80 s (beside two to four other processes). Six
bricks on one brick in any position, --height 5 (--lying, no other fact): P13 P19 P36 P50 P53,
1,347,553 towers, 100 stand, none meets the cards (1,894 s). --flat, at most 6 bricks exactly 3
flat bricks tall (P19 P28 P29 P49 P51's world, measured: Z3 does not prove the count): 208,559
towers (256 s).
Two blue uprights (2026-12-05): P39 P48 P51 with P11 or P36 and P22 or P24, one run
(--bricks 9 --height 4 --at-most 4 --exactly-two --upright-bridge, three --also): the second
upright in 16 places, three of them up to turns and mirrorings (1,788,137, 2,912,652 and
1,983,203 towers), 6,683,992 in all, 2 stand, none meets the cards: the four sets conflict
(5,560 s, beside another process).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import inf

from card_args import deck_card_ids
from script_proofs import (
    PILLAR_FACTS,
    Box,
    Rect,
    box_order,
    box_rests_on,
    boxes_collide,
    conclude,
    first_of_turns,
    footprints_overlap,
    proof_deck,
    proof_parser,
    prove_facts,
    shrunk_contact,
    tower_judge,
)

from tower_print.brix.decks import Deck
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.shapes import colour_mixes

TALL = "the tower is at most {lower} flat bricks tall"
"""Negation of --height's fact."""
SHORT = "the tower is at least {higher} flat bricks tall"
"""Negation of --at-most's fact."""
UPRIGHT = "some grounded brick is vertical"
"""Negation of --flat's fact."""
FEW_ON_UPRIGHT = "at most {fewer} bricks rest on some grounded brick"
"""Negation of --on-upright's fact (the upright is the only brick on the table)."""
TWO_GROUND = ("at least 3 bricks touch the ground", "no brick rests on every grounded brick")
"""Negations of --two-ground's facts."""
ONE_GROUND = "at most 1 bricks touch the ground"
"""Negation of --exactly-two's fact."""
LYING_BRIDGE = "some horizontal brick rests on every grounded brick"
"""Negation of --upright-bridge's fact."""
EPSILON = 1e-9
"""Slack on the balance bound's float comparisons, on the side that cuts less."""


def main() -> None:
    parser = proof_parser(__doc__.split("\n\n")[0], ["P08", "P13", "P20", "P44", "P50"],
                          "the proof or the tower")
    parser.add_argument("--bricks", type=int, default=6, help="n: the most bricks the cards allow")
    parser.add_argument("--height", type=int, default=0,
                        help="how many flat bricks tall the cards make the tower at least")
    parser.add_argument("--at-most", type=int, default=0,
                        help="how many flat bricks tall the cards make the tower at most")
    parser.add_argument("--on-upright", type=int, default=0,
                        help="how many bricks the cards make rest on the one on the table at least")
    parser.add_argument("--lying", action="store_true",
                        help="the brick on the table may lie too (its being upright not a fact)")
    parser.add_argument("--flat", action="store_true",
                        help="the brick on the table lies down (a fact: only lying ones tried)")
    parser.add_argument("--two-ground", action="store_true",
                        help="one or two bricks on the table, some brick resting on each")
    parser.add_argument("--exactly-two", action="store_true",
                        help="as --two-ground, but two bricks on the table (a fact)")
    parser.add_argument("--upright-bridge", action="store_true",
                        help="with --two-ground or --exactly-two: each brick resting on both "
                        "bricks on the table stands upright (a fact)")
    parser.add_argument("--also", nargs="+", action="append", default=[], metavar="CARD",
                        help="another set of cards whose facts leave the same towers (proved "
                        "with it too): one enumeration, read on the cards every set holds, "
                        "concludes each set")
    args = parser.parse_args()
    args.two_ground = args.two_ground or args.exactly_two
    deck, cards = proof_deck(parser, args)
    if args.two_ground and args.on_upright:
        parser.error("--on-upright counts the bricks on the one brick on the table")
    if args.upright_bridge and not args.two_ground:
        parser.error("--upright-bridge needs --two-ground or --exactly-two")
    negations = [*(TWO_GROUND if args.two_ground else PILLAR_FACTS[:1]),
                 *PILLAR_FACTS[1:1 if args.lying or args.flat else 2],
                 *([ONE_GROUND] if args.exactly_two else []),
                 *([LYING_BRIDGE] if args.upright_bridge else []),
                 f"there are at least {args.bricks + 1} bricks"]
    if args.flat:
        negations.append(UPRIGHT)
    if args.height:
        negations.append(TALL.format(lower=args.height - 1))
    if args.at_most:
        negations.append(SHORT.format(higher=args.at_most + 1))
    if args.on_upright:
        negations.append(FEW_ON_UPRIGHT.format(fewer=args.on_upright - 1))
    sets = [cards, *(deck_card_ids(parser, deck, ids) for ids in args.also)]
    for card_set in sets:
        prove_facts(deck, card_set, negations, args.timeout, args.record)
    start = time.monotonic()
    counts: Counter[str] = Counter()
    judge = tower_judge(deck, [deck.card(c).condition for c in cards
                               if all(c in card_set for card_set in sets)], counts)
    thick = deck.bricks.thickness
    world = World(args.bricks, args.height * thick, args.at_most * thick if args.at_most else None,
                  args.on_upright, upright=not args.flat, lying=args.lying or args.flat,
                  ground=(2,) if args.exactly_two else (1, 2) if args.two_ground else (1,),
                  upright_bridge=args.upright_bridge)
    standing = pillar_towers(deck, judge, world, counts)
    command = (f"python benchmarks/brix_pillar_enumeration.py --deck {args.deck} --cards "
               f"{' '.join(cards)} --bricks {args.bricks} --height {args.height}"
               + (f" --at-most {args.at_most}" if args.at_most else "")
               + (f" --on-upright {args.on_upright}" if args.on_upright else "")
               + (" --lying" if args.lying else "") + (" --flat" if args.flat else "")
               + (" --exactly-two" if args.exactly_two else
                  " --two-ground" if args.two_ground else "")
               + (" --upright-bridge" if args.upright_bridge else "")
               + "".join(f" --also {' '.join(card_set)}" for card_set in sets[1:]))
    base = "lying brick" if args.flat else "brick" if args.lying else "upright brick"
    bridge = "an upright" if args.upright_bridge else "a brick"
    article = "an" if base == "upright brick" else "a"
    world_name = (f"every tower on two of {article} {base}'s positions with {bridge} resting on "
                  "both"
                  + ("" if args.exactly_two else ", or on one")
                  if args.two_ground else f"every tower on one {base}")
    conclude(deck, cards, standing, counts, time.monotonic() - start, command, world_name,
             args.record, sets[1:])


@dataclass(frozen=True)
class World:
    """The towers the facts leave: at most `most` bricks, `height` to `ceiling` lattice units
    tall (None: any), at least `on_base` bricks on the brick on the table, which may stand
    upright if `upright` and lie if `lying`; `ground`: how many bricks on the table (with 2,
    the second in the same positions, with a brick resting on both, upright if
    `upright_bridge`)."""

    most: int
    height: int = 0
    ceiling: int | None = None
    on_base: int = 0
    upright: bool = True
    lying: bool = False
    ground: tuple[int, ...] = (1,)
    upright_bridge: bool = False


def pillar_towers(deck: Deck, judge: Callable[[tuple[Box, ...]], tuple[PlacedBrick, ...] | None],
                  world: World, counts: Counter[str]) -> list[tuple[PlacedBrick, ...]]:
    """The standing towers meeting the cards (`judge`, `script_proofs.tower_judge`; at most 5
    kept) among those of `world`; those cut early are counted in `counts`."""
    most, height, on_upright = world.most, world.height, world.on_base
    bricks = deck.bricks
    extents = sorted(bricks.extents())
    tallest = max(e[2] for e in extents)
    bridges = [e for e in extents if bricks.is_vertical(e) or not world.upright_bridge]
    sizes = {k for k in range(2, most + 1) if colour_mixes(bricks, deck.all_used, k)}
    standing: list[tuple[PlacedBrick, ...]] = []

    def grow(tower: Partial, top: int) -> None:
        chosen = tower.boxes
        if top + tallest * (most - len(chosen)) < height:
            return
        if len(chosen) > 2 and chosen[-1][2] > chosen[-2][2] and not first_of_turns(
                chosen[1:-1], chosen[0]):  # a level is complete
            counts["cut: a turned or mirrored tower comes instead"] += 1
            return
        if chosen[-1][2] > chosen[0][5] and not _rests_on_all_grounded(chosen, bridges):
            counts["cut: nothing rests on both bricks on the table"] += 1  # none can come now
            return
        on_top = sum(1 for b in chosen if b[2] == chosen[0][5])  # on the brick on the table
        if on_top + most - len(chosen) < on_upright:
            return
        ends = [j for j in range(most - len(chosen) + 1) if len(chosen) + j in sizes
                and (j or top >= height)]
        if not tower.can_balance(ends):
            counts["cut: a part cannot balance"] += 1
            return
        if (len(chosen) in sizes and top >= height and on_top >= on_upright
                and first_of_turns(chosen[1:], chosen[0])
                and _rests_on_all_grounded(chosen, bridges)):
            met = judge(chosen)
            if met is not None and len(standing) < 5:
                standing.append(met)
        if len(chosen) == most:
            return
        places = _resting_places(chosen, extents)
        if world.ceiling is not None:
            places = [box for box in places if box[2] + box[5] <= world.ceiling]
        if on_top < on_upright:  # the bricks on the one on the table come first
            places = [box for box in places if box[2] == chosen[0][5]]
        followers = [j for j in range(most - len(chosen)) if len(chosen) + 1 + j in sizes]
        if followers:  # the next brick: only where the levels can balance
            spans = tower.next_centres(followers)
            places = [box for box in places if all(
                lo <= box[k] + box[k + 3] / 2 <= hi for k, (lo, hi) in enumerate(spans))]
        if followers == [0]:  # the last brick: it must join every part that falls without it
            needs = tower.last_needs()
            places = [box for box in places if all(
                any(box[2] == base_top and footprints_overlap(box, base)
                    for base_top, base in bases)
                and all(lo <= box[k] + box[k + 3] / 2 <= hi for k, (lo, hi) in enumerate(spans))
                for bases, spans in needs)]
        for box in places:
            grow(tower.add(box), max(top, box[2] + box[5]))

    # One lying extent of the brick on the table: a quarter turn changes no card (they speak of
    # heights, contacts, counts and colours, never of a horizontal direction) and no balance.
    bases = [e for e in extents if bricks.is_vertical(e) and world.upright
             or not bricks.is_vertical(e) and world.lying]
    lying = [e for e in bases if not bricks.is_vertical(e)][:1]
    for dx, dy, dz in [e for e in bases if bricks.is_vertical(e)] + lying:
        first = Partial(bricks.stability_margin, bricks.length).add((0, 0, 0, dx, dy, dz))
        if 1 in world.ground:
            grow(first, dz)
        if 2 in world.ground:
            second_bases = _bridged_bases(first.boxes[0], bases, bridges)
            for k, second in enumerate(second_bases, start=1):
                grow(first.add(second), dz)
                print(f"second brick on the table {k}/{len(second_bases)} ({dx}x{dy}x{dz} first): "
                      f"{counts['towers']} towers so far", flush=True)
    return standing


def _bridged_bases(first: Box, bases: list[tuple[int, int, int]],
                   extents: list[tuple[int, int, int]]) -> list[Box]:
    """Every second brick on the table, in one of the extents `bases`, free of `first`, as
    tall, and near enough that a brick in one of `extents` (the bridges) may rest on both: the
    places are
    the same for every turn or mirroring of `first` (first_of_turns's cuts stay exact)."""
    reach = max(max(e[:2]) for e in extents)
    found = []
    for dx, dy, dz in bases:
        if dz != first[5]:
            continue
        for x in range(first[0] - dx - reach + 2, first[0] + first[3] + reach - 1):
            for y in range(first[1] - dy - reach + 2, first[1] + first[4] + reach - 1):
                box = (x, y, 0, dx, dy, dz)
                if not boxes_collide(box, first) and any(_spans(first, box, e) for e in extents):
                    found.append(box)
    return found


def _spans(a: Box, b: Box, extent: tuple[int, int, int]) -> bool:
    """Whether a box of `extent` may share area with both footprints: on each axis, the gap
    between them (if any) is at most its extent less 2 (a unit over each)."""
    return all(max(a[k], b[k]) - min(a[k] + a[k + 3], b[k] + b[k + 3]) <= extent[k] - 2
               for k in (0, 1))


def _rests_on_all_grounded(boxes: tuple[Box, ...], bridges: list[tuple[int, int, int]]
                           ) -> bool:
    """Whether a brick in one of the extents `bridges` rests on every brick on the table."""
    grounded = [b for b in boxes if b[2] == 0]
    return len(grounded) == 1 or any(
        box[3:] in bridges and all(box_rests_on(box, g) for g in grounded) for box in boxes)


class Partial:
    """A tower being grown (bricks in `box_order`) and what its balance test reads off it, kept
    brick by brick: the shrunk contacts each brick rests on, and the bricks each holds up.

    The test (`can_balance`) is necessary, so a tower failing it cannot stand: each
    upward-closed part of the finished tower must be held up, and two kinds of part are
    tried, the bricks at or above a level (every brick still to come among them) and the
    bricks a brick holds up (its upward closure, which bricks to come join by resting on one
    of its members with a top at the last brick's z or higher). A part rests on the bricks
    outside it only by upward forces at the shrunk contacts' corners (statics.py), so its
    centre of mass lies, on each axis, between the lowest and highest corner. Bricks still to
    come may add contacts only on the tops reaching the last brick's z (counted whole), and
    their centres lie within reach of the tops they grow from: a brick (at most `length` long)
    resting on a top sticks out of it by at most length - 1, its centre by at most
    length / 2 - 1."""

    def __init__(self, margin: float, length: int, boxes: tuple[Box, ...] = (),
                 rests: tuple[tuple[tuple[int, Rect], ...], ...] = (),
                 holds: tuple[int, ...] = ()) -> None:
        self.margin = margin
        self.length = length
        self.boxes = boxes
        self.rests = rests  # per brick: (the brick it rests on, the shrunk contact)
        self.holds = holds  # per brick: the bits of the bricks it holds up, itself included
        self.centres = [(b[0] + b[3] / 2, b[1] + b[4] / 2) for b in boxes]

    def add(self, box: Box) -> Partial:
        n = len(self.boxes)
        rests = tuple((j, shrunk_contact(box, b, self.margin)) for j, b in enumerate(self.boxes)
                      if b[2] + b[5] == box[2] and footprints_overlap(box, b))
        under = sum(1 << j for j, _ in rests)
        holds = tuple(h | 1 << n if h & under else h for h in self.holds)
        return Partial(self.margin, self.length, (*self.boxes, box), (*self.rests, rests),
                       (*holds, 1 << n))

    def can_balance(self, ends: list[int]) -> bool:
        """Whether some finished tower grown from this one by j more bricks, j in `ends`, may
        hold up every part tried."""
        if not ends:
            return False
        opened = self._opened()
        if not all(self._part_balances(mask, ends, opened, opened) for mask in self._levels()):
            return False
        reach = range(max(ends) + 1)
        for i, mask in enumerate(self.holds):
            if self.boxes[i][2] == 0:  # the brick on the table holds up the tower
                continue
            bases = opened & mask
            if not self._part_balances(mask, reach if bases else range(1), bases, opened):
                return False
        return True

    def next_centres(self, followers: list[int]) -> list[tuple[float, float]]:
        """Per axis, where the centre of the next brick must lie when j more follow it, j in
        `followers`: each level, with those bricks, must balance on its contacts (those they
        may add counted whole), the bricks that follow reaching from the open tops through
        the next brick (the same reach as `can_balance`)."""
        opened = self._opened()
        reach = self._reach(opened)
        bounds = [(-inf, inf), (-inf, inf)]
        for mask in self._levels():
            members = _bits(mask)
            spans = _bounds(self._spans(mask, opened))
            totals = self._totals(members)
            for k in (0, 1):
                lo, hi = spans[k]
                total, (a, z) = totals[k], reach[k]
                least, highest = inf, -inf
                for j in followers:
                    spread = (self.length - 1) * j * (j + 1) / 2  # the i-th: (length - 1) i
                    n = len(members) + 1 + j
                    least = min(least, lo * n - total - j * z - spread)
                    highest = max(highest, hi * n - total - j * a + spread)
                bounds[k] = (max(bounds[k][0], least), min(bounds[k][1], highest))
        return bounds

    def last_needs(self) -> list[tuple[list[tuple[int, Box]], list[tuple[float, float]]]]:
        """The parts a brick holds up that cannot balance as they are, so that the last brick
        must join each: per part, the tops it may rest on (top z, member) and, per axis, where
        its centre must then lie (its contacts counted whole, as in `can_balance`)."""
        opened = self._opened()
        needs = []
        for i, mask in enumerate(self.holds):
            if self.boxes[i][2] == 0 or self._part_balances(mask, [0], 0, 0):
                continue
            members = _bits(mask)
            spans = _bounds(self._spans(mask, opened))
            assert spans is not None  # a member rests on a brick outside
            n = len(members) + 1
            totals = self._totals(members)
            bounds = [(lo * n - totals[k], hi * n - totals[k]) for k, (lo, hi) in enumerate(spans)]
            needs.append(([(self.boxes[u][2] + self.boxes[u][5], self.boxes[u])
                           for u in _bits(mask & opened)], bounds))
        return needs

    def _opened(self) -> int:
        """The bits of the bricks with a top at the last brick's z or higher: bricks to come
        may rest on them."""
        last = self.boxes[-1][2]
        return sum(1 << i for i, b in enumerate(self.boxes) if b[2] + b[5] >= last)

    def _levels(self) -> list[int]:
        return [sum(1 << i for i, b in enumerate(self.boxes) if b[2] >= h)
                for h in sorted({b[2] for b in self.boxes if b[2] > 0})]

    def _spans(self, mask: int, extra: int) -> list[Rect]:
        """The shrunk contacts the part `mask` rests on, and the whole tops of the bricks
        `extra` outside it."""
        spans = [rect for u in _bits(mask) for b, rect in self.rests[u] if not mask >> b & 1]
        return spans + [_top(self.boxes[b]) for b in _bits(extra & ~mask)]

    def _totals(self, members: tuple[int, ...]) -> tuple[float, float]:
        """Per axis, the sum of the members' centres (all bricks weigh the same)."""
        return (sum(self.centres[u][0] for u in members),
                sum(self.centres[u][1] for u in members))

    def _reach(self, bases: int) -> list[tuple[float, float]]:
        """Per axis, the lowest and highest centre of a brick resting on one of `bases`."""
        grown_from = [self.boxes[b] for b in _bits(bases)]
        return [(min(b[k] for b in grown_from) - self.length / 2 + 1,
                 max(b[k] + b[k + 3] for b in grown_from) + self.length / 2 - 1)
                for k in (0, 1)]

    def _part_balances(self, mask: int, joining: list[int] | range, bases: int,
                       opened: int) -> bool:
        """Whether the part `mask` balances with m bricks to join it, for some m in
        `joining`, grown from the bricks `bases` (adding contacts on the tops `opened`)."""
        members = _bits(mask)
        totals = self._totals(members)
        own = _bounds(self._spans(mask, 0))
        wider = _bounds(self._spans(mask, opened)) if bases else None
        reach = self._reach(bases) if bases else [(0.0, 0.0), (0.0, 0.0)]
        for more in joining:
            spans = wider if more else own
            if spans is None:
                continue
            spread = (self.length - 1) * more * (more - 1) / 2  # the i-th: (length - 1)(i - 1)
            n = len(members) + more
            for k in (0, 1):
                lo, hi = spans[k]
                a, z = reach[k]
                if totals[k] + more * z + spread < lo * n or totals[k] + more * a - spread > hi * n:
                    break
            else:
                return True
        return False


@cache
def _bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def _bounds(spans: list[Rect]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Per axis, the lowest and highest corner of the spans (with the float slack), or None
    when there are none."""
    if not spans:
        return None
    return ((min(s[0] for s in spans) - EPSILON, max(s[1] for s in spans) + EPSILON),
            (min(s[2] for s in spans) - EPSILON, max(s[3] for s in spans) + EPSILON))


def _top(box: Box) -> Rect:
    return box[0], box[0] + box[3], box[1], box[1] + box[4]


def _resting_places(chosen: tuple[Box, ...], extents: list[tuple[int, int, int]]) -> list[Box]:
    """Every box after the last of `chosen` in `box_order`, resting on one of them (sharing area
    with its top) and free of them."""
    last = box_order(chosen[-1])
    found = {(x, y, base[2] + base[5], dx, dy, dz)
             for base in chosen if base[2] + base[5] >= last[0] for dx, dy, dz in extents
             for x in range(base[0] - dx + 1, base[0] + base[3])
             for y in range(base[1] - dy + 1, base[1] + base[4])}
    return sorted(box for box in found if box_order(box) > last
                  and not any(boxes_collide(box, other) for other in chosen))


if __name__ == "__main__":
    main()
