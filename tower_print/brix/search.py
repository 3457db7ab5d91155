"""A quick randomised search for a standing tower that meets condition cards.

Why: proving that no tower exists needs Z3, but finding one that does is often easy for a
search that moves bricks around the way a player would, and takes Z3 (with its rounds of
stability lemmas) much longer. So `TowerSolver` runs this first, for a fixed number of steps,
and asks Z3 only when it finds nothing. The search never concludes "unsolvable", and every tower
it returns goes through the same independent checker as Z3's.

The state is always a connected tower that stands (the statics LP). A step proposes one move:
- recolour: two placed bricks of different colours trade places (all bricks have the same size
  and weight, so the tower still stands and no LP is needed); in a deck that may leave bricks
  out, a placed brick may also trade with an unused brick of another colour;
- relocate: a brick that carries nothing is lifted and put on top of a brick or beside a brick
  on the table, in any orientation;
- add or remove a brick (decks that may leave bricks out).
The score is the summed shortfall of the cards (`Evaluator.violation`). A move is kept when the
score does not get worse, or now and then anyway (noise, to leave local minima); after a long
stall the search restarts from a fresh random tower. Everything is drawn from one seeded
generator and the budget is a count of steps, so the same question gives the same tower.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import product

from tower_print.brix.bricks import Brick, BrickSet
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.geometry import PlacedBrick, collide, is_connected, normalized, rests_on
from tower_print.brix.language import Condition
from tower_print.brix.sampling import bricks_for_rule, candidate_placement, random_tower, tips_over
from tower_print.brix.statics import stands, upward_closure

Tower = tuple[PlacedBrick, ...]
SEARCH_STEPS = 1500
"""Moves before giving up (about a second on a quiet core). On 72 random deals the search found
its tower in a median of about 400 moves and 25 of 29 within 1500; on the 41 solvable benchmark
deals the shape library misses, starting from its near misses, 19 within 1500 and only 4 more
in the next 28,500 (`TowerSolver.check` says why the budget is kept short)."""
NUDGE_REACH = 2
"""Lattice units (each way, along x and y) a brick is shifted by when nudging a tower from Z3
that meets the cards but falls (`TowerSearch.nudged`)."""
SAMPLE = 4
"""Moves drawn per step; the best of them is tried first (min-conflicts over a sample)."""
SPAN = 0.3
"""Share of placements aimed at resting on two level bricks at once."""
NOISE = 0.05
"""Chance of keeping a move that makes the score worse."""
STALL = 400
"""Steps without a new best score before restarting from a fresh random tower."""


class TowerSearch:
    def __init__(
        self, brick_set: BrickSet, all_used: bool, seed: int = 0, sample: int = SAMPLE
    ) -> None:
        self.sample = sample
        self.brick_set = brick_set
        self.all_used = all_used
        self.seed = seed
        self.margin = brick_set.stability_margin
        self.extents = brick_set.extents()

    def find(
        self, conditions: Sequence[Condition], steps: int = SEARCH_STEPS,
        deadline: float = math.inf, stop: Callable[[], bool] | None = None,
        start: Tower | None = None, restarts: Sequence[Tower] = (),
    ) -> Tower | None:
        """A standing tower meeting every condition, or None when `steps` moves found none
        (or the `deadline` of time.monotonic() passed, or `stop()` said so).

        `start`: a connected standing tower to begin from instead of a random one (a deal
        moves the tower of the cards drawn so far to meet one more), possibly missing bricks
        the deck needs (the search adds them).
        `restarts`: standing towers to begin from (after `start`) and to restart from, in
        turn, before random ones (the shape library's near misses, `ShapeLibrary.nearest`)."""
        rng = random.Random(self.seed)
        starts = iter(restarts)

        def fresh() -> Tower:
            return next(starts, None) or self._fresh(rng)

        tower = fresh() if start is None else start
        score = self.shortfall(tower, conditions)
        best = score
        since_best = 0
        for _ in range(steps):
            if score == 0:
                return normalized(tower)
            if time.monotonic() > deadline or (stop is not None and stop()):
                return None
            if since_best >= STALL:
                tower = fresh()
                score = self.shortfall(tower, conditions)
                best, since_best = score, 0
                continue
            since_best += 1
            for new_score, moved, needs_lp in self._best_moves(tower, conditions, rng):
                if new_score > score and rng.random() >= NOISE:
                    break
                if needs_lp and not stands(moved, self.margin):
                    continue
                tower, score = moved, new_score
                break
            if score < best:
                best, since_best = score, 0
        return normalized(tower) if score == 0 else None

    def nudged(
        self, tower: Tower, conditions: Sequence[Condition],
        stop: Callable[[], bool] | None = None,
    ) -> Tower | None:
        """A standing tower one small move away from `tower`, which meets the cards but falls,
        that still meets them; None if there is none (or `stop()` said so before one was found).

        Why: Z3's candidates meet every card and usually fall only by a unit or two, while its
        stability lemmas exclude such towers a few at a time; on 20 slow solvable deals a nudge
        stood for some candidate in 15, often tens of candidates before Z3's own tower. The
        moves: one brick shifted by up to `NUDGE_REACH` units along x and y or turned, or one
        brick shifted with everything resting on it; tried in a fixed order, so the answer is
        the same on every run."""
        # Cheapest tests first. The bricks moved together cannot collide with each other, and
        # the card that failed last is asked first (most nudges fail on the same few cards).
        order = list(range(len(conditions)))
        for carried, moved in self._nudges(tower):
            if stop is not None and stop():
                return None
            if any(collide(moved[i], moved[j]) for i in carried
                   for j in range(len(moved)) if j not in carried):
                continue
            if not is_connected(moved):
                continue
            evaluator = Evaluator(moved, self.brick_set)
            failed = next((k for k in order if not evaluator.condition(conditions[k])), None)
            if failed is not None:
                order.remove(failed)
                order.insert(0, failed)
                continue
            if stands(moved, self.margin):
                return normalized(moved)
        return None

    def _nudges(self, tower: Tower) -> Iterator[tuple[set[int], Tower]]:
        """(the bricks moved, the moved tower) for each nudge, in a fixed order."""
        shifts = [(dx, dy) for dx in range(-NUDGE_REACH, NUDGE_REACH + 1)
                  for dy in range(-NUDGE_REACH, NUDGE_REACH + 1)]
        for k, brick in enumerate(tower):
            for (dx, dy), extent in product(shifts, self.extents):
                if (dx, dy) != (0, 0) or extent != (brick.dx, brick.dy, brick.dz):
                    yield {k}, _moved(tower, {k}, dx, dy, extent)
        for k in range(len(tower)):
            carried = upward_closure(tower, k)
            if len(carried) > 1:
                for dx, dy in shifts:
                    if (dx, dy) != (0, 0):
                        yield carried, _moved(tower, carried, dx, dy)

    def _best_moves(
        self, tower: Tower, conditions: Sequence[Condition], rng: random.Random
    ) -> list[tuple[int, Tower, bool]]:
        """`self.sample` proposed moves, best score first (ties in the order drawn)."""
        moves = [self._propose(tower, rng) for _ in range(self.sample)]
        scored = [(self.shortfall(t, conditions), k, t, lp) for k, (t, lp) in enumerate(moves)
                  if t is not None]
        scored.sort(key=lambda m: (m[0], m[1]))
        return [(score, t, lp) for score, _, t, lp in scored]

    def _fresh(self, rng: random.Random) -> Tower:
        while True:
            bricks = bricks_for_rule(self.brick_set, self.all_used, rng)
            tower = random_tower(self.brick_set, rng, bricks)
            if tower is not None:
                return tower

    def shortfall(self, tower: Tower, conditions: Sequence[Condition]) -> int:
        """Summed shortfall of the cards, plus one per brick the deck's rule still misses."""
        evaluator = Evaluator(tower, self.brick_set)
        return sum(evaluator.violation(c) for c in conditions) + self._missing(tower)

    def _missing(self, tower: Tower) -> int:
        if self.all_used:
            return len(self.brick_set.bricks) - len(tower)
        return len(set(self.brick_set.color_names) - {b.color for b in tower})

    def _propose(self, tower: Tower, rng: random.Random) -> tuple[Tower | None, bool]:
        """A neighbouring tower (None when the move does not apply) and whether its stability
        still has to be checked."""
        unused = self._unused(tower)
        kinds = ["recolour", "relocate", "relocate"]
        if not self.all_used:
            kinds += ["swap in", "add", "remove"]
        elif unused:
            kinds += ["add", "add", "add"]
        kind = rng.choice(kinds)
        if kind == "recolour":
            return self._recolour(tower, rng), False
        if kind == "swap in":
            return (self._swap_in(tower, unused, rng) if unused else None), False
        if kind == "add":
            return (self._place(tower, rng.choice(unused), rng) if unused else None), True
        free = [i for i, b in enumerate(tower) if not any(rests_on(o, b) for o in tower)]
        i = rng.choice(free)
        rest = tower[:i] + tower[i + 1:]
        if not is_connected(rest):
            return None, False
        if kind == "remove":
            return rest, True
        brick = next(b for b in self.brick_set.bricks if b.name == tower[i].name)
        return self._place(rest, brick, rng), True

    def _recolour(self, tower: Tower, rng: random.Random) -> Tower | None:
        if len(tower) < 2:
            return None
        i, j = rng.sample(range(len(tower)), 2)
        a, b = tower[i], tower[j]
        if a.color == b.color:
            return None
        swapped = list(tower)
        swapped[i] = _renamed(a, b.name, b.color)
        swapped[j] = _renamed(b, a.name, a.color)
        return tuple(swapped)

    def _swap_in(self, tower: Tower, unused: list[Brick], rng: random.Random) -> Tower | None:
        i = rng.randrange(len(tower))
        brick = rng.choice(unused)
        if brick.color == tower[i].color:
            return None
        return tower[:i] + (_renamed(tower[i], brick.name, brick.color),) + tower[i + 1:]

    def _place(self, tower: Tower, brick: Brick, rng: random.Random) -> Tower | None:
        extent = rng.choice(self.extents)
        new = self._spanning(tower, brick, extent, rng) if rng.random() < SPAN else None
        if new is None:
            new = candidate_placement(tower, brick, extent, rng, rng.random())
        if any(collide(new, old) for old in tower):
            return None
        if new.z > 0 and tips_over(tower, new, self.margin):
            return None
        return (*tower, new)

    def _spanning(
        self, tower: Tower, brick: Brick, extent: tuple[int, int, int], rng: random.Random
    ) -> PlacedBrick | None:
        """A placement resting on two bricks whose tops are level (a bridge, or a brick held
        by several), which single-base placements almost never hit; None if they are too
        far apart for this orientation."""
        base = rng.choice(tower)
        partners = [b for b in tower if b is not base and b.top == base.top]
        if not partners:
            return None
        other = rng.choice(partners)
        dx, dy, dz = extent
        x_low, x_high = max(base.x, other.x) - dx + 1, min(base.x + base.dx, other.x + other.dx) - 1
        y_low, y_high = max(base.y, other.y) - dy + 1, min(base.y + base.dy, other.y + other.dy) - 1
        if x_low > x_high or y_low > y_high:
            return None
        x, y = rng.randint(x_low, x_high), rng.randint(y_low, y_high)
        return PlacedBrick(brick.name, brick.color, x, y, base.top, dx, dy, dz)

    def _unused(self, tower: Tower) -> list[Brick]:
        placed = {b.name for b in tower}
        return [b for b in self.brick_set.bricks if b.name not in placed]


def _moved(
    tower: Tower, bricks: set[int], dx: int, dy: int, extent: tuple[int, int, int] | None = None,
) -> Tower:
    """`tower` with `bricks` shifted by (dx, dy) and, given an `extent`, turned to it."""
    return tuple(
        PlacedBrick(b.name, b.color, b.x + dx, b.y + dy, b.z, *(extent or (b.dx, b.dy, b.dz)))
        if k in bricks else b for k, b in enumerate(tower))


def _renamed(brick: PlacedBrick, name: str, color: str) -> PlacedBrick:
    return PlacedBrick(name, color, brick.x, brick.y, brick.z, brick.dx, brick.dy, brick.dz)
