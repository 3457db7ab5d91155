"""One audit round on the sets of 5 cards a conflicts file lists as undecided, each asked with a
longer limit than it was tried at, leaving out the sets that hold given cards (or those
that do not hold a given one).

    cp content/brix/conflicts/green.yaml /tmp/g.yaml
    python benchmarks/brix_pile_round.py --deck green --conflicts /tmp/g.yaml --without G24 \
        --timeout 150 --budget 6600 --jobs 1
    python benchmarks/brix_pile_round.py --deck pink --conflicts /tmp/p.yaml --without P28 \
        --timeout 60 --budget 5400
    python benchmarks/brix_pile_round.py --deck pink --conflicts /tmp/p.yaml --only P28 \
        --without P44 --timeout 60 --budget 3600 --jobs 1
    python benchmarks/brix_pile_round.py --deck pink --conflicts /tmp/p.yaml --without P28 \
        --timeout 150 --budget 60 --cache /tmp/pile-round-XXXX  # a stopped round's answers

Why: `brix audit --known F --conflicts-out F --first-try 0 --max-cards 5 --timeout T` asks
again every undecided set of F tried at less than T (first plainly, then split into cases, T
each). Z3 leaves some cards' sets undecided at any limit tried so far (green's G24, "exactly 3
lying bricks tall": the short tower enumeration, brix_enumerate_undecided.py, is their way),
and each would cost the round 2T. The script marks those (with `--only`, all the others, to
measure a card's sets on their own) as tried at `SKIPPED` seconds in the file, runs the audit
on it with a fresh cache (or `--cache`), and gives them back their own limits afterwards (also
when the round is stopped by Ctrl-C or SIGTERM; a round started in the background ignores
Ctrl-C, so stop it with SIGTERM), so the file says only what the audits did. A stopped round
writes nothing into the file, but its answers are in its cache's log: the same command with
`--cache` that folder (the round prints it) replays them and goes on, and a short `--budget`
then just writes them.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from card_args import deck_card_ids

from tower_print.brix.conflicts import conflicts_folder, current_file, file_note, write_conflicts
from tower_print.brix.decks import Deck, shipped_deck

SKIPPED = 100000.0
"""A limit no round asks for: the audit sets a set tried at it aside unasked."""


def set_limits(path: Path, deck: Deck, limits: dict[tuple[str, ...], float]) -> None:
    """Rewrite the file with each of its undecided sets named in `limits` tried at that limit."""
    known = current_file(path, deck)
    undecided = tuple((ids, limits.get(tuple(sorted(ids)), tried_at))
                      for ids, tried_at in known.undecided)
    known = replace(known, undecided=undecided)
    write_conflicts(path, deck, known, file_note(known))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", choices=("green", "pink"), default="green")
    parser.add_argument("--conflicts", type=Path,
                        help="the deck's conflicts file, read and written (default: the "
                             "shipped one)")
    parser.add_argument("--without", metavar="CARD", action="append", default=[],
                        help="leave out the undecided sets holding this card (repeatable)")
    parser.add_argument("--only", metavar="CARD",
                        help="leave out the undecided sets not holding this card")
    parser.add_argument("--timeout", type=float, default=150.0, help="seconds per check")
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds for the round")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path,
                        help="the audit's cache folder, to resume a stopped round (default: "
                             "a fresh one)")
    args = parser.parse_args()
    if args.timeout >= SKIPPED:
        parser.error(f"--timeout must be below {SKIPPED:g}")
    if not args.without and args.only is None:
        parser.error("say which sets to leave out: --without CARD or --only CARD")
    deck = shipped_deck(args.deck)
    without = deck_card_ids(parser, deck, args.without)
    only = deck_card_ids(parser, deck, [args.only])[0] if args.only is not None else None
    path = args.conflicts or conflicts_folder() / f"{args.deck}.yaml"
    held = {tuple(sorted(ids)): tried_at for ids, tried_at in current_file(path, deck).undecided
            if any(card in ids for card in without) or (only is not None and only not in ids)}
    cache = args.cache or Path(tempfile.mkdtemp(prefix="pile-round-"))
    print(f"{len(held)} undecided sets left out of the round; its answers go to {cache}",
          flush=True)
    set_limits(path, deck, dict.fromkeys(held, SKIPPED))
    # SIGTERM as an exit, so that the audit is stopped (subprocess.run kills it) and the
    # limits are given back (the audit writes nothing then: resume it with --cache).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        audit = subprocess.run(
            [sys.executable, "-c", "from tower_print.cli import main; main()", "brix", "audit",
             "--deck", args.deck, "--known", str(path), "--conflicts-out", str(path),
             "--jobs", str(args.jobs), "--timeout", f"{args.timeout:g}", "--first-try", "0",
             "--max-cards", "5", "--budget", f"{args.budget:g}", "--first-deals", "1000",
             "--cache", str(cache)], check=False)
    finally:
        set_limits(path, deck, held)
    sys.exit(audit.returncode)  # the audit's: 2 bad input, 3 incomplete (nearly every round)


if __name__ == "__main__":
    main()
