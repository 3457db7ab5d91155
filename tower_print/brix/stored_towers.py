"""Towers as content files store them: each brick its colour and box in lattice units (z up,
z = 0 the table), the bricks of a colour named in order (red-1, red-2) as in the brick set.

Two forms: a YAML list of [colour, x, y, z, dx, dy, dz] per brick (example towers, a card
back's emblem: `examples.tower_from_yaml`), and one line per tower, `colour x y z dx dy dz`
per brick with `; ` between, for files that keep hundreds of towers (an audit's witness
towers: `conflicts`), which stay one short YAML scalar each and load quickly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import overload

from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.sampling import Tower
from tower_print.content import Node, UserError

BRICK_SEPARATOR = "; "


def named_bricks(rows: Iterable[tuple[str, int, int, int, int, int, int]]) -> Tower:
    """Bricks given as (colour, x, y, z, dx, dy, dz), named as the brick set names them."""
    counts: dict[str, int] = {}
    bricks = []
    for color, x, y, z, dx, dy, dz in rows:
        counts[color] = counts.get(color, 0) + 1
        bricks.append(PlacedBrick(f"{color}-{counts[color]}", color, x, y, z, dx, dy, dz))
    return tuple(bricks)


def tower_line(tower: Tower) -> str:
    """The tower on one line (`tower_of_line` reads it back)."""
    return BRICK_SEPARATOR.join(
        f"{b.color} {b.x} {b.y} {b.z} {b.dx} {b.dy} {b.dz}" for b in tower)


def tower_of_line(line: str, colors: Sequence[str]) -> Tower:
    """A tower written by `tower_line`; `UserError` saying what is wrong otherwise."""
    rows = []
    for k, brick in enumerate(line.split(BRICK_SEPARATOR.strip()), start=1):
        words = brick.split()
        if len(words) != 7:
            raise UserError(f"brick {k}: expected 'colour x y z dx dy dz', found '{brick.strip()}'")
        if words[0] not in colors:
            raise UserError(f"brick {k}: unknown colour '{words[0]}' (expected one of "
                            f"{', '.join(colors)})")
        try:
            x, y, z, dx, dy, dz = (int(w) for w in words[1:])
        except ValueError:
            raise UserError(f"brick {k}: expected whole numbers after the colour, found "
                            f"'{' '.join(words[1:])}'") from None
        rows.append((words[0], x, y, z, dx, dy, dz))
    return named_bricks(rows)


class TowerLines(Sequence[Tower]):
    """The towers of a file's lines (`tower_line`), each read when first asked for: a
    conflicts file keeps thousands, and a `verify` asks one or two of them (reading all 3,215
    of pink's took 0.17 s of a 0.75 s verify). A line that is no tower is an error at its
    `node`, raised when it is read."""

    def __init__(self, nodes: Sequence[Node], colors: Sequence[str]) -> None:
        self.nodes = tuple(nodes)
        self.lines = tuple(node.str() for node in self.nodes)
        self._colors = tuple(colors)
        self._read: dict[int, Tower] = {}

    def __len__(self) -> int:
        return len(self.lines)

    @overload
    def __getitem__(self, index: int) -> Tower: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Tower, ...]: ...

    def __getitem__(self, index: int | slice) -> Tower | tuple[Tower, ...]:
        if isinstance(index, slice):
            return tuple(self[k] for k in range(len(self))[index])
        index = range(len(self))[index]  # IndexError past the end, as a tuple's
        if index not in self._read:
            self._read[index] = self.nodes[index].parsed(
                lambda line: tower_of_line(line, self._colors))
        return self._read[index]

    def __eq__(self, other: object) -> bool:
        """Equal to any sequence of the same towers (a tuple of them, say)."""
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]


def lines_of(towers: Sequence[Tower]) -> tuple[str, ...]:
    """Each tower's line (`tower_line`), without reading `TowerLines` again."""
    return towers.lines if isinstance(towers, TowerLines) else tuple(map(tower_line, towers))
