"""Which cards of a deck imply which (every tower meeting one meets the other), and what that
settles: a set of cards that imply every card of a known conflict is unsolvable as well, with no
solver check of its own.

A card implies another when no tower meets it together with a negation of the other
(`negations`: the negation of a condition is a disjunction of conditions of the same language),
which the solver proves (`meets_one_not_other`). Only the pairs no tower met so far tells apart
are asked (`implication_candidates`). Pink after its twentieth round: of the 30 pairs no tower of
its file told apart, the solver proved 29 implications, each in at most 3 s (P50 "at least 5
flat bricks tall and at most 6 bricks" implies P04 "at most 6 bricks"; P34 "exactly 9 bricks",
every brick used, implies P01 "both blue bricks"), and those settle 130 of the 3,296 sets of 6
cards the file left open, each of which Z3 had failed to decide in 3 to 10 s.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from tower_print.brix.checker import WitnessRejected
from tower_print.brix.language import (
    Clause,
    Compare,
    Condition,
    Count,
    Height,
    Not,
    Pred,
    Quant,
    Quantified,
)
from tower_print.brix.marco import members
from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE, Labeled, TowerSolver


def _flip(quant: Quant) -> list[Quant]:
    """Quantifiers whose disjunction is the negation of `quant` over the same count."""
    n = quant.n
    return {
        "no": [Quant("some")], "some": [Quant("no")],
        "at least": [Quant("fewer than", n)], "fewer than": [Quant("at least", n)],
        "at most": [Quant("more than", n)], "more than": [Quant("at most", n)],
        "exactly": [Quant("fewer than", n), Quant("more than", n)],
    }[quant.kind]


def _negate_pred(pred: Pred) -> Pred:
    return pred.pred if isinstance(pred, Not) else Not(pred)


def negate_clause(clause: Clause) -> list[Clause]:
    """Clauses of the language whose disjunction is the negation of `clause`."""
    if isinstance(clause, Quantified):
        if clause.quant.kind == "every":
            return [Quantified(Quant("some"), clause.subject, _negate_pred(clause.pred))]
        return [Quantified(q, clause.subject, clause.pred) for q in _flip(clause.quant)]
    if isinstance(clause, Count):
        return [Count(q, clause.subject) for q in _flip(clause.quant)]
    if isinstance(clause, Compare):
        return [Compare(clause.left, op, clause.right)
                for op in ("more", "fewer", "as many") if op != clause.op]
    return [Height(q, clause.unit) for q in _flip(clause.quant)]


def negations(condition: Condition) -> list[Condition]:
    """Conditions whose disjunction is the negation of `condition` (a conjunction of clauses:
    it fails exactly when one of its clauses does)."""
    return [Condition((neg,)) for clause in condition.clauses for neg in negate_clause(clause)]


def meets_one_not_other(
    solver: TowerSolver, one: Condition, other: Condition, seconds: float,
) -> tuple[str, int]:
    """(SOLVABLE when a tower meets `one` and not `other`, UNSOLVABLE when none does: `one`
    implies `other`, UNKNOWN when a check ran out of its `seconds` first; the checks asked)."""
    undecided = False
    for k, negation in enumerate(negations(other)):
        try:
            status, _, _ = solver.check(
                [Labeled("one", "", one), Labeled(f"not-{k}", "", negation)],
                time.monotonic() + seconds)
        except WitnessRejected:  # a solver bug, never trusted: undecided
            status = UNKNOWN
        if status == SOLVABLE:
            return SOLVABLE, k + 1
        undecided |= status == UNKNOWN
    return UNKNOWN if undecided else UNSOLVABLE, len(negations(other))


def implication_candidates(cards: int, met: Iterable[int]) -> list[tuple[int, int]]:
    """The pairs of cards (one, other) such that no set `met` (the cards some tower meets, as
    a bit mask) holds one without the other: those the towers leave to the solver."""
    together = [(1 << cards) - 1] * cards
    for mask in met:
        for card in members(mask):
            together[card] &= mask
    return [(one, other) for one in range(cards) for other in members(together[one])
            if other != one]


class Implications:
    """For each card, the cards it implies (itself among them), as a bit mask, closed under
    chains (one implies another that implies a third)."""

    def __init__(self, cards: int, pairs: Iterable[tuple[int, int]] = ()) -> None:
        self.implied = [1 << card for card in range(cards)]
        for one, other in pairs:
            self.implied[one] |= 1 << other
        changed = True
        while changed:
            changed = False
            for card, implied in enumerate(self.implied):
                wider = self.closure(implied)
                if wider != implied:
                    self.implied[card], changed = wider, True

    def count(self) -> int:
        """How many (card, other card) implications are known, chains followed."""
        return sum(implied.bit_count() - 1 for implied in self.implied)

    def closure(self, mask: int) -> int:
        """Every card the cards of `mask` imply (theirs among them)."""
        closed = mask
        for card in members(mask):
            closed |= self.implied[card]
        return closed

    def core(self, mask: int, conflict: int) -> int:
        """Cards of `mask` that between them imply every card of `conflict`, which must lie in
        its `closure`: each card of the conflict that `mask` holds, and for each other the first
        card of `mask` implying it."""
        core = mask & conflict
        for wanted in members(conflict & ~mask):
            core |= next(1 << card for card in members(mask) if self.implied[card] >> wanted & 1)
        return core
