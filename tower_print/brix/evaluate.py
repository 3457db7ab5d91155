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

    def condition(self, condition: Condition) -> bool:
        return all(self.clause(c) for c in condition.clauses)

    def clause(self, clause: Clause) -> bool:
        if isinstance(clause, Quantified):
            subject = self.select(clause.subject)
            count = sum(1 for b in subject if self.pred(b, clause.pred))
            return clause.quant.holds(count, len(subject))
        if isinstance(clause, Count):
            count = len(self.select(clause.subject))
            return clause.quant.holds(count, count)
        if isinstance(clause, Compare):
            left, right = len(self.select(clause.left)), len(self.select(clause.right))
            return {"more": left > right, "fewer": left < right, "as many": left == right}[
                clause.op
            ]
        if isinstance(clause, Height):
            unit = self.brick_set.length if clause.unit == "upright bricks" else (
                self.brick_set.thickness
            )
            target = clause.quant.n * unit
            top = g.height(self.bricks)
            return {
                "at least": top >= target, "at most": top <= target, "exactly": top == target,
                "more than": top > target, "fewer than": top < target,
            }[clause.quant.kind]
        raise TypeError(f"unknown clause {clause!r}")

    def select(self, selector: Selector, exclude: PlacedBrick | None = None) -> list[PlacedBrick]:
        return [
            b for b in self.bricks
            if b is not exclude and all(self.pred(b, p) for p in selector.preds)
        ]

    def pred(self, brick: PlacedBrick, pred: Pred) -> bool:
        if isinstance(pred, Colour):
            return brick.color in pred.colours
        if isinstance(pred, Not):
            return not self.pred(brick, pred.pred)
        if isinstance(pred, Related):
            others = self.select(pred.target, exclude=brick)
            test = RELATION_TESTS[pred.relation]
            count = sum(1 for other in others if test(brick, other))
            return pred.quant.holds(count, len(others))
        return self.trait(brick, pred.name)

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
