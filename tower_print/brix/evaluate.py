"""Whether a concrete tower meets a condition, evaluated directly on its geometry.

This is the checker's half of the semantics: plain Python over `geometry`, sharing nothing with
the Z3 encoding in `model`, so that a witness is judged by a second, independent reading of the
condition language. Only the bricks in the tower count (pink deck: the unused ones are absent).
"""

from __future__ import annotations

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
    def __init__(self, bricks: tuple[PlacedBrick, ...], brick_set: BrickSet) -> None:
        self.bricks = bricks
        self.brick_set = brick_set
        tops = [b.top for b in bricks]
        self.highest = max(tops)
        self.lowest = min(tops)
        # Remembered per tower, keyed by object identity (the tower and the conditions outlive
        # the evaluator): conditions ask the same selections and pairs over and over, and the
        # tower search evaluates thousands of towers.
        self._relations: dict[tuple[str, int, int], bool] = {}
        self._selections: dict[int, list[PlacedBrick]] = {}
        self._distances: dict[tuple[int, int], int] = {}

    def related(self, relation: str, a: PlacedBrick, b: PlacedBrick) -> bool:
        """RELATION_TESTS[relation](a, b), remembered: conditions ask the same pairs often."""
        key = (relation, id(a), id(b))
        if key not in self._relations:
            self._relations[key] = RELATION_TESTS[relation](a, b)
        return self._relations[key]

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
            subject = self.select(clause.subject)
            return clause.quant.graded_shortfall([self.distance(b, clause.pred) for b in subject])
        if isinstance(clause, Count):
            count = len(self.select(clause.subject))
            return clause.quant.shortfall(count, count)
        if isinstance(clause, Compare):
            left, right = len(self.select(clause.left)), len(self.select(clause.right))
            return {
                "more": max(0, right + 1 - left), "fewer": max(0, left + 1 - right),
                "as many": abs(left - right),
            }[clause.op]
        if isinstance(clause, Height):
            unit = self.brick_set.length if clause.unit == "upright bricks" else (
                self.brick_set.thickness
            )
            target = clause.quant.n * unit
            top = g.height(self.bricks)
            return {
                "at least": max(0, target - top), "at most": max(0, top - target),
                "exactly": abs(top - target), "more than": max(0, target + 1 - top),
                "fewer than": max(0, top - target + 1),
            }[clause.quant.kind]
        if isinstance(clause, Symmetric):
            return g.mirror_misfits(self.bricks)
        raise TypeError(f"unknown clause {clause!r}")

    def select(self, selector: Selector, exclude: PlacedBrick | None = None) -> list[PlacedBrick]:
        chosen = self._selections.get(id(selector))
        if chosen is None:
            chosen = [b for b in self.bricks if all(self.pred(b, p) for p in selector.preds)]
            self._selections[id(selector)] = chosen
        return [b for b in chosen if b is not exclude]

    def pred(self, brick: PlacedBrick, pred: Pred) -> bool:
        if isinstance(pred, Colour):
            return brick.color in pred.colours
        if isinstance(pred, Not):
            return not self.pred(brick, pred.pred)
        if isinstance(pred, Related):
            return self.distance(brick, pred) == 0
        return self.trait(brick, pred.name)

    def distance(self, brick: PlacedBrick, pred: Pred) -> int:
        """How many other bricks would have to change for `brick` to meet `pred` (0: it does);
        0 or 1 for colours and traits."""
        if isinstance(pred, Related):
            key = (id(brick), id(pred))
            if key not in self._distances:
                others = self.select(pred.target, exclude=brick)
                count = sum(1 for other in others if self.related(pred.relation, brick, other))
                self._distances[key] = pred.quant.shortfall(count, len(others))
            return self._distances[key]
        return 0 if self.pred(brick, pred) else 1

    def trait(self, brick: PlacedBrick, name: str) -> bool:
        if name == "vertical":
            return self.brick_set.is_vertical((brick.dx, brick.dy, brick.dz))
        if name == "horizontal":
            return not self.brick_set.is_vertical((brick.dx, brick.dy, brick.dz))
        if name == "highest":
            return brick.top == self.highest
        if name == "lowest":
            return brick.top == self.lowest
        if name == "grounded":
            return g.on_ground(brick)
        if name == "bridge":
            supports = [b for b in self.bricks if b is not brick and g.rests_on(brick, b)]
            return any(not g.touches(a, b) for a, b in combinations(supports, 2))
        raise ValueError(f"unknown trait {name}")


def holds(condition: Condition, bricks: tuple[PlacedBrick, ...], brick_set: BrickSet) -> bool:
    return Evaluator(bricks, brick_set).condition(condition)
