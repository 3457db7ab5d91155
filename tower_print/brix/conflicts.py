"""Known conflicts of a deck (content/brix/conflicts/<deck>.yaml): sets of its cards that no
tower meets, found by `tower-print brix audit --conflicts-out`.

Why keep them: a deal holding one of them is unsolvable, and Z3 proves a two- or three-card
conflict in a fraction of the time it takes on the whole deal (1.5-2 s for eight cards whose
conflict is a pair, measured on hard deals). The solver never takes the file's word for it: it
proves the listed set unsolvable again before it answers (`TowerSolver.check`), so a stale or
edited file can cost time but never a wrong verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tower_print.brix.decks import Deck
from tower_print.brix.language import Condition
from tower_print.content import UserError, content_root, load_yaml
from tower_print.render.scene import write_atomic


def conflicts_folder() -> Path:
    return content_root() / "brix" / "conflicts"


def write_conflicts(
    path: Path, deck: Deck, conflicts: Sequence[Sequence[str]], command: str, note: str,
) -> None:
    """`conflicts`: card ids of each set, written smallest set first."""
    ordered = sorted((sorted(ids) for ids in conflicts), key=lambda ids: (len(ids), ids))
    lines = [
        f"# Sets of cards of the {deck.name} deck that no tower meets, for the TowerBrix solver",
        "# (tower_print/brix/conflicts.py), which proves each again before relying on it.",
        f"# Built by: {command}",
        f"# {note}",
        f"deck: {deck.name}",
        "conflicts:" if ordered else "conflicts: []",
        *(f"  - {' '.join(ids)}" for ids in ordered),
    ]
    write_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))


def load_conflicts(path: Path, deck: Deck) -> tuple[tuple[str, ...], ...]:
    """Card ids of each conflict in `path`, checked against `deck` (its name and card ids)."""
    root = load_yaml(path, fast=True)
    root.only_keys("deck", "conflicts")
    named = root["deck"]
    if named.str() != deck.name:
        raise named.error(f"conflicts of deck '{named.str()}', not of '{deck.name}'")
    known = {card.id for card in deck.cards}

    def card_ids(line: str) -> tuple[str, ...]:
        ids = tuple(line.split())
        if not ids or len(set(ids)) != len(ids):
            raise UserError(f"expected distinct card ids separated by spaces, found '{line}'")
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise UserError(f"unknown card id '{unknown[0]}' in deck {deck.name}")
        return ids

    return tuple(node.parsed(card_ids) for node in root["conflicts"].items())


_KNOWN: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[frozenset[Condition], ...]] = {}


def known_conflicts(deck: Deck) -> tuple[frozenset[Condition], ...]:
    """The conditions of each shipped conflict of `deck` (none when it has no file), read
    once per process and per deck content."""
    key = (deck.name, tuple((c.id, c.source) for c in deck.cards))
    if key not in _KNOWN:
        path = conflicts_folder() / f"{deck.name}.yaml"
        sets = load_conflicts(path, deck) if path.is_file() else ()
        _KNOWN[key] = tuple(frozenset(deck.card(i).condition for i in ids) for ids in sets)
    return _KNOWN[key]
