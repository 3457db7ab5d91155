"""The undecided sets of a deck's conflicts file asked again with a hint: the tower must be
mirror symmetric (the masterpiece challenge's condition). A symmetric tower meets the cards
without the hint too, and Z3 has half a tower to find.

    python benchmarks/brix_symmetric_hint.py --deck pink --timeout 90
    python benchmarks/brix_symmetric_hint.py --deck pink --timeout 90 \
        --record content/brix/conflicts/pink.yaml   # each tower found written there

Why: audits leave sets undecided when Z3 finds no tower and no proof within 60 s (240 s for the
small ones). Asked with the hint, some get a tower within a minute: tall stacks balanced about
their middle, the kind a solvable set near a conflict often needs. Only a tower counts: with
the hint "unsolvable" says no symmetric tower meets the cards, nothing about the set.

How: `verify`'s own solver (the deck's known conflicts and towers, the shape library) asks each
set with the hint; a tower comes checked by the independent checker, and with --record goes
into the file with `script_proofs.record_towers`, which also tries it in every colouring on
the sets still undecided (those it settles are not asked).

Results (2026-12-01, the same questions asked by `tower-print brix verify ... --challenge
masterpiece --timeout 90`, one process beside other runs): of pink's 31 undecided sets 6 got a
tower (12-74 s) and 2 more were met by those recoloured; of green's 20, 4 (6-64 s) and 2. With
--timeout 240 on the sets still unknown: see benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from script_proofs import record_towers

from tower_print.brix.audit import HINT_CHALLENGE
from tower_print.brix.challenges import default_challenges
from tower_print.brix.conflicts import conflicts_folder, conflicts_to_take
from tower_print.brix.decks import shipped_deck
from tower_print.brix.solver import SOLVABLE
from tower_print.brix.verify import verify_solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", choices=("green", "pink"), default="pink")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds for each set")
    parser.add_argument("--seed", type=int, default=0, help="Z3 random seed")
    parser.add_argument("--record", type=Path,
                        help="the deck's conflicts file: write each tower found into it")
    args = parser.parse_args()
    deck = shipped_deck(args.deck)
    path = args.record or conflicts_folder() / f"{args.deck}.yaml"
    hint = default_challenges(deck.bricks.color_names).get(HINT_CHALLENGE).item()
    assert hint is not None
    solver = verify_solver(deck, args.seed)
    asked = [ids for ids, _ in conflicts_to_take(path, deck).undecided]
    found = 0
    for ids in asked:
        if args.record and ids not in [s for s, _ in conflicts_to_take(path, deck).undecided]:
            continue  # settled by a tower found before, recoloured
        verdict = solver.verify([*(deck.card(i).item() for i in ids), hint], args.timeout)
        print(f"{' '.join(ids)}: {verdict.status} with the hint ({verdict.seconds:.0f} s)",
              flush=True)
        if verdict.status == SOLVABLE and verdict.tower is not None:
            found += 1
            if args.record:
                record_towers(path, deck, [verdict.tower],
                              f"python benchmarks/brix_symmetric_hint.py --deck {args.deck} "
                              f"--timeout {args.timeout:g} (the set {' '.join(ids)})")
    print(f"{found} of {len(asked)} sets got a tower")


if __name__ == "__main__":
    main()
