"""benchmarks/brix_pedestal_bound.py on a pedestal of any colour: the facts it asks Z3 and the
weight count on the lying bricks on the upright's top, closing one case of a case split."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import brix_pedestal_bound  # noqa: E402
from brix_case_split import CaseLog  # noqa: E402
from script_proofs import least_load  # noqa: E402

from tower_print.brix.decks import shipped_deck  # noqa: E402
from tower_print.brix.geometry import PlacedBrick, collide, rests_on  # noqa: E402
from tower_print.brix.shape_library import box_of  # noqa: E402
from tower_print.brix.solver import UNSOLVABLE  # noqa: E402

CARDS = ["G13", "G30", "G32", "G44", "G45"]
CASE = "exactly 1 bricks touch the ground"


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str,
         cards: list[str] = CARDS) -> list[list[str]]:
    """The script's run on `cards` with Z3 answering impossible to every fact: the facts
    asked."""
    asked: list[list[str]] = []
    monkeypatch.setattr(brix_pedestal_bound, "prove_facts",
                        lambda deck, cards, facts, *rest: asked.append(facts))
    monkeypatch.setattr(sys, "argv", ["brix_pedestal_bound.py", "--deck", "green",
                                      "--cards", *cards, *options])
    brix_pedestal_bound.main()
    return asked


def test_three_lying_bricks_on_a_lone_upright_close_the_case_in_the_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "run.jsonl"
    asked = _run(tmp_path, monkeypatch, "--given", CASE, "--case-log", str(log))
    assert asked == [["at least 2 bricks touch the ground", "some grounded brick is horizontal",
                      "some vertical brick rests on some grounded brick",
                      "at most 2 bricks rest on some grounded brick"]]
    written = CaseLog(log, shipped_deck("green"), CARDS)
    assert written.answer([CASE], 150) == UNSOLVABLE
    assert "brix_pedestal_bound.py" in written.borrowed[(CASE,)]
    assert "112 sets" in written.borrowed[(CASE,)]


def test_two_lying_bricks_may_get_their_weight_so_no_case_is_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "run.jsonl"
    with pytest.raises(SystemExit, match="no conclusion"):
        _run(tmp_path, monkeypatch, "--at-least", "2", "--given", CASE, "--case-log", str(log))
    assert CaseLog(log, shipped_deck("green"), CARDS).answer([CASE], 1) is None


def test_fewer_bricks_are_a_fact_to_prove_and_leave_less_weight(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _run(tmp_path, monkeypatch, "--bricks", "5")
    assert asked[0][-1] == "there are at least 6 bricks"


@pytest.mark.parametrize(("colour", "uprights", "bricks", "expected"), [
    ("gray", 0, 9, ["no gray brick is vertical", "no gray brick touches the ground",
                        "at least 2 bricks touch the ground",
                        "some vertical brick rests on some gray brick",
                        "at most 2 bricks rest on some gray brick"]),
    (None, 7, 8, ["at least 2 bricks touch the ground", "some grounded brick is horizontal",
                     "at most 2 bricks rest on some grounded brick",
                     "there are at least 9 bricks"]),
])
def test_negations_ask_that_the_bricks_on_the_pedestal_lie_unless_uprights_are_tried(
        colour: str | None, uprights: int, bricks: int, expected: list[str]) -> None:
    assert brix_pedestal_bound.negations(colour, 3, uprights, bricks, 9) == expected


def test_uprights_on_the_pedestal_are_tried_and_may_leave_no_conclusion(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match="no conclusion"):
        _run(tmp_path, monkeypatch, "--upright", "--bricks", "8")
    assert "39 places" in capsys.readouterr().out


def test_a_lying_pedestal_is_asked_lying_and_its_uprights_counted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    asked = _run(tmp_path, monkeypatch, "--lying", "--upright", "2", "--at-least", "5")
    assert asked == [["at least 2 bricks touch the ground", "some grounded brick is vertical",
                      "at least 3 vertical bricks rest on some grounded brick",
                      "at most 4 bricks rest on some grounded brick"]]
    out = capsys.readouterr().out
    assert "61 places" in out and "2152 sets of 5 or more" in out
    with pytest.raises(SystemExit, match="no conclusion"):
        _run(tmp_path, monkeypatch, "--lying", "--upright", "2", "--at-least", "4")


def test_completions_put_each_brick_on_a_lower_one_once_and_below_the_height() -> None:
    deck = shipped_deck("green")
    base = brix_pedestal_bound.pedestal(deck, "gray", lying=True)
    lying = PlacedBrick("lying", "lying", 0, 0, base.top, base.dx, base.dy, base.dz)
    one = list(brix_pedestal_bound.completions(deck, (base, lying), 1, 1, None))
    low = list(brix_pedestal_bound.completions(deck, (base, lying), 1, 1, lying.top + 2))
    places = [place for upright in (False, True)
              for place in brix_pedestal_bound.resting_places(deck, lying, upright)]
    alone = [place for place in places  # a brick on top of a tower carries nothing
             if least_load(box_of(place), [box_of(lying)], deck.bricks.stability_margin) == 0]
    assert (len(places), len(one), len(set(one))) == (61, len(alone), len(alone))
    assert len(low) == sum(place.dz == 2 for place in alone) < len(alone)
    two = list(brix_pedestal_bound.completions(deck, (base, lying), 0, 2, None))
    assert len(two) == len(set(two)) and ((base, lying)) in two
    for tower in two:
        assert all(any(rests_on(brick, lower) for lower in tower[1:i])
                   for i, brick in enumerate(tower) if i > 1)
        assert not any(collide(a, b) for i, a in enumerate(tower) for b in tower[i + 1:])


def test_sets_given_enough_weight_are_completed_and_every_tower_judged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    asked = _run(tmp_path, monkeypatch, "--lying", "--upright", "4", "--at-least", "5",
                 "--height", "4", "--complete")
    assert asked[0][-1] == "the tower is at least 5 flat bricks tall"
    # the one set: 3,640 towers of 2 more bricks, 22 with a brick on each brick needing a load
    assert "1 of them given enough weight and completed in 22 towers" in capsys.readouterr().out


def test_a_completed_tower_meeting_the_cards_is_no_proof(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match="the cards are met"):
        _run(tmp_path, monkeypatch, "--lying", "--upright", "--at-least", "5",
             "--height", "5", "--complete", cards=["G01"])
    assert "check_witness passed" in capsys.readouterr().out
