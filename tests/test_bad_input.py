"""Bad input everywhere (issue 8): every command, given a missing file, a malformed file, an
unknown id, an impossible request or an output it cannot write, answers with one line and exit
code 2; interrupted with Ctrl-C during its work, with one line and exit code 130. Either way it
leaves no file behind, not even a temporary one.

The table runs in-process (CliRunner); Ctrl-C needs a real process and a real SIGINT."""

from __future__ import annotations

import ctypes
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tower_print.cli import app, reports_user_errors

runner = CliRunner()
DATA = Path(__file__).parent / "data"
BROKEN_YAML = "elements:\n  - rect: {x: 0, y: [0\n"


def setup_place(root: Path) -> None:
    """Inputs for the table under `root`: {t} in the table's arguments."""
    (root / "blocker").write_text("a file where a folder should be\n")
    (root / "folder.pdf").mkdir()
    (root / "folder.yaml").mkdir()
    (root / "syntax.yaml").write_text("deck: mine\ntitle: [Mine\ncards:\n  - id: M1\n")
    (root / "field.yaml").write_text(
        "deck: mine\ntitle: Mine\ncolors: [red, blue]\nrule: all\ncards:\n"
        "  - id: M1\n    points: seven\n    text: Red on blue\n"
        "    condition: every red brick rests on some blue brick\n")
    (root / "game.yaml").write_text("rolls: [1, 2, 3]\nmoves: []\n")
    (root / "planted").mkdir()
    shutil.copy(DATA / "brix-planted.yaml", root / "planted" / "planted.yaml")
    (root / "planted" / "planted.examples.yaml").mkdir()  # where its examples should go
    for name in ("brix/condition-face.yaml.j2", "towerup/materials-face.yaml.j2",
                 "uptower/play-sheet.yaml.j2"):
        (root / "broken" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "broken" / name).write_text(BROKEN_YAML)
    (root / "typo" / "brix").mkdir(parents=True)
    (root / "typo" / "brix" / "condition-face.yaml.j2").write_text("face:\n  {{ card.text\n")


def listing(root: Path) -> list[str]:
    """Every file and folder under `root`, hidden ones (temporary files) included."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


# (arguments, exit code, part of the one line); {t} is the test's folder of inputs.
CASES = [
    # kit: no input files; its content is the shipped one
    (["kit", "--out", "{t}/k", "--games", "uptower,ludo"], 2, "unknown game 'ludo'"),
    (["kit", "--out", "{t}/k", "--paper", "a5"], 2, "--paper: unknown paper 'a5'"),
    (["kit", "--out", "{t}/k", "--seed", "many"], 2, "--seed: "),
    (["kit", "--out", "{t}/blocker", "--games", "uptower"], 2,
     "{t}/blocker is not a writable folder"),
    # brix verify
    (["brix", "verify", "M1", "--deck", "{t}/missing.yaml"], 2,
     "missing.yaml: deck file not found"),
    (["brix", "verify", "M1", "--deck", "{t}/syntax.yaml"], 2, "{t}/syntax.yaml:3: (syntax):"),
    (["brix", "verify", "M1", "--deck", "{t}/field.yaml"], 2,
     "{t}/field.yaml:7: cards[0].points: expected a whole number"),
    (["brix", "verify", "G01", "--deck", "pink"], 2, "deck pink: unknown card id 'G01'"),
    (["brix", "verify", "G01", "--challenge", "moonshot"], 2, "unknown challenge 'moonshot'"),
    (["brix", "verify", "G01", "--timeout", "0"], 2, "--timeout: "),
    (["brix", "verify", "G01", "--bogus"], 2, "No such option: --bogus"),
    (["brix", "verify", "G01", "--svg", "{t}/blocker/tower.svg"], 2,
     "--svg: {t}/blocker is not a folder"),
    (["brix", "verify", "G01", "--svg", "{t}/folder.pdf"], 2,
     "--svg: {t}/folder.pdf is a folder, not a file"),
    # brix deal
    (["brix", "deal", "--deck", "{t}/missing.yaml"], 2, "missing.yaml: deck file not found"),
    (["brix", "deal", "--deck", "{t}/syntax.yaml"], 2, "{t}/syntax.yaml:3: (syntax):"),
    (["brix", "deal", "--deck", "{t}/field.yaml"], 2, "{t}/field.yaml:7: cards[0].points"),
    (["brix", "deal", "--deck", "orange"], 2, "--deck: unknown deck 'orange'"),
    (["brix", "deal", "--level", "500"], 2, "--level: 500 points is out of range"),
    (["brix", "deal", "--players", "0"], 2, "--players: 0 is out of range 1..6"),
    (["brix", "deal", "--rounds", "-1"], 2, "--rounds: -1 is out of range"),
    (["brix", "deal", "--rounds", "1", "--pdf", "{t}/blocker/deal.pdf"], 2,
     "--pdf: {t}/blocker is not a folder"),
    (["brix", "deal", "--rounds", "1", "--pdf", "{t}/folder.pdf"], 2,
     "--pdf: {t}/folder.pdf is a folder, not a file"),
    (["brix", "deal", "--rounds", "1", "--pdf", "{t}/deal.pdf", "--templates", "{t}/none"], 2,
     "--templates: folder {t}/none does not exist"),
    # brix examples (never on a shipped deck here: that would rewrite content/)
    (["brix", "examples", "--deck", "{t}/missing.yaml"], 2, "deck file {t}/missing.yaml not found"),
    (["brix", "examples", "--deck", "{t}/syntax.yaml"], 2, "{t}/syntax.yaml:3: (syntax):"),
    (["brix", "examples", "--deck", "{t}/field.yaml"], 2, "{t}/field.yaml:7: cards[0].points"),
    (["brix", "examples", "--deck", "orange"], 2, "--deck: unknown deck 'orange'"),
    (["brix", "examples", "--deck", "{t}/planted/planted.yaml", "--samples", "0"], 2,
     "--samples: "),
    (["brix", "examples", "--deck", "{t}/planted/planted.yaml"], 2,
     "{t}/planted/planted.examples.yaml is a folder, not a file"),
    # brix print
    (["brix", "print", "--out", "{t}/p", "--deck", "{t}/missing.yaml"], 2,
     "deck file {t}/missing.yaml not found"),
    (["brix", "print", "--out", "{t}/p", "--deck", "{t}/syntax.yaml"], 2,
     "{t}/syntax.yaml:3: (syntax):"),
    (["brix", "print", "--out", "{t}/p", "--deck", "{t}/field.yaml"], 2,
     "{t}/field.yaml:7: cards[0].points"),
    (["brix", "print", "--out", "{t}/p", "--deck", "orange"], 2, "--deck: unknown deck 'orange'"),
    (["brix", "print", "--out", "{t}/p", "--card", "0x0"], 2, "--card: '0x0' is not a card size"),
    (["brix", "print", "--out", "{t}/p", "--templates", "{t}/none"], 2,
     "--templates: folder {t}/none does not exist"),
    (["brix", "print", "--out", "{t}/p", "--templates", "{t}/typo"], 2,  # before any progress
     "{t}/typo/brix/condition-face.yaml.j2:2: template syntax:"),
    (["brix", "print", "--out", "{t}/blocker/p", "--deck", "green"], 2,
     "--out: cannot write to {t}/blocker/p: {t}/blocker is not a writable folder"),
    # brix audit
    (["brix", "audit", "--deck", "{t}/missing.yaml"], 2, "missing.yaml: deck file not found"),
    (["brix", "audit", "--deck", "{t}/syntax.yaml"], 2, "{t}/syntax.yaml:3: (syntax):"),
    (["brix", "audit", "--deck", "{t}/field.yaml"], 2, "{t}/field.yaml:7: cards[0].points"),
    (["brix", "audit", "--deck", "orange"], 2, "--deck: unknown deck 'orange'"),
    (["brix", "audit", "--max-cards", "-1"], 2, "--max-cards: "),
    (["brix", "audit", "--jobs", "0"], 2, "--jobs: "),
    (["brix", "audit", "--deck", str(DATA / "brix-planted.yaml"), "--samples", "10", "--deals",
      "10", "--cache", "{t}/blocker/cache"], 2, "--cache: cannot write {t}/blocker/cache/"),
    # brix generate
    (["brix", "generate", "--out", "{t}/g.yaml", "--cards", "0"], 2, "--cards: "),
    (["brix", "generate", "--out", "{t}/g.yaml", "--cards", "100000"], 2,
     "--cards: 100000 is more than the 200"),
    (["brix", "generate", "--out", "{t}/g.yaml", "--cards", "4", "--three-point", "5"], 2,
     "--three-point: 5 is not between 0 and --cards (4)"),
    (["brix", "generate", "--out", "{t}/g.yaml", "--cards", "4", "--three-point", "1",
      "--templates", "{t}/none"], 2, "--templates: folder {t}/none does not exist"),
    (["brix", "generate", "--out", "{t}/g.txt", "--cards", "4"], 2,
     "--out: {t}/g.txt should be a .yaml or .yml file"),
    (["brix", "generate", "--out", "{t}/blocker/g.yaml", "--cards", "4"], 2,
     "--out: {t}/blocker is not a folder"),
    (["brix", "generate", "--out", "{t}/folder.yaml", "--cards", "4", "--three-point", "1"], 2,
     "--out: {t}/folder.yaml is a folder, not a file"),
    # brix shapes
    (["brix", "shapes", "--out", "{t}/s.yaml", "--level", "tricky"], 2,
     "--level: 'tricky' is not one of: easy, medium, hard"),
    (["brix", "shapes", "--out", "{t}/s.yaml", "--deck", "{t}/field.yaml"], 2,
     "field.yaml:7: cards[0].points"),
    (["brix", "shapes", "--out", "{t}/s.txt"], 2, "--out: {t}/s.txt should be a .yaml or .yml"),
    (["brix", "shapes", "--out", "{t}/blocker/s.yaml"], 2, "--out: {t}/blocker is not a folder"),
    (["brix", "shapes", "--out", "{t}/s.yaml", "--deals", "0"], 2, "--deals: "),
    (["brix", "shapes", "--out", "{t}/s.yaml", "--extend", "{t}/none.yaml"], 2,
     "none.yaml: no such file"),
    (["brix", "shapes", "--out", "{t}/s.yaml", "--deck", "pink", "--extend",
      "content/brix/shapes/green.yaml"], 2,
     "--extend: content/brix/shapes/green.yaml was built for"),
    # towerup objectives
    (["towerup", "objectives", "--players", "7"], 2, "--players: the front side is for 3 or 4"),
    (["towerup", "objectives", "--players", "2", "--side", "top"], 2, "--side: 'top'"),
    (["towerup", "objectives", "--players", "3", "--timeout", "0"], 2, "--timeout: "),
    (["towerup", "objectives"], 2, "Missing option '--players'"),
    # towerup check-objective
    (["towerup", "check-objective", ""], 2, "the objective is empty"),
    (["towerup", "check-objective", "roofs in every district", "--players", "9"], 2,
     "--players: the front side is for 1 or 3 or 4 players, not 9"),
    (["towerup", "check-objective", "roofs in every district", "--timeout", "-1"], 2,
     "--timeout: "),
    # towerup simulate
    (["towerup", "simulate", "--games", "1", "--objectives", "S1,,O2"], 2, "unknown card ''"),
    (["towerup", "simulate", "--games", "1", "--players", "5"], 2,
     "--players: the front side is for 3 or 4 players, not 5"),
    (["towerup", "simulate", "--games", "1", "--players", "4", "--side", "back"], 2,
     "--players: the back side is for 2 players, not 4"),
    (["towerup", "simulate", "--games", "0"], 2, "--games: "),
    # towerup print
    (["towerup", "print", "--out", "{t}/t", "--templates", "{t}/none"], 2,
     "--templates: folder {t}/none does not exist"),
    (["towerup", "print", "--out", "{t}/t", "--overlap", "1"], 2, "--overlap: "),
    (["towerup", "print", "--out", "{t}/t", "--duplex", "twice"], 2, "--duplex: 'twice'"),
    (["towerup", "print", "--out", "{t}/blocker/t", "--side", "back"], 2,
     "--out: cannot write to {t}/blocker/t: {t}/blocker is not a writable folder"),
    # uptower pad
    (["uptower", "pad", "--out", "{t}/pad.pdf", "--sheets", "0"], 2, "--sheets: "),
    (["uptower", "pad", "--out", "{t}/pad.pdf", "--width", "3"], 2, "--width: 3 is out of range"),
    (["uptower", "pad", "--out", "{t}/pad.pdf", "--templates", "{t}/none"], 2,
     "--templates: folder {t}/none does not exist"),
    (["uptower", "pad", "--out", "{t}/pad.pdf", "--sheets", "1", "--templates", "{t}/broken"], 2,
     "{t}/broken/uptower/play-sheet.yaml.j2 (as rendered for play sheet 1):3: (syntax):"),
    (["uptower", "pad", "--out", "{t}/pad.txt"], 2, "--out: {t}/pad.txt should be a .pdf file"),
    (["uptower", "pad", "--out", "{t}/blocker/pad.pdf"], 2, "--out: {t}/blocker is not a folder"),
    (["uptower", "pad", "--out", "{t}/folder.pdf", "--sheets", "1"], 2,
     "--out: {t}/folder.pdf is a folder, not a file"),
    # uptower puzzle
    (["uptower", "puzzle", "--seed", "1", "--out", "{t}/p.pdf", "--count", "0"], 2, "--count: "),
    (["uptower", "puzzle", "--seed", "1", "--out", "{t}/p.pdf", "--beam", "0"], 2, "--beam: "),
    (["uptower", "puzzle", "--seed", "1", "--out", "{t}/p.pdf", "--bonus", "doubled"], 2,
     "doubled"),
    (["uptower", "puzzle", "--out", "{t}/p.pdf"], 2, "Missing option '--seed'"),
    (["uptower", "puzzle", "--seed", "1", "--out", "{t}/p.pdf", "--beam", "5", "--budget", "0",
      "--templates", "{t}/broken"], 2, "{t}/broken/uptower/play-sheet.yaml.j2"),
    (["uptower", "puzzle", "--seed", "1", "--out", "{t}/blocker/p.pdf"], 2,
     "--out: {t}/blocker is not a folder"),
    (["uptower", "puzzle", "--seed", "1", "--out", "{t}/folder.pdf", "--beam", "5", "--budget",
      "0"], 2, "--out: {t}/folder.pdf is a folder, not a file"),
    # uptower score
    (["uptower", "score", "{t}/missing.json"], 2,
     "{t}/missing.json: No such file or directory"),
    (["uptower", "score", "{t}/folder.pdf"], 2, "{t}/folder.pdf: Is a directory"),
    (["uptower", "score", "{t}/game.yaml"], 2, "{t}/game.yaml:1: (syntax): not JSON"),
    (["uptower", "score"], 2, "Missing argument 'game'"),
    # the top level
    (["brix", "shuffle"], 2, "No such command 'shuffle'"),
]


def case_id(case: tuple[list[str], int, str]) -> str:
    args = case[0]
    words = [a.replace("{t}/", "") for a in args[:4]]
    return " ".join(words)


@pytest.mark.parametrize(("args", "code", "words"), CASES, ids=[case_id(c) for c in CASES])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    tmp_path: Path, args: list[str], code: int, words: str,
) -> None:
    setup_place(tmp_path)
    before = listing(tmp_path)
    result = runner.invoke(app, [a.replace("{t}", str(tmp_path)) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code == code, result.output
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: "), lines
    assert words.replace("{t}", str(tmp_path)) in lines[0], lines
    assert listing(tmp_path) == before


@pytest.mark.parametrize(("args", "words"), [
    (["brix", "print", "--out", "{t}/p", "--deck", "green", "--templates", "{t}/broken"],
     "{t}/broken/brix/condition-face.yaml.j2 (as rendered for card G01):3: (syntax):"),
    (["towerup", "print", "--out", "{t}/t", "--side", "back", "--templates", "{t}/broken"],
     "{t}/broken/towerup/materials-face.yaml.j2 (as rendered for materials card 1):3: (syntax):"),
])
def test_broken_template_found_while_drawing_is_one_line_and_writes_nothing(
    tmp_path: Path, args: list[str], words: str,
) -> None:
    """A template that renders to malformed YAML shows only once it is drawn, so progress lines
    may come first; the error itself is one line, the last, and nothing is written."""
    setup_place(tmp_path)
    before = listing(tmp_path)
    result = runner.invoke(app, [a.replace("{t}", str(tmp_path)) for a in args])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert [line for line in lines if line.startswith("error: ")] == lines[-1:], lines
    assert words.replace("{t}", str(tmp_path)) in lines[-1]
    assert "Traceback" not in result.output
    assert listing(tmp_path) == before


# --- Ctrl-C ------------------------------------------------------------------------------------

# (name, arguments, what shows the work has begun (a line on stderr, a path "{t}/..." that
# appears, or None), then seconds to wait)
LONG_WORK = [
    ("kit", ["kit", "--out", "{t}/kit"], None, 2.5),  # all games: about 10 s of work
    # Z3 leaves this deal undecided at 150 s (test_cli checks green's file still lists it so; a
    # tower of the pool meets P10 P20 P30 P40 P50, used here before, and P33 P43 P44 P32 P31
    # P24, P01 P05 P06 P11 P54, P18 P25 P28 P34 P38 and P32 P39 P42 P46 P49 are conflicts proved
    # since, and P13 P19 P36 P37 P38 is met by a tower found since: they ended within the wait).
    ("brix verify (Z3)", ["brix", "verify", "G13", "G25", "G32", "G40", "G44", "--svg",
                          "{t}/tower.svg"], None, 2.5),
    ("brix deal", ["brix", "deal", "--level", "hard", "--players", "6", "--rounds", "20",
                   "--pdf", "{t}/deal.pdf"], "round 1 of 20", 0.3),
    ("brix examples", ["brix", "examples", "--deck", "{t}/planted.yaml", "--samples", "200000"],
     "sampling", 0.5),
    ("brix print", ["brix", "print", "--out", "{t}/p", "--deck", "green", "--png"], "green:", 0.5),
    ("brix audit", ["brix", "audit", "--deck", "green", "--jobs", "1", "--cache", "{t}/cache"],
     "{t}/cache", 1.0),  # the cache appears once the audit has begun; it keeps what follows
    ("brix generate", ["brix", "generate", "--out", "{t}/g.yaml", "--cards", "50"], None, 2.5),
    ("towerup check-objective (Z3)", [
        "towerup", "check-objective", "at least 10 roofs on buildings at least 4 high and roofs "
        "in every district and at least 6 visible roofs", "--side", "back"], None, 2.5),
    ("towerup simulate", ["towerup", "simulate", "--games", "100000"], None, 2.5),
    ("towerup print", ["towerup", "print", "--out", "{t}/t", "--png"], "cards:", 0.3),
    ("uptower pad", ["uptower", "pad", "--out", "{t}/pad.pdf", "--sheets", "500"], None, 2.0),
    ("uptower puzzle", ["uptower", "puzzle", "--seed", "1", "--count", "50", "--out",
                        "{t}/puzzles.pdf"], "puzzle 1 of 50", 0.2),
]
AUDIT_KEEPS = "cache"
"""The audit keeps what it learnt (its log in --cache) on purpose: run again, it resumes."""


@pytest.mark.parametrize(("args", "ready", "wait"), [c[1:] for c in LONG_WORK],
                         ids=[c[0] for c in LONG_WORK])
def test_ctrl_c_is_one_line_exit_130_and_writes_nothing(
    tmp_path: Path, args: list[str], ready: str | None, wait: float,
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(DATA / "brix-planted.yaml", work / "planted.yaml")
    before = listing(work)
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-c", "from tower_print.cli import main; main()",
             *(a.replace("{t}", str(work)) for a in args)],
            stdout=stdout, stderr=stderr, cwd=work,
            # As at a terminal: a shell that starts its jobs in the background (as CI runners
            # may) hands them SIGINT ignored, and Python then never turns it into Ctrl-C.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            started = time.monotonic()
            while ready is not None and not (
                    Path(ready.replace("{t}", str(work))).exists() if ready.startswith("{t}/")
                    else ready in err.read_text()):
                assert process.poll() is None, err.read_text()
                assert time.monotonic() - started < 60, "the work never began"
                time.sleep(0.05)
            time.sleep(wait)
            assert process.poll() is None, "finished before the interrupt: make the work longer"
            process.send_signal(signal.SIGINT)
            sent = time.monotonic()
            code = process.wait(timeout=30)
            stopped_in = time.monotonic() - sent
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert code == 130, err.read_text()
    assert stopped_in < 10
    assert out.read_text() == ""
    lines = [line for line in err.read_text().splitlines() if line.strip()]
    assert [line for line in lines if line.startswith(("interrupted", "error"))] == lines[-1:]
    assert lines[-1].startswith("interrupted: "), lines
    assert "Traceback" not in err.read_text()
    after = listing(work)
    if "audit" in args:
        assert "what was learnt is kept in" in lines[-1]
        assert set(before) < set(after)
        assert all(p.split("/")[0] == AUDIT_KEEPS for p in set(after) - set(before))
    else:
        assert lines[-1] == "interrupted: nothing written"
        assert after == before


@pytest.mark.parametrize(("raised", "code"), [
    (KeyboardInterrupt(), 130),
    # Ctrl-C while ctypes converted the arguments of a call into Z3 (seen in CI, `brix deal`)
    (ctypes.ArgumentError("argument 1: KeyboardInterrupt: "), 130),
    (ctypes.ArgumentError("argument 1: TypeError: wrong type"), None),  # a bug: not hidden
])
def test_ctrl_c_wrapped_by_ctypes_is_still_an_interrupt(
    raised: BaseException, code: int | None,
) -> None:
    def work() -> None:
        raise raised

    command = reports_user_errors(work)
    if code is None:
        with pytest.raises(ctypes.ArgumentError):
            command()
        return
    with pytest.raises(typer.Exit) as stopped:
        command()
    assert stopped.value.exit_code == code
