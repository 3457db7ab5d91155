"""Imposition: grids on A4 and Letter, mirrored backs, clips, crop marks outside the cards."""

from __future__ import annotations

import pytest

from tower_print.render.impose import (
    SEAM,
    SheetSpec,
    SheetStyle,
    choose_grid,
    impose,
)
from tower_print.render.scene import Group, Line, Rect, Scene

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
POKER = (63.5, 88.9)
BLEED = 3.0


def card(color: str) -> Scene:
    w, h = POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED
    return Scene(w, h, (Rect(0, 0, w, h, color),))


def spec(paper: tuple[float, float] = A4, **kw: object) -> SheetSpec:
    return SheetSpec(paper[0], paper[1], POKER[0], POKER[1], BLEED, **kw)  # type: ignore[arg-type]


def test_a4_holds_nine_poker_cards_portrait_letter_eight_landscape() -> None:
    a4 = choose_grid(spec(A4))
    assert (a4.cols, a4.rows, a4.landscape) == (3, 3, False)
    letter = choose_grid(spec(LETTER))
    assert (letter.cols, letter.rows, letter.landscape) == (4, 2, True)
    # with a gutter of two bleeds every card keeps its own bleed, and fewer fit
    separate = choose_grid(spec(A4, gutter=2 * BLEED))
    assert separate.per_page < a4.per_page


@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("gutter", [0.0, 6.0])
def test_cards_and_bleed_stay_inside_the_margin(paper: tuple[float, float], gutter: float) -> None:
    s = spec(paper, gutter=gutter)
    sheets = impose([card("#FF0000")] * 20, [card("#0000FF")] * 20, s)
    for sheet in sheets:
        for x, y, w, h in sheet.boxes:
            assert x - BLEED >= s.margin - 1e-6 and y - BLEED >= s.margin - 1e-6
            assert x + w + BLEED <= sheet.scene.width - s.margin + 1e-6
            assert y + h + BLEED <= sheet.scene.height - s.margin - s.legend_band + 1e-6


def mirrored(box: tuple[float, float, float, float], page: Scene, axis: str):  # noqa: ANN201
    x, y, w, h = box
    if axis == "x":
        return pytest.approx((page.width - x - w, y, w, h), abs=1e-6)
    return pytest.approx((x, page.height - y - h, w, h), abs=1e-6)


@pytest.mark.parametrize(("paper", "duplex", "axis"), [
    (A4, "long", "x"),      # portrait, turned over the long (vertical) edge
    (A4, "short", "y"),     # portrait, turned over the short edge
    (LETTER, "long", "y"),  # landscape: the long edge is horizontal
    (LETTER, "short", "x"),
])
def test_backs_sit_behind_their_fronts(paper: tuple[float, float], duplex: str, axis: str) -> None:
    n = 11  # a full sheet and a partial one
    sheets = impose([card("#FF0000")] * n, [card("#0000FF")] * n, spec(paper, duplex=duplex))
    assert [s.side for s in sheets] == ["fronts", "backs"] * (len(sheets) // 2)
    for front, back in zip(sheets[::2], sheets[1::2], strict=True):
        assert len(front.boxes) == len(back.boxes)
        for f, b in zip(front.boxes, back.boxes, strict=True):
            assert b == mirrored(f, front.scene, axis)
        # the back pages draw their cards where the boxes say
        groups = [i for i in back.scene.items if isinstance(i, Group)]
        assert [(g.dx + BLEED, g.dy + BLEED) for g in groups] == [
            pytest.approx(bx[:2]) for bx in back.boxes]


def test_duplex_none_keeps_backs_in_place() -> None:
    sheets = impose([card("#FF0000")] * 3, [card("#0000FF")] * 3, spec(duplex="none"))
    assert sheets[0].boxes == sheets[1].boxes


def test_neighbours_share_cut_lines_and_outer_edges_keep_the_bleed() -> None:
    sheets = impose([card("#FF0000")] * 9, None, spec())
    (sheet,) = sheets
    groups = [i for i in sheet.scene.items if isinstance(i, Group)]
    # the middle card has neighbours on all four sides: clipped to its trim (plus a hairline
    # past each shared cut line, so no paper shows through between two cards)
    assert groups[4].clip == pytest.approx(
        (BLEED - SEAM, BLEED - SEAM, POKER[0] + 2 * SEAM, POKER[1] + 2 * SEAM))
    # the top left card keeps its bleed on the top and left only
    assert groups[0].clip == pytest.approx(
        (0, 0, POKER[0] + BLEED + SEAM, POKER[1] + BLEED + SEAM))
    # clipped cards paint at most that hairline over each other
    painted = [(g.dx + g.clip[0], g.dy + g.clip[1], g.clip[2], g.clip[3])
               for g in groups if g.clip is not None]
    for i, a in enumerate(painted):
        for b in painted[i + 1:]:
            overlap_w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
            overlap_h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
            assert overlap_w <= 2 * SEAM + 1e-6 or overlap_h <= 2 * SEAM + 1e-6


@pytest.mark.parametrize("count", [9, 4, 1])
def test_crop_marks_line_up_with_trims_and_stay_outside_every_bleed(count: int) -> None:
    s = spec()
    (sheet,) = impose([card("#FF0000")] * count, None, s)
    marks = [i for i in sheet.scene.items if isinstance(i, Line)]
    xs = {round(v, 3) for b in sheet.boxes for v in (b[0], b[0] + b[2])}
    ys = {round(v, 3) for b in sheet.boxes for v in (b[1], b[1] + b[3])}
    assert {round(m.x1, 3) for m in marks if m.x1 == m.x2} == xs
    assert {round(m.y1, 3) for m in marks if m.y1 == m.y2} == ys
    for m in marks:
        for x, y, w, h in sheet.boxes:
            inside_x = x - BLEED < max(m.x1, m.x2) and min(m.x1, m.x2) < x + w + BLEED
            inside_y = y - BLEED < max(m.y1, m.y2) and min(m.y1, m.y2) < y + h + BLEED
            assert not (inside_x and inside_y), f"mark {m} runs into a card's bleed"


@pytest.mark.parametrize(("paper", "duplex"), [(A4, "long"), (A4, "short"), (LETTER, "long")])
def test_crop_marks_stay_out_of_the_footer_band(paper: tuple[float, float], duplex: str) -> None:
    s = spec(paper, duplex=duplex)
    for sheet in impose([card("#FF0000")] * 9, [card("#0000FF")] * 9, s):
        band_top = sheet.scene.height - s.margin - s.legend_band
        marks = [i for i in sheet.scene.items if isinstance(i, Line)]
        assert marks and all(max(m.y1, m.y2) <= band_top + 1e-6 for m in marks)


def test_cut_guides_are_rounded_rects_on_the_trim() -> None:
    style = SheetStyle(guide_radius=3.5)
    (sheet,) = impose([card("#FF0000")] * 2, None, spec(cut_guides=True), style)
    guides = [i for i in sheet.scene.items if isinstance(i, Rect)]
    assert [(g.x, g.y, g.w, g.h) for g in guides] == list(sheet.boxes)
    assert all(g.radius == 3.5 and g.fill == "none" and g.dash for g in guides)


def test_wrong_card_size_and_impossible_papers_are_refused() -> None:
    with pytest.raises(ValueError, match="card scene"):
        impose([Scene(10, 10, ())], None, spec())
    with pytest.raises(ValueError, match="does not fit"):
        choose_grid(SheetSpec(100, 100, 120, 170))
