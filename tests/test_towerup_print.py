"""`tower-print towerup print`: page counts and sizes, tiles that reassemble to the board, every
site and street of the content in the board's SVG, pages that are not blank, same bytes twice.
"""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from tower_print.cli import app
from tower_print.content import ContentError, content_root
from tower_print.render.layout import environment
from tower_print.render.scene import Group, Rect, Scene
from tower_print.render.settings import default_settings
from tower_print.render.tile import TileSpec, tile
from tower_print.towerup.game import default_content
from tower_print.towerup.printables import (
    PrintJob,
    board_scene,
    build_outputs,
    cube_pages,
    default_look,
    load_aid,
    load_look,
    token_groups,
    token_pages,
)

runner = CliRunner()
MM = 72 / 25.4
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
SVG = "{http://www.w3.org/2000/svg}"
AID = content_root() / "towerup" / "aid.yaml"


@cache
def outputs(paper: str) -> dict[str, bytes]:
    return build_outputs(PrintJob(paper=paper))


def _pages(pdf: bytes) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width) / MM, float(p.mediabox.height) / MM)
            for p in PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_counts_and_sizes(paper: str) -> None:
    files = outputs(paper)
    content = default_content()
    w, h = PAPER_MM[paper]
    cards = _pages(files["towerup-cards.pdf"])
    # poker cards (9 a sheet on A4, 8 on Letter), each sheet of fronts followed by its backs
    per = {"a4": 9, "letter": 8}[paper]
    expected = 2 * (math.ceil(len(content.rules.deck) / per) + math.ceil(len(content.cards) / per))
    assert len(cards) == expected == {"a4": 14, "letter": 16}[paper]
    extras = _pages(files["towerup-extras.pdf"])
    tokens = token_pages(content, default_look(), environment(None), (w, h), default_settings())
    assert 1 <= len(tokens) <= 2
    assert len(extras) == 4 + len(tokens) + 1  # personal boards, tokens, player aid
    for size in cards + extras + _pages(files["towerup-board-front.pdf"]):
        assert sorted(size) == pytest.approx(sorted((w, h)), abs=0.01)
    assert all(s[0] > s[1] for s in extras[:4])  # personal boards are landscape
    assert all(s[0] < s[1] for s in extras[4:])
    for side in ("front", "back"):
        large = _pages(files[f"towerup-board-{side}-large.pdf"])
        assert len(large) == 1 and large[0][0] > w and large[0][1] > h
        assert len(_pages(files[f"towerup-board-{side}.pdf"])) >= 2
    svgs = [n for n in files if n.startswith("svg/towerup-cards-")]
    assert len(svgs) == len(cards)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("overlap", [6.0, 10.0, 25.0])
def test_tiles_overlap_and_reassemble_the_board(paper: str, overlap: float) -> None:
    content = default_content()
    board = board_scene(content.board.side("front"), content, default_look(), environment(None),
                        (63.5, 88.9))
    spec = TileSpec(*PAPER_MM[paper], margin=5.0, legend_band=6.0, overlap=overlap)
    tiles = tile(board, spec)
    rows, cols = tiles[0].rows, tiles[0].cols
    assert len(tiles) == rows * cols > 1
    grid = {(t.row, t.col): t for t in tiles}
    for t in tiles:
        page_w, page_h = t.scene.width, t.scene.height
        assert t.w <= page_w - 2 * spec.margin + 1e-6
        assert t.h <= page_h - 2 * spec.margin - spec.legend_band + 1e-6
        # the window is drawn at 100 % with its corner at the margin
        drawing = t.scene.items[0]
        assert isinstance(drawing, Group) and drawing.scale == 1.0
        assert (drawing.dx + t.x, drawing.dy + t.y) == pytest.approx((spec.margin, spec.margin))
        assert drawing.clip == (t.x, t.y, t.w, t.h)
        if t.col + 1 < cols:  # right neighbour starts `overlap` mm before this window ends
            right = grid[(t.row, t.col + 1)]
            assert t.x + t.w - right.x == pytest.approx(overlap)
            assert right.y == t.y
        if t.row + 1 < rows:
            below = grid[(t.row + 1, t.col)]
            assert t.y + t.h - below.y == pytest.approx(overlap)
            assert below.x == t.x
    # reassembled, the windows cover the board exactly: from 0 to its width and height
    assert grid[(0, 0)].x == 0 and grid[(0, 0)].y == 0
    last = grid[(rows - 1, cols - 1)]
    assert last.x + last.w == pytest.approx(board.width)
    assert last.y + last.h == pytest.approx(board.height)


def _svg_board(files: dict[str, bytes], side: str) -> ET.Element:
    return ET.fromstring(files[f"svg/towerup-board-{side}-large.svg"])


@pytest.mark.parametrize("side_name", ["front", "back"])
def test_every_site_and_street_is_in_the_svg(side_name: str) -> None:
    side = default_content().board.side(side_name)
    radius = default_look()["board"]["site_radius"]
    root = _svg_board(outputs("a4"), side_name)
    circles = [(float(r.get("x")) + radius, float(r.get("y")) + radius)
               for r in root.iter(f"{SVG}rect")
               if r.get("rx") == str(radius) and r.get("width") == str(2 * radius)]
    assert len(circles) == len(side.sites)
    # the city is drawn shifted by one offset: find it, then every site is where content says
    ox = min(c[0] for c in circles) - min(s.x for s in side.sites)
    oy = min(c[1] for c in circles) - min(s.y for s in side.sites)
    drawn = {(round(x - ox, 2), round(y - oy, 2)) for x, y in circles}
    assert drawn == {(round(s.x, 2), round(s.y, 2)) for s in side.sites}
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert all(any(s.id in (t or "") for t in texts) for s in side.sites)
    streets = {frozenset({(round(float(e.get("x1")) - ox, 2), round(float(e.get("y1")) - oy, 2)),
                          (round(float(e.get("x2")) - ox, 2), round(float(e.get("y2")) - oy, 2))})
               for e in root.iter(f"{SVG}line") if e.get("stroke-width") == "4"}
    at = {s.id: (round(s.x, 2), round(s.y, 2)) for s in side.sites}
    assert streets == {frozenset({at[a], at[b]}) for a, b in side.streets}
    assert len(streets) == len(side.streets)


def test_rasterised_pages_are_not_blank() -> None:
    files = outputs("a4")
    for name in sorted(n for n in files if n.endswith(".pdf")):
        document = pdfium.PdfDocument(files[name])
        try:
            for index in range(len(document)):
                image = np.asarray(document[index].render(scale=0.25).to_pil().convert("L"))
                inked = (image < 200).mean()
                assert inked > 0.02, f"{name} page {index + 1} is nearly blank ({inked:.3f})"
        finally:
            document.close()


def test_same_inputs_give_the_same_bytes() -> None:
    job = PrintJob(paper="letter", side="back")
    assert build_outputs(job) == build_outputs(job)


def test_png_per_card_with_print_shop_bleed() -> None:
    files = build_outputs(replace(PrintJob(side="back"), png=True))
    content = default_content()
    materials = [n for n in files if n.startswith("png/materials/")]
    objectives = [n for n in files if n.startswith("png/objectives/")]
    assert len(materials) == len(content.rules.deck) + 1  # and the back
    assert len(objectives) == len(content.cards) + 1
    from PIL import Image

    assert Image.open(io.BytesIO(files[materials[0]])).size == (825, 1125)


def test_every_meaningful_colour_has_a_symbol(tmp_path: Path) -> None:
    look = default_look()
    for group in ("floors", "districts"):
        assert all(v["symbol"] in look["symbols"] for v in look[group].values())
    assert all(p["symbol"] in look["symbols"] for p in look["players"])
    symbols = [p["symbol"] for p in look["players"]]
    assert len(set(symbols)) == len(symbols)
    text = (content_root() / "towerup" / "print.yaml").read_text()
    bad = tmp_path / "print.yaml"
    bad.write_text(text.replace("symbol: square, label: black", "symbol: blob, label: black"))
    with pytest.raises(ContentError, match="unknown symbol 'blob'"):
        load_look(bad, default_content())
    bad.write_text(text.replace("site_radius: 9", "site_radius: nine"))
    with pytest.raises(ContentError, match="site_radius"):
        load_look(bad, default_content())


def test_cli_writes_the_kit_and_refuses_bad_input(tmp_path: Path) -> None:
    result = runner.invoke(app, ["towerup", "print", "--out", str(tmp_path / "kit"),
                                 "--paper", "letter", "--side", "back"])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "kit").glob("*.pdf"))
    assert names == ["towerup-board-back-large.pdf", "towerup-board-back.pdf",
                     "towerup-cards.pdf", "towerup-extras.pdf"]
    for args in (["--side", "sideways"], ["--paper", "a3"], ["--duplex", "twice"]):
        result = runner.invoke(app, ["towerup", "print", "--out", str(tmp_path / "bad"), *args])
        assert result.exit_code == 2
        assert "error:" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "bad").exists()


def test_tokens_are_all_there() -> None:
    content = default_content()
    rules = content.rules
    groups = dict(token_groups(content, default_look()))
    counts = [len(tokens) for tokens in groups.values()]
    assert counts == [3 * len(rules.chips), 4 * rules.roofs_per_player,
                      len(rules.colours) * rules.floors_per_colour] == [12, 40, 120]
    pages = token_pages(content, default_look(), environment(None), (210, 297),
                        default_settings())
    look = default_look()["tokens"]
    sizes = Counter(round(item.w, 3) for page in pages for item in page.items
                    if isinstance(item, Rect) and item.w == item.h)
    assert (sizes[look["chip"]], sizes[look["roof"]], sizes[look["floor"]]) == (12, 40, 120)


def test_cubes_replace_the_flat_floors() -> None:
    content = default_content()
    look = default_look()
    env, settings = environment(None), default_settings()
    assert [h for h, _ in token_groups(content, look, cubes=True)] == \
        [h for h, _ in token_groups(content, look)][:2]
    pages = cube_pages(content, look, env, (215.9, 279.4), settings)
    faces = Counter(item.fill for page in pages for item in page.items
                    if isinstance(item, Rect) and item.w == look["tokens"]["cube"])
    # six faces a cube, 30 cubes of each colour
    assert faces == {look["floors"][c]["fill"]: 6 * 30 for c in content.rules.colours}
    for page in pages:  # every net inside the printable area, above the footer band
        for item in page.items:
            if isinstance(item, Rect):
                assert settings.margin <= item.x and item.x + item.w <= 215.9 - settings.margin
                assert item.y + item.h <= 279.4 - settings.margin - settings.legend_band


def test_tile_is_one_page_when_the_drawing_fits() -> None:
    tiles = tile(Scene(100, 100), TileSpec(210, 297))
    assert [(t.rows, t.cols, t.x, t.y, t.w, t.h) for t in tiles] == [(1, 1, 0, 0, 100, 100)]


def test_player_aid_takes_its_numbers_from_the_rules(tmp_path: Path) -> None:
    """Edited rules show on the aid: the numbers are filled in, not written twice."""
    rules = default_content().rules
    shipped = {s["heading"]: s["text"] for s in load_aid(AID, rules)["sections"]}
    assert "no more than ten floors in hand" in shipped["On your turn, do one of two things"]
    assert "tied players share the win" in shipped["Scoring"]
    edited = replace(rules, hand_limit=8, roofs_per_player=12, tie="floors",
                     chips_per_players={2: 1, 3: 2, 4: 3}, cone=rules.cone[:6])
    texts = {s["heading"]: s["text"] for s in load_aid(AID, edited)["sections"]}
    assert "no more than eight floors in hand" in texts["On your turn, do one of two things"]
    assert "the twelve roofs of their colour" in texts["Setup"]
    assert "(one with two players, two with three players, three with four players)" in (
        texts["Setup"])
    assert "(five or more count as five)" in texts["Scoring"]
    assert "most floors left in the supply" in texts["Scoring"]
    broken = tmp_path / "aid.yaml"
    broken.write_text("title: Aid\nsections:\n  - heading: Setup\n"
                      "    text: Keep {{ rules.hand_limt }} floors.\n")
    with pytest.raises(ContentError) as caught:
        load_aid(broken, rules)
    assert str(caught.value).startswith(f"{broken}:4: sections[0].text: cannot fill in the rules")
