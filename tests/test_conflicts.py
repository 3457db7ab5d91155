"""Known conflicts: the audit writes them, the loader checks them, the solver asks about a
known conflict first and never takes the file's word for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tower_print.brix.conflicts import known_conflicts, load_conflicts, write_conflicts
from tower_print.brix.decks import load_deck, shipped_deck
from tower_print.brix.solver import SOLVABLE, UNSOLVABLE, Labeled, TowerSolver
from tower_print.content import ContentError

PLANTED = load_deck(Path(__file__).parent / "data" / "brix-planted.yaml")


def items(*ids: str) -> list[Labeled]:
    return [Labeled(c.id, c.text, c.condition) for c in map(PLANTED.card, ids)]


def conditions(*ids: str) -> frozenset:  # type: ignore[type-arg]
    return frozenset(PLANTED.card(i).condition for i in ids)


def asked(solver: TowerSolver, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The card sets `solver.check` is asked about, in order (nested questions included)."""
    questions: list[tuple[str, ...]] = []
    original = TowerSolver.check

    def spy(self: TowerSolver, given, deadline, any_tower=False):  # type: ignore[no-untyped-def]
        questions.append(tuple(it.label for it in given))
        return original(self, given, deadline, any_tower)

    monkeypatch.setattr(TowerSolver, "check", spy)
    return questions


def test_a_deal_holding_a_known_conflict_is_asked_about_that_conflict_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    solver = TowerSolver(PLANTED.bricks, PLANTED.all_used,
                         conflicts=[conditions("T3", "T4"), conditions("T1", "T2")])
    questions = asked(solver, monkeypatch)
    verdict = solver.verify(items("T1", "T2", "T5", "T8"), 60)
    assert verdict.status == UNSOLVABLE and verdict.conflict == ("T1", "T2")
    assert questions[:2] == [("T1", "T2", "T5", "T8"), ("T1", "T2")]


def test_a_listed_set_that_is_not_a_conflict_costs_a_question_not_a_wrong_verdict() -> None:
    stale = TowerSolver(PLANTED.bricks, PLANTED.all_used, conflicts=[conditions("T1", "T5")])
    verdict = stale.verify(items("T1", "T5", "T8"), 60)
    assert verdict.status == SOLVABLE and verdict.tower is not None


def test_written_conflicts_read_back(tmp_path: Path) -> None:
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, [["T8", "T3", "T1"], ["T2", "T1"]], "made by hand",
                    "two of them")
    assert load_conflicts(path, PLANTED) == (("T1", "T2"), ("T1", "T3", "T8"))


@pytest.mark.parametrize(("text", "field"), [
    ("deck: green\nconflicts: []\n", "deck"),
    ("deck: planted\nconflicts:\n  - T1 T99\n", "conflicts[0]"),
    ("deck: planted\nconflicts:\n  - T1 T1\n", "conflicts[0]"),
    ("deck: planted\nconflicts: []\nextra: 1\n", "extra"),
])
def test_a_bad_conflicts_file_names_its_line_and_field(
    tmp_path: Path, text: str, field: str,
) -> None:
    path = tmp_path / "planted.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as error:
        load_conflicts(path, PLANTED)
    assert str(path) in str(error.value) and field in str(error.value)


def test_shipped_conflicts_name_cards_of_their_deck() -> None:
    """Every shipped file loads against its deck (ids checked on load); each set is a real
    conflict: the solver proves the first few unsolvable."""
    for name in ("green", "pink"):
        deck = shipped_deck(name)
        known = known_conflicts(deck)
        solver = TowerSolver(deck.bricks, deck.all_used)
        by_condition = {c.condition: c for c in deck.cards}
        for conflict in known[:3]:
            cards = [by_condition[c] for c in conflict]
            verdict = solver.verify([Labeled(c.id, c.text, c.condition) for c in cards], 60)
            assert verdict.status == UNSOLVABLE, [c.id for c in cards]
