"""How long should an audit worker keep its solver, and which of Z3's arithmetic solvers (and
parameters) should it run? Sets of cards asked again in the same order under each policy, the
policies side by side (one process each).

    python benchmarks/brix_solver_life.py --deck pink --cache /tmp/pink23/cache --sets 26 \\
        --limit 30 --tier 15 --policy 1:inf --policy 25:inf
    python benchmarks/brix_solver_life.py --deck pink --undecided 15 --sets 20 --limit 30 \\
        --policy 25:15:6 --policy 25:15:2
    python benchmarks/brix_solver_life.py --deck pink --cache /tmp/pink25/cache --decided \\
        --limit 30 --policy 25:15:2 --policy 25:15:2,arith.propagation_mode=2

The sets: with `--cache` (an audit's cache folder), those it checked (decided by a check, or
out of time at `--tier` seconds; with `--decided`, only the decided ones), in the order it
logged them; with `--undecided SECONDS`, the shipped conflicts file's sets of 6 cards undecided
at that limit, in a seeded shuffle. `--skip` passes over the first ones. Each is asked as the
audit asks a try (`SeedDecider.check` with `short`, `--limit` seconds) by a decider whose solver
is renewed after `checks:seconds` (`audit.SOLVER_LIFE`, `audit.SOLVER_SEARCH`: `inf` for never)
and runs with the Z3 parameters the policy names after them, if any, in place of
`audit.Z3_PARAMS`: `name=value` pairs, comma-separated, a bare number standing for
`arith.solver` (6 is Z3's default, 2 its older simplex). Run beside a running audit, each
process gets less than a core: give a longer `--limit`.

Results (2026-12-07, eighty-fourth to eighty-sixth sessions): see `audit.SOLVER_SEARCH`,
`audit.Z3_PARAMS` and benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import z3

from tower_print.brix import audit
from tower_print.brix.conflicts import conflicts_folder, current_file
from tower_print.brix.marco import mask_of
from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE
from tower_print.brix.verify import open_deck


def checked_sets(folder: Path, tier: float, decided_only: bool = False) -> list[tuple[str, ...]]:
    """The seeds the audit logged as decided by a check or (unless `decided_only`) out of time
    at `tier`, in order."""
    sets = []
    for log in sorted(folder.glob("*.jsonl")):
        for line in log.read_text().splitlines():
            record = json.loads(line)
            if (record.get("kind") == UNKNOWN and record.get("timeout") == tier
                    and not decided_only) or (
                    record.get("kind") in (SOLVABLE, UNSOLVABLE) and record.get("checks", 0)):
                sets.append(tuple(record["seed"]))
    return sets


def undecided_sets(deck_name: str, tier: float) -> list[tuple[str, ...]]:
    """The shipped file's sets of 6 cards undecided at `tier` seconds, in a seeded shuffle."""
    known = current_file(conflicts_folder() / f"{deck_name}.yaml", open_deck(deck_name))
    sets = sorted(ids for ids, limit in known.undecided if limit == tier and len(ids) == 6)
    random.Random(7).shuffle(sets)
    return sets


def z3_params(text: str) -> dict[str, bool | int | float]:
    """`2,arith.propagation_mode=2` -> {"arith.solver": 2, "arith.propagation_mode": 2}."""
    params: dict[str, bool | int | float] = {}
    for item in text.split(","):
        name, _, value = item.rpartition("=")
        params[name or "arith.solver"] = (value == "true" if value in ("true", "false")
                                          else float(value) if "." in value else int(value))
    return params


Policy = tuple[int, float, dict[str, bool | int | float] | None]
"""A solver's life in checks and seconds of search, and its Z3 parameters (None: the audit's)."""


def parse_policy(policy: str) -> Policy:
    """`25:15:2` -> (25, 15.0, {"arith.solver": 2}); a ValueError names what is wrong, Z3 being
    asked whether it knows each parameter and takes its value."""
    try:
        checks, seconds, *params = policy.split(":")
        parsed = (int(checks), float(seconds), z3_params(params[0]) if params else None)
    except ValueError as error:
        raise ValueError(f"{policy}: not checks:seconds[:parameters] ({error})") from None
    probe = z3.Solver()
    probe.add(z3.Int("x") > 0)  # an empty solver does not check the parameters it is given
    for name, value in (parsed[2] or {}).items():
        try:
            probe.set(name, value)
        except z3.Z3Exception as error:
            reason = error.value.decode().split("\n")[0] if isinstance(error.value, bytes) \
                else str(error)
            raise ValueError(f"{policy}: {reason}") from None
    return parsed


def ask(deck_name: str, sets: list[tuple[str, ...]], limit: float, policy: Policy,
        ) -> list[tuple[str, float]]:
    """(status, seconds) for each set, asked in turn under the `policy`."""
    audit.SOLVER_LIFE, audit.SOLVER_SEARCH, params = policy
    if params is not None:
        audit.Z3_PARAMS = params
    deck = open_deck(deck_name)
    index = {card.id: k for k, card in enumerate(deck.cards)}
    answers = []
    with tempfile.TemporaryDirectory() as folder:
        decider = audit.SeedDecider(deck, audit.AuditSettings(seed=0),
                                    audit.AuditLog(Path(folder), deck))
        for cards in sets:
            start = time.monotonic()
            status, _, _ = decider.check(mask_of(index[c] for c in cards),
                                         audit.Outcome(0, UNKNOWN, 0), short=limit)
            answers.append((status, time.monotonic() - start))
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", default="pink")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--cache", type=Path)
    source.add_argument("--undecided", type=float, metavar="SECONDS")
    parser.add_argument("--tier", type=float, default=15.0)
    parser.add_argument("--decided", action="store_true")
    parser.add_argument("--skip", type=int, default=0)
    parser.add_argument("--sets", type=int, default=30)
    parser.add_argument("--limit", type=float, default=15.0)
    parser.add_argument("--policy", action="append", required=True,
                        help="checks:seconds of a solver's life, and Z3's parameters if given, "
                             "e.g. 25:inf, 25:15, 25:15:2 or 25:15:2,arith.propagation_mode=2")
    args = parser.parse_args()
    try:
        policies = [parse_policy(policy) for policy in args.policy]
    except ValueError as error:
        parser.error(f"--policy {error}")
    sets = (checked_sets(args.cache, args.tier, args.decided) if args.cache
            else undecided_sets(args.deck, args.undecided))[args.skip:args.skip + args.sets]
    with ProcessPoolExecutor(len(args.policy)) as pool:
        runs = list(pool.map(ask, *zip(*[(args.deck, sets, args.limit, policy)
                                          for policy in policies], strict=True)))
    for k, cards in enumerate(sets):
        print(f"{k:3} {' '.join(cards)}: " + "; ".join(
            f"{policy} {status} {seconds:.1f} s"
            for policy, (status, seconds) in zip(args.policy, (run[k] for run in runs),
                                                 strict=True)), flush=True)
    both = [k for k in range(len(sets)) if all(run[k][0] != UNKNOWN for run in runs)]
    for policy, run in zip(args.policy, runs, strict=True):
        decided = sum(status != UNKNOWN for status, _ in run)
        print(f"{policy}: {decided} of {len(sets)} decided in {sum(s for _, s in run):.0f} s; "
              f"the {len(both)} every policy decided in {sum(run[k][1] for k in both):.1f} s")


if __name__ == "__main__":
    main()
