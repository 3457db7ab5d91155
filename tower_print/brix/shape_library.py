"""Shape libraries: reading the shipped ones, and building one from the solver's witnesses.

A library (content/brix/shapes/*.yaml) lists shapes of standing towers that met the cards of
earlier deals, for one brick size, stability margin and brick rule (see `shapes` for why they are
worth keeping). It is built by solving random deals and keeping their witnesses' shapes, ordered
greedily: first the shape whose colourings meet the most of those deals, then the one meeting
most of the rest, and so on; a shape that adds none is left out. The benchmark
(benchmarks/brix_verify.py) draws its deals with seed 1, so the shipped libraries are built
from other seeds and its figures are measured on deals no library saw.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from tower_print.brix import geometry
from tower_print.brix.bricks import BrickSet
from tower_print.brix.deals import draw_level
from tower_print.brix.decks import Deck
from tower_print.brix.difficulty import pool
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.shapes import Box, Shape, ShapeLibrary, Tower, colourings
from tower_print.brix.solver import SOLVABLE, Labeled, TowerSolver
from tower_print.content import ContentError, UserError, content_root, load_yaml_text
from tower_print.render.scene import write_atomic

RULES = {True: "all", False: "subset"}


def library_folder() -> Path:
    return content_root() / "brix" / "shapes"


def load_library(path: Path, brick_set: BrickSet, all_used: bool) -> ShapeLibrary | None:
    """The library in `path` when it was built for these bricks (sizes, stability margin) and
    this rule, else None: its shapes would not stand, or not fit the rule, with other bricks.
    A shape is one line of boxes "x y z dx dy dz", separated by "/" (a YAML list per box read
    thirty times slower); each must be a brick in one of its orientations, none overlapping."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(path, None, "", exc.strerror or str(exc)) from None
    root = load_yaml_text(text, path, fast=True)
    root.only_keys("rule", "brick", "stability_margin", "shapes")
    root["brick"].only_keys("length", "width", "thickness")
    size = tuple(root["brick"][k].int(1, 100) for k in ("length", "width", "thickness"))
    rule = root["rule"].choice(tuple(RULES.values()))
    margin = root["stability_margin"].number(0.0, 0.49)
    if (size != (brick_set.length, brick_set.width, brick_set.thickness)
            or margin != brick_set.stability_margin or rule != RULES[all_used]):
        return None
    extents = set(brick_set.extents())
    shapes = [node.parsed(lambda line: _shape(line, extents)) for node in root["shapes"].items()]
    return ShapeLibrary(shapes, brick_set, all_used)


def _shape(line: str, extents: set[tuple[int, int, int]]) -> tuple[Box, ...]:
    placed: list[PlacedBrick] = []
    for number, part in enumerate(line.split("/"), start=1):
        values = part.split()
        if len(values) != 6 or not all(v.isdigit() for v in values):
            raise UserError(f"box {number}: expected six whole numbers x y z dx dy dz, "
                            f"found '{part.strip()}'")
        brick = PlacedBrick("", "", *(int(v) for v in values))
        if (brick.dx, brick.dy, brick.dz) not in extents:
            raise UserError(f"box {number}: {brick.dx} x {brick.dy} x {brick.dz} is not an "
                            "orientation of the brick")
        if any(geometry.collide(brick, old) for old in placed):
            raise UserError(f"box {number} overlaps an earlier box of the shape")
        placed.append(brick)
    return tuple(_box(b) for b in placed)


_LIBRARIES: dict[tuple[object, ...], ShapeLibrary | None] = {}


def shape_library(brick_set: BrickSet, all_used: bool) -> ShapeLibrary | None:
    """The shipped library for these bricks and rule (the first file in content/brix/shapes/
    built for them), or None; read once per process."""
    key = (brick_set.length, brick_set.width, brick_set.thickness, brick_set.stability_margin,
           tuple(brick_set.colors), brick_set.bricks, all_used)
    if key not in _LIBRARIES:
        _LIBRARIES[key] = next(
            (library for path in sorted(library_folder().glob("*.yaml"))
             if (library := load_library(path, brick_set, all_used)) is not None), None)
    return _LIBRARIES[key]


def forget_libraries() -> None:
    """Drop the libraries read so far: the next `shape_library` reads its file again (the
    verify benchmark times each question as a fresh `brix verify` call would run it)."""
    _LIBRARIES.clear()


def _box(brick: PlacedBrick) -> Box:
    return (brick.x, brick.y, brick.z, brick.dx, brick.dy, brick.dz)


def shape_of(tower: Tower) -> tuple[Box, ...]:
    """The tower's boxes, moved to x = y = 0 and sorted: equal shapes compare equal."""
    return tuple(sorted(_box(b) for b in geometry.normalized(tower)))


def solve_training_deals(
    deck: Deck, seeds: Sequence[int], levels: Sequence[str], deals: int, work: int,
    progress: Callable[[int], None] | None = None,
) -> list[tuple[tuple[Labeled, ...], Tower]]:
    """(cards, witness) for every solvable deal of `deals` per seed and level, drawn as the
    benchmark draws them. Each deal gets a fresh solver (lemmas a raced Z3 added before it was
    stopped depend on timing), the reproducible race (not "any tower") and a budget of Z3
    work, so the same call gives the same witnesses on any machine."""
    reference = pool(deck.bricks, deck.all_used)
    solved: list[tuple[tuple[Labeled, ...], Tower]] = []
    done = 0
    for seed in seeds:
        for level in levels:
            rng = random.Random(f"{seed}-{deck.name}-{level}")
            for _ in range(deals):
                items = tuple(Labeled(c.id, c.text, c.condition)
                              for c in draw_level(deck, level, rng))
                solver = TowerSolver(deck.bricks, deck.all_used, seed=0, work=work,
                                     pool=reference)
                status, tower, _ = solver.check(items, time.monotonic() + 24 * 3600.0)
                if status == SOLVABLE and tower is not None:
                    solved.append((items, tower))
                done += 1
                if progress:
                    progress(done)
    return solved


def greedy_shapes(
    solved: Sequence[tuple[Sequence[Labeled], Tower]], brick_set: BrickSet, all_used: bool,
) -> list[tuple[Box, ...]]:
    """The witnesses' distinct shapes, the one meeting most deals first (see the module
    docstring); a shape that meets no deal the earlier ones miss is left out."""
    candidates = list(dict.fromkeys(shape_of(tower) for _, tower in solved))
    covers = [_deals_met(Shape(boxes, brick_set), solved, brick_set, all_used)
              for boxes in candidates]
    chosen: list[tuple[Box, ...]] = []
    missing = set(range(len(solved)))
    while missing:
        gain, best = max((len(cover & missing), -k) for k, cover in enumerate(covers))
        if gain == 0:
            break
        chosen.append(candidates[-best])
        missing -= covers[-best]
    return chosen


def _deals_met(
    shape: Shape, solved: Sequence[tuple[Sequence[Labeled], Tower]], brick_set: BrickSet,
    all_used: bool,
) -> set[int]:
    mixes = colourings(brick_set, all_used, len(shape.boxes))
    verdicts: dict[Labeled, list[np.ndarray]] = {}
    met = set()
    for k, (items, _) in enumerate(solved):
        for m, colours in enumerate(mixes):
            together = np.ones(len(colours), dtype=bool)
            for item in items:
                if item not in verdicts:
                    verdicts[item] = [shape.meets(item.condition, c) for c in mixes]
                together &= verdicts[item][m]
            if together.any():
                met.add(k)
                break
    return met


def write_library(path: Path, shapes: Sequence[Sequence[Box]], brick_set: BrickSet,
                  all_used: bool, command: str, note: str) -> None:
    lines = [
        "# A shape library for the TowerBrix solver (tower_print/brix/shapes.py): shapes of",
        "# standing towers that met the cards of random deals, most useful first.",
        f"# Built by: {command}",
        f"# {note}",
        f"rule: {RULES[all_used]}",
        f"brick: {{length: {brick_set.length}, width: {brick_set.width}, "
        f"thickness: {brick_set.thickness}}}",
        f"stability_margin: {brick_set.stability_margin}",
        "shapes:",
    ]
    for boxes in shapes:
        lines.append("  - " + " / ".join(" ".join(str(v) for v in box) for box in boxes))
    write_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))
