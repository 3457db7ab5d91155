"""The UpTower engine: legal drops, turns with the at-will piece, the end and the score.

Rules as this project reads them (README, "UpTower"):

- A piece falls straight down in the columns chosen for it until a block rests on something.
  Every block must then have no empty cell under it, all the way down: so a playfield never has
  holes and is fully described by its column heights, and a drop is legal only when the piece's
  underside matches the surface exactly.
- Each turn the rolled piece must be placed if it can be, alone or with one at-will piece (a
  piece whose circle is still free) placed before or after it. If it cannot be placed even with
  an at-will piece first, nothing is placed that turn (a lost turn).
- The game ends after the turn in which a piece is rolled for the fifth time (all four turn
  boxes already full) or a block reaches the top floor.
- Score: the best floor's level x its blocks, plus the bonus for unused at-will circles.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tower_print.uptower.pieces import Orientation, Rules

Heights = tuple[int, ...]


@dataclass(frozen=True)
class Move:
    """One piece placed: `column` is the 0-based column of its leftmost block."""

    piece: int
    rotation: int
    column: int
    at_will: bool = False

    def as_json(self) -> dict[str, object]:
        return {"piece": self.piece, "rotation": self.rotation, "column": self.column + 1,
                "at_will": self.at_will}


@dataclass(frozen=True)
class State:
    heights: Heights
    used: int = 0  # bit n-1 set: piece n's at-will circle is used
    rolled: tuple[int, ...] = ()  # rolled[n-1]: how often piece n was rolled so far
    turn: int = 0  # turns played
    over: bool = False


class IllegalMove(Exception):
    """A move (or a lost turn) the rules do not allow; `index` is the move's place in its turn
    (None: the turn as a whole)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


def start(rules: Rules) -> State:
    return State((0,) * rules.width, 0, (0,) * rules.faces)


def land(heights: Heights, shape: Orientation, column: int, floors: int) -> Heights | None:
    """The column heights after dropping `shape` with its left edge at `column`, or None if the
    drop is illegal (off the playfield, a block over an empty cell, or above the top floor)."""
    bottom = shape.bottom
    if column < 0 or column + len(bottom) > len(heights):
        return None
    rest = heights[column] - bottom[0]
    for c in range(1, len(bottom)):
        if heights[column + c] - bottom[c] != rest:
            return None
    top = shape.top
    new = list(heights)
    for c in range(len(top)):
        new[column + c] = rest + top[c]
    if rest + max(top) > floors:
        return None
    return tuple(new)


def why_not(rules: Rules, heights: Heights, move: Move) -> str:
    """Why `land` refuses a move, in words for the player."""
    shape = rules.piece(move.piece).turned(move.rotation)
    last = move.column + shape.width
    if move.column < 0 or last > rules.width:
        return (f"piece {move.piece} turned {move.rotation} is {shape.width} columns wide: "
                f"columns {move.column + 1}-{last} are not all on the {rules.width}-column "
                "playfield")
    rest = max(heights[move.column + c] - b for c, b in enumerate(shape.bottom))
    for c, b in enumerate(shape.bottom):
        if heights[move.column + c] - b != rest:
            return (f"a block in column {move.column + c + 1} would hang over an empty cell "
                    f"(the piece rests at floor {rest + 1})")
    return f"the piece would stick out above floor {rules.floors}"


def drops(rules: Rules, heights: Heights, piece: int) -> Iterator[tuple[Move, Heights]]:
    """Every legal placement of `piece` (each distinct rotation, every column)."""
    for rotation, column, after in _landings(rules, heights, piece, None):
        yield Move(piece, rotation, column), after


def _after(rules: Rules, state: State, rolled: int, heights: Heights, used: int) -> State:
    counts = list(state.rolled)
    counts[rolled - 1] += 1
    over = counts[rolled - 1] > rules.turn_boxes or max(heights) >= rules.floors
    return State(heights, used, tuple(counts), state.turn + 1, over)


Landings = dict[tuple[Heights, int], tuple[tuple[int, int, Heights], ...]]


def _landings(rules: Rules, heights: Heights, piece: int,
              memo: Landings | None) -> tuple[tuple[int, int, Heights], ...]:
    """(rotation, column, heights after) of every legal drop: `land` for every rotation and
    column, but fast (the search's inner loop): a shape fits where the surface rises exactly as
    its underside does. Remembered in `memo`, since the same surface comes back many times
    while a turn's at-will combinations are tried."""
    key = (heights, piece)
    if memo is not None and key in memo:
        return memo[key]
    rises = tuple(b - a for a, b in zip(heights, heights[1:], strict=False))
    floors, width = rules.floors, len(heights)
    found = []
    for rotation, steps, bottom0, top, reach in rules.pieces[piece - 1].drop_table:
        n = len(steps)
        for col in range(width - n):
            if rises[col:col + n] != steps:
                continue
            rest = heights[col] - bottom0
            if rest + reach > floors:
                continue
            new = list(heights)
            for c, t in enumerate(top):
                new[col + c] = rest + t
            found.append((rotation, col, tuple(new)))
    result = tuple(found)
    if memo is not None:
        memo[key] = result
    return result


Step = tuple[int, int, int, int]  # piece, rotation, column, 1 if at will: a compact Move


def outcomes(rules: Rules, state: State, rolled: int, memo: Landings | None = None,
             ) -> dict[tuple[Heights, int], tuple[Step, ...]]:
    """Every distinct outcome (heights, used circles) of this turn with one way to reach it:
    the rolled piece alone, or with one at-will piece before or after it. Empty: a lost turn.
    `memo` may carry landings between calls (see `_landings`)."""
    found: dict[tuple[Heights, int], tuple[Step, ...]] = {}
    first = _landings(rules, state.heights, rolled, memo)
    for rot, col, heights in first:
        found.setdefault((heights, state.used), ((rolled, rot, col, 0),))
    for piece in range(1, rules.faces + 1):
        bit = 1 << (piece - 1)
        if state.used & bit:
            continue
        used = state.used | bit
        for rot, col, heights in first:
            for rot2, col2, after in _landings(rules, heights, piece, memo):
                if (after, used) not in found:
                    found[(after, used)] = ((rolled, rot, col, 0), (piece, rot2, col2, 1))
        for rot2, col2, heights in _landings(rules, state.heights, piece, memo):
            for rot, col, after in _landings(rules, heights, rolled, memo):
                if (after, used) not in found:
                    found[(after, used)] = ((piece, rot2, col2, 1), (rolled, rot, col, 0))
    return found


def as_moves(steps: tuple[Step, ...]) -> tuple[Move, ...]:
    return tuple(Move(p, r, c, bool(a)) for p, r, c, a in steps)


def turns(rules: Rules, state: State, rolled: int) -> dict[tuple[Heights, int], tuple[Move, ...]]:
    """`outcomes` with the moves spelled out."""
    return {key: as_moves(steps) for key, steps in outcomes(rules, state, rolled).items()}


def next_states(rules: Rules, state: State, rolled: int) -> list[tuple[tuple[Move, ...], State]]:
    """`turns` as (moves, state after the turn); one lost turn when nothing can be placed."""
    outcomes = turns(rules, state, rolled)
    if not outcomes:
        return [((), _after(rules, state, rolled, state.heights, state.used))]
    return [(moves, _after(rules, state, rolled, heights, used))
            for (heights, used), moves in outcomes.items()]


def play(rules: Rules, state: State, rolled: int, moves: Sequence[Move]) -> State:
    """The state after one turn played as `moves`; IllegalMove names the first wrong move."""
    if state.over:
        raise IllegalMove("the game is already over", 0 if moves else None)
    if not moves:
        options = turns(rules, state, rolled)
        if options:
            example = next(iter(options.values()))
            how = " then ".join(_describe(m) for m in example)
            raise IllegalMove(f"no piece placed, but the rolled piece {rolled} can be placed "
                              f"(for example {how})")
        return _after(rules, state, rolled, state.heights, state.used)
    if len(moves) > 2:
        raise IllegalMove("a turn places the rolled piece and at most one at-will piece", 2)
    heights, used = state.heights, state.used
    placed_rolled = False
    for index, move in enumerate(moves):
        if not 1 <= move.piece <= rules.faces:
            raise IllegalMove(f"there is no piece {move.piece}", index)
        if move.at_will:
            bit = 1 << (move.piece - 1)
            if used != state.used:
                raise IllegalMove("only one at-will piece per turn", index)
            if used & bit:
                raise IllegalMove(f"piece {move.piece}'s at-will circle was used on an earlier "
                                  "turn", index)
            used |= bit
        else:
            if move.piece != rolled:
                raise IllegalMove(f"the rolled piece is {rolled}, not {move.piece} (mark a "
                                  "different piece as at-will)", index)
            if placed_rolled:
                raise IllegalMove("the rolled piece is placed once per turn", index)
            placed_rolled = True
        after = land(heights, rules.piece(move.piece).turned(move.rotation), move.column,
                     rules.floors)
        if after is None:
            raise IllegalMove(why_not(rules, heights, move), index)
        heights = after
    if not placed_rolled:
        raise IllegalMove(f"the rolled piece {rolled} was not placed", len(moves) - 1)
    return _after(rules, state, rolled, heights, used)


def _describe(move: Move) -> str:
    kind = "at-will " if move.at_will else ""
    return f"{kind}piece {move.piece} turned {move.rotation} at column {move.column + 1}"


def floor_values(rules: Rules, heights: Heights) -> list[int]:
    """values[k]: floor k+1's level x its blocks (a column of height h fills floors 1..h)."""
    return [level * sum(1 for h in heights if h >= level) for level in range(1, rules.floors + 1)]


def unused_circles(rules: Rules, used: int) -> int:
    return rules.faces - bin(used).count("1")


def score(rules: Rules, state: State) -> int:
    """Best floor plus the bonus for unused at-will circles."""
    return max(floor_values(rules, state.heights)) + rules.bonus[unused_circles(rules, state.used)]


def game_length(rules: Rules, rolls: Sequence[int]) -> int:
    """How many of `rolls` are played at most: up to a piece's first roll beyond its boxes
    (the game may end sooner if a block reaches the top floor). Raises ValueError if the rolls
    stop before that."""
    counts = [0] * rules.faces
    for k, roll in enumerate(rolls):
        counts[roll - 1] += 1
        if counts[roll - 1] > rules.turn_boxes:
            return k + 1
    raise ValueError(f"the rolls end before any piece is rolled {rules.turn_boxes + 1} times")


def roll_sequence(rules: Rules, seed: int) -> tuple[int, ...]:
    """Die rolls for seed `seed`, up to the roll that ends the game (a piece's fifth)."""
    rng = random.Random(f"uptower-rolls-{seed}")
    counts = [0] * rules.faces
    rolls: list[int] = []
    while True:
        roll = rng.randint(1, rules.faces)
        rolls.append(roll)
        counts[roll - 1] += 1
        if counts[roll - 1] > rules.turn_boxes:
            return tuple(rolls)


def random_game(rules: Rules, rng: random.Random,
                rolls: Sequence[int] | None = None) -> tuple[State, list[tuple[Move, ...]]]:
    """A game by a random player: any legal rolled placement; an at-will piece now and then,
    and whenever it is the only way to place the rolled piece. Returns the end state and the
    turns' moves (for replaying through `play`)."""
    state = start(rules)
    played: list[tuple[Move, ...]] = []
    k = 0
    while not state.over:
        rolled = rolls[k] if rolls is not None else rng.randint(1, rules.faces)
        k += 1
        alone = list(drops(rules, state.heights, rolled))
        if alone and rng.random() > 0.15:
            move, heights = rng.choice(alone)
            chosen: tuple[Move, ...] = (move,)
            new = _after(rules, state, rolled, heights, state.used)
        else:
            options = next_states(rules, state, rolled)
            chosen, new = rng.choice(options)
        state = new
        played.append(chosen)
    return state, played
