"""Deciding whether condition cards can be built: Z3 proposes, the equilibrium LP disposes.

The loop (counterexample-guided, "lazy" stability): Z3 finds a tower meeting the cards and the
necessary balance conditions in `model`; the LP in `statics` checks it exactly; if it falls, the
parts that cannot be held (each holding no smaller such part) are forbidden as lemmas and Z3 is
asked again. Lemmas are facts
about towers, not about cards, so they stay valid for every later question on the same solver.

Verdicts: "solvable" with a tower the independent checker has re-verified; "unsolvable" with a
minimal set of cards that already contradict each other (no axis-aligned tower in the model
meets them; the lattice cannot lean bricks diagonally); "unknown" when time ran out.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import z3

from tower_print.brix.bricks import BrickSet
from tower_print.brix.checker import check_witness
from tower_print.brix.difficulty import TowerPool
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.geometry import PlacedBrick, normalized
from tower_print.brix.language import Condition, parse
from tower_print.brix.model import DIRECTIONS, TowerModel
from tower_print.brix.search import SEARCH_STEPS, Tower, TowerSearch
from tower_print.brix.shapes import ShapeLibrary
from tower_print.brix.shrink import dropped_together
from tower_print.brix.statics import failing_parts, part_balanced
from tower_print.brix.symmetry import (
    colourings,
    interchangeable_colours,
    keeps_symmetry,
    most_symmetric_without_one,
    unnamed_colours,
)
from tower_print.brix.z3_threads import gc_paused

SOLVABLE, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"
HINT_WORK = 20_000_000
"""Z3 resource units (its deterministic `rlimit` count) one hint phase may use: about two
seconds on the 2-core machine the benchmarks ran on."""
PROBE_WORK = 2_000_000
"""Z3 resource units of the first, unhinted look (about 0.2 s). Cards that contradict each
other are mostly refuted there in 0.1-0.3 s, while under the hints, which steer Z3 towards towers
that stand, the same proof often ran out both hint budgets first (3-4 s per proof, and core
minimisation proves several)."""
SIDE_RATIO = 4
"""A side question (`TowerSolver._side_question`) must put at least this many times the
colourings of the main one in order: a side question costs main checks, and a gain of 2 did
not pay for them on the slow solvable deals."""
CASE_TEXT = "there are exactly {} vertical bricks"
"""The count `TowerSolver.check_by_cases` splits a question on: every deck's towers have some
number of upright bricks, from none to all."""


@dataclass(frozen=True)
class Labeled:
    """A condition with the name it is reported under (a card id, or the user's text)."""

    label: str
    text: str
    condition: Condition


@dataclass
class Verdict:
    status: str
    labels: tuple[str, ...]
    tower: tuple[PlacedBrick, ...] | None = None
    conflict: tuple[str, ...] | None = None
    conflict_minimal: bool = True
    seconds: float = 0.0
    candidates: int = 0
    lemmas: int = 0
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Pool, kept and Z3 towers sit anywhere on the lattice; users read the positions from
        # the tower's corner (`verify.building_steps`), as the search and deals give them.
        if self.tower is not None:
            self.tower = normalized(self.tower)


KNOWN_CONFLICT_NOTE = ("a conflict proved minimal before (content/brix/conflicts/ says how; "
                       "no solver call was needed)")


class TowerSolver:
    """One Z3 model of the bricks, asked about many condition sets (lemmas are kept)."""

    def __init__(
        self, brick_set: BrickSet, all_used: bool, seed: int = 0,
        hint_work: int = HINT_WORK, hints: str = "nested+compact,nested",
        probe_work: int = PROBE_WORK,
        search_steps: int = SEARCH_STEPS, nudge: bool = True,
        work: int = 0, pool: TowerPool | None = None, library: ShapeLibrary | None = None,
        conflicts: Sequence[frozenset[Condition]] = (), known_towers: TowerPool | None = None,
        solvable_known: Callable[[Sequence[Labeled]], bool] | None = None,
        z3_params: Mapping[str, bool | int | float] | None = None,
    ) -> None:
        self.hint_work = hint_work
        # Minimal sets of conditions the deck's audits proved no tower meets (`conflicts`,
        # smallest first): a question holding one is unsolvable, with that set as its
        # conflict, without asking Z3 again (see tower_print/brix/conflicts.py for why).
        self.conflicts = sorted(conflicts, key=len)
        # Shapes that stood in earlier witnesses, tried with every colouring before the search
        # moves a brick: the structures the search and Z3 find slowly recur across deals.
        self.library = library
        # Seeded random standing towers (the measured difficulty's reference pool): when one
        # of them meets the cards it is a ready, reproducible proof, found in microseconds.
        self.pool = pool
        # The towers the deck's audits met (`conflicts.known_towers`), asked the same way: each
        # meets a set of cards no random tower of the audit's pool met, so they answer hard
        # sets the pool cannot (benchmarks/RESULTS.md, "brix verify", counts them).
        self.known_towers = known_towers
        # Is this set of cards known solvable, with no tower at hand (an audit's facts)? Such
        # a set is never asked as a side question (`_side_question`): it has no proof to give.
        self.solvable_known = solvable_known
        # Z3 work units (rlimit) one question may use in all, 0 for no limit but the time: a
        # budget that, unlike seconds, runs out at the same point on every machine.
        self.work = work
        # Z3 parameters set on the model's solver, such as `arith.solver` (Z3's default: 6,
        # the older simplex: 2): which arithmetic solver decides a question sooner depends on
        # the question, by large factors both ways (benchmarks/RESULTS.md, tenth session; the
        # audit's choice: `audit.Z3_PARAMS`).
        self.z3_params = dict(z3_params or {})
        self.seed = seed
        self.brick_set = brick_set
        self.all_used = all_used
        # Z3's phases: the hints each switch on (by name, see `phases`) and the work each may
        # use; the last phase, with no hints and no budget but the time, is implied.
        self.probe_work = probe_work
        self._phase_plan = [((), probe_work)] if probe_work else []
        self._phase_plan += [(tuple(phase.split("+")), hint_work)
                             for phase in hints.split(",") if phase]
        self._switches: dict[Labeled, z3.BoolRef] = {}
        # Z3 may be interrupted only inside `check`. Z3_interrupt also sets a cancel flag on
        # the context that stays up until the next check begins, so an interrupt landing while
        # the Z3 thread read a model or added a lemma cut that work short: "sat" models breaking
        # the very cards assumed (~3 runs in 4 of the audit's brute-force test; none in 5 with
        # no interrupts). `_checking` is the context of the `check` under way (None outside
        # one), and after an interrupt the flag is cleared before anything else touches the
        # context (`_clear_interrupt`).
        self._guard = threading.Lock()
        self._checking: z3.Context | None = None
        self.candidates = 0
        self.lemmas = 0
        self.search = TowerSearch(brick_set, all_used, seed)
        self.search_steps = search_steps
        self.nudge = nudge

    @cached_property
    def model(self) -> TowerModel:
        """Built when Z3 is first needed: a question that a known conflict or the pool answers
        never needs it, and building it is 0.1 s of such a 0.2 s verify."""
        model = TowerModel(self.brick_set, self.all_used)
        model.solver.set("random_seed", self.seed)
        for name, value in self.z3_params.items():
            model.solver.set(name, value)
        return model

    @cached_property
    def phases(self) -> list[tuple[tuple[z3.BoolRef, ...], int]]:
        named = {"nested": self.model.nested, "compact": self.model.compact}
        return [(tuple(named[h] for h in hints), work) for hints, work in self._phase_plan]

    def _switch(self, item: Labeled) -> z3.BoolRef:
        """A literal of the solver's model that turns the card on (`card_switch`)."""
        if item not in self._switches:
            self._switches[item] = card_switch(self.model, len(self._switches), item)
        return self._switches[item]

    def check(
        self, items: Sequence[Labeled], deadline: float, any_tower: bool = False,
    ) -> tuple[str, tuple[PlacedBrick, ...] | None, tuple[Labeled, ...]]:
        """(status, stable tower or None, the cards that conflict when unsolvable: Z3's unsat
        core, or a known conflict).

        A known conflict of the deck that the cards hold decides at once (`conflicts`). A tower
        of the pool (when there is one) that meets the cards is taken next, then one of the
        `known_towers`. Otherwise
        two workers race: Z3 (in a thread; it runs in C and releases Python's lock) and the quick
        randomised search (`search`), which first tries the shape library's shapes in every
        colouring (`shapes`) and otherwise makes up to `search_steps` moves, starting and
        restarting from the library's near misses (`ShapeLibrary.nearest`). A tower the search
        finds within its moves is the answer; otherwise Z3's verdict is. So which tower is
        reported depends only on the question, never on which worker happens to be faster; the
        price is that a tower from Z3 waits until the search has made its moves (about a
        second). The search gets one short budget: on the 41 solvable benchmark deals the
        library misses, it found 19 within 1500 moves and only 4 more in the next 28500, while
        a longer budget made every deal that Z3 answers wait for it.
        `any_tower`: any tower will do (core minimisation needs only the status, the audit only
        some tower), so the first tower from either worker ends the race."""
        conditions = [(it.label, it.condition) for it in items]
        cards = [it.condition for it in items]
        conflict = self._known_conflict(items)
        if conflict is not None:
            return UNSOLVABLE, None, conflict
        known = self._ready_tower(items)
        if known is not None:
            return SOLVABLE, known, ()
        # Z3 terms are built here, not in the Z3 thread
        main = self._question(items)
        side = self._side_question(main)
        look = None if side is None or not self.probe_work else self._look_model(side)
        race = _Race(any_tower)
        # Z3 contexts are not thread-safe, and Python's cyclic garbage collector, run in this
        # thread, would free Z3 objects (Z3_dec_ref on the same context) while Z3 works in the
        # other: that corrupted Z3's state and produced towers breaking the cards (caught by
        # the checker, but a wrong "unsolvable" could not be ruled out). So no collection runs
        # during the race; reference counting still frees everything that is not a cycle.
        with gc_paused():
            worker = threading.Thread(
                target=race.run_z3,
                args=(lambda: self._z3_check(main, side, look, deadline, race),), daemon=True)
            worker.start()
            try:
                tower = None
                if self.library is not None:
                    tower = self.library.witness(cards, stop=race.search_may_stop)
                if tower is None and self.search_steps:
                    near = [] if self.library is None else self.library.nearest(
                        cards, lambda t: self.search.shortfall(t, cards),
                        stop=race.search_may_stop)
                    tower = self.search.find(cards, self.search_steps, deadline=deadline,
                                             stop=race.search_may_stop, restarts=near)
            except BaseException:  # Ctrl-C (or a failure) here: Z3 must not run on behind it
                self._stop_z3(race, worker)
                raise
            if tower is not None:
                self._stop_z3(race, worker)
            worker.join()
        if race.failure:
            raise race.failure[0]
        if tower is not None:
            if race.outcome and race.outcome[0][0] == UNSOLVABLE:
                raise _model_is_wrong(items, "the search found")
            check_witness(tower, self.brick_set, self.all_used, conditions)
            return SOLVABLE, tower, ()
        return race.outcome[0]

    def check_by_cases(self, items: Sequence[Labeled], deadline: float,
                       hint: Labeled | None = None, hint_share: float = 1 / 3) -> Outcome:
        """`check` with any tower, split into one question per number of upright bricks
        (`CASE_TEXT`): the cards hold some tower exactly when one case does, and they conflict
        when every case does (the conflict: every card some case's core names).

        Fixing the count steers both workers: of 13 pink sets a whole check left undecided
        at 60 s, the split decided 2 (towers in 44-47 s), and in most others every case but one
        or two was refuted within seconds (benchmarks/brix_split_cases.py). Each case of the
        first pass gets half of an even share of the time left, so that one hard case cannot
        hold up the others; later passes share all of it among the cases still undecided (one
        Z3 gave up on early is asked again) until the deadline. (Splitting such a last case
        once more, on the number of bricks on the table, left exactly the tower on one ground
        brick undecided in both sets tried: the hard part is that balance, not the count.)

        With `hint` (a condition narrowing the towers, such as the masterpiece challenge's
        mirror symmetry) the items and the hint are asked first, for `hint_share` of the time:
        a tower meeting both meets the items; "unsolvable" there says nothing about them."""
        if hint is not None:
            status, tower, _ = self.check(
                [*items, hint], time.monotonic() + hint_share * (deadline - time.monotonic()),
                any_tower=True)
            if status == SOLVABLE:
                return status, tower, ()
        colours = self.brick_set.color_names
        cases = [Labeled(text, text, parse(text, colours))
                 for text in (CASE_TEXT.format(n) for n in range(len(self.brick_set.bricks) + 1))]
        conflict: set[Labeled] = set()
        share = 0.5
        while cases:
            undecided = []
            for left, case in enumerate(cases):
                time_left = deadline - time.monotonic()
                if time_left <= 0:
                    return UNKNOWN, None, ()
                status, tower, core = self.check(
                    [*items, case], time.monotonic() + share * time_left / (len(cases) - left),
                    any_tower=True)
                if status == SOLVABLE:
                    return status, tower, ()
                if status == UNSOLVABLE:
                    conflict.update(it for it in core if it is not case)
                else:
                    undecided.append(case)
            cases, share = undecided, 1.0
        return UNSOLVABLE, None, tuple(it for it in items if it in conflict)

    def _ready_tower(
        self, items: Sequence[Labeled], library_until: float | None = None,
    ) -> tuple[PlacedBrick, ...] | None:
        """A checked tower meeting `items` from the pool or the known towers, found without a
        search; with `library_until` (a deadline) from the shape library as well."""
        cards = [it.condition for it in items]
        known = None
        for towers in (self.pool, self.known_towers):
            if known is None and towers is not None:
                known = towers.witness(cards)
        if known is None and library_until is not None and self.library is not None:
            known = self.library.witness(cards, stop=lambda: time.monotonic() > library_until)
        if known is None:
            return None
        check_witness(known, self.brick_set, self.all_used, [(it.label, it.condition)
                                                             for it in items])
        return known

    def _known_conflict(self, items: Sequence[Labeled]) -> tuple[Labeled, ...] | None:
        """The items of the smallest known conflict `items` hold, or None when they hold none."""
        given = {it.condition for it in items}
        for conflict in self.conflicts:
            if conflict <= given:
                return tuple(it for it in items if it.condition in conflict)
        return None

    def _stop_z3(self, race: _Race, worker: threading.Thread) -> None:
        """Stop the Z3 thread of a race and wait for it; lower the cancel flag if it was
        interrupted inside `check`."""
        race.stop_z3.set()
        interrupted = False
        while worker.is_alive():
            interrupted = self._interrupt() or interrupted
            worker.join(0.01)
        if interrupted:
            self._clear_interrupt()

    def _interrupt(self) -> bool:
        """Interrupt Z3 if it is inside `check` (anywhere else an interrupt would cut other
        work short, see __init__); whether it was."""
        with self._guard:
            if self._checking is not None:
                self._checking.interrupt()
                return True
        return False

    def _clear_interrupt(self) -> None:
        """Lower the cancel flag an interrupt may have left on the context: every check
        starts by lowering it, and one on an empty solver costs nothing."""
        z3.Solver(ctx=self.model.ctx).check()

    def _question(self, items: Sequence[Labeled], model: TowerModel | None = None) -> _Question:
        """The literals that ask Z3 about `items`, with the colours they cannot tell apart put
        in order, and the bricks of colours they do not name (tower_print/brix/symmetry.py);
        in the solver's model, or in another `model` (its cards switched on afresh)."""
        conditions = [it.condition for it in items]
        blocks = interchangeable_colours(conditions, self.brick_set)
        free = unnamed_colours(conditions, self.brick_set)
        bricks_in_order = len(free) > 1  # that order puts every block of these colours in order
        asked = self.model if model is None else model
        orders = {asked.colour_order(b): b for b in blocks
                  if not (bricks_in_order and set(b) <= set(free))}
        if bricks_in_order:
            orders[asked.brick_order(free)] = free
        switches = ({self._switch(it): it for it in items} if model is None
                    else {card_switch(model, k, it): it for k, it in enumerate(items)})
        return _Question(tuple(items), switches, orders)

    def _side_question(self, main: _Question) -> _Question | None:
        """The main question's cards but the one whose absence leaves the most colourings in
        order (`_z3_check` says how it is used), when that saves at least `SIDE_RATIO` times
        main's colourings and neither the pool nor the known towers hold one meeting the rest
        (then they can be built, and no proof is to be had there). It is asked more often the
        more it saves: half the ratio per check of the main question (one pink deal, 24
        colourings against 2: asked every other time it took 50 s, only it 37 s). Nor when the
        rest is `solvable_known`: an audit asks the sets of 5 cards whose every 4 it knows
        solvable, and a side question there only took time from the main one."""
        cards = [it.condition for it in main.items]
        dropped = most_symmetric_without_one(cards, self.brick_set)
        if dropped is None:
            return None
        rest = [it for k, it in enumerate(main.items) if k != dropped]
        blocks = interchangeable_colours([it.condition for it in rest], self.brick_set)
        ratio = colourings(blocks) // colourings(interchangeable_colours(cards, self.brick_set))
        if ratio < SIDE_RATIO or any(
                towers is not None and towers.witness([it.condition for it in rest]) is not None
                for towers in (self.pool, self.known_towers)) or (
                self.solvable_known is not None and self.solvable_known(rest)):
            return None
        return replace(self._question(rest), turns=ratio // 2)

    def _conflict(self, question: _Question, core: set[str]) -> tuple[Labeled, ...]:
        """The cards of an unsat core. When the core used a colour order, its cards alone
        are a proof only if they cannot tell those colours apart either; else the question's
        cards are (the order is sound for them)."""
        cards = tuple(it for lit, it in question.literals.items() if str(lit) in core)
        ordered = [b for lit, b in question.orders.items() if str(lit) in core]
        if ordered and not keeps_symmetry([c.condition for c in cards], ordered,
                                          self.brick_set):
            return question.items
        return cards

    def _z3_check(
        self, main: _Question, side: _Question | None, look: _Look | None, deadline: float,
        race: _Race,
    ) -> Outcome:
        """Z3 proposes, the LP disposes (`_z3_rounds`), while the falling candidates are nudged
        beside it (`_Nudges`): the first candidate, in Z3's order, that stands or has a nudge
        that stands is the answer, so the answer does not depend on which thread is faster."""
        def stop() -> bool:
            return race.stop_z3.is_set() or time.monotonic() > deadline

        nudges = _Nudges(
            (lambda candidate: self._nudged(candidate, main.items, stop)) if self.nudge else None,
            self._interrupt)
        try:
            outcome = self._z3_rounds(main, side, look, deadline, race, nudges)
        finally:
            nudged = nudges.settle()
        if nudged is None:
            return outcome
        if outcome[0] == UNSOLVABLE:
            raise _model_is_wrong(main.items, "a nudge of its own candidate gave")
        return SOLVABLE, nudged, ()

    def _z3_rounds(
        self, main: _Question, side: _Question | None, look: _Look | None, deadline: float,
        race: _Race, nudges: _Nudges,
    ) -> Outcome:
        """Z3's rounds of candidates and lemmas; UNKNOWN when the race stops Z3, the deadline
        passes or a nudge of an earlier candidate stood (`_z3_check` then returns that).

        `side` (`_side_question`): the cards without the one whose absence leaves the most
        colours interchangeable. It gets the first look (`_first_look`, asked of `look`), and
        once the hinted phases are over, Z3 is asked about it `side.turns` times for each time
        it is asked about the cards: a proof that it cannot be built settles the whole
        question, and with more colours in order Z3 meets each falling arrangement in fewer
        colourings (one pink deal, unknown at 120 s, was proved in 50 s this way). Its falling
        candidates teach lemmas like any other; once it has a standing tower it is no longer
        asked."""
        stop = race.stop_z3
        items = main.items
        solver = self.model.solver
        # Phases first, each with a budget of Z3 work (not of seconds, so that the same
        # question takes the same path on any machine and the answer is reproducible): a short
        # unhinted look (`PROBE_WORK`), then hints that narrow the search to towers that are
        # usually found fast. A phase ends when its budget is spent or its hints take part in a
        # contradiction; only a contradiction without hints is "unsolvable".
        phases = list(self.phases)
        if look is not None:
            refuted = self._first_look(look, deadline, stop)
            if refuted is not None:
                return refuted
        spent = used = final_checks = 0
        falling = None  # the latest falling candidate, nudged once Z3 looks for the next
        while True:
            if phases and spent >= phases[0][1]:
                phases.pop(0)
                spent = 0
                continue
            remaining = deadline - time.monotonic()
            if remaining <= 0 or stop.is_set():
                return UNKNOWN, None, ()
            solver.set("timeout", max(1, int(remaining * 1000)))
            limit = phases[0][1] - spent if phases else 0
            if self.work:
                if used >= self.work:
                    return UNKNOWN, None, ()
                limit = min(limit, self.work - used) if limit else self.work - used
            solver.set("rlimit", limit)
            before = _work_done(solver)
            ask = main
            if not phases:
                final_checks += 1
                if side is not None and final_checks % (side.turns + 1) != 1:
                    ask = side
            with self._guard:
                if stop.is_set():
                    return UNKNOWN, None, ()
                self._checking = self.model.ctx
            if falling is not None:
                # Only now: a nudge holding Python's lock delays each of the Z3 calls above
                # by up to the interpreter's switch interval (40 ms in all, as long as a nudge).
                nudges.start(falling)
                falling = None
            try:
                answer = solver.check(*ask.literals, *ask.orders,
                                      *(phases[0][0] if phases else ()))
            finally:
                with self._guard:
                    self._checking = None
            if stop.is_set():  # the search won; an interrupt may be pending: touch nothing
                return UNKNOWN, None, ()
            if nudges.found():  # it may have interrupted this check
                self._clear_interrupt()
                return UNKNOWN, None, ()
            spent += _work_done(solver) - before
            used += _work_done(solver) - before
            if answer == z3.unknown:
                if phases and time.monotonic() < deadline and not stop.is_set():
                    phases.pop(0)
                    spent = 0
                    continue
                return UNKNOWN, None, ()
            if answer == z3.unsat:
                core = {str(c) for c in solver.unsat_core()}
                blamed = {str(h) for h in (phases[0][0] if phases else ())} & core
                if blamed:
                    # Lemmas only ever add constraints, so every later phase that switches on
                    # all the blamed hints would be unsatisfiable too: skip it as well.
                    while phases and blamed <= {str(h) for h in phases[0][0]}:
                        phases.pop(0)
                    spent = 0
                    continue
                return UNSOLVABLE, None, self._conflict(ask, core)
            self.candidates += 1
            tower, indices = self.model.tower(solver.model())
            parts = failing_parts(tower, self.brick_set.stability_margin)
            if ask is side:
                if not parts and not meets(tower, self.brick_set, items):
                    side = None  # the side cards can be built: no proof to be had there
                    continue
                if parts:
                    self._learn(tower, indices, parts)
                    continue
            if not parts:
                check_witness(tower, self.brick_set, self.all_used,
                              [(it.label, it.condition) for it in items])
                return SOLVABLE, tower, ()
            if nudges.settle() is not None:  # the previous candidate's nudge stood
                return UNKNOWN, None, ()
            if stop.is_set() or time.monotonic() > deadline:
                return UNKNOWN, None, ()
            self._learn(tower, indices, parts)
            falling = tower

    def _look_model(self, side: _Question) -> _Look:
        """The side question asked of a model of its own, for `_first_look` (built here, in
        the caller's thread: built in Z3's thread it took 2.3 s instead of 0.4 s, the search
        holding Python's lock)."""
        model = TowerModel(self.brick_set, self.all_used)
        model.solver.set("random_seed", self.seed)
        return _Look(model, self._question(side.items, model))

    def _first_look(self, look: _Look, deadline: float, stop: threading.Event) -> Outcome | None:
        """The side question's refutation within `PROBE_WORK`, asked before anything else of
        a model of its own; None when there is none (or the race was stopped).

        Why: the side's proof settles the whole question, and it often comes at once where the
        main question runs out of its first look (P28 P23 P54 P25 P44 P31: 2-5 s to prove,
        while its side, with four colours more in order, is refuted within the first look).
        Why a model of its own (0.4 s to build): anything asked in the solver's context, even
        of a copy of the solver, changes the path Z3 takes on the main question afterwards,
        and with it which solvable deals are quick (asked in the solver itself, 24 deals with
        side questions took 6 % less time in all, but two turned from solvable into unknown at
        30 s and one the other way; with a model of its own the main question's path is the
        same as without the first look)."""
        solver = look.model.solver
        solver.set("rlimit", self.probe_work)
        solver.set("timeout", max(1, int((deadline - time.monotonic()) * 1000)))
        with self._guard:
            if deadline <= time.monotonic() or stop.is_set():
                return None
            self._checking = look.model.ctx
        try:
            answer = solver.check(*look.question.literals, *look.question.orders)
        finally:
            with self._guard:
                self._checking = None
        if answer != z3.unsat:
            return None
        return UNSOLVABLE, None, self._conflict(
            look.question, {str(c) for c in solver.unsat_core()})

    def _learn(
        self, tower: tuple[PlacedBrick, ...], indices: Sequence[int], parts: Sequence[set[int]]
    ) -> None:
        """The stability lemmas for a candidate whose `parts` cannot be held, smallest first
        (module docstring): for the smallest, the balance lemma and, when its centre of mass
        is over its supports and it still falls, the exact exclusion; for each other part, its
        balance lemma when that excludes the candidate. Learning every part at once spares Z3
        the candidates that mend one part and keep another (green hard deals of the verify
        benchmark: 112 -> 58 s summed, the one unknown at 60 s solved in 7 s); the exact
        exclusions of the other parts as well cost more Z3 time than they saved (75 s)."""
        margin = self.brick_set.stability_margin
        for rank, part in enumerate(parts):
            balanced = part_balanced(tower, part, margin, DIRECTIONS)
            if rank and balanced:
                continue
            self.model.require_part_balance([indices[k] for k in part])
            if balanced:
                self.model.forbid_unstable_part(tower, indices, part)
            self.lemmas += 1

    def _nudged(
        self, tower: tuple[PlacedBrick, ...], items: Sequence[Labeled], stop: Callable[[], bool],
    ) -> tuple[PlacedBrick, ...] | None:
        """Z3's tower meets the cards but falls: one brick shifted or turned, with or without
        what rests on it, may stand and still meet them (`TowerSearch.nudged`), saving rounds
        of stability lemmas. Fixed order, so the outcome is the same on every run; None when
        no nudge stands, or `stop()` (the race is over or time is up) cut the nudges short.
        A short search from the tower without its falling part was tried here as well: on 27
        slow deals it never found what the nudge had not, and it cost a tenth of their time
        (benchmarks/RESULTS.md, thirteenth session)."""
        conditions = [(it.label, it.condition) for it in items]
        nudged = self.search.nudged(tower, [c for _, c in conditions], stop)
        if nudged is not None:
            check_witness(nudged, self.brick_set, self.all_used, conditions)
        return nudged

    def verify(self, items: Sequence[Labeled], timeout: float) -> Verdict:
        start = time.monotonic()
        deadline = start + timeout
        first_candidates, first_lemmas = self.candidates, self.lemmas
        labels = tuple(it.label for it in items)
        status, tower, core = self.check(items, deadline)
        verdict = Verdict(status, labels, tower=tower)
        if status == UNSOLVABLE and self._known_conflict(core) is not None:
            verdict.conflict = tuple(it.label for it in core)  # minimal: the audit proved it
            verdict.notes.append(KNOWN_CONFLICT_NOTE)
        elif status == UNSOLVABLE:
            verdict.conflict, verdict.conflict_minimal = self._minimise(core, deadline)
        verdict.seconds = time.monotonic() - start
        verdict.candidates = self.candidates - first_candidates
        verdict.lemmas = self.lemmas - first_lemmas
        return verdict

    def _minimise(
        self, core: tuple[Labeled, ...], deadline: float
    ) -> tuple[tuple[str, ...], bool]:
        """Deletion-based core minimisation: drop each card whose absence keeps it unsolvable.
        Each step depends only on whether the remaining cards are solvable, not on which core
        Z3 returns or which tower shows a set solvable, so the conflict reported is the same on
        every run; cores and towers only spare checks (a set holding a core is unsolvable, one
        a tower met meets is solvable, without asking). If time runs out part-way, the core is
        still a real conflict, just maybe not minimal.

        The cards a ready tower (`_ready_tower`) shows needed, by meeting all the others, are
        found first, and the cards in doubt dropped together before one by one
        (`shrink.dropped_together`; P26 P25 P53 ... of the verify benchmark: its core's two
        spare cards, dropped one by one, took proofs of 19 s and 6 s; together, the second
        alone)."""
        needed = [it for it in core
                  if self._ready_tower([k for k in core if k != it], deadline) is not None]
        towers: list[tuple[PlacedBrick, ...]] = []

        def solvable_known(cards: list[Labeled]) -> bool:
            return any(meets(tower, self.brick_set, cards) for tower in towers)

        def clash(cards: list[Labeled]) -> bool | None:
            status, tower, _ = self.check(cards, deadline, any_tower=True)
            if tower is not None:
                towers.append(tower)
            return None if status == UNKNOWN else status == UNSOLVABLE

        together = dropped_together(core, needed, solvable_known, clash)
        if together is not None:
            return tuple(k.label for k in together), True
        kept = list(core)
        cores = [set(core)]
        minimal = True
        for item in (it for it in core if it not in needed):
            trial = [k for k in kept if k != item]
            if any(known <= set(trial) for known in cores):
                kept = trial
                continue
            if solvable_known(trial):
                continue
            status, tower, smaller = self.check(trial, deadline, any_tower=True)
            if status == UNSOLVABLE:
                cores.append(set(smaller))
                kept = trial
            elif status == UNKNOWN:
                minimal = False
            elif tower is not None:
                towers.append(tower)
        return tuple(k.label for k in kept), minimal


Outcome = tuple[str, tuple[PlacedBrick, ...] | None, tuple[Labeled, ...]]


@dataclass(frozen=True)
class _Question:
    """What one Z3 check assumes: a literal per card, and per block of colours the cards
    cannot tell apart, the literal putting it in order."""

    items: tuple[Labeled, ...]
    literals: dict[z3.BoolRef, Labeled]
    orders: dict[z3.BoolRef, tuple[str, ...]]
    turns: int = 1
    """Checks of this question (a side question) for each check of the main one."""


@dataclass(frozen=True)
class _Look:
    """A side question asked of a model of its own (`TowerSolver._first_look`)."""

    model: TowerModel
    question: _Question


def card_switch(model: TowerModel, number: int, item: Labeled) -> z3.BoolRef:
    """A literal that turns the card's condition on in `model`; a tracked assumption, so that
    unsat cores name cards."""
    literal = z3.Bool(f"card_{number}_{item.label}", model.ctx)
    model.solver.add(z3.Implies(literal, model.condition(item.condition)))
    return literal


def meets(tower: tuple[PlacedBrick, ...], brick_set: BrickSet, items: Sequence[Labeled]) -> bool:
    """Does the tower meet every card (the plain-Python evaluator)?"""
    evaluator = Evaluator(tower, brick_set)
    return all(evaluator.condition(it.condition) for it in items)


class _Nudges:
    """The nudge (`TowerSolver._nudged`) of Z3's latest falling candidate, run in a thread of its
    own while Z3 looks for the next candidate: on the slow green hard deals the nudges took a
    tenth of the time, all of it spent before Z3 could go on. A nudge that stands interrupts
    Z3's check (`interrupt`). One at a time, in Z3's order: `settle` waits for the one under
    way. `nudge`: the standing nudged tower of a candidate, or None; None for no nudges."""

    def __init__(
        self, nudge: Callable[[Tower], Tower | None] | None, interrupt: Callable[[], object],
    ) -> None:
        self.nudge = nudge
        self.interrupt = interrupt
        self.tower: Tower | None = None
        self.failure: list[BaseException] = []
        self.thread: threading.Thread | None = None

    def start(self, candidate: Tower) -> None:
        if self.nudge is not None:
            self.thread = threading.Thread(target=self._run, args=(candidate,), daemon=True)
            self.thread.start()

    def _run(self, candidate: Tower) -> None:
        assert self.nudge is not None
        try:
            self.tower = self.nudge(candidate)
        except BaseException as error:  # re-raised by `settle`, in Z3's thread
            self.failure.append(error)
        if self.tower is not None:
            self.interrupt()

    def found(self) -> bool:
        """Has a nudge stood (without waiting for the one under way)?"""
        return self.tower is not None

    def settle(self) -> Tower | None:
        """Wait for the nudge under way; the standing nudged tower, if one was found."""
        if self.thread is not None:
            self.thread.join()
            self.thread = None
        if self.failure:
            raise self.failure.pop()
        return self.tower


def _model_is_wrong(items: Sequence[Labeled], finder: str) -> AssertionError:
    """Z3 proved `items` unsolvable, yet `finder` a standing tower that meets them."""
    return AssertionError(
        f"Z3 says {' '.join(it.label for it in items)} cannot be built, yet {finder} a "
        f"standing tower that meets them: the model is wrong")


class _Race:
    """What the two workers of `TowerSolver.check` know of each other (rules there)."""

    def __init__(self, any_tower: bool) -> None:
        self.any_tower = any_tower
        self.outcome: list[Outcome] = []
        self.failure: list[BaseException] = []
        self.stop_z3 = threading.Event()
        self.z3_finished = threading.Event()

    def run_z3(self, check: Callable[[], Outcome]) -> None:
        try:
            self.outcome.append(check())
        except BaseException as error:  # re-raised by `check`, in the caller's thread
            self.failure.append(error)
        finally:
            self.z3_finished.set()

    def search_may_stop(self) -> bool:
        """Nothing the search finds from here on can be the answer: Z3 failed, proved the
        cards unsolvable, ran out of time, or found a tower when any tower will do."""
        if not self.z3_finished.is_set():
            return False
        if self.failure or not self.outcome or self.outcome[0][0] != SOLVABLE:
            return True
        return self.any_tower


def _work_done(solver: z3.Solver) -> int:
    """Z3's deterministic resource counter: grows with the work done, the same on every run."""
    stats = solver.statistics()
    keys = stats.keys()  # z3.Statistics has no __contains__
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in keys else 0
