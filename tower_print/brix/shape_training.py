"""Building a shape library from the solver's witnesses of random deals.

The deals are solved and their witnesses' shapes kept, ordered greedily: first the shape whose
colourings meet the most of those deals, then the one meeting most of the rest, and so on; a
shape that adds none is left out. The benchmark (benchmarks/brix_verify.py) draws its deals with
seed 1, so the shipped libraries are built from other seeds and its figures are measured on
deals no library saw.

A library can be extended: its shapes stay first, in their order, the training deals are solved
with it (the deals it meets cost milliseconds, so the time goes to the ones it misses), and new
shapes are chosen greedily for the deals it misses.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from tower_print.brix import geometry
from tower_print.brix.bricks import BrickSet
from tower_print.brix.deals import draw_level
from tower_print.brix.decks import Deck
from tower_print.brix.difficulty import pool
from tower_print.brix.shape_library import RULES, box_of
from tower_print.brix.shapes import Box, Shape, ShapeLibrary, Tower, colourings, first_meeting
from tower_print.brix.solver import SOLVABLE, Labeled, TowerSolver
from tower_print.render.scene import write_atomic


def shape_of(tower: Tower) -> tuple[Box, ...]:
    """The tower's boxes, moved to x = y = 0 and sorted: equal shapes compare equal."""
    return tuple(sorted(box_of(b) for b in geometry.normalized(tower)))


def solve_training_deals(
    deck: Deck, seeds: Sequence[int], levels: Sequence[str], deals: int, work: int,
    progress: Callable[[int], None] | None = None, library: ShapeLibrary | None = None,
) -> list[tuple[tuple[Labeled, ...], Tower]]:
    """(cards, witness) for every solvable deal of `deals` per seed and level, drawn as the
    benchmark draws them. Each deal gets a fresh solver (lemmas a raced Z3 added before it was
    stopped depend on timing), the reproducible race (not "any tower") and a budget of Z3
    work, so the same call gives the same witnesses on any machine. `library`: the library being
    extended, tried first as `brix verify` does."""
    reference = pool(deck.bricks, deck.all_used)
    solved: list[tuple[tuple[Labeled, ...], Tower]] = []
    done = 0
    for seed in seeds:
        for level in levels:
            rng = random.Random(f"{seed}-{deck.name}-{level}")
            for _ in range(deals):
                items = tuple(c.item()
                              for c in draw_level(deck, level, rng))
                solver = TowerSolver(deck.bricks, deck.all_used, seed=0, work=work,
                                     pool=reference, library=library)
                status, tower, _ = solver.check(items, time.monotonic() + 24 * 3600.0)
                if status == SOLVABLE and tower is not None:
                    solved.append((items, tower))
                done += 1
                if progress:
                    progress(done)
    return solved


def greedy_shapes(
    solved: Sequence[tuple[Sequence[Labeled], Tower]], brick_set: BrickSet, all_used: bool,
    kept: Sequence[tuple[Box, ...]] = (),
) -> list[tuple[Box, ...]]:
    """`kept` (the shapes of a library being extended), then the witnesses' other distinct
    shapes, the one meeting most deals `kept` misses first (see the module docstring); a shape
    that meets no deal the earlier ones miss is left out."""
    chosen = list(kept)
    missing = set(range(len(solved)))
    shared: dict[int, list[dict[object, np.ndarray]]] = {}  # see `Shape.meets`
    for boxes in chosen:
        missing -= _deals_met(Shape(boxes, brick_set), solved, brick_set, all_used, shared)
    unmet = dict.fromkeys(shape_of(tower) for k, (_, tower) in enumerate(solved) if k in missing)
    candidates = [boxes for boxes in unmet if boxes not in chosen]
    covers = [_deals_met(Shape(boxes, brick_set), solved, brick_set, all_used, shared)
              for boxes in candidates]
    while missing and candidates:
        gain, best = max((len(cover & missing), -k) for k, cover in enumerate(covers))
        if gain == 0:
            break
        chosen.append(candidates[-best])
        missing -= covers[-best]
    return chosen


def _deals_met(
    shape: Shape, solved: Sequence[tuple[Sequence[Labeled], Tower]], brick_set: BrickSet,
    all_used: bool, shared: dict[int, list[dict[object, np.ndarray]]],
) -> set[int]:
    mixes = colourings(brick_set, all_used, len(shape.boxes))
    memos = shared.setdefault(len(shape.boxes), [{} for _ in mixes])
    verdicts: dict[Labeled, list[np.ndarray]] = {}  # each card judged once per shape
    for items, _ in solved:
        for item in items:
            if item not in verdicts:
                verdicts[item] = [shape.meets(item.condition, colours, memo)
                                  for colours, memo in zip(mixes, memos, strict=True)]
    return {k for k, (items, _) in enumerate(solved)
            if first_meeting(mixes, [verdicts[item] for item in items]) is not None}


def write_library(path: Path, shapes: Sequence[Sequence[Box]], brick_set: BrickSet,
                  all_used: bool, history: Sequence[str], note: str) -> None:
    """`history`: the commands that built the library, oldest first (`library_history`)."""
    lines = [
        "# A shape library for the TowerBrix solver (tower_print/brix/shapes.py): shapes of",
        "# standing towers that met the cards of random deals, most useful first.",
        *(f"# {'Built' if k == 0 else 'Extended'} by: {command}"
          for k, command in enumerate(history)),
        f"# {note}",
        f"rule: {RULES[all_used]}",
        f"brick: {{length: {brick_set.length}, width: {brick_set.width}, "
        f"thickness: {brick_set.thickness}}}",
        f"stability_margin: {brick_set.stability_margin}",
        "shapes:",
    ]
    for boxes in shapes:
        lines.append("  - " + " / ".join(" ".join(str(v) for v in box) for box in boxes))
    write_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))


def library_history(path: Path) -> list[str]:
    """The commands recorded in a library file's header by `write_library`."""
    commands = []
    for line in path.read_text(encoding="utf-8").splitlines():
        for prefix in ("# Built by: ", "# Extended by: "):
            if line.startswith(prefix):
                commands.append(line.removeprefix(prefix))
    return commands
