"""The Z3 minimum-turns model against brute force over the same relaxed game, on a tiny board.

Both sides use relaxed.replay's definition of a play and its turns: Z3 searches plays through its
encoding, brute force tries every play and replays it, so an encoding mistake shows as a
different minimum (or a wrong "impossible").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from tower_print.towerup.board import Side, Site
from tower_print.towerup.components import Card
from tower_print.towerup.game import default_content
from tower_print.towerup.model import ACHIEVABLE, IMPOSSIBLE, min_turns
from tower_print.towerup.objectives import Vocabulary, parse
from tower_print.towerup.relaxed import Play, Step, meets, replay

C = default_content()
#   a - b        a: start site; districts: a b port, c d hill, e canal
#   |   |
#   c - d - e
STREETS = (("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "e"))
DISTRICTS = {"a": "port", "b": "port", "c": "hill", "d": "hill", "e": "canal"}
TINY = Side(
    "tiny", (2,), tuple(Site(s, d, float(i), float(i * i)) for i, (s, d) in
                        enumerate(DISTRICTS.items())),
    STREETS, ("a",),
    {s: tuple([b for a, b in STREETS if a == s] + [a for a, b in STREETS if b == s])
     for s in DISTRICTS},
    DISTRICTS)
WORDS = Vocabulary(("black", "white", "brown"), ("port", "hill", "canal"))
# Few colours, a small supply, three roofs, three floors a card, no star columns: every limit the
# model knows about can bind on this board.
RULES = replace(C.rules, colours=WORDS.colours, floors_per_colour=5, roofs_per_player=3,
                star_columns=(), deck=(Card(0, ("black", "white", "brown")),))

OBJECTIVES = [
    "roofs on 2 adjacent buildings",
    "at least 1 roof on buildings at least 3 high",
    "at least 2 visible roofs",
    "roofs in every district",
    "roofs on buildings of every colour",
    "at least 2 roofs on black buildings",
    "visible roofs on 2 adjacent buildings",
    "at least 3 roofs in district port",
    "at least 1 roof on buildings at least 4 high",
    "at least 2 roofs on buildings at least 3 high and at least 1 visible roof",
]


def plays(players: int) -> Iterator[Play]:
    """Every legal play on the tiny board (each prefix is a play too)."""
    for colour in WORDS.colours:
        start = (("a", colour),)
        yield from _extend(start, (), {"a": colour}, players)


def _extend(start: tuple[tuple[str, str], ...], steps: tuple[Step, ...], built: dict[str, str],
            players: int) -> Iterator[Play]:
    yield Play(start, steps)
    mine = sum(s.mine for s in steps)
    for site in TINY.site_ids:
        paid = [n for n in TINY.neighbours[site] if n in built]
        if site in built or not paid:
            continue
        for colour in WORDS.colours:
            if any(built[n] == colour for n in paid):
                continue
            roofs: list[str | None] = [site, *paid] if mine < RULES.roofs_per_player else []
            for roof in roofs + ([None] if players > 1 else []):
                yield from _extend(start, (*steps, Step(site, colour, roof)),
                                   {**built, site: colour}, players)


def brute_min(text: str, players: int) -> int | None:
    objective = [parse(text, WORDS)]
    best = None
    for play in plays(players):
        outcome = replay(TINY, RULES, players, play)
        if not outcome.problems and meets(outcome, objective, WORDS, TINY):
            best = outcome.turns if best is None else min(best, outcome.turns)
    return best


@pytest.mark.parametrize("players", [1, 2])
def test_z3_minimum_turns_equal_brute_force_on_a_tiny_board(players: int) -> None:
    answers = {}
    for text in OBJECTIVES:
        expected = brute_min(text, players)
        verdict = min_turns(TINY, RULES, WORDS, [parse(text, WORDS)], players, timeout=60)
        if expected is None:
            assert verdict.status == IMPOSSIBLE, text
        else:
            assert (verdict.status, verdict.turns) == (ACHIEVABLE, expected), text
            assert verdict.outcome is not None and verdict.outcome.turns == expected
        answers[text] = expected
    assert answers["at least 1 roof on buildings at least 4 high"] is None
    assert len({a for a in answers.values() if a is not None}) >= 3  # the test discriminates
    if players == 2:  # opponents' buildings help, within their turns
        assert answers["at least 1 roof on buildings at least 3 high"] < brute_min(
            "at least 1 roof on buildings at least 3 high", 1)  # type: ignore[operator]


def test_a_set_of_objectives_is_met_at_once_and_is_never_quicker_than_its_hardest() -> None:
    texts = ["roofs in every district", "at least 2 visible roofs"]
    both = min_turns(TINY, RULES, WORDS, [parse(t, WORDS) for t in texts], 1)
    single = [min_turns(TINY, RULES, WORDS, [parse(t, WORDS)], 1).turns for t in texts]
    assert both.status == ACHIEVABLE and both.turns >= max(single)  # type: ignore[type-var]
    from_bound = min_turns(TINY, RULES, WORDS, [parse(t, WORDS) for t in texts], 1,
                           at_least=max(single))  # type: ignore[type-var]
    assert from_bound.turns == both.turns
    assert both.outcome is not None
    assert meets(both.outcome, [parse(t, WORDS) for t in texts], WORDS, TINY)


@pytest.mark.parametrize("card_id", ["S1", "O1", "O3", "O4", "O9"])
def test_shipped_cards_on_the_half_board_have_a_replayed_witness(card_id: str) -> None:
    side = C.board.side("back")
    card = C.card(card_id)
    verdict = min_turns(side, C.rules, C.words, [card.objective], 2, timeout=60)
    assert verdict.status == ACHIEVABLE and verdict.play is not None
    outcome = replay(side, C.rules, 2, verdict.play)
    assert outcome.problems == () and outcome.turns == verdict.turns
    assert meets(outcome, [card.objective], C.words, side)
    assert outcome.my_builds <= verdict.turns  # type: ignore[operator]
