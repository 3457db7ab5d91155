"""Par for a fixed roll sequence: a beam search over whole turns of the engine, then a
branch-and-bound search that tries to beat it or prove that nothing can.

Beam: turn by turn, every state in the beam is expanded into all its distinct outcomes (the
rolled piece alone, or with an at-will piece before or after it; a lost turn when nothing fits),
equal outcomes are merged, and the `width` most promising are kept. "Promising" is the best
score the state could still reach if the remaining blocks could be poured anywhere (the
relaxation of `bound.py`, applied to the state), minus a small penalty for a jagged surface, on
which fewer pieces fit.

Branch and bound: a depth-first search over the same turns, best-looking outcome first, that
drops every state whose relaxed best cannot beat the best game found so far (starting from the
beam's). When it runs out of states within its budget, the best game found is optimal: par is
then proven. Its budget counts expanded states, not seconds, so the result is the same on any
machine.

Games that end (top floor reached, or the last roll played) are scored exactly; the best game is
replayed through the engine before it is returned. Deterministic: no clocks, no randomness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tower_print.uptower.bound import upper_bound
from tower_print.uptower.engine import (
    Heights,
    Landings,
    Move,
    State,
    Step,
    as_moves,
    game_length,
    outcomes,
    play,
    score,
    start,
    unused_circles,
)
from tower_print.uptower.pieces import Rules

DEFAULT_BEAM = 200
DEFAULT_BUDGET = 15_000  # states the branch and bound may expand
# Points of promise lost per floor of height step between neighbouring columns. Measured over
# seeds 0-11 at beam 150 (sum of par): 0.0 -> 1047, 0.1 -> 1090 (beam 250), 0.2 -> 1095,
# 0.3 -> 1088, 0.6 -> 1085, 1.2 -> 1083.
JAGGED = 0.2


@dataclass(frozen=True)
class Solution:
    score: int
    turns: tuple[tuple[Move, ...], ...]  # one entry per turn played; () is a lost turn
    state: State
    proven: bool = False  # the branch and bound showed that no game scores more


_Path = tuple[tuple[Step, ...], "_Path"] | None  # the turns so far, latest first


def _unwind(path: _Path) -> list[tuple[Move, ...]]:
    played: list[tuple[Move, ...]] = []
    while path is not None:
        steps, path = path
        played.append(as_moves(steps))
    played.reverse()
    return played


def _checked(rules: Rules, rolls: Sequence[int], path: _Path, value: int,
             proven: bool = False) -> Solution:
    """The game along `path`, replayed through the engine, which must score `value`."""
    played = _unwind(path)
    end = replay(rules, rolls, played)
    if score(rules, end) != value:
        raise AssertionError("the game found does not replay to its score")
    return Solution(value, tuple(played), end, proven)


def _needs(rules: Rules, heights: np.ndarray) -> np.ndarray:
    """needs[s, level-1, k-1]: blocks state s still needs to raise its k tallest columns to
    `level` (pouring blocks anywhere, as in the relaxation of `bound.py`)."""
    tall = -np.sort(-heights, axis=1)
    levels = np.arange(1, rules.floors + 1)[None, :, None]
    return np.cumsum(np.maximum(0, levels - tall[:, None, :]), axis=2)


def relaxed_best(rules: Rules, heights: np.ndarray, unused: np.ndarray, turns_left: int,
                 ) -> np.ndarray:
    """Per state, the best final score if the blocks still to come (the rolled pieces and j
    more at-will pieces, for the best j) could be poured anywhere: never below what the real
    game can still reach from the state (the relaxation of `bound.py`)."""
    needs = _needs(rules, heights).reshape(len(heights), -1)
    values = (np.arange(1, rules.floors + 1)[:, None]
              * np.arange(1, rules.width + 1)[None, :]).reshape(-1)
    bonus = np.array(rules.bonus)
    best = np.full(len(heights), -1)
    for extra in range(min(turns_left, rules.faces) + 1):
        floor = np.where(needs <= 4 * (turns_left + extra), values, 0).max(axis=1)
        value = np.where(unused >= extra, floor + bonus[np.maximum(unused - extra, 0)], -1)
        best = np.maximum(best, value)
    return best


def promise(rules: Rules, heights: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """How good each state looks: its `relaxed_best` less the jagged-surface penalty."""
    return reach - JAGGED * np.abs(np.diff(heights, axis=1)).sum(axis=1)


def find_par(rules: Rules, rolls: Sequence[int], width: int = DEFAULT_BEAM) -> Solution:
    """The best game the beam finds for `rolls` (which must reach the end of a game)."""
    total = game_length(rules, rolls)
    beam: list[tuple[Heights, int, _Path]] = [(start(rules).heights, 0, None)]
    best: tuple[int, _Path] | None = None
    for k, rolled in enumerate(rolls[:total]):
        children: dict[tuple[Heights, int], _Path] = {}
        memo: Landings = {}
        for heights, used, path in beam:
            found = outcomes(rules, State(heights, used), rolled, memo) or {(heights, used): ()}
            for key, steps in found.items():
                if key not in children:
                    children[key] = (steps, path)
        live: list[tuple[Heights, int, _Path]] = []
        for (heights, used), path in children.items():
            if k + 1 == total or max(heights) >= rules.floors:
                value = score(rules, State(heights, used))
                if best is None or value > best[0]:
                    best = (value, path)
            else:
                live.append((heights, used, path))
        if not live:
            break
        tops = np.array([h for h, _, _ in live])
        unused = np.array([unused_circles(rules, u) for _, u, _ in live])
        rank = promise(rules, tops, relaxed_best(rules, tops, unused, total - k - 1))
        beam = [live[i] for i in np.argsort(-rank, kind="stable")[:width]]
    if best is None:
        raise AssertionError("a game always ends within its rolls")
    return _checked(rules, rolls, best[1], best[0])


def replay(rules: Rules, rolls: Sequence[int], played: Sequence[Sequence[Move]]) -> State:
    """The end state of `played` turns through the engine (IllegalMove if any is wrong)."""
    state = start(rules)
    for rolled, moves in zip(rolls, played, strict=False):
        state = play(rules, state, rolled, moves)
    return state


def improve(rules: Rules, rolls: Sequence[int], found: Solution,
            budget: int = DEFAULT_BUDGET) -> Solution:
    """`found` or a better game, by branch and bound (see the module docstring); `proven` when
    the search finished within `budget` expanded states."""
    total = game_length(rules, rolls)
    best, best_path = found.score, None
    seen: set[tuple[int, Heights, int]] = set()
    stack: list[tuple[int, Heights, int, _Path, int]] = [
        (0, start(rules).heights, 0, None, upper_bound(rules, rolls))]
    expanded = 0
    while stack:
        k, heights, used, path, reach_here = stack.pop()
        if (k, heights, used) in seen or reach_here <= best:
            continue
        seen.add((k, heights, used))
        expanded += 1
        if expanded > budget:
            break
        options = outcomes(rules, State(heights, used), rolls[k]) or {(heights, used): ()}
        live = []
        for (after, after_used), steps in options.items():
            if k + 1 == total or max(after) >= rules.floors:
                value = score(rules, State(after, after_used))
                if value > best:
                    best, best_path = value, (steps, path)
            else:
                live.append((after, after_used, steps))
        if not live:
            continue
        tops = np.array([a for a, _, _ in live])
        unused = np.array([unused_circles(rules, u) for _, u, _ in live])
        reach = relaxed_best(rules, tops, unused, total - k - 1)
        looks = promise(rules, tops, reach)
        for i in np.argsort(looks, kind="stable"):  # the best-looking is pushed last
            after, after_used, steps = live[i]
            if reach[i] > best and (k + 1, after, after_used) not in seen:
                stack.append((k + 1, after, after_used, (steps, path), int(reach[i])))
    proven = expanded <= budget
    if best_path is None:
        return Solution(found.score, found.turns, found.state, proven)
    return _checked(rules, rolls, best_path, best, proven)


def best_game(rules: Rules, rolls: Sequence[int], width: int = DEFAULT_BEAM,
              budget: int = DEFAULT_BUDGET) -> Solution:
    """Par: the beam's best game, improved (and perhaps proven) by branch and bound."""
    return improve(rules, rolls, find_par(rules, rolls, width), budget)
