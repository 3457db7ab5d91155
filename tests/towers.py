"""Hand-built towers shared by the tests: lattice units, bricks 4 x 2 x 2."""

from __future__ import annotations

from tower_print.brix.bricks import BrickSet
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.model import TowerModel


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


def in_model_order(tower: tuple[PlacedBrick, ...], brick_set: BrickSet) -> dict[int, PlacedBrick]:
    """Model index for each brick: same-colour bricks in the model's symmetry-breaking order
    (by z, then x, then y), coordinates shifted so the tower's smallest x and y are 0."""
    dx, dy = min(b.x for b in tower), min(b.y for b in tower)
    placed: dict[int, PlacedBrick] = {}
    for colour in brick_set.color_names:
        mine = sorted((b for b in tower if b.color == colour), key=lambda b: (b.z, b.x, b.y))
        for model_brick, b in zip(brick_set.by_color(colour), mine, strict=False):
            placed[model_brick.index] = PlacedBrick(
                model_brick.name, colour, b.x - dx, b.y - dy, b.z, b.dx, b.dy, b.dz)
    return placed


def pin(model: TowerModel, tower: tuple[PlacedBrick, ...]) -> None:
    """Fix every brick of the model where `tower` has it (and unused bricks as unused)."""
    placed = in_model_order(tower, model.brick_set)
    for i in range(model.n):
        if i in placed:
            b = placed[i]
            model.solver.add(model.x[i] == b.x, model.y[i] == b.y, model.z[i] == b.z,
                             model.dx[i] == b.dx, model.dy[i] == b.dy, model.dz[i] == b.dz)
        model.solver.add(model.used[i] == (i in placed))
