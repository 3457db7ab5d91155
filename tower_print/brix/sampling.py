"""Random stable towers, built the way a player would: for tests, deck design and difficulty.

Why: a card is only worth printing if some tower meets it, and how often random towers meet it is
a cheap, solver-independent measure of its difficulty. Property tests use the same towers the
other way round: whatever a sampled tower satisfies, the solver must be able to build.

Each tower is built brick by brick in random order: a brick goes on the table beside a brick
already there, or on the top face of a placed brick, in a random orientation at a whole-unit
offset. A placement that collides, or makes the part built so far fall (the statics LP with the
brick set's margin), is retried, so every returned tower is connected and stands. Everything is
drawn from the `random.Random` passed in, so a seed fixes the towers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tower_print.brix.bricks import Brick, BrickSet
from tower_print.brix.geometry import (
    PlacedBrick,
    collide,
    contact_rectangle,
    is_connected,
    rests_on,
)
from tower_print.brix.statics import stands

Tower = tuple[PlacedBrick, ...]


def bricks_for_rule(brick_set: BrickSet, all_used: bool, rng: random.Random) -> tuple[Brick, ...]:
    """The bricks one tower uses: all of them ("all" rule, green deck), or a random subset with
    at least one brick of every colour (pink deck); each colour's count is equally likely."""
    if all_used:
        return brick_set.bricks
    chosen: list[Brick] = []
    for colour in brick_set.color_names:
        group = list(brick_set.by_color(colour))
        if group:
            chosen.extend(rng.sample(group, rng.randint(1, len(group))))
    return tuple(chosen)


def candidate_placement(
    placed: Sequence[PlacedBrick], brick: Brick, extent: tuple[int, int, int],
    rng: random.Random, p_up: float,
) -> PlacedBrick:
    """One random placement touching the tower: on a placed brick's top, or beside a brick on
    the table. Offsets keep a positive contact area, so the new brick always touches its base."""
    dx, dy, dz = extent
    if not placed:
        return PlacedBrick(brick.name, brick.color, 0, 0, 0, dx, dy, dz)
    grounded = [b for b in placed if b.z == 0]
    if rng.random() < p_up or not grounded:
        base = rng.choice(placed)
        x = rng.randint(base.x - dx + 1, base.x + base.dx - 1)
        y = rng.randint(base.y - dy + 1, base.y + base.dy - 1)
        return PlacedBrick(brick.name, brick.color, x, y, base.top, dx, dy, dz)
    base = rng.choice(grounded)
    side = rng.randrange(4)
    if side < 2:  # beside along x: faces at x = base.x or base.x + base.dx
        x = base.x - dx if side == 0 else base.x + base.dx
        y = rng.randint(base.y - dy + 1, base.y + base.dy - 1)
    else:
        y = base.y - dy if side == 2 else base.y + base.dy
        x = rng.randint(base.x - dx + 1, base.x + base.dx - 1)
    return PlacedBrick(brick.name, brick.color, x, y, 0, dx, dy, dz)


def tips_over(placed: Sequence[PlacedBrick], new: PlacedBrick, margin: float) -> bool:
    """A cheap sure rejection before the LP: a brick that carries nothing falls when its centre
    is outside the box around the shrunk contacts it rests on (most random tries do)."""
    if any(rests_on(old, new) for old in placed):
        return False
    xs: list[float] = []
    ys: list[float] = []
    for old in placed:
        if rests_on(new, old):
            x0, x1, y0, y1 = contact_rectangle(new, old)
            sx, sy = margin * (x1 - x0), margin * (y1 - y0)
            xs += (x0 + sx, x1 - sx)
            ys += (y0 + sy, y1 - sy)
    cx, cy = new.x + new.dx / 2, new.y + new.dy / 2
    return not xs or not (min(xs) <= cx <= max(xs) and min(ys) <= cy <= max(ys))


def random_tower(
    brick_set: BrickSet, rng: random.Random, bricks: Sequence[Brick] | None = None,
    margin: float | None = None, p_up: float | None = None, tries: int = 40,
) -> Tower | None:
    """A random connected tower of `bricks` (default: the whole set) that stands with `margin`
    (default: the set's stability margin), or None if some brick found no place in `tries`.

    `p_up` is the chance of stacking rather than building out on the table; by default each
    tower draws its own, so the sample mixes low, wide towers with tall, narrow ones."""
    margin = brick_set.stability_margin if margin is None else margin
    p_up = rng.uniform(0.3, 1.0) if p_up is None else p_up
    order = list(brick_set.bricks if bricks is None else bricks)
    rng.shuffle(order)
    extents = brick_set.extents()
    placed: list[PlacedBrick] = []
    for brick in order:
        for _ in range(tries):
            new = candidate_placement(placed, brick, rng.choice(extents), rng, p_up)
            if any(collide(new, old) for old in placed):
                continue
            if new.z > 0 and (
                tips_over(placed, new, margin) or not stands((*placed, new), margin)
            ):
                continue
            placed.append(new)
            break
        else:
            return None
    tower = tuple(placed)
    assert is_connected(tower)  # every placement touches its base by construction
    return tower


def sample_towers(
    brick_set: BrickSet, all_used: bool, count: int, seed: int = 0,
    margin: float | None = None,
) -> list[Tower]:
    """`count` random stable towers obeying a deck's rule (see `bricks_for_rule`), fixed by
    `seed`. Pass the deck's own brick set: the green deck's has no gray brick."""
    rng = random.Random(seed)
    towers: list[Tower] = []
    while len(towers) < count:
        tower = random_tower(brick_set, rng, bricks_for_rule(brick_set, all_used, rng), margin)
        if tower is not None:
            towers.append(tower)
    return towers
