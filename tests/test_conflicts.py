"""Known conflicts: the audit writes them, the loader checks them against the deck, the solver
answers a deal holding one without Z3, and the shipped ones are proved again here."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from tower_print.brix import conflicts
from tower_print.brix.conflicts import (
    ConflictFile,
    add_towers,
    conflicts_folder,
    conflicts_to_take,
    deck_fingerprint,
    gather_conflicts,
    known_conflicts,
    known_towers,
    read_conflict_file,
    record_proof,
    save_known_towers,
    tower_verdicts,
    write_conflicts,
)
from tower_print.brix.decks import load_deck, shipped_deck
from tower_print.brix.difficulty import TowerPool
from tower_print.brix.sampling import sample_towers
from tower_print.brix.shape_library import shape_library
from tower_print.brix.solver import (
    KNOWN_CONFLICT_NOTE,
    SOLVABLE,
    UNSOLVABLE,
    Labeled,
    TowerSolver,
)
from tower_print.brix.stored_towers import Tower, tower_line
from tower_print.content import ContentError, UserError

PLANTED = load_deck(Path(__file__).parent / "data" / "brix-planted.yaml")


def items(*ids: str) -> list[Labeled]:
    return [c.item() for c in map(PLANTED.card, ids)]


def conditions(*ids: str) -> frozenset:  # type: ignore[type-arg]
    return frozenset(PLANTED.card(i).condition for i in ids)


def test_a_deal_holding_a_known_conflict_is_unsolvable_without_asking_z3(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    solver = TowerSolver(PLANTED.bricks, PLANTED.all_used,
                         conflicts=[conditions("T3", "T4"), conditions("T1", "T2")])
    monkeypatch.setattr(TowerSolver, "_z3_check", lambda *_: pytest.fail("Z3 was asked"))
    verdict = solver.verify(items("T1", "T5", "T2", "T8"), 60)
    assert verdict.status == UNSOLVABLE and verdict.conflict == ("T1", "T2")
    assert verdict.conflict_minimal and verdict.notes == [KNOWN_CONFLICT_NOTE]
    assert "model" not in vars(solver)  # nor was its Z3 model built (0.1 s of such answers)


def test_a_deal_holding_no_known_conflict_is_decided_as_before() -> None:
    solver = TowerSolver(PLANTED.bricks, PLANTED.all_used, conflicts=[conditions("T3", "T4")])
    assert solver.verify(items("T1", "T5", "T8"), 60).status == SOLVABLE
    assert "model" in vars(solver)
    verdict = solver.verify(items("T1", "T3", "T8", "T5"), 60)
    assert verdict.status == UNSOLVABLE and verdict.conflict == ("T1", "T3", "T8")
    assert verdict.notes == []


@pytest.mark.parametrize("name", ["green", "pink"])
def test_verify_answers_a_set_an_audits_tower_meets_with_that_tower_without_z3(
    name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """The towers of the shipped conflicts file, judged as a pool (`known_towers`): a set of
    cards one of them meets that no tower of the reference pool meets is answered with the
    first such tower, checked, and Z3 is never asked; the verdicts learnt are kept on disk."""
    from tower_print.brix.difficulty import TowerPool, pool
    from tower_print.brix.verify import verify_solver

    monkeypatch.setenv("TOWER_PRINT_CACHE", str(tmp_path))  # a cold cache: judged here
    monkeypatch.setattr(conflicts, "_SHIPPED", {})
    deck = shipped_deck(name)
    towers = known_towers(deck)
    assert towers is not None and towers.towers
    reference = pool(deck.bricks, deck.all_used)
    met = next(cards for cards in (
        [c for k, c in enumerate(deck.cards) if deck.cards_met(tower) >> k & 1]
        for tower in towers.towers) if reference.witness([c.condition for c in cards]) is None)
    solver = verify_solver(deck, 0)
    monkeypatch.setattr(TowerSolver, "_z3_check", lambda *_: pytest.fail("Z3 was asked"))
    verdict = solver.verify([c.item() for c in met], 60)
    assert verdict.status == SOLVABLE
    assert verdict.tower == towers.witness([c.condition for c in met])
    save_known_towers(deck)
    again = TowerPool(deck.bricks, deck.all_used, 0, 0, cache=tmp_path, towers=towers.towers)
    assert again.meeting([c.condition for c in met]) and again._judges is None


def test_written_conflicts_read_back(tmp_path: Path) -> None:
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile((("T8", "T3", "T1"), ("T2", "T1")), 2,
                                                ("Built by: hand", "  on a Tuesday")),
                    "two of them")
    assert read_conflict_file(path, PLANTED) == ConflictFile(
        (("T1", "T2"), ("T1", "T3", "T8")), 2, ("Built by: hand", "  on a Tuesday"))
    changed = dataclasses.replace(PLANTED, cards=(
        dataclasses.replace(PLANTED.cards[0], source="there are exactly 4 vertical bricks"),
        *PLANTED.cards[1:]))
    assert deck_fingerprint(changed) != deck_fingerprint(PLANTED)
    assert read_conflict_file(path, changed) is None  # written for another version of the deck


def test_conflicts_proved_without_z3_keep_their_proof_through_audits(tmp_path: Path) -> None:
    path = tmp_path / "planted.yaml"
    proof = 'python benchmarks/enumerate.py --cards "T3 T4" (a quote: ")'
    write_conflicts(path, PLANTED, ConflictFile((("T4", "T3"), ("T2", "T1")),
                                                proofs=((("T4", "T3"), proof),)), "by hand")
    read = read_conflict_file(path, PLANTED)
    assert read is not None and read.proofs == ((("T3", "T4"), proof),)
    assert read.sets == (("T1", "T2"), ("T3", "T4"))
    after = gather_conflicts(path, PLANTED, [["T1", "T2"], ["T5", "T8"]], [], False, 2, "audit")
    assert after.proofs == read.proofs and len(after.sets) == 3


def test_a_proof_of_a_set_the_list_lacks_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "planted.yaml"
    path.write_text(f"deck: planted\nfingerprint: {deck_fingerprint(PLANTED)}\nconflicts:\n"
                    "  - T1 T2\nproofs:\n  - cards: T1 T3\n    by: hand\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"planted.yaml:6: .*cards.*'T1 T3' is not in the"):
        read_conflict_file(path, PLANTED)


def test_an_audit_adds_its_conflicts_to_those_the_file_holds(tmp_path: Path) -> None:
    path = tmp_path / "planted.yaml"
    first = gather_conflicts(path, PLANTED, [["T1", "T2"]], [], False, 2, "audit one")
    assert first == ConflictFile((("T1", "T2"),), 2, ("Built by: audit one",))
    write_conflicts(path, PLANTED, first, "1 conflict")
    second = gather_conflicts(path, PLANTED, [["T1", "T2"], ["T3", "T4", "T8"]],
                              [{"T1", "T3", "T4"}], False, 3, "audit two")
    assert set(second.sets) == {("T1", "T2"), ("T3", "T4", "T8")}
    assert second.complete_up_to == 3
    assert second.history == ("Built by: audit one", "Built by: audit two")
    write_conflicts(path, PLANTED, second, "2 conflicts")
    assert read_conflict_file(path, PLANTED) == ConflictFile(
        (("T1", "T2"), ("T3", "T4", "T8")), 3, second.history)


def test_sets_still_to_shrink_are_kept_until_a_conflict_inside_them_is_known(
    tmp_path: Path,
) -> None:
    """An audit's unminimised sets are written under `unminimised`, with the limit their
    checks ran out at, and read back; the next audit's write keeps them and adds its own, but
    drops one a listed conflict lies inside and one that holds another of them, and keeps the
    longest limit a set was tried at."""
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile(
        (("T1", "T2"),), unminimised=(("T8", "T4", "T3", "T5"), ("T6", "T5", "T3")),
        unminimised_tried_at=(None, 60.0)), "two left")
    read = read_conflict_file(path, PLANTED)
    assert read is not None and read.sets == (("T1", "T2"),)
    assert read.unminimised == (("T3", "T5", "T6"), ("T3", "T4", "T5", "T8"))
    assert read.unminimised_tried_at == (60.0, None)
    assert "unminimised:\n  - cards: T3 T5 T6\n    tried_at: 60\n  - cards: T3 T4" \
        in path.read_text()
    after = gather_conflicts(
        path, PLANTED, [["T1", "T2"], ["T3", "T4"]], [], False, 2, "audit",
        unminimised=[(["T4", "T5", "T6", "T8"], 90.0), (["T3", "T5", "T6", "T7"], None),
                     (["T3", "T5", "T6"], None)])
    assert set(after.sets) == {("T1", "T2"), ("T3", "T4")}
    assert after.unminimised == (("T3", "T5", "T6"), ("T4", "T5", "T6", "T8"))
    assert after.unminimised_tried_at == (60.0, 90.0)


def test_undecided_sets_are_kept_until_a_tower_or_a_conflict_decides_them(
    tmp_path: Path,
) -> None:
    """An audit's undecided sets are written under `undecided` with the limit their checks ran
    out at, and read back; the next write keeps them with the longest limit each was tried at
    and adds its own, but drops one a tower now meets and one holding a new conflict."""
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile(
        (("T1", "T2"),), undecided=((("T8", "T4", "T5"), 60.0), (("T3", "T5", "T6"), 60.0),
                                    (("T2", "T4", "T6"), 30.0))), "three undecided")
    assert "undecided:\n  - cards: T2 T4 T6\n    tried_at: 30\n  - cards: T3 T5 T6\n" \
        in path.read_text()
    read = read_conflict_file(path, PLANTED)
    assert read is not None and read.undecided == (
        (("T2", "T4", "T6"), 30.0), (("T3", "T5", "T6"), 60.0), (("T4", "T5", "T8"), 60.0))
    after = gather_conflicts(
        path, PLANTED, [["T1", "T2"], ["T5", "T6"]], [{"T2", "T4", "T6", "T7"}], False, 2,
        "audit", undecided=[(["T4", "T5", "T8"], 90.0), (["T4", "T6", "T8"], 60.0)])
    assert after.undecided == ((("T4", "T5", "T8"), 90.0), (("T4", "T6", "T8"), 60.0))


@pytest.mark.parametrize(("text", "says"), [
    ("unminimised:\n  - cards: T1 T2 T5\n",
     r"planted.yaml:6: unminimised\[0\].cards: 'T1 T2 T5' holds the conflict 'T1 T2'"),
    ("unminimised:\n  - cards: T3 T99\n",
     r"planted.yaml:6: unminimised\[0\].cards: .*unknown card id 'T99'"),
    ("unminimised:\n  - cards: T3 T5\n    tried_at: soon\n",
     r"planted.yaml:7: unminimised\[0\].tried_at: expected a number"),
    ("unminimised:\n  - T3 T5\n", r"planted.yaml:6: unminimised\[0\]: expected a mapping"),
    ("undecided:\n  - cards: T1 T2 T5\n    tried_at: 60\n",
     r"planted.yaml:6: undecided\[0\].cards: 'T1 T2 T5' holds the conflict 'T1 T2', so no "
     "tower meets it"),
    ("undecided:\n  - cards: T3 T5\n", r"planted.yaml:6: undecided\[0\]: missing field 'tried_at'"),
])
def test_a_bad_set_still_to_shrink_or_undecided_names_its_line(
    tmp_path: Path, text: str, says: str,
) -> None:
    path = tmp_path / "planted.yaml"
    path.write_text(f"deck: planted\nfingerprint: {deck_fingerprint(PLANTED)}\nconflicts:\n"
                    f"  - T1 T2\n{text}", encoding="utf-8")
    with pytest.raises(ContentError, match=says):
        read_conflict_file(path, PLANTED)


def test_a_set_still_to_shrink_that_an_audit_disputes_stops_the_write(
    tmp_path: Path,
) -> None:
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile((), unminimised=(("T3", "T5", "T6"),)), "kept")
    with pytest.raises(ContentError, match=r"unminimised\[0\].cards: 'T3 T5 T6' is no conflict"):
        gather_conflicts(path, PLANTED, [], [{"T3", "T5", "T6", "T8"}], False, 0, "audit")
    with pytest.raises(ContentError, match=r"unminimised\[0\].cards: 'T3 T5 T6' lies inside "
                                           r"this audit's conflict 'T3 T5 T6 T7', which then"):
        gather_conflicts(path, PLANTED, [["T3", "T5", "T6", "T7"]], [], False, 0, "audit")


@pytest.mark.parametrize(("found", "solvable", "complete", "says"), [
    ([["T1"]], [], False, "cannot both be minimal"),  # a part of the kept T1 T2
    ([["T1", "T2", "T5"]], [], False, "cannot both be minimal"),  # holds it
    ([], [{"T1", "T2", "T5"}], False, "is no conflict"),
    ([["T3", "T4"]], [], True, "is missing from this audit"),
])
def test_audits_that_disagree_stop_the_write_and_name_the_line(
    tmp_path: Path, found: list[list[str]], solvable: list[set[str]], complete: bool, says: str,
) -> None:
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile((("T3", "T4"), ("T1", "T2"))), "kept")
    with pytest.raises(ContentError, match=rf"planted.yaml:8: conflicts\[0\]: 'T1 T2'.*{says}"):
        gather_conflicts(path, PLANTED, found, solvable, complete, 0, "audit")


TOWERS = sample_towers(PLANTED.bricks, PLANTED.all_used, 40, seed=1)


def _ids(mask: int) -> set[str]:
    return {card.id for k, card in enumerate(PLANTED.cards) if mask >> k & 1}


def test_an_audits_towers_are_kept_one_per_set_of_cards_no_larger_set_covers(
    tmp_path: Path,
) -> None:
    """Of the towers offered (the file's, then the audit's), one per set of cards met, the
    first, and none whose cards lie inside a larger set another tower or the audit's pool
    meets; yet every set offered stays covered."""
    met = [PLANTED.cards_met(t) for t in TOWERS]
    assert len(set(met)) < len(met)  # twins to drop
    pool = max(met, key=int.bit_count) | 1 << 7  # a larger set, as the pool may meet
    path = tmp_path / "planted.yaml"
    first = gather_conflicts(path, PLANTED, [["T1", "T2"]], [_ids(pool)], False, 2, "audit",
                             TOWERS[:30])
    kept = [PLANTED.cards_met(t) for t in first.towers]
    assert len(set(kept)) == len(kept) < len(set(met[:30]))
    assert [met.index(m) for m in kept] == sorted(met.index(m) for m in kept)  # the first
    for mask in met[:30]:
        larger = [other for other in [*met[:30], pool] if other != mask and mask & ~other == 0]
        assert (mask in kept) == (not larger)
    write_conflicts(path, PLANTED, first, "with towers")
    read = read_conflict_file(path, PLANTED)
    assert read is not None
    assert [tower_line(t) for t in read.towers] == [tower_line(t) for t in first.towers]
    # a later audit keeps them, but for those its towers cover, and adds its own behind
    again = gather_conflicts(path, PLANTED, [], [], False, 0, "audit two", TOWERS[30:])
    assert [PLANTED.cards_met(t) for t in again.towers] == [
        m for m in dict.fromkeys([*kept, *met[30:]])
        if not any(m != other and m & ~other == 0 for other in [*kept, *met[30:]])]


def test_an_audit_adds_the_towers_meeting_most_new_sets_up_to_a_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Of an audit's new towers only `NEW_TOWERS_KEPT` are kept: first those meeting the most
    sets of one card more than the file is complete for that no other tower meets (here, the
    file complete for none, single cards: the most cards no tower of the file meets); the
    file's towers stay unless one of those kept covers them, not one cut."""
    met = [PLANTED.cards_met(t) for t in TOWERS]

    def covers(larger: int, mask: int) -> bool:
        return larger != mask and mask & ~larger == 0

    maximal = sorted({m for m in met if not any(covers(o, m) for o in met)}, key=int.bit_count)
    most = maximal[-1]
    under_most = met.index(next(m for m in met if covers(most, m)))
    under_others = met.index(next(m for m in met if not covers(most, m)
                                  and any(covers(o, m) for o in maximal)))
    file_cards = met[under_most] | met[under_others]
    monkeypatch.setattr(conflicts, "NEW_TOWERS_KEPT", 1)
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile(
        (), towers=(TOWERS[under_most], TOWERS[under_others])), "two")
    again = gather_conflicts(path, PLANTED, [], [], False, 0, "audit", TOWERS)
    *stay, added = [PLANTED.cards_met(t) for t in again.towers]
    assert stay == [m for m in (met[under_most], met[under_others]) if not covers(added, m)]
    assert (added & ~file_cards).bit_count() == max(
        (m & ~file_cards).bit_count() for m in maximal) > 0
    monkeypatch.setattr(conflicts, "NEW_TOWERS_KEPT", len(maximal))
    again = gather_conflicts(path, PLANTED, [], [], False, 0, "audit", TOWERS)
    assert sorted(map(PLANTED.cards_met, again.towers)) == sorted(maximal)


@pytest.mark.parametrize(("text", "field"), [
    ("deck: green\nfingerprint: FP\nconflicts: []\n", "deck"),
    ("deck: planted\nfingerprint: FP\nconflicts:\n  - T1 T99\n", "conflicts[0]"),
    ("deck: planted\nfingerprint: FP\nconflicts:\n  - T1 T1\n", "conflicts[0]"),
    ("deck: planted\nfingerprint: FP\nconflicts: []\nextra: 1\n", "extra"),
])
def test_a_bad_conflicts_file_names_its_line_and_field(
    tmp_path: Path, text: str, field: str,
) -> None:
    path = tmp_path / "planted.yaml"
    path.write_text(text.replace("FP", deck_fingerprint(PLANTED)), encoding="utf-8")
    with pytest.raises(ContentError) as error:
        read_conflict_file(path, PLANTED)
    assert str(path) in str(error.value) and field in str(error.value)


@pytest.mark.parametrize(("tower", "says"), [
    ("red 0 0 0 2 4 2; red 0 0 0 2 4", r"towers\[0\]: brick 2: expected 'colour x y z dx"),
    ("red 0 0 0 2 4 2; green 0 0 0 2 4 2", r"towers\[0\]: brick 2: unknown colour 'green'"),
    ("red 0 0 0 2 4 2.5", r"towers\[0\]: brick 1: expected whole numbers"),
])
def test_a_badly_written_tower_names_its_line_and_brick(
    tmp_path: Path, tower: str, says: str,
) -> None:
    path = tmp_path / "planted.yaml"
    path.write_text(f"deck: planted\nfingerprint: {deck_fingerprint(PLANTED)}\nconflicts: []\n"
                    f"towers:\n  - {tower}\n", encoding="utf-8")
    read = read_conflict_file(path, PLANTED)  # towers are read when first asked for
    assert read is not None and len(read.towers) == 1
    with pytest.raises(ContentError, match=rf"planted.yaml:5: {says}"):
        read.towers[0]
    with pytest.raises(ContentError, match=rf"planted.yaml:5: {says}"):
        conflicts_to_take(path, PLANTED)


def test_a_files_towers_are_read_when_asked_for_and_judged_under_their_lines(
    tmp_path: Path,
) -> None:
    """A verify reads one or two of a file's thousands of towers (`TowerLines`); the pool of
    them keeps its verdicts under a name made from the lines, the same as for the towers read."""
    path = tmp_path / "planted.yaml"
    lines = [tower_line(TOWERS[0]), tower_line(TOWERS[1])]

    def towers_of_file(*lines: str) -> Sequence[Tower]:
        path.write_text(f"deck: planted\nfingerprint: {deck_fingerprint(PLANTED)}\n"
                        "conflicts: []\ntowers:\n" + "".join(f"  - {line}\n" for line in lines),
                        encoding="utf-8")
        read = read_conflict_file(path, PLANTED)
        assert read is not None
        return read.towers

    cards = [card.condition for card in PLANTED.cards]
    judged = TowerPool(PLANTED.bricks, PLANTED.all_used, 0, 0, cache=tmp_path,
                       towers=towers_of_file(*lines))
    masks = [judged.mask(c) for c in cards]
    judged.save()
    read = towers_of_file(*lines)
    again = TowerPool(PLANTED.bricks, PLANTED.all_used, 0, 0, cache=tmp_path, towers=read[:])
    assert [again.mask(c) for c in cards] == masks and again._judges is None
    assert [tower_line(t) for t in again.towers] == lines
    broken = towers_of_file(*lines, "red 0 0 0 2 4")
    assert len(broken) == 3 and tower_line(broken[1]) == lines[1]
    with pytest.raises(ContentError, match=r"planted.yaml:7: towers\[2\]: brick 1"):
        broken[-1]


def test_an_audit_takes_no_tower_that_falls_or_meets_a_listed_conflict(tmp_path: Path) -> None:
    """`--known` checks every tower: it must stand under the deck's rule and meet no conflict
    the file lists (the file would contradict itself)."""
    tower = TOWERS[0]
    met = sorted(_ids(PLANTED.cards_met(tower)))
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile((("T3", "T4"),), towers=(tower,)), "fine")
    assert [tower_line(t) for t in conflicts_to_take(path, PLANTED).towers] == [
        tower_line(tower)]
    lifted = tuple(dataclasses.replace(b, z=b.z + 1) for b in tower)
    write_conflicts(path, PLANTED, ConflictFile((("T3", "T4"),), towers=(tower, lifted)), "")
    with pytest.raises(ContentError, match=r"planted.yaml:1\d: towers\[1\]: this tower is "
                                           r"none of the deck's: the tower does not stand"):
        conflicts_to_take(path, PLANTED)
    write_conflicts(path, PLANTED, ConflictFile((tuple(met),), towers=(tower,)), "")
    with pytest.raises(ContentError, match=rf"towers\[0\]: this tower meets every card of "
                                           rf"the conflict '{' '.join(met)}'"):
        conflicts_to_take(path, PLANTED)


def test_towers_are_checked_alike_in_several_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--jobs` splits the check of a file's towers over processes: the same verdicts, and the
    cards each tower meets remembered as if judged here."""
    monkeypatch.setattr(conflicts, "TOWERS_A_TASK", 2)
    lifted = tuple(dataclasses.replace(b, z=b.z + 1) for b in TOWERS[0])
    towers = [*TOWERS[:4], lifted]
    alone = tower_verdicts(PLANTED, towers)
    assert [wrong is None for wrong, _ in alone] == [True] * 4 + [False]
    deck = dataclasses.replace(PLANTED)  # remembers no tower yet
    assert tower_verdicts(deck, towers, jobs=2) == alone
    assert deck._met == {tower: met for tower, (_, met) in zip(towers, alone, strict=True)}


SMALL = 3
"""Shipped conflicts of at most this many cards are proved again by the tests, `SAMPLE` of them
spread over the list (all 43 green ones of the thirteenth session took 75 s; the larger
conflicts took the audit minutes each)."""
SAMPLE = 14


@pytest.mark.parametrize("name", ["green", "pink"])
def test_shipped_conflicts_fit_their_deck_and_the_small_ones_are_proved_again(name: str) -> None:
    """The file matches today's deck (else it would be ignored), its towers pass the checks an
    audit taking it makes, and small conflicts are still minimal to a solver that knows no
    conflicts: unsolvable, every card needed."""
    deck = shipped_deck(name)
    shipped = conflicts_to_take(conflicts_folder() / f"{name}.yaml", deck)
    # Sets proved without Z3 are left out: Z3 cannot prove them in a test's time. Their
    # proofs are commands of benchmarks/ that must still be there.
    for _, command in shipped.proofs:
        script = next(word for word in command.split() if word.startswith("benchmarks/"))
        assert (Path(__file__).parents[1] / script).is_file(), command
    proved_otherwise = {frozenset(deck.card(i).condition for i in ids)
                        for ids, _ in shipped.proofs}
    known = [c for c in known_conflicts(deck) if c not in proved_otherwise]
    assert len(known) >= 10
    # Like the audit's own solver: the shape library builds the parts that must stand (a
    # bare Z3 ran out of time on the parts of P08 P35 P44), and no known conflicts.
    solver = TowerSolver(deck.bricks, deck.all_used,
                         library=shape_library(deck.bricks, deck.all_used))
    by_condition = {c.condition: c for c in deck.cards}
    small = [conflict for conflict in known if len(conflict) <= SMALL]
    assert len(small) >= 10
    for conflict in small[::max(1, len(small) // SAMPLE)]:
        cards = sorted((by_condition[c] for c in conflict), key=lambda c: c.id)
        verdict = solver.verify([c.item() for c in cards], 60)
        assert verdict.status == UNSOLVABLE and verdict.conflict_minimal, [c.id for c in cards]
        assert verdict.conflict == tuple(c.id for c in cards)


PAIRS = (("T1", "T2"), ("T3", "T4"), ("T5", "T6"), ("T1", "T7"), ("T2", "T7"), ("T3", "T7"),
         ("T7", "T8"))
"""The planted pairs: with them a file of the planted deck is complete up to 2 cards."""


def test_a_proof_found_without_z3_is_added_and_the_sets_it_settles_are_dropped(
    tmp_path: Path,
) -> None:
    """`record_proof`: the set joins the conflicts with its command under `proofs`, and the
    sets still to shrink or undecided that hold it go."""
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile(
        PAIRS, 2, ("Built by: hand",), unminimised=(("T1", "T3", "T6", "T8"),),
        undecided=((("T1", "T3", "T8"), 60.0), (("T1", "T3", "T5", "T8"), 60.0),
                   (("T2", "T3", "T5"), 60.0))), "")
    added = record_proof(path, PLANTED, ["T8", "T3", "T1"], "counting (today)", "counting")
    assert set(added.sets) == {*PAIRS, ("T1", "T3", "T8")}
    assert added.proofs == ((("T1", "T3", "T8"), "counting (today)"),)
    assert added.unminimised == () and added.undecided == ((("T2", "T3", "T5"), 60.0),)
    assert added.history == ("Built by: hand", "Proved by counting: T1 T3 T8;", "  see proofs.")
    assert ("# 8 minimal conflicts, from an incomplete audit (1 by the proof `proofs` names). "
            "1 sets are undecided (`undecided`). Every conflict of up to 2 cards is here."
            ) in path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(("ids", "says"), [
    (["T1", "T2", "T5"], "it holds the listed conflict 'T1 T2'"),
    (["T3"], "it lies inside the listed conflict 'T3 T4'"),
    (["T1", "T3", "T5", "T8"], "its part 'T3 T5 T8' is not known solvable"),
])
def test_a_proof_that_cannot_be_minimal_is_refused_and_nothing_written(
    tmp_path: Path, ids: list[str], says: str,
) -> None:
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile(PAIRS, 2), "")
    before = path.read_bytes()
    with pytest.raises(UserError, match=rf"planted.yaml: '.*' cannot be added as a minimal "
                                        rf"conflict: {says}"):
        record_proof(path, PLANTED, ids, "counting", "counting")
    assert path.read_bytes() == before


def test_a_tower_found_without_z3_is_added_and_the_undecided_sets_it_meets_are_dropped(
    tmp_path: Path,
) -> None:
    """`add_towers`: the tower joins the file's towers, once, and settles the undecided sets it
    meets; one that falls or meets a listed conflict is refused, and nothing of the call is
    written."""
    tower = next(t for t in TOWERS if len(_ids(PLANTED.cards_met(t))) >= 3)
    met = sorted(_ids(PLANTED.cards_met(tower)))
    path = tmp_path / "planted.yaml"
    write_conflicts(path, PLANTED, ConflictFile(
        PAIRS, 2, ("Built by: hand",),
        undecided=((tuple(met[:3]), 60.0), (("T1", "T3", "T8"), 60.0))), "")
    added = add_towers(path, PLANTED, [tower], "counting")
    assert [tower_line(t) for t in added.towers] == [tower_line(tower)]
    assert added.undecided == ((("T1", "T3", "T8"), 60.0),)
    assert added.history[-1] == f"Tower found by counting: it meets {' '.join(met[:3])}."
    again = add_towers(path, PLANTED, [tower], "counting again")  # held already: left out
    assert (len(again.towers), again.history) == (1, added.history)
    before = path.read_bytes()
    lifted = tuple(dataclasses.replace(b, z=b.z + 1) for b in tower)
    with pytest.raises(UserError, match="planted.yaml: the tower cannot be added: the tower "
                                        "does not stand"):
        add_towers(path, PLANTED, [tower, lifted], "counting")
    assert path.read_bytes() == before
    write_conflicts(path, PLANTED, ConflictFile((*PAIRS, tuple(met[:2])), 2), "")
    before = path.read_bytes()
    with pytest.raises(UserError, match=rf"it meets every card of the conflict "
                                        rf"'{' '.join(met[:2])}'"):
        add_towers(path, PLANTED, [tower], "again")
    assert path.read_bytes() == before
