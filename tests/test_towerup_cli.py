"""`tower-print towerup ...` as users call it: exit codes, text, JSON, one-line errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tower_print.cli import app
from tower_print.towerup.game import default_content
from tower_print.towerup.objectives import parse
from tower_print.towerup.relaxed import Play, Step, meets, replay

runner = CliRunner()
C = default_content()


def run(*args: str):  # noqa: ANN201 - click Result
    return runner.invoke(app, ["towerup", *args])


def replayed(data: dict, side: str, players: int, texts: list[str]) -> int:
    """Replay a JSON witness play without Z3; return its turns."""
    play = Play(tuple((s["site"], s["colour"]) for s in data["start"]),
                tuple(Step(s["site"], s["colour"], s["roof"]) for s in data["steps"]))
    outcome = replay(C.board.side(side), C.rules, players, play)
    assert outcome.problems == ()
    assert meets(outcome, [parse(t, C.words) for t in texts], C.words, C.board.side(side))
    return outcome.turns


def test_check_objective_achievable_with_a_witness_that_replays() -> None:
    result = run("check-objective", "roofs in every district", "--side", "back", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "achievable" and data["players"] == 2
    assert replayed(data["play"], "back", 2, ["roofs in every district"]) == data["min_turns"]
    text = run("check-objective", "roofs in every district", "--side", "back")
    assert text.output.startswith("achievable: roofs in every district (back side")
    assert f"minimum turns: {data['min_turns']}" in text.output


def test_check_objective_impossible_exits_1() -> None:
    result = run("check-objective", "at least 3 roofs on buildings at least 6 high", "--side",
                 "back", "--players", "1")
    assert result.exit_code == 1, result.output
    assert result.output.startswith("impossible:") and "alone on the board" in result.output


def test_check_objective_time_limit_is_unknown_exit_3() -> None:
    result = run("check-objective", "roofs in every district and at least 4 visible roofs and "
                 "roofs on buildings of every colour", "--timeout", "0.1")
    assert result.exit_code == 3, result.output
    assert result.output.startswith("unknown:")


def test_bad_input_is_one_line_exit_2() -> None:
    for args, message in [
        (("check-objective", "roofs in every districts"), "at word 4 ('districts')"),
        (("check-objective", "roofs in every district", "--side", "top"), "--side: 'top'"),
        (("check-objective", "roofs in every district", "--side", "back", "--players", "3"),
         "--players: the back side is for 1 or 2 players, not 3"),
        (("objectives", "--players", "2"), "--players: the front side is for 3 or 4 players"),
        (("simulate", "--games", "1", "--objectives", "S1,Z9"), "unknown card 'Z9'"),
    ]:
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.output.count("\n") == 1 and message in result.output, result.output


def test_objectives_layout_is_seeded_spread_and_met_together() -> None:
    first = run("objectives", "--side", "back", "--players", "2", "--seed", "3", "--json")
    assert first.exit_code == 0, first.output
    again = run("objectives", "--side", "back", "--players", "2", "--seed", "3", "--json")
    assert again.output == first.output
    data = json.loads(first.output)
    turns = [o["min_turns"] for o in data["objectives"]]
    assert len(set(turns)) == 3 and turns == sorted(turns)
    assert [o["difficulty"] for o in data["objectives"]] == ["quick", "middling", "slow"]
    assert all(not C.card(o["id"]).starting for o in data["objectives"])
    for o in data["objectives"]:
        assert replayed(o["play"], "back", 2, [o["formal"]]) == o["min_turns"]
    together = data["together"]
    assert together["status"] == "achievable" and together["minimum"] is True
    assert replayed(together["play"], "back", 2, [o["formal"] for o in data["objectives"]]) \
        == together["turns"] >= max(turns)


def test_simulate_prints_scores_length_and_objectives() -> None:
    result = run("simulate", "--games", "4", "--players", "2", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 4 and data["side"] == "back" and len(data["mean_scores"]) == 2
    assert [o["id"] for o in data["objectives"]] == ["S1", "S2", "S3"]
    text = run("simulate", "--games", "4", "--players", "4", "--objectives", "O1,O2")
    assert text.exit_code == 0
    assert "4 games, 4 players, front side" in text.output and "O2 at least 2 roofs" in text.output
