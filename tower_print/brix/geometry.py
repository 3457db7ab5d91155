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

    def as_row(self) -> list[int | str]:
        """The fields in order (`PlacedBrick(*row)` reads it back), written out: `astuple`
        deep-copies every field (18 ms against 0.5 ms for 200 towers)."""
        return [self.name, self.color, self.x, self.y, self.z, self.dx, self.dy, self.dz]


def collide(a: PlacedBrick, b: PlacedBrick) -> bool:
    return (
        a.x < b.x + b.dx and b.x < a.x + a.dx and a.y < b.y + b.dy and b.y < a.y + a.dy
        and a.z < b.z + b.dz and b.z < a.z + a.dz
    )


def touches(a: PlacedBrick, b: PlacedBrick) -> bool:
    """Face contact of positive area along some axis: the boxes meet (closed intervals overlap
    on every axis), abut on exactly one axis and overlap with positive length on the other two.
    Written out in plain comparisons: the tower search calls this millions of times."""
    gap_x = min(a.x + a.dx, b.x + b.dx) - max(a.x, b.x)
    if gap_x < 0:
        return False
    gap_y = min(a.y + a.dy, b.y + b.dy) - max(a.y, b.y)
    if gap_y < 0:
        return False
    gap_z = min(a.z + a.dz, b.z + b.dz) - max(a.z, b.z)
    return gap_z >= 0 and (gap_x == 0) + (gap_y == 0) + (gap_z == 0) == 1


def footprint_overlap(a: PlacedBrick, b: PlacedBrick) -> bool:
    return a.x < b.x + b.dx and b.x < a.x + a.dx and a.y < b.y + b.dy and b.y < a.y + a.dy


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


def mirrored(brick: PlacedBrick, axis: int, plane2: int) -> tuple[int, ...]:
    """The box of `brick` reflected in the upright plane at `plane2` / 2 across `axis` (0: x,
    1: y), as (x, y, z, dx, dy, dz): colour and name do not matter to a mirror image."""
    box = [brick.x, brick.y, brick.z, brick.dx, brick.dy, brick.dz]
    box[axis] = plane2 - box[axis] - box[axis + 3]
    return tuple(box)


def mirror_misfits(bricks: tuple[PlacedBrick, ...]) -> int:
    """How many bricks have no brick at their mirror image, for the better of the two upright
    mirror planes square to the axes (each through the middle of the tower's extent along its
    axis, the only place a mirror plane of the whole tower can be). 0: mirror symmetric."""
    if not bricks:
        return 0
    boxes = {(b.x, b.y, b.z, b.dx, b.dy, b.dz) for b in bricks}
    misfits = []
    for axis in (0, 1):
        low = min(b.span(axis)[0] for b in bricks)
        high = max(b.span(axis)[1] for b in bricks)
        misfits.append(sum(1 for b in bricks if mirrored(b, axis, low + high) not in boxes))
    return min(misfits)


def normalized(bricks: tuple[PlacedBrick, ...]) -> tuple[PlacedBrick, ...]:
    """Shift the tower so its smallest x and y are 0 (towers are equal up to translation)."""
    mx = min(b.x for b in bricks)
    my = min(b.y for b in bricks)
    return tuple(
        PlacedBrick(b.name, b.color, b.x - mx, b.y - my, b.z, b.dx, b.dy, b.dz) for b in bricks
    )
