"""`tower-print kit`: every file in the manifest is there with its size and checksum and opens
(PDF, SVG, PNG); the index shows every file; the same seed gives the same bytes; bad input is one
line, exit 2 and no files."""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from tower_print.cli import app

runner = CliRunner()
SMALL = ["--games", "uptower,towerup", "--paper", "letter", "--seed", "7"]


def make_kit(out: Path, *options: str) -> dict:
    result = runner.invoke(app, ["kit", "--out", str(out), *options])
    assert result.exit_code == 0, result.output
    return json.loads((out / "manifest.json").read_text())


@pytest.fixture(scope="module")
def small_kit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("kit")
    return out, make_kit(out, *SMALL)


def test_every_manifest_file_is_there_and_opens(small_kit: tuple[Path, dict]) -> None:
    out, manifest = small_kit
    paths = [entry["path"] for entry in manifest["files"]]
    assert paths == sorted(paths)
    on_disk = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    assert on_disk == {*paths, "manifest.json"}
    assert {p.split("/")[0] for p in paths} == {"towerup", "uptower", "thumbs", "index.html"}
    for entry in manifest["files"]:
        data = (out / entry["path"]).read_bytes()
        assert len(data) == entry["bytes"]
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        path = out / entry["path"]
        if path.suffix == ".pdf":
            assert len(PdfReader(path).pages) >= 1
        elif path.suffix == ".svg":
            assert ET.parse(path).getroot().tag.endswith("svg")
        elif path.suffix == ".png":
            with Image.open(path) as image:
                image.verify()


def test_index_shows_every_file_with_a_thumbnail(small_kit: tuple[Path, dict]) -> None:
    out, manifest = small_kit
    index = (out / "index.html").read_text()
    for entry in manifest["files"]:
        if entry["path"] != "index.html":
            assert f'"{entry["path"]}"' in index, entry["path"]
    pdfs = [e["path"] for e in manifest["files"] if e["path"].endswith(".pdf")]
    assert "uptower/uptower-puzzles.pdf" in pdfs
    for pdf in pdfs:
        with Image.open(out / "thumbs" / Path(pdf).with_suffix(".png")) as thumb:
            assert thumb.width == 240 and thumb.getextrema() != ((255, 255),) * 3
    assert "100 %" in index and "double-sided" in index


def test_same_seed_same_bytes(small_kit: tuple[Path, dict], tmp_path: Path) -> None:
    _, manifest = small_kit
    assert make_kit(tmp_path / "again", *SMALL) == manifest


@pytest.mark.parametrize(("option", "value", "words"), [
    ("--games", "towerbrix,chess", "unknown game 'chess'"),
    ("--paper", "a3", "unknown paper 'a3'"),
])
def test_bad_option_is_one_line_and_writes_nothing(
    tmp_path: Path, option: str, value: str, words: str,
) -> None:
    out = tmp_path / "kit"
    result = runner.invoke(app, ["kit", "--out", str(out), option, value])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and words in result.stderr
    assert not out.exists()


def test_unwritable_out_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = runner.invoke(app, ["kit", "--out", str(blocker / "kit"), "--games", "uptower"])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: --out: cannot write to")
    assert result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == [blocker]
