"""When the bricks lying on the one lying brick on the table need all the weight above them,
the uprights on the table carry nothing, and the tower without them must stand by itself.

    python benchmarks/brix_unloaded_uprights.py --deck pink --cards P18 P28 P30 P34 P44
    python benchmarks/brix_unloaded_uprights.py --deck pink --cards P18 P28 P30 P34 P44 \
        --record content/brix/conflicts/pink.yaml   # the proof written there
    python benchmarks/brix_unloaded_uprights.py --deck pink --cards P28 P30 P34 P44 P54 \
        --uprights 0 2 --resting 0 8   # every count of uprights and of bricks on the base

Why: audits leave pink's P18 P28 P30 P34 P44 undecided ("exactly 3 bricks touch the ground",
"the tower is exactly 3 flat bricks tall", "exactly 2 bricks share the top height", "use all
nine bricks", "every other brick's top is higher than the gray one's"). Told the counts below,
Z3 keeps building candidates that fall (four bricks round the gray one, each on a corner of
it) and does not close the case; the short tower enumeration places at most 2 bricks on the
table, and with three the upright pairs are too many to place.

The facts (Z3 proves each: no standing tower meets the cards and the fact's negation,
`negations`): (1) the base brick (--base, a colour the deck has one brick of) lies on the table,
and every other brick there stands upright; (2) between ulo and uhi uprights stand on the table
(--uprights), and, asked for each count U, there are no other uprights; (3) the tower is
exactly 3 flat bricks tall; (4) there are n bricks (--bricks); (5) between lo and hi bricks rest
on the base (--resting). Each case (U uprights on the table, k bricks on the base) is then
closed by the argument below or, where that has no conclusion, by Z3 (no standing tower meets
the cards and the case); a case Z3 does not close ends the run without a conclusion.

The argument, in the statics model (tower_print/brix/statics.py): every brick off the table
rests on a lower one (side contacts carry nothing) and every z is even (bricks are 2 or 4 high),
so the bricks off the table lie (2): k of them at z = 2 on the base alone (the only top at 2),
m = n - 1 - U - k at z = 4 on tops at 4 (the k, the uprights), none higher (3), and m >= 1 (a
top at 6). The m carry nothing (their tops are the highest): m brick weights in all go down
onto the k and the uprights. Each of the k needs a least load from above to stand on the base
(`script_proofs.least_load`, as in brix_pedestal_bound.py), and every set of k free lying places
on the base is tried (`resting_sets`): one needing more than m cannot stand; when every other
needs exactly m, the k take all of the m weights and the uprights none. With no force on the
uprights, the forces on the other bricks balance by themselves, so the tower without the
uprights stands (statics.stands: non-negative forces at the contacts' corners balancing each
brick; the centre tests on its parts follow from those forces), and it is joined: each of the m
presses on some of the k. It is then one of the towers of 1 + k + m bricks on the base alone, k
at z = 2 and m at z = 4, which the short tower enumeration's `Search` enumerates in full (pruned
only by conditions every standing tower meets): when none of those stands, no tower meets the
cards. When a set of k needs less than m, the uprights may carry the rest, and Z3 is asked.

Results (2026-12-06): P18 P28 P30 P34 P44 (U = 2, k = 4, n = 9, so m = 2): 46 places for a
lying brick on the lying gray top; 1,072 sets of 4 free ones, all needing at least 2 brick
weights and one (an 8 x 4 slab centred on the gray brick, half a weight each) exactly 2; its
towers of 7 bricks on the gray brick alone: 406 enumerated, 39 past the centre tests, none stands.
P28 P30 P34 P44 P54 (U = 0-2, k = 0-8; 26 s): Z3 closes every case with k <= 4 but U = 2, k = 4
(0.5-1.2 s each), which the argument closes as above; k >= 5 needs more weight than is left.
"""

from __future__ import annotations

from fractions import Fraction

from brix_pedestal_bound import resting_places, resting_sets
from brix_short_tower_enumeration import EXTENTS, Options, Search
from script_proofs import (
    ask_impossible,
    least_load,
    proof_deck,
    proof_parser,
    prove_facts,
    record_script_proof,
)

from tower_print.brix.decks import Deck
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.shape_library import box_of


def negations(base: str, uprights: tuple[int, int], bricks: int, every: int,
              resting: tuple[int, int]) -> list[str]:
    """The negations of facts (1)-(5) that hold for every case, each of which Z3 must prove
    impossible with the cards; those no tower can meet (fewer than none, more bricks than the
    deck has) are left out. That there are no other uprights is asked per count (in `main`)."""
    (ulo, uhi), (lo, hi) = uprights, resting
    return [f"no {base} brick touches the ground", f"some {base} brick is vertical",
            "at least 2 horizontal bricks touch the ground",
            *([f"at most {ulo - 1} vertical bricks touch the ground"] if ulo else []),
            f"at least {uhi + 1} vertical bricks touch the ground",
            "the tower is at most 2 flat bricks tall", "the tower is at least 4 flat bricks tall",
            f"there are at most {bricks - 1} bricks",
            *([f"there are at least {bricks + 1} bricks"] if bricks < every else []),
            *([f"at most {lo - 1} bricks rest on some {base} brick"] if lo else []),
            f"at least {hi + 1} bricks rest on some {base} brick"]


def main() -> None:
    parser = proof_parser(__doc__.split("\n\n")[0], ["P18", "P28", "P30", "P34", "P44"],
                          "the proof")
    parser.add_argument("--base", default="gray",
                        help="the colour of the lying brick on the table (one in the deck)")
    parser.add_argument("--uprights", type=int, nargs="+", default=[2], metavar="U",
                        help="U: the upright bricks, one count or the least and the most")
    parser.add_argument("--bricks", type=int, help="n: the bricks (default: all the deck's)")
    parser.add_argument("--resting", type=int, nargs=2, default=[4, 4], metavar=("LO", "HI"),
                        help="how many bricks rest on the base, at least and at most")
    args = parser.parse_args()
    deck, cards = proof_deck(parser, args)
    every = len(deck.bricks.bricks)
    n = args.bricks or every
    lo, hi = args.resting
    ulo, uhi = args.uprights[0], args.uprights[-1]
    if len(deck.bricks.by_color(args.base)) != 1:
        parser.error(f"the {args.deck} deck must have exactly one {args.base} brick")
    if not (len(args.uprights) <= 2 and 0 <= ulo <= uhi and 0 <= lo <= hi and n <= every):
        parser.error("--uprights one count or two from 0, the first no larger; --resting from 0 "
                     f"with LO <= HI; --bricks at most the deck's {every}")
    if sorted(deck.bricks.extents()) != sorted(EXTENTS):
        parser.error("the enumeration is for 4 x 2 x 2 bricks")
    prove_facts(deck, cards, negations(args.base, (ulo, uhi), n, every, (lo, hi)),
                args.timeout, args.record)
    base = _lying_base(deck, args.base)
    places = resting_places(deck, base)
    margin = deck.bricks.stability_margin
    loads = [least_load(box_of(place), [box_of(base)], margin) for place in places]
    print(f"{len(places)} places for a lying brick on the lying {args.base} top")
    by_z3, heavy, found = 0, 0, []
    for uprights in range(ulo, uhi + 1):
        on_table = f"exactly {uprights} vertical bricks touch the ground"
        ask_impossible(deck, cards, [on_table, f"there are at least {uprights + 1} vertical "
                                             "bricks"], args.timeout, args.record)
        for k in range(lo, hi + 1):
            above = n - 1 - uprights - k
            case = f"U = {uprights}, k = {k}"
            if above < 1:
                print(f"{case}: no brick left to reach 3 flat bricks")
                continue
            counted = _unloaded(deck, base, places, loads, k, above)
            if counted is None:  # some set may leave weight for the uprights: Z3 must close it
                ask_impossible(deck, cards, [on_table, f"exactly {k} bricks rest on some "
                                                       f"{args.base} brick"],
                               args.timeout, args.record)
                by_z3 += 1
                continue
            exact, sets, towers = counted
            finding = (f"{exact} of {sets} sets of {k} lying on it need exactly the weight of "
                       f"the {above} above, the others more; {towers} towers without the "
                       "uprights, none stands")
            print(f"{case}: {finding}")
            if exact:
                found.append(f"{case}: {finding}")
            else:
                heavy += 1
    found = [*found, f"{heavy} cases where every set on the base needs more weight than is above",
             f"{by_z3} cases closed by Z3"]
    print(f"no tower meeting {' '.join(cards)} stands")
    if args.record:
        command = (f"python benchmarks/brix_unloaded_uprights.py --deck {args.deck} --cards "
                   f"{' '.join(cards)} --base {args.base} --uprights "
                   f"{' '.join(map(str, sorted({ulo, uhi})))} --bricks {n} --resting {lo} {hi}")
        record_script_proof(args.record, deck, tuple(cards), command, "; ".join(found),
                            "a load bound and an enumeration, not by Z3")
        print(f"added to {args.record}")


def _unloaded(deck: Deck, base: PlacedBrick, places: list[PlacedBrick],
              loads: list[Fraction], k: int, above: int) -> tuple[int, int, int] | None:
    """The weight argument for k bricks on the base and `above` bricks over them: the sets of
    k needing exactly that weight, all the sets of k, and the towers without the uprights; or
    None when some set of k needs less (the uprights might carry the rest). Exits without a
    conclusion when a tower without the uprights stands."""
    sets = [chosen for chosen in resting_sets(places, k) if len(chosen) == k]
    needs = [sum((loads[i] for i in chosen), Fraction(0)) for chosen in sets]
    if any(need < above for need in needs):
        return None
    exact = sum(need == above for need in needs)
    counts = Search((box_of(base),), (1 + k + above, 0, 0, above, 1), None,
                    Options(deck.name, ())).run().counts
    if counts["stand"]:
        raise SystemExit(f"no conclusion: a tower of {1 + k + above} on the {base.color} brick "
                         "alone stands")
    return exact, len(sets), counts["towers"]


def _lying_base(deck: Deck, colour: str) -> PlacedBrick:
    """The base lying along x at the origin (along y is the same up to a turn)."""
    lying = max(e for e in deck.bricks.extents() if not deck.bricks.is_vertical(e))
    return PlacedBrick(f"{colour}-1", colour, 0, 0, 0, *lying)


if __name__ == "__main__":
    main()
