"""The rulebook's challenges: extra demands on a round, and deciding a round under them.

Why here and not in the solver: a challenge is either a condition on the tower (small
footprint, custom built, masterpiece, one brick wonder, high standards), which goes to the solver
like one more card so that the Z3 model, the checker and the search all judge it the same way,
or a rule about the cards ("the table may set one card aside"), which is not a property of any
tower. The second is decided here, exactly, with the solver's conflicts: if the round is
unsolvable with conflict C, setting aside a card outside C leaves C in place, so only the cards
of C need trying, each by one more solver call.

The challenges, their conditions and the ones a tower model cannot judge are content
(`content/brix/challenges.yaml`). The solver and evaluator are imported where they are used,
so that reading the list (for `--help`) does not load Z3 and HiGHS.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from tower_print.brix.language import Condition, parse
from tower_print.content import UserError, content_root, load_yaml

if TYPE_CHECKING:
    from tower_print.brix.bricks import BrickSet
    from tower_print.brix.sampling import Tower
    from tower_print.brix.solver import Labeled, TowerSolver, Verdict


@dataclass(frozen=True)
class Challenge:
    name: str
    text: str
    condition: Condition | None
    source: str | None  # the condition as written in the file
    drop: int  # cards the table may set aside (0 or 1)

    def item(self) -> Labeled | None:
        """The challenge as one more condition for the solver, labelled with its name."""
        from tower_print.brix.solver import Labeled
        if self.condition is None:
            return None
        return Labeled(self.name, self.text, self.condition)


@dataclass(frozen=True)
class Challenges:
    modelled: tuple[Challenge, ...]
    not_modelled: tuple[tuple[str, str], ...]  # (name, why)
    totals: dict[str, int]  # level -> exact card points of a challenge round

    def get(self, name: str) -> Challenge:
        for challenge in self.modelled:
            if challenge.name == name:
                return challenge
        why = dict(self.not_modelled).get(name)
        if why is not None:
            raise UserError(f"--challenge: '{name}' is not modelled ({why})")
        names = ", ".join(c.name for c in self.modelled)
        raise UserError(f"--challenge: unknown challenge '{name}' (expected one of: {names})")

    def pick(self, names: Sequence[str]) -> tuple[Challenge, ...]:
        chosen = tuple(self.get(n) for n in dict.fromkeys(names))
        return chosen


def load_challenges(path: Path, colours: tuple[str, ...]) -> Challenges:
    root = load_yaml(path)
    root.only_keys("totals", "challenges", "not_modelled")
    totals_node = root["totals"]
    totals_node.only_keys("easy", "medium", "hard")
    totals = {level: totals_node[level].int(2, 100) for level in ("easy", "medium", "hard")}
    modelled: list[Challenge] = []
    names: set[str] = set()
    for node in root["challenges"].items():
        node.only_keys("name", "text", "condition", "drop")
        name = node["name"].str()
        if name in names:
            raise node["name"].error(f"challenge '{name}' listed twice")
        names.add(name)
        cond_node = node.get("condition")
        condition = None if cond_node is None else cond_node.parsed(lambda t: parse(t, colours))
        drop = 0 if node.get("drop") is None else node["drop"].int(0, 1)
        if condition is None and drop == 0:
            raise node.error("a challenge needs a condition or drop: 1")
        modelled.append(Challenge(name, node["text"].str(), condition,
                                  None if cond_node is None else cond_node.str(), drop))
    skipped: list[tuple[str, str]] = []
    for node in root["not_modelled"].items():
        node.only_keys("name", "why")
        name = node["name"].str()
        if name in names:
            raise node["name"].error(f"challenge '{name}' listed twice")
        names.add(name)
        skipped.append((name, node["why"].str()))
    return Challenges(tuple(modelled), tuple(skipped), totals)


@cache
def default_challenges(colours: tuple[str, ...]) -> Challenges:
    """The shipped challenges, their conditions read with the deck's colours."""
    return load_challenges(content_root() / "brix" / "challenges.yaml", colours)


def challenge_items(challenges: Sequence[Challenge]) -> list[Labeled]:
    return [item for item in (c.item() for c in challenges) if item is not None]


def may_drop(challenges: Sequence[Challenge]) -> int:
    """Cards that may be set aside: one, however many challenges allow it."""
    return max((c.drop for c in challenges), default=0)


@dataclass
class RoundVerdict:
    """A verdict on cards plus challenges: `dropped` is the card set aside (None: none needed)."""

    verdict: Verdict
    dropped: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        return self.verdict.status


def ask(solver: TowerSolver, items: Sequence[Labeled], timeout: float, minimise: bool) -> Verdict:
    """The solver's verdict; without `minimise`, an "unsolvable" carries Z3's first core (a
    real contradiction, maybe not minimal) and skips the extra calls that shrink it."""
    from tower_print.brix.solver import UNSOLVABLE, Verdict
    if minimise:
        return solver.verify(items, timeout)
    start = time.monotonic()
    status, tower, core = solver.check(items, start + timeout)
    conflict = tuple(it.label for it in core) if status == UNSOLVABLE else None
    return Verdict(status, tuple(it.label for it in items), tower=tower, conflict=conflict,
                   conflict_minimal=False, seconds=time.monotonic() - start)


def decide(
    solver: TowerSolver, cards: Sequence[Labeled], challenges: Sequence[Challenge],
    timeout: float, minimise: bool = True,
) -> RoundVerdict:
    """Can one tower meet `cards` and the challenges' conditions, allowing the challenges' card
    drop? With a drop, "solvable" may name the card set aside; "unsolvable" means every card
    set aside still leaves a contradiction (the conflict shown is the full round's).
    `minimise`: shrink the conflict to a minimal one (see `ask`)."""
    from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE
    start = time.monotonic()
    extra = challenge_items(challenges)
    full = ask(solver, [*cards, *extra], timeout, minimise)
    if full.status != UNSOLVABLE or not may_drop(challenges):
        return RoundVerdict(full)
    card_labels = {c.label for c in cards}
    suspects = [label for label in full.conflict or () if label in card_labels]
    result = RoundVerdict(full)
    unknown = False
    for label in suspects:
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            unknown = True
            break
        rest = [c for c in cards if c.label != label]
        trial = ask(solver, [*rest, *extra], left, minimise)
        if trial.status == SOLVABLE:
            trial.seconds = time.monotonic() - start
            return RoundVerdict(trial, dropped=label)
        unknown = unknown or trial.status == UNKNOWN
    if unknown:
        full.status = UNKNOWN
        full.conflict = None
        full.candidates = 0  # those fell on the way to the full round's (settled) conflict
        result.notes.append("time ran out before every card to set aside was tried")
    elif suspects:
        result.notes.append("setting aside any one card still leaves a contradiction")
    full.seconds = time.monotonic() - start
    return result


def unmet_cards(
    tower: Tower, brick_set: BrickSet, cards: Sequence[Labeled],
    required: Sequence[Labeled] = (),
) -> list[str] | None:
    """Labels of the `cards` the tower does not meet, or None when it misses a `required`
    condition (a challenge's, which can never be set aside)."""
    from tower_print.brix.evaluate import Evaluator

    judge = Evaluator(tower, brick_set)
    if not all(judge.condition(item.condition) for item in required):
        return None
    return [item.label for item in cards if not judge.condition(item.condition)]
