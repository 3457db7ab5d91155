"""Generated decks: negation is exact, cards carry their proofs, the deck loads, prints and
passes the audit, and the same seed gives the same file."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tower_print.brix.audit import AuditSettings, Explorer
from tower_print.brix.audit_report import card_prices
from tower_print.brix.bricks import default_bricks
from tower_print.brix.checker import problems
from tower_print.brix.decks import load_deck
from tower_print.brix.difficulty import pool
from tower_print.brix.evaluate import holds
from tower_print.brix.generate import (
    ConditionDrawer,
    DistinctProver,
    card_text,
    deck_yaml,
    default_spec,
    generate_deck,
    text_environment,
)
from tower_print.brix.implications import negations
from tower_print.brix.language import Condition, parse
from tower_print.brix.sampling import sample_towers
from tower_print.brix.solver import SOLVABLE, UNSOLVABLE
from tower_print.cli import app

GREEN = ("yellow", "purple", "red", "blue")
GREEN_BRICKS = default_bricks().subset(GREEN)


@pytest.mark.parametrize("rule", ["all", "subset"])
def test_negations_hold_exactly_when_the_condition_fails(rule: str) -> None:
    spec = default_spec()
    colours = spec.rules[rule].colors
    bricks = default_bricks().subset(colours)
    towers = sample_towers(bricks, rule == "all", 40, seed=2)
    drawer = ConditionDrawer(spec, colours, random.Random(9))
    for _ in range(150):
        condition = drawer.condition()
        for tower in towers:
            negated = any(holds(n, tower, bricks) for n in negations(condition))
            assert negated != holds(condition, tower, bricks), condition


def test_solver_tells_equivalent_cards_from_different_ones() -> None:
    prover = DistinctProver(GREEN_BRICKS, True, seed=0, timeout=60)

    def condition(text: str):  # type: ignore[no-untyped-def]
        return parse(text, GREEN)

    same = prover.distinct(condition("no red brick is vertical"),
                           condition("every red brick is horizontal"))
    assert same == UNSOLVABLE
    different = prover.distinct(condition("every red brick is vertical"),
                                condition("some red brick is vertical"))
    assert different == SOLVABLE


@pytest.fixture(scope="module")
def small_deck(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    generated = generate_deck(10, 4, seed=5, rule="all", name="small")
    path = tmp_path_factory.mktemp("gen") / "small.yaml"
    path.write_text(deck_yaml(generated, "test"), encoding="utf-8")
    return generated, path


def test_generated_deck_loads_back_as_written(small_deck) -> None:  # type: ignore[no-untyped-def]
    generated, path = small_deck
    loaded = load_deck(path)
    assert [(c.id, c.points, c.text, c.condition) for c in loaded.cards] == [
        (c.id, c.points, c.text, c.condition) for c in generated.deck.cards]
    assert sum(c.points == 3 for c in loaded.cards) == 4
    assert loaded.rule == "all" and loaded.bricks.color_names == GREEN


def test_same_seed_same_deck(small_deck) -> None:  # type: ignore[no-untyped-def]
    generated, _ = small_deck
    again = generate_deck(10, 4, seed=5, rule="all", name="small")
    assert deck_yaml(again, "test") == deck_yaml(generated, "test")
    other = generate_deck(10, 4, seed=6, rule="all", name="small")
    assert deck_yaml(other, "test") != deck_yaml(generated, "test")


def test_every_card_is_met_and_violated_by_standing_towers(small_deck) -> None:  # type: ignore[no-untyped-def]
    """The generator's evidence, re-checked: for each card a tower of the reference pool that
    meets it and one that violates it, both legal and standing by the independent checker."""
    generated, _ = small_deck
    deck = generated.deck
    towers = pool(deck.bricks, True).towers
    for card in deck.cards:
        meeting = next(t for t in towers if holds(card.condition, t, deck.bricks))
        violating = next(t for t in towers if not holds(card.condition, t, deck.bricks))
        assert problems(meeting, deck.bricks, True, [(card.id, card.condition)]) == []
        assert problems(violating, deck.bricks, True, []) == []


def test_cards_pairwise_not_equivalent(small_deck) -> None:  # type: ignore[no-untyped-def]
    """For each pair a tower meeting one and not the other: from a pool, else the solver."""
    generated, _ = small_deck
    deck = generated.deck
    reference = pool(deck.bricks, True)
    prover = DistinctProver(deck.bricks, True, seed=1, timeout=60)
    for a, b in combinations(deck.cards, 2):
        if reference.mask(a.condition) != reference.mask(b.condition):
            continue
        assert prover.distinct(a.condition, b.condition) == SOLVABLE, (a.id, b.id)


def test_each_clause_of_a_two_clause_card_matters() -> None:
    """No clause decides its card alone on the pool (a tautological or implied clause would
    read as noise: "there are at least no yellow bricks"), and no count is "at least 0"."""
    deck = generate_deck(40, 16, seed=1, rule="all", name="clauses").deck
    reference = pool(deck.bricks, True)
    two_clause = [card for card in deck.cards if len(card.condition.clauses) > 1]
    assert two_clause
    for card in two_clause:
        whole = reference.mask(card.condition)
        for clause in card.condition.clauses:
            assert reference.mask(Condition((clause,))) != whole, card.text
    assert not any(f"{kind} no " in card.text.lower()
                   for kind in ("at least", "at most", "exactly") for card in deck.cards)


@pytest.mark.parametrize(("condition", "words"), [
    ("some purple brick is below every purple brick",
     "At least one purple brick is below every other purple brick."),
    ("some purple brick touches every blue brick",
     "At least one purple brick touches every blue brick."),
    ("every blue brick touches a blue horizontal brick",
     "Each blue brick touches another blue flat brick."),
    ("no blue brick touches any brick", "No blue brick touches any other brick."),
    ("every vertical brick touches a horizontal brick", "Each upright brick touches a flat brick."),
])
def test_card_says_other_where_one_brick_could_be_both(condition: str, words: str) -> None:
    """A brick is never related to itself: without "other" the first card could never hold."""
    assert card_text(parse(condition, GREEN), text_environment()) == words


def test_points_follow_measured_difficulty(small_deck) -> None:  # type: ignore[no-untyped-def]
    generated, _ = small_deck
    deck = generated.deck
    assert all(p.verdict == "ok" for p in card_prices(deck))
    share = {c.id: generated.shares[c.id] for c in deck.cards}
    hardest_two = min(share[c.id] for c in deck.cards if c.points == 2)
    assert all(share[c.id] <= hardest_two for c in deck.cards if c.points == 3)


def test_generated_deck_passes_the_audit(tmp_path: Path) -> None:
    generated = generate_deck(6, 2, seed=8, rule="subset", name="tiny")
    path = tmp_path / "tiny.yaml"
    path.write_text(deck_yaml(generated, "test"), encoding="utf-8")
    deck = load_deck(path)
    settings = AuditSettings(seed=1, timeout=60, samples=250, deals=50, deal_seeds=5)
    found = Explorer(deck, settings, tmp_path / "cache").run(jobs=2)
    assert found.complete
    assert all(m.bit_count() >= 2 for m in found.muses)  # every card solvable alone


def test_generate_and_print_from_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "mine.yaml"
    result = runner.invoke(app, ["brix", "generate", "--cards", "4", "--three-point", "1",
                                 "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.is_file() and (tmp_path / "mine.examples.yaml").is_file()
    printed = runner.invoke(app, ["brix", "print", "--deck", str(out), "--out",
                                  str(tmp_path / "kit")])
    assert printed.exit_code == 0, printed.output
    assert (tmp_path / "kit" / "towerbrix-mine-cards.pdf").is_file()


@pytest.mark.parametrize("args", [
    ["--cards", "4", "--three-point", "5"],
    ["--cards", "4", "--deck-rule", "some"],
    ["--cards", "4", "--out-suffix", ".txt"],
])
def test_bad_requests_write_nothing(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "deck.yaml"
    if "--out-suffix" in args:
        out = tmp_path / "deck.txt"
        args = args[:2]
    result = CliRunner().invoke(app, ["brix", "generate", *args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []
