"""Hand-built towers shared by the tests: lattice units, bricks 4 x 2 x 2."""

from __future__ import annotations

from tower_print.brix.geometry import PlacedBrick


def flat_x(name: str, x: int, y: int, z: int) -> PlacedBrick:
    return PlacedBrick(name, name.split("-")[0], x, y, z, 4, 2, 2)


def flat_y(name: str, x: int, y: int, z: int) -> PlacedBrick:
    return PlacedBrick(name, name.split("-")[0], x, y, z, 2, 4, 2)


def upright(name: str, x: int, y: int, z: int) -> PlacedBrick:
    return PlacedBrick(name, name.split("-")[0], x, y, z, 2, 2, 4)


# All eight coloured bricks (a green-deck tower). On the table: red-1 and blue-1 two units apart
# (not touching), purple-1 and blue-2 upright, red-2 lying along y. yellow-1 bridges red-1 and
# blue-1; yellow-2 lies on red-2 and carries purple-2 upright, the highest brick (top at 8).
GREEN_TOWER = (
    flat_x("red-1", 0, 0, 0),
    flat_x("blue-1", 0, 4, 0),
    flat_y("yellow-1", 1, 1, 2),
    upright("purple-1", 4, 0, 0),
    upright("blue-2", 6, 0, 0),
    flat_y("red-2", 8, 0, 0),
    flat_y("yellow-2", 8, 0, 2),
    upright("purple-2", 8, 0, 4),
)
