"""Shapes judged in every colouring at once, shape libraries, and the solver's use of them."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tower_print.brix.checker import problems
from tower_print.brix.decks import Deck, shipped_deck
from tower_print.brix.evaluate import holds
from tower_print.brix.generate import ConditionDrawer, default_spec
from tower_print.brix.geometry import is_connected
from tower_print.brix.language import Condition, describe, parse
from tower_print.brix.sampling import sample_towers
from tower_print.brix.search import TowerSearch
from tower_print.brix.shape_library import library_folder, load_library, shape_library
from tower_print.brix.shape_training import greedy_shapes, shape_of
from tower_print.brix.shapes import (
    Shape,
    ShapeLibrary,
    arrangements,
    colour_mixes,
    colourings,
    merged,
    named_colours,
)
from tower_print.brix.solver import Labeled, TowerSolver
from tower_print.brix.statics import stands
from tower_print.cli import app
from tower_print.content import ContentError

GREEN = shipped_deck("green")
PINK = shipped_deck("pink")


def test_arrangements_are_every_distinct_colouring_once() -> None:
    rows = arrangements((2, 2, 2, 2))
    assert len(rows) == 2520  # 8! / 2!^4
    assert len({tuple(r) for r in rows}) == 2520
    assert all(Counter(r.tolist()) == {0: 2, 1: 2, 2: 2, 3: 2} for r in rows)


def test_subset_rule_colourings_keep_one_brick_of_each_colour() -> None:
    mixes = colourings(PINK.bricks, False, 6)
    assert mixes, "six bricks can hold all five colours"
    for rows in mixes:
        for row in rows:
            counts = Counter(row.tolist())
            assert set(counts) == set(range(5))
            assert all(counts[c] <= len(PINK.bricks.by_color(name))
                       for c, name in enumerate(PINK.bricks.color_names))
    assert colourings(PINK.bricks, False, 4) == []  # too few bricks for five colours


def generated_conditions(deck: Deck, count: int) -> list[Condition]:
    """Conditions as `brix generate` draws them: shapes of clause the decks may not use."""
    drawer = ConditionDrawer(default_spec(), deck.bricks.color_names, random.Random(11))
    return [drawer.condition() for _ in range(count)]


@pytest.mark.parametrize(("deck", "source"), [(GREEN, "cards"), (PINK, "cards"),
                                              (GREEN, "generated"), (PINK, "generated")],
                         ids=["green", "pink", "green-generated", "pink-generated"])
def test_conditions_read_each_colouring_as_the_evaluator_does(deck, source) -> None:  # noqa: ANN001
    """The numpy reading of every card (and of conditions `generate` draws), on sampled
    standing shapes in random colourings, is the plain evaluator's: a second implementation of
    the semantics, so it is checked against the first on everything the decks can say."""
    conditions = ([c.condition for c in deck.cards] if source == "cards"
                  else generated_conditions(deck, 120))
    rng = random.Random(5)
    disagreements = []
    for tower in sample_towers(deck.bricks, deck.all_used, 12, seed=3):
        shape = Shape(shape_of(tower), deck.bricks)
        for rows in colourings(deck.bricks, deck.all_used, len(tower)):
            picked = rows[sorted(rng.sample(range(len(rows)), min(6, len(rows))))]
            for condition in conditions:
                fast = shape.meets(condition, picked)
                for row, verdict in zip(picked, fast, strict=True):
                    slow = holds(condition, shape.tower(row), deck.bricks)
                    if slow != bool(verdict):
                        disagreements.append((describe(condition), shape.boxes, row.tolist()))
    assert disagreements == []


@pytest.mark.parametrize("deck", [GREEN, PINK], ids=["green", "pink"])
def test_colourings_merged_as_a_card_sees_them_give_the_same_verdicts(deck) -> None:  # noqa: ANN001
    """A card judged on the colourings with the colours it does not name merged (`merged`)
    holds on exactly the colourings it holds on when judged on all of them."""
    shrunk = 0
    for tower in sample_towers(deck.bricks, deck.all_used, 3, seed=8):
        shape = Shape(shape_of(tower), deck.bricks)
        for mix in colour_mixes(deck.bricks, deck.all_used, len(tower)):
            everyone = arrangements(mix)
            for card in deck.cards:
                rows, inverse = merged(mix, named_colours(card.condition, deck.bricks))
                assert (shape.meets(card.condition, rows)[inverse]
                        == shape.meets(card.condition, everyone)).all(), card.id
                shrunk += len(rows) < len(everyone)
    assert shrunk  # cards naming few colours see fewer colourings


def test_library_witness_is_a_checked_tower_meeting_the_cards() -> None:
    conditions = [parse(t, GREEN.bricks.color_names) for t in (
        "every red brick rests on some blue brick", "no yellow brick touches any purple brick")]
    towers = sample_towers(GREEN.bricks, True, 30, seed=8)
    library = ShapeLibrary([shape_of(t) for t in towers], GREEN.bricks, True)
    tower = library.witness(conditions)
    assert tower is not None
    assert library.witness(conditions) == tower  # what it learnt on the way skips, not changes
    labelled = [(f"C{k}", c) for k, c in enumerate(conditions)]
    assert problems(tower, GREEN.bricks, True, labelled) == []
    impossible = parse("there are exactly 3 bricks", GREEN.bricks.color_names)
    assert library.witness([impossible]) is None
    assert library.witness(conditions, stop=lambda: True) is None


def test_solver_takes_the_library_tower_before_searching() -> None:
    """The library's tower is the search's answer at move 0, so it is the verdict's tower
    even when Z3 finds another."""
    towers = sample_towers(GREEN.bricks, True, 5, seed=2)
    shape = Shape(shape_of(towers[0]), GREEN.bricks)
    library = ShapeLibrary([shape.boxes], GREEN.bricks, True)
    cards = [Labeled("C1", "every red brick touches some blue brick",
                     parse("every red brick touches some blue brick", GREEN.bricks.color_names))]
    expected = library.witness([c.condition for c in cards])
    if expected is None:
        pytest.fail("the sampled shape should take some colouring with red beside blue")
    solver = TowerSolver(GREEN.bricks, True, library=library)
    verdict = solver.verify(cards, 60)
    assert verdict.status == "solvable" and verdict.tower == expected


def test_nearest_ranks_each_shape_by_its_best_colouring() -> None:
    """Each shape once, in a colouring no other colouring of it beats (checked with the plain
    evaluator on a sample), the towers meeting the most cards first."""
    colours = PINK.bricks.color_names
    conditions = [parse(t, colours) for t in (
        "every red brick rests on some blue brick", "no yellow brick touches any purple brick",
        "at most 2 bricks touch the ground", "some gray brick is the highest")]
    towers = sample_towers(PINK.bricks, False, 8, seed=6)
    library = ShapeLibrary([shape_of(t) for t in towers], PINK.bricks, False)
    search = TowerSearch(PINK.bricks, False)
    near = library.nearest(conditions, lambda t: search.shortfall(t, conditions))

    def met(tower) -> int:  # noqa: ANN001
        return sum(holds(c, tower, PINK.bricks) for c in conditions)

    counts = [met(t) for t in near]
    ranks = [(-met(t), search.shortfall(t, conditions)) for t in near]
    assert ranks == sorted(ranks)
    assert sorted(shape_of(t) for t in near) == sorted(library.boxes)
    rng = random.Random(3)
    for tower, count in zip(near, counts, strict=True):
        shape = library.shape(library.boxes.index(shape_of(tower)))
        for rows in colourings(PINK.bricks, False, len(shape.boxes)):
            for row in rows[rng.sample(range(len(rows)), min(20, len(rows)))]:
                assert met(shape.tower(row)) <= count
    assert library.nearest(conditions, len, stop=lambda: True) == []


def test_solver_search_starts_from_the_library_near_misses(monkeypatch) -> None:  # noqa: ANN001
    towers = sample_towers(GREEN.bricks, True, 4, seed=9)
    library = ShapeLibrary([shape_of(t) for t in towers], GREEN.bricks, True)
    card = Labeled("C1", "", parse("at most 1 brick touches the ground", GREEN.bricks.color_names))
    seen = []
    original = TowerSearch.find

    def spy(self, conditions, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if "start" not in kwargs:  # not a repair of a Z3 candidate (the Z3 thread's)
            seen.append(kwargs.get("restarts"))
        return original(self, conditions, *args, **kwargs)

    monkeypatch.setattr(TowerSearch, "find", spy)
    if library.witness([card.condition]) is not None:
        pytest.fail("no sampled shape should stand on a single brick")
    TowerSolver(GREEN.bricks, True, library=library).verify([card], 60)
    search = TowerSearch(GREEN.bricks, True)
    expected = library.nearest([card.condition], lambda t: search.shortfall(t, [card.condition]))
    assert seen and seen[0] == expected


@pytest.mark.parametrize("deck", [GREEN, PINK], ids=["green", "pink"])
def test_shipped_library_shapes_are_connected_and_stand(deck) -> None:  # noqa: ANN001
    library = shape_library(deck.bricks, deck.all_used)
    assert library is not None and len(library.boxes) >= 20
    for k in range(len(library.boxes)):
        shape = library.shape(k)
        tower = shape.tower(colourings(deck.bricks, deck.all_used, len(shape.boxes))[0][0])
        assert is_connected(tower) and stands(tower, deck.bricks.stability_margin)


def test_library_is_not_used_with_other_bricks() -> None:
    path = library_folder() / "green.yaml"
    other = GREEN.bricks.__class__(**{**GREEN.bricks.__dict__, "stability_margin": 0.3})
    assert load_library(path, other, True) is None
    assert load_library(path, GREEN.bricks, False) is None
    assert load_library(path, GREEN.bricks, True) is not None


def test_a_bad_box_is_named_with_file_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "lib.yaml"
    head = "rule: all\nbrick: {length: 4, width: 2, thickness: 2}\nstability_margin: 0.25\n"
    for shape, message in (("0 0 0 4 2 2 / 0 0 2 3 2 2", "box 2: 3 x 2 x 2 is not"),
                           ("0 0 0 4 2 2 / 1 0 0 4 2 2", "box 2 overlaps"),
                           ("0 0 0 4 2", "box 1: expected six whole numbers")):
        path.write_text(head + f"shapes:\n  - 0 0 0 4 2 2\n  - {shape}\n")
        with pytest.raises(ContentError) as error:
            load_library(path, GREEN.bricks, True)
        assert "lib.yaml:6" in str(error.value) and "shapes[1]" in str(error.value)
        assert message in str(error.value)


def test_greedy_order_puts_the_widest_shape_first_and_drops_the_redundant() -> None:
    towers = sample_towers(GREEN.bricks, True, 3, seed=4)
    colours = GREEN.bricks.color_names
    anything = Labeled("A", "", parse("some brick touches some brick", colours))
    solved = [((anything,), towers[0]), ((anything,), towers[1]), ((anything,), towers[2])]
    # Every shape meets "some brick touches some brick" in any colouring: one shape is enough.
    assert greedy_shapes(solved, GREEN.bricks, True) == [shape_of(towers[0])]
    # A shape kept from an extended library comes first and makes the others redundant.
    assert greedy_shapes(solved, GREEN.bricks, True, kept=[shape_of(towers[2])]) == [
        shape_of(towers[2])]
    tall = Labeled("T", "", parse("the tower is at least 30 flat bricks tall", colours))
    assert greedy_shapes([((tall,), towers[0])], GREEN.bricks, True) == []


def test_shapes_command_builds_the_same_library_twice(tmp_path: Path) -> None:
    runner = CliRunner()
    outputs = []
    for name in ("a.yaml", "b.yaml"):
        result = runner.invoke(app, ["brix", "shapes", "--deck", "green", "--level", "easy",
                                     "--deals", "3", "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        outputs.append((tmp_path / name).read_text().replace(name, "NAME"))
    assert outputs[0] == outputs[1]
    library = load_library(tmp_path / "a.yaml", GREEN.bricks, True)
    assert library is not None and library.boxes
    # Extending keeps the old shapes first and records both commands.
    result = runner.invoke(app, ["brix", "shapes", "--deck", "green", "--level", "easy",
                                 "--deals", "2", "--seed", "6", "--extend",
                                 str(tmp_path / "a.yaml"), "--out", str(tmp_path / "c.yaml")])
    assert result.exit_code == 0, result.output
    extended = load_library(tmp_path / "c.yaml", GREEN.bricks, True)
    assert extended is not None and extended.boxes[:len(library.boxes)] == library.boxes
    assert len(extended.boxes) > len(library.boxes)  # these two deals need a shape of their own
    header = (tmp_path / "c.yaml").read_text()
    assert "# Built by: tower-print brix shapes --deck green --seed 2 --seed 3" in header
    assert "# Extended by: tower-print brix shapes --deck green --seed 6 --level easy" in header
