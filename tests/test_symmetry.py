"""Colours the cards cannot tell apart, and the colour and brick orders that break that symmetry
in Z3."""

from __future__ import annotations

import dataclasses
import random

import z3
from towers import pin

from tower_print.brix.decks import shipped_deck
from tower_print.brix.evaluate import holds
from tower_print.brix.language import parse
from tower_print.brix.model import TowerModel
from tower_print.brix.sampling import bricks_for_rule, random_tower
from tower_print.brix.statics import stands
from tower_print.brix.symmetry import (
    colourings,
    interchangeable_colours,
    keeps_symmetry,
    most_symmetric_without_one,
    unnamed_colours,
)

PINK = shipped_deck("pink")
GREEN = shipped_deck("green")
COLOURED = ("yellow", "purple", "red", "blue")


def conditions(deck, *ids: str) -> list:  # noqa: ANN001
    cards = {c.id: c for c in deck.cards}
    return [cards[i].condition for i in ids]


def test_cards_naming_no_colour_leave_every_colour_of_equal_count_interchangeable() -> None:
    # P33 P43 P44 P31 P24 speak of gray only; gray has one brick and the others two, so gray
    # stays apart.
    cards = conditions(PINK, "P33", "P43", "P44", "P31", "P24")
    assert interchangeable_colours(cards, PINK.bricks) == (COLOURED,)
    assert colourings(interchangeable_colours(cards, PINK.bricks)) == 24


def test_a_card_naming_colours_keeps_only_the_swaps_it_allows() -> None:
    # P32: some red brick touches every yellow brick; purple and blue may still swap.
    cards = conditions(PINK, "P33", "P43", "P44", "P32", "P31", "P24")
    assert interchangeable_colours(cards, PINK.bricks) == (("purple", "blue"),)
    assert most_symmetric_without_one(cards, PINK.bricks) == 3  # dropping P32 gives 24
    assert keeps_symmetry(cards, [("purple", "blue")], PINK.bricks)
    assert not keeps_symmetry(cards, [("red", "blue")], PINK.bricks)


def test_a_swap_must_map_the_cards_onto_themselves_not_onto_others() -> None:
    one_way = [parse("every red brick touches some blue brick", COLOURED)]
    both_ways = one_way + [parse("every blue brick touches some red brick", COLOURED)]
    assert interchangeable_colours(one_way, GREEN.bricks) == (("yellow", "purple"),)
    assert interchangeable_colours(both_ways, GREEN.bricks) == (
        ("yellow", "purple"), ("red", "blue"))
    assert most_symmetric_without_one(both_ways, GREEN.bricks) is None


def _ranked(tower: tuple, block: tuple[str, ...]) -> list[str]:  # noqa: ANN001
    """The colours of `block` by their first brick (lowest, then by x, then y)."""
    return sorted(block, key=lambda colour: min((b.z, b.x, b.y) for b in tower
                                                if b.color == colour))


def _in_order(tower: tuple, block: tuple[str, ...]) -> tuple:  # noqa: ANN001
    """The tower recoloured so that the first brick of each colour of `block` comes in the
    block's order: what the colour order promises to admit."""
    rename = dict(zip(_ranked(tower, block), block, strict=True))
    counters: dict[str, int] = {}
    out = []
    for b in sorted(tower, key=lambda b: (b.z, b.x, b.y)):
        colour = rename.get(b.color, b.color)
        counters[colour] = counters.get(colour, 0) + 1
        out.append(dataclasses.replace(b, color=colour, name=f"{colour}-{counters[colour]}"))
    return tuple(out)


def test_the_colour_order_admits_every_standing_tower_once_recoloured() -> None:
    """Soundness of the order: for random standing towers meeting colour-blind cards, the
    tower recoloured into order passes the model with the order assumed, and (checking the
    literal does something) the colourings out of order do not."""
    cards = [parse("every brick touches at least 1 brick", COLOURED),
             parse("at most 4 bricks are vertical", COLOURED)]
    rng = random.Random(5)
    checked = refused = 0
    for deck in (GREEN, PINK):
        block = interchangeable_colours(cards, deck.bricks)[0]
        assert block == COLOURED
        while checked < 6 * (1 + (deck is PINK)):
            tower = random_tower(deck.bricks, rng, bricks_for_rule(deck.bricks, deck.all_used,
                                                                   rng))
            if tower is None or not stands(tower, deck.bricks.stability_margin) or not all(
                    holds(c, tower, deck.bricks) for c in cards):
                continue
            already = _ranked(tower, block) == list(block)
            for variant, admitted in ((_in_order(tower, block), True), (tower, already)):
                model = TowerModel(deck.bricks, deck.all_used)
                pin(model, variant)
                for c in cards:
                    model.solver.add(model.condition(c))
                verdict = model.solver.check(model.colour_order(block))
                assert (verdict == z3.sat) == admitted, variant
                refused += not admitted
            checked += 1
    assert refused > 0


def test_colours_no_card_names_may_differ_in_count_and_still_trade_bricks() -> None:
    # P33 P43 P44 P31 P24 name gray only: the four colours of two bricks are unnamed. Gray has
    # one brick, so no colour swap takes it, but in a set that names no colour its brick may
    # trade places with any other: a proof with all five in brick order holds for the set.
    cards = conditions(PINK, "P33", "P43", "P44", "P31", "P24")
    assert unnamed_colours(cards, PINK.bricks) == COLOURED
    blind = [parse("at most 4 bricks are vertical", (*COLOURED, "gray"))]
    everything = (*COLOURED, "gray")
    assert unnamed_colours(blind, PINK.bricks) == everything
    assert keeps_symmetry(blind, [everything], PINK.bricks)
    assert not keeps_symmetry(cards, [everything], PINK.bricks)


def _in_brick_order(tower: tuple, colours: tuple[str, ...], deck) -> tuple:  # noqa: ANN001
    """The tower relabelled as `TowerModel.brick_order` promises to admit: its bricks of
    `colours`, lowest first (then by x, then y), take the names of the sequence first brick of
    each colour, then the second of each."""
    groups = [deck.bricks.by_color(c) for c in colours]
    sequence = [g[rank] for rank in range(max(len(g) for g in groups)) for g in groups
                if rank < len(g)]
    movable = sorted((b for b in tower if b.color in colours), key=lambda b: (b.z, b.x, b.y))
    renamed = [dataclasses.replace(b, color=brick.color, name=brick.name)
               for b, brick in zip(movable, sequence, strict=False)]
    return tuple(b for b in tower if b.color not in colours) + tuple(renamed)


def test_the_brick_order_admits_every_standing_tower_once_relabelled() -> None:
    """Soundness of the brick order, under both brick rules: random standing towers meeting
    cards that name no colour pass the model with every brick in order once relabelled, and
    (checking the literal does something) most as drawn do not."""
    rng = random.Random(7)
    for deck in (GREEN, PINK):
        colours = deck.bricks.color_names
        cards = [parse("every brick touches at least 1 brick", colours),
                 parse("at most 4 bricks are vertical", colours)]
        assert unnamed_colours(cards, deck.bricks) == colours
        checked = refused = 0
        while checked < 8:
            tower = random_tower(deck.bricks, rng, bricks_for_rule(deck.bricks, deck.all_used,
                                                                   rng))
            if tower is None or not stands(tower, deck.bricks.stability_margin) or not all(
                    holds(c, tower, deck.bricks) for c in cards):
                continue
            ordered = _in_brick_order(tower, colours, deck)
            assert holds(cards[0], ordered, deck.bricks) and stands(
                ordered, deck.bricks.stability_margin)
            for variant in (ordered, tower):
                model = TowerModel(deck.bricks, deck.all_used)
                pin(model, variant)
                for c in cards:
                    model.solver.add(model.condition(c))
                admitted = model.solver.check(model.brick_order(colours)) == z3.sat
                assert admitted or variant is tower, variant
                refused += not admitted
            checked += 1
        assert refused >= 4, deck
