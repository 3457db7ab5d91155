"""The short tower enumeration (brix_short_tower_enumeration.py) on each set a conflicts file
lists as undecided and that holds a given card, one run per set, capped in time; with --record,
each proof or tower written into the file.

    python benchmarks/brix_enumerate_undecided.py --deck green --card G24 --logs runs --cap 900
    python benchmarks/brix_enumerate_undecided.py --deck green --card G24 --logs runs --record \
        --limit 0   # only write what the runs logged in runs/ proved
    python benchmarks/brix_enumerate_undecided.py --deck pink --card P28 --card P44 --logs runs

Why: audits leave green's sets with G24 ("the tower is exactly 3 flat bricks tall") undecided
at 60 s, and no audit round decides most of them, while the enumeration settled 15 of 27 in the
fifty-sixth session, 4-11 minutes each. Each set's run keeps its --log and its output in --logs
(named by the cards), so that a set cut by the cap goes on where it stopped in the next run of
this script, a finished one is not run again, and --record reads the logs back (nothing is
enumerated again). The file is written only here, one set after another, never by two runs at
once; sets it no longer lists as undecided (settled meanwhile) are left out.

Order: sets never run first, then those cut before (the slow ones), each by card ids; each set
gets the enumeration script's --jobs 1 and --first (one tower decides the set: runs that went on
collecting towers were cut by the cap with hundreds logged, G17 G20 G24 G30 G38's 515), and
--jobs sets run side by side.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from card_args import deck_card_ids

from tower_print.brix.conflicts import conflicts_folder, current_file
from tower_print.brix.decks import shipped_deck

SCRIPT = Path(__file__).with_name("brix_short_tower_enumeration.py")
OUTCOMES = {  # a finished run's output line -> its outcome
    "no tower meeting": "conflict",
    "a standing tower meeting": "solvable",
    "solvable: Z3 found a tower": "solvable",
    "the enumeration needs towers": "out of reach",
}
"""Outcomes --record writes into the file: the others say nothing about the set."""
RECORDED = ("conflict", "solvable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", choices=("green", "pink"), default="green")
    parser.add_argument("--conflicts", type=Path,
                        help="the deck's conflicts file (default: the shipped one)")
    parser.add_argument("--card", action="append", metavar="CARD",
                        help="only the undecided sets holding it (repeatable: all of them; "
                             "default: G24)")
    parser.add_argument("--size", type=int, help="only the sets of this many cards")
    parser.add_argument("--logs", type=Path, required=True,
                        help="folder for each set's --log and output")
    parser.add_argument("--cap", type=float, default=900.0, help="seconds per set and run")
    parser.add_argument("--jobs", type=int, default=2, help="sets run side by side")
    parser.add_argument("--limit", type=int, help="run at most this many sets")
    parser.add_argument("--exclude-timeout", type=float,
                        help="the enumeration's seconds for each Z3 question (default: its own)")
    parser.add_argument("--again", choices=sorted(set(OUTCOMES.values())),
                        help="run only the sets whose last run ended so (\"out of reach\" with a "
                             "longer --exclude-timeout: Z3 may then say)")
    parser.add_argument("--record", action="store_true",
                        help="write each proof or tower into the conflicts file")
    args = parser.parse_args()
    args.card = deck_card_ids(parser, shipped_deck(args.deck), args.card or ["G24"])
    path = args.conflicts or conflicts_folder() / f"{args.deck}.yaml"
    args.logs.mkdir(parents=True, exist_ok=True)
    sets = _undecided(path, args.deck, args.card, args.size)
    outcomes = {ids: _outcome(_output(args.logs, ids)) for ids in sets}
    to_run = ([ids for ids in sets if outcomes[ids] == args.again] if args.again else
              sorted((ids for ids in sets if outcomes[ids] is None),
                     key=lambda ids: (_output(args.logs, ids).exists(), ids)))
    finished = {ids: outcome for ids, outcome in outcomes.items()
                if outcome and ids not in to_run}
    to_run = to_run[:args.limit]
    print(f"{len(sets)} undecided sets{f' of {args.size} cards' if args.size else ''} hold "
          f"{' '.join(args.card)} in {path}: {len(finished)} finished "
          f"in {args.logs}, {len(to_run)} to run ({args.jobs} side by side, {args.cap:g} s "
          f"each)", flush=True)
    tally = Counter(finished.values())
    if args.record:
        for ids, outcome in sorted(finished.items()):
            if outcome in RECORDED:
                _record(args, path, ids, outcome)
    with ThreadPoolExecutor(args.jobs) as pool:
        runs = {pool.submit(_run, args, ids, outcomes[ids], None, args.cap): ids
                for ids in to_run}
        for future in as_completed(runs):
            ids, (outcome, seconds) = runs[future], future.result()
            tally[outcome] += 1
            print(f"{' '.join(ids)}: {outcome} ({seconds:.0f} s)", flush=True)
            if args.record and outcome in RECORDED and ids in _undecided(
                    path, args.deck, args.card, args.size):
                _record(args, path, ids, outcome)
    print("outcomes: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(tally.items())))


def _undecided(path: Path, deck_name: str, cards: list[str], size: int | None
                ) -> list[tuple[str, ...]]:
    """The file's undecided sets holding every one of `cards` (of `size` cards), by card
    ids."""
    known = current_file(path, shipped_deck(deck_name))
    return sorted(tuple(sorted(ids)) for ids, _ in known.undecided
                  if set(cards) <= set(ids) and size in (None, len(ids)))


def _output(logs: Path, ids: tuple[str, ...]) -> Path:
    """The set's run output; its --log and lock file are named alike (.jsonl, .lock)."""
    return logs / f"{'_'.join(ids)}.out"


def _outcome(output: Path) -> str | None:
    """The outcome of the run whose output this is; None while it is not finished."""
    if not output.exists():
        return None
    text = output.read_text()
    return next((outcome for line, outcome in OUTCOMES.items() if line in text), None)


def _run(args: argparse.Namespace, ids: tuple[str, ...], listed: str | None,
         record: Path | None, cap: float | None) -> tuple[str, float]:
    """One run of the enumeration on the set (its output kept beside its log), stopped with
    its pool at `cap` seconds: (outcome, seconds). Drivers may share --logs: the set is
    claimed with a lock file (one a killed driver left must be deleted by hand), and left
    alone when another driver ran it since it was `listed` with that outcome."""
    output = _output(args.logs, ids)
    lock = output.with_suffix(".lock")
    try:
        lock.open("x").close()
    except FileExistsError:
        return "taken by another driver", 0.0
    try:
        if _outcome(output) != listed:
            return "run by another driver", 0.0
        return _run_claimed(args, ids, output, record, cap)
    finally:
        lock.unlink()


def _run_claimed(args: argparse.Namespace, ids: tuple[str, ...], output: Path,
                 record: Path | None, cap: float | None) -> tuple[str, float]:
    command = [sys.executable, "-u", str(SCRIPT), "--deck", args.deck, "--cards", *ids,
               "--jobs", "1", "--first", "--log", str(output.with_suffix(".jsonl")),
               *(["--exclude-timeout", str(args.exclude_timeout)] if args.exclude_timeout else []),
               *(["--record", str(record)] if record else [])]
    start = time.monotonic()
    with output.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        try:
            process.wait(timeout=cap)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the run and its pool's worker
            process.wait()
            return "cut", time.monotonic() - start
    outcome = _outcome(output) or f"failed (exit {process.returncode}; see {output})"
    return outcome, time.monotonic() - start


def _record(args: argparse.Namespace, path: Path, ids: tuple[str, ...], listed: str) -> None:
    """The finished run again, from its log, writing its proof or tower into the file."""
    outcome, seconds = _run(args, ids, listed, path, None)
    print(f"  recorded {' '.join(ids)}: {outcome} ({seconds:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
