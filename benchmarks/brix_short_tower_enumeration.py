"""Every tower 3 flat bricks tall with at most 2 bricks on the table (green's G24, G30),
enumerated in plain Python (no Z3): does any of them stand and meet the other cards?

    python benchmarks/brix_short_tower_enumeration.py                 # G13 G24 G30
    python benchmarks/brix_short_tower_enumeration.py --cards G16 G24 G30 G35
    python benchmarks/brix_short_tower_enumeration.py --cards G18 G24 G43 G46  # G30 implied
    python benchmarks/brix_short_tower_enumeration.py --cards G24 G30 --uprights 2 --first
    python benchmarks/brix_short_tower_enumeration.py --cards G24 G30 --uprights 2 \
        --expect verify.json --only-expected  # verify.json: `tower-print brix verify ... --json`
    python benchmarks/brix_short_tower_enumeration.py --cards G24 G30 --uprights 0 \
        --expect verify.json --trace-expected # only that tower's boxes offered to the search
    python benchmarks/brix_short_tower_enumeration.py --deck pink --cards P03 P28 P44 P47
    python benchmarks/brix_short_tower_enumeration.py --cards G17 G24 G28 G30 --log g17.jsonl
        # hours: stopped, the same command goes on where it stopped (RunLog)
    python benchmarks/brix_short_tower_enumeration.py --cards G17 G24 G28 G30 --log g17.jsonl \
        --record content/brix/conflicts/green.yaml  # the proof or tower written there
    python benchmarks/brix_short_tower_enumeration.py --cards G21 G24 G26 G28 G30 --first \
        --log g21.jsonl  # stops at the first ground placement with a tower meeting the cards
    python benchmarks/brix_short_tower_enumeration.py --deck pink --cards P11 P39 P41 P48 P51 \
        --given "there are exactly 8 bricks" --given "the tower is exactly 3 flat bricks tall" \
        --case-log LOG  # one case a case split left (and the texts fixing its counts)
    python benchmarks/brix_short_tower_enumeration.py --cards G24 G28 G30 G41 --reuse g17.jsonl
        # the cases that finished run enumerated (no tower stood) are not enumerated again

Why: Z3 leaves G13 G24 G30 (there are exactly 3 vertical bricks; the tower is exactly 3 flat
bricks tall; at most 2 bricks touch the ground) unknown even after 45 minutes, and a hand sketch
did not close every case; the audits leave other sets with G24 and G30 undecided at 240 s. The
script either finds a standing tower that meets the cards (and passes it through
checker.check_witness) or enumerates every case and reports that none stands.

Cases: each run of the search fixes (B, N, U, H, G): B bricks (see Decks), N upright bricks
(rule 4), U of them on the table, H highest bricks (top 6: the uprights at z = 2 and the bricks
at z = 4, so how many bricks lie at z = 4), G bricks on the table (U and G: which ground
placements). The cases partition the towers (with every case, N = 3 gives the counts below
exactly; G came after those runs, for sets such as G18 G24 G43 G46 whose cards may leave room
for one brick on the table only). Without --uprights, every case is enumerated except those Z3
proves no tower meets with the cards (`_cases`: the counts fixed one at a time, asked first
without G24 and G30, which is quick for counting cards, then with every card and both within
--exclude-timeout). G13 leaves (3, 0, 4); G16 with G35 ("exactly 1 blue brick is vertical",
"every red brick is vertical") leaves N = 3-7. Cases with few uprights (N = 0, 1) and two lying
ground bricks are too many towers for a run: cards that allow them are out of reach.

One case of a case split: with --given TEXT (repeated) every Z3 question is asked with those
conditions too, each finished tower is read on them as on the cards, and a given text may state
an assumption; a run that enumerates every case proves that case only, and --case-log writes it
into the split's log as closed (brix_case_split.py, as brix_unloaded_uprights.py does). Pink's
P39 P41 P48 P51 with P11 or P36 left "8 (or 9) bricks, 2 on the table, both lying, 3 upright,
3 flat bricks tall" (2026-12-06: 1,584 placements, 24,048 towers, none stands, 14 s for 8).

Decks: the two assumptions are conditions (ASSUMED), stated by green's G24 and G30 (pink's P28
states the first); one no card states must be implied by the cards (`_implied`). Each case also
fixes B, the number of bricks: 8 for green (all used), 5-9 for pink (any, one of each colour).

Colours: the cards naming no colour are tested on one fixed colouring; the others, on a tower
that stands, with every colouring the deck's rule allows (green: 2520 up to swapping bricks of
one colour).

How: place the ground bricks (`ground_placements`), then the set of bricks at z = 2, then the
set at z = 4 (`Search`); each level is a set of pairwise free boxes taken in a fixed order, so
each tower comes once per placement. A finished tower is tested for connection (geometry's
touches), statics' first test restated exactly (rule 8), the colour-free cards (the
Evaluator), standing (statics.stands), then the coloured cards. Pruning rules, each a
necessary condition:

1. Every brick off the table rests on a brick whose top is its z (shares face area with it):
   side contacts carry nothing, so otherwise no upward force holds it (its rows of the LP have
   only downward forces). Bricks are 2 or 4 high, so every z is even; with every top <= 6
   (G24), z is 0, 2 or 4: uprights only at z 0 or 2, bricks at z 2 rest on lying ground
   bricks, bricks at z 4 are lying and rest on bricks with top 4.
2. A brick with top 6 carries nothing, so its centre must lie in the convex hull of the corners
   of its shrunk contacts: statics' own test (`_centre_supported` on the part {brick}, one of
   the parts `stands` tests and rejects on); its supports are all placed when it is.
3. Translation: the first ground brick (by extent, then x, y) at x = y = 0. No rotation or
   mirror is used.
4. Counts: 1 or 2 ground bricks (G30; none cannot stand, rule 1); exactly N uprights (the
   case), all at z <= 2 (rule 1), so the bricks at z = 2 hold N minus the upright ground
   bricks, chosen first; B bricks; height exactly 6 (G24): some brick at z = 4 or an
   upright at z = 2.
5. Projections: touching bricks' closed extents meet on both axes, so in a connected tower the
   closed x extents of the bricks cover one interval (and the y extents); the gaps in the
   placed bricks' cover need the bricks still to come, at most 4 units each per axis and 6
   for x and y together.
6. When every brick at z <= 2 is placed, the bricks still to come (at z = 4) touch only bricks
   with top >= 4; several components of the placed bricks each need one, and rule 5 holds for
   the components' hulls of those bricks.
7. While choosing the bricks at z = 4: the finished tower's touch graph is part of the graph on
   every brick it may still get, so the bricks it has must be connected in that graph.
8. `stands` first asks, for every upward-closed part (the whole tower, each brick's upward
   closure), that the part's centre of mass lie in the hull of its outside supports' shrunk
   corners (non-negative forces there carry its weight and moments); `Balance` asks the same
   in exact integers, and only towers passing it go to `stands` (with the LP).
9. When a card says "some horizontal brick rests on some vertical brick" (green's G28): an
   upright's top is 4 or 6 and nothing rests on a top of 6 (rule 1), so that lying brick lies
   at z = 4 on an upright on the table; the candidates at z = 4 over one come first, and a set
   of bricks at z = 4 without one is cut as soon as none is left to take. (Checked on six
   placements of G17 G24 G28 G30: the same connected towers meeting it, and the same counts
   from the centre tests on, as without the rule; half the towers enumerated.)
10. Weight: a lying brick at z = 2 rests on lying ground bricks only, and when its centre is
   not over them it stands only with a load from above (`script_proofs.least_load`: the
   least, placed at its best inside the brick's shrunk top). Those loads come from the bricks
   at z = 4 alone (they carry nothing, so they press with their own weights in all), so the
   needs of the bricks at z = 2 may add up to at most the number of bricks left for z = 4;
   checked while the bricks at z = 2 are chosen (a need only grows with them). With
   --cross-check the sets this cuts are enumerated all the same, and no tower of them may
   stand.
The second ground brick lies within a proved distance of the first (`ground_placements`).

Results (2-core machine, 2 workers; the counts are printed at the end of each run):
N = 3 (G13 G24 G30): 3411 ground placements, 260,000 sets of bricks at z <= 2, 365,172
finished towers (1,433,284 without rule 7, with the same 247,176 connected), 247,176 connected
(all meet the cards), 224 pass the centre tests, none stands: no tower meets G13 G24 G30.
80 s (157 s on a later, slower machine with the same counts; 97 s with --cross-check,
which also asserts for every tower that geometry.is_connected
agrees and that `stands` rejects every tower rule 8 rejects). The 224 that reach the LP are not
near the line: none stands with a margin over 1/6 (the deck's is 1/4).
Validation: N = 4 (Z3: unsolvable) 11 s, no tower. N = 2 and 1 (Z3: solvable) with --first
find a standing tower that passes check_witness (13 s, 68 s). Z3's tower for N = 2 is
enumerated and stands (--expect ... --only-expected: its placement in full, 57 s, 400 standing
towers); Z3's towers for N = 0, 1 and 2 all come through --trace-expected. N = 0 and 1 are too
big for a full run (all lying bricks: over a million towers in two minutes on one placement).
2026-11-29, with the cases: every (U, H) case of N = 3 (`--cards G24 G30 --uprights 3`, 233
s) gives the same 260,000 / 365,172 / 247,176 / 224 counts; the default run, Z3 leaving only
(3, 0, 4) (77 s of Z3 questions), enumerates 333,976 towers in 85 s, 224 pass the centre
tests, none stands. G16 G24 G30 G35 (before H: N = 3-7 enumerated, 178 s): the same 365,172
towers, all with N = 3, none stands, so no tower meets it. `--cards G16 G24 G30 --uprights 2
--first` finds a standing tower with one blue upright (check_witness passed). With G (later
that day): G12 G24 G28 G30 gives (2, 1, 3, 2) and (2, 1, 4, 2), 2,960 placements and the same
2,945,344 towers as before, none stands (298 s, one process); G18 G24 G43 G46 (G30 implied)
leaves one lying brick on the table with N = 0 or 1, 12 placements and cases, 4,822,308 towers,
11,870 past the centre tests, none stands (193 s): no tower 3 flat bricks tall with at most one
upright stands on a single lying brick (N = 0 alone: 4,799,270 towers, the same 11,870).
With B and the assumptions as conditions (the same day, one process beside other runs): `--cards
G13 G24 G30 --uprights 3` gives the same 260,000 / 365,172 / 247,176 / 224 counts (420 s);
G06 G18 G30 G43 (G24 implied, 10 s) leaves (8, 1, 0, 4, 1) and G12's two cases: 2,960,048
towers, none stands (281 s). Pink: P03 P28 P44 P47 (G30 implied, B = 7 alone) leaves (7, 0, 0,
2-3, 1), 1,969,466 towers, 4 of them standing: 7 lying bricks on the gray brick alone, 3 flat
bricks tall (check_witness passed; 47 s), so seven bricks (unlike green's eight) can stand so;
P28 P34 P44 P47, nine of them cannot: (9, 0, 0, 2-5, 1), 7,201,920 towers, 9,450 past the
centre tests, none stands (175 s). G06 G12 G18 G43 (G24 and G30 implied): G12's two cases
again, the same 2,945,344 towers, none stands (280 s). --log: `--cards G13 G24 G30 --uprights 3`
stopped after 90 s (5,400 placements logged) and run again gives the same counts at every stage.
Rule 9, remembered hulls, Balance built lazily (later that day): `--cards G13 G24 G30
--uprights 3` the same 260,000 / 365,172 / 247,176 / 224 counts (281 s, beside other runs).
--reuse: G13 G24 G30's log covers (8, 3, 0, 4, 2) of G13 G24 G30 G41, whose other case
(8, 3, 0, 5, 2) holds 3,772 towers, none past the centre tests (102 s).
--record with standing towers: two of G17 G24 G28 G30's (placement 1,680), recoloured, settle
13 of the 37 sets the 5da7baf green file lists undecided (4 min, beside other runs).
Rule 10 (2026-12-02): P03 P28 P44 P47 enumerates 43,514 towers instead of 1,969,466, the same
1,750 past the centre tests and 4 standing (5 s of enumeration instead of 47 s); with
--cross-check the 3,134 towers it cuts that pass rule 8 were enumerated and none stands.
P19 P28 P34 P44 (9 bricks, one upright; cases (9, 1, 0, 4-5, 1) and (9, 1, 1, 2-5, 2)): without
the rule 1,856 of 5,924 placements took 1.7 h, none standing; with it placements 1-3,000 took
90 s, and from placement 3,194 on (the upright on the table beside the lying gray brick,
4 bricks at z = 4) towers stand and meet the cards: 134 recorded by 3,496 (16 min), all pass
check_witness, so the set is solvable (the run was stopped there).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from brix_case_split import add_case_options, case_log, close_case, given_options
from script_proofs import (
    Box,
    append_json_line,
    ask,
    box_rests_on,
    boxes_collide,
    boxes_touch,
    footprints_overlap,
    least_load,
    named_tower,
    read_json_lines,
    record_script_proof,
    record_towers,
    report_towers,
)

from tower_print.brix.checker import check_witness
from tower_print.brix.decks import Deck, shipped_deck
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.geometry import PlacedBrick, is_connected
from tower_print.brix.language import Condition, names_a_colour, parse
from tower_print.brix.marco import members
from tower_print.brix.recolour import Colourings
from tower_print.brix.solver import CASE_TEXT, UNSOLVABLE
from tower_print.brix.statics import _centre_supported, contacts, stands
from tower_print.brix.stored_towers import tower_line, tower_of_line

LENGTH, WIDTH = 4, 2  # a brick is LENGTH x WIDTH x WIDTH (checked against the deck in main)
HEIGHT = 3 * WIDTH  # G24: the tower is exactly 3 flat bricks tall
ALONG_X: tuple[int, int, int] = (LENGTH, WIDTH, WIDTH)
ALONG_Y: tuple[int, int, int] = (WIDTH, LENGTH, WIDTH)
UPRIGHT: tuple[int, int, int] = (WIDTH, WIDTH, LENGTH)
EXTENTS = (ALONG_X, ALONG_Y, UPRIGHT)  # also the order that picks the anchored ground brick
LYING = (ALONG_X, ALONG_Y)

MAX_STEPS = (HEIGHT - WIDTH) // WIDTH
"""Rests-on steps from any brick down to the table: z <= HEIGHT - WIDTH, and each step down
lowers z by at least WIDTH (the brick below has its top at the upper one's z)."""
MAX_GAP = (LENGTH - 1) * 2 * MAX_STEPS
MAX_GAP_SUM = (LENGTH + WIDTH - 2) * 2 * MAX_STEPS
"""Bounds on the gaps between the two ground bricks' footprints (per axis, and summed over x
and y); see `ground_placements` for the proof."""


@dataclass
class Result:
    """What one ground placement gave: counts by stage, standing towers, the expected tower."""

    counts: Counter[str] = field(default_factory=Counter)
    standing: list[tuple[PlacedBrick, ...]] = field(default_factory=list)  # coloured
    expected: list[str] = field(default_factory=list)  # stages the expected tower passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", choices=("green", "pink"), default="green")
    parser.add_argument("--cards", nargs="+", default=["G13", "G24", "G30"],
                        help="card ids; the towers they allow must be 3 flat bricks tall with at "
                             "most 2 on the table, by their cards or as Z3 proves "
                             "(default: G13 G24 G30)")
    parser.add_argument("--uprights", type=int, nargs="+",
                        help="enumerate only these upright counts (validation runs: no proof "
                             "for the others); default: every case Z3 does not exclude")
    parser.add_argument("--exclude-timeout", type=float, default=20.0,
                        help="seconds for each Z3 question with every card excluding a case")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--first", action="store_true",
                        help="stop after the first ground placement on which a tower stands "
                             "and meets the cards (it is enumerated in full: up to 5 towers "
                             "to recolour; with --log, also when the logged placements hold "
                             "one); every case enumerated without one is still a proof")
    parser.add_argument("--expect", type=Path,
                        help="`brix verify --json` output whose tower must be enumerated")
    parser.add_argument("--only-expected", action="store_true",
                        help="enumerate only the ground placement of the --expect tower")
    parser.add_argument("--trace-expected", action="store_true",
                        help="on that placement, offer the search only the --expect tower's "
                             "boxes: every rule passing it there passes it in the full search")
    parser.add_argument("--cross-check", action="store_true",
                        help="also run geometry.is_connected on every finished tower, and "
                             "statics.stands on every one rule 8 rejects, asserting agreement")
    parser.add_argument("--log", type=Path,
                        help="JSON lines: Z3's cases and each ground placement's result (or the "
                             "tower Z3 found on the way); a run given the log of a stopped "
                             "one goes on where it stopped")
    parser.add_argument("--record", type=Path,
                        help="a conflicts file of the deck (content/brix/conflicts/): write into "
                             "it the standing tower found, or, when every case was enumerated, "
                             "the proof that the cards conflict")
    parser.add_argument("--reuse", type=Path,
                        help="the --log of a finished run in which no tower stood, tested on "
                             "colour-free cards these cards all hold: its cases are not "
                             "enumerated again")
    add_case_options(parser)
    args = parser.parse_args()
    if (args.log or args.reuse) and args.expect:
        raise SystemExit("--log and --reuse are for full runs (without --expect)")
    if args.reuse and args.uprights is not None:
        raise SystemExit("--reuse is for full runs (without --uprights)")
    deck = shipped_deck(args.deck)
    bricks = deck.bricks
    assert sorted(bricks.extents()) == sorted(EXTENTS), "the proof assumes 4 x 2 x 2 bricks"
    cards = tuple(args.cards)
    given = tuple(args.given)
    split_log = case_log(parser, args, deck, list(cards))
    options = Options(args.deck, cards, args.cross_check, args.trace_expected, given=given)
    conditions = _conditions(options)
    reusable = _covered(args.reuse, deck, [c for _, c in conditions]) if args.reuse else []
    log = RunLog(args.log, {"script": hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
                            "deck": args.deck, "cards": cards, "uprights": args.uprights,
                            **({"given": given} if given else {}),
                            **({"reuse": str(args.reuse)} if args.reuse else {})}
                 ) if args.log else None
    if log and log.met is not None:
        print(f"(from {args.log}: Z3's tower)")
        _report_met(args, deck, log.met)
        return
    if log and log.cases is not None:
        said, cases = log.said, log.cases
        print(f"(from {args.log}: Z3's answers below, {len(log.done)} placements done)")
    else:
        try:
            said, cases = _decide_cases(deck, cards, args.uprights, args.exclude_timeout,
                                        given)
        except Met as met:
            if log:
                log.found(met)
            _report_met(args, deck, met)
            return
        if log:
            log.begin(said, cases)
    for line in said:
        print(line)
    covered = [case for case in reusable if case in cases]
    if covered:
        print(f"{', '.join(map(str, covered))} enumerated in the run {args.reuse} logged, and no "
              "tower stood there")
    expected = _expected(args.expect) if args.expect else None
    tasks: list[Task] = [
        (grounds, case, expected[1] if expected and expected[0] == grounds else None, options)
        for grounds, case in _placements([case for case in cases if case not in covered])
    ]
    if expected and not any(task[2] for task in tasks):
        raise SystemExit("the expected tower's ground bricks are not among the placements")
    if args.only_expected or args.trace_expected:
        tasks = [task for task in tasks if task[2]]
    print(f"{len(tasks)} cases (ground placement, B, N, U, H, G), (B, N, U, H, G) in {cases}, "
          f"cards {' '.join(cards)}")
    start = time.monotonic()
    total: Counter[str] = Counter()
    standing: list[tuple[PlacedBrick, ...]] = []
    expected_stages: list[str] = []
    todo = list(range(len(tasks)))
    if log:
        for entry in log.done.values():
            total.update(entry["counts"])
            standing.extend(tower_of_line(line, bricks.color_names) for line in entry["standing"])
        todo = [i for i in todo if i not in log.done and not (args.first and standing)]
    with Pool(args.jobs) as pool:
        results = pool.imap(run_task, [tasks[i] for i in todo], chunksize=4)
        for done, (index, result) in enumerate(zip(todo, results, strict=True),
                                               len(tasks) - len(todo) + 1):
            if log:
                log.record(index, result)
            total.update(result.counts)
            standing.extend(result.standing)
            expected_stages.extend(result.expected)
            if done % 100 == 0:
                print(f"  {done}/{len(tasks)} cases, {total['towers']} towers, "
                      f"{total['stand']} standing, {time.monotonic() - start:.0f} s", flush=True)
            if args.first and standing:
                pool.terminate()
                break
    elapsed = time.monotonic() - start
    for name in ("cases", "level-2 sets", "pruned: cannot connect",
                 "pruned: too little weight above", "cut by rule 10, checked not to stand",
                 "towers", "connected", "centres over supports", "meet the colour-free cards",
                 "stand", "stand and meet the cards"):
        print(f"{name:26} {total[name]:>12}")
    if expected:
        print("expected tower:", ", ".join(expected_stages) or "NOT ENUMERATED")
    if args.first and standing:
        print("(stopped at the first standing tower: the counts are partial)")
    if standing:
        tower = standing[0]
        check_witness(tower, bricks, deck.all_used, conditions)
        print(f"a standing tower meeting the cards (check_witness passed; {len(standing)} "
              "found):")
        for brick in tower:
            print("  ", brick)
        if args.record:
            record_towers(args.record, deck, standing, f"enumeration ({_command(args)})")
    elif args.only_expected or args.trace_expected or args.uprights is not None:
        print("no standing tower found (not every case was enumerated)")
    else:
        reused = f" ({len(covered)} of them in the run {args.reuse} logged)" if covered else ""
        case = f" and {'; '.join(given)}" if given else ""
        print(f"no tower meeting {' '.join(args.cards)}{case} stands: every case enumerated"
              f"{reused}")
        if split_log:
            close_case(split_log, args.given, args.exclude_timeout, args.case_log, _command(args),
                       f"every tower enumerated{reused}, none stands")
        if args.record:
            record_script_proof(args.record, deck, cards, _command(args),
                                f"every tower enumerated{reused}, none stands",
                                "enumeration, not by Z3")
            print(f"added to {args.record}")
    print(f"{elapsed:.0f} s" + (" (this run; not the logged runs before it)"
                                if log and len(todo) < len(tasks) else ""))


def _report_met(args: argparse.Namespace, deck: Deck, met: Met) -> None:
    """The tower Z3 found on the way: checked on the cards (not the assumptions), printed, and
    with --record written into the file."""
    report_towers(deck, args.cards, [met.tower], f"solvable: Z3 found a tower meeting "
                  f"{met.question} (check_witness passed on the cards):", args.record,
                  f"Z3 asked {met.question} ({_command(args)})")


def _command(args: argparse.Namespace) -> str:
    """The command that repeats this run's enumeration (this script's place in the repository,
    also when a copy ran: a run spanning sessions goes on with a copy of the script its log
    was made by, while this one changes)."""
    return f"python benchmarks/brix_short_tower_enumeration.py --deck {args.deck} --cards " + (
        " ".join([*args.cards, *given_options(args.given)]))


ON_UPRIGHT = "some horizontal brick rests on some vertical brick"
"""Green's G28: when a card states it, pruning rule 9 applies."""

GROUND_ASSUMED = "at most {} bricks touch the ground"
"""The second assumption, for a search on more ground bricks (`Options.ground_bricks`)."""


ASSUMED = {
    "the tower is exactly 3 flat bricks tall":
        ("the tower is at most 2 flat bricks tall", "the tower is at least 4 flat bricks tall"),
    GROUND_ASSUMED.format(2): ("at least 3 bricks touch the ground",),
}
"""What the search is built on (height exactly HEIGHT, at most 2 ground bricks: green's G24 and
G30), each with conditions covering every tower that fails it: when no card states it, Z3 must
prove each of those unsolvable with the cards."""


def _assumed(deck: Deck, ground_bricks: int = 2) -> dict[str, Condition]:
    """Each assumption's text and condition, in the deck's colours; the ground bricks at most
    as `ground_bricks` says (brix_unloaded_uprights places 3)."""
    texts = [GROUND_ASSUMED.format(ground_bricks) if text == GROUND_ASSUMED.format(2) else text
             for text in ASSUMED]
    return {text: parse(text, deck.bricks.color_names) for text in texts}


class Met(Exception):  # noqa: N818 (an outcome, not an error)
    """Z3, asked a question on the way (an assumption's negation, a case), found a tower that
    meets every card: the cards do not conflict, and nothing is left to enumerate."""

    def __init__(self, tower: tuple[PlacedBrick, ...], question: str) -> None:
        super().__init__(question)
        self.tower, self.question = tower, question


def _implied(deck: Deck, cards: tuple[str, ...], negations: tuple[str, ...],
             timeout: float, given: tuple[str, ...] = ()) -> float:
    """Seconds Z3 took to prove that the cards imply an assumption: no tower meets them and
    any of its `negations` (G43 with G46, "every lowest brick is red" and "every grounded
    brick is horizontal", leave room for the two red bricks on the table and no more; G06 G18
    G43, the red bricks touching, one lowest and one highest, for a tower 3 flat bricks tall);
    raises Met when Z3 finds a tower meeting them and a negation (G05 G19 G24 G38 G43: 3
    bricks on the table), exits when Z3 does not say. Under --given, asked with that case."""
    start = time.monotonic()
    for negation in negations:
        status, tower = ask(deck, list(cards), [*given, negation], timeout)
        if tower is not None:
            raise Met(tower, f"the cards and '{negation}'")
        if status != UNSOLVABLE:
            raise SystemExit(f"the enumeration needs towers 3 flat bricks tall with at most 2 on "
                             f"the table; Z3 says {status} to the cards and '{negation}'")
    return time.monotonic() - start


def _decide_cases(deck: Deck, cards: tuple[str, ...], uprights: list[int] | None,
                  timeout: float, given: tuple[str, ...] = ()) -> tuple[list[str], list[Case]]:
    """What Z3 says before the enumeration (the assumptions the cards imply, the cases it
    excludes; with `uprights`, no case is excluded), and the cases left to enumerate."""
    said = []
    stated = {deck.card(c).condition for c in cards} | {
        parse(text, deck.bricks.color_names) for text in given}
    for (text, negations), condition in zip(ASSUMED.items(), _assumed(deck).values(),
                                            strict=True):
        if condition not in stated:
            seconds = _implied(deck, cards, negations, timeout, given)
            said.append(f"'{text}' implied ({seconds:.1f} s): no tower meets {' '.join(cards)} "
                        f"and {' or '.join(repr(n) for n in negations)}")
    if uprights is None:
        cases, excluded = _cases(deck, cards, timeout, given)
    else:
        cases, excluded = [(b, n, u, h, g) for b in _case_values(deck, ())
                           for n in sorted(set(uprights))
                           for u in _case_values(deck, (b, n))
                           for h in _case_values(deck, (b, n, u))
                           for g in _case_values(deck, (b, n, u, h))], []
    said.extend(f"{_case_name(case)} excluded by Z3 ({seconds:.1f} s): no tower meets "
                f"{' '.join(asked)} and {'; '.join(_case_texts(case))}"
                for case, asked, seconds in excluded)
    return said, cases


class RunLog:
    """--log: a run's preamble (what Z3 said, the cases) and each ground placement's result,
    one JSON line each, so that a run stopped for time goes on where it stopped; or the tower
    Z3 found on the way (`met`), when it did. A log of another run (script, deck, cards or
    --uprights not the same) is refused; a line cut off by the stop is left out, and its
    placement enumerated again."""

    def __init__(self, path: Path, run: dict[str, object]) -> None:
        self.path, self.run = path, json.loads(json.dumps(run))  # as read back
        self.said: list[str] = []
        self.cases: list[Case] | None = None
        self.met: Met | None = None
        self.done: dict[int, dict] = {}
        if not path.exists():
            return
        head, self.done = self.read(path)
        if head["run"] != self.run:
            raise SystemExit(f"{path}: the log of another run ({head['run']}); this one is "
                             f"{self.run}")
        if "met" in head:
            colours = shipped_deck(self.run["deck"]).bricks.color_names
            self.met = Met(tower_of_line(head["met"], colours), head["question"])
            return
        self.said, self.cases = head["said"], [tuple(case) for case in head["cases"]]

    @staticmethod
    def read(path: Path) -> tuple[dict, dict[int, dict]]:
        """The log's first line, and each placement's entry by its index."""
        head, entries = read_json_lines(path)
        return head, {entry["task"]: entry for entry in entries}

    def found(self, met: Met) -> None:
        """Z3's tower, found before any enumeration: a --record run given this log writes it
        without asking Z3 again."""
        self.path.write_text(json.dumps({"run": self.run, "met": tower_line(met.tower),
                                         "question": met.question}) + "\n")

    def begin(self, said: list[str], cases: list[Case]) -> None:
        self.path.write_text(json.dumps({"run": self.run, "said": said, "cases": cases}) + "\n")

    def record(self, index: int, result: Result) -> None:
        entry = {"task": index, "counts": result.counts,
                 "standing": [tower_line(tower) for tower in result.standing]}
        append_json_line(self.path, entry)


def _covered(path: Path, deck: Deck, conditions: list[Condition]) -> list[Case]:
    """--reuse: the cases of the run `path` logged, checked to be finished (every placement of
    every case enumerated) with no tower standing, and tested on colour-free cards (those it
    enumerated by, pruned by and tested first) that are all among `conditions`: a tower of
    those cases meeting `conditions` passed that run's every test but standing, so it was
    counted there, and none stood."""
    head, done = RunLog.read(path)
    run = head["run"]
    if run["deck"] != deck.name or run["uprights"] is not None or run.get("reuse"):
        raise SystemExit(f"{path}: not a full run of deck {deck.name}'s own")
    lacking = [c for c in run["cards"] if not names_a_colour(deck.card(c).condition)
               and deck.card(c).condition not in conditions]
    if lacking:
        raise SystemExit(f"{path}: its run's towers meet {' '.join(lacking)}, which these "
                         "cards do not ask")
    cases = [(b, n, u, h, g) for b, n, u, h, g in head["cases"]]
    placements = len(_placements(cases))
    if len(done) != placements:
        raise SystemExit(f"{path}: {len(done)} of its {placements} placements enumerated")
    stood = sum(entry["counts"].get("stand", 0) for entry in done.values())
    if stood:
        raise SystemExit(f"{path}: {stood} towers stood in its run")
    return cases


def _placements(cases: list[Case]) -> list[tuple[tuple[Box, ...], Case]]:
    """The searches of a run, in order: each case with every ground placement it allows."""
    return [(grounds, case) for case in cases for grounds in ground_placements()
            if sum(1 for g in grounds if g[5] == LENGTH) == case[2] and len(grounds) == case[4]]


def _conditions(options: Options) -> list[tuple[str, Condition]]:
    """The cards' conditions and the assumptions, all tested again on a finished tower."""
    deck = shipped_deck(options.deck)
    return [*((c, deck.card(c).condition) for c in options.cards),
            *_assumed(deck, options.ground_bricks).items(),
            *((text, parse(text, deck.bricks.color_names)) for text in options.given)]


Case = tuple[int, int, int, int, int]
"""(B, N, U, H, G): B bricks, N of them upright, U of those on the table, H highest bricks (top
at HEIGHT), G bricks on the table."""
CASE_TEXTS = ("there are exactly {} bricks", CASE_TEXT,
              "exactly {} vertical bricks touch the ground", "there are exactly {} highest bricks",
              "exactly {} bricks touch the ground")
"""N's text is the one `TowerSolver.check_by_cases` splits on."""


def _case_values(deck: Deck, case: tuple[int, ...]) -> range:
    """The values the next count of a case may take: the deck's rule's brick counts, at most 2
    uprights on the table, at least one highest brick, 1 or 2 bricks on the table, the U
    uprights among them."""
    if not case:
        total = len(deck.bricks.bricks)
        return range(total if deck.all_used else len(deck.bricks.color_names), total + 1)
    if len(case) == 1:
        return range(case[0] + 1)
    if len(case) == 2:
        return range(min(case[1], 2) + 1)
    if len(case) == 3:
        return range(1, case[0] + 1)
    return range(max(case[2], 1), 3)


def _case_texts(case: tuple[int, ...]) -> list[str]:
    return [text.format(value) for text, value in zip(CASE_TEXTS, case, strict=False)]


def _case_name(case: tuple[int, ...]) -> str:
    return ", ".join(f"{name} = {value}" for name, value in zip("BNUHG", case, strict=False))


def _cases(deck: Deck, cards: tuple[str, ...], timeout: float, given: tuple[str, ...] = ()
           ) -> tuple[list[Case], list[tuple[tuple[int, ...], list[str], float]]]:
    """The cases (B, N, U, H, G) to enumerate, and the partial cases Z3 excludes, with the
    cards asked and its time. Counts are fixed one at a time; a partial case is excluded when
    Z3 proves that no tower meets the cards with its counts' texts (CASE_TEXTS): first asked
    without the assumptions (the cards stating them left out), which Z3 answers at once for
    counting cards (G13; G16 with G35: the red bricks and one blue upright; G27: 2 highest
    bricks), then, within `timeout`, with every card and the assumptions (G24 with G28: a
    lying brick rests on an upright, so that upright stands on the table)."""
    assumed = set(_assumed(deck).values())
    others = [c for c in cards if deck.card(c).condition not in assumed]
    cases: list[Case] = []
    excluded: list[tuple[tuple[int, ...], list[str], float]] = []

    def widen(case: tuple[int, ...]) -> None:
        if len(case) == len(CASE_TEXTS):
            cases.append((case[0], case[1], case[2], case[3], case[4]))
            return
        for value in _case_values(deck, case):
            grown = (*case, value)
            for asked, texts in ((others, []), (list(cards), list(ASSUMED))):
                start = time.monotonic()
                status, tower = ask(deck, asked, [*given, *texts, *_case_texts(grown)],
                                    timeout)
                if tower is not None and asked == list(cards):
                    raise Met(tower, f"the cards, the assumptions and {_case_name(grown)}")
                if status == UNSOLVABLE:
                    excluded.append((grown, [*asked, *(repr(t) for t in texts)],
                                     time.monotonic() - start))
                    break
            else:
                widen(grown)

    widen(())
    return cases, excluded


def ground_placements() -> list[tuple[Box, ...]]:
    """Every set of ground bricks up to translation: one brick, or two bricks within reach of
    each other, the first (by extent, then x, y) anchored at x = y = 0.

    Bound on two ground bricks G1, G2 (proof): the tower is connected, so some path of touching
    bricks runs from G1 to G2. Give every brick a root: a ground brick under it by a chain of
    rests-on steps (every brick off the table rests on one, pruning rule 1), of at most MAX_STEPS
    steps. Along the path the root changes from G1 to G2 between some touching A, B: then G1,
    A's chain up to A, B, B's chain down to G2 is a sequence of at most 2 MAX_STEPS bricks
    between G1 and G2 in which neighbours rest on each other (footprints overlap by at least 1
    lattice unit on both axes) except A-B, which touch (their closed extents meet). Walking the
    sequence, the gap between G1's and G2's footprints along an axis is at most the summed
    extents of the m bricks between them minus the m overlaps of at least 1: (LENGTH - 1) m on
    one axis, (LENGTH + WIDTH - 2) m for x and y together (dx + dy <= LENGTH + WIDTH).
    """
    placements: list[tuple[Box, ...]] = []
    for first, (dx1, dy1, dz1) in enumerate(EXTENTS):
        g1: Box = (0, 0, 0, dx1, dy1, dz1)
        placements.append((g1,))
        for second, (dx2, dy2, dz2) in enumerate(EXTENTS):
            if second < first:
                continue
            for x in range(-MAX_GAP - dx2, dx1 + MAX_GAP + 1):
                for y in range(-MAX_GAP - dy2, dy1 + MAX_GAP + 1):
                    if (second, x, y) <= (first, 0, 0):
                        continue  # the lower of the two is the anchored one
                    g2: Box = (x, y, 0, dx2, dy2, dz2)
                    gap_x = max(0, x - dx1, -(x + dx2))
                    gap_y = max(0, y - dy1, -(y + dy2))
                    if gap_x + gap_y <= MAX_GAP_SUM and not footprints_overlap(g1, g2):
                        placements.append((g1, g2))
    return placements


@dataclass(frozen=True)
class Options:
    """What every case shares: the deck, the cards, and the validation switches (see main)."""

    deck: str
    cards: tuple[str, ...]
    cross_check: bool = False
    trace: bool = False
    ground_bricks: int = 2  # the most a search's placement holds (the assumption tested again)
    given: tuple[str, ...] = ()  # --given: the case's conditions, tested on finished towers too


Task = tuple[tuple[Box, ...], Case, frozenset[Box] | None, Options]
"""Ground bricks, case, the expected tower's boxes (when on these ground bricks), options."""


def run_task(task: Task) -> Result:
    return Search(*task).run()


class Search:
    """Every tower on the given ground bricks, level by level: the bricks at z = 2 (resting on
    the lying ground bricks), then those at z = 4 (lying, resting on bricks with top 4). Each
    level is a set of pairwise free boxes, chosen in a fixed order, so each tower comes once."""

    def __init__(self, grounds: tuple[Box, ...], case: Case,
                 expected: frozenset[Box] | None, options: Options) -> None:
        self.grounds = grounds
        self.bricks, self.uprights, _, self.highest, _ = case
        self.expected = expected
        self.result = Result()
        self.deck = shipped_deck(options.deck)
        self.margin = self.deck.bricks.stability_margin
        conditions = [condition for _, condition in _conditions(options)]
        # Cards naming no colour are tested on the tower as `named_tower` colours it, before the
        # costly stages; the others on every colouring of a tower that stands.
        self.plain = [c for c in conditions if not names_a_colour(c)]
        self.on_upright = parse(ON_UPRIGHT, self.deck.bricks.color_names) in self.plain
        self.coloured = [c for c in conditions if names_a_colour(c)]
        self.centre_memo: dict[tuple[Box, ...], bool] = {}
        self.load_memo: dict[tuple[Box, ...], Fraction] = {}
        self.doomed = False  # --cross-check: rule 10 would have cut this tower
        self.cross_check = options.cross_check
        # Tracing: candidates outside the expected tower are left out. Rules 1-6 and 8 look
        # only at the bricks placed, and rule 7 at fewer candidates can only cut more, so a
        # tower that comes through the traced search comes through the full one.
        self.trace = expected if options.trace else None

    def run(self) -> Result:
        self.result.counts["cases"] += 1
        want = self.uprights - sum(1 for g in self.grounds if g[5] == LENGTH)
        if want < 0:
            return self.result
        candidates = [c for c in _resting(self.grounds, WIDTH, EXTENTS, self.grounds)
                      if self.trace is None or c in self.trace]
        # Rule 2 for uprights at z = 2: their top is HEIGHT, nothing can rest on them.
        ups = [c for c in candidates if c[5] == LENGTH and self._centre_held(c, self.grounds)]
        flat = [c for c in candidates if c[5] == WIDTH]
        self._level2(ups, flat, want)
        return self.result

    def _level2(self, ups: list[Box], flat: list[Box], want: int) -> None:
        """Choose exactly `want` uprights, then lying bricks, all at z = 2: as many in all as
        leave H highest bricks, the uprights here and the bricks at z = 4 (the case's H)."""
        order = ups + flat
        clash = _touch_and_clash_masks(tuple(order))[1]
        n_ups = len(ups)
        chosen: list[Box] = list(self.grounds)
        full = self.bricks - (self.highest - want)  # bricks at z <= 2
        if self.highest < want or full < len(chosen) + want:
            return

        above = self.bricks - full  # the bricks at z = 4, whose weight rule 10 shares out
        needs = [self._need(c) for c in order]

        def grow(start: int, taken: int, count_ups: int, need: Fraction) -> None:
            left = self.bricks - len(chosen)
            if not _projections_can_join([[b] for b in chosen], left):
                self.result.counts["pruned: cannot connect"] += 1
                return
            if len(chosen) == full:  # then count_ups == want: the uprights come first
                self.result.counts["level-2 sets"] += 1
                self._level4(tuple(chosen))
                return
            for i in range(start, len(order)):
                if count_ups < want and i >= n_ups:
                    break  # the uprights come first, and there are still too few
                if count_ups == want and i < n_ups:
                    continue
                if taken >> i & 1:
                    continue
                doomed = self.doomed
                if need + needs[i] > above:
                    self.result.counts["pruned: too little weight above"] += 1
                    if not self.cross_check:
                        continue
                    self.doomed = True
                chosen.append(order[i])
                grow(i + 1, taken | clash[i], count_ups + (i < n_ups), need + needs[i])
                chosen.pop()
                self.doomed = doomed

        grow(0, 0, 0, Fraction(0))

    def _need(self, box: Box) -> Fraction:
        """Rule 10: the least load a brick at z = 2 needs from above (none for an upright, on
        which nothing rests, rule 2); its supports are the ground bricks."""
        if box[5] != WIDTH:
            return Fraction(0)
        x, y = box[0], box[1]
        key = (*sorted((g[0] - x, g[1] - y, *g[2:]) for g in self.grounds
                       if box_rests_on(box, g)), (0, 0, *box[2:]))
        if key not in self.load_memo:
            self.load_memo[key] = least_load(key[-1], key[:-1], self.margin)
        return self.load_memo[key]

    def _level4(self, below: tuple[Box, ...]) -> None:
        """Complete `below` (every brick with z <= 2) with lying bricks at z = 4."""
        left = self.bricks - len(below)
        high = [b for b in below if b[2] + b[5] == HEIGHT]
        assert len(high) + left == self.highest  # the bricks at z = 4 are highest too
        if left == 0:  # H >= 1 highest bricks: the tower is HEIGHT tall (G24)
            if self.on_upright:  # rule 9: no brick at z = 4
                self.result.counts["pruned: no lying brick on an upright"] += 1
                return
            self._complete(below, None, Balance(below, self.margin), (1 << len(below)) - 1)
            return
        if not _components_can_join(below, left):
            self.result.counts["pruned: cannot connect"] += 1
            return
        top4 = [b for b in below if b[2] + b[5] == 2 * WIDTH]
        order = [c for c in _resting(top4, 2 * WIDTH, LYING, below)
                 if (self.trace is None or c in self.trace) and self._centre_held(c, below)]
        if len(order) < left:
            return
        # Rule 9: the candidates resting on an upright (on the table: its top is 4) come first,
        # so the search leaves them early.
        over_upright = {c for c in order if any(
            b[5] == LENGTH and b[2] == 0 and footprints_overlap(c, b) for b in below)
        } if self.on_upright else set()
        order.sort(key=lambda c: c not in over_upright)
        items = below + tuple(order)
        shift = len(below)
        touch, clash = _touch_and_clash_masks(items)
        clash = [mask >> shift for mask in clash[shift:]]  # among the candidates
        built: list[Balance] = []  # at the first finished tower: most of these sets get none

        def balance() -> Balance:
            if not built:
                built.append(Balance(items, self.margin))
            return built[0]

        later = [0] * (len(order) + 1)  # later[i]: the bits of order[i:]
        for i in range(len(order) - 1, -1, -1):
            later[i] = later[i + 1] | 1 << (shift + i)
        on_upright = sum(1 << (shift + i) for i, c in enumerate(order)
                         if c in over_upright) if self.on_upright else -1
        chosen: list[Box] = []

        def grow(start: int, taken: int, held: int) -> None:
            """`held`: the bits of `below` and `chosen`; `taken`: the candidates they block."""
            if len(chosen) == left:
                if held & on_upright:
                    self._complete(below + tuple(chosen), _reach(touch, held) == held,
                                   balance(), held)
                else:
                    self.result.counts["pruned: no lying brick on an upright"] += 1
                return
            if not (held | (later[start] & ~(taken << shift))) & on_upright:
                self.result.counts["pruned: no lying brick on an upright"] += 1
                return
            # Rule 7: the finished tower's touch graph is part of the one on every brick it may
            # still get, so the bricks it already has must be connected in that one.
            if (_reach(touch, held | (later[start] & ~(taken << shift))) & held) != held:
                self.result.counts["pruned: cannot connect"] += 1
                return
            for i in range(start, len(order) - (left - len(chosen)) + 1):
                if not taken >> i & 1:
                    chosen.append(order[i])
                    grow(i + 1, taken | clash[i], held | 1 << (shift + i))
                    chosen.pop()

        grow(0, 0, (1 << shift) - 1)

    def _centre_held(self, box: Box, placed: tuple[Box, ...] | list[Box]) -> bool:
        """Rule 2 for `box`, on which nothing can rest (its top is HEIGHT): the project's own
        test (statics._centre_supported, which `stands` applies to every upward-closed part,
        here the part {box}) on box and the bricks it rests on, all of them already placed."""
        x, y = box[0], box[1]
        supports = sorted((b[0] - x, b[1] - y, *b[2:]) for b in placed
                          if b[2] + b[5] == box[2] and footprints_overlap(box, b))
        key = (*supports, (0, 0, *box[2:]))
        if key not in self.centre_memo:
            mini = tuple(PlacedBrick(f"b{k}", "", *b) for k, b in enumerate(key))
            self.centre_memo[key] = _centre_supported(
                mini, contacts(mini, self.margin), frozenset({len(mini) - 1}))
        return self.centre_memo[key]

    def _complete(self, boxes: tuple[Box, ...], connected: bool | None, balance: Balance,
                  held: int) -> None:
        """The stages of a finished tower (`held`: its bits among `balance`'s items);
        `connected` when the caller knows it."""
        counts = self.result.counts
        counts["towers"] += 1
        is_expected = self.expected is not None and frozenset(boxes) == self.expected
        stages = self.result.expected if is_expected else []
        stages.append("enumerated")
        if connected is None or self.cross_check:
            truth = is_connected(named_tower(boxes, self.deck))
            assert connected is None or connected == truth, boxes
            connected = truth
        if not connected:
            return
        counts["connected"] += 1
        stages.append("connected")
        # Rule 8 before the cards: its exact test, remembered per part, rejects nearly every
        # tower and costs less than the Evaluator.
        balanced = balance.holds(held)
        if self.cross_check and not balanced:
            assert not stands(named_tower(boxes, self.deck), self.margin), boxes
        if not balanced:
            return
        if self.doomed:
            assert not stands(named_tower(boxes, self.deck), self.margin), ("rule 10", boxes)
            counts["cut by rule 10, checked not to stand"] += 1
            return
        counts["centres over supports"] += 1
        stages.append("centres over supports")
        tower = named_tower(boxes, self.deck)  # the colouring the colour-free cards are tested on
        judge = Evaluator(tower, self.deck.bricks)
        if not all(judge.condition(c) for c in self.plain):
            return
        counts["meet the colour-free cards"] += 1
        stages.append("meets the colour-free cards")
        if not stands(tower, self.margin):
            return
        counts["stand"] += 1
        stages.append("stands")
        coloured = Colourings(self.deck, tower).meeting(self.coloured)
        if coloured is None:
            return
        counts["stand and meet the cards"] += 1
        stages.append("meets the cards")
        if len(self.result.standing) < 5:
            self.result.standing.append(coloured)


def _resting(bases: list[Box] | tuple[Box, ...], z: int,
             extents: tuple[tuple[int, int, int], ...], obstacles: list[Box] | tuple[Box, ...]
             ) -> list[Box]:
    """Every box at height z resting on a base whose top is z (footprints sharing area) and
    free of the obstacles (the placed bricks its height range meets), sorted."""
    found: set[Box] = set()
    for base in bases:
        if base[2] + base[5] != z:
            continue
        for dx, dy, dz in extents:
            for x in range(base[0] - dx + 1, base[0] + base[3]):
                for y in range(base[1] - dy + 1, base[1] + base[4]):
                    box = (x, y, z, dx, dy, dz)
                    if box[2] + box[5] <= HEIGHT and not any(boxes_collide(box, o)
                                                             for o in obstacles):
                        found.add(box)
    return sorted(found)


def _touch_and_clash_masks(boxes: tuple[Box, ...]) -> tuple[list[int], list[int]]:
    """For each box, the bits of the boxes it touches (geometry.touches: extents meet on every
    axis, over nothing on exactly one) and collides with (overlap on every axis). In numpy:
    called once per set of bricks at z <= 2 on up to a hundred boxes, it was most of a run."""
    corners = np.array(boxes, dtype=np.int64).reshape(-1, 6)
    low, high = corners[:, :3], corners[:, :3] + corners[:, 3:]
    overlap = (np.minimum(high[:, None, :], high[None, :, :])
               - np.maximum(low[:, None, :], low[None, :, :]))  # per axis; negative: a gap
    clash = (overlap > 0).all(axis=2)
    touch = (overlap >= 0).all(axis=2) & ((overlap == 0).sum(axis=2) == 1)
    np.fill_diagonal(clash, False)
    return _bit_rows(touch), _bit_rows(clash)


def _bit_rows(matrix: np.ndarray) -> list[int]:
    """Each row of a boolean matrix as an int, bit j set where column j is True."""
    packed = np.packbits(matrix, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


def _reach(touch: list[int], allowed: int) -> int:
    """The bits reachable from bit 0 (the anchored ground brick) through touching bricks
    whose bits are in `allowed`."""
    seen = frontier = 1
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = touch[low.bit_length() - 1] & allowed & ~seen
        seen |= new
        frontier |= new
    return seen


class Balance:
    """Pruning rule 8, the first test `stands` makes (statics._centre_supported on every
    upward-closed part: the whole tower and each brick's upward closure), restated in exact
    integer arithmetic for towers made of some of `items`, remembered per part: the part's
    centre of mass must lie in the convex hull of the corners of its shrunk supports from
    outside it, since those forces (non-negative) carry the part's whole weight and moments.
    Every contact rectangle has positive area, so the hull is never degenerate, and a centre
    outside it is outside by far more than statics' tolerance (all points lie on a grid of
    1 / (2 q n), q the margin's denominator, n the part's size), so this rejects exactly the
    towers that test rejects (asserted on every rejection by --cross-check). The towers asked
    hold every item another item rests on (the items left out are tops: candidates at z = 4),
    so a brick's upward closure in a tower is its closure among all items, cut to the tower."""

    def __init__(self, items: tuple[Box, ...], margin: float) -> None:
        fraction = Fraction(margin).limit_denominator(1000)
        assert fraction == Fraction(margin)
        scale = 2 * fraction.denominator  # corners and brick centres: whole multiples of 1/scale
        shrink = 2 * fraction.numerator  # margin * scale
        self.centres = [(scale * b[0] + scale * b[3] // 2, scale * b[1] + scale * b[4] // 2)
                        for b in items]
        # Per brick: (bit of the brick under it, 0 for the table; bit of the contact), and
        # per contact the corners of its shrunk rectangle.
        self.supports: list[list[tuple[int, int]]] = []
        self.corners: list[list[tuple[int, int]]] = []
        self.on_top = [0] * len(items)  # bits of the bricks resting on each brick
        by_top: dict[int, list[int]] = {}  # the items whose top is at each height, in order
        for j, b in enumerate(items):
            by_top.setdefault(b[2] + b[5], []).append(j)
        for i, a in enumerate(items):
            rects: list[tuple[int, tuple[int, int, int, int]]] = []
            if a[2] == 0:
                rects.append((0, (a[0], a[0] + a[3], a[1], a[1] + a[4])))
            for j in by_top.get(a[2], ()):  # never i: no brick's top is its own bottom
                b = items[j]
                if footprints_overlap(a, b):
                    rects.append((1 << j, (max(a[0], b[0]), min(a[0] + a[3], b[0] + b[3]),
                                           max(a[1], b[1]), min(a[1] + a[4], b[1] + b[4]))))
                    self.on_top[j] |= 1 << i
            corners = []
            for bit, (x0, x1, y0, y1) in rects:
                sx, sy = shrink * (x1 - x0), shrink * (y1 - y0)
                corners.append((bit, 1 << len(self.corners)))
                self.corners.append([(px, py) for px in (scale * x0 + sx, scale * x1 - sx)
                                     for py in (scale * y0 + sy, scale * y1 - sy)])
            self.supports.append(corners)
        self.bases = 0  # bits of the items some item rests on
        for i, above in enumerate(self.on_top):
            if above:
                self.bases |= 1 << i
        self.closures = [1 << i for i in range(len(items))]  # each item and all above it
        for i in sorted(range(len(items)), key=lambda i: -items[i][2]):  # the top ones first
            for k in members(self.on_top[i]):
                self.closures[i] |= self.closures[k]
        self.memo: dict[int, bool] = {}
        self.hulls: dict[int, list[tuple[int, int]]] = {}

    def holds(self, held: int) -> bool:
        """Does every upward-closed part of the tower `held` (bits of items) pass?"""
        assert held & self.bases == self.bases
        # The upper bricks' parts first: few, so nearly always remembered, and they reject most.
        return all(self._part(self.closures[i] & held)
                   for i in reversed(members(held))) and self._part(held)

    def _part(self, part: int) -> bool:
        if part not in self.memo:
            inside = members(part)
            k = len(inside)
            cx = sum(self.centres[i][0] for i in inside)
            cy = sum(self.centres[i][1] for i in inside)
            outside = 0  # the contacts holding the part up from outside it
            for i in inside:
                for bit, contact in self.supports[i]:
                    if not bit & part:
                        outside |= contact
            if outside not in self.hulls:
                self.hulls[outside] = _hull(tuple(sorted({p for c in members(outside)
                                                    for p in self.corners[c]})))
            hull = self.hulls[outside]
            assert outside == 0 or len(hull) >= 3  # contacts have positive area
            # The centre is (cx, cy) / k: compare k times the hull's corners with (cx, cy).
            self.memo[part] = outside != 0 and all(
                (b[0] - a[0]) * (cy - k * a[1]) - (b[1] - a[1]) * (cx - k * a[0]) >= 0
                for a, b in zip(hull, hull[1:] + hull[:1], strict=True))
        return self.memo[part]


@lru_cache(maxsize=1 << 16)
def _hull(points: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """Convex hull of sorted distinct points, counter-clockwise (monotone chain). Remembered:
    the sets of bricks at z <= 2 of one ground placement share most of their contacts."""
    def half(ordered: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
        chain: list[tuple[int, int]] = []
        for p in ordered:
            while len(chain) >= 2 and _cross(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        return chain[:-1]

    return half(points) + half(points[::-1])


def _cross(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _holes(spans: list[tuple[int, int]]) -> int:
    """Total length of the gaps in the union of closed intervals, between its ends."""
    spans = sorted(spans)
    total, reach = 0, spans[0][1]
    for low, high in spans[1:]:
        if low > reach:
            total += low - reach
        reach = max(reach, high)
    return total


def _projections_can_join(groups: list[list[Box]], left: int) -> bool:
    """Pruning rule 5: the tower is connected and touching bricks' closed extents meet on both
    axes, so the union of the closed x extents of all bricks is one interval (and of the y
    extents). Each group's hull of extents is covered by itself; the gaps between them must be
    covered by the `left` bricks still to come: at most LENGTH each on one axis,
    LENGTH + WIDTH on x and y together."""
    hulls = [(min(b[0] for b in g), max(b[0] + b[3] for b in g),
              min(b[1] for b in g), max(b[1] + b[4] for b in g)) for g in groups]
    holes_x = _holes([(h[0], h[1]) for h in hulls])
    holes_y = _holes([(h[2], h[3]) for h in hulls])
    return (holes_x <= LENGTH * left and holes_y <= LENGTH * left
            and holes_x + holes_y <= (LENGTH + WIDTH) * left)


def _components_can_join(below: tuple[Box, ...], left: int) -> bool:
    """Pruning rule 6, once every brick with z <= 2 is placed and `left` bricks at z = 4 (top
    HEIGHT) remain: those can touch only bricks whose top is 4 or more (their closed heights
    must meet), so the components of the placed bricks can only be joined through those. With
    more than one component, each needs such a brick, and rule 5 applies to the components'
    bricks of top >= 4 (each component's hull stands for it: a path may cross a component)."""
    parent = list(range(len(below)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(below)):
        for j in range(i):
            if boxes_touch(below[i], below[j]):
                parent[find(i)] = find(j)
    groups: dict[int, list[Box]] = {}
    for i in range(len(below)):
        groups.setdefault(find(i), [])
    if len(groups) == 1:
        return True
    for i, b in enumerate(below):
        if b[2] + b[5] >= 2 * WIDTH:
            groups[find(i)].append(b)
    if any(not g for g in groups.values()):
        return False
    return _projections_can_join(list(groups.values()), left)


def _expected(path: Path) -> tuple[tuple[Box, ...], frozenset[Box]]:
    """The ground placement and box set under which the enumeration must meet the tower of a
    `brix verify --json` answer (translated as `ground_placements` anchors it)."""
    raw = json.loads(path.read_text())["tower"]["bricks"]
    boxes = [(b["x"], b["y"], b["z"], b["dx"], b["dy"], b["dz"]) for b in raw]
    grounds = sorted((b for b in boxes if b[2] == 0),
                     key=lambda b: (EXTENTS.index((b[3], b[4], b[5])), b[0], b[1]))
    ox, oy = grounds[0][0], grounds[0][1]

    def moved(b: Box) -> Box:
        return (b[0] - ox, b[1] - oy, *b[2:])

    return tuple(moved(g) for g in grounds), frozenset(moved(b) for b in boxes)


if __name__ == "__main__":
    main()
