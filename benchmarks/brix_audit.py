"""How far does `tower-print brix audit` get on a deck, and how fast?

    python benchmarks/brix_audit.py --deck green --budget 1800          # 30 min, fresh cache
    python benchmarks/brix_audit.py --deck pink --budget 1800 --jobs 2
    python benchmarks/brix_audit.py --generate 50 --budget 900          # a generated deck
    python benchmarks/brix_audit.py --deck green --known content/brix/conflicts/green.yaml

Runs the audit exactly as the command does (same code, a fresh cache folder unless --cache is
given, so nothing is resumed by accident) and prints: whether the certificate is complete, the
minimal conflicts found by size, undecided sets (the smallest named), solver checks and seeds
by outcome, the time spent drawing the tower pool and exploring, the odds of an unsolvable deal
per level and the cards priced wrong. With --known FILE the audit takes that file's conflicts,
completeness and towers as known (as `brix audit --known` does) and goes on from them. With
--generate N it first generates an N-card deck (seed 1, 22 of 50 worth 3 points, scaled) and
times that too.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path

from tower_print.brix.audit import AuditSettings, Explorer, largest_deal
from tower_print.brix.audit_report import card_prices, deal_odds
from tower_print.brix.conflicts import card_masks, conflicts_to_take
from tower_print.brix.decks import load_deck
from tower_print.brix.marco import members
from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE
from tower_print.brix.verify import open_deck


def generated_deck(cards: int, folder: Path, rule: str) -> Path:
    from tower_print.brix.generate import generate_deck, write_deck_files

    three = round(cards * 22 / 50)
    start = time.perf_counter()
    generated = generate_deck(cards, three, seed=1, rule=rule, name=f"generated{cards}")
    drawn = time.perf_counter() - start
    path = folder / f"generated{cards}.yaml"
    write_deck_files(generated, path, 1, "benchmarks/brix_audit.py")
    total = time.perf_counter() - start
    print(f"generated {cards} cards ({three} worth 3, rule {rule}) in {drawn:.1f} s "
          f"({generated.candidates} candidates, {generated.solver_checks} solver checks); "
          f"with example towers {total:.1f} s")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", default="green", help="green, pink or a deck .yaml file")
    parser.add_argument("--generate", type=int, default=0, help="audit a generated N-card deck")
    parser.add_argument("--rule", default="all", help="deck rule of the generated deck")
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds for the search")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per check")
    parser.add_argument("--first-try", type=float, action="append",
                        help="seconds of each set's first check, again for longer tries (0: "
                             "none; brix audit --first-try)")
    parser.add_argument("--samples", type=int, default=AuditSettings.samples)
    parser.add_argument("--cache", type=Path, default=None, help="resume from this folder")
    parser.add_argument("--known", type=Path, default=None,
                        help="take this conflicts file's sets, completeness and towers as "
                             "known (brix audit --known)")
    args = parser.parse_args()
    folder = args.cache or Path(tempfile.mkdtemp(prefix="audit-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    if args.generate:
        deck = load_deck(generated_deck(args.generate, folder, args.rule))
    else:
        deck = open_deck(args.deck)
    settings = AuditSettings(timeout=args.timeout, samples=args.samples,
                             max_cards=largest_deal(deck), budget=args.budget,
                             tries=tuple(args.first_try or AuditSettings.tries))
    phases: dict[str, float] = {}
    start = time.perf_counter()

    def progress(state: dict) -> None:  # type: ignore[type-arg]
        phases.setdefault(state["phase"], time.perf_counter() - start)

    known = None if args.known is None else conflicts_to_take(args.known, deck)
    taken = [] if known is None else card_masks(deck, known.sets)
    explorer = Explorer(deck, settings, folder, taken,
                        0 if known is None else known.complete_up_to,
                        () if known is None else known.towers)
    found = explorer.run(args.jobs, progress)
    seconds = time.perf_counter() - start
    kinds: Counter[str] = Counter()
    busy: Counter[str] = Counter()
    for line in explorer.log.path.read_text().splitlines():
        record = json.loads(line)
        if record["kind"] in (SOLVABLE, UNSOLVABLE, UNKNOWN):  # not the pool, implications
            kinds[record["kind"]] += 1
            busy[record["kind"]] += record["seconds"]
    ids = [c.id for c in deck.cards]
    print(f"deck {deck.name}: {len(deck.cards)} cards, sets of up to {settings.max_cards}, "
          f"{args.jobs} jobs, {args.timeout:g} s per check (tries "
          f"{', '.join(f'{t:g}' for t in settings.tries) or 'none'} s), "
          f"{args.samples} pool towers")
    print(f"  {'COMPLETE' if found.complete else 'INCOMPLETE'} after {seconds:.0f} s "
          f"(pool drawn in {phases.get('explore', seconds):.0f} s)")
    sizes = Counter(m.bit_count() for m in found.muses)
    if taken:
        print(f"  {found.taken} of the conflicts taken from {args.known}, not proved again")
    print(f"  minimal conflicts: {len(found.muses)}, by size "
          + ", ".join(f"{k}: {v}" for k, v in sorted(sizes.items())))
    print(f"  not minimised in time: {len(found.conflicts_unminimised)}; undecided sets: "
          f"{len(found.unknown)}; every conflict of up to {found.complete_up_to} cards found")
    print(f"  solver checks: {found.checks}; seeds decided: "
          + ", ".join(f"{k} {v} ({busy[k]:.0f} s of worker time)" for k, v in kinds.items()))
    print(f"  solvable sets known: {len(found.solvable)}")
    for odds in deal_odds(deck, found, settings):
        if odds.deals:
            print(f"  {odds.level:<6} hold a known conflict {100 * odds.share:5.1f} % "
                  f"(95 %: {100 * odds.low:.1f}-{100 * odds.high:.1f} %, "
                  f"{odds.unknown} of {odds.deals} deals undecided; of the first "
                  f"{odds.first}: {odds.first_unsolvable} unsolvable, "
                  f"{odds.first_unknown} undecided)")
    wrong = [f"{c.id} ({p.verdict})" for c, p in zip(deck.cards, card_prices(deck), strict=True)
             if p.verdict != "ok"]
    print(f"  priced wrong: {', '.join(wrong) or 'none'}")
    print("  smallest conflicts: " + "; ".join(
        " + ".join(ids[k] for k in members(m)) for m in found.muses[:8]))
    print("  smallest undecided: " + ("; ".join(
        " ".join(ids[k] for k in members(m))
        for m in sorted(found.unknown, key=lambda m: (m.bit_count(), m))[:8]) or "none"))


if __name__ == "__main__":
    main()
