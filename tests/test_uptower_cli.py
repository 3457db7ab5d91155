"""`tower-print uptower` as users run it: pad PDFs read back with pypdf and rasterised with
pdfium, puzzles whose par game `score` accepts, recorded games with illegal moves, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from tower_print.cli import app

runner = CliRunner()
A4_PT = (595.28, 841.89)
LETTER_PT = (612.0, 792.0)
MM = 72 / 25.4


def run(*args: str):  # noqa: ANN201 - click Result
    return runner.invoke(app, ["uptower", *args])


def sizes(path: Path) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in PdfReader(path).pages]


def test_pad_a4_one_sheet_a_page(tmp_path: Path) -> None:
    out = tmp_path / "pad.pdf"
    result = run("pad", "--sheets", "3", "--paper", "a4", "--per-page", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sizes(out) == [pytest.approx(A4_PT, abs=0.05)] * 3
    reader = PdfReader(out)
    text = reader.pages[2].extract_text()
    assert "Sheet 3" in text and "×15 =" in text and "at will" in text and "21" in text
    fonts = {f["/BaseFont"] for f in reader.pages[0]["/Resources"]["/Font"].values()}
    assert all("DejaVu" in str(name) for name in fonts)


def ink(page: pdfium.PdfPage, dpi: int = 60) -> np.ndarray:
    """True where the page is not white."""
    image = page.render(scale=dpi / 72).to_pil().convert("L")
    return np.asarray(image) < 200


def test_pad_letter_two_sheets_a_landscape_page(tmp_path: Path) -> None:
    out = tmp_path / "pad.pdf"
    result = run("pad", "--sheets", "3", "--paper", "letter", "--per-page", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sizes(out) == [pytest.approx(LETTER_PT[::-1], abs=0.05)] * 2
    document = pdfium.PdfDocument(str(out))
    full, half = ink(document[0]), ink(document[1])
    w = full.shape[1]
    # nothing within 4 mm of the paper's edge: the sheets fit inside the printable area
    edge = int(4 * 60 / 25.4)
    for mask in (full, half):
        assert not mask[:edge].any() and not mask[:, :edge].any() and not mask[:, -edge:].any()
    # both halves are drawn on a full page; the last page holds sheet 3 alone on the left
    assert full[:, : w // 2 - 10].sum() > 1000 and full[:, w // 2 + 10:].sum() > 1000
    assert half[:-40, w // 2 + 10:].sum() == 0
    assert "Sheet 3" in PdfReader(out).pages[1].extract_text()


def test_pad_width_is_configurable(tmp_path: Path) -> None:
    out = tmp_path / "pad.pdf"
    assert run("pad", "--sheets", "1", "--width", "10", "--out", str(out)).exit_code == 0
    text = PdfReader(out).pages[0].extract_text()
    assert "\nA\nB\nC\nD\nE\nF\nG\nH\nI\nJ\n" in text and "\nK\n" not in text


def test_same_pad_same_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for out in (a, b):
        assert run("pad", "--sheets", "2", "--out", str(out)).exit_code == 0
    assert a.read_bytes() == b.read_bytes()


@pytest.fixture(scope="module")
def puzzle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("puzzle") / "puzzle.pdf"
    result = runner.invoke(app, ["uptower", "puzzle", "--seed", "3", "--count", "2",
                                 "--beam", "60", "--budget", "1000", "--out", str(out),
                                 "--json"])
    assert result.exit_code == 0, result.output
    return out, json.loads(result.stdout)


def test_puzzle_json_has_rolls_par_bound_and_moves(puzzle: tuple[Path, dict]) -> None:
    out, data = puzzle
    assert [p["seed"] for p in data["puzzles"]] == [3, 4]
    for entry in data["puzzles"]:
        assert 0 < entry["par"] <= entry["bound"] and isinstance(entry["par_is_best"], bool)
        assert max(entry["rolls"].count(k) for k in range(1, 7)) == 5
        assert entry["moves"] and {"turn", "piece", "rotation", "column", "at_will"} == \
            set(entry["moves"][0])
    # each puzzle sheet is followed by its answer key
    reader = PdfReader(out)
    assert len(reader.pages) == 4
    assert f"par {data['puzzles'][0]['par']}" in reader.pages[0].extract_text()
    assert "Answer key · seed 4" in reader.pages[3].extract_text()


def test_the_par_game_scores_par_when_checked(puzzle: tuple[Path, dict], tmp_path: Path) -> None:
    _, data = puzzle
    game = tmp_path / "game.json"
    game.write_text(json.dumps(data["puzzles"][0]))
    result = run("score", str(game), "--json")
    assert result.exit_code == 0, result.output
    checked = json.loads(result.stdout)
    assert checked["legal"] and checked["score"] == data["puzzles"][0]["par"]


def test_same_seed_same_puzzle_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for out in (a, b):
        result = run("puzzle", "--seed", "9", "--beam", "20", "--budget", "300", "--out",
                     str(out))
        assert result.exit_code == 0, result.output
    assert a.read_bytes() == b.read_bytes()


def test_score_names_the_first_illegal_move(puzzle: tuple[Path, dict], tmp_path: Path) -> None:
    _, data = puzzle
    record = data["puzzles"][0]
    # move 3 goes one column to the right of where it landed: off the field or overhanging
    moves = record["moves"]
    moves[2]["column"] = 8 if moves[2]["column"] < 8 else 1
    game = tmp_path / "bad.json"
    game.write_text(json.dumps(record))
    result = run("score", str(game))
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{game}: move 3 (turn {moves[2]['turn']}): illegal: ")


def test_score_finds_a_lost_turn_that_was_not_forced(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    game.write_text(json.dumps({"rolls": [1, 1, 1, 1, 1], "moves": [
        {"turn": 1, "piece": 1, "rotation": 0, "column": 1},
        {"turn": 3, "piece": 1, "rotation": 0, "column": 3}]}))
    result = run("score", str(game))
    assert result.exit_code == 1
    assert "turn 2: illegal: no piece placed, but the rolled piece 1 can be placed" in \
        result.stdout


@pytest.mark.parametrize(("text", "where"), [
    ('{"rolls": [1, 2,\n "moves": []}', "g.json:2: (syntax): not JSON"),
    ('{"rolls": [1, 2, 7], "moves": []}', "g.json:1: rolls[2]: 7 is out of range 1..6"),
    ('{"rolls": [1, 1, 1, 1, 1],\n "moves": [\n {"turn": 1, "piece": 1, "rotation": 0}]}',
     "g.json:3: moves[0]: missing field 'column'"),
    ('{"rolls": [1, 1, 1, 1, 1],\n "moves": [{"turn": 1, "piece": 1, "rotation": 0,\n'
     ' "column": 1, "at_will": "yes"}]}', "g.json:3: moves[0].at_will: expected true or false"),
    ('{"rolls": [1, 2], "moves": [], "colour": 1}', "g.json:1: colour: unknown field"),
    ('{"rolls": [1, 2], "moves": []}', "g.json:1: rolls: the rolls end before any piece is "
     "rolled 5 times"),
])
def test_bad_game_files_are_one_line_and_exit_2(tmp_path: Path, text: str, where: str) -> None:
    game = tmp_path / "g.json"
    game.write_text(text)
    result = run("score", str(game))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and where in lines[0], lines


def test_bad_options_leave_no_output(tmp_path: Path) -> None:
    out = tmp_path / "pad.pdf"
    for args in (["--paper", "a3"], ["--per-page", "3"], ["--width", "30"],
                 ["--bonus", "doubled"]):
        result = run("pad", "--sheets", "2", "--out", str(out), *args)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    result = run("puzzle", "--seed", "1", "--paper", "a3", "--out", str(out))
    assert result.exit_code == 2
    assert list(tmp_path.iterdir()) == []


def test_score_uses_the_bonus_table_the_game_names(tmp_path: Path) -> None:
    moves = [(1, 5, 1, False), (1, 5, 2, True), (2, 5, 3, False), (2, 1, 5, True),
             (3, 5, 4, False), (3, 3, 7, True), (4, 5, 1, False), (5, 5, 2, False)]
    game = {"rolls": [5, 5, 5, 5, 5], "moves": [
        {"turn": t, "piece": p, "rotation": 0, "column": c, "at_will": a} for t, p, c, a in moves]}
    scores = {}
    for table in ("published", "triangular"):
        path = tmp_path / f"{table}.json"
        path.write_text(json.dumps({**game, "bonus": table}))
        result = run("score", str(path), "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["heights"] == [8, 8, 4, 4, 2, 2, 3, 1] and data["unused_circles"] == 3
        scores[table] = data["score"]
    assert scores == {"published": 16 + 5, "triangular": 16 + 6}
