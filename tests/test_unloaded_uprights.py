"""The load step of benchmarks/brix_unloaded_uprights.py: bricks lying on a lying brick, and the
least weight from above each set of them needs."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from brix_pedestal_bound import resting_places, resting_sets  # noqa: E402
from brix_unloaded_uprights import _lying_base, negations  # noqa: E402
from script_proofs import box_rests_on, least_load  # noqa: E402

from tower_print.brix.decks import shipped_deck  # noqa: E402
from tower_print.brix.shape_library import box_of  # noqa: E402


def test_four_bricks_on_a_lying_brick_need_two_weights_only_as_a_slab_centred_on_it() -> None:
    deck = shipped_deck("pink")
    base = _lying_base(deck, "gray")
    places = resting_places(deck, base)
    assert all(box_rests_on(box_of(p), box_of(base)) for p in places)
    loads = [least_load(box_of(p), [box_of(base)], deck.bricks.stability_margin) for p in places]
    needs = {chosen: sum((loads[i] for i in chosen), Fraction(0))
             for chosen in resting_sets(places, 4) if len(chosen) == 4}
    least = min(needs.values())
    lightest = [chosen for chosen, need in needs.items() if need == least]
    assert (least, len(lightest)) == (2, 1)
    slab = [places[i] for i in lightest[0]]
    xs = [v for p in slab for v in (p.x, p.x + p.dx)]
    ys = [v for p in slab for v in (p.y, p.y + p.dy)]
    assert (min(xs) + max(xs), min(ys) + max(ys)) == (base.dx, base.dy)  # centred on the base
    assert sum(p.dx * p.dy for p in slab) == (max(xs) - min(xs)) * (max(ys) - min(ys))  # no hole


def test_negations_leave_out_what_no_tower_can_meet() -> None:
    asked = negations("gray", (0, 2), 9, 9, (0, 8))
    assert "at least 3 vertical bricks touch the ground" in asked
    assert not any("-1" in text or "at least 10 bricks" in text for text in asked)
    assert "there are at least 9 bricks" in negations("gray", (2, 2), 8, 9, (4, 4))
