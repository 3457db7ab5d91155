"""The load step of benchmarks/brix_unloaded_uprights.py: bricks lying on a lying brick, and the
least weight from above each set of them needs."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import brix_unloaded_uprights  # noqa: E402
import script_proofs  # noqa: E402
from brix_pedestal_bound import pedestal, resting_places, resting_sets  # noqa: E402
from brix_unloaded_uprights import (  # noqa: E402
    _base_places,
    _enumerated,
    _ground_placements,
    _unloaded,
    negations,
)
from script_proofs import (  # noqa: E402
    box_rests_on,
    footprints_overlap,
    least_load,
    named_tower,
)

from tower_print.brix.decks import shipped_deck  # noqa: E402
from tower_print.brix.shape_library import box_of  # noqa: E402
from tower_print.brix.solver import UNKNOWN, UNSOLVABLE  # noqa: E402


def test_four_bricks_on_a_lying_brick_need_two_weights_only_as_a_slab_centred_on_it() -> None:
    deck = shipped_deck("pink")
    base = pedestal(deck, "gray", lying=True)
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
    assert "some gray brick is vertical" in asked
    assert "at least 3 vertical bricks touch the ground" in asked
    assert not any("-1" in text or "at least 10 bricks" in text for text in asked)
    assert "there are at least 9 bricks" in negations("gray", (2, 2), 8, 9, (4, 4))


def test_an_upright_and_two_lying_bricks_on_a_lying_brick_take_the_one_weight_above() -> None:
    """Green's G14 G24 G33 case: 3 uprights on the table, a fourth and 2 lying bricks on the
    lying one, 1 brick over them: the 2 lying need all of its weight, and no tower of the 5
    bricks on the base alone stands."""
    deck = shipped_deck("green")
    base = pedestal(deck, "base", lying=True)
    places, loads = _base_places(deck, base)
    alone = [p for p in places if deck.bricks.is_vertical((p.dx, p.dy, p.dz))]
    assert sorted((p.x, p.y) for p in alone) == [(0, 0), (1, 0), (2, 0)]  # wholly on it
    assert places[:-3] == resting_places(deck, base) and not any(loads[-3:])
    assert _unloaded(deck, base, places, loads, 1, 2, 1) == (11, 104, 102)
    assert _unloaded(deck, base, places, loads, 1, 1, 2) is None  # the uprights may carry some
    assert _unloaded(deck, base, places, loads, 1, 3, 0) == (0, 64, 0)  # each set needs weight


def test_a_case_with_one_brick_on_the_table_is_enumerated_with_the_cards(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Where Z3 does not close a case with at most 2 bricks on the table, its towers are
    enumerated: green's 8 bricks on one lying brick, 4 on it and 3 above, none stands; pink's 5
    bricks so, 2 and 2, one stands and meets P28 (3 flat bricks tall): a tower, the run ends."""
    alone = _ground_placements(0, above_ground=False)
    assert _enumerated(shipped_deck("green"), ["G24"], alone, (8, 0, 0, 3), None) == 1664
    with pytest.raises(SystemExit) as stop:
        _enumerated(shipped_deck("pink"), ["P28"], alone, (5, 0, 0, 2), None)
    assert stop.value.code == 0
    assert "a standing tower meeting the cards (check_witness passed)" in capsys.readouterr().out


def test_named_tower_names_part_of_a_tower_as_the_first_bricks() -> None:
    deck = shipped_deck("green")  # its rule: all eight bricks
    tower = named_tower(((0, 0, 0, 4, 2, 2), (0, 0, 2, 2, 4, 2)), deck)
    assert [b.name for b in tower] == [b.name for b in deck.bricks.bricks[:2]]


def test_negations_without_a_colour_name_the_lying_grounded_brick() -> None:
    asked = negations(None, (3, 3), 8, 8, (2, 2))
    assert "no horizontal brick touches the ground" in asked
    assert "at least 3 horizontal bricks rest on some horizontal grounded brick" in asked
    assert not any("gray" in text for text in asked)


@pytest.mark.parametrize("options", [
    ["--given", "exactly 4 bricks touch the ground", "--record", "x.yaml"],
    ["--case-log", "log.jsonl"],
    ["--given", "exactly 4 bricks tuch the ground"],
    ["--raised", "2", "1"],
])
def test_options_that_cannot_make_a_proof_are_refused_before_z3_is_asked(
        options: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["brix_unloaded_uprights.py", "--deck", "green",
                                      "--cards", "G14", "G18", *options])
    monkeypatch.setattr(brix_unloaded_uprights, "prove_facts", _never_asked)
    with pytest.raises(SystemExit) as stop:
        brix_unloaded_uprights.main()
    assert stop.value.code == 2
    assert list(tmp_path.iterdir()) == []


def _never_asked(*args: object) -> None:
    raise AssertionError("Z3 asked")


def test_an_undecided_case_ends_the_run_unless_the_caller_has_another_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(script_proofs, "ask", lambda *args: (UNKNOWN, None))
    deck = shipped_deck("green")
    assert script_proofs.ask_impossible(deck, ["G24"], ["no brick touches the ground"], 1, None,
                                        settle=False) is False
    with pytest.raises(SystemExit, match="not proved"):
        script_proofs.ask_impossible(deck, ["G24"], ["no brick touches the ground"], 1, None)
    monkeypatch.setattr(script_proofs, "ask", lambda *args: (UNSOLVABLE, None))
    assert script_proofs.ask_impossible(deck, ["G24"], ["no brick touches the ground"], 1, None)


def test_two_uprights_on_the_table_are_placed_only_under_a_brick_over_every_ground_brick() -> None:
    """--above-ground: 110 placements of the base and two uprights up to turns (411 without),
    each with a lying box at z = 4 meeting all three footprints; without the fact, none."""
    placements = _ground_placements(2, above_ground=True)
    assert placements is not None and len(placements) == 110
    overs = [(x, y, 4, dx, dy, 2) for dx, dy in ((4, 2), (2, 4))
             for x in range(-4, 5) for y in range(-4, 5)]
    for grounds in placements:
        assert [box[5] for box in grounds] == [2, 4, 4] and grounds[0] == (0, 0, 0, 4, 2, 2)
        assert not any(footprints_overlap(a, b) for i, a in enumerate(grounds)
                       for b in grounds[i + 1:])
        assert any(all(footprints_overlap(over, g) for g in grounds) for over in overs)
    assert _ground_placements(2, above_ground=False) is None
    assert _ground_placements(3, above_ground=True) is None


def test_towers_on_three_ground_bricks_are_read_on_the_cards_not_on_the_search_s_two(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The short tower enumeration assumes at most 2 bricks on the table; on the base and two
    uprights every tower broke it, and none was ever read on the cards. Green's 8 bricks, 3
    upright (2 on the table, 1 on the base), 3 highest: 5 of them stand (two slabs on the base
    carrying two bricks over the uprights), and they meet G13 (3 upright bricks)."""
    placements = _ground_placements(2, above_ground=True)
    assert placements is not None
    with pytest.raises(SystemExit) as stop:
        _enumerated(shipped_deck("green"), ["G13"], placements, (8, 2, 1, 2), None)
    assert stop.value.code == 0
    assert "a standing tower meeting the cards (check_witness passed)" in capsys.readouterr().out

