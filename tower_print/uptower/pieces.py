"""The rules as data: playfield size, pieces and their rotations, bonus tables.

Everything comes from `content/uptower/game.yaml`, checked on load with file, line and field in
every error. A piece's rotations are computed here (quarter turns clockwise, never a flip) with
what the engine needs to drop them fast: per column of the rotated piece, the lowest and the top
floor it fills.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, cached_property
from pathlib import Path

from tower_print.content import Node, UserError, content_root, load_yaml

Cell = tuple[int, int]  # (column, floor) from the lower left, floor 0 the lowest


@dataclass(frozen=True)
class Orientation:
    """One rotation of a piece. `bottom[c]` / `top[c]` are the lowest floor and one past the
    highest floor the piece fills in its column c (its columns are contiguous, checked on load)."""

    rotation: int  # quarter turns clockwise from the drawing on the sheet
    cells: tuple[Cell, ...]
    bottom: tuple[int, ...]
    top: tuple[int, ...]

    @property
    def width(self) -> int:
        return len(self.bottom)

    @property
    def steps(self) -> tuple[int, ...]:
        """The underside's rises from column to column: the surface must rise the same."""
        return tuple(b - a for a, b in zip(self.bottom, self.bottom[1:], strict=False))


@dataclass(frozen=True)
class Piece:
    number: int
    name: str
    cells: tuple[Cell, ...]  # as drawn on the sheet
    orientations: tuple[Orientation, ...]  # distinct shapes only, first rotation that makes each

    @cached_property
    def drop_table(self) -> tuple[tuple[int, tuple[int, ...], int, tuple[int, ...], int], ...]:
        """Per rotation, what the engine's fast drop needs: (rotation, underside rises, first
        column's bottom, tops, highest top)."""
        return tuple((o.rotation, o.steps, o.bottom[0], o.top, max(o.top))
                     for o in self.orientations)

    def turned(self, rotation: int) -> Orientation:
        """The shape after `rotation` quarter turns clockwise (any of 0-3)."""
        shape = _rotate(self.cells, rotation)
        return next(o for o in self.orientations if o.cells == shape)


@dataclass(frozen=True)
class Rules:
    floors: int
    width: int
    turn_boxes: int
    pieces: tuple[Piece, ...]  # pieces[n - 1] is piece n (die face n)
    bonus: tuple[int, ...]  # bonus[k]: points for k unused at-will circles
    bonus_name: str
    bonus_tables: tuple[tuple[str, tuple[int, ...]], ...]  # (name, table), hashable

    def piece(self, number: int) -> Piece:
        return self.pieces[number - 1]

    @property
    def faces(self) -> int:
        return len(self.pieces)


def _normal(cells: list[Cell]) -> tuple[Cell, ...]:
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return tuple(sorted((x - x0, y - y0) for x, y in cells))


def _rotate(cells: tuple[Cell, ...], quarter_turns: int) -> tuple[Cell, ...]:
    shape = list(cells)
    for _ in range(quarter_turns % 4):
        shape = [(y, -x) for x, y in shape]  # clockwise, floors growing upward
    return _normal(shape)


def _orientation(cells: tuple[Cell, ...], rotation: int) -> Orientation | None:
    """None when a column of the shape has a gap (it could never be fully supported)."""
    width = max(x for x, _ in cells) + 1
    bottom, top = [], []
    for c in range(width):
        floors = sorted(y for x, y in cells if x == c)
        if not floors or floors[-1] - floors[0] + 1 != len(floors):
            return None
        bottom.append(floors[0])
        top.append(floors[-1] + 1)
    return Orientation(rotation, cells, tuple(bottom), tuple(top))


def _piece(node: Node, number: int) -> Piece:
    node.only_keys("number", "name", "cells")
    if node["number"].int() != number:
        raise node["number"].error(f"expected piece {number} here (pieces are listed 1, 2, ...)")
    cells: list[Cell] = []
    for cell in node["cells"].items():
        pair = [v.int(0, 10) for v in cell.items()]
        if len(pair) != 2:
            raise cell.error("a cell is [column, floor]")
        cells.append((pair[0], pair[1]))
    if not cells or len(set(cells)) != len(cells):
        raise node["cells"].error("expected distinct cells")
    drawn = _normal(cells)
    orientations: list[Orientation] = []
    for rotation in range(4):
        shape = _rotate(drawn, rotation)
        if any(o.cells == shape for o in orientations):
            continue
        orientation = _orientation(shape, rotation)
        if orientation is None:
            raise node["cells"].error("a column of the piece (in some rotation) has a gap: "
                                      "its blocks could never all be supported")
        orientations.append(orientation)
    return Piece(number, node["name"].str(), drawn, tuple(orientations))


def _bonus_table(node: Node, unused_max: int) -> tuple[int, ...]:
    table = {}
    for key, value in node.as_mapping().items():
        if not str(key).isdigit():
            raise value.error("keys are numbers of unused at-will circles")
        table[int(key)] = value.int(0, 1000)
    if sorted(table) != list(range(unused_max + 1)):
        raise node.error(f"expected points for 0 to {unused_max} unused circles")
    return tuple(table[k] for k in range(unused_max + 1))


def load_rules(path: Path | None = None) -> Rules:
    """The rules from `path` (default: the shipped content/uptower/game.yaml)."""
    root = load_yaml(path or content_root() / "uptower" / "game.yaml")
    root.only_keys("playfield", "turn_boxes", "pieces", "bonus_tables", "default_bonus")
    field = root["playfield"]
    field.only_keys("floors", "width")
    pieces = tuple(_piece(n, k) for k, n in enumerate(root["pieces"].items(), start=1))
    if len(pieces) < 2:
        raise root["pieces"].error("expected at least two pieces (one per die face)")
    tables = {name: _bonus_table(n, len(pieces))
              for name, n in root["bonus_tables"].as_mapping().items()}
    default = root["default_bonus"].choice(tuple(tables))
    return Rules(field["floors"].int(2, 40), field["width"].int(4, 12),
                 root["turn_boxes"].int(1, 20), pieces, tables[default], default,
                 tuple(tables.items()))


@cache
def default_rules() -> Rules:
    return load_rules()


def rules_with(rules: Rules, width: int | None = None, bonus: str | None = None) -> Rules:
    """`rules` with another playfield width and/or bonus table (command-line choices)."""
    if width is not None and not 4 <= width <= 12:
        raise UserError(f"--width: {width} is out of range 4..12")
    tables = dict(rules.bonus_tables)
    if bonus is not None and bonus not in tables:
        raise UserError(f"--bonus: '{bonus}' is not one of: {', '.join(tables)}")
    return replace(
        rules,
        width=rules.width if width is None else width,
        bonus=rules.bonus if bonus is None else tables[bonus],
        bonus_name=rules.bonus_name if bonus is None else bonus,
    )


def chosen_rules(width: int | None = None, bonus: str | None = None) -> Rules:
    """The shipped rules with the command line's --width and --bonus applied."""
    return rules_with(default_rules(), width, bonus)
