"""Measured difficulty: the Wilson interval, the bands, and the share on a known case."""

from __future__ import annotations

import random

import pytest

from tower_print.brix.decks import shipped_deck
from tower_print.brix.difficulty import (
    Closest,
    Settings,
    TowerPool,
    default_settings,
    load_settings,
    measure,
    wilson,
)
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.language import parse
from tower_print.content import ContentError


def test_wilson_covers_the_true_share_about_95_percent_of_the_time() -> None:
    rng = random.Random(5)
    for truth in (0.002, 0.03, 0.5):
        covered = 0
        for _ in range(400):
            hits = sum(rng.random() < truth for _ in range(300))
            low, high = wilson(hits, 300, 1.96)
            covered += low <= truth <= high
        assert covered >= 360, (truth, covered)  # 95 % nominal; 90 % is far outside the noise


def test_wilson_at_zero_hits_is_an_upper_bound_only() -> None:
    low, high = wilson(0, 1000, 1.96)
    assert low == 0.0
    assert high == pytest.approx(1.96**2 / (1000 + 1.96**2))
    assert wilson(1000, 1000, 1.96)[1] == 1.0


def test_measured_share_contains_the_truth_on_a_constructed_case() -> None:
    """Pink deck: the sampler draws each colour's count uniformly, so a tower has both yellow
    bricks exactly half the time, and both yellow and both purple a quarter of the time."""
    deck = shipped_deck("pink")
    both_yellow = parse("there are exactly 2 yellow bricks", deck.bricks.color_names)
    both_purple = parse("there are exactly 2 purple bricks", deck.bricks.color_names)
    pool = TowerPool(deck.bricks, deck.all_used, samples=300, seed=11)
    one = pool.measure([both_yellow])
    two = pool.measure([both_yellow, both_purple])
    assert one.low <= 0.5 <= one.high
    assert two.low <= 0.25 <= two.high
    assert two.hits <= one.hits and one.samples == 300
    assert one.share == one.hits / 300


def test_no_hits_reads_hard_with_an_honest_bound() -> None:
    deck = shipped_deck("green")
    never = parse("there are more than 8 bricks", deck.bricks.color_names)
    found = measure([never], deck.bricks, deck.all_used, seed=2, samples=50)
    assert found.hits == 0 and found.share == 0.0 and found.low == 0.0
    assert 0 < found.high < 0.1
    assert found.level == "hard"
    assert "none of 50" in found.text()


def test_a_set_no_tower_meets_says_how_close_the_pool_comes() -> None:
    """With no hits, the fewest cards a pool tower misses and how many towers miss only that
    many, counted here tower by tower with the evaluator; nothing of it when a tower meets the
    set, or when none meets the required conditions (a challenge's)."""
    deck = shipped_deck("green")
    cards = [parse(text, deck.bricks.color_names) for text in (
        "there are more than 8 bricks", "every blue brick touches some red brick",
        "no red brick touches any yellow brick")]
    pool = TowerPool(deck.bricks, deck.all_used, samples=80, seed=4)
    missed = [sum(not Evaluator(tower, deck.bricks).condition(c) for c in cards)
              for tower in pool.towers]
    found = pool.measure(cards)
    fewest = min(missed)
    assert found.hits == 0 and fewest >= 1
    assert found.closest == Closest(fewest, 3, missed.count(fewest))
    towers = f"{missed.count(fewest)} towers come" if missed.count(fewest) > 1 else "1 tower comes"
    assert found.text().endswith(f"; {towers} closest, missing {fewest} of the 3 cards")
    assert found.as_json()["closest"] == {
        "cards_missed": fewest, "cards": 3, "towers": missed.count(fewest)}
    met = pool.measure(cards[1:])
    assert met.hits > 0 and met.closest is None and met.as_json()["closest"] is None
    assert pool.measure(cards[1:], required=cards[:1]).closest is None


def test_bands_come_from_content_and_are_validated(tmp_path) -> None:
    settings = default_settings()
    assert settings.level(0.5) == "easy" and settings.level(0.0) == "hard"
    low, high = settings.band("medium")
    assert settings.level(low) == "medium" and settings.level(high) != "medium"
    # The shipped pool's zero-hit bound must read as hard (see the content file's comment).
    zero_bound = wilson(0, settings.samples, settings.z)[1]
    assert settings.level(zero_bound) == "hard"
    bad = tmp_path / "difficulty.yaml"
    bad.write_text("samples: 10\nseed: 1\nz: 1.96\nbands:\n  - {level: easy, min: 0.1}\n"
                   "  - {level: hard, min: 0.2}\n")
    with pytest.raises(ContentError, match=r"difficulty.yaml:6: bands\[1\].min"):
        load_settings(bad)


def test_settings_band_rejects_unknown_level() -> None:
    with pytest.raises(ValueError):
        Settings(10, 1, 1.96, (("hard", 0.0),)).band("easy")


def test_pool_cache_gives_the_same_towers_and_answers(tmp_path) -> None:
    deck = shipped_deck("green")
    cards = [c.condition for c in deck.cards[:3]]
    fresh = TowerPool(deck.bricks, True, samples=40, seed=9, cache=tmp_path)
    first = fresh.measure(cards)
    fresh.save()
    files = list(tmp_path.glob("pool-*.json"))
    assert len(files) == 1
    again = TowerPool(deck.bricks, True, samples=40, seed=9, cache=tmp_path)
    assert again.towers == fresh.towers
    assert again._judges is None  # nothing re-evaluated: the masks came from the file
    assert again.measure(cards) == first
    # A broken file is ignored and the pool sampled again.
    files[0].write_text("{not json")
    broken = TowerPool(deck.bricks, True, samples=40, seed=9, cache=tmp_path)
    assert broken.towers == fresh.towers and broken.measure(cards) == first


def test_a_pool_of_given_towers_keeps_its_verdicts_under_its_own_name(tmp_path) -> None:
    """The audits' towers judged as a pool (`towers`): those very towers, never sampled; their
    verdicts cached under a name of their own, read back by the next run."""
    deck = shipped_deck("green")
    cards = [c.condition for c in deck.cards[:3]]
    sampled = TowerPool(deck.bricks, True, samples=40, seed=9, cache=tmp_path)
    given = sampled.towers[5:25]
    fresh = TowerPool(deck.bricks, True, 0, 0, cache=tmp_path, towers=given)
    assert fresh.towers == given
    first = fresh.measure(cards)
    fresh.save()
    sampled.measure(cards)
    sampled.save()
    assert len(list(tmp_path.glob("pool-*.json"))) == 2  # not the sampled pool's file
    again = TowerPool(deck.bricks, True, 0, 0, cache=tmp_path, towers=given)
    assert again.measure(cards) == first and again._judges is None
    other = TowerPool(deck.bricks, True, 0, 0, cache=tmp_path, towers=given[1:])
    assert other.towers == given[1:] and not other._stored  # other towers: not those verdicts
