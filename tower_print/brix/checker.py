"""The independent witness checker: plain Python, no Z3.

Every tower the solver reports passes through here before anyone sees it. A disagreement with the
Z3 model is a bug in one of the two and fails loudly (`WitnessRejected`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from tower_print.brix.bricks import BrickSet
from tower_print.brix.evaluate import holds
from tower_print.brix.geometry import PlacedBrick, collide, is_connected
from tower_print.brix.language import Condition
from tower_print.brix.statics import stands


class WitnessRejected(AssertionError):
    """The solver produced a tower the checker refuses: a bug, never a user error."""


def problems(
    tower: tuple[PlacedBrick, ...], brick_set: BrickSet, all_used: bool,
    conditions: Sequence[tuple[str, Condition]],
) -> list[str]:
    """Everything wrong with `tower`; empty when it is a valid witness."""
    found: list[str] = []
    if not tower:
        return ["the tower has no bricks"]
    available = Counter(b.color for b in brick_set.bricks)
    used = Counter(b.color for b in tower)
    names = [b.name for b in tower]
    if len(set(names)) != len(names):
        found.append("a brick is used twice")
    known = {b.name: b.color for b in brick_set.bricks}
    for b in tower:
        if known.get(b.name) != b.color:
            found.append(f"{b.name} is not a {b.color} brick of this set")
    if all_used and used != available:
        found.append(f"deck needs all bricks {dict(available)}, tower has {dict(used)}")
    if not all_used:
        missing = [c for c in available if used[c] == 0]
        if missing:
            found.append(f"no brick of colour {', '.join(missing)}")
        if any(used[c] > available[c] for c in used):
            found.append("more bricks of a colour than the set has")
    sizes = sorted((brick_set.length, brick_set.width, brick_set.thickness))
    for b in tower:
        if sorted((b.dx, b.dy, b.dz)) != sizes:
            found.append(f"{b.name} has extent {(b.dx, b.dy, b.dz)}, not a brick's")
        if b.z < 0:
            found.append(f"{b.name} is below the table")
    for a, b in combinations(tower, 2):
        if collide(a, b):
            found.append(f"{a.name} and {b.name} overlap")
    if not is_connected(tower):
        found.append("the bricks are not all connected")
    if not stands(tower, brick_set.stability_margin):
        found.append("the tower does not stand (no equilibrium of contact forces)")
    for label, condition in conditions:
        if not holds(condition, tower, brick_set):
            found.append(f"{label} is not met")
    return found


def check_witness(
    tower: tuple[PlacedBrick, ...], brick_set: BrickSet, all_used: bool,
    conditions: Sequence[tuple[str, Condition]],
) -> None:
    found = problems(tower, brick_set, all_used, conditions)
    if found:
        raise WitnessRejected("solver witness rejected by the checker: " + "; ".join(found))
