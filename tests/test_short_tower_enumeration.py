"""benchmarks/brix_short_tower_enumeration.py under --given: the case's conditions join what
every finished tower is read on, and the command that repeats the run names them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from brix_short_tower_enumeration import Options, _command, _conditions  # noqa: E402


def test_a_given_case_is_read_on_every_tower_and_named_in_the_command() -> None:
    given = ("there are exactly 8 bricks", "exactly 0 vertical bricks touch the ground")
    texts = [text for text, _ in _conditions(Options("pink", ("P11",), given=given))]
    assert texts[0] == "P11" and texts[-2:] == list(given)
    assert "at most 2 bricks touch the ground" in texts
    args = argparse.Namespace(deck="pink", cards=["P11"], given=list(given))
    assert _command(args).endswith('P11 --given "there are exactly 8 bricks" --given '
                                   '"exactly 0 vertical bricks touch the ground"')


def test_a_search_on_three_ground_bricks_assumes_three() -> None:
    texts = [text for text, _ in _conditions(Options("green", (), ground_bricks=3))]
    assert "at most 3 bricks touch the ground" in texts
    assert "at most 2 bricks touch the ground" not in texts
