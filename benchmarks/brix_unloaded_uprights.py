"""When the bricks lying on the one lying brick on the table need all the weight above them,
the uprights on the table carry nothing, and the tower without them must stand by itself.

    python benchmarks/brix_unloaded_uprights.py --deck pink --cards P18 P28 P30 P34 P44 \
        --base gray --uprights 2 --resting 4 4
    python benchmarks/brix_unloaded_uprights.py --deck pink --cards P28 P30 P34 P44 P54 \
        --base gray --uprights 0 2 --resting 0 8 \
        --record content/brix/conflicts/pink.yaml   # the proof written there
    python benchmarks/brix_unloaded_uprights.py --deck green --cards G14 G18 G24 G33 G42 \
        --uprights 3 --raised 1 --resting 0 3 --given "exactly 4 bricks touch the ground" \
        --given "there are exactly 4 vertical bricks" \
        --given "exactly 3 vertical bricks touch the ground" --case-log LOG  # one case

Why: audits leave pink's P18 P28 P30 P34 P44 undecided ("exactly 3 bricks touch the ground",
"the tower is exactly 3 flat bricks tall", "exactly 2 bricks share the top height", "use all
nine bricks", "every other brick's top is higher than the gray one's"). Told the counts below,
Z3 keeps building candidates that fall (four bricks round the gray one, each on a corner of
it) and does not close the case; the short tower enumeration places at most 2 bricks on the
table, and with three the upright pairs are too many to place. Green's four sets with G14
("as many vertical bricks as horizontal"), G24 (3 flat bricks tall) and G33 (no purple brick
on the table) leave, split by brix_case_split.py, one case Z3 does not close: 4 bricks on the
table, 3 of them upright, a fourth upright on the lying one.

The facts (Z3 proves each: no standing tower meets the cards, the --given case's conditions
and the fact's negation, `negations`): (1) one brick lies on the table, the base (of the
colour --base names, one in the deck; else of any colour), and every other brick there stands
upright; (2) between ulo and uhi uprights stand on the table (--uprights), and, asked for each
count U, between jlo and jhi other uprights (--raised); (3) the tower is exactly 3 flat bricks
tall; (4) there are n bricks (--bricks); (5) between lo and hi lying bricks rest on the base
(--resting). Each case (U uprights on the table, J other uprights, k lying bricks on the
base) is then closed by the argument below or, where that has no conclusion, by Z3 (no
standing tower meets the cards and the case); a case Z3 does not close ends the run without
a conclusion. With --given the conclusion is of that case only: --case-log writes it into the
case split's log as a closed case, named with this command, and the case split run again on
that log records the proof of the cards.

The argument, in the statics model (tower_print/brix/statics.py): every brick off the table
rests on a lower one (side contacts carry nothing) and every z is even (bricks are 2 or 4 high),
so the bricks off the table lie (2): J uprights and k lying bricks at z = 2 on the base alone
(the only top at 2; an upright higher would pass 3 flat bricks), m = n - 1 - U - J - k lying
bricks at z = 4 on tops at 4 (the k, the uprights on the table), none higher (3), and some top
at 6 (the J, or m >= 1). Nothing rests on the J or the m (their tops are the highest): the J
stand alone on the base, and m brick weights in all go down onto the k and the uprights on the
table. Each of the k needs a least load from above to stand on the base
(`script_proofs.least_load`, as in brix_pedestal_bound.py), and every set of free places on the
base, J upright ones standing alone and k lying ones, is tried (`resting_sets`): one needing
more than m cannot stand; when every other needs exactly m, the k take all of the m weights and
the uprights on the table none. With no force on those, the forces on the other bricks balance
by themselves, so the tower without them stands (statics.stands: non-negative forces at the
contacts' corners balancing each brick; the centre tests on its parts follow from those
forces), and it is joined: each of the m presses on some of the k. It is then one of the
towers of 1 + J + k + m bricks on the base alone, which the short tower enumeration's `Search`
enumerates in full (pruned only by conditions every standing tower meets): when none of those
stands, no tower meets the cards. When a set needs less than m (the uprights on the table may
carry the rest), or one of those towers stands (Search has no cards to try on it), Z3 is asked.
When Z3 does not close a case with at most one upright on the table (U <= 1: at most 2 bricks
there), every tower of the case is enumerated and read on the cards, as the short tower
enumeration does (`Search` on each placement of the base and the upright, `_enumerated`).
With --above-ground, (6) some brick is above every brick on the table (green's G48; Z3 proves
it too): in a tower 3 flat bricks tall it lies at z = 4, over the base and every upright on
the table, so a case with two uprights there has few placements (110 up to turns,
`_under_one_brick`) and Z3's undecided ones are enumerated too.

Results (2026-12-06): P18 P28 P30 P34 P44 (U = 2, k = 4, n = 9, so m = 2): 46 places for a
lying brick on the lying gray top; 1,072 sets of 4 free ones, all needing at least 2 brick
weights and one (an 8 x 4 slab centred on the gray brick, half a weight each) exactly 2; its
towers of 7 bricks on the gray brick alone: 406 enumerated, 39 past the centre tests, none stands.
P28 P30 P34 P44 P54 (U = 0-2, k = 0-8; 26 s): Z3 closes every case with k <= 4 but U = 2, k = 4
(0.5-1.2 s each), which the argument closes as above; k >= 5 needs more weight than is left.
Green's G14 G18 G24 G33 G42, G14 G20 G24 G33 G42, G14 G24 G27 G33 G39 and G14 G24 G27 G33 G42,
the case above (U = 3, J = 1, k = 0-3): 3 places for an upright standing alone on the base;
Z3 closes k = 0 and 1 (0.2-0.3 s each); k = 2: 11 of the 104 sets of 2 lying and 1 upright
need exactly the 1 weight above, the others more, and none of the 102 towers of 5 bricks on
the base stands; k = 3: each set needs weight and none is above. Green's G06 G14 G18 G27 G43
over every count (--uprights 0 6 --raised 0 2 --resting 0 6; the red bricks touch, one lowest
and one highest, so the tower is 3 flat bricks tall): 45 cases by Z3 (at most 0.8 s each), 30
by the weight count, two by the towers on the base (406 and 102), 30 s. In G06 G18 G29 G43 G48,
Z3 leaves U = 1, J = 1, k = 2 at 60 s, and its 344,663 towers on the 1,480 placements of the
base and the upright (69 s) hold none that stands and meets the cards; U = 2, J = 1, k = 2
stays open there, as in G06 G13 G18 G43 G48 and G06 G18 G26 G43 G48.
"""

from __future__ import annotations

import argparse
import functools
from fractions import Fraction
from pathlib import Path

from brix_case_split import add_case_options, case_log, close_case, given_options
from brix_pedestal_bound import pedestal, resting_places, resting_sets
from brix_short_tower_enumeration import (
    EXTENTS,
    LENGTH,
    WIDTH,
    Options,
    Search,
    ground_placements,
)
from script_proofs import (
    Box,
    ask_impossible,
    first_of_turns,
    footprints_overlap,
    least_load,
    proof_deck,
    proof_parser,
    prove_facts,
    record_script_proof,
    report_towers,
)

from tower_print.brix.decks import Deck
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.shape_library import box_of


def negations(base: str | None, uprights: tuple[int, int], bricks: int, every: int,
              resting: tuple[int, int]) -> list[str]:
    """The negations of facts (1)-(5) that hold for every case, each of which Z3 must prove
    impossible with the cards; those no tower can meet (fewer than none, more bricks than the
    deck has) are left out. How many uprights stand on the base is asked per count of those on
    the table (in `main`)."""
    (ulo, uhi), (lo, hi) = uprights, resting
    lying = ([f"no {base} brick touches the ground", f"some {base} brick is vertical"] if base
             else ["no horizontal brick touches the ground"])
    on_base = _on_base(base)
    return [*lying, "at least 2 horizontal bricks touch the ground",
            *([f"at most {ulo - 1} vertical bricks touch the ground"] if ulo else []),
            f"at least {uhi + 1} vertical bricks touch the ground",
            "the tower is at most 2 flat bricks tall", "the tower is at least 4 flat bricks tall",
            f"there are at most {bricks - 1} bricks",
            *([f"there are at least {bricks + 1} bricks"] if bricks < every else []),
            *([f"at most {lo - 1} horizontal bricks rest on {on_base}"] if lo else []),
            f"at least {hi + 1} horizontal bricks rest on {on_base}"]


def _on_base(base: str | None) -> str:
    """The base in the condition language: a colour's one brick, or the lying grounded one."""
    return f"some {base} brick" if base else "some horizontal grounded brick"


def _span(parser: argparse.ArgumentParser, values: list[int], option: str) -> tuple[int, int]:
    """A count or the least and the most, from 0."""
    if not (len(values) <= 2 and 0 <= values[0] <= values[-1]):
        parser.error(f"{option}: one count or two from 0, the first no larger")
    return values[0], values[-1]


def main() -> None:
    parser = proof_parser(__doc__.split("\n\n")[0], ["P18", "P28", "P30", "P34", "P44"],
                          "the proof")
    parser.add_argument("--base", metavar="COLOUR",
                        help="the base's colour, one brick in the deck (default: any colour, "
                             "the one lying brick on the table)")
    parser.add_argument("--uprights", type=int, nargs="+", default=[2], metavar="U",
                        help="U: the upright bricks on the table, one count or the least and "
                             "the most")
    parser.add_argument("--raised", type=int, nargs="+", default=[0], metavar="J",
                        help="J: the upright bricks on the base, one count or the least and the "
                             "most")
    parser.add_argument("--bricks", type=int, help="n: the bricks (default: all the deck's)")
    parser.add_argument("--resting", type=int, nargs=2, default=[4, 4], metavar=("LO", "HI"),
                        help="how many lying bricks rest on the base, at least and at most")
    parser.add_argument("--above-ground", action="store_true",
                        help="some brick is above every brick on the table (Z3 proves it): a "
                             "case with 2 uprights on the table is enumerated under it")
    add_case_options(parser)
    args = parser.parse_args()
    deck, cards = proof_deck(parser, args)
    every = len(deck.bricks.bricks)
    n = args.bricks or every
    lo, hi = args.resting
    ulo, uhi = _span(parser, args.uprights, "--uprights")
    jlo, jhi = _span(parser, args.raised, "--raised")
    if args.base and len(deck.bricks.by_color(args.base)) != 1:
        parser.error(f"the {args.deck} deck must have exactly one {args.base} brick")
    if not (0 <= lo <= hi and n <= every):
        parser.error(f"--resting from 0 with LO <= HI; --bricks at most the deck's {every}")
    if sorted(deck.bricks.extents()) != sorted(EXTENTS):
        parser.error("the enumeration is for 4 x 2 x 2 bricks")
    log = case_log(parser, args, deck, cards)
    given = args.given
    prove_facts(deck, cards, [*negations(args.base, (ulo, uhi), n, every, (lo, hi)),
                              *([NOT_ABOVE_GROUND] if args.above_ground else [])],
                args.timeout, args.record, given)
    base = pedestal(deck, args.base or "base", lying=True)
    places, loads = _base_places(deck, base)
    print(f"{len(places)} places for a brick on the lying base (lying, or upright alone)")
    on_base = _on_base(args.base)
    by_z3, heavy, found = 0, 0, []
    for uprights in range(ulo, uhi + 1):
        on_table = f"exactly {uprights} vertical bricks touch the ground"
        ask_impossible(deck, cards, [*given, on_table, "there are at least "
                                     f"{uprights + jhi + 1} vertical bricks"],
                       args.timeout, args.record)
        if jlo:
            ask_impossible(deck, cards, [*given, on_table, "there are at most "
                                         f"{uprights + jlo - 1} vertical bricks"],
                           args.timeout, args.record)
        for raised in range(jlo, jhi + 1):
            vertical = f"there are exactly {uprights + raised} vertical bricks"
            for k in range(lo, hi + 1):
                above = n - 1 - uprights - raised - k
                case = f"U = {uprights}, J = {raised}, k = {k}"
                if above < 0 or above == raised == 0:
                    why = "too many bricks" if above < 0 else "no brick reaches 3 flat bricks"
                    print(f"{case}: no tower ({why})")
                    continue
                counted = _unloaded(deck, base, places, loads, raised, k, above)
                if counted is None:  # the argument has no conclusion: Z3 closes the case,
                    # or, when its ground placements are few enough, the enumeration of its towers
                    grounds = _ground_placements(uprights, args.above_ground)
                    if ask_impossible(deck, cards, [*given, on_table, vertical, f"exactly {k} "
                                                    f"horizontal bricks rest on {on_base}"],
                                      args.timeout, args.record, settle=grounds is None):
                        by_z3 += 1
                        continue
                    assert grounds is not None
                    towers = _enumerated(deck, cards, grounds, (n, uprights, raised, above),
                                         args.record)
                    found.append(f"{case}: {towers} towers on {len(grounds)} placements of the "
                                 f"base and {uprights} upright beside it, none stands and meets "
                                 "the cards")
                    print(found[-1])
                    continue
                exact, sets, towers = counted
                if not exact:
                    print(f"{case}: " + (f"each of the {sets} sets on the base needs more "
                                         f"weight than the {above} above" if sets else
                                         "the bricks do not fit on the base"))
                    heavy += 1
                    continue
                finding = (f"{exact} of {sets} sets of {k} lying and {raised} upright on it "
                           f"need exactly the weight of the {above} above, the others more; "
                           f"{towers} towers without the uprights on the table, none stands")
                print(f"{case}: {finding}")
                found.append(f"{case}: {finding}")
    found += [*([f"{heavy} cases where every set on the base needs more weight than is above"]
                if heavy else []), *([f"{by_z3} cases closed by Z3"] if by_z3 else [])]
    print(f"no tower meeting {' '.join(cards)}{' and ' + '; '.join(given) if given else ''} "
          "stands")
    command = " ".join([
        "python benchmarks/brix_unloaded_uprights.py --deck", args.deck, "--cards", *cards,
        *(["--base", args.base] if args.base else []),
        "--uprights", *map(str, sorted({ulo, uhi})), "--raised", *map(str, sorted({jlo, jhi})),
        "--bricks", str(n), "--resting", str(lo), str(hi),
        *(["--above-ground"] if args.above_ground else []),
        *given_options(given), "--timeout", f"{args.timeout:g}"])
    if log:
        close_case(log, args.given, args.timeout, args.case_log, command, "; ".join(found))
    if args.record:
        record_script_proof(args.record, deck, tuple(cards), command, "; ".join(found),
                            "a load bound and an enumeration, not by Z3")
        print(f"added to {args.record}")


def _base_places(deck: Deck, base: PlacedBrick) -> tuple[list[PlacedBrick], list[Fraction]]:
    """The places for a brick on the base, lying ones and uprights standing alone (nothing can
    rest on an upright there: its top is the highest), and the least load each needs."""
    margin = deck.bricks.stability_margin
    places = [*resting_places(deck, base), *(
        place for place in resting_places(deck, base, upright=True)
        if least_load(box_of(place), [box_of(base)], margin) == 0)]
    return places, [least_load(box_of(place), [box_of(base)], margin) for place in places]


def _unloaded(deck: Deck, base: PlacedBrick, places: list[PlacedBrick],
              loads: list[Fraction], raised: int, k: int, above: int
              ) -> tuple[int, int, int] | None:
    """The weight argument for `raised` uprights and k lying bricks on the base and `above`
    bricks over them: the sets of places needing exactly that weight, all the sets, and the
    towers without the uprights on the table; or None when some set needs less (the uprights
    on the table might carry the rest) or a tower without them stands (it may be part of one
    meeting the cards, or, with no uprights on the table, be one): Z3 is asked then."""
    upright = [deck.bricks.is_vertical((p.dx, p.dy, p.dz)) for p in places]
    sets = [chosen for chosen in resting_sets(places, raised + k)
            if len(chosen) == raised + k and sum(upright[i] for i in chosen) == raised]
    needs = [sum((loads[i] for i in chosen), Fraction(0)) for chosen in sets]
    if any(need < above for need in needs):
        return None
    exact = sum(need == above for need in needs)
    if not exact:
        return 0, len(sets), 0
    bricks = 1 + raised + k + above
    counts = Search((box_of(base),), (bricks, raised, 0, raised + above, 1), None,
                    Options(deck.name, ())).run().counts
    if counts["stand"]:
        print(f"a tower of {bricks} bricks on the base alone stands")
        return None
    return exact, len(sets), counts["towers"]


NOT_ABOVE_GROUND = "no brick is above every grounded brick"
"""The negation of --above-ground's fact."""


@functools.cache
def _ground_placements(uprights: int, above_ground: bool) -> list[tuple[Box, ...]] | None:
    """The placements of the bricks on the table a case's enumeration runs on, or None when
    they are too many: the base and at most one upright (the short tower enumeration's
    `ground_placements`, 1,480), or, with --above-ground, the base and two uprights under a
    lying brick at z = 4 over all three (`_under_one_brick`)."""
    if uprights <= 1:
        return [grounds for grounds in ground_placements()
                if sorted(box[5] == LENGTH for box in grounds) == [False] + [True] * uprights]
    if uprights == 2 and above_ground:
        return _under_one_brick()
    return None


def _under_one_brick() -> list[tuple[Box, ...]]:
    """The base along x at the origin and two uprights beside it, all three under one lying box
    at z = 4, up to the turns and mirrorings of the base (`first_of_turns`).

    Why these hold every tower of such a case that meets the fact: the brick above every brick
    on the table is at z >= 4 (the uprights' tops), so in a tower 3 flat bricks tall it is a
    lying brick at z = 4 whose footprint meets all three. Laying the base along x and keeping
    one placement per turn or mirroring lose no tower meeting cards that name no direction."""
    base: Box = (0, 0, 0, LENGTH, WIDTH, WIDTH)
    found: set[tuple[Box, ...]] = set()
    for dx, dy in ((LENGTH, WIDTH), (WIDTH, LENGTH)):
        for x in range(1 - dx, LENGTH):
            for y in range(1 - dy, WIDTH):
                # the lying box over all three at (x, y): uprights meeting its footprint
                under = [(ux, uy, 0, WIDTH, WIDTH, LENGTH)
                         for ux in range(x - WIDTH + 1, x + dx)
                         for uy in range(y - WIDTH + 1, y + dy)]
                under = [box for box in under if not footprints_overlap(box, base)]
                found.update((base, *sorted((a, b))) for i, a in enumerate(under)
                             for b in under[i + 1:] if not footprints_overlap(a, b))
    return sorted(grounds for grounds in found if first_of_turns(grounds, base))


def _enumerated(deck: Deck, cards: list[str], placements: list[tuple[Box, ...]],
                counts: tuple[int, int, int, int], record: Path | None) -> int:
    """Every tower of a case on every placement of its bricks on the table (the base and U
    uprights: `_ground_placements`), read on the cards: the short tower enumeration's `Search`
    (n bricks, U + J upright, U of them on the table, J + m highest, 1 + U on the table). Its
    count of towers; a standing tower meeting the cards is reported (check_witness), written
    into `record`, and ends the run."""
    n, uprights, raised, above = counts
    towers = 0
    for grounds in placements:
        result = Search(grounds, (n, uprights + raised, uprights, raised + above,
                                  1 + uprights), None,
                        Options(deck.name, tuple(cards), ground_bricks=len(grounds))).run()
        towers += result.counts["towers"]
        if result.standing:
            report_towers(deck, cards, result.standing, "a standing tower meeting the cards "
                          "(check_witness passed):", record,
                          f"brix_unloaded_uprights.py's enumeration of U = {uprights}, J = "
                          f"{raised}, m = {above}")
            raise SystemExit(0)
    return towers


if __name__ == "__main__":
    main()
