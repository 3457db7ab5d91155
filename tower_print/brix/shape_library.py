"""Shape libraries: reading the shipped ones (content/brix/shapes/*.yaml).

A library lists shapes of standing towers that met the cards of earlier deals, for one brick
size, stability margin and brick rule (see `shapes` for why they are worth keeping; building one
is in `shape_training`).
"""

from __future__ import annotations

from pathlib import Path

from tower_print.brix import geometry
from tower_print.brix.bricks import BrickSet
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.shapes import Box, ShapeLibrary
from tower_print.content import UserError, content_root, load_yaml

RULES = {True: "all", False: "subset"}


def library_folder() -> Path:
    return content_root() / "brix" / "shapes"


def load_library(path: Path, brick_set: BrickSet, all_used: bool) -> ShapeLibrary | None:
    """The library in `path` when it was built for these bricks (sizes, stability margin) and
    this rule, else None: its shapes would not stand, or not fit the rule, with other bricks.
    A shape is one line of boxes "x y z dx dy dz", separated by "/" (a YAML list per box read
    thirty times slower); each must be a brick in one of its orientations, none overlapping."""
    root = load_yaml(path, fast=True)
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
    return tuple(box_of(b) for b in placed)


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


def box_of(brick: PlacedBrick) -> Box:
    return (brick.x, brick.y, brick.z, brick.dx, brick.dy, brick.dz)
