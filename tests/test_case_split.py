"""The case split's cases must hold every tower between them, or a proof made of "every case
impossible" could miss the tower the cards ask for: a split that could miss one is refused."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import brix_case_split  # noqa: E402
from brix_case_split import (  # noqa: E402
    CaseLog,
    Outcome,
    Split,
    _covering,
    _split,
    colour_swaps,
)

from tower_print.brix.decks import shipped_deck  # noqa: E402
from tower_print.brix.language import parse  # noqa: E402
from tower_print.brix.solver import UNKNOWN, UNSOLVABLE  # noqa: E402


@pytest.mark.parametrize(("text", "covers"), [
    ("{} bricks touch the ground", True),
    ("the tower is {} flat bricks tall", True),
    ("there are {} vertical bricks", True),
    ("{} blue bricks rest on exactly 1 bricks", True),
    ("every gray brick rests on {} bricks", True),  # pink has one gray brick
    ("every blue brick rests on {} bricks", False),  # two blue bricks may differ
    ("some gray brick rests on {} bricks", False),  # no gray brick: no case holds
    ("there are exactly 2 blue bricks and {} bricks touch the ground", False),
])
def test_a_split_is_kept_only_when_its_cases_hold_every_tower(text: str, covers: bool) -> None:
    deck = shipped_deck("pink")
    cases = [parse(case, deck.bricks.color_names) for case in Split(text, 1, 2).cases()]
    assert _covering(deck, cases) is covers


def _fake_z3(monkeypatch: pytest.MonkeyPatch, status: Callable[[list[str]], str]
             ) -> list[tuple[list[str], float]]:
    """Z3's answers faked by `status` of each case's texts; the cases asked, in order, each
    with the seconds it was given."""
    asked: list[tuple[list[str], float]] = []

    def fake_ask(deck: object, cards: object, texts: list[str], seconds: float
                 ) -> tuple[str, None]:
        asked.append((texts, seconds))
        return status(texts), None

    monkeypatch.setattr(brix_case_split, "ask", fake_ask)
    return asked


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answers: dict[str, str],
         timeout: float) -> tuple[Outcome, list[list[str]]]:
    """The split of G04 G05 by brick count and height with a log, Z3's answers faked: the
    last case's status by its text, impossible otherwise."""
    asked = _fake_z3(monkeypatch, lambda texts: answers.get(texts[-1], UNSOLVABLE))
    deck = shipped_deck("green")
    log = CaseLog(tmp_path / "run.jsonl", deck, ["G04", "G05"])
    outcome = Outcome()
    _split(deck, ["G04", "G05"], [Split("there are {} bricks", 2, 2),
                                   Split("the tower is {} flat bricks tall", 1, 1)],
           [], timeout, outcome, log)
    return outcome, [texts for texts, _ in asked]


def test_a_run_given_its_log_asks_only_what_the_log_leaves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    undecided = {"there are exactly 2 bricks": UNKNOWN}
    first, asked = _run(tmp_path, monkeypatch, undecided, 10)
    assert (first.closed, len(asked)) == (5, 6)  # 3 counts, the undecided one split in 3
    again, asked = _run(tmp_path, monkeypatch, undecided, 10)
    assert (again.closed, asked) == (5, [])
    _, asked = _run(tmp_path, monkeypatch, {}, 20)  # undecided at 10 s: asked at 20 s
    assert asked == [["there are exactly 2 bricks"]]


def test_a_first_timeout_is_for_the_cases_with_splits_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _fake_z3(monkeypatch, lambda texts: (
        UNKNOWN if texts[-1] == "there are exactly 2 bricks" else UNSOLVABLE))
    _split(shipped_deck("green"), ["G04", "G05"], [Split("there are {} bricks", 2, 2),
                                                   Split("the tower is {} flat bricks tall", 1, 1)],
           [], 60, Outcome(), None, first_timeout=5)
    assert {texts[-1]: seconds for texts, seconds in asked} == {
        "there are at most 1 bricks": 5, "there are exactly 2 bricks": 5,
        "there are at least 3 bricks": 5,
        "the tower is at most 0 flat bricks tall": 60,
        "the tower is exactly 1 flat bricks tall": 60,
        "the tower is at least 2 flat bricks tall": 60}


def test_a_log_cut_off_mid_line_loses_only_that_case(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(tmp_path, monkeypatch, {}, 10)
    log = tmp_path / "run.jsonl"
    log.write_text(log.read_text().rstrip()[:-5])
    _, asked = _run(tmp_path, monkeypatch, {}, 10)
    assert asked == [["there are at least 3 bricks"]]


def test_a_log_of_other_cards_is_refused(tmp_path: Path) -> None:
    deck = shipped_deck("green")
    CaseLog(tmp_path / "run.jsonl", deck, ["G04", "G05"])
    with pytest.raises(ValueError, match="the log of another run"):
        CaseLog(tmp_path / "run.jsonl", deck, ["G04", "G06"])


def test_a_case_another_argument_closed_is_taken_from_the_log_and_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = shipped_deck("green")
    CaseLog(tmp_path / "run.jsonl", deck, ["G04", "G05"]).write(
        ["there are exactly 2 bricks"], UNSOLVABLE, 60, "a weight count")
    undecided = {"there are exactly 2 bricks": UNKNOWN}
    outcome, asked = _run(tmp_path, monkeypatch, undecided, 10)
    assert (outcome.closed, outcome.open, asked) == (
        3, [], [["there are at most 1 bricks"], ["there are at least 3 bricks"]])
    log = CaseLog(tmp_path / "run.jsonl", deck, ["G04", "G05"])
    assert log.answer(["there are exactly 2 bricks"], 10) == UNSOLVABLE
    assert log.borrowed == {("there are exactly 2 bricks",): "a weight count"}


@pytest.mark.parametrize(("cards", "swaps"), [
    ("G12 G32 G34 G38 G45", 1),  # no card names red or purple: they may trade places
    ("G05 G12 G32 G34 G38", 0),  # G05 names purple, G34 and G38 blue and yellow
    ("G13 G25 G32 G40 G44", 5),  # only blue is named: every shuffle of the other three
])
def test_a_repainting_counts_only_when_it_leaves_the_cards_and_bricks_as_they_are(
        cards: str, swaps: int) -> None:
    deck = shipped_deck("green")
    found = colour_swaps(deck, cards.split())
    assert len(found) == swaps
    named = {word for card in cards.split() for word in deck.card(card).text.lower().split()}
    assert not any(colour in named for swap in found for colour in swap)
    pink = shipped_deck("pink")  # the one gray brick never trades places with a pair
    assert all("gray" not in swap for swap in colour_swaps(pink, ["P08", "P13", "P19", "P44"]))


def _mirror_run(monkeypatch: pytest.MonkeyPatch, undecided: set[tuple[str, ...]]
                ) -> tuple[Outcome, list[list[str]]]:
    """G12 G32 G34 G38 G45 split by red, then purple bricks on the table, then the height:
    Z3's answers faked (the two colour levels undecided, the height cases impossible unless
    in `undecided`)."""
    asked = _fake_z3(monkeypatch, lambda texts: (
        UNKNOWN if len(texts) < 3 or tuple(texts) in undecided else UNSOLVABLE))
    deck = shipped_deck("green")
    cards = ["G12", "G32", "G34", "G38", "G45"]
    outcome = Outcome()
    _split(deck, cards, [Split("{} red bricks touch the ground", 0, 1),
                         Split("{} purple bricks touch the ground", 0, 1),
                         Split("the tower is {} flat bricks tall", 8, 8)],
           [], 10, outcome, None, colour_swaps(deck, cards))
    return outcome, [texts for texts, _ in asked]


def test_a_split_given_high_to_low_asks_its_cases_from_the_top_down(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rising = Split("{} yellow bricks touch the ground", 0, 1).cases()
    assert Split("{} yellow bricks touch the ground", 1, 0).cases() == rising[::-1]
    calls = _fake_z3(monkeypatch, lambda texts: UNKNOWN if len(texts) < 3 else UNSOLVABLE)
    deck = shipped_deck("green")
    cards = ["G13", "G25", "G32", "G40", "G44"]
    outcome = Outcome()
    _split(deck, cards, [Split(f"{{}} {colour} bricks touch the ground", 1, 0)
                         for colour in ("yellow", "purple", "red")], [], 10, outcome, None,
           colour_swaps(deck, cards))
    asked = [texts for texts, _ in calls]
    assert asked[0] == ["at least 2 yellow bricks touch the ground"]
    one_yellow = ["exactly 1 yellow bricks touch the ground"]
    # one purple or one red on the table, and no yellow: repainted images of one yellow
    for case in (["exactly 0 yellow bricks touch the ground",
                  "exactly 1 purple bricks touch the ground"],
                 ["exactly 0 yellow bricks touch the ground",
                  "exactly 0 purple bricks touch the ground",
                  "exactly 1 red bricks touch the ground"]):
        assert not any(asked_case[:len(case)] == case for asked_case in asked)
    assert any(asked_case[:1] == one_yellow for asked_case in asked[1:])
    assert not outcome.open and outcome.mirrored >= 2


def _on_table(red: str, purple: str) -> list[str]:
    return [f"{red} red bricks touch the ground", f"{purple} purple bricks touch the ground"]


def test_a_case_whose_repainted_image_was_closed_is_not_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    outcome, asked = _mirror_run(monkeypatch, set())
    skipped = [_on_table("exactly 1", "exactly 0"), _on_table("at least 2", "exactly 0"),
               _on_table("at least 2", "exactly 1")]  # images of cases closed before them
    assert outcome.mirrored == 3 and not outcome.open
    assert not any(case[:2] == pair for case in asked for pair in skipped)
    assert len(asked) == 3 + 6 + 6 * 3  # the colour levels, then 6 of 9 pairs split by height
    assert outcome.closed == 6 * 3 + 3


def test_a_case_whose_image_is_left_open_is_left_open_unasked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    still_open = (*_on_table("exactly 0", "exactly 1"), "the tower is exactly 8 flat bricks tall")
    outcome, asked = _mirror_run(monkeypatch, {still_open})
    image = _on_table("exactly 1", "exactly 0")
    assert not any(case[:2] == image for case in asked)
    assert outcome.open == [list(still_open), image] and outcome.mirrored == 2
