"""Colours a set of cards cannot tell apart, for breaking symmetry in the Z3 model.

When swapping two colours (every brick of one for every brick of the other: the same number of
bricks each) turns the cards into the same cards, every tower meeting them has a recoloured twin
that meets them too, and stands exactly when it does (stability does not see colour). Z3 would
meet, and have to exclude, each falling arrangement once per colouring; with the colours put in
a fixed order (`TowerModel.colour_order`) it meets one. A pink deal with one brick of each colour
and cards that name no colour has 24 colourings of every arrangement.

Swaps that keep the cards form connected groups of colours ("blocks"); the swaps within a block
generate every permutation of it, so any tower can be recoloured to put the block in order.
Only syntactic sameness is used (the cards' trees after the swap, colour lists sorted): a swap
that keeps the meaning but not the text is missed, which costs speed, never soundness.

Colours that no card names at all allow more: not only whole colours but single bricks of them
can trade places, so every brick of those colours is put in one order (`TowerModel.brick_order`,
`unnamed_colours`). Eight bricks of four colours, two each, that no card names have 105
recolourings left once the colours are in order, and one once the bricks are.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from itertools import combinations

from tower_print.brix.bricks import BrickSet
from tower_print.brix.language import Colour, Condition

Block = tuple[str, ...]


def _recoloured(node: object, swap: dict[str, str]) -> object:
    """`node` (a condition tree) with colours renamed by `swap`, colour lists sorted."""
    if isinstance(node, Colour):
        return Colour(tuple(sorted(swap.get(c, c) for c in node.colours)))
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return dataclasses.replace(node, **{
            f.name: _recoloured(getattr(node, f.name), swap) for f in dataclasses.fields(node)
        })
    if isinstance(node, tuple):
        return tuple(_recoloured(item, swap) for item in node)
    return node


def interchangeable_colours(
    conditions: Sequence[Condition], brick_set: BrickSet
) -> tuple[Block, ...]:
    """The blocks (two or more colours each, in the brick set's order) whose colours the
    conditions cannot tell apart: every permutation within a block keeps the set of
    conditions as it is."""
    cards = {_recoloured(c, {}) for c in conditions}
    colours = brick_set.color_names
    block_of = {c: {c} for c in colours}
    for a, b in combinations(colours, 2):
        if block_of[a] is block_of[b]:
            continue
        if len(brick_set.by_color(a)) != len(brick_set.by_color(b)):
            continue
        if {_recoloured(c, {a: b, b: a}) for c in cards} == cards:
            merged = block_of[a] | block_of[b]
            for c in merged:
                block_of[c] = merged
    blocks = {tuple(c for c in colours if c in block) for block in block_of.values()}
    return tuple(sorted((b for b in blocks if len(b) > 1), key=lambda b: colours.index(b[0])))


def unnamed_colours(conditions: Sequence[Condition], brick_set: BrickSet) -> Block:
    """The colours of the brick set that no condition names, in the brick set's order."""
    named: set[str] = set()
    for condition in conditions:
        named |= _named_colours(condition)
    return tuple(c for c in brick_set.color_names if c not in named)


def _named_colours(node: object) -> set[str]:
    if isinstance(node, Colour):
        return set(node.colours)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        parts: Sequence[object] = [getattr(node, f.name) for f in dataclasses.fields(node)]
    elif isinstance(node, tuple):
        parts = node
    else:
        return set()
    return set().union(*(_named_colours(part) for part in parts))


def colourings(blocks: Sequence[Block]) -> int:
    """How many recolourings the blocks allow (the factor the colour order saves)."""
    return math.prod(math.factorial(len(b)) for b in blocks)


def keeps_symmetry(
    conditions: Sequence[Condition], blocks: Sequence[Block], brick_set: BrickSet
) -> bool:
    """Do these conditions allow every permutation within each of `blocks` (of its colours, or
    of all its bricks when they name none of its colours)? Then a proof made with those blocks
    in order holds for them alone (an unsat core that used the order)."""
    found = interchangeable_colours(conditions, brick_set)
    unnamed = set(unnamed_colours(conditions, brick_set))
    return all(set(b) <= unnamed or any(set(b) <= set(f) for f in found) for b in blocks)


def most_symmetric_without_one(
    conditions: Sequence[Condition], brick_set: BrickSet
) -> int | None:
    """The position of the card whose removal leaves the rest the most colourings, when that
    is more than the whole set has (the first such card on ties); None when no card's removal
    gains any."""
    best, best_count = None, colourings(interchangeable_colours(conditions, brick_set))
    for k in range(len(conditions)):
        rest = [c for j, c in enumerate(conditions) if j != k]
        count = colourings(interchangeable_colours(rest, brick_set))
        if count > best_count:
            best, best_count = k, count
    return best
