"""Solo puzzles: a seeded roll sequence, its par found by the search, and the bound above it.

The par game is replayed through the engine before it is printed or reported, and the answer
key is drawn from that replay (which piece filled which cell on which turn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tower_print.uptower.bound import upper_bound
from tower_print.uptower.engine import Move, land, roll_sequence, start
from tower_print.uptower.pieces import Rules
from tower_print.uptower.search import DEFAULT_BEAM, DEFAULT_BUDGET, Solution, best_game, replay


@dataclass(frozen=True)
class Puzzle:
    seed: int
    rolls: tuple[int, ...]
    par: Solution
    bound: int


@dataclass(frozen=True)
class Placed:
    """A piece of the par game on the playfield: its cells as (column, floor), 0-based."""

    turn: int
    move: Move
    cells: tuple[tuple[int, int], ...]


def make_puzzle(rules: Rules, seed: int, beam: int | None = None,
                budget: int | None = None) -> Puzzle:
    rolls = roll_sequence(rules, seed)
    par = best_game(rules, rolls, beam or DEFAULT_BEAM,
                    DEFAULT_BUDGET if budget is None else budget)
    return Puzzle(seed, rolls, par, upper_bound(rules, rolls))


def placed_pieces(rules: Rules, puzzle: Puzzle) -> list[Placed]:
    """Every piece of the par game where it landed (the engine replays the game first)."""
    replay(rules, puzzle.rolls, puzzle.par.turns)
    heights = start(rules).heights
    out = []
    for turn, moves in enumerate(puzzle.par.turns, start=1):
        for move in moves:
            shape = rules.piece(move.piece).turned(move.rotation)
            rest = heights[move.column] - shape.bottom[0]
            out.append(Placed(turn, move, tuple((move.column + x, rest + y)
                                                for x, y in shape.cells)))
            after = land(heights, shape, move.column, rules.floors)
            if after is None:
                raise AssertionError("a replayed move does not land")
            heights = after
    return out


def puzzle_json(rules: Rules, puzzle: Puzzle) -> dict[str, Any]:
    """Rolls, par, bound and the par moves, in the GAME.json format `score` reads."""
    moves = [{"turn": turn, **move.as_json()}
             for turn, turn_moves in enumerate(puzzle.par.turns, start=1)
             for move in turn_moves]
    return {"seed": puzzle.seed, "width": rules.width, "bonus": rules.bonus_name,
            "rolls": list(puzzle.rolls), "par": puzzle.par.score,
            "par_is_best": puzzle.par.proven, "bound": puzzle.bound, "moves": moves}


def move_text(move: Move) -> str:
    """A move as the answer key words it: 'at will piece 6 turned 90° at C' (turns are
    clockwise; the column is the piece's left edge)."""
    turned = "as drawn" if move.rotation == 0 else f"turned {90 * move.rotation}°"
    return f"{'at will ' if move.at_will else ''}piece {move.piece} {turned} at " \
           f"{column_name(move.column)}"


def column_name(column: int) -> str:
    """Columns are lettered on the sheet: A is the leftmost (column 1 in GAME.json)."""
    return chr(ord("A") + column)


def puzzle_text(rules: Rules, puzzle: Puzzle) -> str:
    lines = [f"UpTower solo puzzle, seed {puzzle.seed} ({rules.width} columns, "
             f"{rules.bonus_name} bonus table)",
             "Rolls: " + " ".join(str(r) for r in puzzle.rolls),
             f"Par: {puzzle.par.score}  ({_quality(puzzle)})",
             "Answer key:"]
    for turn, moves in enumerate(puzzle.par.turns, start=1):
        what = ", then ".join(move_text(m) for m in moves)
        lines.append(f"  turn {turn:2d}, rolled {puzzle.rolls[turn - 1]}: "
                     f"{what or 'nothing fits (lost turn)'}")
    return "\n".join(lines)


def _quality(puzzle: Puzzle) -> str:
    if puzzle.par.proven:
        return "proven best: the search covered every game that could beat it"
    return f"no game scores more than {puzzle.bound}"
