"""A conflicts file's towers, each in every colouring its deck allows, tried on the sets the file
lists as undecided (`recolour.colourings_meeting`, what `brix audit --known` now does first);
with --record the towers found are written into the file.

    python benchmarks/brix_recolour_towers.py --deck green
    python benchmarks/brix_recolour_towers.py --deck pink --record
    python benchmarks/brix_recolour_towers.py --deck pink --conflicts p.yaml --open --record

Why: each tower of a file was found in the colours one set asked for. In the fifty-eighth
session green's 15,372 towers, recoloured, met 46 of the 195 sets its file listed as undecided
(Z3 had left each at 10 or 60 s): a minute and a half instead of an audit round per set.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from brix_open_sets import open_sets

from tower_print.brix.audit import AuditSettings
from tower_print.brix.conflicts import add_towers, card_masks, conflicts_folder, current_file
from tower_print.brix.decks import shipped_deck
from tower_print.brix.geometry import normalized
from tower_print.brix.marco import members
from tower_print.brix.recolour import colourings_meeting


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", choices=("green", "pink"), default="green")
    parser.add_argument("--conflicts", type=Path,
                        help="the deck's conflicts file (default: the shipped one)")
    parser.add_argument("--open", action="store_true",
                        help="also the open sets of one card more than it is complete for "
                             "(benchmarks/brix_open_sets.py)")
    parser.add_argument("--record", action="store_true", help="write the towers found into it")
    args = parser.parse_args()
    deck = shipped_deck(args.deck)
    path = args.conflicts or conflicts_folder() / f"{args.deck}.yaml"
    known = current_file(path, deck)
    masks = card_masks(deck, [ids for ids, _ in known.undecided])
    if args.open:
        masks = sorted({*masks, *open_sets(deck, known, AuditSettings.seed,
                                           AuditSettings.samples, jobs=2)})
    sets = [[deck.cards[k].id for k in members(mask)] for mask in masks]
    start = time.monotonic()
    found = colourings_meeting(deck, known.towers, masks)
    seconds = time.monotonic() - start
    settled = [ids for ids, mask in zip(sets, masks, strict=True)
               if any(mask & ~met == 0 for met, _ in found)]
    print(f"{args.deck}: {len(known.towers)} towers, {len(sets)} undecided or open sets; "
          f"{len(found)} colourings meet {len(settled)} of them ({seconds:.0f} s)")
    for ids in settled:
        print("  " + " ".join(ids))
    if args.record and found:
        add_towers(path, deck, [normalized(tower) for _, tower in found],
                   "a tower of this file, recoloured (benchmarks/brix_recolour_towers.py)")
        print(f"added to {path}")


if __name__ == "__main__":
    main()
