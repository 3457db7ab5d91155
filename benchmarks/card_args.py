"""Card ids given on a benchmark script's command line, read as the deck spells them."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from tower_print.brix.decks import Deck
from tower_print.content import UserError


def deck_card_ids(parser: argparse.ArgumentParser, deck: Deck, ids: Iterable[str]) -> list[str]:
    """`ids` as the deck spells them; an unknown one is the parser's one-line error (exit 2),
    so that a mistyped card stops the script instead of matching no set."""
    try:
        return [deck.card(card).id for card in ids]
    except UserError as error:
        parser.error(str(error))
