"""Deciding whether condition cards can be built: Z3 proposes, the equilibrium LP disposes.

The loop (counterexample-guided, "lazy" stability): Z3 finds a tower meeting the cards and the
necessary balance conditions in `model`; the LP in `statics` checks it exactly; if it falls, the
smallest part that cannot be held is forbidden as a lemma and Z3 is asked again. Lemmas are facts
about towers, not about cards, so they stay valid for every later question on the same solver.

Verdicts: "solvable" with a tower the independent checker has re-verified; "unsolvable" with a
minimal set of cards that already contradict each other (no axis-aligned tower in the model
meets them; the lattice cannot lean bricks diagonally); "unknown" when time ran out.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import z3

from tower_print.brix.bricks import BrickSet
from tower_print.brix.checker import check_witness
from tower_print.brix.evaluate import holds
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import Condition
from tower_print.brix.model import DIRECTIONS, TowerModel
from tower_print.brix.sampling import sample_towers
from tower_print.brix.statics import part_balanced, smallest_failing_part

SOLVABLE, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"
HINT_WORK = 20_000_000
"""Z3 resource units (its deterministic `rlimit` count) one hint phase may use: about two
seconds on the 2-core machine the benchmarks ran on."""
STANDING_SAMPLES = 64
"""Random standing towers tried before Z3 when minimising a conflict (about 3 ms each)."""


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


class TowerSolver:
    """One Z3 model of the bricks, asked about many condition sets (lemmas are kept)."""

    def __init__(
        self, brick_set: BrickSet, all_used: bool, seed: int = 0,
        hint_work: int = HINT_WORK, hints: str = "nested+compact,nested",
    ) -> None:
        self.hint_work = hint_work
        self.seed = seed
        self.brick_set = brick_set
        self.all_used = all_used
        self.model = TowerModel(brick_set, all_used)
        self.model.solver.set("random_seed", seed)
        named = {"nested": self.model.nested, "compact": self.model.compact}
        self.hints = [
            tuple(named[h] for h in phase.split("+")) for phase in hints.split(",") if phase
        ]
        self._switches: dict[Labeled, z3.BoolRef] = {}
        self.candidates = 0
        self.lemmas = 0
        self._standing: list[tuple[PlacedBrick, ...]] | None = None

    def _switch(self, item: Labeled) -> z3.BoolRef:
        """A literal that turns the condition on; used as a tracked assumption for cores."""
        if item not in self._switches:
            literal = z3.Bool(f"card_{len(self._switches)}_{item.label}")
            self.model.solver.add(z3.Implies(literal, self.model.condition(item.condition)))
            self._switches[item] = literal
        return self._switches[item]

    def check(
        self, items: Sequence[Labeled], deadline: float
    ) -> tuple[str, tuple[PlacedBrick, ...] | None, tuple[Labeled, ...]]:
        """(status, stable tower or None, cards in Z3's unsat core when unsolvable)."""
        literals = {self._switch(item): item for item in items}
        solver = self.model.solver
        # Hints first, each with a budget of Z3 work (not of seconds, so that the same question
        # takes the same path on any machine and the answer is reproducible): they narrow the
        # search to towers that are usually found fast. A hint is dropped when its budget is
        # spent or it takes part in a contradiction; only then can "unsolvable" be concluded.
        hints = list(self.hints)
        spent = 0
        while True:
            if hints and spent >= self.hint_work:
                hints.pop(0)
                spent = 0
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return UNKNOWN, None, ()
            solver.set("timeout", max(1, int(remaining * 1000)))
            solver.set("rlimit", self.hint_work - spent if hints else 0)
            before = _work_done(solver)
            answer = solver.check(*literals, *(hints[0] if hints else ()))
            spent += _work_done(solver) - before
            if answer == z3.unknown:
                if hints and time.monotonic() < deadline:
                    hints.pop(0)
                    spent = 0
                    continue
                return UNKNOWN, None, ()
            if answer == z3.unsat:
                core = {str(c) for c in solver.unsat_core()}
                if hints and any(str(h) in core for h in hints[0]):
                    hints.pop(0)
                    spent = 0
                    continue
                conflict = tuple(it for lit, it in literals.items() if str(lit) in core)
                return UNSOLVABLE, None, conflict
            self.candidates += 1
            tower, indices = self.model.tower(solver.model())
            part = smallest_failing_part(tower, self.brick_set.stability_margin)
            if part is None:
                check_witness(tower, self.brick_set, self.all_used,
                              [(it.label, it.condition) for it in items])
                self._known_standing().append(tower)
                return SOLVABLE, tower, ()
            self.model.require_part_balance([indices[k] for k in part])
            if part_balanced(tower, part, self.brick_set.stability_margin, DIRECTIONS):
                self.model.forbid_unstable_part(tower, indices, part)
            self.lemmas += 1

    def verify(self, items: Sequence[Labeled], timeout: float) -> Verdict:
        start = time.monotonic()
        deadline = start + timeout
        first_candidates, first_lemmas = self.candidates, self.lemmas
        labels = tuple(it.label for it in items)
        status, tower, core = self.check(items, deadline)
        verdict = Verdict(status, labels, tower=tower)
        if status == UNSOLVABLE:
            verdict.conflict, verdict.conflict_minimal = self._minimise(core, deadline)
        verdict.seconds = time.monotonic() - start
        verdict.candidates = self.candidates - first_candidates
        verdict.lemmas = self.lemmas - first_lemmas
        return verdict

    def _minimise(
        self, core: tuple[Labeled, ...], deadline: float
    ) -> tuple[tuple[str, ...], bool]:
        """Deletion-based core minimisation: drop each card whose absence keeps it unsolvable.
        If time runs out part-way, the core is still a real conflict, just maybe not minimal."""
        kept = list(core)
        minimal = True
        for item in list(core):
            if item not in kept:
                continue
            trial = [k for k in kept if k != item]
            if self._met_by_known_tower(trial):
                continue
            status, _, smaller = self.check(trial, deadline)
            if status == UNSOLVABLE:
                kept = [k for k in kept if k in smaller] if smaller else trial
            elif status == UNKNOWN:
                minimal = False
        return tuple(k.label for k in kept), minimal

    def _known_standing(self) -> list[tuple[PlacedBrick, ...]]:
        """Towers known to stand: a few seeded random ones (milliseconds each) and every
        witness found so far. Used only to show that some cards can be met together."""
        if self._standing is None:
            self._standing = sample_towers(
                self.brick_set, self.all_used, STANDING_SAMPLES, seed=self.seed)
        return self._standing

    def _met_by_known_tower(self, items: Sequence[Labeled]) -> bool:
        """True when a known standing tower meets all `items` (re-checked by the independent
        checker), so they cannot contradict each other and no Z3 call is needed."""
        conditions = [(it.label, it.condition) for it in items]
        for tower in self._known_standing():
            if all(holds(c, tower, self.brick_set) for _, c in conditions):
                check_witness(tower, self.brick_set, self.all_used, conditions)
                return True
        return False


def _work_done(solver: z3.Solver) -> int:
    """Z3's deterministic resource counter: grows with the work done, the same on every run."""
    stats = solver.statistics()
    keys = stats.keys()  # z3.Statistics has no __contains__
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in keys else 0
