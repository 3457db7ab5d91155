"""What the scripts that prove card sets without Z3's full model share: Z3's status for the
cards with extra conditions (the facts a proof builds on), and writing a proof into a deck's
conflicts file with the date and commit it ran at, so that the file says how to repeat it."""

from __future__ import annotations

import datetime
import subprocess
import time
from pathlib import Path

from tower_print.brix.conflicts import read_conflict_file, record_proof
from tower_print.brix.decks import Deck
from tower_print.brix.language import parse
from tower_print.brix.solver import Labeled, TowerSolver


def ask(deck: Deck, cards: list[str], texts: list[str], timeout: float) -> str:
    """Z3's status for the cards with the conditions `texts` (a case's counts, or a fact's
    negation); no conflict minimising: only the status counts."""
    items = [*(deck.card(c).item() for c in cards),
             *(Labeled(text, text, parse(text, deck.bricks.color_names)) for text in texts)]
    solver = TowerSolver(deck.bricks, deck.all_used)
    return solver.check(items, time.monotonic() + timeout, any_tower=True)[0]


def record_script_proof(path: Path, deck: Deck, cards: tuple[str, ...], command: str,
                        finding: str, method: str) -> None:
    """The cards as a conflict proved by `command` (`finding`: what its run showed; `method`:
    how it proves, for the file's history), stamped with today's date and the commit."""
    here = Path(__file__).parent
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here,
                            capture_output=True, text=True).stdout.strip() or "unknown"
    changed = subprocess.run(["git", "status", "--porcelain", "--", ".", "../tower_print"],
                             cwd=here, capture_output=True, text=True).stdout.strip()
    known = read_conflict_file(path, deck)
    tried = [f"{limit:g} s" for ids, limit in (known.undecided if known else ())
             if frozenset(ids) == frozenset(cards)]
    record_proof(path, deck, cards,
                 f"{command} ({datetime.date.today()}, commit {commit}"
                 f"{' with changes' if changed else ''}: {finding})",
                 f"{method}, not by Z3" + (f" (undecided in audits at {tried[0]})"
                                           if tried else ""))
