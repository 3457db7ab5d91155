"""Tower Up content: the board, deck, numbers and objective cards load, and a broken file is
refused with its file, line and field."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tower_print.content import ContentError, UserError, content_root
from tower_print.towerup.board import load_board
from tower_print.towerup.components import load_rules
from tower_print.towerup.game import default_content
from tower_print.towerup.objectives import (
    Count,
    Filter,
    Group,
    RoofFact,
    Spread,
    holds,
    parse,
)

FOLDER = content_root() / "towerup"
C = default_content()


def edited(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (FOLDER / name).read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_both_sides_have_every_district_streets_of_1_to_5_and_suit_their_player_counts() -> None:
    assert C.board.side("front").players == (3, 4) and C.board.side("back").players == (2,)
    for side in C.board.sides.values():
        assert {side.district_of[s] for s in side.site_ids} == set(C.board.districts)
        assert all(1 <= len(n) <= 5 for n in side.neighbours.values())
        assert len(side.start_sites) == C.rules.market_size
    assert len(C.board.side("back").sites) < len(C.board.side("front").sites)


@pytest.mark.parametrize(("old", "new", "field", "message"), [
    ("F22: {district: canal, x: 97, y: 104}", "F22: {district: moon, x: 97, y: 104}",
     "sides.front.sites.F22.district", "unknown district 'moon'"),
    ("      - [F00, F10]\n", "      - [F00, F10]\n      - [F00, F11]\n      - [F01, F10]\n",
     "sides.front.streets", "streets F00-F11 and F01-F10 cross"),
    ("      - [B00, B10]\n", "", "sides.back.sites.B00", "site has 0 streets (expected 1-5)"),
    ("      - [B00, B10]\n", "      - [B00, B10]\n      - [X1, X2]\n", "sides.back.streets",
     "do not connect every site (cut off: X1, X2)"),
    ("      - [F00, F10]\n", "      - [F00, F10]\n      - [F00, F20]\n", "sides.front.streets",
     "street F00-F20 runs through site F10"),
    ("      - [F01, F02]\n", "      - [F01, F02]\n      - [F02, F01]\n",
     "sides.front.streets[2]", "street F02-F01 is a loop or a duplicate"),
    ("B01: {district: port", "B01: {district: canal", "sides.back.sites", ""),
])
def test_a_broken_board_names_file_line_and_field(tmp_path: Path, old: str, new: str,
                                                   field: str, message: str) -> None:
    path = edited(tmp_path, "board.yaml", old, new)
    if "X1" in new:  # two extra sites joined only to each other
        path.write_text(path.read_text().replace(
            "      B00:", "      X1: {district: port, x: 500, y: 500}\n"
                         "      X2: {district: port, x: 540, y: 500}\n      B00:"))
    if not message:  # the back side's only port sites: B00 B01 B10 -> make them all canal
        path.write_text(path.read_text().replace("B00: {district: port", "B00: {district: canal")
                        .replace("B10: {district: port", "B10: {district: canal"))
        message = "side 'back' has no site in district(s) port"
    with pytest.raises(ContentError) as caught:
        load_board(path)
    error = caught.value
    assert error.file == str(path) and error.line is not None
    assert error.field.startswith(field) and message in error.message


def test_a_site_with_six_streets_is_refused(tmp_path: Path) -> None:
    # F23 has five streets; a sixth to F12 crosses nothing (F12-F13-F23 is a triangle side).
    path = edited(tmp_path, "board.yaml", "      - [F01, F02]\n",
                  "      - [F01, F02]\n      - [F12, F23]\n")
    with pytest.raises(ContentError, match="F23: site has 6 streets"):
        load_board(path)


def test_deck_composition() -> None:
    deck = C.rules.deck
    assert len(deck) == 44 and all(2 <= len(c.items) <= 4 for c in deck)
    coloured = Counter(f for c in deck for f in c.floors if f != "wild")
    assert coloured == {c: 22 for c in C.rules.colours}
    assert sum(f == "wild" for c in deck for f in c.floors) == 16
    assert Counter(m for c in deck for m in c.moves) == {c: 4 for c in C.rules.colours}
    assert Counter(c.items[0] for c in deck) == {c: 11 for c in C.rules.colours}
    assert C.rules.max_card_floors == 4


@pytest.mark.parametrize(("old", "new", "message"), [
    ("  - [black, black]\n", "", "43 cards (expected 44)"),
    ("  - [black, black]\n", "  - [black, black, wild, wild, wild]\n", "5 items (expected 2-4)"),
    ("  - [black, black]\n", "  - [black, purple]\n", "'purple' is not a colour"),
    ("  - [black, black]\n", "  - [wild, black]\n", "the first item must be a floor"),
])
def test_a_broken_deck_is_refused_where_it_is(tmp_path: Path, old: str, new: str,
                                              message: str) -> None:
    path = edited(tmp_path, "deck.yaml", old, new)
    with pytest.raises(ContentError, match=re.escape(message)) as caught:
        load_rules(FOLDER / "rules.yaml", path)
    assert caught.value.file == str(path) and caught.value.line is not None


def test_rules_numbers_and_a_broken_rules_file(tmp_path: Path) -> None:
    rules = C.rules
    assert rules.chip_values(2) == (7, 5) and rules.chip_values(4) == (7, 5, 3, 3)
    assert len(rules.cone) == 8 and rules.cone_points(12) == rules.cone[7]
    assert all(rules.star_columns[-1] < len(t) for t in rules.tracks.values())
    path = edited(tmp_path, "rules.yaml", "star_columns: [2, 4, 6, 8]", "star_columns: [2, 40]")
    with pytest.raises(ContentError) as caught:
        load_rules(path, FOLDER / "deck.yaml")
    assert caught.value.field == "star_columns"
    assert caught.value.line == line_of(path, "star_columns: [2, 40]")


@pytest.mark.parametrize(("old", "new", "field"), [
    ("chips: [7, 5, 3, 3]", "chips: [3, 5, 7, 3]", "chips"),
    ("cone: [0, 1, 3, 5, 8, 11, 15, 20]", "cone: [0, 1, 3, 2]", "cone"),
    ("tie: share", "tie: coin", "tie"),
    ("  3: 3\n", "  3: 9\n", "chips_per_players.3"),
])
def test_rules_values_are_checked(tmp_path: Path, old: str, new: str, field: str) -> None:
    path = edited(tmp_path, "rules.yaml", old, new)
    with pytest.raises(ContentError) as caught:
        load_rules(path, FOLDER / "deck.yaml")
    assert caught.value.field == field
    assert caught.value.line == line_of(path, new.strip())


def test_objective_cards_are_ten_plus_three_starting_and_print_back_canonically() -> None:
    assert sum(c.starting for c in C.cards) == 3 and len(C.cards) == 13
    for card in C.cards:
        assert parse(card.objective.text(), C.words) == card.objective


def test_a_card_whose_formal_objective_does_not_parse_names_its_line(tmp_path: Path) -> None:
    from tower_print.towerup.objectives import load_objective_cards

    path = edited(tmp_path, "objectives.yaml", "formal: roofs in every district",
                  "formal: roofs in every districts")
    with pytest.raises(ContentError, match="at word 4 .'districts'.: expected 'district'") as e:
        load_objective_cards(path, C.words)
    assert e.value.field == "objectives[3].formal"
    assert e.value.line == line_of(path, "roofs in every districts")


@pytest.mark.parametrize(("text", "expected"), [
    ("at least 2 roofs", Count(2, Filter())),
    ("at least 1 visible roof in district port on black buildings on buildings at least 3 high",
     Count(1, Filter(True, "port", "black", 3))),
    ("roofs in at least 3 districts", Spread("district", 3, Filter())),
    ("visible roofs on buildings of every colour", Spread("colour", None, Filter(True))),
    ("roofs on gray buildings on 3 adjacent buildings", Group(3, Filter(colour="gray"))),
])
def test_objective_language(text: str, expected: object) -> None:
    objective = parse(text, C.words)
    assert objective.clauses == (expected,)
    assert parse(objective.text(), C.words) == objective


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("roofs in at least 6 districts", "only 5 districts"),
    ("at least two roofs", "word 3 ('two'): expected a whole number"),
    ("roofs on 2 adjacent buildings or roofs in every district", "word 6 ('or'): expected 'and'"),
    ("at least 2 roofs in district mars", "expected a district (port, hill"),
])
def test_objective_errors_name_the_word(text: str, message: str) -> None:
    with pytest.raises(UserError, match=re.escape(message)):
        parse(text, C.words)


def test_evaluator_counts_visible_heights_districts_colours_and_groups() -> None:
    side = C.board.side("front")
    roofs = [RoofFact("F22", "black", "canal", 3, False), RoofFact("F23", "white", "station", 1,
                                                                  True),
             RoofFact("F22", "black", "canal", 3, True)]

    def met(text: str) -> bool:
        return holds(parse(text, C.words), roofs, C.words, side.neighbours)

    assert met("at least 3 roofs") and not met("at least 4 roofs")
    assert met("at least 2 visible roofs") and not met("at least 3 visible roofs")
    assert met("at least 2 roofs on buildings at least 3 high")
    assert met("roofs in at least 2 districts") and not met("roofs in every district")
    assert met("visible roofs on buildings of at least 2 colours")
    assert met("roofs on 2 adjacent buildings") and not met("roofs on 3 adjacent buildings")
    assert not met("roofs on black buildings on 2 adjacent buildings")
