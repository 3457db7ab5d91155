"""Whether a concrete tower meets a condition, evaluated directly on its geometry.

This is the checker's half of the semantics: plain Python over `geometry`, sharing nothing with
the Z3 encoding in `model`, so that a witness is judged by a second, independent reading of the
condition language. Only the bricks in the tower count (pink deck: the unused ones are absent).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations

from tower_print.brix import geometry as g
from tower_print.brix.bricks import BrickSet
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import (
    Clause,
    Colour,
    Compare,
    Condition,
    Count,
    Height,
    Not,
    Pred,
    Quantified,
    Related,
    Selector,
    Symmetric,
)

RELATION_TESTS = {
    "touches": g.touches,
    "rests on": g.rests_on,
    "supports": lambda a, b: g.rests_on(b, a),
    "is above": g.above,
    "is below": lambda a, b: g.above(b, a),
}


class Evaluator:
    """One tower's answers to conditions. Bricks are numbered by their place in the tower and a
    set of bricks is a bitmask (bit k: brick k), so a selection is an AND of masks and a count
    of related bricks one popcount: the tower search judges thousands of towers a second, and
    walking lists of bricks was most of its time."""

    def __init__(self, bricks: tuple[PlacedBrick, ...], brick_set: BrickSet) -> None:
        self.bricks = bricks
        self.brick_set = brick_set
        self.everyone = (1 << len(bricks)) - 1
        tops = [b.top for b in bricks]
        self.highest = max(tops)
        self.lowest = min(tops)
        self._colours: dict[str, int] = {}
        for k, brick in enumerate(bricks):
            self._colours[brick.color] = self._colours.get(brick.color, 0) | 1 << k
        # Remembered per tower, keyed by object identity (hashing the conditions' trees costs
        # more than the answers): conditions ask the same selections, predicates and pairs
        # over and over. Every object keyed is kept in `_keyed`, so that its id cannot pass to
        # a new object while this evaluator lives (a condition parsed, judged and dropped,
        # then another).
        self._keyed: list[object] = []
        self._selections: dict[int, int] = {}
        self._preds: dict[int, int] = {}
        self._traits: dict[str, int] = {}
        # (relation, brick) -> (bricks tested so far, those it stands in the relation to):
        # only the pairs some condition asks about are tested.
        self._relations: dict[tuple[str, int], tuple[int, int]] = {}

    def condition(self, condition: Condition) -> bool:
        return all(self.clause(c) for c in condition.clauses)

    def clause(self, clause: Clause) -> bool:
        return self.shortfall(clause) == 0

    def violation(self, condition: Condition) -> int:
        """How far the tower is from meeting `condition` (0: it does), summed over clauses."""
        return sum(self.shortfall(c) for c in condition.clauses)

    def shortfall(self, clause: Clause) -> int:
        """0 when `clause` holds, else roughly how many bricks (or lattice units of height)
        are wrong: the definition of truth here, and a gradient for the tower search."""
        if isinstance(clause, Quantified):
            return clause.quant.graded_shortfall(
                [self.distance(k, clause.pred) for k in _members(self._select(clause.subject))])
        if isinstance(clause, Count):
            count = self._select(clause.subject).bit_count()
            return clause.quant.shortfall(count, count)
        if isinstance(clause, Compare):
            left = self._select(clause.left).bit_count()
            right = self._select(clause.right).bit_count()
            return {
                "more": max(0, right + 1 - left), "fewer": max(0, left + 1 - right),
                "as many": abs(left - right),
            }[clause.op]
        if isinstance(clause, Height):
            unit = self.brick_set.length if clause.unit == "upright bricks" else (
                self.brick_set.thickness
            )
            target = clause.quant.n * unit
            top = self.highest
            return {
                "at least": max(0, target - top), "at most": max(0, top - target),
                "exactly": abs(top - target), "more than": max(0, target + 1 - top),
                "fewer than": max(0, top - target + 1),
            }[clause.quant.kind]
        if isinstance(clause, Symmetric):
            return g.mirror_misfits(self.bricks)
        raise TypeError(f"unknown clause {clause!r}")

    def select(self, selector: Selector) -> list[PlacedBrick]:
        """The bricks `selector` picks, in tower order."""
        return [self.bricks[k] for k in _members(self._select(selector))]

    def _select(self, selector: Selector) -> int:
        chosen = self._selections.get(id(selector))
        if chosen is None:
            chosen = self.everyone
            for pred in selector.preds:
                chosen &= self._pred(pred)
            self._selections[id(selector)] = chosen
            self._keyed.append(selector)
        return chosen

    def _pred(self, pred: Pred) -> int:
        """The bricks that meet `pred`."""
        met = self._preds.get(id(pred))
        if met is None:
            if isinstance(pred, Colour):
                met = 0
                for colour in pred.colours:
                    met |= self._colours.get(colour, 0)
            elif isinstance(pred, Not):
                met = self.everyone & ~self._pred(pred.pred)
            elif isinstance(pred, Related):
                met = sum(1 << k for k in range(len(self.bricks)) if self.distance(k, pred) == 0)
            else:
                met = self._trait(pred.name)
            self._preds[id(pred)] = met
            self._keyed.append(pred)
        return met

    def distance(self, k: int, pred: Pred) -> int:
        """How many other bricks would have to change for brick number `k` to meet `pred` (0:
        it does); 0 or 1 for colours and traits."""
        if not isinstance(pred, Related):
            return 0 if self._pred(pred) >> k & 1 else 1
        others = self._select(pred.target) & ~(1 << k)
        count = (self._related(pred.relation, k, others) & others).bit_count()
        return pred.quant.shortfall(count, others.bit_count())

    def _related(self, relation: str, k: int, among: int) -> int:
        """The bricks (at least those in `among`) that brick `k` stands in `relation` to."""
        tested, hits = self._relations.get((relation, k), (0, 0))
        untested = among & ~tested
        if untested:
            test = RELATION_TESTS[relation]
            brick = self.bricks[k]
            for j in _members(untested):
                if test(brick, self.bricks[j]):
                    hits |= 1 << j
            self._relations[relation, k] = (tested | untested, hits)
        return hits

    def _trait(self, name: str) -> int:
        """The bricks that have the trait `name` (remembered by name: cards share traits)."""
        met = self._traits.get(name)
        if met is None:
            met = self._traits[name] = self._where(name)
        return met

    def _where(self, name: str) -> int:
        if name in ("vertical", "horizontal"):
            vertical = self._bricks_where(
                lambda b: self.brick_set.is_vertical((b.dx, b.dy, b.dz)))
            return vertical if name == "vertical" else self.everyone & ~vertical
        if name == "highest":
            return self._bricks_where(lambda b: b.top == self.highest)
        if name == "lowest":
            return self._bricks_where(lambda b: b.top == self.lowest)
        if name == "grounded":
            return self._bricks_where(g.on_ground)
        if name == "bridge":
            return self._bricks_where(self._bridges)
        raise ValueError(f"unknown trait {name}")

    def _bricks_where(self, test: Callable[[PlacedBrick], bool]) -> int:
        return sum(1 << k for k, brick in enumerate(self.bricks) if test(brick))

    def _bridges(self, brick: PlacedBrick) -> bool:
        """Rests on two bricks that do not touch each other."""
        supports = [b for b in self.bricks if b is not brick and g.rests_on(brick, b)]
        return any(not g.touches(a, b) for a, b in combinations(supports, 2))


@cache
def _members(mask: int) -> tuple[int, ...]:
    """The brick numbers in `mask`, lowest first (remembered: a tower has at most 9 bricks,
    so there are few masks, and they are asked for hundreds of thousands of times)."""
    members = []
    while mask:
        low = mask & -mask
        members.append(low.bit_length() - 1)
        mask ^= low
    return tuple(members)


def holds(condition: Condition, bricks: tuple[PlacedBrick, ...], brick_set: BrickSet) -> bool:
    return Evaluator(bricks, brick_set).condition(condition)
