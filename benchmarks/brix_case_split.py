"""Z3 case by case: the towers meeting the cards split by counts (bricks, bricks on the table,
bricks under the gray one, ...), each case asked on its own and a case Z3 leaves undecided
split again by the next count. The cards conflict when Z3 finds every case impossible; a
tower found in any case meets them (check_witness).

    python benchmarks/brix_case_split.py --deck pink --cards P13 P19 P36 P37 P38 \
        --split "every gray brick rests on {} bricks" 0 4 \
        --split "the tower is {} flat bricks tall" 6 6 --split "there are {} bricks" 9 9
    python benchmarks/brix_case_split.py --deck pink --cards P19 P30 P36 P37 P38 \
        --split "there are {} bricks" 5 9 --split "{} bricks touch the ground" 1 3 \
        --record content/brix/conflicts/pink.yaml  # the proof or the tower written there

Why: Z3 leaves some sets undecided however long it runs on the whole question, yet answers
the same cards within seconds once told a count: P13 P19 P36 P37 P38 (the gray brick upright
at the very top, 3 upright bricks high, bridging two bricks that do not touch) stayed
undecided at 60 s, and with 'every gray brick rests on exactly 3 bricks', 'the tower is
exactly 3 upright bricks tall' and 'there are exactly 9 bricks' Z3 built a tower in 85 s: two
lying bricks meeting at one corner under the gray brick, a third beside them.
Green's sets (2026-12-05): those with G32 (4 upright bricks tall), G34 and G40 leave one brick
on the table; told that, the height (8 flat bricks), how many bricks rest on it (1) and how many
rest on two or more, Z3 finds every case impossible for G26 G27 G32 G34 G40 (19 cases, 458 s),
G14 G27 G32 G34 G40 (17, 120 s a case), G27 G32 G34 G39 G40 and G13 G25 G26 G32 G40 (150 s a
case), and the G24 G29 G34 sets by bricks on the table within 30-260 s.

Cases: each --split is a count's text with {} where its quantifier goes, and a range lo..hi:
the cases are 'exactly v' for each v in lo..hi, 'at most lo - 1' (when lo > 0) and 'at least
hi + 1', so that together they hold every tower (the ranges need no proof: a count outside
them is a case too). A height counts in flat bricks: every top is a whole number of them
(the bricks' sides are), while "exactly 3 upright bricks tall" and "at least 4" leave out the
towers 3.5 upright bricks tall. The splits nest in the order given; a case a split does not
decide is an open case, and any open case leaves the set undecided. A split whose cases could
all miss one tower is refused (`_covering`): 'every blue brick rests on exactly 1 brick' and
'... exactly 2' both miss a tower whose two blue bricks differ.

The cases are asked from the lowest count up, or from the highest down when the first
value given is the larger ("--split '{} yellow bricks touch the ground' 1 0" asks "at least
2", "exactly 1", "exactly 0"): repainting, below, closes a case by one asked before it.

Repainting (`colour_swaps`): when the cards name neither red nor purple, say, and the deck has
as many bricks of each, a tower repainted red for purple meets the cards again; so a case
whose repainted image holds every text of a case already closed (impossible, or every case
it was split into impossible or closed so) is closed without asking Z3, and the proof counts
those; one whose image is a case left open is left open, unasked. Green's G12 G32 G34 G38 G45
(a lying brick alone on the table, purple or red) needs only one of the two. For G13 G25 G32
G40 G44, where only blue is named, splits by the colour on the table in falling order ('{}
yellow bricks touch the ground' 1 0, then purple, then red) ask only yellow's case: "no
yellow, one purple" is the repainted image of "one yellow".

--first-timeout SECONDS: a case with splits left gets these seconds, not --timeout's: Z3 closes
most cases within a second, and one it leaves undecided usually falls to the next split, so
asking it the whole --timeout first is mostly time lost (G12 G32 G34 G38 G45, 2026-12-06: of
111 new cases at 60 s, 30 undecided took 30 minutes, the 81 closed under a second each). The
last split's cases, which nothing splits further, get the full --timeout.

--log FILE: each case's answer is written there as it comes, so that a run stopped for time goes
on where it stopped: a case the log holds as impossible is not asked again, nor one it holds as
undecided at this --timeout or longer (its subcases are asked). The answers are the deck's and
the cards' own, whatever the splits: a log of other cards, or of another version of the deck
(its fingerprint), is refused. A tower is not logged; its case is asked again. A case another
argument closed is in the log too, impossible with the command that proved it (`by`:
brix_unloaded_uprights.py --given ... --case-log writes it), and the proof recorded names it.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from itertools import permutations
from pathlib import Path

from script_proofs import (
    append_json_line,
    ask,
    proof_deck,
    proof_parser,
    read_json_lines,
    record_script_proof,
    report_towers,
)

from tower_print.brix.conflicts import deck_fingerprint
from tower_print.brix.decks import Deck
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import (
    Colour,
    Condition,
    Count,
    Height,
    Quantified,
    Related,
    Selector,
    parse,
    recoloured,
)
from tower_print.brix.solver import UNSOLVABLE
from tower_print.content import UserError


@dataclass
class Split:
    """A count's text with {} for its quantifier, and the values asked one by one."""

    text: str
    low: int
    high: int

    def cases(self) -> list[str]:
        """Texts that together hold every tower: each value, and the counts outside them; in
        falling order when the first value given is the larger."""
        low, high = sorted((self.low, self.high))
        below = [self.text.format(f"at most {low - 1}")] if low > 0 else []
        texts = [*below, *(self.text.format(f"exactly {v}") for v in range(low, high + 1)),
                 self.text.format(f"at least {high + 1}")]
        return texts[::-1] if self.low > self.high else texts


@dataclass
class Outcome:
    """What the split found: a tower, the cases Z3 proved impossible, those it left open."""

    tower: tuple[PlacedBrick, ...] | None = None
    case: list[str] = field(default_factory=list)
    closed: int = 0
    open: list[list[str]] = field(default_factory=list)
    mirrored: int = 0  # of the closed, those closed as another's image under a colour swap
    proved: list[frozenset[Condition]] = field(default_factory=list)
    unsettled: list[frozenset[Condition]] = field(default_factory=list)  # split, still open


def main() -> None:
    parser = proof_parser(__doc__.split("\n\n")[0], ["P13", "P19", "P36", "P37", "P38"],
                          "the proof or the tower")
    parser.add_argument("--split", nargs=3, action="append", required=True,
                        metavar=("TEXT", "LOW", "HIGH"),
                        help="a count with {} for its quantifier, and the values to ask")
    parser.add_argument("--first-timeout", type=float, metavar="SECONDS",
                        help="seconds for a case that has splits left (default --timeout): one "
                             "undecided in them is split at once, and only the last split's "
                             "cases get the full --timeout")
    parser.add_argument("--log", type=Path,
                        help="write each case's answer here; a run given the log of a stopped "
                             "one does not ask again what it answered")
    args = parser.parse_args()
    deck, cards = proof_deck(parser, args)
    if args.first_timeout is not None and args.first_timeout <= 0:
        parser.error(f"--first-timeout {args.first_timeout:g}: give a number of seconds above 0")
    splits = _splits(parser, deck, args.split)
    try:
        log = CaseLog(args.log, deck, cards) if args.log else None
    except (OSError, ValueError) as error:  # unwritable, not a log, or another run's
        parser.error(f"--log {args.log}: {error}")
    start = time.monotonic()
    outcome = Outcome()
    swaps = colour_swaps(deck, cards)
    for swap in swaps:
        print(f"the cards and the bricks stay the same with {_swap_text(swap)}")
    _split(deck, cards, splits, [], args.timeout, outcome, log, swaps, args.first_timeout)
    elapsed = time.monotonic() - start
    first = [] if args.first_timeout is None else ["--first-timeout", f"{args.first_timeout:g}"]
    command = " ".join(["python benchmarks/brix_case_split.py --deck", args.deck, "--cards",
                        *cards, *(f'--split "{s.text}" {s.low} {s.high}' for s in splits),
                        "--timeout", f"{args.timeout:g}", *first])
    if outcome.tower is not None:
        case = "; ".join(outcome.case)
        report_towers(deck, cards, [outcome.tower], f"a standing tower meeting the cards and "
                      f"{case} (check_witness passed), {elapsed:.0f} s:", args.record,
                      f"Z3 with the cards and '{case}' ({command})")
        return
    if log and log.reused:
        elapsed_note = f"{elapsed:.0f} s this run; {log.reused} answers from {args.log}"
    else:
        elapsed_note = f"{elapsed:.0f} s"
    if outcome.open:
        print(f"undecided: {len(outcome.open)} cases open, {outcome.closed} impossible "
              f"({elapsed_note})")
        raise SystemExit(3)
    borrowed = "".join(f"; '{'; '.join(case)}' by {by}"
                       for case, by in (log.borrowed.items() if log else ()))
    if outcome.mirrored:
        borrowed += (f"; {outcome.mirrored} of them as the image of another under repainting "
                     "the bricks (" + " or ".join(_swap_text(swap) for swap in swaps)
                     + "), which leaves the cards and the deck's bricks as they are")
    print(f"no tower meets {' '.join(cards)}: each of the {outcome.closed} cases impossible "
          f"({elapsed_note}){borrowed}")
    if args.record:
        try:
            record_script_proof(args.record, deck, tuple(cards), command,
                                f"{outcome.closed} cases, each impossible{borrowed}",
                                f"Z3 case by case{' (and other arguments)' if borrowed else ''}, "
                                "not on the whole set")
        except UserError as error:  # the file lists it already, or a conflict inside it
            parser.error(str(error))
        print(f"added to {args.record}")


def _splits(parser: argparse.ArgumentParser, deck: Deck, given: list[list[str]]
            ) -> list[Split]:
    """The --split options, each case's text checked by the parser (a one-line error, exit 2,
    before any case is asked)."""
    splits = []
    for text, low, high in given:
        if text.count("{}") != 1 or not (low.isdigit() and high.isdigit()):
            parser.error(f"--split {text!r} {low} {high}: a text with one {{}} and two counts")
        split = Split(text, int(low), int(high))
        try:
            conditions = [parse(case, deck.bricks.color_names) for case in split.cases()]
        except UserError as error:
            parser.error(f"--split {text!r}: {error}")
        if not _covering(deck, conditions):
            parser.error(f"--split {text!r}: the cases would miss towers; the count must be a "
                         "clause's own (bricks counted, the height), or under 'every' one of a "
                         "brick the deck has only one of")
        bricks = deck.bricks
        whole = bricks.length % bricks.thickness == 0 and bricks.width % bricks.thickness == 0
        if any(isinstance(clause, Height) and (clause.unit != "flat bricks" or not whole)
               for condition in conditions for clause in condition.clauses):
            parser.error(f"--split {text!r}: a height counts in flat bricks here (every top a "
                         "whole number of them), or the cases miss the heights between")
        splits.append(split)
    return splits


def _covering(deck: Deck, conditions: list[Condition]) -> bool:
    """Whether every tower meets one of the cases: each a single clause, differing only in the
    clause's own count (how many bricks do something, how tall the tower is), or under 'every'
    in a relation's count for a subject at most one brick can be ('every gray brick rests on
    exactly 2 bricks' with one gray brick: true of every tower without it). 'every blue brick
    rests on exactly 1 brick' and '... exactly 2' both miss a tower whose two blues differ."""
    if any(len(condition.clauses) != 1 for condition in conditions):
        return False
    clauses = [condition.clauses[0] for condition in conditions]
    first = clauses[0]
    if not all(type(clause) is type(first) for clause in clauses):
        return False
    if isinstance(first, (Count, Height, Quantified)) and all(
            replace(clause, quant=first.quant) == first for clause in clauses):
        return True
    return (isinstance(first, Quantified) and first.quant.kind == "every"
            and isinstance(first.pred, Related) and _at_most_one(deck, first.subject)
            and all(isinstance(clause.pred, Related) and replace(
                clause, pred=replace(clause.pred, quant=first.pred.quant)) == first
                for clause in clauses))


def _at_most_one(deck: Deck, subject: Selector) -> bool:
    """Whether at most one of the deck's bricks can be `subject` (it names a colour the deck has
    one brick of)."""
    return any(sum(len(deck.bricks.by_color(colour)) for colour in pred.colours) <= 1
               for pred in subject.preds if isinstance(pred, Colour))


class CaseLog:
    """--log: one JSON line per answered case after a first line naming the deck (with its
    fingerprint) and the cards; a line cut off by a stop is left out, and its case asked again."""

    def __init__(self, path: Path, deck: Deck, cards: list[str]) -> None:
        self.path = path
        self.run = {"deck": deck.name, "fingerprint": deck_fingerprint(deck), "cards": cards}
        self.answers: dict[tuple[str, ...], tuple[str, float, str]] = {}
        self.reused = 0
        self.borrowed: dict[tuple[str, ...], str] = {}  # cases other arguments closed, and how
        if not path.exists() or not path.read_text().strip():
            path.write_text(json.dumps({"run": self.run}) + "\n")
            return
        head, entries = read_json_lines(path)
        if not isinstance(head, dict) or head.get("run") != self.run:
            run = head.get("run") if isinstance(head, dict) else head
            raise ValueError(f"the log of another run ({run}); this one is {self.run}")
        for entry in entries:
            with suppress(KeyError, TypeError):
                self.answers[tuple(entry["case"])] = (entry["status"], float(entry["timeout"]),
                                                      str(entry.get("by", "")))

    def answer(self, case: list[str], timeout: float) -> str | None:
        """The logged answer that stands for this run: impossible, or undecided at this
        timeout or a longer one."""
        status, asked_for, by = self.answers.get(tuple(case), ("", 0.0, ""))
        if status == UNSOLVABLE or (status and asked_for >= timeout):
            self.reused += 1
            if by:
                self.borrowed[tuple(case)] = by
            return status
        return None

    def write(self, case: list[str], status: str, timeout: float, by: str = "") -> None:
        """One answer; `by`: the command of another argument that closed the case."""
        append_json_line(self.path, {"case": case, "status": status, "timeout": timeout,
                                     **({"by": by} if by else {})})


def add_case_options(parser: argparse.ArgumentParser) -> None:
    """--given and --case-log, for a script whose proof may be of one case a case split left
    open: the texts it is asked with, and the split's log to write the closed case into."""
    parser.add_argument("--given", action="append", default=[], metavar="TEXT",
                        help="a condition the towers also meet: the proof is of that case")
    parser.add_argument("--case-log", type=Path,
                        help="a case split's log (brix_case_split.py --log) for these cards: "
                             "the --given case is written there as closed by this proof")


def case_log(parser: argparse.ArgumentParser, args: argparse.Namespace, deck: Deck,
              cards: list[str]) -> CaseLog | None:
    """The case split's log that --case-log names (`add_case_options`), for the case --given
    names (each text checked): parser errors, before Z3 is asked, for a text that does not
    parse, a case proof to --record (it is of one case), a log without a case, and a log of
    another run."""
    for text in args.given:
        try:
            parse(text, deck.bricks.color_names)
        except UserError as error:
            parser.error(f"--given {text!r}: {error}")
    if args.record and args.given:
        parser.error("--record: a proof under --given is of one case; write it into the case "
                     "split's log with --case-log")
    if args.case_log and not args.given:
        parser.error("--case-log: name the case with --given")
    try:
        return CaseLog(args.case_log, deck, cards) if args.case_log else None
    except (OSError, ValueError) as error:
        parser.error(f"--case-log {args.case_log}: {error}")


def given_options(given: list[str]) -> list[str]:
    """The --given options that repeat a case in a command line."""
    return [f'--given "{text}"' for text in given]


def close_case(log: CaseLog, given: list[str], timeout: float, path: Path, command: str,
               finding: str) -> None:
    """The --given case written into the --case-log log (`path`) as impossible, by `command`
    (`timeout`: the seconds its Z3 questions had)."""
    log.write(given, UNSOLVABLE, timeout, f"{command} ({finding})")
    print(f"the case written into {path} as closed")


def colour_swaps(deck: Deck, cards: list[str]) -> list[dict[str, str]]:
    """The repaintings that change nothing: each permutation of the deck's colours (other than
    none) that gives every colour as many bricks as its image has and turns the cards into
    themselves. A tower meeting the cards and a case, repainted so, meets the cards and the
    case's image: so a case whose image is impossible is impossible."""
    colours = deck.bricks.color_names
    count = {c: len(deck.bricks.by_color(c)) for c in colours}
    conditions = Counter(recoloured(deck.card(c).condition, {}) for c in cards)
    swaps = []
    for images in permutations(colours):
        swap = {c: i for c, i in zip(colours, images, strict=True) if c != i}
        if swap and all(count[c] == count[i] for c, i in swap.items()) and Counter(
                recoloured(deck.card(c).condition, swap) for c in cards) == conditions:
            swaps.append(swap)
    return swaps


def _swap_text(swap: dict[str, str]) -> str:
    """A repainting in words: "purple as red, red as purple"."""
    return ", ".join(f"{a} as {b}" for a, b in swap.items())


def _split(deck: Deck, cards: list[str], splits: list[Split], case: list[str], timeout: float,
           outcome: Outcome, log: CaseLog | None, swaps: Sequence[dict[str, str]] = (),
           first_timeout: float | None = None) -> bool:
    """Every case of the first split under `case`, each undecided one split by the rest;
    stops at the first tower. True when every case was closed: impossible, split into
    impossible ones, or (`swaps`, `colour_swaps`) the image of such a case. A case whose image
    was left open is left open too, unasked (it would fare the same). A case with splits left
    has `first_timeout` seconds (when given and shorter), the last split's cases `timeout`."""
    colours = deck.bricks.color_names
    seconds = timeout if first_timeout is None or len(splits) == 1 else min(first_timeout, timeout)
    every = True
    for text in splits[0].cases():
        asked = [*case, text]
        conditions = [parse(t, colours) for t in asked] if swaps else []
        images = [frozenset(recoloured(c, swap) for c in conditions) for swap in swaps]
        if any(closed <= image for image in images for closed in outcome.proved):
            print(f"{'; '.join(asked)}: {UNSOLVABLE} (a repainted case's image)", flush=True)
            outcome.closed += 1
            outcome.mirrored += 1
            continue
        if any(image in outcome.unsettled for image in images):
            print(f"{'; '.join(asked)}: open (so is its repainted image)", flush=True)
            outcome.open.append(asked)
            every = False
            continue
        logged = log.answer(asked, seconds) if log else None
        if logged is not None:
            status, tower = logged, None
            print(f"{'; '.join(asked)}: {status} (logged)", flush=True)
        else:
            start = time.monotonic()
            status, tower = ask(deck, cards, asked, seconds)
            print(f"{'; '.join(asked)}: {status} ({time.monotonic() - start:.1f} s)", flush=True)
            if log and tower is None:
                log.write(asked, status, seconds)
        if tower is not None:
            outcome.tower, outcome.case = tower, asked
            return False
        if status == UNSOLVABLE:
            outcome.closed += 1
            closed = True
        elif len(splits) > 1:
            closed = _split(deck, cards, splits[1:], asked, timeout, outcome, log, swaps,
                            first_timeout)
            if outcome.tower is not None:
                return False
        else:
            outcome.open.append(asked)
            closed = False
        if swaps:
            settled = outcome.proved if closed else outcome.unsettled
            settled.append(frozenset(recoloured(c, {}) for c in conditions))
        every = every and closed
    return every


if __name__ == "__main__":
    main()
