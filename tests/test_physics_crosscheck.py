"""The statics LP against an independent physics simulation (MuJoCo) on small towers."""

from __future__ import annotations

import pytest
from physics import DROP_LIMIT_MM, assert_stands_in_simulation, settle
from towers import GREEN_TOWER

from tower_print.brix.decks import shipped_deck
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import parse
from tower_print.brix.solver import Labeled, TowerSolver
from tower_print.brix.statics import stands

MARGIN = 0.25


def upright(x: int, y: int, z: int, name: str = "u") -> PlacedBrick:
    return PlacedBrick(name, "red", x, y, z, 2, 2, 4)


def lying(x: int, y: int, z: int, name: str = "l") -> PlacedBrick:
    return PlacedBrick(name, "blue", x, y, z, 4, 2, 2)


PLAIN = {
    "two upright": (upright(0, 0, 0, "a"), upright(0, 0, 4, "b")),
    "lying centred on upright": (upright(1, 0, 0), lying(0, 0, 4)),
    # Uprights on x 0..2 and 4..6 (a gap of 2), the lying brick on x 1..5 rests on both.
    "bridge": (upright(0, 0, 0, "a"), upright(4, 0, 0, "b"), lying(1, 0, 4)),
}

# Support on x 0..2, lying brick on x 1..5: its centre (x = 3) is a full unit past the support's
# edge, half its length out; the farthest off-centre a brick can rest on the integer lattice.
OVERHANG = (upright(0, 0, 0), lying(1, 0, 4))

# Lying brick on x 0..4 over a support on x 0..2: its centre is exactly over the support's edge.
ON_EDGE = (upright(0, 0, 0), lying(0, 0, 4))


@pytest.mark.parametrize("name", PLAIN)
def test_plain_stacks_stand(name: str) -> None:
    bricks = PLAIN[name]
    assert stands(bricks, MARGIN)
    assert settle(bricks) < DROP_LIMIT_MM
    assert_stands_in_simulation(bricks)


def test_exact_stack_neither_jitters_nor_sinks() -> None:
    tower = tuple(upright(0, 0, 4 * k, f"u{k}") for k in range(4))
    assert settle(tower) < 0.1


def test_overhanging_tower_falls() -> None:
    assert not stands(OVERHANG, MARGIN)
    assert not stands(OVERHANG, 0.0)
    assert settle(OVERHANG) > 10.0
    with pytest.raises(AssertionError):
        assert_stands_in_simulation(OVERHANG)


def test_margin_rejects_centre_over_edge() -> None:
    assert stands(ON_EDGE, 0.0)  # balances on paper, on the very edge
    assert not stands(ON_EDGE, MARGIN)


def test_settling_is_deterministic() -> None:
    assert settle(PLAIN["bridge"]) == settle(PLAIN["bridge"])
    assert settle(OVERHANG) == settle(OVERHANG)


WITNESS_QUESTIONS = {
    "bridge and touching": ("green", ("some yellow brick is a bridge",
                                      "every blue brick touches some red brick")),
    "tall": ("green", ("the tower is at least 3 upright bricks tall",)),
    "few on the table": ("green", ("at most 3 bricks touch the ground",)),
    "pink, gray on top": ("pink", ("every highest brick is gray", "some red brick is a bridge")),
}


@pytest.mark.parametrize("name", WITNESS_QUESTIONS)
def test_solver_witnesses_stand_in_simulation(name: str) -> None:
    deck_name, texts = WITNESS_QUESTIONS[name]
    deck = shipped_deck(deck_name)
    items = [Labeled(f"C{k}", t, parse(t, deck.bricks.color_names)) for k, t in enumerate(texts)]
    verdict = TowerSolver(deck.bricks, deck.all_used).verify(items, timeout=60)
    assert verdict.status == "solvable" and verdict.tower is not None
    assert_stands_in_simulation(verdict.tower, deck.bricks.unit_mm)


def test_hand_built_green_tower_stands_in_simulation() -> None:
    assert_stands_in_simulation(GREEN_TOWER)
