"""Known conflicts of a deck (content/brix/conflicts/<deck>.yaml): minimal sets of its cards
that no tower meets, found by `tower-print brix audit --conflicts-out`.

Why keep them: the audit proved each one with Z3 (and met every smaller part of it with a
checked tower), and once they are known a deal is checked by a subset test, as the audit
promises: a deal holding one is unsolvable, with that set as its conflict, without asking Z3
again (1.5-4 s on a hard deal, most of it Z3's first look at the model). The file records a
fingerprint of what makes the sets conflicts (the deck's conditions and rule, the bricks and
their stability margin); when the deck changes, the file is ignored until the audit is run
again. The tests prove the shipped small conflicts again with today's solver, so a change to
the model that broke one would fail them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from tower_print.brix.decks import Deck
from tower_print.brix.language import Condition
from tower_print.content import UserError, content_root, load_yaml
from tower_print.render.scene import write_atomic


def conflicts_folder() -> Path:
    return content_root() / "brix" / "conflicts"


def deck_fingerprint(deck: Deck) -> str:
    """A hash of what decides which card sets conflict (`Deck.what_decides`)."""
    payload = json.dumps(deck.what_decides(), sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


def write_conflicts(
    path: Path, deck: Deck, conflicts: Sequence[Sequence[str]], command: str, note: str,
) -> None:
    """`conflicts`: card ids of each set, written smallest set first."""
    ordered = sorted((sorted(ids) for ids in conflicts), key=lambda ids: (len(ids), ids))
    lines = [
        f"# Minimal sets of cards of the {deck.name} deck that no tower meets (each proved by Z3,",
        "# each smaller part met by a checked tower), for tower_print/brix/conflicts.py.",
        f"# Built by: {command}",
        f"# {note}",
        f"deck: {deck.name}",
        f"fingerprint: {deck_fingerprint(deck)}",
        "conflicts:" if ordered else "conflicts: []",
        *(f"  - {' '.join(ids)}" for ids in ordered),
    ]
    write_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))


def load_conflicts(path: Path, deck: Deck) -> tuple[tuple[str, ...], ...]:
    """Card ids of each conflict in `path`, checked against `deck` (its name and card ids);
    none when the file was written for another version of the deck (its fingerprint)."""
    root = load_yaml(path, fast=True)
    root.only_keys("deck", "fingerprint", "conflicts")
    named = root["deck"]
    if named.str() != deck.name:
        raise named.error(f"conflicts of deck '{named.str()}', not of '{deck.name}'")
    if root["fingerprint"].str() != deck_fingerprint(deck):
        return ()
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
