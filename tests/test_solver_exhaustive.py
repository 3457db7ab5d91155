"""The solver's verdicts against brute force: every tower of up to three bricks, listed.

Why: a "solvable" verdict carries a tower the independent checker re-verifies, but nothing
re-verifies an "unsolvable" one: it claims that no tower exists, and a lemma that excludes too
much (or a model that leaves towers out) would make it wrong without a trace. For three bricks
every tower on the lattice can be listed: every set of boxes grown brick by brick through shared
faces, kept when each brick off the table rests on another, in every colouring the brick rule
allows. Whether some listed tower stands (the statics LP) and meets every card (the plain-Python
evaluator) is then the truth, found without Z3; the solver must give it, and a conflict it
reports must be unsolvable and minimal by that truth. Small 2 x 1 x 1 bricks under both brick
rules get many card sets; three bricks of the shipped size (with its half-width offsets) fewer.
The cards cover every kind of clause the language has.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from itertools import combinations, permutations

import pytest

from tower_print.brix.bricks import Brick, BrickSet, default_bricks
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.geometry import PlacedBrick, collide, is_connected, rests_on
from tower_print.brix.language import Condition, parse
from tower_print.brix.solver import SOLVABLE, UNSOLVABLE, Labeled, TowerSolver
from tower_print.brix.statics import stands

Box = tuple[int, int, int, int, int, int]
COLOURS = {"red": "#D63B32", "blue": "#2F6DB5", "yellow": "#F2C230"}


def brick_set(counts: dict[str, int], size: tuple[int, int, int] = (2, 1, 1)) -> BrickSet:
    """`counts` bricks of each colour, `size` = length, width, thickness; quarter margin."""
    bricks = [(colour, k) for colour, n in counts.items() for k in range(1, n + 1)]
    return BrickSet(
        unit_mm=10.0, length=size[0], width=size[1], thickness=size[2], stability_margin=0.25,
        colors={c: COLOURS[c] for c in counts},
        bricks=tuple(Brick(i, f"{c}-{k}", c) for i, (c, k) in enumerate(bricks)),
    )


SHIPPED = default_bricks()
# Bricks of 2 x 1 x 1 units (an upright one as tall as two lying on each other): "all", one
# brick of each of three colours, every brick used (as in the green deck); "subset", two red
# and one blue, any of them with at least one of each colour (as in pink). "shipped": three
# bricks of the shipped size and margin (half-width offsets), every one used; listing and
# judging its 134,000 towers takes most of this module's time, so it gets fewer card sets.
SETS = {
    "all": (brick_set({"red": 1, "blue": 1, "yellow": 1}), True),
    "subset": (brick_set({"red": 2, "blue": 1}), False),
    "shipped": (replace(brick_set({"red": 1, "blue": 1, "yellow": 1}, (
        SHIPPED.length, SHIPPED.width, SHIPPED.thickness)),
        stability_margin=SHIPPED.stability_margin), True),
}
CARD_SETS = {"all": 150, "subset": 150, "shipped": 40}

CARDS = {
    "all": [
        "every red brick touches some blue brick",
        "no red brick touches any yellow brick",
        "at most 1 brick touches the ground",
        "exactly 2 bricks touch the ground",
        "every brick touches the ground",
        "every vertical brick touches the ground",
        "there are more vertical bricks than horizontal bricks",
        "there are fewer vertical bricks than horizontal bricks",
        "the highest brick is yellow",
        "the lowest brick is red or blue",
        "some blue brick rests on some red brick",
        "every yellow brick is above some red brick",
        "some brick supports at least 2 bricks",
        "every brick touches at least 2 bricks",
        "the tower is at least 2 upright bricks tall",
        "the tower is at most 1 upright bricks tall",
        "some brick is a bridge",
        "the tower is mirror symmetric",
        "no brick is vertical",
        "every grounded brick is red or yellow",
        "every red brick is vertical and every blue brick is horizontal",
    ],
    "subset": [
        "there are exactly 3 bricks",
        "there are exactly 2 bricks",
        "every red brick touches some blue brick",
        "no red brick touches any red brick",
        "every red brick is vertical",
        "every blue brick is highest",
        "every blue brick rests on some red brick",
        "at most 1 brick touches the ground",
        "some red brick rests on some brick",
        "the tower is at least 3 flat bricks tall",
        "the tower is mirror symmetric",
        "there are at least 2 vertical bricks",
        "every brick touches at most 1 brick",
        "no brick is above any blue brick",
        "some red brick is below some blue brick",
        "some blue brick does not touch the ground",
    ],
}
CARDS["shipped"] = CARDS["all"]


def _faces(box: Box, extent: tuple[int, int, int]) -> list[Box]:
    """Every box of `extent` sharing a patch of face with `box`."""
    lo, size = box[:3], box[3:]
    found = []
    for axis in range(3):
        others = [a for a in range(3) if a != axis]
        for start in (lo[axis] - extent[axis], lo[axis] + size[axis]):
            ranges = [range(lo[a] - extent[a] + 1, lo[a] + size[a]) for a in others]
            for u in ranges[0]:
                for v in ranges[1]:
                    corner = [0, 0, 0]
                    corner[axis], corner[others[0]], corner[others[1]] = start, u, v
                    found.append((*corner, *extent))
    return found


def _placed(box: Box, name: str = "", colour: str = "") -> PlacedBrick:
    return PlacedBrick(name, colour, *box)


def _normal(boxes: list[Box]) -> tuple[Box, ...]:
    """The boxes moved to x = y = z = 0 at their smallest, sorted: equal shapes compare equal."""
    mx, my, mz = (min(b[a] for b in boxes) for a in range(3))
    return tuple(sorted((b[0] - mx, b[1] - my, b[2] - mz, *b[3:]) for b in boxes))


@cache
def shapes(name: str, size: int) -> tuple[tuple[Box, ...], ...]:
    """Every connected set of `size` boxes in which each box off the table rests on another."""
    extents = SETS[name][0].extents()
    grown = {_normal([(0, 0, 0, *e)]) for e in extents}
    for _ in range(size - 1):
        bigger = set()
        for shape in grown:
            placed = [_placed(b) for b in shape]
            for base in shape:
                for extent in extents:
                    for box in _faces(base, extent):
                        if not any(collide(_placed(box), p) for p in placed):
                            bigger.add(_normal([*shape, box]))
        grown = bigger
    return tuple(sorted(s for s in grown if _supported(s)))


def _supported(shape: tuple[Box, ...]) -> bool:
    placed = [_placed(b) for b in shape]
    return all(p.z == 0 or any(rests_on(p, q) for q in placed if q is not p) for p in placed)


def colourings(brick_set: BrickSet, all_used: bool, size: int) -> set[tuple[str, ...]]:
    """Colour sequences, one colour per box, that the brick rule allows for `size` boxes."""
    colours = [b.color for b in brick_set.bricks]
    needed = set(colours)
    found = set()
    for chosen in combinations(colours, size):
        if (all_used and size != len(colours)) or set(chosen) != needed:
            continue
        found.update(permutations(chosen))
    return found


@cache
def listed_towers(name: str) -> tuple[tuple[PlacedBrick, ...], ...]:
    """Every coloured tower of the set's rule, standing or not."""
    brick_set, all_used = SETS[name]
    towers = []
    for size in range(1, len(brick_set.bricks) + 1):
        for colours in sorted(colourings(brick_set, all_used, size)):
            for shape in shapes(name, size):
                counts: dict[str, int] = {}
                bricks = []
                for box, colour in zip(shape, colours, strict=True):
                    counts[colour] = counts.get(colour, 0) + 1
                    bricks.append(_placed(box, f"{colour}-{counts[colour]}", colour))
                towers.append(tuple(bricks))
    return tuple(towers)


@cache
def judged(name: str, text: str) -> frozenset[int]:
    """Indices of the listed towers that meet `text` (by the evaluator)."""
    brick_set, _ = SETS[name]
    condition = _parse(name, text)
    return frozenset(k for k, tower in enumerate(listed_towers(name))
                     if Evaluator(tower, brick_set).condition(condition))


@cache
def standing(name: str, k: int) -> bool:
    brick_set, _ = SETS[name]
    return stands(listed_towers(name)[k], brick_set.stability_margin)


def truly_solvable(name: str, texts: tuple[str, ...]) -> bool:
    met = frozenset(range(len(listed_towers(name))))
    for text in texts:
        met &= judged(name, text)
    return any(standing(name, k) for k in sorted(met))


def test_the_listing_holds_every_kind_of_tower() -> None:
    """The brute force itself: each shape once, every one connected, and towers on the table
    side by side, stacked three high, upright on upright and hanging over an edge all there, in
    every colouring the rule allows (3 x 2 x 1 for three colours; for two red and a blue, red
    and blue two ways and red, red and blue three). Left out: a brick not touching the others,
    and one touching only the side of another with nothing under it."""
    three = shapes("all", 3)
    assert len(three) == len(set(three)) == len(shapes("subset", 3))
    towers = [tuple(_placed(b) for b in shape) for shape in three]
    assert all(is_connected(t) for t in towers)
    assert any(all(b.z == 0 for b in t) for t in towers)
    assert _normal([(0, 0, 0, 2, 1, 1), (0, 0, 1, 2, 1, 1), (0, 0, 2, 1, 2, 1)]) in three
    assert _normal([(0, 0, 0, 1, 1, 2), (0, 0, 2, 1, 1, 2), (5, 5, 0, 2, 1, 1)]) not in three
    assert _normal([(0, 0, 0, 1, 1, 2), (0, 0, 2, 1, 1, 2), (1, 0, 0, 2, 1, 1)]) in three
    assert _normal([(0, 0, 0, 1, 1, 2), (1, 0, 1, 2, 1, 1), (0, 1, 0, 1, 2, 1)]) not in three
    hanging = _normal([(0, 0, 0, 2, 1, 1), (1, 0, 1, 2, 1, 1), (2, 0, 2, 2, 1, 1)])
    assert hanging in three and not stands(tuple(_placed(b) for b in hanging), 0.25)
    assert len(listed_towers("all")) == 6 * len(three)
    assert len(listed_towers("subset")) == 2 * len(shapes("subset", 2)) + 3 * len(three)


def _card_sets(name: str, count: int, seed: int) -> list[tuple[str, ...]]:
    rng = random.Random(f"{seed}-{name}")
    return [tuple(rng.sample(CARDS[name], rng.randint(2, 4))) for _ in range(count)]


@pytest.mark.parametrize("name", sorted(SETS))
def test_verdicts_match_the_brute_force(name: str) -> None:
    """Random sets of 2-4 cards: the solver's verdict is the brute force's, and every conflict
    it reports is unsolvable with each of its cards needed."""
    brick_set, all_used = SETS[name]
    solver = TowerSolver(brick_set, all_used, seed=0)
    verdicts = {SOLVABLE: 0, UNSOLVABLE: 0}
    for texts in _card_sets(name, CARD_SETS[name], seed=1):
        items = [Labeled(f"C{k}", text, _parse(name, text)) for k, text in enumerate(texts, 1)]
        verdict = solver.verify(items, timeout=60)
        expected = SOLVABLE if truly_solvable(name, texts) else UNSOLVABLE
        assert verdict.status == expected, texts
        verdicts[expected] += 1
        if expected == UNSOLVABLE:
            assert verdict.conflict is not None and verdict.conflict_minimal, texts
            core = tuple(texts[int(label[1:]) - 1] for label in verdict.conflict)
            assert not truly_solvable(name, core), core
            for left_out in range(len(core)):
                rest = core[:left_out] + core[left_out + 1:]
                assert truly_solvable(name, rest), (core, core[left_out])
    assert min(verdicts.values()) >= 5, verdicts  # both verdicts are put to the test


@cache
def _parse(name: str, text: str) -> Condition:
    return parse(text, SETS[name][0].color_names)
