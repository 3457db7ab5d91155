"""Z3 model of the relaxed game (relaxed.py): the fewest turns in which one player can meet a
set of objectives on a side, with a play that does it, or a proof that no play can.

Variables per site: built, mine, colour, and an order number; a roof choice per possible build of
mine. From the order follow heights (1 + neighbours built later), visibility (no neighbour of the
roofed building built after the roof) and the floors each of my builds pays. A set of objectives
must hold together at the end of the play (a sufficient test that they can all be met). The
minimum comes from asking "turns <= k" for k = 1, 2, ... Each model has its own z3.Context: the
TowerBrix solver runs Z3 in threads, and sharing the default context caused bugs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from tower_print import z3check
from tower_print.towerup.board import Side
from tower_print.towerup.components import Rules
from tower_print.towerup.objectives import (
    DISTRICT,
    Clause,
    Count,
    Filter,
    Objective,
    Spread,
    Vocabulary,
    connected_sets,
)
from tower_print.towerup.relaxed import Outcome, Play, Step, meets, opponent_limit, replay

ACHIEVABLE, IMPOSSIBLE, UNKNOWN = "achievable", "impossible", "unknown"
EXIT_CODES = {ACHIEVABLE: 0, IMPOSSIBLE: 1, UNKNOWN: 3}
QUICK_TURNS = 8


@dataclass(frozen=True)
class Verdict:
    status: str
    turns: int | None  # the minimum, when achievable
    play: Play | None  # a play meeting the objectives in `turns` turns
    outcome: Outcome | None  # the play as replayed by relaxed.replay


class _Model:
    def __init__(self, side: Side, rules: Rules, words: Vocabulary, players: int,
                 objectives: Sequence[Objective], seed: int) -> None:
        self.ctx = z3check.new_context()
        self.side, self.rules, self.words = side, rules, words
        ctx = self.ctx
        self.solver = z3.Solver(ctx=ctx)
        self.solver.set("random_seed", seed)
        self.solver.set("arith.solver", 2)  # the older arithmetic solver: measured faster here
        add = self.solver.add
        sites = side.site_ids
        nb = side.neighbours
        n_col = len(rules.colours)
        zero, one = z3.IntVal(0, ctx), z3.IntVal(1, ctx)
        self.built = {s: z3.Bool(f"b_{s}", ctx) for s in sites}
        self.mine = {s: z3.Bool(f"m_{s}", ctx) for s in sites}
        # One Boolean per site and colour (exactly one when built): faster than an Int colour.
        self.is_col = {s: [z3.Bool(f"c_{s}_{c}", ctx) for c in rules.colours] for s in sites}
        self.t = {s: z3.Int(f"t_{s}", ctx) for s in sites}
        start = set(side.start_sites)
        for s in sites:
            add(z3.PbEq([(v, 1) for v in self.is_col[s]], 1))
            if s in start:
                add(self.built[s], z3.Not(self.mine[s]), self.t[s] == 0)
            else:
                add(self.t[s] >= 1, self.t[s] <= len(sites))
                add(z3.Implies(self.mine[s], self.built[s]))
                add(z3.Implies(self.built[s], z3.Or([self.before(n, s) for n in nb[s]], ctx)))
        # Only sites at most two streets apart are ever compared, so only they need distinct
        # order numbers; far sites may tie (any tie-break gives the same heights and roofs).
        for a, b in _near_pairs(side):
            if a not in start and b not in start:
                add(self.t[a] != self.t[b])
        for a, b in side.streets:
            add(z3.Implies(z3.And(self.built[a], self.built[b]),
                           z3.And([z3.Not(z3.And(x, y)) for x, y in
                                   zip(self.is_col[a], self.is_col[b], strict=True)])))
        self.height = {x: one + z3.Sum([z3.If(self.after(y, x), one, zero) for y in nb[x]])
                       for x in sites}
        # roof[s][x]: my build on s put its roof on x (s itself or a neighbour built before).
        self.roof: dict[str, dict[str, z3.BoolRef]] = {}
        for s in sites:
            if s in start:
                continue
            options = {x: z3.Bool(f"r_{s}_{x}", ctx) for x in (s, *nb[s])}
            self.roof[s] = options
            add(z3.Implies(self.mine[s], z3.PbEq([(v, 1) for v in options.values()], 1)))
            add(z3.Implies(z3.Not(self.mine[s]), z3.And([z3.Not(v) for v in options.values()])))
            for x, v in options.items():
                if x != s:
                    add(z3.Implies(v, self.before(x, s)))
        mine_count = z3.Sum([z3.If(self.mine[s], one, zero) for s in self.roof])
        add(mine_count <= rules.roofs_per_player)
        extra = []
        # Redundant but decisive for proofs: every build of mine pays at least one neighbour
        # (it must stand next to a building), so it places at least two floors.
        paid = z3.Sum([z3.If(z3.And(self.mine[s], self.before(y, s)), one, zero)
                       for s in self.roof for y in nb[s]])
        add(paid >= mine_count)
        for c in range(n_col):
            placed = [z3.If(z3.And(self.mine[s], self.is_col[s][c]), one, zero) for s in self.roof]
            placed += [z3.If(z3.And(self.mine[s], self.before(y, s), self.is_col[y][c]), one,
                             zero) for s in self.roof for y in nb[s]]
            need = z3.Sum(placed)
            extra.append(z3.If(need > rules.starting_floors, need - rules.starting_floors, zero))
            on_board = z3.Sum([z3.If(z3.And(self.built[s], self.is_col[s][c]), self.height[s],
                                     zero) for s in sites])
            add(on_board <= rules.floors_per_colour)
        self.takes = z3.Int("takes", ctx)
        add(self.takes >= 0, self.takes * rules.max_card_floors >= z3.Sum(extra))
        add(self.takes * rules.max_card_floors
            >= mine_count + paid - n_col * rules.starting_floors)
        self.turns = mine_count + self.takes
        others = z3.Sum([z3.If(z3.And(self.built[s], z3.Not(self.mine[s])), one, zero)
                         for s in self.roof])
        if players == 1:
            add(others == 0)
        else:
            add(others <= opponent_limit(players, 0, rules) + (players - 1) * self.turns)
        for objective in objectives:
            for clause in objective.clauses:
                add(self.clause(clause))
                add(mine_count >= _roofs_needed(clause, words))  # redundant, helps proofs
        if not any(c.filter.colour for o in objectives for c in o.clauses):
            # Colours are interchangeable: number them in order of first use on the start sites
            # (colour c may appear only after colour c - 1 has).
            first = [self.is_col[s] for s in side.start_sites]
            for k, options in enumerate(first):
                for c in range(1, n_col):
                    add(z3.Implies(options[c], z3.Or([earlier[c - 1] for earlier in first[:k]],
                                                     ctx)))

    def before(self, x: str, y: str) -> z3.BoolRef:
        """x is built and was built before y."""
        return z3.And(self.built[x], self.t[x] < self.t[y])

    def after(self, y: str, x: str) -> z3.BoolRef:
        """y is built and was built after x."""
        return z3.And(self.built[y], self.t[y] > self.t[x])

    def roofs(self, f: Filter) -> list[tuple[str, z3.BoolRef]]:
        """(roofed site, "my roof from build s went there and matches f") for every option."""
        nb = self.side.neighbours
        found = []
        for s, options in self.roof.items():
            for x, chosen in options.items():
                if f.district is not None and self.side.district_of[x] != f.district:
                    continue
                conds = [chosen]
                if f.visible:
                    conds += [z3.Not(self.after(y, s)) for y in nb[x] if y != s]
                if f.colour is not None:
                    conds.append(self.is_col[x][self.rules.colours.index(f.colour)])
                if f.min_height > 1:
                    conds.append(self.height[x] >= f.min_height)
                found.append((x, z3.And(conds)))
        return found

    def clause(self, clause: Clause) -> z3.BoolRef:
        ctx = self.ctx
        found = self.roofs(clause.filter)
        if isinstance(clause, Count):
            return z3.PbGe([(cond, 1) for _, cond in found], clause.n) if found \
                else z3.BoolVal(False, ctx)
        if isinstance(clause, Spread):
            if clause.key == DISTRICT:
                groups = [[c for x, c in found if self.side.district_of[x] == d]
                          for d in self.words.districts]
            else:
                groups = [[z3.And(c, self.is_col[x][k]) for x, c in found]
                          for k in range(len(self.rules.colours))]
            need = len(groups) if clause.n is None else clause.n
            return z3.PbGe([(z3.Or(g, ctx), 1) for g in groups], need)
        roofed = {x: z3.Or([c for y, c in found if y == x], ctx) for x in self.side.site_ids}
        return z3.Or([z3.And([roofed[x] for x in group], ctx)
                      for group in connected_sets(self.side.neighbours, clause.n)], ctx)

    def play(self, m: z3.ModelRef) -> Play:
        val = lambda e: m.eval(e, model_completion=True)  # noqa: E731
        start = tuple((s, self.colour(val, s)) for s in self.side.start_sites)
        steps = []
        for s in sorted((s for s in self.roof if z3.is_true(val(self.built[s]))),
                        key=lambda s: val(self.t[s]).as_long()):
            roof = next((x for x, v in self.roof[s].items() if z3.is_true(val(v))), None)
            steps.append(Step(s, self.colour(val, s), roof))
        return Play(start, tuple(steps))

    def colour(self, val: Callable[[z3.ExprRef], z3.ExprRef], site: str) -> str:
        return next(c for c, v in zip(self.rules.colours, self.is_col[site], strict=True)
                    if z3.is_true(val(v)))


def _roofs_needed(clause: Clause, words: Vocabulary) -> int:
    """A clause needs at least this many roofs of mine, one per counted roof, area or building."""
    if isinstance(clause, Spread) and clause.n is None:
        return len(words.districts if clause.key == DISTRICT else words.colours)
    return clause.n  # type: ignore[return-value]


def _near_pairs(side: Side) -> set[tuple[str, str]]:
    nb = side.neighbours
    pairs = set()
    for s in side.site_ids:
        for y in nb[s]:
            for z in (y, *nb[y]):
                if z != s:
                    pairs.add((min(s, z), max(s, z)))
    return pairs


def min_turns(side: Side, rules: Rules, words: Vocabulary, objectives: Sequence[Objective],
              players: int, timeout: float = 60.0, seed: int = 0,
              minimise: bool = True, at_least: int = 1) -> Verdict:
    """Fewest turns for one player to meet all `objectives` together (relaxed.py says exactly
    what counts), with a play checked by relaxed.replay; unknown when `timeout` seconds run out.
    `at_least`: a known lower bound (the search starts there). With `minimise` False, any play
    will do and `turns` is that play's (an upper bound)."""
    began = time.perf_counter()
    model = _Model(side, rules, words, players, objectives, seed)
    solver = model.solver

    def check(limit: int | None) -> z3.CheckSatResult:
        left = timeout - (time.perf_counter() - began)
        if left <= 0:
            return z3.unknown
        solver.set("timeout", max(1, int(left * 1000)))
        if limit is None:
            return z3check.check(solver)
        return z3check.check(solver, model.turns <= limit)

    def verdict(status: str, best: tuple[int, Play] | None = None) -> Verdict:
        if best is None:
            return Verdict(status, None, None, None)
        return Verdict(status, best[0], best[1], replay(side, rules, players, best[1]))

    # Upwards from one turn: small bounds are refuted at once and the first "sat" is the minimum
    # (measured faster than bisection, whose guesses near the optimum are slow). Past QUICK_TURNS
    # one unbounded check first, so an impossible objective is proved once, not once per bound.
    if not minimise:
        result = check(None)
        if result == z3.sat:
            return verdict(ACHIEVABLE, _found(model, solver.model(), side, rules, words, players,
                                              objectives))
        return verdict(IMPOSSIBLE if result == z3.unsat else UNKNOWN)
    limit = at_least
    possible = False
    while True:
        if limit > QUICK_TURNS and not possible:
            result = check(None)
            if result != z3.sat:
                return verdict(IMPOSSIBLE if result == z3.unsat else UNKNOWN)
            possible = True
        result = check(limit)
        if result == z3.unknown:
            return verdict(UNKNOWN)
        if result == z3.sat:
            return verdict(ACHIEVABLE, _found(model, solver.model(), side, rules, words, players,
                                              objectives))
        limit += 1


def _found(model: _Model, m: z3.ModelRef, side: Side, rules: Rules, words: Vocabulary,
           players: int, objectives: Sequence[Objective]) -> tuple[int, Play]:
    """The play in a model, re-checked without Z3: a disagreement is a bug, never a verdict."""
    play = model.play(m)
    outcome = replay(side, rules, players, play)
    if outcome.problems or not meets(outcome, list(objectives), words, side):
        raise AssertionError(f"Z3 play fails the independent replay: {outcome.problems}")
    turns = m.eval(model.turns, model_completion=True).as_long()
    if outcome.turns > turns:
        raise AssertionError(f"Z3 counts {turns} turns, the replay {outcome.turns}")
    return outcome.turns, _pruned(play, outcome.turns, side, rules, words, players, objectives)


def _pruned(play: Play, turns: int, side: Side, rules: Rules, words: Vocabulary, players: int,
            objectives: Sequence[Objective]) -> Play:
    """Drop opponents' builds the play does not need (Z3 adds them freely), latest first, so
    the witness shows only what matters."""
    steps = list(play.steps)
    for k in range(len(steps) - 1, -1, -1):
        if steps[k].mine:
            continue
        shorter = Play(play.start, tuple(steps[:k] + steps[k + 1:]))
        outcome = replay(side, rules, players, shorter)
        if not outcome.problems and outcome.turns <= turns \
                and meets(outcome, list(objectives), words, side):
            steps = list(shorter.steps)
    return Play(play.start, tuple(steps))
