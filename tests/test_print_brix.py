"""`tower-print brix print` as users run it: the PDFs read back with pypdf, pages rasterised with
pdfium, SVG parsed as XML, PNG and Tabletop Simulator sizes, one-line errors and no partial output.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream
from typer.testing import CliRunner

from tower_print.brix.decks import Card, shipped_deck
from tower_print.brix.examples import checked_examples
from tower_print.brix.language import parse
from tower_print.brix.printables import (
    PrintJob,
    build_outputs,
    condition_faces,
    default_print_content,
)
from tower_print.cli import app
from tower_print.render.layout import CardSpec, environment
from tower_print.render.pdf import scenes_to_pdf_bytes
from tower_print.render.svg import scene_to_svg

runner = CliRunner()
MM = 72 / 25.4
A4_PT = (595.28, 841.89)
LETTER_PT = (612.0, 792.0)
BLEED = 3.0
POKER = (63.5, 88.9)
SVG = "{http://www.w3.org/2000/svg}"
NASTY = 'a < b & "c" > d'


def run(*args: str):  # noqa: ANN201 - click Result
    return runner.invoke(app, ["brix", "print", *args])


@pytest.fixture(scope="module")
def a4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("a4")
    result = run("--out", str(out), "--deck", "all", "--paper", "a4")
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("letter")
    result = run("--out", str(out), "--deck", "green", "--paper", "letter", "--duplex", "long",
                 "--cut-guides")
    assert result.exit_code == 0, result.output
    return out


def page_sizes(path: Path) -> list[tuple[float, float]]:
    reader = PdfReader(path)
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in reader.pages]


def test_a4_pdfs_have_the_expected_pages_and_size(a4: Path) -> None:
    # 9 cards a sheet, fronts then backs: green 50 -> 6 sheets, pink 55 -> 7 sheets
    assert len(page_sizes(a4 / "towerbrix-green-cards.pdf")) == 12
    assert len(page_sizes(a4 / "towerbrix-pink-cards.pdf")) == 14
    # 5 overview cards (1 sheet, fronts and backs) + score pad + 9 paper bricks (2 a page)
    assert len(page_sizes(a4 / "towerbrix-extras.pdf")) == 2 + 1 + 5
    for name in ("green-cards", "pink-cards", "extras"):
        for size in page_sizes(a4 / f"towerbrix-{name}.pdf"):
            assert size == pytest.approx(A4_PT, abs=0.05)


def test_letter_is_landscape_with_eight_cards_a_sheet(letter: Path) -> None:
    sizes = page_sizes(letter / "towerbrix-green-cards.pdf")
    assert len(sizes) == 2 * 7  # 50 cards, 8 a sheet
    assert all(s == pytest.approx((LETTER_PT[1], LETTER_PT[0]), abs=0.05) for s in sizes)


def test_every_font_is_the_shipped_one_and_embedded(a4: Path) -> None:
    for name in ("green-cards", "extras"):
        reader = PdfReader(a4 / f"towerbrix-{name}.pdf")
        for page in reader.pages:
            fonts = [f.get_object() for f in page["/Resources"]["/Font"].values()]
            assert fonts
            for font in fonts:
                assert "DejaVuSansCondensed" in str(font["/BaseFont"])
                descriptor = font["/FontDescriptor"].get_object()
                assert "/FontFile2" in descriptor


def card_trims(reader: PdfReader, index: int) -> list[tuple[float, float, float, float]]:
    """Trim boxes (x0, y0, x1, y1 in pt, PDF axes) of the cards drawn on a page, read from the
    content stream: every card is a clipped group whose origin is its bleed corner."""
    page = reader.pages[index]
    ctm = np.eye(3)
    stack = []
    trims = []
    operations = ContentStream(page.get_contents(), reader).operations
    for k, (operands, op) in enumerate(operations):
        if op == b"q":
            stack.append(ctm.copy())
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            ctm = np.array([[a, b, 0], [c, d, 0], [e, f, 1]]) @ ctm
        elif op == b"re" and operations[k + 1][1] in (b"W", b"W*"):
            corners = [np.array([x, y, 1]) @ ctm for x, y in (
                (BLEED, BLEED), (BLEED + POKER[0], BLEED + POKER[1]))]
            xs = sorted(float(p[0]) for p in corners)
            ys = sorted(float(p[1]) for p in corners)
            trims.append((xs[0], ys[0], xs[1], ys[1]))
    return trims


@pytest.mark.parametrize(("fixture", "axis"), [("a4", "x"), ("letter", "y")])
def test_backs_line_up_with_their_fronts_once_turned_over(
    fixture: str, axis: str, request: pytest.FixtureRequest,
) -> None:
    """A4 portrait turned over its long edge mirrors left-right; Letter is laid out landscape,
    where the long edge is at the top, so turning it over that edge mirrors top-bottom."""
    out: Path = request.getfixturevalue(fixture)
    reader = PdfReader(out / "towerbrix-green-cards.pdf")
    for front in range(0, len(reader.pages), 2):
        width = float(reader.pages[front].mediabox.width)
        height = float(reader.pages[front].mediabox.height)
        fronts, backs = card_trims(reader, front), card_trims(reader, front + 1)
        assert len(fronts) == len(backs) > 0
        for (x0, y0, x1, y1), back in zip(fronts, backs, strict=True):
            assert x1 - x0 == pytest.approx(POKER[0] * MM, abs=0.01)
            assert y1 - y0 == pytest.approx(POKER[1] * MM, abs=0.01)
            turned = (width - x1, y0, width - x0, y1) if axis == "x" else (
                x0, height - y1, x1, height - y0)
            assert back == pytest.approx(turned, abs=0.01)


def test_rasterised_pages_are_not_blank_where_cards_are(a4: Path) -> None:
    reader = PdfReader(a4 / "towerbrix-green-cards.pdf")
    document = pdfium.PdfDocument(a4 / "towerbrix-green-cards.pdf")
    dpi = 40
    scale = dpi / 72
    for index in (0, 1, 10, 11):  # a full sheet and the last (partial) one, fronts and backs
        image = np.asarray(document[index].render(scale=scale).to_pil().convert("L"))
        height_pt = float(reader.pages[index].mediabox.height)
        trims = card_trims(reader, index)
        covered = np.zeros(image.shape, dtype=bool)
        for x0, y0, x1, y1 in trims:
            # PDF y up -> image rows down; look inside the trim, away from the cut lines
            r0, r1 = int((height_pt - y1) * scale) + 2, int((height_pt - y0) * scale) - 2
            c0, c1 = int(x0 * scale) + 2, int(x1 * scale) - 2
            region = image[r0:r1, c0:c1]
            assert (region < 240).mean() > 0.3, f"page {index + 1}: a card is blank"
            assert region.std() > 10, f"page {index + 1}: a card is one flat colour"
            pad = int(BLEED * MM * scale) + 4  # the trim margin above plus the bleed
            covered[r0 - pad:r1 + pad, c0 - pad:c1 + pad] = True
        # away from the cards and their bleed there is only paper, crop marks and the footer
        assert (image[~covered] > 240).mean() > 0.9
    document.close()


def test_svg_pages_are_well_formed_with_the_card_texts(a4: Path) -> None:
    svgs = sorted((a4 / "svg").glob("towerbrix-green-cards-p*.svg"))
    assert len(svgs) == 12
    root = ET.parse(svgs[0]).getroot()
    assert root.get("width") == "210mm" and root.get("height") == "297mm"
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "G01" in words and "red" in words


def test_card_text_with_markup_characters_renders_as_text() -> None:
    deck = shipped_deck("green")
    towers = checked_examples(deck)
    card = Card("G01", 2, NASTY, parse("every blue brick touches some red brick",
                                       deck.bricks.color_names), "")
    odd = replace(deck, cards=(card,))
    spec = CardSpec(POKER[0], POKER[1], BLEED)
    (face,) = condition_faces(odd, towers, default_print_content(), environment(), spec)
    root = ET.fromstring(scene_to_svg(face).encode("utf-8"))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert NASTY in texts  # one line, verbatim: escaped in the file, text when read
    pdf = PdfReader(io.BytesIO(scenes_to_pdf_bytes([face])))
    assert NASTY in pdf.pages[0].extract_text()


def test_png_and_tabletop_simulator_sheets() -> None:
    job = PrintJob(("green",), png=True, tts=True)
    files = build_outputs(job)
    fronts = sorted(k for k in files if k.startswith("png/green/G"))
    assert len(fronts) == 50
    for name in (fronts[0], "png/green/back-2.png", "png/green/back-3.png"):
        image = Image.open(io.BytesIO(files[name]))
        assert image.size == (825, 1125)
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)  # stored per metre
    meta = json.loads(files["tts/green.json"])
    assert meta["columns"] <= 10 and meta["rows"] <= 7 and meta["cards"] == 50
    faces = Image.open(io.BytesIO(files["tts/green-faces.png"])).convert("RGB")
    backs = Image.open(io.BytesIO(files["tts/green-backs.png"])).convert("RGB")
    assert faces.size == backs.size
    assert max(faces.size) < 4096
    cw, ch = meta["cell_px"]
    assert faces.size == (cw * meta["columns"], ch * meta["rows"])
    assert ch / cw == pytest.approx(POKER[1] / POKER[0], abs=0.01)
    pixels = np.asarray(faces)

    def cell(k: int) -> np.ndarray:
        row, col = divmod(k, meta["columns"])
        return pixels[row * ch:(row + 1) * ch, col * cw:(col + 1) * cw]

    last = meta["columns"] * meta["rows"] - 1
    assert (cell(0) < 240).any() and (cell(49) < 240).any()  # cards
    assert (cell(50) >= 250).all()  # unused slot: white
    assert (cell(last) < 240).mean() > 0.5  # the hidden card (a deck-coloured back)
    assert np.array_equal(cell(last), np.asarray(backs)[-ch:, -cw:])


def test_same_inputs_give_the_same_bytes() -> None:
    job = PrintJob(("pink",), paper="letter")
    first, second = build_outputs(job), build_outputs(job)
    assert first.keys() == second.keys()
    assert all(first[k] == second[k] for k in first)


def test_bad_options_are_one_line_exit_2_and_write_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for args, words in [
        (("--paper", "a5"), "--paper"),
        (("--duplex", "sideways"), "--duplex"),
        (("--card", "5x5"), "--card"),
        (("--deck", "orange"), "--deck"),
    ]:
        result = run("--out", str(out), *args)
        assert result.exit_code == 2, result.output
        assert words in result.output and result.output.strip().count("\n") == 0
    assert not out.exists() or not any(out.iterdir())


def test_broken_user_template_names_file_and_line_and_writes_nothing(tmp_path: Path) -> None:
    mine = tmp_path / "templates" / "brix"
    mine.mkdir(parents=True)
    (mine / "condition-back.yaml.j2").write_text(
        "elements:\n  - rect: {x: 0, y: 0, w: 10, h: 10, fill: {{ deck.colour }}}\n")
    out = tmp_path / "out"
    result = run("--out", str(out), "--deck", "green", "--templates", str(mine.parent))
    assert result.exit_code == 2
    line = result.output.strip().splitlines()[-1]
    assert "condition-back.yaml.j2:2" in line and "colour" in line
    assert not out.exists() or not any(out.iterdir())


def test_user_template_restyles_without_code_and_text_never_clips(tmp_path: Path) -> None:
    mine = tmp_path / "templates" / "brix"
    mine.mkdir(parents=True)
    # A face whose text box is far too small: refused with the template and card named.
    (mine / "condition-face.yaml.j2").write_text(
        "elements:\n"
        "  - text: {x: 5, y: 5, w: 10, h: 3, text: {{ card.text | q }}, size: 4, min_size: 3}\n")
    result = run("--out", str(tmp_path / "out"), "--deck", "green",
                 "--templates", str(mine.parent))
    assert result.exit_code == 2
    assert "condition-face.yaml.j2" in result.output and "card G01" in result.output
    assert "does not fit" in result.output
    # A face in another colour scheme: printed, and the new colour is in the SVG.
    (mine / "condition-face.yaml.j2").write_text(
        "elements:\n"
        "  - rect: {x: 0, y: 0, w: {{ size.w }}, h: {{ size.h }}, fill: \"#123456\"}\n"
        "  - text: {x: 5, y: 5, w: {{ size.w - 10 }}, h: 30, text: {{ card.text | q }}}\n")
    out = tmp_path / "ok"
    result = run("--out", str(out), "--deck", "green", "--templates", str(mine.parent))
    assert result.exit_code == 0, result.output
    assert 'fill="#123456"' in (out / "svg" / "towerbrix-green-cards-p01.svg").read_text()
