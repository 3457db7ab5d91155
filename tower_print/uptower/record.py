"""Recorded games (GAME.json): read with the place of every field, replayed through the engine.

A record names the rolls and the moves, each move with its turn; a turn without moves is a lost
turn (the engine checks that nothing could be placed). `tower-print uptower puzzle --json`
writes the same format, so a par game can be checked with `tower-print uptower score`::

    {"rolls": [3, 1, 6, ...], "width": 8, "bonus": "published",
     "moves": [{"turn": 1, "piece": 3, "rotation": 0, "column": 1, "at_will": false}, ...]}

`width` and `bonus` are optional (default: content/uptower/game.yaml). Columns count from 1 at
the left; rotation is quarter turns clockwise from the piece as the sheet draws it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tower_print.content import ContentError, load_yaml_text
from tower_print.uptower.engine import (
    IllegalMove,
    Move,
    State,
    floor_values,
    game_length,
    play,
    score,
    start,
    unused_circles,
)
from tower_print.uptower.pieces import Rules, rules_with

KEYS = ("rolls", "moves", "width", "bonus", "seed", "par", "par_is_best", "bound")


@dataclass(frozen=True)
class Record:
    rules: Rules
    rolls: tuple[int, ...]
    moves: tuple[tuple[int, Move], ...]  # (turn, move), in the file's order


@dataclass(frozen=True)
class Checked:
    """A record replayed: the end state, or the first illegal move and why."""

    state: State
    turns: int
    illegal: str | None = None
    move_number: int | None = None  # 1-based, in the file's order
    turn: int | None = None


def read_record(path: Path, rules: Rules) -> Record:
    """Parse GAME.json; a malformed file is one ContentError naming file, line and field."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ContentError(path, None, "", error.strerror or str(error)) from None
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        raise ContentError(path, error.lineno, "(syntax)", f"not JSON: {error.msg}") from None
    root = load_yaml_text(text, path, fast=True)
    root.only_keys(*KEYS)
    width = root["width"].int(4, 12) if root.get("width") is not None else None
    bonus = None
    if root.get("bonus") is not None:
        bonus = root["bonus"].choice(tuple(name for name, _ in rules.bonus_tables))
    rules = rules_with(rules, width, bonus)
    rolls = tuple(r.int(1, rules.faces) for r in root["rolls"].items())
    try:
        game_length(rules, rolls)
    except ValueError as error:
        raise root["rolls"].error(str(error)) from None
    moves = []
    last_turn = 0
    for node in root["moves"].items():
        node.only_keys("turn", "piece", "rotation", "column", "at_will")
        turn = node["turn"].int(1, max(1, len(rolls)))
        if turn < last_turn:
            raise node["turn"].error(f"turn {turn} comes after turn {last_turn}: list the "
                                     "moves in the order they were played")
        last_turn = turn
        at_will = node.get("at_will")
        if at_will is not None and not isinstance(at_will.value, bool):
            raise at_will.error("expected true or false")
        move = Move(node["piece"].int(1, rules.faces), node["rotation"].int(0, 3),
                    node["column"].int(1, rules.width) - 1,
                    bool(at_will.value) if at_will is not None else False)
        moves.append((turn, move))
    return Record(rules, rolls, tuple(moves))


def check(record: Record) -> Checked:
    """Replay the record turn by turn up to the end of the game."""
    rules = record.rules
    state = start(rules)
    by_turn: dict[int, list[tuple[int, Move]]] = {}
    for number, (turn, move) in enumerate(record.moves, start=1):
        by_turn.setdefault(turn, []).append((number, move))
    turn = 0
    while not state.over:  # read_record made sure the rolls reach the end
        turn += 1
        entries = by_turn.get(turn, [])
        try:
            state = play(rules, state, record.rolls[turn - 1], [m for _, m in entries])
        except IllegalMove as error:
            index = error.index if entries and error.index is not None else None
            number = entries[min(index, len(entries) - 1)][0] if index is not None else None
            return Checked(state, turn, str(error), number, turn)
    late = [(n, t) for n, (t, _) in enumerate(record.moves, start=1) if t > turn]
    if late:
        number, when = late[0]
        return Checked(state, turn, f"the game ended after turn {turn}", number, when)
    return Checked(state, turn)


def summary(rules: Rules, checked: Checked) -> dict[str, Any]:
    """What `score` reports, as JSON-ready data."""
    if checked.illegal is not None:
        return {"legal": False, "move": checked.move_number, "turn": checked.turn,
                "reason": checked.illegal}
    values = floor_values(rules, checked.state.heights)
    best = max(range(len(values)), key=lambda k: (values[k], k))
    unused = unused_circles(rules, checked.state.used)
    return {"legal": True, "turns": checked.turns, "score": score(rules, checked.state),
            "best_floor": best + 1, "blocks": values[best] // (best + 1),
            "floor_value": values[best], "unused_circles": unused,
            "bonus": rules.bonus[unused], "bonus_table": rules.bonus_name,
            "heights": list(checked.state.heights)}


def summary_text(path: Path, data: dict[str, Any]) -> str:
    if not data["legal"]:
        where = f"move {data['move']} (turn {data['turn']})" if data["move"] else \
            f"turn {data['turn']}"
        return f"{path}: {where}: illegal: {data['reason']}"
    return (f"{path}: legal game of {data['turns']} turns. Best floor {data['best_floor']}: "
            f"{data['blocks']} blocks x {data['best_floor']} = {data['floor_value']}; bonus "
            f"{data['bonus']} for {data['unused_circles']} unused at-will circles "
            f"({data['bonus_table']} table). Score {data['score']}.")
