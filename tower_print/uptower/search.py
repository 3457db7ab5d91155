"""Par for a fixed roll sequence: a beam search over whole turns of the engine.

Turn by turn, every state in the beam is expanded into all its distinct outcomes (the rolled
piece alone, or with an at-will piece before or after it; a lost turn when nothing fits), equal
outcomes are merged, and the `width` most promising are kept. "Promising" is the best score the
state could still reach if the remaining blocks could be poured anywhere (the relaxation of
`bound.py`, applied to the state), minus a small penalty for a jagged surface, on which fewer
pieces fit. Games that end (top floor reached, or the last roll played) are scored exactly; par
is the best of them, and the moves that reach it are kept and replayed through the engine.

Deterministic: no clocks, no randomness; ties are broken by the order outcomes were made in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tower_print.uptower.engine import (
    Heights,
    Landings,
    Move,
    State,
    Step,
    as_moves,
    outcomes,
    play,
    score,
    start,
    unused_circles,
)
from tower_print.uptower.pieces import Rules

DEFAULT_BEAM = 250
# Points of promise lost per floor of height step between neighbouring columns. Measured over
# seeds 0-11 at beam 150 (sum of par): 0.0 -> 1047, 0.1 -> 1090 (beam 250), 0.2 -> 1095,
# 0.3 -> 1088, 0.6 -> 1085, 1.2 -> 1083.
JAGGED = 0.2


@dataclass(frozen=True)
class Solution:
    score: int
    turns: tuple[tuple[Move, ...], ...]  # one entry per turn played; () is a lost turn
    state: State


@dataclass
class _Node:
    heights: Heights
    used: int
    moves: tuple[Step, ...]
    parent: _Node | None


def _needs(rules: Rules, heights: np.ndarray) -> np.ndarray:
    """needs[s, level-1, k-1]: blocks state s still needs to raise its k tallest columns to
    `level` (pouring blocks anywhere, as in the relaxation of `bound.py`)."""
    tall = -np.sort(-heights, axis=1)
    levels = np.arange(1, rules.floors + 1)[None, :, None]
    return np.cumsum(np.maximum(0, levels - tall[:, None, :]), axis=2)


def promise(rules: Rules, heights: np.ndarray, unused: np.ndarray, turns_left: int,
            ) -> np.ndarray:
    """How good each state looks: the best final score if the blocks still to come (and j
    more at-will pieces, for the best j) could be poured anywhere, less the jagged-surface
    penalty."""
    needs = _needs(rules, heights)
    values = (np.arange(1, rules.floors + 1)[:, None] * np.arange(1, rules.width + 1)[None, :])
    bonus = np.array(rules.bonus)
    best = np.full(len(heights), -1.0)
    for extra in range(min(turns_left, rules.faces) + 1):
        blocks = 4 * (turns_left + extra)
        floor = np.where(needs <= blocks, values[None], 0).max(axis=(1, 2))
        value = np.where(unused >= extra, floor + bonus[np.maximum(unused - extra, 0)], -1)
        best = np.maximum(best, value)
    jagged = np.abs(np.diff(heights, axis=1)).sum(axis=1)
    return best - JAGGED * jagged


def find_par(rules: Rules, rolls: Sequence[int], width: int = DEFAULT_BEAM) -> Solution:
    """The best game the beam finds for `rolls` (which must reach the end of a game)."""
    first = start(rules)
    beam = [_Node(first.heights, 0, (), None)]
    finished: list[tuple[int, int, _Node]] = []  # (score, -order, node)
    state = first
    for k, rolled in enumerate(rolls):
        children: dict[tuple[Heights, int], _Node] = {}
        memo: Landings = {}
        for node in beam:
            found = outcomes(rules, State(node.heights, node.used, state.rolled, k), rolled,
                             memo)
            if not found:
                children.setdefault((node.heights, node.used), _Node(node.heights, node.used,
                                                                     (), node))
            for (heights, used), moves in found.items():
                if (heights, used) not in children:
                    children[(heights, used)] = _Node(heights, used, moves, node)
        counts = list(state.rolled)
        counts[rolled - 1] += 1
        state = State(state.heights, 0, tuple(counts), k + 1)
        last = counts[rolled - 1] > rules.turn_boxes
        live: list[_Node] = []
        for node in children.values():
            if last or max(node.heights) >= rules.floors:
                value = score(rules, State(node.heights, node.used))
                finished.append((value, -len(finished), node))
            else:
                live.append(node)
        if last or not live:
            break
        heights = np.array([n.heights for n in live])
        unused = np.array([unused_circles(rules, n.used) for n in live])
        rank = promise(rules, heights, unused, _turns_left(rules, rolls, k + 1))
        order = np.argsort(-rank, kind="stable")[:width]
        beam = [live[i] for i in order]
    if not finished:
        raise ValueError("the rolls end before the game does")
    value, _, node = max(finished, key=lambda item: (item[0], item[1]))
    played: list[tuple[Move, ...]] = []
    walk: _Node | None = node
    while walk is not None and walk.parent is not None:
        played.append(as_moves(walk.moves))
        walk = walk.parent
    played.reverse()
    end = replay(rules, rolls, played)
    if score(rules, end) != value:
        raise AssertionError("the par game does not replay to its score")
    return Solution(value, tuple(played), end)


def _turns_left(rules: Rules, rolls: Sequence[int], played: int) -> int:
    """Turns still to come after `played` turns (up to the roll that ends the game)."""
    counts = [0] * rules.faces
    for k, roll in enumerate(rolls):
        counts[roll - 1] += 1
        if counts[roll - 1] > rules.turn_boxes:
            return k + 1 - played
    return len(rolls) - played


def replay(rules: Rules, rolls: Sequence[int], played: Sequence[Sequence[Move]]) -> State:
    """The end state of `played` turns through the engine (IllegalMove if any is wrong)."""
    state = start(rules)
    for rolled, moves in zip(rolls, played, strict=False):
        state = play(rules, state, rolled, moves)
    return state
