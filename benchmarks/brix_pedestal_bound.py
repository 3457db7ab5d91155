"""Do the bricks lying on a lone pedestal get enough weight from above to stand? A load
bound that proves card sets unsolvable where Z3 runs out of time.

    python benchmarks/brix_pedestal_bound.py --deck pink --cards P08 P13 P19 P44
    python benchmarks/brix_pedestal_bound.py --deck pink --cards P08 P13 P19 P44 \
        --record content/brix/conflicts/pink.yaml   # the proof written there
    python benchmarks/brix_pedestal_bound.py --deck green --cards G13 G30 G32 G44 G45 \
        --given "exactly 1 bricks touch the ground" --case-log LOG   # one case, any colour
    python benchmarks/brix_pedestal_bound.py --deck green --cards G06 G33 G38 G39 G41 \
        --lying --upright 2 --at-least 5 --given "..." --case-log LOG  # a lying pedestal
    python benchmarks/brix_pedestal_bound.py --deck green --cards G17 G33 G35 G38 G46 \
        --lying --upright 4 --at-least 5 --height 4 --complete --given "..." --case-log LOG

Why: audits leave pink's P08 P13 P19 P44 undecided at 60 s ("every gray brick is vertical",
"every gray brick touches at least 3 bricks", "there is exactly 1 vertical brick", "every
lowest brick is gray"). Z3 and the search look for a tower; the towers these cards allow are
tall stacks on one small top, and the reason none stands is a count of weights. Green's
G13 G30 G32 G44 G45 (3 upright bricks, at most 2 on the table, 4 upright bricks tall, every
brick touching 2, one resting on 3), split by brix_case_split.py, leaves the case of one brick
on the table open at 150 s a question, however far it is split.

The facts (Z3 proves each: no standing tower meets the cards and the fact's negation,
`negations`): (1) one brick P, upright (with --lying: lying), is alone on the table: of the
--pedestal colour (one brick in the deck), or of any colour; (2) the bricks resting on P lie;
(3) at least K bricks rest on P (pink's P13: what touches P must rest on it, see below); with
--bricks n, (4) there are at most n bricks. With --upright, (2) is not asked: the bricks on P
may stand upright too, and their places are tried as well; with --upright N, (2) is that at most
N of them do, and sets with more are not tried. With --given (texts the towers also meet), the
facts are asked under that case and the conclusion is of it only: --case-log writes it into the
case split's log as a closed case, named with this command (as brix_unloaded_uprights.py does),
and the case split run again on that log records the proof of the cards.

The argument, in the statics model (tower_print/brix/statics.py): every brick off the table
rests on a lower one, and those chains end at P, so every other brick is at z >= top(P) and
the bricks at z = top(P) rest on P alone. P carries the n - 1 other bricks (n at most the
deck's bricks), all through the k >= K bricks resting on it, so the bricks above those k press
on them with n - 1 - k brick weights in all. Each of the k stands only if the resultant of its
own weight and the loads on it lies in its contact with P shrunk by the margin (statics'
rectangle, `contacts`). A load reaches it through a contact with a brick above, shrunk by the
margin times the contact's extent, at least one lattice unit: so inside its top shrunk by the
margin on every side. The least load, in brick weights, that brings the resultant into the
contact is found axis by axis in exact fractions (`script_proofs.least_load`; a resultant
anywhere in the shrunk top can only ask less than real contacts do; a place needing no load
is checked to stand alone on P by statics.stands, and every other to fall). Every set of
k >= K pairwise free bricks on P is tried (`resting_sets`); when each needs more than
n - 1 - k, no tower meets the cards and stands.

With --complete, a set that needs no more than the weight above it is completed instead of
ending the run: every tower of P, the set and the other bricks (as many as the weight the set
needs at least, up to n - 1 - k, or exactly that many when the deck uses all its bricks), each
resting on a brick of the set or on one of the others, pairwise free and (--height H, a fact)
at most H flat bricks tall (`completions`), is read by the judge of the enumerations
(`script_proofs.tower_judge`: the colour-free cards, statics.stands, every colouring). One
meeting the cards ends the run with it (check_witness); none, and the case is closed.

Results (2026-12-01, 4 s): P08 P13 P19 P44 (pink, K = 3): Z3 proves the five facts in 0.3-1.1 s
each (then, "every other brick lies" for (2)); 30 places for a lying brick on the gray top, 112
sets of 3 or 4 free ones; the least loads add up to at least 11/2 brick weights for 3 bricks
(5 above them) and 10 for 4 (4 above): no tower stands. A brick on one lattice cell of the top
needs 5/2, one on two cells 1/2 or 5/2.
Green's G13 G30 G32 G44 G45 given one brick on the table (2026-12-06, 12 s, any colour): Z3
proves the four facts in 0.3-4.1 s each, and the same 112 sets need more than is above; the
case split then records the proof (its other cases impossible at 150 s).
Green's G06 G33 G38 G39 G41 given a lying brick alone on the table, 2 or 3 uprights (none on
the table) and 4 flat bricks tall (2026-12-06, 1 s, --lying --upright 2 or 3 --at-least 5):
61 places on the 4 x 2 top (15 of them upright), 2,152 and 2,746 sets of 5 or more need more
than the 2 weights above them. With 4 on it and 3 above there is no conclusion: four lying
bricks across the corners, each half off the top, need 1/2 each.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

from brix_case_split import add_case_options, case_log, close_case, given_options
from script_proofs import (
    PILLAR_FACTS,
    least_load,
    proof_deck,
    proof_parser,
    prove_facts,
    record_script_proof,
    report_towers,
    tower_judge,
)

from tower_print.brix.decks import Deck
from tower_print.brix.geometry import PlacedBrick, collide, rests_on
from tower_print.brix.shape_library import box_of
from tower_print.brix.statics import stands

ALONE_FACTS = ("no {c} brick is {o}", "no {c} brick touches the ground",
               "at least 2 bricks touch the ground")
"""The negations of fact (1) for a pedestal of one colour standing in orientation {o}, each of
which Z3 must prove impossible with the cards; `negations` adds (2) and (3)."""


def negations(colour: str | None, at_least: int, uprights: int, bricks: int, every: int,
              lying: bool = False) -> list[str]:
    """The negations of the facts (1)-(4) for a pedestal of `colour` (None: of any colour, the
    one brick on the table), upright or (`lying`) lying; (2) at most `uprights` bricks on it
    stand upright (none asked when any number may)."""
    on = f"some {colour} brick" if colour else "some grounded brick"
    own, other = ("horizontal", "vertical") if lying else ("vertical", "horizontal")
    alone = ([f.format(c=colour, o=own) for f in ALONE_FACTS] if colour else
             [PILLAR_FACTS[0], f"some grounded brick is {other}"])
    upright = ([f"some vertical brick rests on {on}"] if uprights == 0 else
               [f"at least {uprights + 1} vertical bricks rest on {on}"]
               if uprights < bricks - 1 else [])
    return [*alone, *upright,
            f"at most {at_least - 1} bricks rest on {on}",
            *([f"there are at least {bricks + 1} bricks"] if bricks < every else [])]


UNBOUNDED = 1 << 30
"""--upright without a count: any number of the bricks on the pedestal may stand upright."""


def main() -> None:
    parser = proof_parser(__doc__.split("\n\n")[0], ["P08", "P13", "P19", "P44"], "the proof")
    parser.add_argument("--pedestal", metavar="COLOUR",
                        help="the colour of the pedestal, one brick in the deck (default: any "
                             "colour, the one brick on the table)")
    parser.add_argument("--at-least", type=int, default=3,
                        help="K: how many bricks rest on the pedestal at least")
    parser.add_argument("--upright", nargs="?", type=int, const=UNBOUNDED, default=0,
                        metavar="N", help="bricks on the pedestal may stand upright too (N: at "
                                          "most N of them, a fact)")
    parser.add_argument("--lying", action="store_true",
                        help="the pedestal lies (default: it stands upright)")
    parser.add_argument("--bricks", type=int,
                        help="n: the bricks at most (default: all the deck's)")
    parser.add_argument("--height", type=int, metavar="H",
                        help="the tower is at most H flat bricks tall (a fact)")
    parser.add_argument("--complete", action="store_true",
                        help="a set given enough weight is completed: every tower of the other "
                             "bricks on it is read on the cards and statics")
    add_case_options(parser)
    args = parser.parse_args()
    deck, cards = proof_deck(parser, args)
    if args.pedestal and len(deck.bricks.by_color(args.pedestal)) != 1:
        parser.error(f"the {args.deck} deck must have exactly one {args.pedestal} brick")
    every = len(deck.bricks.bricks)
    n = args.bricks or every
    if not 2 <= n <= every:
        parser.error(f"--bricks: from 2 to the deck's {every}")
    if args.upright < 0:
        parser.error("--upright: a count from 0")
    uprights = min(args.upright, n - 1)
    if args.height is not None and args.height < 1:
        parser.error("--height: a count of flat bricks from 1")
    log = case_log(parser, args, deck, cards)
    taller = [f"the tower is at least {args.height + 1} flat bricks tall"] if args.height else []
    prove_facts(deck, cards,
                [*negations(args.pedestal, args.at_least, uprights, n, every, args.lying),
                 *taller], args.timeout, args.record, args.given)
    name = args.pedestal or "pedestal"
    base, margin = pedestal(deck, name, args.lying), deck.bricks.stability_margin
    places = [*resting_places(deck, base),
              *(resting_places(deck, base, upright=True) if uprights else [])]
    loads = [least_load(box_of(brick), [box_of(base)], margin) for brick in places]
    assert all((load == 0) == stands((base, brick), margin)
               for brick, load in zip(places, loads, strict=True)), "statics disagrees"
    print(f"{len(places)} places for a brick on the {name} top; least loads "
          + ", ".join(sorted({str(load) for load in loads}, key=Fraction)))
    top = args.height * deck.bricks.thickness if args.height else None
    counts: Counter[str] = Counter()
    judge = tower_judge(deck, [deck.card(c).condition for c in cards], counts)
    tried, completed = 0, 0
    for chosen in resting_sets(places, args.at_least):
        if sum(places[i].name == "upright" for i in chosen) > uprights:
            continue
        tried += 1
        need = sum(loads[i] for i in chosen)
        above = n - 1 - len(chosen)
        if need <= above:
            lower = (base, *(places[i] for i in chosen))
            if not args.complete:
                print("not excluded:", lower[1:], f"needs {need}")
                raise SystemExit("no conclusion: some set of bricks gets enough weight")
            completed += 1
            fewest = above if deck.all_used else math.ceil(need)
            for tower in completions(deck, lower, fewest, above, top):
                met = judge(tuple(box_of(brick) for brick in tower))
                if met is not None:
                    report_towers(deck, cards, [met], "a standing tower meeting the cards "
                                  "(check_witness passed):", args.record,
                                  "a completion in brix_pedestal_bound.py --complete")
                    raise SystemExit("no conclusion: the cards are met")
    given = "; ".join(args.given)
    print(f"{tried} sets of {args.at_least} or more free bricks on the {name} brick, "
          + (f"{completed} of them given enough weight and completed in {counts['towers']} "
             f"towers ({counts['meet the colour-free cards']} meeting the colour-free cards, "
             f"{counts['stand']} of those standing, none meeting every card), the others "
             if completed else "each ")
          + f"needing more weight from above than the other bricks have: no tower meeting "
          f"{' '.join(cards)}{' and ' + given if given else ''} stands")
    command = " ".join([
        "python benchmarks/brix_pedestal_bound.py --deck", args.deck, "--cards", *cards,
        *(["--pedestal", args.pedestal] if args.pedestal else []),
        "--at-least", str(args.at_least),
        *(["--upright"] if uprights >= n - 1 else ["--upright", str(uprights)] if uprights else []),
        *(["--lying"] if args.lying else []),
        *(["--bricks", str(n)] if n < every else []),
        *(["--height", str(args.height)] if args.height else []),
        *(["--complete"] if args.complete else []),
        *given_options(args.given),
        "--timeout", f"{args.timeout:g}"])
    finding = (f"{tried} sets of bricks on the pedestal, none can stand" if not completed else
               f"{tried} sets of bricks on the pedestal: {tried - completed} cannot stand, "
               f"{completed} completed in {counts['towers']} towers, none standing and meeting "
               "the cards")
    if log:
        close_case(log, args.given, args.timeout, args.case_log, command, finding)
    if args.record:
        record_script_proof(args.record, deck, tuple(cards), command, finding,
                            "a load bound, not by Z3")
        print(f"added to {args.record}")


def pedestal(deck: Deck, colour: str, lying: bool = False) -> PlacedBrick:
    """The pedestal at the origin, upright or (`lying`) lying along x: along y is the same up
    to a turn, and the places on its top are tried in every extent."""
    extent = max(e for e in deck.bricks.extents() if deck.bricks.is_vertical(e) != lying)
    return PlacedBrick(f"{colour}-1", colour, 0, 0, 0, *extent)


def resting_places(deck: Deck, base: PlacedBrick, upright: bool = False) -> list[PlacedBrick]:
    """Every lying brick (or, `upright`, every upright one) on the base's top that shares face
    area with it."""
    kind = "upright" if upright else "lying"
    return [PlacedBrick(kind, kind, x, y, base.top, dx, dy, dz)
            for dx, dy, dz in sorted(deck.bricks.extents())
            if deck.bricks.is_vertical((dx, dy, dz)) == upright
            for x in range(base.x + 1 - dx, base.x + base.dx)
            for y in range(base.y + 1 - dy, base.y + base.dy)]


def completions(deck: Deck, lower: tuple[PlacedBrick, ...], fewest: int, most: int,
                top: int | None) -> Iterator[tuple[PlacedBrick, ...]]:
    """Every tower of `lower` and fewest..most more bricks, each resting on a brick of `lower`
    (not the first, the pedestal: nothing else rests on it) or on one of the others, pairwise
    free, none reaching above `top`, and none left without a brick on it when it needs a load
    (`least_load`: a brick off its supports falls unless pressed from above). The others are
    taken in order of (z, x, y, extent) so that each tower comes once: a brick's supports are
    lower, so they come before it, and a brick needing a load whose top is below the next
    brick's bottom will get none."""
    margin = deck.bricks.stability_margin

    def places_on(support: PlacedBrick) -> list[PlacedBrick]:
        return [place for upright in (False, True)
                for place in resting_places(deck, support, upright)
                if top is None or place.top <= top]

    def key(brick: PlacedBrick) -> tuple[int, ...]:
        return (brick.z, brick.x, brick.y, brick.dx, brick.dy, brick.dz)

    known: dict[tuple[PlacedBrick, ...], bool] = {}

    def needs_load(brick: PlacedBrick, below: tuple[PlacedBrick, ...]) -> bool:
        supports = tuple(other for other in below if rests_on(brick, other))
        if (brick, *supports) not in known:
            known[(brick, *supports)] = least_load(
                box_of(brick), [box_of(other) for other in supports], margin) > 0
        return known[(brick, *supports)]

    def grow(placed: tuple[PlacedBrick, ...], waiting: tuple[PlacedBrick, ...]
             ) -> Iterator[tuple[PlacedBrick, ...]]:
        if len(placed) >= fewest and not waiting:
            yield (*lower, *placed)
        if len(placed) == most:
            return
        after = key(placed[-1]) if placed else ()
        candidates = {key(place): place for support in (*lower[1:], *placed)
                      for place in places_on(support) if key(place) > after}
        below = (*lower, *placed)
        for k in sorted(candidates):
            brick = candidates[k]
            if any(w.top < brick.z for w in waiting):
                return
            if any(collide(brick, other) for other in below):
                continue
            still = tuple(w for w in waiting if not rests_on(brick, w))
            yield from grow((*placed, brick),
                            (*still, brick) if needs_load(brick, below) else still)

    yield from grow((), tuple(brick for brick in lower[1:] if needs_load(brick, lower[:1])))


def resting_sets(places: list[PlacedBrick], at_least: int) -> list[tuple[int, ...]]:
    """Every set of at least `at_least` places whose bricks do not overlap (all lie at one z)."""
    found: list[tuple[int, ...]] = []

    def grow(chosen: tuple[int, ...]) -> None:
        if len(chosen) >= at_least:
            found.append(chosen)
        for i in range((chosen[-1] + 1) if chosen else 0, len(places)):
            if not any(collide(places[i], places[j]) for j in chosen):
                grow((*chosen, i))

    grow(())
    return found


if __name__ == "__main__":
    main()
