"""Tower shapes, and every way of colouring one judged at once.

Why: all bricks have the same size and weight, so whether a tower stands depends only on its
shape (where the boxes are), never on which colour sits where. A shape that stood once can be
coloured any way the deck's rule allows and it still stands. Card sets that need an unusual
structure (at most two bricks on the table, a brick on three bricks, a tall tower) are where the
quick search fails and Z3 needs many rounds of stability lemmas; yet the shapes such sets need
recur from deal to deal. So the solver first tries a library of shapes that stood in earlier
witnesses (content/brix/shapes/), each with all of its colourings: a hit is a ready tower, and
it goes through the independent checker like any other. Libraries are read and built in
`shape_library`.

`Shape` holds a shape's colour-free facts (which slot touches, rests on, is above which; traits;
height; symmetry) as numpy arrays, and `Shape.meets` evaluates a condition for a whole matrix of
colourings (one row per colouring, one column per slot) with the meaning `evaluate` gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, product

import numpy as np

from tower_print.brix import geometry
from tower_print.brix.bricks import BrickSet
from tower_print.brix.evaluate import RELATION_TESTS
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import (
    Colour,
    Compare,
    Condition,
    Count,
    Height,
    Not,
    Pred,
    Quant,
    Quantified,
    Related,
    Selector,
    Symmetric,
)
from tower_print.brix.symmetry import unnamed_colours

Box = tuple[int, int, int, int, int, int]  # x, y, z, dx, dy, dz
Tower = tuple[PlacedBrick, ...]
MergedMemo = dict[tuple[tuple[int, ...], frozenset[int]], dict[object, np.ndarray]]
"""`Shape.meets`'s memo of what colourings decide alone, one per block of merged colourings
(`merged`): by (mix, the colours a condition names)."""


def quant_holds(quant: Quant, count: np.ndarray, total: np.ndarray) -> np.ndarray:
    """`Quant.holds` element-wise over arrays of counts."""
    kind, n = quant.kind, quant.n
    if kind == "every":
        return count == total
    if kind == "no":
        return count == 0
    if kind == "some":
        return count >= 1
    return {
        "at least": count >= n, "at most": count <= n, "exactly": count == n,
        "more than": count > n, "fewer than": count < n,
    }[kind]


@cache
def arrangements(counts: tuple[int, ...]) -> np.ndarray:
    """Every distinct sequence holding counts[c] copies of colour number c, one per row."""
    rows: list[tuple[int, ...]] = []

    def extend(prefix: list[int], left: list[int]) -> None:
        if not any(left):
            rows.append(tuple(prefix))
            return
        for colour, n in enumerate(left):
            if n:
                left[colour] -= 1
                extend([*prefix, colour], left)
                left[colour] += 1

    extend([], list(counts))
    return np.array(rows, dtype=np.int8).reshape(len(rows), sum(counts))


@cache
def merged(counts: tuple[int, ...], named: frozenset[int]) -> tuple[np.ndarray, np.ndarray]:
    """The colourings `arrangements(counts)` with every colour not in `named` (colour numbers,
    `named_colours`) replaced by the first of them, without repeats, and for each colouring
    its row there: (rows, inverse).

    Why: a condition tells bricks apart only by the colours it names, so it holds on a
    colouring exactly when it holds on the merged one, and a card naming one colour of a pink
    tower of 9 bricks sees 36 colourings, not 22680."""
    colours = arrangements(counts)
    unnamed = [c for c, n in enumerate(counts) if n and c not in named]
    if len(unnamed) < 2:
        return colours, np.arange(len(colours))
    lookup = np.arange(len(counts), dtype=np.int8)
    lookup[unnamed] = unnamed[0]
    merged_colours = lookup[colours]
    codes = merged_colours.astype(np.int64) @ (len(counts) ** np.arange(colours.shape[1]))
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    return merged_colours[first], inverse


def named_colours(condition: Condition, brick_set: BrickSet) -> frozenset[int]:
    """The numbers (indexes into `brick_set.color_names`) of the colours `condition` names."""
    unnamed = unnamed_colours([condition], brick_set)
    return frozenset(k for k, colour in enumerate(brick_set.color_names) if colour not in unnamed)


def colour_mixes(brick_set: BrickSet, all_used: bool, slots: int) -> list[tuple[int, ...]]:
    """How many bricks of each colour (numbered as in `brick_set.color_names`) a shape with
    `slots` bricks may have under the deck's rule: all the bricks ("all"), or any mix with at
    least one brick of each colour."""
    available = [len(brick_set.by_color(c)) for c in brick_set.color_names]
    if all_used:
        return [tuple(available)] if sum(available) == slots else []
    return [mix for mix in product(*(range(1, a + 1) for a in available)) if sum(mix) == slots]


def colourings(brick_set: BrickSet, all_used: bool, slots: int) -> list[np.ndarray]:
    """Colourings of a shape with `slots` bricks the deck's rule allows, one matrix per mix of
    colours (`colour_mixes`)."""
    return [arrangements(mix) for mix in colour_mixes(brick_set, all_used, slots)]


def coloured_tower(boxes: Sequence[Box], brick_set: BrickSet,
                   colouring: Sequence[int]) -> Tower:
    """`boxes` with box k given colour number colouring[k] (bricks named in order)."""
    names = brick_set.color_names
    taken: dict[str, int] = {}
    bricks = []
    for box, number in zip(boxes, colouring, strict=True):
        colour = names[number]
        brick = brick_set.by_color(colour)[taken.get(colour, 0)]
        taken[colour] = taken.get(colour, 0) + 1
        bricks.append(PlacedBrick(brick.name, colour, *box))
    return tuple(bricks)


class Shape:
    """A standing tower's boxes with everything conditions ask of them that colour does not
    change, ready to judge many colourings at once."""

    def __init__(self, boxes: Sequence[Box], brick_set: BrickSet) -> None:
        self.boxes = tuple(boxes)
        self.brick_set = brick_set
        tower = tuple(PlacedBrick("", "", *box) for box in self.boxes)
        slots = len(tower)
        # relations[name][j, i]: slot i stands in that relation to slot j (transposed, so that
        # a row of chosen target slots times it counts each slot's related targets)
        self.relations = {
            name: np.array([[i != j and test(a, b) for j, b in enumerate(tower)]
                            for i, a in enumerate(tower)], dtype=np.float32).reshape(
                                slots, slots).T.copy()
            for name, test in RELATION_TESTS.items()
        }
        tops = [b.top for b in tower]
        vertical = np.array([brick_set.is_vertical((b.dx, b.dy, b.dz)) for b in tower])
        self.traits = {
            "vertical": vertical, "horizontal": ~vertical,
            "highest": np.array([t == max(tops) for t in tops]),
            "lowest": np.array([t == min(tops) for t in tops]),
            "grounded": np.array([geometry.on_ground(b) for b in tower]),
            "bridge": np.array([_bridges(b, tower) for b in tower]),
        }
        self.height = geometry.height(tower)
        self.symmetric = geometry.mirror_misfits(tower) == 0

    def meets(self, condition: Condition, colours: np.ndarray,
              shared: dict[object, np.ndarray] | None = None) -> np.ndarray:
        """For each row of `colours`, whether the shape so coloured meets `condition`.

        `shared`: what depends on the colouring alone (the bricks a colour-only selector picks,
        and their count), kept for the next shape judged on the same `colours`: a library's
        shapes of one size share their colourings, and without it colour tests were half of a
        lookup's time."""
        shared = {} if shared is None else shared
        met = np.ones(len(colours), dtype=bool)
        for clause in condition.clauses:
            met &= self._clause(clause, colours, shared)
        return met

    def meets_mix(self, condition: Condition, named: frozenset[int], mix: tuple[int, ...],
                  shared: MergedMemo) -> np.ndarray:
        """`meets` for every colouring of `mix` (the rows of `arrangements(mix)`), judged on
        them merged as the condition sees them (`merged`; `named`: its colours,
        `named_colours`). `shared`: `meets`'s memo for each block of merged colourings."""
        rows, inverse = merged(mix, named)
        return self.meets(condition, rows, shared.setdefault((mix, named), {}))[inverse]

    def tower(self, colouring: Sequence[int]) -> Tower:
        """The shape with slot k given colour number colouring[k] (bricks named in order)."""
        return coloured_tower(self.boxes, self.brick_set, colouring)

    def _clause(self, clause: object, colours: np.ndarray,
                shared: dict[object, np.ndarray]) -> np.ndarray:
        if isinstance(clause, Quantified):
            subject = self._select(clause.subject, colours, shared)
            meeting = subject & self._pred(clause.pred, colours, shared)
            return quant_holds(clause.quant, _row_counts(meeting),
                               self._count(clause.subject, colours, shared))
        if isinstance(clause, Count):
            count = self._count(clause.subject, colours, shared)
            return quant_holds(clause.quant, count, count)
        if isinstance(clause, Compare):
            left = self._count(clause.left, colours, shared)
            right = self._count(clause.right, colours, shared)
            return {"more": left > right, "fewer": left < right, "as many": left == right}[
                clause.op]
        if isinstance(clause, Height):
            unit = self.brick_set.length if clause.unit == "upright bricks" else (
                self.brick_set.thickness)
            met = Quant(clause.quant.kind, clause.quant.n * unit).holds(self.height, 0)
            return np.full(len(colours), met)
        if isinstance(clause, Symmetric):
            return np.full(len(colours), self.symmetric)
        raise TypeError(f"unknown clause {clause!r}")

    def _select(self, selector: Selector, colours: np.ndarray,
                shared: dict[object, np.ndarray]) -> np.ndarray:
        def chosen() -> np.ndarray:
            picked = np.ones(colours.shape, dtype=bool)
            for pred in selector.preds:
                picked &= self._pred(pred, colours, shared)
            return picked

        return _kept(shared, ("select", selector), selector, chosen)

    def _count(self, selector: Selector, colours: np.ndarray,
               shared: dict[object, np.ndarray]) -> np.ndarray:
        """How many bricks of each colouring `selector` picks."""
        return _kept(shared, ("count", selector), selector,
                     lambda: _row_counts(self._select(selector, colours, shared)))

    def _pred(self, pred: Pred, colours: np.ndarray,
              shared: dict[object, np.ndarray]) -> np.ndarray:
        if isinstance(pred, Colour):
            names = self.brick_set.color_names
            wanted = np.zeros(len(names), dtype=bool)  # a lookup table: np.isin is 5x slower
            wanted[[names.index(c) for c in pred.colours if c in names]] = True
            return wanted[colours]
        if isinstance(pred, Not):
            return ~self._pred(pred.pred, colours, shared)
        if isinstance(pred, Related):
            target = self._select(pred.target, colours, shared)
            # float32: products of float32 matrices are 10x faster than of integers
            related = _kept(shared, ("float", pred.target), pred.target,
                            lambda: target.astype(np.float32)) @ self.relations[pred.relation]
            # the brick itself is no "other"
            others = self._count(pred.target, colours, shared)[:, None] - target
            return quant_holds(pred.quant, related, others)
        return np.broadcast_to(self.traits[pred.name], colours.shape)


def _row_counts(chosen: np.ndarray) -> np.ndarray:
    """How many bricks each row of `chosen` picks: a float32 matrix product, 4x faster than
    summing booleans (counts up to 9 are exact)."""
    return chosen.astype(np.float32) @ np.ones(chosen.shape[1], dtype=np.float32)


def _kept(shared: dict[object, np.ndarray], key: object, selector: Selector,
          compute: Callable[[], np.ndarray]) -> np.ndarray:
    """`compute()`, kept in `shared` under `key` when `selector` depends on the colouring
    alone (see `Shape.meets`)."""
    if key in shared:
        return shared[key]
    value = compute()
    if _colour_only(selector):
        shared[key] = value
    return value


@cache
def _colour_only(selector: Selector) -> bool:
    """Whether `selector` reads the bricks' colours and nothing of the shape."""
    return all(_reads_colour_only(pred) for pred in selector.preds)


def _reads_colour_only(pred: Pred) -> bool:
    return isinstance(pred, Colour) or (isinstance(pred, Not) and _reads_colour_only(pred.pred))


def _bridges(brick: PlacedBrick, tower: Tower) -> bool:
    supports = [b for b in tower if b is not brick and geometry.rests_on(brick, b)]
    return any(not geometry.touches(a, b) for a, b in combinations(supports, 2))


@dataclass
class _Learnt:
    """What a library has learnt of one condition (looked up once per question: hashing a
    condition's tree for every shape was a tenth of a lookup's time)."""

    condition: Condition
    named: frozenset[int]
    """The colours the condition names (`named_colours`)."""
    verdicts: dict[int, list[np.ndarray]] = field(default_factory=dict)
    """Shape k's verdicts, one array per block of colourings: `witness` and then `nearest`
    judge the same cards, and core minimisation asks about subsets of them."""
    hopeless: set[int] = field(default_factory=set)
    """Shapes no colouring of which meets the condition even alone: the next question with it
    skips them (a deal's cards recur in the next)."""


class ShapeLibrary:
    """Shapes to try, in order, with every colouring the deck's rule allows."""

    def __init__(self, shapes: Sequence[Sequence[Box]], brick_set: BrickSet,
                 all_used: bool) -> None:
        self.brick_set = brick_set
        self.all_used = all_used
        self.boxes = [tuple(boxes) for boxes in shapes]
        # Built on first use, so a question answered early (or by Z3 first) pays for few.
        self._shapes: dict[int, Shape] = {}
        self._mixes = {len(b): colour_mixes(brick_set, all_used, len(b)) for b in self.boxes}
        # At most every card's verdicts on every shape: 21 MB for the green library, 64 MB
        # for pink.
        self._learnt: dict[Condition, _Learnt] = {}
        # What the colourings decide alone (`Shape.meets`), one memo per block of colourings
        # as a condition naming some of the colours sees them (`merged`): (mix, named).
        self._shared: MergedMemo = {}

    def shape(self, k: int) -> Shape:
        if k not in self._shapes:
            self._shapes[k] = Shape(self.boxes[k], self.brick_set)
        return self._shapes[k]

    def _about(self, conditions: Sequence[Condition]) -> list[_Learnt]:
        learnt = []
        for condition in conditions:
            if condition not in self._learnt:
                self._learnt[condition] = _Learnt(
                    condition, named_colours(condition, self.brick_set))
            learnt.append(self._learnt[condition])
        return learnt

    def _judged(self, k: int, card: _Learnt) -> list[np.ndarray]:
        """Shape k's verdicts on the card's condition, one array per block of colourings,
        each judged on the colourings merged as the condition sees them."""
        if k not in card.verdicts:
            shape = self.shape(k)
            card.verdicts[k] = [shape.meets_mix(card.condition, card.named, mix, self._shared)
                                for mix in self._mixes[len(shape.boxes)]]
        return card.verdicts[k]

    def witness(
        self, conditions: Sequence[Condition], stop: Callable[[], bool] = lambda: False,
    ) -> Tower | None:
        """The first shape, in its first colouring, that meets every condition; None when none
        does (or `stop()` says so, asked between shapes)."""
        cards = self._about(conditions)
        for k in range(len(self.boxes)):
            if stop():
                return None
            if any(k in card.hopeless for card in cards):
                continue
            shape = self.shape(k)
            mixes = [arrangements(mix) for mix in self._mixes[len(shape.boxes)]]
            verdicts = []
            for card in cards:
                verdicts.append(self._judged(k, card))
                if not any(v.any() for v in verdicts[-1]):
                    card.hopeless.add(k)
                    break
            else:
                colouring = first_meeting(mixes, verdicts)
                if colouring is not None:
                    return shape.tower(colouring)
        return None

    def nearest(
        self, conditions: Sequence[Condition], shortfall: Callable[[Tower], int],
        stop: Callable[[], bool] = lambda: False,
    ) -> list[Tower]:
        """Every shape in the colouring that meets the most of `conditions`, most met first,
        then the smallest `shortfall` (the search's score), then library order (fewer shapes
        when `stop()`, asked between shapes, says so).

        Why: when no shape meets every card, one that misses a card is often a few moves from
        a tower that meets it, and such unusual structures are what a search from random
        towers rarely reaches. The search starts and restarts from these. Measured on the 41
        solvable benchmark deals the library misses: from random towers the search found 15
        within 8000 moves (8 within 1500); from these, ranked by cards met alone, 20 (12); with
        the shortfall breaking ties, 22 (19)."""
        cards = self._about(conditions)
        ranked: list[tuple[int, int, int, Tower]] = []
        for k in range(len(self.boxes)):
            if stop():
                break
            shape = self.shape(k)
            best: tuple[int, np.ndarray] | None = None
            judged = [self._judged(k, card) for card in cards]
            for m, mix in enumerate(self._mixes[len(shape.boxes)]):
                colours = arrangements(mix)
                met = np.zeros(len(colours), dtype=np.int32)
                for verdicts in judged:
                    met += verdicts[m]
                row = int(np.argmax(met))
                if best is None or met[row] > best[0]:
                    best = (int(met[row]), colours[row])
            if best is not None:
                tower = shape.tower(best[1])
                ranked.append((-best[0], shortfall(tower), k, tower))
        ranked.sort(key=lambda r: r[:3])
        return [tower for *_, tower in ranked]


def first_meeting(
    mixes: Sequence[np.ndarray], verdicts: Sequence[Sequence[np.ndarray]],
) -> np.ndarray | None:
    """The first colouring (a row of one of `mixes`) that meets every condition, given each
    condition's verdicts on every mix (`Shape.meets`), or None."""
    for m, colours in enumerate(mixes):
        met = np.ones(len(colours), dtype=bool)
        for verdict in verdicts:
            met &= verdict[m]
        if met.any():
            return colours[int(np.argmax(met))]
    return None
