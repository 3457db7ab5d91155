"""The condition language: parse, print back canonically, and say what went wrong where."""

from __future__ import annotations

import pytest

from tower_print.brix.evaluate import RELATION_TESTS
from tower_print.brix.language import (
    QUANTIFIERS,
    RELATIONS,
    Colour,
    ConditionSyntaxError,
    Count,
    Height,
    Pred,
    Quant,
    Quantified,
    Related,
    Selector,
    Trait,
    describe,
    parse,
    recoloured,
)

COLOURS = ("yellow", "purple", "red", "blue", "gray")

CANONICAL = [
    "every blue brick touches some red brick",
    "no red brick touches any yellow brick",
    "at most 2 bricks touch the ground",
    "exactly 3 bricks touch the ground",
    "no purple brick touches the ground",
    "there are exactly 3 vertical bricks",
    "there are at least 2 red horizontal bricks",
    "there are as many vertical bricks as horizontal bricks",
    "there are more vertical bricks than horizontal bricks",
    "every highest brick is purple or red",
    "every lowest brick is gray",
    "some yellow bridge is above some blue brick",
    "some brick is a bridge",
    "every purple brick rests on some brick",
    "some red brick supports at least 2 bricks",
    "every yellow brick is above some blue brick",
    "no blue brick is below any red brick",
    "some brick touches at least 4 bricks",
    "every vertical brick does not touch the ground",
    "every red brick is not vertical",
    "every grounded brick is red or blue",
    "some brick that rests on some red brick supports some purple brick",
    "the tower is at least 3 upright bricks tall",
    "the tower is at most 4 flat bricks tall",
    "every blue brick is vertical and some red brick is a bridge",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text: str) -> None:
    condition = parse(text, COLOURS)
    assert parse(describe(condition), COLOURS) == condition
    assert describe(condition) == text


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ("each blue touches a red", "every blue brick touches some red brick"),
        ("The highest brick is yellow", "every highest brick is yellow"),
        ("at most two bricks touch the table", "at most 2 bricks touch the ground"),
        ("there is exactly one gray brick", "there is exactly 1 gray brick"),
        ("the tower is at least 2 upright brick high",
         "the tower is at least 2 upright bricks tall"),
        ("every brick that touches the ground is red", "every grounded brick is red"),
    ],
)
def test_loose_wording_reads_as_canonical(loose: str, canonical: str) -> None:
    assert describe(parse(loose, COLOURS)) == canonical


def test_parse_builds_the_expected_tree() -> None:
    condition = parse("every blue brick touches at least 2 red bricks and "
                      "there are exactly 3 vertical bricks", COLOURS)
    assert condition.clauses == (
        Quantified(Quant("every"), selector_of(Colour(("blue",))),
                   Related("touches", Quant("at least", 2), selector_of(Colour(("red",))))),
        Count(Quant("exactly", 3), selector_of(Trait("vertical"))),
    )
    assert parse("the tower is exactly 2 upright bricks tall", COLOURS).clauses == (
        Height(Quant("exactly", 2), "upright bricks"),
    )


def selector_of(*preds: Pred) -> Selector:
    return Selector(tuple(preds))


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("every blue brick touchs some red brick", 18, "'touches'"),
        ("every green brick touches some red brick", 7, "a colour or 'brick'"),
        ("at most bricks touch the ground", 9, "a number"),
        ("every blue brick touches some red brick or", 41, "'and' or the end"),
        ("every blue brick", 17, "'touches'"),
    ],
)
def test_errors_give_position_and_expectation(text: str, position: int, expected: str) -> None:
    with pytest.raises(ConditionSyntaxError) as caught:
        parse(text, COLOURS[:4])
    message = str(caught.value)
    assert f"at character {position}:" in message
    assert expected in message
    assert "\n" not in message


def test_the_tree_takes_only_words_the_language_has() -> None:
    """The word lists are what the tree's nodes may hold and what the evaluator can judge: a
    node built with another word (a generator's slip) fails where it is made."""
    for make in (lambda: Quant("most"), lambda: Trait("leaning"),
                 lambda: Related("hovers over", Quant("some"), Selector())):
        with pytest.raises(ValueError, match="unknown"):
            make()
    assert set(RELATION_TESTS) == set(RELATIONS)
    for kind in QUANTIFIERS:  # each has a plain-Python meaning (a KeyError otherwise)
        Quant(kind, 1).holds(1, 1)


def test_a_repainted_condition_asks_the_same_of_the_new_colours() -> None:
    swap = {"red": "purple", "purple": "red"}
    text = "every highest brick is purple or blue and every red brick touches some yellow brick"
    image = recoloured(parse(text, COLOURS), swap)
    assert image == recoloured(parse("every highest brick is blue or red and every purple brick "
                                     "touches some yellow brick", COLOURS), {})
    assert image != recoloured(parse(text, COLOURS), {})
    assert recoloured(image, swap) == recoloured(parse(text, COLOURS), {})
