"""Towers as content files store them: each brick its colour and box in lattice units (z up,
z = 0 the table), the bricks of a colour named in order (red-1, red-2) as in the brick set.

Two forms: a YAML list of [colour, x, y, z, dx, dy, dz] per brick (example towers, a card
back's emblem: `examples.tower_from_yaml`), and one line per tower, `colour x y z dx dy dz`
per brick with `; ` between, for files that keep hundreds of towers (an audit's witness
towers: `conflicts`), which stay one short YAML scalar each and load quickly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.sampling import Tower
from tower_print.content import UserError

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
