"""`tower-print brix audit`: certify a deck by finding every minimal set of cards that clash.

Once all minimal unsolvable sets (MUSes) of a deck are known, any deal is checked by a subset
test: it is unsolvable exactly when it contains one of them. The search is MARCO (`marco`):

- grow for free: a pool of seeded random standing towers (`sampling`) is drawn first; each
  tower proves the set of cards it meets solvable, and every subset with it;
- small sets first: every set of up to `SMALL_CONFLICTS` cards that nothing known explains is
  decided (smallest first, not grown, with the longer `SMALL_TIMEOUT`), so that an audit cut
  short by its budget still knows every conflict that small, and says so;
- then the first `deal_seeds` sampled deals of each level that nothing known explains yet,
  each only decided, not shrunk: a check takes seconds where shrinking its conflict takes
  minutes, and these deals, a random sample decided one by one, are what bounds the odds of
  an unsolvable deal while much of the map is still open (`audit_report.Odds`);
- then seeds, in turn: the map's maximal unexplored sets, of 4 cards at most until none is
  left, then of 5, and so on (`CardMap.seed_by_size`; those of one card more than a file
  `--known` is complete for listed at the start from their ranks, `CardMap.sweep`), and the
  conflicts those deals met, to be shrunk (so the conflicts real deals run into are found
  early); a process pool decides them with `TowerSolver.check` (a quick local search races Z3);
- a solvable seed comes back grown to every card its witness tower meets;
- an unsolvable seed is shrunk to a MUS: Z3's unsat core, narrowed while re-solving it gives a
  smaller one, then one card at a time dropped while the rest stays unsolvable (a drop that a
  known solvable set covers needs no solver); every tower met on the way grows the map too;
- some seeds need no check: one a colouring of a tower met before meets is solvable
  (`recolour`), and one whose cards imply every card of a known conflict is unsolvable
  (`implications`: which card implies which is asked of the solver at the start, for the pairs
  no tower tells apart).

Each set's first check gets `FIRST_TRY` seconds; a set still open then is set aside, its
subsets held back and its supersets left to the end, and asked again once nothing else of its
phase is left (sets met since are not asked again): with a longer short try when the settings
give more than one (`AuditSettings.tries`, all sets set aside at one try before any at the
next), and then with its full time limit.

By default only sets of at most as many cards as a deal can hold are explored (`max_cards`): a
larger conflict can never be dealt. A check that runs out of its full time is "unknown": its
set is set aside for good and the audit says it is incomplete, never complete. A `budget` ends
the whole run: the checks under way stop at it too, and what they leave undecided is asked
again on resume.

Every answer is appended to a log in the cache folder as soon as it is in; an interrupted run
replays the log and goes on, and workers read it too, so one process's finds spare the others
work. The log holds facts (this set is solvable, that one is a MUS, this one was undecided within
T seconds), valid whatever the seed or pool; it is keyed by a hash of the deck's conditions and
rule, the brick set, and the source of the modules that decide (model, solver, statics,
evaluator, checker, geometry, language), so a change to any of them starts afresh.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from tower_print.brix.challenges import default_challenges
from tower_print.brix.checker import WitnessRejected
from tower_print.brix.conflicts import longest_limit
from tower_print.brix.deals import LEVELS, draw_level
from tower_print.brix.decks import Deck
from tower_print.brix.difficulty import cache_folder
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.implications import Implications, implication_candidates, meets_one_not_other
from tower_print.brix.marco import CardMap, MaskSet, mask_of, members
from tower_print.brix.new_sets import MOST_SETS, open_sets_of_size
from tower_print.brix.recolour import ColouringIndex, recoloured
from tower_print.brix.sampling import Tower, sample_towers
from tower_print.brix.shape_library import shape_library
from tower_print.brix.shrink import dropped_together
from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE, Labeled, TowerSolver
from tower_print.content import UserError

LOG_FORMAT = 1
DECIDING_MODULES = (
    "model", "solver", "statics", "evaluate", "checker", "geometry", "language", "shapes")
"""Modules whose code decides what is solvable: a change to any of them voids cached facts."""
POOL_CHUNK = 250
"""Towers per sampling task: the pool is the same whatever the number of processes."""
SMALL_CONFLICTS = 3
"""Every set of up to this many cards is decided before the search for larger conflicts: an
audit that runs out of time then still knows all conflicts this small (most are pairs and
triples), and says so. On the thirteenth session's 30-minute audits, 357 (green) and 443 (pink)
triples were still unexplained."""
SMALL_TIMEOUT = 240.0
"""Seconds per check of a set of up to `SMALL_CONFLICTS` cards: few such sets are hard, and
deciding them all is what lets an audit say it knows every conflict that small. In green,
G24 G28 G30 took 62 s to solve in one run (over the 60 s of other checks), 24 s in another,
and G13 G24 G30 stays undecided at 240 s (it is proved by enumeration instead:
content/brix/conflicts/green.yaml). An undecided set is asked once more, split into cases
(`SeedDecider._check`), so a hopeless small set costs a process twice this."""
FIRST_TRY = 10.0
"""Seconds of a set's first check: one that runs out is set aside (`CardMap.defer`) and asked
again with its full time limit (and the retry by cases) once nothing else is left. In the
forty-ninth session's 30-minute audits, 97 % of the checks that came to an answer took under
20 s, and the sets that took their full time, undecided, used 35-60 % of the worker time; set
aside, the answers to other sets often explain them first (a colouring of a later tower met the
generated deck's X34 X35 X50 after 480 s undecided). Of the first tries measured (30-minute
audits from scratch, benchmarks/RESULTS.md, fifty-first session), 10 s found the most
conflicts: pink 271 at 20 s, 383 at 10 s, 380 at 5 s; green 350 at 20 s, 386 at 10 s."""
SET_ASIDE = "set aside after a first try of"
"""How the note of an "unknown" short try starts (`AuditSettings.tries`: the words of the first
try, before there were more, which logs keep)."""
TIME_LIMIT = "no answer within"
"""How the note of an "unknown" that ran out of time starts (other unknowns are retried)."""
BUDGET_SPENT = "the audit's time budget ran out"
"""The note of an "unknown" cut short by `--budget` before its own time limit: retried on
resume, like every unknown whose note is not `TIME_LIMIT`'s."""
HINT_CHALLENGE = "masterpiece"
"""The challenge whose condition the retry of an undecided set asks first, as a hint
(`TowerSolver.check_by_cases`): a mirror-symmetric tower meets the cards without it too."""
RECOLOUR_AFTER = 1.0
"""Seconds a check must have taken for its witness to be tried in every colouring (`recolour`,
about 0.5 s for a green tower, 1 s for a pink one): a tower that hard to find meets rare sets,
and its colourings meet their neighbours, which quick checks would not have covered as well."""
UNDECIDED_NEIGHBOURS = 2
"""A seed holding all but one card of this many sets checks ran out on is passed over for now
(set aside unasked; asked once nothing else is left, a first try and then the full time). In
pink's tenth round on the sets of 6 cards (first try 3 s), first tries ran out on 34 % of the
sets with no such neighbour asked before, 69 % with one, 83 % with two and 88 % with more:
those with two or more took half the round's time for 13 % of its decided sets."""
SOLVER_LIFE = 25
"""Checks one worker's solver answers before a fresh one takes over (`SeedDecider._check_on`):
a solver keeps what it learnt, and slows down with it. Thirty of pink's open sets of 6 cards
asked for 6 s each: a young solver decided 8, one first asked 120 other such sets decided 4;
pink's eighteenth round (tries of 6 s, no check ever running to its full time, which would
renew the solver) decided 26 % of its first 50 sets and 12 % of the rest. A fresh solver's
first check costs about a second more (building the model)."""
SOLVER_SEARCH = 15.0
"""Seconds of search after which a worker's solver is replaced as well, however few its checks
(`SOLVER_LIFE`; a check that ran out counts its whole limit): what slows a solver down is
mostly what it learnt in long fruitless searches. Pink's twenty-third round asked tries of 15 s
on solvers renewed every 25 checks and decided 20 of its first 147 sets; its first 26 asked
again in that order, side by side beside the round (two processes, 30 s each on half a core):
a fresh solver for each decided 10 (in 4-27 s), one renewed every 25 checks 8 (in 7-30 s);
the 7 both decided took the fresh solvers 48 s, the kept one 126 s. `benchmarks/
brix_solver_life.py` on the resumed round's first checked sets, alone on the machine: tries of
15 s, 26 sets, this rule 24 decided in 157 s, 25 checks alone 23 in 196 s; tries of 6 s, 40
sets, 19 in 202 s and 20 in 186 s (at short tries it renews every few and gains nothing)."""
Z3_PARAMS: dict[str, bool | int | float] = {"arith.solver": 2}
"""Z3 parameters of the audit's checks (`TowerSolver.z3_params`): the older simplex for arithmetic,
not Z3's default. Pink's sets of 6 cards, asked for 30 s on each side by side (beside a round, so
about half a core each; `benchmarks/brix_solver_life.py`): 30 that the default had decided in
pink's twenty-third round, default 28 in 385 s, this one 29 in 257 s; 30 the default had run out
of 15 s on there, 0 and 5; 20 of the file's sets undecided after 15 s, 3 and 6 (the default's 3
among them); 30 undecided after 6 s, 12 and 16, the 11 both decided in 230 s and 127 s. The
verify and deal solvers keep the default: there the older simplex lost a challenge tower the
default finds in 7 s (tenth session). Nothing gained on top of it or instead (the twenty-fifth
round's first 30 sets decided by a check, 30 s each, two side by side alone on the machine): it
decided 29 in 334 s; Z3's infinitary arithmetic (`arith.solver` 5) 29 in 346 s; with
`arith.propagation_mode` 2 29 in 349 s, `arith.branch_cut_ratio` 8 27 in 351 s,
`arith.random_initial_value` 26 in 384 s, `arith.greatest_error_pivot` 23 in 414 s."""
IMPLICATION_SECONDS = 30.0
"""Seconds per solver check of whether one card implies another (`implications`): each of
pink's 29 implications took at most 3 s to prove."""
PARENT_POLL = 0.5
"""Seconds between a worker's looks at whether the audit's process still runs."""


@dataclass(frozen=True)
class AuditSettings:
    seed: int = 0
    timeout: float = 60.0  # seconds per solver check
    samples: int = 20_000  # random standing towers drawn before any solver check
    max_cards: int | None = None  # only sets of at most this many cards (None: all sets)
    deals: int = 10_000  # sampled deals per level for the odds
    deal_seeds: int = 300  # of those, per level, decided first (they bound the odds)
    budget: float | None = None  # seconds for the whole search, then stop (incomplete)
    small: int = SMALL_CONFLICTS  # sets of up to this many cards are decided first
    small_timeout: float = SMALL_TIMEOUT  # seconds per check of such a set
    tries: tuple[float, ...] = (FIRST_TRY,)  # seconds of a set's short checks (none: no tries)

    def timeout_for(self, cards: int) -> float:
        """Seconds per check of a set of `cards` cards."""
        return max(self.timeout, self.small_timeout) if cards <= self.small else self.timeout

    def tries_for(self, cards: int) -> tuple[float, ...]:
        """Seconds of the short tries of a set of `cards` cards, shortest first: those shorter
        than its full check."""
        full = self.timeout_for(cards)
        return tuple(sorted({seconds for seconds in self.tries if 0 < seconds < full}))

    def next_try(self, cards: int, tried_at: float | None = None) -> float | None:
        """Seconds of the next check of a set of `cards` cards that ran out at `tried_at`
        seconds (None: never asked): the shortest try longer than that, or None: its full
        time limit."""
        return next((seconds for seconds in self.tries_for(cards)
                     if tried_at is None or seconds > tried_at), None)


def largest_deal(deck: Deck) -> int:
    """The most cards one round can hold: the top of the hardest level in the cheapest cards."""
    return max(high for _, high in LEVELS.values()) // min(c.points for c in deck.cards)


def level_deals(deck: Deck, level: str, count: int, seed: int) -> list[int]:
    """`count` deals of `level` drawn as `deals.draw_level` deals them, fixed by `seed`. A deck
    too small for a level's points gives fewer deals (none when it can never deal them)."""
    rng = random.Random(f"audit/{seed}/{level}")
    index = {card.id: k for k, card in enumerate(deck.cards)}
    out: list[int] = []
    for _ in range(2 * count):
        try:
            out.append(mask_of(index[c.id] for c in draw_level(deck, level, rng)))
        except ValueError:  # this point total cannot be made from the deck's cards
            continue
        if len(out) == count:
            break
    return out


# ------------------------------------------------------------------ the log (resume, sharing)


def cache_key(deck: Deck) -> str:
    """Hash of what decides the facts: conditions, rule, bricks, the deciding code and Z3's
    parameters (which checks run out of time)."""
    source = Path(__file__).resolve().parent
    payload = {
        "format": LOG_FORMAT,
        "z3_params": Z3_PARAMS,
        **deck.what_decides(),
        "code": {name: hashlib.sha256((source / f"{name}.py").read_bytes()).hexdigest()
                 for name in DECIDING_MODULES},
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:24]


def default_cache_dir() -> Path:
    """`audit/` in the folder tower pools are kept in (see `difficulty.cache_folder`); with
    caching turned off there, a fresh temporary folder, so an audit can still share its facts
    between its processes."""
    folder = cache_folder()
    return (folder if folder is not None else Path(tempfile.mkdtemp())) / "audit"


class AuditLog:
    """Facts learnt about a deck, one JSON object a line, appended as they come in. A line cut
    short by an interruption is ignored; `read_new` reads only what was appended since."""

    def __init__(self, folder: Path, deck: Deck) -> None:
        self.path = folder / f"{deck.name}-{cache_key(deck)}.jsonl"
        self.ids = [c.id for c in deck.cards]
        self.index = {card_id: k for k, card_id in enumerate(self.ids)}
        self.offset = 0

    def check_writable(self) -> None:
        """Fail early, in one line, when the cache folder cannot hold the log."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("ab"):
                pass
        except OSError as error:
            raise UserError(f"--cache: cannot write {self.path}: {error.strerror}") from None

    def ids_of(self, mask: int) -> list[str]:
        return [self.ids[k] for k in members(mask)]

    def mask(self, ids: Sequence[str]) -> int:
        return mask_of(self.index[i] for i in ids)

    def read_new(self) -> list[dict[str, Any]]:
        if not self.path.is_file():
            return []
        with self.path.open("rb") as log:
            log.seek(self.offset)
            data = log.read()
        end = data.rfind(b"\n") + 1  # a line still being written is left for next time
        self.offset += end
        records = []
        for line in data[:end].decode("utf-8").splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:  # cut short by an interruption
                continue
        return records

    def append(self, record: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("ab") as out:
            if out.tell() and not self._ends_with_newline():
                out.write(b"\n")  # after a line cut short: start a fresh one
            out.write((json.dumps(record, sort_keys=True) + "\n").encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())

    def _ends_with_newline(self) -> bool:
        with self.path.open("rb") as log:
            log.seek(-1, os.SEEK_END)
            return log.read(1) == b"\n"


class Facts:
    """Solvable sets and conflicts known so far, as bit masks over the deck's cards."""

    def __init__(self, n: int) -> None:
        self.solvable = MaskSet(n)
        self.conflicts = MaskSet(n)

    def learn(self, record: dict[str, Any], log: AuditLog) -> None:
        found = [log.mask(ids) for ids in record.get("found", [])]
        if record.get("kind") == SOLVABLE:
            found.append(log.mask(record["cards"]))
        if record.get("kind") == "pool":
            found += [log.mask(ids) for ids in record["solvable"]]
        for mask in found:
            self.solvable.add(mask)
        if record.get("kind") == UNSOLVABLE:
            self.conflicts.add(log.mask(record["cards"]))

    def solvable_known(self, mask: int) -> bool:
        return self.solvable.has_superset_of(mask)

    def unsolvable_known(self, mask: int) -> bool:
        return self.conflicts.has_subset_of(mask)


# ------------------------------------------------------------------ deciding one seed (worker)


@dataclass
class Outcome:
    """A decided seed. `mask`: solvable: every card the witness meets; unsolvable: the conflict;
    unknown: the seed itself. `found`: further solvable sets met while shrinking, or by a
    witness's colourings (`recolour`). `towers`: the checked towers met (each proves the cards
    it meets), kept beyond the log's life in a conflicts file (`conflicts`). `shrunk`: False
    for a conflict only found, not yet shrunk (a deal's, `Explorer`), which is to be shrunk
    later as a seed of its own. `tried_at`: for a conflict left not minimal by checks that ran
    out of time (not by the budget), the longest time limit they had: only a longer one may
    shrink it further; for a seed a short try ran out on (`SET_ASIDE`), that try's limit."""

    seed: int
    kind: str
    mask: int
    minimal: bool = True
    found: list[int] = field(default_factory=list)
    checks: int = 0
    seconds: float = 0.0
    note: str = ""
    trace: list[tuple[int, str, float]] = field(default_factory=list)  # (cards, status, s)
    towers: list[Tower] = field(default_factory=list)
    shrunk: bool = True
    tried_at: float | None = None


class SeedDecider:
    """One process's solver for a deck, kept across seeds (its stability lemmas stay valid)."""

    def __init__(
        self, deck: Deck, settings: AuditSettings, log: AuditLog, solvable: Sequence[int] = (),
    ) -> None:
        """`solvable`: sets known solvable before this audit (`Explorer.known_towers`)."""
        self.deck = deck
        self.seed = settings.seed
        self.timeout_for = settings.timeout_for
        # When the audit's budget ends (`time.monotonic()`, which is the same clock in every
        # process of the machine), or None: no check runs past it.
        self.stop_at: float | None = None
        self.solver = self._fresh_solver()
        self.asked = 0  # the cards this solver has been asked about (its switches)
        self.answered = 0  # the checks it has run (`SOLVER_LIFE`)
        self.searched = 0.0  # the seconds they took (`SOLVER_SEARCH`)
        self.items = [c.item() for c in deck.cards]
        self.index = {item.label: k for k, item in enumerate(self.items)}
        # The retry's hint: a mirror-symmetric tower is half a tower to find, and sets near a
        # conflict are often met by one (benchmarks/brix_split_cases.py, "by cases, hint").
        self.hint = default_challenges(deck.bricks.color_names).get(HINT_CHALLENGE).item()
        self.log = log
        self.facts = Facts(len(deck.cards))
        for mask in solvable:
            self.facts.solvable.add(mask)

    def check(
        self, mask: int, outcome: Outcome, short: float | None = None,
    ) -> tuple[str, int, str]:
        """(status, cards met by the witness or cards in the unsat core, note); "unknown" with
        the note `BUDGET_SPENT` when the audit's budget ended first, or starting with
        `SET_ASIDE` when a `short` try ran out (`AuditSettings.tries`). The check goes into the
        `outcome`'s trace, and the witness, if any, into its towers."""
        start = time.monotonic()
        status, found, note, tower = self._check(mask, short)
        seconds = time.monotonic() - start
        outcome.trace.append((mask.bit_count(), status, round(seconds, 3)))
        if tower is not None:
            outcome.towers.append(tower)
            if seconds >= RECOLOUR_AFTER:
                for met, other in recoloured(self.deck, tower, lambda m: (
                        m & ~found == 0 or self.facts.solvable_known(m))):
                    outcome.towers.append(other)
                    outcome.found.append(met)
                    self.facts.solvable.add(met)
        return status, found, note

    def _renew_solver(self) -> None:
        self.solver, self.asked, self.answered, self.searched = self._fresh_solver(), 0, 0, 0.0

    def _fresh_solver(self) -> TowerSolver:
        return TowerSolver(self.deck.bricks, self.deck.all_used, seed=self.seed,
                           library=shape_library(self.deck.bricks, self.deck.all_used),
                           solvable_known=self._solvable_known, z3_params=Z3_PARAMS)

    def _solvable_known(self, items: Sequence[Labeled]) -> bool:
        """Are these cards known solvable (a hint or a case, no card, never is)?"""
        return all(item.label in self.index for item in items) and self.facts.solvable_known(
            mask_of(self.index[item.label] for item in items))

    def _check(
        self, mask: int, short: float | None = None,
    ) -> tuple[str, int, str, Tower | None]:
        """With `short`, one check of that many seconds, whose running out is noted
        `SET_ASIDE`. Otherwise asked on the
        kept solver first; if that runs out of time, once more split into
        cases after a mirror-symmetric tower is looked for (`TowerSolver.check_by_cases` with
        the `HINT_CHALLENGE` hint), on a fresh solver, which then replaces it, if
        the kept one has been asked about other cards. Every card a solver was asked about
        stays in its Z3 model (switched off, but there), and a solver that had answered a few
        thousand questions took 2-4 times as long for the same proof: G25 G31 G37 and G09 G32
        G48 were undecided at 60 s in the fourteenth session's audit, and a fresh solver
        proves them in 8-9 s (benchmarks/RESULTS.md)."""
        if short is not None:
            status, found, note, tower = self._check_on(mask, limit=short)
            if note.startswith(TIME_LIMIT):
                note = f"{SET_ASIDE} {short:g} s"
            return status, found, note, tower
        answer = self._check_on(mask)
        if answer[0] == UNKNOWN and answer[2] != BUDGET_SPENT:
            if self.asked & ~mask:
                self._renew_solver()
            answer = self._check_on(mask, by_cases=True)
        return answer

    def budget_spent(self) -> bool:
        return self.stop_at is not None and time.monotonic() >= self.stop_at

    def _check_on(
        self, mask: int, by_cases: bool = False, limit: float | None = None,
    ) -> tuple[str, int, str, Tower | None]:
        """One check, of `limit` seconds (None: the set's time limit), on a fresh solver
        once the kept one has run `SOLVER_LIFE` checks or searched `SOLVER_SEARCH` seconds
        (but for the retry `by_cases`, which `_check` renews as it needs)."""
        if self.answered >= SOLVER_LIFE or (self.searched >= SOLVER_SEARCH and not by_cases):
            self._renew_solver()
        self.asked |= mask
        self.answered += 1
        items = [self.items[k] for k in members(mask)]
        timeout = self.timeout_for(mask.bit_count()) if limit is None else limit
        start = time.monotonic()
        deadline = start + timeout
        cut = self.stop_at is not None and self.stop_at < deadline
        if cut:
            deadline = self.stop_at
        try:
            # Any tower will do (its cards are learnt as a solvable set), so the first one
            # either of the solver's workers finds ends the check.
            status, tower, core = (self.solver.check_by_cases(items, deadline, self.hint)
                                   if by_cases
                                   else self.solver.check(items, deadline, any_tower=True))
        except WitnessRejected as error:  # a solver bug: never trusted, reported as undecided
            return UNKNOWN, mask, str(error), None
        self.searched += deadline - start if status == UNKNOWN else time.monotonic() - start
        if status == SOLVABLE and tower is not None:
            return SOLVABLE, self.deck.cards_met(tower), "", tower
        if status == UNSOLVABLE:
            labels = {item.label for item in core}
            return UNSOLVABLE, mask_of(k for k in members(mask)
                                       if self.items[k].label in labels), "", None
        return UNKNOWN, mask, BUDGET_SPENT if cut else f"{TIME_LIMIT} {timeout:g} s", None

    def implies(self, one: int, other: int, stop_at: float | None = None) -> str:
        """Whether card `one` implies card `other` (`implications.meets_one_not_other`:
        UNSOLVABLE when it does), no check running past `stop_at`."""
        seconds = IMPLICATION_SECONDS if stop_at is None else min(
            IMPLICATION_SECONDS, stop_at - time.monotonic())
        if seconds <= 0:
            return UNKNOWN
        start = time.monotonic()
        status, checks = meets_one_not_other(self.solver, self.deck.cards[one].condition,
                                             self.deck.cards[other].condition, seconds)
        self.answered += checks  # they age the solver too (`SOLVER_LIFE`, `SOLVER_SEARCH`)
        self.searched += time.monotonic() - start
        return status

    def decide(
        self, seed: int, stop_at: float | None = None, shrink: bool = True,
        short: float | None = None,
    ) -> Outcome:
        """Decide `seed` (grown when solvable, shrunk when not, or only found with `shrink`
        False; with `short`, asked for that many seconds only, noted in `tried_at` when they
        run out), with no check running past `stop_at`: a conflict whose shrinking the budget
        cuts short is kept, not minimal."""
        start = time.monotonic()
        self._catch_up(stop_at)
        outcome = Outcome(seed, UNKNOWN, seed, checks=1)
        status, found, outcome.note = self.check(seed, outcome, short)
        outcome.kind = status
        if outcome.note.startswith(SET_ASIDE):
            outcome.tried_at = short
        if status != UNKNOWN:
            outcome.mask = found
        if status == UNSOLVABLE:
            if shrink:
                outcome.mask, outcome.minimal = self.shrink(found, outcome)
            else:
                outcome.minimal, outcome.shrunk = found.bit_count() == 1, False
        outcome.seconds = time.monotonic() - start
        return outcome

    def minimise(self, core: int, stop_at: float | None = None) -> Outcome:
        """Shrink `core`, a conflict found earlier and not shrunk (`decide` with `shrink`
        False)."""
        start = time.monotonic()
        self._catch_up(stop_at)
        outcome = Outcome(core, UNSOLVABLE, core)
        outcome.mask, outcome.minimal = self.shrink(core, outcome)
        outcome.seconds = time.monotonic() - start
        return outcome

    def _catch_up(self, stop_at: float | None) -> None:
        """Before a task: take its time limit, and what the other processes logged meanwhile."""
        self.stop_at = stop_at
        for record in self.log.read_new():  # what the other processes found meanwhile
            self.facts.learn(record, self.log)

    def shrink(self, core: int, outcome: Outcome) -> tuple[int, bool]:
        """A minimal conflict inside `core`. First re-solve the core while Z3 keeps returning a
        smaller one (cheap: unsolvable answers come fast); then the cards in doubt (those whose
        absence no known solvable set shows fatal) dropped together (`shrink.dropped_together`);
        then deletion: drop each card whose absence keeps the set unsolvable. A card stays only
        when the rest is solvable, so what remains is minimal unless some check was undecided
        (`Outcome.tried_at`). A core each of whose parts of one card fewer is known solvable
        is minimal as it is: asking it again cost 15 % of a pink round's time on the sets of 6
        cards, whose every part is known solvable once the file is complete up to 5."""
        if self._minimal_known(core):
            return core, True
        kept = core
        while kept.bit_count() > 1 and not self.budget_spent():
            status, found, _ = self.check(kept, outcome)
            outcome.checks += 1
            if status != UNSOLVABLE or found == kept:
                break
            kept = found

        def clash(cards: list[int]) -> bool | None:
            trial = mask_of(cards)
            if self.facts.unsolvable_known(trial):
                return True
            if self.budget_spent():
                return None
            status, found, _ = self.check(trial, outcome)
            outcome.checks += 1
            if status == SOLVABLE:
                self.facts.solvable.add(found)
                outcome.found.append(found)
            return None if status == UNKNOWN else status == UNSOLVABLE

        cards = members(kept)
        together = dropped_together(
            cards, [k for k in cards if self.facts.solvable_known(kept & ~(1 << k))],
            lambda trial: self.facts.solvable_known(mask_of(trial)), clash)
        if together is not None:
            return mask_of(together), True
        limits: list[float | None] = []  # of the checks that ran out: theirs (None: a fault)
        for k in members(kept):
            if not kept >> k & 1:
                continue
            trial = kept & ~(1 << k)
            if self.facts.solvable_known(trial):
                continue
            if self.facts.unsolvable_known(trial):
                kept = trial
                continue
            if self.budget_spent():
                return kept, False
            status, found, note = self.check(trial, outcome)
            outcome.checks += 1
            if status == SOLVABLE:
                self.facts.solvable.add(found)
                outcome.found.append(found)
            elif status == UNSOLVABLE:
                kept = found
            elif note == BUDGET_SPENT:
                return kept, False
            else:
                limits.append(self.timeout_for(trial.bit_count())
                              if note.startswith(TIME_LIMIT) else None)
        if None not in limits:
            outcome.tried_at = longest_limit(*limits)
        return kept, not limits

    def _minimal_known(self, mask: int) -> bool:
        return mask.bit_count() > 1 and all(
            self.facts.solvable_known(mask & ~(1 << k)) for k in members(mask))


_DECIDER: SeedDecider | None = None


def _start_worker(
    deck: Deck, settings: AuditSettings, folder: Path, solvable: Sequence[int],
) -> None:
    global _DECIDER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _exit_with_parent()
    _DECIDER = SeedDecider(deck, settings, AuditLog(folder, deck), solvable)


def _exit_with_parent() -> None:
    """End this worker as soon as the audit's own process is gone. The parent stops its
    workers on Ctrl-C, but when it is killed outright (`kill`, a job's time limit) nobody
    does: a worker went on with its check at full speed and then waited forever for work."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _decide(seed: int, stop_at: float | None, shrink: bool, short: float | None) -> Outcome:
    assert _DECIDER is not None, "worker not started"
    return _DECIDER.decide(seed, stop_at, shrink, short)


def _implies(one: int, other: int, stop_at: float | None) -> str:
    assert _DECIDER is not None, "worker not started"
    return _DECIDER.implies(one, other, stop_at)


def _minimise(core: int, stop_at: float | None) -> Outcome:
    assert _DECIDER is not None, "worker not started"
    return _DECIDER.minimise(core, stop_at)


def pool_chunks(samples: int) -> list[tuple[int, int]]:
    """(chunk, towers) for each chunk of a pool of `samples` towers, as `_pool_chunk` draws it."""
    return [(k, min(POOL_CHUNK, samples - k * POOL_CHUNK))
            for k in range((samples + POOL_CHUNK - 1) // POOL_CHUNK)]


def _pool_chunk(deck: Deck, seed: int, chunk: int, size: int) -> list[int]:
    """Card sets met by one chunk of the tower pool (seeded by the run's seed and the chunk)."""
    chunk_seed = int.from_bytes(hashlib.sha256(f"{seed}/{chunk}".encode()).digest()[:8], "big")
    return [deck.cards_met(tower)
            for tower in sample_towers(deck.bricks, deck.all_used, size, seed=chunk_seed)]


# ------------------------------------------------------------------ the search (parent)


def _stop(executor: ProcessPoolExecutor) -> None:
    """On an interruption: end this pool's worker processes now (a check may otherwise run on
    for its whole time limit), by their ids; what they were deciding is simply not logged.

    Then wait for the pool's manager thread to finish its clean-up: Python 3.11's exit hook
    wakes every live manager thread through a pipe that thread may be closing at that moment,
    and the race printed "OSError: Bad file descriptor" after our one-line message."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)
    if manager is not None:
        manager.join(5)


@dataclass
class Exploration:
    """What the audit learnt. `complete`: every set of cards (up to `max_cards`) is explained,
    so `muses` are all the minimal conflicts there are. `conflicts_unminimised`: unsolvable
    sets a check ran out of time minimising that contain no MUS found (they hide one)."""

    muses: list[int]
    conflicts_unminimised: list[int]
    unknown: list[int]
    solvable: list[int]
    checks: int
    seconds: float
    resumed: int  # facts read back from the log
    complete: bool
    stopped: bool  # the time budget ran out
    complete_up_to: int  # every conflict of at most this many cards is among `muses`
    taken: int = 0  # of `muses`, those taken as known (`Explorer.known`), not proved here
    taken_up_to: int = 0  # sets of up to this many cards taken as decided (`Explorer.known_up_to`)
    towers_taken: int = 0  # checked towers taken as known (`Explorer` `known_towers`)
    towers_recoloured: int = 0  # colourings of them meeting known undecided sets
    unminimised_taken: int = 0  # conflicts to shrink taken as known (`known_unminimised`)
    unminimised_left: int = 0  # of those, not shrunk again: no longer time limit than before
    unminimised_too_large: int = 0  # of those, not shrunk: more cards than `max_cards`
    unminimised_tried_at: dict[int, float] = field(default_factory=dict)
    """Of `conflicts_unminimised`, the time limit their shrinking ran out at, where known."""
    budget_cut: list[int] = field(default_factory=list)  # of `unknown`, cut short by the budget
    undecided_tried_at: dict[int, float] = field(default_factory=dict)
    """Sets checks ran out of time on, with the longest limit tried: this run's and the
    undecided sets taken as known (`known_undecided`) that it did not decide."""
    undecided_taken: int = 0  # of those taken as known, set aside without a check
    first_tries_taken: int = 0  # of those taken as known, set aside as after a first try
    passed: int = 0  # seeds passed over unasked beside undecided sets (`UNDECIDED_NEIGHBOURS`)
    met_by_colourings: int = 0  # seeds settled unasked by a colouring of a tower met before
    implications: int = 0  # pairs of cards proved to imply one another (`implications`)
    conflicts_implied: int = 0  # seeds settled unasked: they imply a known conflict's cards
    swept: int = 0  # sets of `taken_up_to` + 1 cards open at the start, listed (`CardMap.sweep`)
    towers: list[Tower] = field(default_factory=list)
    """Checked towers met by the solver or taken as known, one for each of the maximal
    `solvable` sets such a tower meets (the pool's towers are drawn again from the seed)."""


Progress = Callable[[dict[str, Any]], None]


class KnownConflictDisputed(Exception):
    """A conflict taken as known (`Explorer.known`) is not one, or not minimal, or a new small
    conflict belies the completeness taken as known (`Explorer.known_up_to`): `why`; `mask`:
    the known conflict, or the new one."""

    def __init__(self, mask: int, why: str) -> None:
        super().__init__(why)
        self.mask = mask
        self.why = why


class Explorer:
    """Runs MARCO for one deck: the map here, the solver checks in a process pool."""

    def __init__(
        self, deck: Deck, settings: AuditSettings, cache_dir: Path | None,
        known: Sequence[int] = (), known_up_to: int = 0, known_towers: Sequence[Tower] = (),
        known_unminimised: Mapping[int, float | None] | None = None,
        known_undecided: Mapping[int, float] | None = None,
    ) -> None:
        """`known`: minimal conflicts earlier audits proved (a conflicts file, `--known`),
        taken as they are: the search explores only what they leave open. `known_up_to`: the
        file's `complete_up_to`, taken too: every set of that many cards or fewer holding none
        of them is solvable, so no set that small is asked again (pink's P08 P26 P44, solvable
        by an earlier audit, cost 480 s undecided in a later one). Both are still held against
        what this audit proves (`KnownConflictDisputed`). `known_towers`: the file's checked
        towers, whose cards are solvable sets from the start, in the workers too.
        `known_unminimised`: the file's sets no tower meets that are still to be shrunk, each
        with the time limit an earlier shrinking of it ran out at (`Outcome.tried_at`, None if
        none did): unsolvable from the start, and shrunk first among the conflicts to shrink
        unless this audit's checks would have no more time than then (green's four sets cost
        808 s of the twenty-ninth round's worker time and stayed as they were) or the set holds
        more cards than `max_cards`. `known_undecided`: the file's sets earlier checks ran out
        of time on, each with that limit: set aside as undecided from the start unless this
        audit's checks of them would have more time (those a first try ran out on: as after
        this audit's own first try)."""
        self.deck = deck
        self.settings = settings
        self.known = list(known)
        self.known_up_to = known_up_to
        self.map = CardMap(len(deck.cards), settings.max_cards, settings.seed)
        self.folder = cache_dir or default_cache_dir()
        self.log = AuditLog(self.folder, deck)
        self.known_towers = list(known_towers)
        self.towers_taken = len(known_towers)
        self.towers_recoloured = 0  # colourings of them meeting its undecided sets (`run`)
        self.colourings = ColouringIndex(deck)  # every tower met so far, in every colouring
        self.met_by_colourings = 0  # seeds it settled unasked (`_met_by_colouring`)
        # which card implies which: the solver's answer for each pair asked
        # (`_prove_implications`; UNSOLVABLE: no tower meets the first without the second)
        self.implication_answers: dict[tuple[int, int], str] = {}
        self.implications = Implications(len(deck.cards))
        self.conflicts_implied = 0  # seeds it settled unasked (`_implied_conflict`)
        self.swept = 0  # sets of the next size open at the start (`_sweep_next_size`)
        self.witnesses: dict[int, Tower] = {}  # a checked tower for each solvable set it meets
        for tower in known_towers:
            self.witnesses.setdefault(deck.cards_met(tower), tower)
        self.known_unminimised = dict(known_unminimised or {})
        # conflicts not known minimal: the limit their shrinking ran out at (`Outcome.tried_at`)
        self.unminimised: dict[int, float | None] = dict(self.known_unminimised)
        # A known set larger than `max_cards` is left alone: the exploration itself meets any
        # conflict of up to that many cards inside it (shrinking six such sets took nearly all
        # of the fortieth session's pink round).
        self.largest = settings.max_cards or len(deck.cards)  # the most cards a set explored holds
        within = {mask: tried_at for mask, tried_at in self.known_unminimised.items()
                  if mask.bit_count() <= self.largest}
        self.unminimised_too_large = len(self.known_unminimised) - len(within)
        self.to_shrink: list[int] = [  # conflicts found, not yet shrunk
            mask for mask, tried_at in within.items()
            if tried_at is None or settings.timeout_for(mask.bit_count() - 1) > tried_at]
        self.unminimised_left = len(within) - len(self.to_shrink)
        self.known_undecided = dict(known_undecided or {})
        # sets checks ran out of time on (the file's among them): the longest limit tried
        self.undecided: dict[int, float] = dict(self.known_undecided)
        self.undecided_taken = 0  # of the file's, those set aside without a check
        self.first_tries_taken = 0  # of the file's, those set aside as after a first try
        self.passed: set[int] = set()  # seeds set aside unasked (`UNDECIDED_NEIGHBOURS`)
        self.budget_cut: set[int] = set()  # sets left undecided because the budget ended
        self.checks = 0
        self.resumed = 0
        self.stopped = False

    def replay(self) -> bool:
        """Apply the log's facts; True when it already holds this run's tower pool."""
        has_pool = False
        for record in self.log.read_new():
            kind = record.get("kind")
            if kind == "pool":
                has_pool |= (record["seed"], record["samples"]) == (
                    self.settings.seed, self.settings.samples)
                self.map.add_solvable_many(self.log.mask(ids) for ids in record["solvable"])
            elif kind == "implication":
                one, other = (self.log.mask([card]).bit_length() - 1 for card in record["cards"])
                self.implication_answers[(one, other)] = record["answer"]
            elif kind == UNKNOWN and not self._unknown_stands(record):
                continue
            elif kind in (SOLVABLE, UNSOLVABLE, UNKNOWN):
                self._apply(self._outcome(record))
            else:
                continue
            self.resumed += 1
        return has_pool

    def _unknown_stands(self, record: dict[str, Any]) -> bool:
        """Whether a logged "unknown" holds for this run. One that ran out of its full limit,
        no shorter than this run's, stays undecided; one that ran out of a first try no shorter
        than this run's is set aside again, as the run that logged it did (before, a resumed run
        asked it anew and a log read back dropped it). Those cut short by the budget or a
        fault, or given less time than this run gives, are asked again."""
        cards, note, limit = len(record["seed"]), record["note"], record["timeout"]
        if note.startswith(TIME_LIMIT):
            return limit >= self.settings.timeout_for(cards)
        tries = self.settings.tries_for(cards)
        return note.startswith(SET_ASIDE) and bool(tries) and limit >= tries[0]

    def _outcome(self, record: dict[str, Any]) -> Outcome:
        return Outcome(
            self.log.mask(record["seed"]), record["kind"], self.log.mask(record["cards"]),
            record.get("minimal", True), [self.log.mask(ids) for ids in record.get("found", [])],
            note=record.get("note", ""),
            towers=[tuple(PlacedBrick(**brick) for brick in tower)
                    for tower in record.get("towers", [])],
            shrunk=record.get("shrunk", True),
            tried_at=record.get("timeout" if record["kind"] == UNKNOWN else "tried_at"),
        )

    def _record(self, outcome: Outcome) -> dict[str, Any]:
        record: dict[str, Any] = {
            "kind": outcome.kind, "seed": self.log.ids_of(outcome.seed),
            "cards": self.log.ids_of(outcome.mask), "checks": outcome.checks,
            "seconds": round(outcome.seconds, 3), "trace": outcome.trace,
        }
        if outcome.kind == UNSOLVABLE:
            record["minimal"] = outcome.minimal
            if not outcome.shrunk:
                record["shrunk"] = False
            if outcome.tried_at is not None:
                record["tried_at"] = outcome.tried_at
        if outcome.found:
            record["found"] = [self.log.ids_of(m) for m in outcome.found]
        if outcome.towers:
            record["towers"] = [[brick.as_json() for brick in tower] for tower in outcome.towers]
        if outcome.kind == UNKNOWN:
            record["timeout"] = self._limit_of(outcome)
            record["note"] = outcome.note
        return record

    def _apply(self, outcome: Outcome) -> None:
        if not outcome.note.startswith(SET_ASIDE):  # a log replayed: asked again since
            self.map.undefer(outcome.seed)
        for tower in outcome.towers:
            self.witnesses.setdefault(self.deck.cards_met(tower), tower)
            self.colourings.add(tower)
        for mask in outcome.found:
            self.map.add_solvable(mask)
        if outcome.kind == SOLVABLE:
            self.map.add_solvable(outcome.mask)
        elif outcome.kind == UNSOLVABLE:
            new = self.map.add_mus(outcome.mask)  # sound for the map even when not minimal
            if outcome.seed in self.to_shrink:  # this was its shrinking
                self.to_shrink.remove(outcome.seed)
            if outcome.minimal:
                self.unminimised.pop(outcome.mask, None)
            elif new or outcome.mask in self.unminimised:  # (one known minimal stays so)
                self.unminimised[outcome.mask] = longest_limit(
                    self.unminimised.get(outcome.mask), outcome.tried_at)
                if new and not outcome.shrunk:
                    self.to_shrink.append(outcome.mask)
        else:
            if outcome.note.startswith(SET_ASIDE):
                self.map.defer(outcome.seed)
            else:
                self.map.add_unknown(outcome.seed)
            if outcome.note.startswith((TIME_LIMIT, SET_ASIDE)):
                limit = self._limit_of(outcome)
                self.undecided[outcome.seed] = max(self.undecided.get(outcome.seed, limit), limit)
            if outcome.note == BUDGET_SPENT:
                self.budget_cut.add(outcome.seed)

    def _limit_of(self, outcome: Outcome) -> float:
        """The time limit an undecided outcome's check had."""
        if outcome.note.startswith(SET_ASIDE) and outcome.tried_at is not None:
            return outcome.tried_at
        return self.settings.timeout_for(outcome.seed.bit_count())

    def run(self, jobs: int, progress: Progress | None = None) -> Exploration:
        start = time.monotonic()
        budget = self.settings.budget
        stop_at = None if budget is None else start + budget  # the workers stop there too
        self.log.check_writable()
        has_pool = self.replay()
        self._recolour_known_towers(jobs)
        say = progress or (lambda _: None)
        context = get_context("spawn")  # no fork of a process holding Z3 contexts and threads
        with ProcessPoolExecutor(
            max_workers=jobs, mp_context=context, initializer=_start_worker,
            initargs=(self.deck, self.settings, self.folder, list(self.witnesses)),
        ) as executor:
            try:
                if not has_pool:
                    self._sample_pool(executor, say)
                self.map.add_solvable_many(self.witnesses)
                self._check_known()
                for mask in (*self.known, *self.known_unminimised):
                    self.map.add_mus(mask)  # sound for the map even when not minimal
                self.map.explain_up_to(self.known_up_to)
                self._prove_implications(executor, say, stop_at)
                self._set_aside_known_undecided()
                self._sweep_next_size(say, jobs)
                self._explore(executor, jobs, say, start, stop_at)
            except BaseException:
                _stop(executor)
                raise
        return self.result(time.monotonic() - start)

    def _recolour_known_towers(self, jobs: int = 1) -> None:
        """The file's towers in every colouring (`ColouringIndex`, built in `jobs` processes,
        which then serves every seed: `_met_by_colouring`), tried on its undecided sets that no
        tower meets yet: each was found in the colours one set asked for, and in others meets
        sets Z3 took a minute not to decide (green's file: 46 of 195 settled, 90 s; pink's
        after its tenth round: 675 of 2,788, 64 s), which the exploration then takes as
        solvable."""
        self.colourings.add_all(self.known_towers, jobs)
        met = MaskSet(len(self.deck.cards), self.witnesses)
        for mask in sorted(self.known_undecided):
            if not met.has_superset_of(mask):
                found = self.colourings.meeting(mask)
                if found is not None:
                    met.add(found[0])
                    self.witnesses.setdefault(*found)
                    self.towers_recoloured += 1

    def _met_by_colouring(self, seed: int) -> bool:
        """Settle `seed` (claimed) unasked, as solvable, when a colouring of a tower met so far
        meets it (the tower checked as any witness, logged as a solvable outcome of no check).
        Pink's eleventh round had asked Z3 about 109 such sets of its first 544, 54 of them in
        vain for 3 s; with the index it settled 283 more so."""
        found = self.colourings.meeting(seed)
        if found is None:
            return False
        met, tower = found
        self._settle_unasked(Outcome(seed, SOLVABLE, met, towers=[tower]))
        self.met_by_colourings += 1
        return True

    def _implied_conflict(self, seed: int) -> bool:
        """Settle `seed` unasked, as unsolvable, when its cards imply every card of a known
        conflict (`implications`): the conflict is the cards that do (`Implications.core`),
        minimal when each of its parts of one card fewer is known solvable, else shrunk later
        like a deal's conflict."""
        conflict = self.map.muses.subset_of(self.implications.closure(seed))
        if conflict is None:
            return False
        core = self.implications.core(seed, conflict)
        minimal = all(self._solvable_known(core & ~(1 << k)) for k in members(core))
        self._settle_unasked(Outcome(seed, UNSOLVABLE, core, minimal, shrunk=minimal))
        self.conflicts_implied += 1
        return True

    def _solvable_known(self, mask: int) -> bool:
        """A tower meets these cards, or they are few enough for the file `--known` to say
        (`known_up_to`) and hold none of the conflicts known."""
        return self.map.known_solvable(mask) or (
            mask.bit_count() <= self.known_up_to and not self.map.known_unsolvable(mask))

    def _settle_unasked(self, outcome: Outcome) -> None:
        """Take an answer found without a check: applied, its seed released if claimed, and
        logged as an outcome of no check."""
        self._apply(outcome)
        if self.map.pending(outcome.seed):
            self.map.settle(outcome.seed)
        self.log.append(self._record(outcome))

    def _answered_without_check(self, seed: int) -> bool:
        return self._met_by_colouring(seed) or self._implied_conflict(seed)

    def _prove_implications(
        self, executor: ProcessPoolExecutor, say: Progress, stop_at: float | None,
    ) -> None:
        """Ask the workers which card implies which, of the pairs no tower met so far tells
        apart (`implication_candidates`) and the log does not answer, each answer logged; the
        implications proved then settle sets unasked (`_implied_conflict`)."""
        cards = len(self.deck.cards)
        pairs = [pair for pair in implication_candidates(cards, self.map.solvable)
                 if self.implication_answers.get(pair, UNKNOWN) == UNKNOWN]
        if pairs:
            say({"phase": "implications", "pairs": len(pairs)})
        futures = [executor.submit(_implies, one, other, stop_at) for one, other in pairs]
        for (one, other), future in zip(pairs, futures, strict=True):
            answer = self.implication_answers[(one, other)] = future.result()
            self.log.append({"kind": "implication", "answer": answer,
                             "cards": [self.deck.cards[one].id, self.deck.cards[other].id]})
        self.implications = Implications(cards, [
            pair for pair, answer in sorted(self.implication_answers.items())
            if answer == UNSOLVABLE])

    def _sweep_next_size(self, say: Progress, jobs: int = 1) -> None:
        """List the open sets of one card more than the file `--known` is complete for, from
        their ranks (`open_sets_of_size`), for the map to take in turn (`CardMap.sweep`): a
        search of the map for each had become the round's bottleneck. Only past the small sets
        (`small_seed` walks those) and while the sets of that size are few enough to count."""
        size = self.known_up_to + 1
        if (not self.settings.small < size <= self.largest
                or math.comb(len(self.deck.cards), size) > MOST_SETS):
            return
        say({"phase": "sweep", "cards": size})
        open_sets = open_sets_of_size(len(self.deck.cards), size, self.map.solvable,
                                      self.map.muses, jobs)
        self.map.sweep(size, open_sets)
        self.swept = len(open_sets)

    def _sample_pool(self, executor: ProcessPoolExecutor, say: Progress) -> None:
        size = self.settings.samples
        futures = [executor.submit(_pool_chunk, self.deck, self.settings.seed, k, n)
                   for k, n in pool_chunks(size)]
        masks: list[int] = []
        for future in futures:
            masks.extend(future.result())
            say({"phase": "pool", "towers": len(masks), "of": size})
        self.map.add_solvable_many(masks)
        self.log.append({"kind": "pool", "seed": self.settings.seed, "samples": size,
                         "solvable": [self.log.ids_of(m) for m in self.map.solvable]})

    def _deal_seeds(self) -> Iterator[int]:
        """Sampled deals, the levels taken in turn, that nothing known explains."""
        per_level = [level_deals(self.deck, level, self.settings.deal_seeds, self.settings.seed)
                     for level in LEVELS]
        for k in range(max(map(len, per_level))):
            yield from (deals[k] for deals in per_level if k < len(deals))

    def _explore(
        self, executor: ProcessPoolExecutor, jobs: int, say: Progress, start: float,
        stop_at: float | None,
    ) -> None:
        deals = list(self._deal_seeds())
        running: dict[Future[Outcome], int] = {}
        turn = [0]

        def next_deal() -> int | None:
            while deals:
                deal = deals[0]
                if self.map.explained(deal) or (
                    self.settings.max_cards is not None
                    and deal.bit_count() > self.settings.max_cards
                ):
                    deals.pop(0)
                    continue
                if self.map.held_back(deal):
                    return None  # wait for the pending answer that may explain it
                return deals.pop(0)
            return None

        def next_core() -> int | None:
            """A conflict a deal met that is still to be shrunk and holds no known MUS yet."""
            hiding = [c for c in self.to_shrink if not self.map.held_back(c)
                      and not any(m != c and m & ~c == 0 for m in self.map.muses)]
            return hiding[0] if hiding else None

        def next_task() -> tuple[Callable[..., Outcome], int, tuple[Any, ...]] | None:
            """The small unexplored sets first (`SMALL_CONFLICTS`), those set aside after
            their first try last among them; then the sampled deals, only decided; then the
            map's maximal sets (mostly unsolvable, so quickly decided: they find conflicts
            fast) and the deals' conflicts to shrink, in turn; then the sets set aside."""
            if self.settings.small:
                small = self.map.small_seed(self.settings.small)
                if small is not None:
                    return _decide, small, (True, self._first_try(small))
                again = self._next_set_aside(self.settings.small)
                if again is not None:
                    return _decide, again[0], (True, again[1])
            if deals:
                deal = next_deal()
                if deal is not None:
                    self.map.claim(deal)
                    return _decide, deal, (False, self._first_try(deal))
                if deals:
                    return None  # wait: a pending answer may explain the next deal
            turn[0] += 1
            core = next_core()
            if core is None or turn[0] % 2 == 0:
                seed = self.map.seed_by_size()
                while seed is not None and (self._answered_without_check(seed)
                                            or self._passed_over(seed)):
                    seed = self.map.seed_by_size()
                if seed is not None:
                    return _decide, seed, (True, self._first_try(seed))
            if core is not None:
                self.map.claim(core)
                return _minimise, core, ()
            again = self._next_set_aside(None)
            return None if again is None else (_decide, again[0], (True, again[1]))

        while True:
            out_of_time = stop_at is not None and time.monotonic() > stop_at
            while len(running) < jobs and not out_of_time:
                task = next_task()
                if task is None:
                    break
                work, seed, extra = task
                if work is _decide and self._answered_without_check(seed):
                    continue
                running[executor.submit(work, seed, stop_at, *extra)] = seed
            if not running:
                self.stopped = out_of_time
                return
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: running[f]):
                seed = running.pop(future)
                outcome = future.result()
                self.checks += outcome.checks
                self._apply(outcome)
                self.map.settle(seed)
                self.log.append(self._record(outcome))
                say({"phase": "explore", "checks": self.checks, "muses": len(self.map.muses),
                     "solvable": len(self.map.solvable), "unknown": len(self.map.unknown),
                     "deals_left": len(deals), "seconds": time.monotonic() - start})

    def _first_try(self, mask: int) -> float | None:
        return self.settings.next_try(mask.bit_count())

    def _next_set_aside(self, largest: int | None) -> tuple[int, float | None] | None:
        """A set set aside (of at most `largest` cards) to ask now, claimed, with the seconds
        of its next try (None: its full time): the shortest next try first, those passed over
        unasked, with their first try, before those a try ran out on (pink's thirteenth round
        passed over nearly all of its 2,118 sets of 6 cards, which then came to their full time
        of a minute and more each, where a try of 3 s decides one in six). Those explained
        meanwhile are dropped."""
        def next_try(mask: int) -> float | None:
            return self.settings.next_try(mask.bit_count(), self.undecided.get(mask))

        ahead = [(mask, next_try(mask)) for mask in self.map.deferred()
                 if largest is None or mask.bit_count() <= largest]
        ahead.sort(key=lambda entry: math.inf if entry[1] is None else entry[1])
        for mask, short in ahead:
            if self.map.known_solvable(mask) or self.map.known_unsolvable(mask):
                self.passed.discard(mask)
                self.map.reconsider(mask)
            elif not self.map.held_back(mask):
                self.passed.discard(mask)
                self.map.retry(mask)
                return mask, short
        return None

    def _passed_over(self, seed: int) -> bool:
        """Set `seed` (claimed) aside unasked when it lies beside undecided sets
        (`_beside_undecided`), to ask once nothing else is left."""
        if not self._beside_undecided(seed):
            return False
        self.map.settle(seed)
        self.map.defer(seed)
        self.passed.add(seed)
        return True

    def _beside_undecided(self, seed: int) -> bool:
        """Does `seed`, to be asked with a first try, hold all but one card of at least
        `UNDECIDED_NEIGHBOURS` sets of its size that checks ran out on?"""
        cards = seed.bit_count()
        if not self.settings.tries_for(cards):
            return False
        near = (mask for mask in self.undecided
                if mask.bit_count() == cards and (mask & ~seed).bit_count() == 1)
        return len(list(islice(near, UNDECIDED_NEIGHBOURS))) == UNDECIDED_NEIGHBOURS

    def _set_aside_known_undecided(self) -> None:
        """The file's undecided sets this audit would ask with no more time than before are
        set aside as undecided (those it knows the answer for, those whose cards imply a known
        conflict's, `_implied_conflict`, and those it does not explore are not).
        Those only a first try ran out on, no shorter than this audit's, are set aside as
        after its own first try, to be asked again (with its next try, or its full time) once
        nothing else is left, as the audit that left them would have: of the 84 a green round
        left, the next round (not told of them) asked 16 anew, 13 of them in vain (130 s), 3
        solvable."""
        for mask, tried_at in self.known_undecided.items():
            cards = mask.bit_count()
            if cards > self.largest or self.map.explained(mask) or self._implied_conflict(mask):
                continue
            tries = self.settings.tries_for(cards)
            if tried_at >= self.settings.timeout_for(cards):
                self.map.add_unknown(mask)
                self.undecided_taken += 1
            elif tries and tried_at >= tries[0]:
                self.map.defer(mask)
                self.first_tries_taken += 1

    def _check_known(self) -> None:
        """Each known conflict against what this audit learnt: no tower met all its cards and
        no part of it was proved unsolvable (not asked of those still to shrink)."""
        for mask in (*self.known, *self.known_unminimised):
            if self.map.known_solvable(mask):
                raise KnownConflictDisputed(
                    mask, "is no conflict: this audit met a tower meeting every card of it")
        for mask in self.known:  # (numpy: a Python loop took 6 s over pink's 6,400 conflicts)
            part = self.map.muses.subset_of(mask, proper=True)
            if part is not None:
                raise KnownConflictDisputed(
                    mask, f"is not minimal: this audit proved its part '{self._ids(part)}' "
                          "unsolvable")
        known = set(self.known)
        small = next((m for m in self.map.muses
                      if m.bit_count() <= self.known_up_to and m not in known), None)
        if small is not None:
            raise KnownConflictDisputed(
                small, f"says every conflict of up to {self.known_up_to} cards is known, but "
                       f"this audit proved '{self._ids(small)}' unsolvable")

    def _ids(self, mask: int) -> str:
        return " ".join(self.deck.cards[k].id for k in members(mask))

    def result(self, seconds: float) -> Exploration:
        self._check_known()
        unminimised = self.unminimised
        muses = [m for m in self.map.muses if m not in unminimised]
        hiding = [c for c in unminimised if not any(m & ~c == 0 for m in muses)
                  and not any(u != c and u & ~c == 0 for u in unminimised)]
        order = lambda m: (m.bit_count(), members(m))  # noqa: E731
        # A set left undecided that a tower met later (a colouring of another's witness) is
        # decided; one later found to hold a conflict still hides its subsets, unasked.
        unknown = [m for m in (*self.map.unknown, *self.map.deferred())
                   if not self.map.known_solvable(m) and m not in self.passed]
        complete = self.map.closed and not unknown and not hiding
        complete_up_to = self.largest if complete else 0
        while complete_up_to < self.largest and not self.map.open_up_to(complete_up_to + 1):
            complete_up_to += 1
        if hiding:  # a conflict not minimised may hide a smaller one
            complete_up_to = min(complete_up_to, min(c.bit_count() for c in hiding) - 1)
        return Exploration(
            muses=sorted(muses, key=order), conflicts_unminimised=sorted(hiding, key=order),
            unknown=sorted(unknown, key=order), solvable=list(self.map.solvable),
            checks=self.checks, seconds=seconds, resumed=self.resumed,
            complete=complete, stopped=self.stopped, complete_up_to=complete_up_to,
            taken=len(set(self.known) & set(muses)), taken_up_to=self.known_up_to,
            towers_taken=self.towers_taken, towers_recoloured=self.towers_recoloured,
            unminimised_taken=len(self.known_unminimised),
            unminimised_tried_at={mask: tried_at for mask in hiding
                                  if (tried_at := unminimised[mask]) is not None},
            unminimised_left=self.unminimised_left,
            unminimised_too_large=self.unminimised_too_large,
            budget_cut=sorted(self.budget_cut, key=order),
            undecided_tried_at={mask: tried_at for mask, tried_at in sorted(
                self.undecided.items(), key=lambda entry: order(entry[0]))
                if not self.map.known_solvable(mask) and not self.map.known_unsolvable(mask)},
            undecided_taken=self.undecided_taken, first_tries_taken=self.first_tries_taken,
            passed=len([m for m in self.passed if not self.map.explained(m)]),
            met_by_colourings=self.met_by_colourings, swept=self.swept,
            implications=self.implications.count(),
            conflicts_implied=self.conflicts_implied,
            towers=[self.witnesses[m] for m in sorted(self.map.solvable, key=order)
                    if m in self.witnesses],
        )
