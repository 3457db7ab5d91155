"""Known truth values on a hand-built tower, for every kind of condition."""

from __future__ import annotations

import pytest
from towers import GREEN_TOWER, flat_x, upright

from tower_print.brix.bricks import default_bricks
from tower_print.brix.evaluate import Evaluator, holds
from tower_print.brix.language import parse
from tower_print.brix.statics import stands

GREEN = default_bricks().subset(("yellow", "purple", "red", "blue"))

TRUTH = {
    # touching
    "every blue brick touches some red brick": False,  # blue-1 only touches yellow-1
    "some blue brick touches some red brick": True,
    "no red brick touches any red brick": True,
    "every yellow brick touches some purple brick": False,
    # the ground
    "exactly 5 bricks touch the ground": True,
    "at most 4 bricks touch the ground": False,
    "no yellow brick touches the ground": True,
    "every vertical brick touches the ground": False,  # purple-2 stands on yellow-2
    # orientation and counts
    "there are exactly 3 vertical bricks": True,
    "there are more horizontal bricks than vertical bricks": True,
    "there are as many red bricks as blue bricks": True,
    "there are as many vertical bricks as horizontal bricks": False,
    "every purple brick is vertical": True,
    # highest and lowest (tops compared; ties all count)
    "the highest brick is purple": True,
    "every highest brick is vertical": True,
    "every lowest brick is red or blue": True,
    "the lowest brick is red": False,  # blue-1 ties with the reds
    # resting, supporting, above, below
    "every yellow brick rests on some red brick": True,
    "every red brick supports some yellow brick": True,
    "some yellow brick supports some purple brick": True,
    "every purple brick is above some yellow brick": False,
    "some blue brick is below some yellow brick": True,
    "every blue brick is below some yellow brick": False,
    # neighbours
    "some brick touches at least 3 bricks": True,
    "some brick touches at least 4 bricks": False,
    # height: top at 8 units = 2 upright bricks = 4 flat bricks
    "the tower is at least 2 upright bricks tall": True,
    "the tower is more than 2 upright bricks tall": False,
    "the tower is exactly 4 flat bricks tall": True,
    # bridges
    "some yellow brick is a bridge": True,
    "some red brick is a bridge": False,
    "there is exactly 1 bridge": True,
    # several clauses
    "every purple brick is vertical and some red brick is a bridge": False,
}


def test_hand_built_tower_is_a_valid_standing_tower() -> None:
    assert stands(GREEN_TOWER, GREEN.stability_margin)


@pytest.mark.parametrize("text", TRUTH)
def test_truth_on_hand_built_tower(text: str) -> None:
    assert holds(parse(text, GREEN.color_names), GREEN_TOWER, GREEN) is TRUTH[text]


def test_only_used_bricks_count() -> None:
    """Pink deck: a colour's absent second brick is not a brick of the tower."""
    pink = default_bricks()
    tower = (flat_x("red-1", 0, 0, 0), upright("blue-1", 1, 0, 2))
    assert holds(parse("every blue brick rests on some red brick", pink.color_names), tower, pink)
    assert holds(parse("there is exactly 1 red brick", pink.color_names), tower, pink)
    assert not holds(parse("some gray brick touches the ground", pink.color_names), tower, pink)


def test_one_evaluator_judges_conditions_parsed_and_dropped_in_turn() -> None:
    """The evaluator remembers answers by the conditions' object identity: a condition parsed,
    judged and dropped must not lend its answers to the next one that reuses its memory."""
    judge = Evaluator(GREEN_TOWER, GREEN)
    for _ in range(3):
        for text, truth in TRUTH.items():
            assert judge.condition(parse(text, GREEN.color_names)) is truth, text
