"""The Z3 model of a TowerBrix tower.

Each brick has an integer minimum corner (x, y, z) on the lattice and one of the axis-aligned
extents of the brick; relations between bricks (touching, resting on, above) are linear
constraints over these integers, and conditions compile to Boolean formulas over them.

Extent of the lattice: a tower is connected by face contact, so along any axis the bricks'
intervals form a chain of overlapping or abutting intervals, and the tower's span along that axis
is at most the sum of the bricks' extents along it, at most n x length. We fix the tower's
smallest x and y to 0 (towers are equal up to horizontal translation) and z = 0 is the table, so
every coordinate lies in [0, n x length]: no possible tower is cut off.

Stability is handled lazily. The model itself only demands that every brick off the table rests
on another brick. The exact test is the equilibrium LP in `statics`, applied to each candidate by
the solver; a part that cannot be held comes back here as a lemma: its centre of mass must lie
over the bounding box of its supports (`require_part_balance`), or, when it already does, that
exact arrangement is excluded (`forbid_unstable_part`). Adding the balance lemmas for every brick
up front was measured and made Z3 several times slower, so they are only added when needed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import combinations

import z3

from tower_print import z3check
from tower_print.brix.bricks import BrickSet
from tower_print.brix.geometry import PlacedBrick, rests_on
from tower_print.brix.language import (
    Clause,
    Colour,
    Compare,
    Condition,
    Count,
    Height,
    Not,
    Pred,
    Quant,
    Quantified,
    Related,
    Selector,
    Symmetric,
)

BoolRef = z3.BoolRef
COMPACT_LENGTHS = 3
DIRECTIONS = ((1, 0), (0, 1))
"""Directions the balance lemmas project on. The axes alone (a bounding box) measured faster
than adding the diagonals (an octagon): fewer, cheaper lemmas outweigh a few more LP rounds."""


def quantify(quant: Quant, members: Sequence[tuple[BoolRef, BoolRef]]) -> BoolRef:
    """`quant` of the candidates (in_set, satisfies) satisfy: the Z3 side of `Quant.holds`."""
    if quant.kind == "every":
        return z3.And([z3.Implies(inside, sat) for inside, sat in members])
    hits = [z3.And(inside, sat) for inside, sat in members]
    if quant.kind == "no":
        return z3.Not(z3.Or(hits))
    if quant.kind == "some":
        return z3.Or(hits)
    return compare_count(hits, quant.kind, quant.n)


def compare_count(hits: Sequence[BoolRef], kind: str, n: int) -> BoolRef:
    total = z3.Sum([z3.If(h, 1, 0) for h in hits])  # never empty: one entry per brick
    return {
        "at least": total >= n, "at most": total <= n, "exactly": total == n,
        "more than": total > n, "fewer than": total < n,
    }[kind]


class TowerModel:
    """Variables and constraints for one tower built from `brick_set`.

    `all_used`: every brick must be in the tower (green deck); otherwise any subset with at
    least one brick of each colour (pink deck).
    """

    def __init__(self, brick_set: BrickSet, all_used: bool) -> None:
        self.brick_set = brick_set
        self.n = len(brick_set.bricks)
        self.extents = brick_set.extents()
        self.bound = self.n * brick_set.length
        self.margin = Fraction(brick_set.stability_margin).limit_denominator(100)
        # A context of its own: Z3's internal numbering, hence its search and its answers, then
        # depend only on this model, not on what else the process built before.
        self.ctx = z3check.new_context()
        self.solver = z3.Solver(ctx=self.ctx)
        bricks = brick_set.bricks
        self.x = [z3.Int(f"x_{b.name}", self.ctx) for b in bricks]
        self.y = [z3.Int(f"y_{b.name}", self.ctx) for b in bricks]
        self.z = [z3.Int(f"z_{b.name}", self.ctx) for b in bricks]
        self.dx = [z3.Int(f"dx_{b.name}", self.ctx) for b in bricks]
        self.dy = [z3.Int(f"dy_{b.name}", self.ctx) for b in bricks]
        self.dz = [z3.Int(f"dz_{b.name}", self.ctx) for b in bricks]
        self.used = [
            z3.BoolVal(True, self.ctx) if all_used else z3.Bool(f"used_{b.name}", self.ctx)
            for b in bricks
        ]
        self._cache: dict[object, BoolRef] = {}
        self._terms: dict[object, tuple[z3.ArithRef, z3.ArithRef]] = {}
        self._add_geometry()
        self._add_use_rule(all_used)
        self._add_connectivity()
        self._add_symmetry_breaking()
        self.nested = z3.Bool("nested_loads", self.ctx)
        self._add_nested_loads(self.nested)
        self.compact = z3.Bool("compact", self.ctx)
        self._add_compact(self.compact, COMPACT_LENGTHS * brick_set.length)

    # ------------------------------------------------------------ relations between bricks
    def _overlap(self, axis: int, i: int, j: int) -> BoolRef:
        lo = (self.x, self.y, self.z)[axis]
        ext = (self.dx, self.dy, self.dz)[axis]
        return z3.And(lo[i] < lo[j] + ext[j], lo[j] < lo[i] + ext[i])

    def _abut(self, axis: int, i: int, j: int) -> BoolRef:
        lo = (self.x, self.y, self.z)[axis]
        ext = (self.dx, self.dy, self.dz)[axis]
        return z3.Or(lo[i] + ext[i] == lo[j], lo[j] + ext[j] == lo[i])

    def _named(self, key: tuple[object, ...], make: Callable[[], BoolRef]) -> BoolRef:
        """A fresh Boolean defined once as `make()`: shared subterms keep the formula small."""
        if key not in self._cache:
            var = z3.Bool("_".join(str(k) for k in key), self.ctx)
            self.solver.add(var == make())
            self._cache[key] = var
        return self._cache[key]

    def touches(self, i: int, j: int) -> BoolRef:
        i, j = min(i, j), max(i, j)

        def make() -> BoolRef:
            faces = [
                z3.And(self._abut(k, i, j), *(self._overlap(m, i, j) for m in range(3) if m != k))
                for k in range(3)
            ]
            return z3.And(self.used[i], self.used[j], z3.Or(faces))

        return self._named(("touch", i, j), make)

    def footprint_overlap(self, i: int, j: int) -> BoolRef:
        i, j = min(i, j), max(i, j)
        return self._named(
            ("fp", i, j), lambda: z3.And(self._overlap(0, i, j), self._overlap(1, i, j))
        )

    def rests_on(self, i: int, j: int) -> BoolRef:
        return self._named(
            ("rests", i, j),
            lambda: z3.And(
                self.used[i], self.used[j], self.z[i] == self.z[j] + self.dz[j],
                self.footprint_overlap(i, j),
            ),
        )

    def above(self, i: int, j: int) -> BoolRef:
        return self._named(
            ("above", i, j),
            lambda: z3.And(
                self.used[i], self.used[j], self.z[i] >= self.z[j] + self.dz[j],
                self.footprint_overlap(i, j),
            ),
        )

    def grounded(self, i: int) -> BoolRef:
        return z3.And(self.used[i], self.z[i] == 0)

    def vertical(self, i: int) -> BoolRef:
        upright = [e for e in self.extents if self.brick_set.is_vertical(e)]
        return z3.Or([self._has_extent(i, e) for e in upright])

    def _has_extent(self, i: int, e: tuple[int, int, int]) -> BoolRef:
        return z3.And(self.dx[i] == e[0], self.dy[i] == e[1], self.dz[i] == e[2])

    def top(self, i: int) -> z3.ArithRef:
        return self.z[i] + self.dz[i]

    # ------------------------------------------------------------ the tower's own rules
    def _add_geometry(self) -> None:
        s = self.solver
        for i in range(self.n):
            s.add(z3.Or([self._has_extent(i, e) for e in self.extents]))
            for lo, ext in ((self.x, self.dx), (self.y, self.dy), (self.z, self.dz)):
                s.add(lo[i] >= 0, lo[i] + ext[i] <= self.bound)
        for i, j in combinations(range(self.n), 2):
            collide = z3.And([self._overlap(k, i, j) for k in range(3)])
            s.add(z3.Implies(z3.And(self.used[i], self.used[j]), z3.Not(collide)))
        for coord in (self.x, self.y):
            s.add(z3.Or([z3.And(self.used[i], coord[i] == 0) for i in range(self.n)]))
        for i in range(self.n):
            # An unused brick is parked at the origin so its coordinates carry no freedom.
            s.add(z3.Implies(z3.Not(self.used[i]), z3.And(
                self.x[i] == 0, self.y[i] == 0, self.z[i] == 0, self._has_extent(i, self.extents[0])
            )))
            supports = [self.rests_on(i, j) for j in range(self.n) if j != i]
            s.add(z3.Implies(z3.And(self.used[i], self.z[i] > 0), z3.Or(supports)))

    def _add_use_rule(self, all_used: bool) -> None:
        if all_used:
            return
        for colour in self.brick_set.color_names:
            members = [b.index for b in self.brick_set.by_color(colour)]
            self.solver.add(z3.Or([self.used[i] for i in members]))

    def _add_connectivity(self) -> None:
        """A spanning tree by depth labels: every brick but one root touches a shallower one."""
        depth = [z3.Int(f"depth_{b.name}", self.ctx) for b in self.brick_set.bricks]
        roots = []
        for i in range(self.n):
            self.solver.add(depth[i] >= 0, depth[i] < self.n)
            is_root = z3.And(self.used[i], depth[i] == 0)
            roots.append(is_root)
            parents = [z3.And(self.touches(i, j), depth[j] < depth[i]) for j in range(self.n)
                       if j != i]
            self.solver.add(z3.Implies(self.used[i], z3.Or(is_root, *parents)))
            self.solver.add(z3.Implies(is_root, self.z[i] == 0))
        self.solver.add(z3.AtMost(*roots, 1))

    def _add_symmetry_breaking(self) -> None:
        """Bricks of one colour are interchangeable: order them by position (and use)."""
        for colour in self.brick_set.color_names:
            members = [b.index for b in self.brick_set.by_color(colour)]
            for a, b in zip(members, members[1:], strict=False):
                self.solver.add(z3.Implies(self.used[b], self.used[a]))
                before = self._before(a, b)
                self.solver.add(z3.Implies(self.used[b], before))

    def _before(self, a: int, b: int) -> BoolRef:
        """Brick a's minimum corner comes before b's: lower, then smaller x, then smaller y.
        Two bricks never share a corner (they would overlap), so this orders any two."""
        return z3.Or(
            self.z[a] < self.z[b],
            z3.And(self.z[a] == self.z[b], self.x[a] < self.x[b]),
            z3.And(self.z[a] == self.z[b], self.x[a] == self.x[b], self.y[a] < self.y[b]),
        )

    def colour_order(self, block: Sequence[str]) -> BoolRef:
        """A literal that, assumed, puts the colours of `block` in order: the first brick of
        each (the one `_add_symmetry_breaking` puts first, always used under both brick rules)
        before the first brick of the next. Sound only for questions whose cards cannot tell
        these colours apart (tower_print/brix/symmetry.py): any tower meeting them can be
        recoloured into this order."""
        def make() -> BoolRef:
            firsts = [self.brick_set.by_color(c)[0].index for c in block]
            return z3.And([self._before(a, b) for a, b in zip(firsts, firsts[1:], strict=False)])
        return self._named(("order", *block), make)

    def brick_order(self, colours: Sequence[str]) -> BoolRef:
        """A literal that, assumed, puts every brick of `colours` in one order: along the
        sequence of the first brick of each colour, then the second of each, and so on, the
        used bricks fill a prefix and come in `_before` order. Sound only for questions whose
        cards name none of these colours (`symmetry.unnamed_colours`): all bricks have one
        size, so any tower meeting them can be relabelled by giving its bricks of these colours,
        in `_before` order, the sequence's names. The relabelled tower keeps each colour's first
        brick used and a colour's second brick after its first, so it keeps both brick rules
        and `_add_symmetry_breaking`. Stronger than `colour_order`, which leaves a tower of
        eight bricks in four colours, two each, 105 recolourings: this leaves one."""
        def make() -> BoolRef:
            groups = [self.brick_set.by_color(c) for c in colours]
            sequence = [group[rank].index for rank in range(max(len(g) for g in groups))
                        for group in groups if rank < len(group)]
            return z3.And([z3.Implies(self.used[b], z3.And(self.used[a], self._before(a, b)))
                           for a, b in zip(sequence, sequence[1:], strict=False)])
        return self._named(("order", "#bricks", *colours), make)

    def _shrunk_edges(
        self, axis: int, i: int, j: int | None
    ) -> tuple[z3.ArithRef, z3.ArithRef]:
        """Low and high edge along `axis` of brick i's contact with j (None: the table), shrunk
        by the margin, times 2q so that they compare with `_centre` in integers."""
        lo = (self.x, self.y)[axis]
        ext = (self.dx, self.dy)[axis]
        if j is None:
            a, b = lo[i], lo[i] + ext[i]
        else:
            a = z3.If(lo[i] >= lo[j], lo[i], lo[j])
            hi_i, hi_j = lo[i] + ext[i], lo[j] + ext[j]
            b = z3.If(hi_i <= hi_j, hi_i, hi_j)
        p, q = self.margin.numerator, self.margin.denominator
        # 2q (a + m (b - a)) and 2q (b - m (b - a)), with m = p / q
        return 2 * ((q - p) * a + p * b), 2 * ((q - p) * b + p * a)

    def _centre(self, axis: int, i: int) -> z3.ArithRef:
        lo, ext = (self.x, self.y)[axis], (self.dx, self.dy)[axis]
        return self.margin.denominator * (2 * lo[i] + ext[i])

    def _projected_edges(
        self, direction: tuple[int, int], i: int, j: int | None
    ) -> tuple[z3.ArithRef, z3.ArithRef]:
        """Smallest and largest value of the projection on `direction` over the shrunk contact
        rectangle of brick i with j (scaled like `_shrunk_edges`), as shared integer terms."""
        key = ("edges", direction, i, j)
        if key not in self._terms:
            low, high = self._make_projected_edges(direction, i, j)
            name = f"edge{direction[0]}{direction[1]}_{i}_{'t' if j is None else j}"
            low_var, high_var = z3.Int(f"{name}_lo", self.ctx), z3.Int(f"{name}_hi", self.ctx)
            self.solver.add(low_var == low, high_var == high)
            self._terms[key] = (low_var, high_var)
        return self._terms[key]

    def _make_projected_edges(
        self, direction: tuple[int, int], i: int, j: int | None
    ) -> tuple[z3.ArithRef, z3.ArithRef]:
        parts = []
        for axis, sign in enumerate(direction):
            if sign:
                low, high = self._shrunk_edges(axis, i, j)
                parts.append((low, high) if sign > 0 else (-high, -low))
        return z3.Sum([p[0] for p in parts]), z3.Sum([p[1] for p in parts])

    def _projected_centre(self, direction: tuple[int, int], i: int) -> z3.ArithRef:
        return z3.Sum([sign * self._centre(axis, i) for axis, sign in enumerate(direction) if sign])

    def _add_compact(self, switch: BoolRef, size: int) -> None:
        """A hint, switched on by `switch`: the tower fits a `size` x `size` square. Most
        towers that meet a few cards do, and the smaller lattice is searched much faster."""
        for i in range(self.n):
            self.solver.add(z3.Implies(switch, z3.And(
                self.x[i] + self.dx[i] <= size, self.y[i] + self.dy[i] <= size)))

    def _add_nested_loads(self, switch: BoolRef) -> None:
        """A strong bias towards towers that stand, switched on by `switch`.

        For every brick, the centres of the brick and of all bricks resting on it (directly or
        through others) lie over the bounding box of its shrunk supports. Most such towers stand
        and the rest are caught by the LP. Counterweights and some bridges are left out, so the
        solver uses this only for a first, time-boxed look. Not needed for soundness (every
        candidate is checked exactly) nor relied on for completeness."""
        for axis in range(2):
            direction = (1, 0) if axis == 0 else (0, 1)
            low = [z3.Int(f"reach_low{axis}_{b.name}", self.ctx) for b in self.brick_set.bricks]
            high = [z3.Int(f"reach_high{axis}_{b.name}", self.ctx) for b in self.brick_set.bricks]
            for i in range(self.n):
                centre = self._projected_centre(direction, i)
                rule = [low[i] <= centre, high[i] >= centre]
                for k in range(self.n):
                    if k != i:
                        rule.append(z3.Implies(self.rests_on(k, i),
                                               z3.And(low[i] <= low[k], high[i] >= high[k])))
                holders = [(self.grounded(i), None)] + [
                    (self.rests_on(i, j), j) for j in range(self.n) if j != i
                ]
                edges = [(held, *self._projected_edges(direction, i, j)) for held, j in holders]
                rule.append(z3.Implies(self.used[i], z3.Or(
                    [z3.And(held, a <= low[i]) for held, a, _ in edges])))
                rule.append(z3.Implies(self.used[i], z3.Or(
                    [z3.And(held, b >= high[i]) for held, _, b in edges])))
                self.solver.add(z3.Implies(switch, z3.And(rule)))

    # ------------------------------------------------------------ lemmas from the LP
    def require_part_balance(self, part: Sequence[int]) -> None:
        """Lemma for a set of bricks `part` (model indices; unused ones drop out): whenever
        some of them are used and nothing else rests on any of them, the used ones' centre of
        mass lies, along every one of
        `DIRECTIONS`, within the span of the shrunk contacts with whatever holds them up.
        True of every standing tower (the forces on such a part come only from below and must
        meet at its centre of mass), for every position and orientation."""
        inside = set(part)
        closed = z3.And([  # a brick left out carries nothing, so it keeps a part closed
            z3.Not(self.rests_on(k, u)) for u in part for k in range(self.n) if k not in inside
        ] + [z3.Or([self.used[u] for u in part])], self.ctx)  # an empty part has no balance
        tag = "_".join(str(u) for u in part)
        count = z3.Sum([z3.If(self.used[u], 1, 0) for u in part])
        counts = [len(part)] if all(z3.is_true(self.used[u]) for u in part) else list(
            range(1, len(part) + 1))
        balanced = []
        for direction in DIRECTIONS:
            mass = z3.Int(f"mass{direction[0]}{direction[1]}_{tag}", self.ctx)
            self.solver.add(mass == z3.Sum([
                z3.If(self.used[u], self._projected_centre(direction, u), 0) for u in part
            ]))
            low_ok, high_ok = [], []
            for u in part:
                holders = [(self.grounded(u), None)] + [
                    (self.rests_on(u, k), k) for k in range(self.n) if k not in inside
                ]
                for touching, k in holders:
                    low, high = self._projected_edges(direction, u, k)
                    low_ok.append(z3.And(touching, _scaled_compare(count, counts, low, mass)))
                    high_ok.append(z3.And(touching, _scaled_compare(count, counts, mass, high,
                                                                    scale_left=False)))
            balanced += [z3.Or(low_ok), z3.Or(high_ok)]
        self.solver.add(z3.Implies(closed, z3.And(balanced)))

    def forbid_unstable_part(
        self, tower: Sequence[PlacedBrick], indices: Sequence[int], part: set[int]
    ) -> None:
        """Exclude every tower in which the bricks of `part` and those they rest on sit as they do
        in `tower` (same z, same offsets in x and y, same extents), or as they would after a turn
        or mirroring of the whole arrangement about an upright axis (the equilibrium does not
        depend on which way the table faces), nothing else rests on `part` and `part` rests on
        nothing else. `indices[k]` is the model index of tower[k].
        The fallback lemma when the part's centre of mass is over its supports' bounding box
        and yet it cannot be held (its supports' hull is smaller, or it fails inside)."""
        supports = {
            k
            for k in range(len(tower))
            for u in part
            if k not in part and rests_on(tower[u], tower[k])
        }
        members = sorted(part | supports)
        inside = {indices[k] for k in part}
        holders = {indices[k] for k in members}
        alone: list[BoolRef] = []
        for m in range(self.n):
            for u in inside:
                if m not in inside:
                    alone.append(z3.Not(self.rests_on(m, u)))
                if m not in holders:
                    alone.append(z3.Not(self.rests_on(u, m)))
        seen = set()
        for turned in _turns([tower[k] for k in members]):
            key = tuple((b.x - turned[0].x, b.y - turned[0].y, b.dx, b.dy) for b in turned)
            if key in seen:
                continue
            seen.add(key)
            ref, ref_brick = indices[members[0]], turned[0]
            same: list[BoolRef] = []
            for k, b in zip(members, turned, strict=True):
                m = indices[k]
                same += [self.used[m], self.z[m] - self.z[ref] == b.z - ref_brick.z,
                         self._has_extent(m, (b.dx, b.dy, b.dz)),
                         self.x[m] - self.x[ref] == b.x - ref_brick.x,
                         self.y[m] - self.y[ref] == b.y - ref_brick.y]
                same.append(self.z[m] == 0 if b.z == 0 else self.z[m] > 0)
            self.solver.add(z3.Not(z3.And(same + alone)))

    # ------------------------------------------------------------ conditions
    def condition(self, condition: Condition) -> BoolRef:
        return z3.And([self.clause(c) for c in condition.clauses])

    def clause(self, clause: Clause) -> BoolRef:
        everyone = range(self.n)
        if isinstance(clause, Quantified):
            members = [
                (self.selected(i, clause.subject), self.pred(i, clause.pred)) for i in everyone
            ]
            return quantify(clause.quant, members)
        if isinstance(clause, Count):
            hits = [self.selected(i, clause.subject) for i in everyone]
            return quantify(clause.quant, [(h, z3.BoolVal(True, self.ctx)) for h in hits])
        if isinstance(clause, Compare):
            left = z3.Sum([z3.If(self.selected(i, clause.left), 1, 0) for i in everyone])
            right = z3.Sum([z3.If(self.selected(i, clause.right), 1, 0) for i in everyone])
            return {"more": left > right, "fewer": left < right, "as many": left == right}[
                clause.op
            ]
        if isinstance(clause, Height):
            unit = self.brick_set.length if clause.unit == "upright bricks" else (
                self.brick_set.thickness
            )
            tops = [z3.And(self.used[i], self.top(i) >= clause.quant.n * unit) for i in everyone]
            below = [z3.Implies(self.used[i], self.top(i) <= clause.quant.n * unit)
                     for i in everyone]
            over = [z3.And(self.used[i], self.top(i) > clause.quant.n * unit) for i in everyone]
            return {
                "at least": z3.Or(tops), "more than": z3.Or(over),
                "at most": z3.And(below),
                "fewer than": z3.And([z3.Implies(self.used[i], self.top(i) < clause.quant.n * unit)
                                      for i in everyone]),
                "exactly": z3.And(z3.Or(tops), z3.And(below)),
            }[clause.quant.kind]
        if isinstance(clause, Symmetric):
            return z3.Or(self.mirror_symmetric(0), self.mirror_symmetric(1))
        raise TypeError(f"unknown clause {clause!r}")

    def mirror_symmetric(self, axis: int) -> BoolRef:
        """The tower is its own mirror image in the upright plane across `axis` (0: x, 1: y)
        through the middle of its extent: every used brick has a used brick (maybe itself) at
        its reflected box. No two bricks overlap, so this pairing is one to one; colours do not
        matter. The tower's smallest x and y are 0 (see the module docstring), so twice the
        plane's position is the largest far edge along `axis`: defined, not guessed, so the
        formula has the evaluator's truth value on every tower."""
        def make() -> BoolRef:
            plane = z3.Int(f"mirror_plane{axis}", self.ctx)
            lows = (self.x, self.y, self.z)
            extents = (self.dx, self.dy, self.dz)
            ends = [lows[axis][i] + extents[axis][i] for i in range(self.n)]
            self.solver.add(z3.Or([z3.And(self.used[i], plane == ends[i])
                                   for i in range(self.n)]))
            self.solver.add(z3.And([z3.Implies(self.used[i], plane >= ends[i])
                                    for i in range(self.n)]))
            images = []
            for i in range(self.n):
                partners = []
                for j in range(self.n):
                    same = [extents[k][j] == extents[k][i] for k in range(3)]
                    same += [lows[k][j] == lows[k][i] for k in range(3) if k != axis]
                    reflected = lows[axis][j] == plane - lows[axis][i] - extents[axis][i]
                    partners.append(z3.And(self.used[j], reflected, *same))
                images.append(z3.Implies(self.used[i], z3.Or(partners)))
            return z3.And(images)
        return self._named(("mirror", axis), make)

    def selected(self, i: int, selector: Selector, exclude: int | None = None) -> BoolRef:
        if i == exclude:
            return z3.BoolVal(False, self.ctx)
        return z3.And(self.used[i], *(self.pred(i, p) for p in selector.preds))

    def pred(self, i: int, pred: Pred) -> BoolRef:
        if isinstance(pred, Colour):
            return z3.BoolVal(self.brick_set.bricks[i].color in pred.colours, self.ctx)
        if isinstance(pred, Not):
            return z3.Not(self.pred(i, pred.pred))
        if isinstance(pred, Related):
            relation = {
                "touches": self.touches, "rests on": self.rests_on,
                "supports": lambda a, b: self.rests_on(b, a),
                "is above": self.above, "is below": lambda a, b: self.above(b, a),
            }[pred.relation]
            members = [
                (self.selected(j, pred.target, exclude=i), relation(i, j) if j != i else
                 z3.BoolVal(False, self.ctx))
                for j in range(self.n)
            ]
            return quantify(pred.quant, members)
        return self.trait(i, pred.name)

    def trait(self, i: int, name: str) -> BoolRef:
        if name == "vertical":
            return self.vertical(i)
        if name == "horizontal":
            return z3.Not(self.vertical(i))
        if name == "grounded":
            return self.grounded(i)
        if name in ("highest", "lowest"):
            def make() -> BoolRef:
                others = [
                    z3.Implies(self.used[j], self.top(i) >= self.top(j) if name == "highest"
                               else self.top(i) <= self.top(j))
                    for j in range(self.n) if j != i
                ]
                return z3.And(self.used[i], *others)
            return self._named((name, i), make)
        if name == "bridge":
            def make_bridge() -> BoolRef:
                others = [j for j in range(self.n) if j != i]
                gaps = [
                    z3.And(self.rests_on(i, a), self.rests_on(i, b), z3.Not(self.touches(a, b)))
                    for a, b in combinations(others, 2)
                ]
                return z3.Or(gaps)
            return self._named(("bridge", i), make_bridge)
        raise ValueError(f"unknown trait {name}")

    # ------------------------------------------------------------ reading a model back
    def tower(self, model: z3.ModelRef) -> tuple[tuple[PlacedBrick, ...], tuple[int, ...]]:
        """The tower in `model`, and for each of its bricks the model index."""
        bricks: list[PlacedBrick] = []
        indices: list[int] = []
        for i, brick in enumerate(self.brick_set.bricks):
            if not z3.is_true(model.eval(self.used[i], model_completion=True)):
                continue
            value = [
                model.eval(v[i], model_completion=True).as_long()
                for v in (self.x, self.y, self.z, self.dx, self.dy, self.dz)
            ]
            bricks.append(PlacedBrick(brick.name, brick.color, *value))
            indices.append(i)
        return tuple(bricks), tuple(indices)



def _turns(bricks: Sequence[PlacedBrick]) -> list[list[PlacedBrick]]:
    """The bricks as they are and after each of the other 7 turns and mirrorings of the
    square about an upright axis (positions relative to each other are what matters)."""
    out = []
    for swap in (False, True):
        for flip_x in (False, True):
            for flip_y in (False, True):
                turned = []
                for b in bricks:
                    x, y, dx, dy = (b.y, b.x, b.dy, b.dx) if swap else (b.x, b.y, b.dx, b.dy)
                    if flip_x:
                        x = -(x + dx)
                    if flip_y:
                        y = -(y + dy)
                    turned.append(replace(b, x=x, y=y, dx=dx, dy=dy))
                out.append(turned)
    return out


def _scaled_compare(
    count: z3.ArithRef, counts: Sequence[int], left: z3.ArithRef, right: z3.ArithRef,
    scale_left: bool = True,
) -> BoolRef:
    """count * left <= right (or left <= count * right), linear by cases on the count."""
    def one(c: int) -> BoolRef:
        return c * left <= right if scale_left else left <= c * right
    if len(counts) == 1:
        return one(counts[0])
    return z3.And([z3.Implies(count == c, one(c)) for c in counts])
