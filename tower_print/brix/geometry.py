"""Towers as plain boxes on the lattice, and the spatial relations conditions speak of.

Everything here is plain Python on integers, independent of the Z3 encoding: the witness checker
and the condition evaluator stand on these definitions alone.

Conventions: x, y horizontal, z up, z = 0 the table; a box is its minimum corner (x, y, z) and
its extent (dx, dy, dz) in lattice units. Two bricks *touch* when they share a patch of face of
positive area (an edge or a corner alone does not count).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True, order=True)
class PlacedBrick:
    name: str
    color: str
    x: int
    y: int
    z: int
    dx: int
    dy: int
    dz: int

    @property
    def top(self) -> int:
        return self.z + self.dz

    def span(self, axis: int) -> tuple[int, int]:
        low = (self.x, self.y, self.z)[axis]
        return low, low + (self.dx, self.dy, self.dz)[axis]

    def as_json(self) -> dict[str, int | str]:
        return asdict(self)


def overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Length of the common part of two intervals (negative when apart)."""
    return min(a[1], b[1]) - max(a[0], b[0])


def collide(a: PlacedBrick, b: PlacedBrick) -> bool:
    return all(overlap(a.span(k), b.span(k)) > 0 for k in range(3))


def touches(a: PlacedBrick, b: PlacedBrick) -> bool:
    """Face contact of positive area along some axis."""
    for axis in range(3):
        sa, sb = a.span(axis), b.span(axis)
        if sa[1] == sb[0] or sb[1] == sa[0]:
            others = [k for k in range(3) if k != axis]
            if all(overlap(a.span(k), b.span(k)) > 0 for k in others):
                return True
    return False


def footprint_overlap(a: PlacedBrick, b: PlacedBrick) -> bool:
    return overlap(a.span(0), b.span(0)) > 0 and overlap(a.span(1), b.span(1)) > 0


def rests_on(a: PlacedBrick, b: PlacedBrick) -> bool:
    """`a` lies directly on top of `b`: a's bottom face on b's top face, sharing area."""
    return a.z == b.top and footprint_overlap(a, b)


def above(a: PlacedBrick, b: PlacedBrick) -> bool:
    """`a` is somewhere over `b`: footprints share area and a's bottom is at or over b's top."""
    return a.z >= b.top and footprint_overlap(a, b)


def on_ground(a: PlacedBrick) -> bool:
    return a.z == 0


def contact_rectangle(a: PlacedBrick, b: PlacedBrick) -> tuple[int, int, int, int]:
    """(x0, x1, y0, y1) of the horizontal contact between two stacked bricks."""
    return (
        max(a.x, b.x), min(a.x + a.dx, b.x + b.dx),
        max(a.y, b.y), min(a.y + a.dy, b.y + b.dy),
    )


def is_connected(bricks: tuple[PlacedBrick, ...]) -> bool:
    if not bricks:
        return False
    seen = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j, other in enumerate(bricks):
            if j not in seen and touches(bricks[i], other):
                seen.add(j)
                frontier.append(j)
    return len(seen) == len(bricks)


def height(bricks: tuple[PlacedBrick, ...]) -> int:
    return max((b.top for b in bricks), default=0)


def normalized(bricks: tuple[PlacedBrick, ...]) -> tuple[PlacedBrick, ...]:
    """Shift the tower so its smallest x and y are 0 (towers are equal up to translation)."""
    mx = min(b.x for b in bricks)
    my = min(b.y for b in bricks)
    return tuple(
        PlacedBrick(b.name, b.color, b.x - mx, b.y - my, b.z, b.dx, b.dy, b.dz) for b in bricks
    )
