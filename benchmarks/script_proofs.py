"""What the scripts that settle card sets without Z3's full model share: Z3's status for the
cards with extra conditions (the facts a proof builds on); boxes (x, y, z, dx, dy, dz) and their
contacts; the colourings of a tower's boxes; and writing a proof or the towers found into a
deck's conflicts file (the proof with the date and commit it ran at, so that the file says how
to repeat it)."""

from __future__ import annotations

import argparse
import datetime
import fcntl
import functools
import hashlib
import json
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import suppress
from fractions import Fraction
from pathlib import Path
from typing import ParamSpec, TypeVar

from card_args import deck_card_ids

from tower_print.brix import shapes
from tower_print.brix.checker import check_witness
from tower_print.brix.conflicts import (
    add_towers,
    card_masks,
    current_file,
    read_conflict_file,
    record_proof,
)
from tower_print.brix.decks import Deck, shipped_deck
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.geometry import PlacedBrick, normalized
from tower_print.brix.language import Condition, names_a_colour, parse
from tower_print.brix.recolour import Colourings, colourings_meeting
from tower_print.brix.solver import SOLVABLE, UNSOLVABLE, Labeled, TowerSolver
from tower_print.brix.statics import stands

Box = tuple[int, int, int, int, int, int]
"""(x, y, z, dx, dy, dz): a brick's minimum corner and extent, in lattice units."""
Rect = tuple[float, float, float, float]
"""x0, x1, y0, y1."""


def ask(deck: Deck, cards: list[str], texts: list[str], timeout: float
        ) -> tuple[str, tuple[PlacedBrick, ...] | None]:
    """Z3's status for the cards with the conditions `texts` (a case's counts, or a fact's
    negation), and the tower when there is one; no conflict minimising: only the status
    counts."""
    items = [*(deck.card(c).item() for c in cards),
             *(Labeled(text, text, parse(text, deck.bricks.color_names)) for text in texts)]
    solver = TowerSolver(deck.bricks, deck.all_used)
    return solver.check(items, time.monotonic() + timeout, any_tower=True)[:2]


def proof_parser(description: str, cards: list[str], record: str) -> argparse.ArgumentParser:
    """The options every proving script takes: the deck, the cards, Z3's time per question, and
    the conflicts file to write into (`record`: what is written)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--deck", choices=("green", "pink"), default="pink")
    parser.add_argument("--cards", nargs="+", default=cards)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds for each of Z3's questions")
    parser.add_argument("--record", type=Path,
                        help=f"a conflicts file of the deck: write {record} into it")
    return parser


def proof_deck(parser: argparse.ArgumentParser, args: argparse.Namespace
               ) -> tuple[Deck, list[str]]:
    """The deck and the cards `proof_parser`'s arguments name, the ids as the deck spells them;
    an unknown id is the parser's one-line error (exit 2), before any fact is asked."""
    deck = shipped_deck(args.deck)
    return deck, deck_card_ids(parser, deck, args.cards)


def prove_facts(deck: Deck, cards: list[str], negations: list[str], timeout: float,
                record: Path | None, given: Sequence[str] = ()) -> None:
    """Z3 must find each negation impossible with the cards (no standing tower meets both):
    the facts a proof builds on, under the `given` case's conditions when a proof is of one
    case. Prints each answer; exits when one is not proved. A tower Z3 finds for a negation
    meets the cards: checked by check_witness, written into `record`, and the run ends there
    (P03 P08 P19 P40 P44's tower came so)."""
    for negation in negations:
        ask_impossible(deck, cards, [*given, negation], timeout, record)


def ask_impossible(deck: Deck, cards: list[str], texts: list[str], timeout: float,
                   record: Path | None, settle: bool = True) -> bool:
    """Z3 must find no standing tower meeting the cards and `texts` (a fact's negation, or a
    case): prints the answer; a tower it finds meets the cards (check_witness), is written into
    `record`, and ends the run; any other answer than impossible ends it without a conclusion,
    or, not `settle` (the caller has another way to close the case), is False."""
    start = time.monotonic()
    status, tower = ask(deck, cards, texts, timeout)
    asked = "; ".join(texts)
    print(f"'{asked}' with the cards: {status} ({time.monotonic() - start:.1f} s)")
    if status == SOLVABLE and tower is not None:
        report_towers(deck, cards, [tower], "a standing tower meeting the cards "
                      "(check_witness passed):", record, f"Z3 with the cards and '{asked}'")
        raise SystemExit(0)
    if status != UNSOLVABLE and settle:
        raise SystemExit("a fact the proof needs is not proved: no conclusion")
    return status == UNSOLVABLE


def read_json_lines(path: Path) -> tuple[dict, list[dict]]:
    """A run log's first line and its entries, one JSON object a line; a line a stop cut off
    (not JSON) is left out, and its work done again."""
    lines = path.read_text().splitlines()
    entries = []
    for line in lines[1:]:
        with suppress(json.JSONDecodeError):
            entries.append(json.loads(line))
    return json.loads(lines[0]), entries


def append_json_line(path: Path, entry: dict) -> None:
    """One entry added to a run log, after a newline: the line before may be cut off."""
    with path.open("a") as out:
        out.write("\n" + json.dumps(entry) + "\n")


Params = ParamSpec("Params")
Result = TypeVar("Result")


def one_writer(write: Callable[Params, Result]) -> Callable[Params, Result]:
    """`write` (its first argument: a conflicts file) run by one process at a time: it reads
    the file, adds to it and writes it whole, so two runs recording into the same file at once
    would lose one's addition. The lock is a file in the temporary folder named by the path."""

    @functools.wraps(write)
    def locked(*args: Params.args, **kwargs: Params.kwargs) -> Result:
        path = Path(args[0]).resolve()
        name = hashlib.sha256(str(path).encode()).hexdigest()[:16]
        with open(Path(tempfile.gettempdir()) / f"tower-print-{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            return write(*args, **kwargs)

    return locked


@one_writer
def record_script_proof(path: Path, deck: Deck, cards: tuple[str, ...], command: str,
                        finding: str, method: str) -> None:
    """The cards as a conflict proved by `command` (`finding`: what its run showed; `method`:
    how it proves, for the file's history: not by one Z3 question on the whole set), stamped
    with today's date and the commit."""
    here = Path(__file__).parent
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here,
                            capture_output=True, text=True).stdout.strip() or "unknown"
    changed = subprocess.run(["git", "status", "--porcelain", "--", "*.py", "../tower_print"],
                             cwd=here, capture_output=True, text=True).stdout.strip()  # code
    known = read_conflict_file(path, deck)
    tried = [f"{limit:g} s" for ids, limit in (known.undecided if known else ())
             if frozenset(ids) == frozenset(cards)]
    record_proof(path, deck, cards,
                 f"{command} ({datetime.date.today()}, commit {commit}"
                 f"{' with changes' if changed else ''}: {finding})",
                 method + (f" (undecided in audits at {tried[0]})" if tried else ""))


PILLAR_FACTS = ("at least 2 bricks touch the ground", "some grounded brick is horizontal")
"""Negations of the facts that leave one brick on the table, upright (pink's P08 P44: the gray
brick upright and every other brick's top higher)."""
ENUMERATION_COUNTS = ("towers", "meet the colour-free cards", "stand", "stand and meet the cards")
"""What an enumeration counts (`tower_judge`), printed in this order (`conclude`)."""


def tower_judge(deck: Deck, conditions: Sequence[Condition], counts: Counter[str]
                ) -> Callable[[tuple[Box, ...]], tuple[PlacedBrick, ...] | None]:
    """How an enumeration reads a finished tower of boxes: the colour-free cards (the
    Evaluator, on the first colouring), statics.stands, then the cards naming colours in every
    colouring the deck allows (`recolour.Colourings`), each step counted in `counts`. The
    judge gives the tower in a colouring meeting every card, or None."""
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


def conclude(deck: Deck, cards: list[str], standing: list[tuple[PlacedBrick, ...]],
             counts: Counter[str], seconds: float, command: str, world: str,
             record: Path | None, others: Sequence[list[str]] = ()) -> None:
    """An enumeration's end: its counts, then the first standing tower that meets the cards
    (checked by check_witness) and the towers written into `record`, or, when none stands,
    the proof (`world`: what was enumerated, "every tower around a hub"). With `others`, sets
    of cards whose facts leave the same world, `standing` met the cards all the sets hold, and
    each set is concluded the same way, each of those towers tried in every colouring the
    deck allows: when the enumeration kept every one of them (it keeps a few), a set none
    meets is proved; otherwise it stays undecided."""
    for name in ENUMERATION_COUNTS:
        print(f"{name:26} {counts[name]:>12}")
    print(f"{seconds:.0f} s")
    kept_all = len(standing) == counts["stand and meet the cards"]
    for card_set in [cards, *others]:
        conditions = [deck.card(c).condition for c in card_set]
        met = [tower for tower in (Colourings(deck, found).meeting(conditions)
                                   for found in standing) if tower is not None]
        if met:
            report_towers(deck, card_set, met, f"a standing tower meeting {' '.join(card_set)} "
                          f"(check_witness passed; {len(met)} kept):", record,
                          f"enumeration ({command})")
        elif not kept_all:
            print(f"{' '.join(card_set)}: undecided (none of the {len(standing)} standing towers "
                  "kept that meet the cards every set holds meets these)")
        else:
            finding = (f"{world} enumerated, none stands" if not standing else
                       f"{world} enumerated: the {len(standing)} standing ones meeting the cards "
                       "every set holds, in every colouring, meet none of these")
            print(f"no tower meeting {' '.join(card_set)} stands: {finding}")
            if record:
                record_script_proof(record, deck, tuple(card_set), command, finding,
                                    "enumeration, not by Z3")
                print(f"added to {record}")


def report_towers(deck: Deck, cards: Sequence[str], towers: list[tuple[PlacedBrick, ...]],
                  heading: str, record: Path | None, why: str) -> None:
    """A script's towers meeting the cards: the first checked by check_witness on the cards
    (not on the facts or assumptions the script added), printed under `heading`, and with
    `record` all of them written into that conflicts file (`why`: how they were found)."""
    check_witness(towers[0], deck.bricks, deck.all_used,
                  [(c, deck.card(c).condition) for c in cards])
    print(heading)
    for brick in towers[0]:
        print("  ", brick)
    if record:
        record_towers(record, deck, towers, why)


@one_writer
def record_towers(path: Path, deck: Deck, standing: list[tuple[PlacedBrick, ...]],
                  why: str) -> None:
    """The first standing tower, and the towers that settle some of the file's undecided sets:
    each standing tower found, in every colouring the deck allows, tried on them (the colours
    the cards asked for are one choice among many: G17 G24 G28 G30's towers, recoloured, met 17
    of green's undecided sets); two writes of the file, the tower and then its colourings."""
    known = current_file(path, deck)
    sets = [ids for ids, _ in known.undecided]
    left = dict(zip(card_masks(deck, sets), sets, strict=True))  # undecided still, by mask
    found = colourings_meeting(deck, standing, left)
    add_towers(path, deck, [normalized(standing[0])], why)
    if found:
        add_towers(path, deck, [normalized(tower) for _, tower in found], why + ", recoloured")
    print(f"added to {path}: a tower meeting the cards")
    for met, _ in found:
        settled = [left.pop(mask) for mask in list(left) if mask & ~met == 0]
        print(f"added to {path}: a tower meeting " + "; ".join(" ".join(s) for s in settled))


def box_order(box: Box) -> tuple[int, ...]:
    """The order the enumerations take boxes in: by z first, then x, y and extent."""
    return (box[2], box[0], box[1], box[3], box[4], box[5])


def first_of_turns(boxes: Sequence[Box], base: Box) -> bool:
    """Whether `boxes` come first, in `box_order`, among their images by the turns and
    mirrorings that map `base` (a box at x = y = 0: the brick on the table, a hub) onto itself.
    Any tower is such an image of one that comes first, meeting the same cards (they speak of
    heights, contacts, counts and colours, never of a horizontal direction) and standing as
    well, so an enumeration keeps only that one (up to 8 times fewer towers around an upright
    base, 4 around a lying one). As `box_order` takes z first, a tower whose bricks below some
    height do not come first cannot either."""
    width, depth = base[3], base[4]
    mine = sorted(box_order(b) for b in boxes)
    for flip_x, flip_y, swap in TURNS:
        if swap and width != depth:
            continue
        image = []
        for x, y, z, dx, dy, dz in boxes:
            if flip_x:
                x = width - x - dx
            if flip_y:
                y = depth - y - dy
            if swap:
                x, y, dx, dy = y, x, dy, dx
            image.append(box_order((x, y, z, dx, dy, dz)))
        if sorted(image) < mine:
            return False
    return True


TURNS = [(fx, fy, sw) for fx in (False, True) for fy in (False, True) for sw in (False, True)][1:]
"""The turns and mirrorings of a square (flip x, flip y, swap x and y; the identity left out);
on a rectangle only those without the swap map it onto itself."""


def footprints_overlap(a: Box, b: Box) -> bool:
    """Footprints share area."""
    return a[0] < b[0] + b[3] and b[0] < a[0] + a[3] and a[1] < b[1] + b[4] and b[1] < a[1] + a[4]


def box_rests_on(upper: Box, lower: Box) -> bool:
    """geometry.rests_on on boxes: the upper box's bottom on the lower's top, sharing area."""
    return upper[2] == lower[2] + lower[5] and footprints_overlap(upper, lower)


def boxes_collide(a: Box, b: Box) -> bool:
    return footprints_overlap(a, b) and a[2] < b[2] + b[5] and b[2] < a[2] + a[5]


def axis_overlaps(a: Box, b: Box) -> list[int]:
    """Per axis, how far the two boxes' extents overlap (negative: the gap between them)."""
    return [min(a[k] + a[k + 3], b[k] + b[k + 3]) - max(a[k], b[k]) for k in range(3)]


def boxes_touch(a: Box, b: Box) -> bool:
    """geometry.touches on boxes: faces meet over an area, no volume shared."""
    gaps = axis_overlaps(a, b)
    return min(gaps) >= 0 and gaps.count(0) == 1


def shrunk_contact(upper: Box, lower: Box, margin: float) -> Rect:
    """The contact of `upper` resting on `lower`, shrunk on each axis by the margin times its
    extent there (statics' rectangle)."""
    x0, x1 = max(upper[0], lower[0]), min(upper[0] + upper[3], lower[0] + lower[3])
    y0, y1 = max(upper[1], lower[1]), min(upper[1] + upper[4], lower[1] + lower[4])
    sx, sy = margin * (x1 - x0), margin * (y1 - y0)
    return x0 + sx, x1 - sx, y0 + sy, y1 - sy


def least_load(box: Box, supports: list[Box] | tuple[Box, ...], margin: float) -> Fraction:
    """The least weight from above, in brick weights, that lets `box` (one brick's weight) stand
    on `supports` (the boxes it rests on), the larger of the two axes' needs.

    Statics (tower_print/brix/statics.py) holds a brick up by forces at the corners of its
    contacts below, each shrunk by the margin times its extent, so the resultant of its weight
    and its loads must lie in their hull, and on each axis between the lowest and highest
    corner. A load comes through a contact with a brick above, shrunk the same way and at
    least one lattice unit wide: inside the box's top shrunk by the margin on every side.
    Exact: the margin is read as the fraction it is (a quarter for the shipped bricks)."""
    exact = Fraction(margin).limit_denominator(1000)
    rects = [[(Fraction(max(box[k], s[k])), Fraction(min(box[k] + box[k + 3], s[k] + s[k + 3])))
              for k in (0, 1)] for s in supports if box_rests_on(box, s)]
    assert rects, "the box rests on some support"
    need = Fraction(0)
    for k in (0, 1):
        s0 = min(lo + exact * (hi - lo) for (lo, hi) in (r[k] for r in rects))
        s1 = max(hi - exact * (hi - lo) for (lo, hi) in (r[k] for r in rects))
        need = max(need, _axis_load(box[k], box[k + 3], s0, s1, exact))
    return need


def _axis_load(lo: int, extent: int, s0: Fraction, s1: Fraction, margin: Fraction) -> Fraction:
    """Along one axis: the brick [lo, lo + extent] must bring the resultant of its weight (at
    its centre) and a load t inside its top shrunk by `margin` into [s0, s1]."""
    centre, r0, r1 = lo + Fraction(extent, 2), lo + margin, lo + extent - margin
    assert r0 < s1 and s0 < r1, "the contact lies inside the brick's shrunk top"
    if s0 <= centre <= s1:
        return Fraction(0)
    if centre < s0:
        return (s0 - centre) / (r1 - s0)
    return (centre - s1) / (s1 - r0)


def named_tower(boxes: tuple[Box, ...], deck: Deck) -> tuple[PlacedBrick, ...]:
    """The boxes as the deck's bricks in their order (yellow-1, yellow-2, purple-1, ...), the
    first colouring: the one the colour-free cards are tested on. Boxes too few for the deck's
    rule are part of a tower (brix_unloaded_uprights: the bricks on one base), named as the
    deck's first bricks."""
    rows = shapes.colourings(deck.bricks, deck.all_used, len(boxes))
    if not rows:
        return tuple(PlacedBrick(brick.name, brick.color, *box)
                     for brick, box in zip(deck.bricks.bricks, boxes, strict=False))
    return shapes.coloured_tower(boxes, deck.bricks, rows[0][0])
