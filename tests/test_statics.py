"""The statics check: its quick centre-of-mass test only ever agrees with the linear program,
which is never read as "falls" unless HiGHS says infeasible."""

from __future__ import annotations

from itertools import combinations

import highspy
import numpy as np
import pytest

import tower_print.brix.statics as statics
from tower_print.brix.decks import shipped_deck
from tower_print.brix.geometry import PlacedBrick, collide, is_connected
from tower_print.brix.sampling import sample_towers
from tower_print.brix.search import TowerSearch


def _linear_program_alone(
    monkeypatch: pytest.MonkeyPatch, tower: tuple[PlacedBrick, ...], margin: float,
    part: set[int] | None = None,
) -> bool:
    with monkeypatch.context() as patched:
        patched.setattr(statics, "_centre_supported", lambda *_: True)
        return statics.stands(tower, margin, part)


@pytest.mark.parametrize("deck_name", ["green", "pink"])
def test_the_centre_of_mass_test_never_rejects_what_the_linear_program_holds(
    monkeypatch: pytest.MonkeyPatch, deck_name: str,
) -> None:
    """Every one-brick nudge of two random standing towers (about half of them fall), whole
    and part by part: `stands` with the quick test says exactly what the LP alone says, and the
    quick test alone already rejects most of the falling ones."""
    deck = shipped_deck(deck_name)
    margin = deck.bricks.stability_margin
    search = TowerSearch(deck.bricks, deck.all_used)
    falling = caught = 0
    for tower in sample_towers(deck.bricks, deck.all_used, 2, seed=3):
        for _, moved in search._nudges(tower):
            if any(collide(a, b) for a, b in combinations(moved, 2)) or not is_connected(moved):
                continue
            held = _linear_program_alone(monkeypatch, moved, margin)
            assert statics.stands(moved, margin) == held, moved
            if not held:
                falling += 1
                found = statics.contacts(moved, margin)
                caught += any(
                    not statics._centre_supported(moved, found, part)
                    for part in statics._upward_closed_parts(found, list(range(len(moved)))))
            for k in range(len(moved)):
                part = statics.upward_closure(moved, k)
                assert (statics.stands(moved, margin, part)
                        == _linear_program_alone(monkeypatch, moved, margin, part))
    assert falling > 50
    assert caught > 0.9 * falling


def test_a_centre_exactly_over_the_edge_of_its_support_still_reaches_the_linear_program() -> None:
    """Upright on x 0..2, lying brick on x 0..4: with no margin its centre is on the hull's edge
    and it balances; the tolerance keeps rounding from rejecting it."""
    upright = PlacedBrick("red-1", "red", 0, 0, 0, 2, 2, 4)
    on_edge = PlacedBrick("blue-1", "blue", 0, 0, 4, 4, 2, 2)
    found = statics.contacts((upright, on_edge), 0.0)
    assert statics._centre_supported((upright, on_edge), found, frozenset({1}))
    assert statics.stands((upright, on_edge), 0.0)
    assert not statics._centre_supported((upright, on_edge), statics.contacts(
        (upright, on_edge), 0.25), frozenset({1}))


def test_failing_parts_names_each_falling_part_once_smallest_first() -> None:
    """Two uprights each carrying a lying brick that overhangs by half its length, and a
    brick lying safely on the table: each overhanging brick is a failing part of its own; the
    columns under them hold those parts, so they are not named again; a standing tower has
    none."""
    tower = (
        PlacedBrick("red-1", "red", 0, 0, 0, 2, 2, 4),
        PlacedBrick("blue-1", "blue", 0, 0, 4, 4, 2, 2),
        PlacedBrick("red-2", "red", 10, 0, 0, 2, 2, 4),
        PlacedBrick("blue-2", "blue", 10, 0, 4, 4, 2, 2),
        PlacedBrick("yellow-1", "yellow", 20, 0, 0, 4, 2, 2),
    )
    assert statics.failing_parts(tower, 0.25) == [{1}, {3}]
    centred = tower[:1] + (PlacedBrick("blue-1", "blue", -1, 0, 4, 4, 2, 2),)
    assert statics.failing_parts(centred, 0.25) == []


def test_an_lp_highs_cannot_decide_fails_loudly_instead_of_reading_as_falls() -> None:
    """A NaN in the matrix leaves HiGHS undecided: that must never pass for "does not stand"
    (the solver would rule out a tower that stands), nor for "stands"."""
    assert statics._feasible(np.array([[1.0, 1.0]]), np.array([2.0])) is True
    assert statics._feasible(np.array([[1.0, 1.0]]), np.array([-2.0])) is False
    with pytest.raises(RuntimeError, match="undecided"):
        statics._feasible(np.array([[np.nan]]), np.array([1.0]))


@pytest.mark.parametrize("options", statics.LP_ATTEMPTS)
def test_every_lp_attempt_decides_both_ways(options: dict[str, str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(statics, "LP_ATTEMPTS", (options,))
    a_eq = np.array([[1.0, 1.0], [0.0, 1.0]])
    assert statics._feasible(a_eq, np.array([1.0, 0.5]))
    assert not statics._feasible(a_eq, np.array([1.0, 2.0]))  # x0 = -1 < 0


def test_an_undecided_lp_is_asked_again_and_never_read_as_falling(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """HiGHS's first answer is made "unknown": the next attempt decides; when every attempt
    is made "unknown", `stands` raises rather than say the tower falls."""
    real = highspy._Highs
    undecided = [1]

    class FirstUndecided(real):
        def getModelStatus(self) -> highspy.HighsModelStatus:
            if undecided[0] > 0:
                undecided[0] -= 1
                return highspy.HighsModelStatus.kUnknown
            return super().getModelStatus()

    monkeypatch.setattr(highspy, "_Highs", FirstUndecided)
    a_eq = np.array([[1.0, 1.0]])
    assert statics._feasible(a_eq, np.array([1.0]))
    undecided[0] = len(statics.LP_ATTEMPTS) - 1
    assert not statics._feasible(a_eq, np.array([-1.0]))
    undecided[0] = len(statics.LP_ATTEMPTS)
    with pytest.raises(RuntimeError, match="undecided"):
        statics._feasible(a_eq, np.array([1.0]))
