"""The scene model's two backends (SVG, PDF) and the isometric tower sketch."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.sketch import draw_order, face_colors, tower_scene
from tower_print.render.pdf import scene_to_pdf, scene_to_pdf_bytes
from tower_print.render.scene import Line, Polygon, Scene, Text
from tower_print.render.svg import scene_to_svg, write_svg

SVG = "{http://www.w3.org/2000/svg}"
NASTY = "a < b & \"c\" 'd' >"
COLORS = {"yellow": "#F2C230", "blue": "#2F6DB5", "red": "#D63B32"}


def sample_scene() -> Scene:
    return Scene(
        60.0,
        40.0,
        (
            Polygon(((1, 1), (20, 1), (20, 15)), "#D63B32", "#222222", 0.3),
            Line(0, 39, 60, 39, "#000000", 0.2),
            Text(30, 20, NASTY, 4.0, "middle", "#123456"),
        ),
    )


def polygon_fills(svg: str) -> list[str]:
    root = ET.fromstring(svg.encode("utf-8"))
    return [p.get("fill") for p in root.iter(f"{SVG}polygon")]


def test_svg_is_well_formed_and_sized_in_mm() -> None:
    root = ET.fromstring(scene_to_svg(sample_scene()).encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == "60mm" and root.get("height") == "40mm"
    assert root.get("viewBox") == "0 0 60 40"
    (polygon,) = root.iter(f"{SVG}polygon")
    assert polygon.get("points") == "1,1 20,1 20,15"
    assert polygon.get("stroke") == "#222222" and polygon.get("stroke-width") == "0.3"
    (line,) = root.iter(f"{SVG}line")
    assert [line.get(k) for k in ("x1", "y1", "x2", "y2")] == ["0", "39", "60", "39"]


def test_svg_text_is_escaped_and_comes_back_verbatim() -> None:
    root = ET.fromstring(scene_to_svg(sample_scene()).encode("utf-8"))
    texts = list(root.iter(f"{SVG}text"))
    assert len(texts) == 1
    assert texts[0].text == NASTY
    assert texts[0].get("text-anchor") == "middle"


def test_svg_is_deterministic() -> None:
    assert scene_to_svg(sample_scene()) == scene_to_svg(sample_scene())


def test_write_svg_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = write_svg(sample_scene(), tmp_path / "out.svg")
    assert [p.name for p in tmp_path.iterdir()] == ["out.svg"]
    ET.parse(target)


def test_failed_write_leaves_no_file(tmp_path: Path) -> None:
    bad = Scene(10, 10, (Polygon(((0, 0), (1, 1), (0, 1)), "not-a-colour"),))
    with pytest.raises(ValueError):
        scene_to_pdf(bad, tmp_path / "bad.pdf")
    assert list(tmp_path.iterdir()) == []


def test_pdf_is_a_pdf_and_byte_identical(tmp_path: Path) -> None:
    first = scene_to_pdf(sample_scene(), tmp_path / "a.pdf").read_bytes()
    second = scene_to_pdf(sample_scene(), tmp_path / "b.pdf").read_bytes()
    assert first.startswith(b"%PDF")
    assert first.rstrip().endswith(b"%%EOF")
    assert first == second
    assert [p.name for p in sorted(tmp_path.iterdir())] == ["a.pdf", "b.pdf"]


def test_pdf_page_has_scene_size() -> None:
    data = scene_to_pdf_bytes(sample_scene())
    # 60 x 40 mm in points: 170.0787 x 113.3858
    assert b"/MediaBox [ 0 0 170.0787 113.3858 ]" in data


def test_pdf_reads_short_hex_colours_like_svg() -> None:
    long = Scene(10, 10, (Polygon(((0, 0), (5, 0), (5, 5)), "#AABBCC"),))
    short = Scene(10, 10, (Polygon(((0, 0), (5, 0), (5, 5)), "#ABC"),))
    assert scene_to_pdf_bytes(long) == scene_to_pdf_bytes(short)


# --- the tower sketch ------------------------------------------------------------------------


def brick(name: str, color: str, x: int, y: int, z: int, ext: tuple[int, int, int]) -> PlacedBrick:
    return PlacedBrick(name, color, x, y, z, *ext)


UP, ALONG_X, ALONG_Y = (2, 2, 4), (4, 2, 2), (2, 4, 2)


def three_bricks() -> tuple[PlacedBrick, ...]:
    return (
        brick("y", "yellow", 0, 0, 0, UP),
        brick("b", "blue", 4, 0, 0, UP),
        brick("r", "red", 1, 0, 4, ALONG_X),
    )


def test_three_bricks_give_nine_faces() -> None:
    scene = tower_scene(three_bricks(), COLORS, 12.5, ground=False)
    assert len(scene.items) == 9
    assert all(isinstance(item, Polygon) for item in scene.items)
    with_ground = tower_scene(three_bricks(), COLORS, 12.5)
    faces = [i for i in with_ground.items if isinstance(i, Polygon) and i.stroke != "none"]
    assert len(faces) == 9
    assert len(with_ground.items) > 9
    # the ground goes under the bricks: drawn first
    assert with_ground.items[-9:] == tuple(faces)


def test_faces_are_shaded_from_the_brick_colour() -> None:
    top, left, right = face_colors("#808080")
    assert len({top, left, right, "#808080"}) == 4
    assert int(top[1:3], 16) > 0x80 > int(left[1:3], 16) > int(right[1:3], 16)
    fills = polygon_fills(scene_to_svg(tower_scene(three_bricks(), COLORS, 12.5, ground=False)))
    for name in ("yellow", "blue", "red"):
        assert set(face_colors(COLORS[name])) <= set(fills)


def test_missing_colour_is_grey() -> None:
    scene = tower_scene((brick("x", "green", 0, 0, 0, UP),), COLORS, 12.5, ground=False)
    fills = {item.fill for item in scene.items if isinstance(item, Polygon)}
    top, left, right = (c[1:] for c in fills)
    assert all(c[0:2] == c[2:4] == c[4:6] for c in (top, left, right))


def test_brick_in_front_is_drawn_after_the_one_behind() -> None:
    # Blue lies in front of the upright yellow (larger y, the eye's side) and hides part of it;
    # sorting on the sum of either corner would draw blue first.
    behind = brick("a", "yellow", 3, 0, 0, UP)
    front = brick("b", "blue", 0, 2, 0, ALONG_X)
    assert (front.x + front.y + front.z) < (behind.x + behind.y + behind.z)
    assert sum(front.span(k)[1] for k in range(3)) < sum(behind.span(k)[1] for k in range(3))
    for bricks in ((behind, front), (front, behind)):
        fills = polygon_fills(scene_to_svg(tower_scene(bricks, COLORS, 12.5)))
        yellow = [i for i, f in enumerate(fills) if f in face_colors(COLORS["yellow"])]
        blue = [i for i, f in enumerate(fills) if f in face_colors(COLORS["blue"])]
        assert len(yellow) == len(blue) == 3
        assert max(yellow) < min(blue)


def test_svg_polygons_match_the_scene() -> None:
    scene = tower_scene(three_bricks(), COLORS, 12.5, width_mm=60)
    root = ET.fromstring(scene_to_svg(scene).encode("utf-8"))
    drawn = [
        [float(v) for pair in p.get("points").split() for v in pair.split(",")]
        for p in root.iter(f"{SVG}polygon")
    ]
    expected = [
        [v for point in item.points for v in point]
        for item in scene.items
        if isinstance(item, Polygon)
    ]
    assert len(drawn) == len(expected)
    for got, want in zip(drawn, expected, strict=True):
        assert got == pytest.approx(want, abs=1e-3)


def test_draw_order_puts_supports_first_and_ignores_input_order() -> None:
    bricks = three_bricks()
    order = draw_order(bricks)
    assert order[-1].name == "r"
    assert draw_order(tuple(reversed(bricks))) == order


def test_width_and_margin() -> None:
    scene = tower_scene(three_bricks(), COLORS, 12.5, width_mm=50)
    assert scene.width == 50
    xs = [x for item in scene.items if isinstance(item, Polygon) for x, _ in item.points]
    ys = [y for item in scene.items if isinstance(item, Polygon) for _, y in item.points]
    assert min(xs) > 0 and max(xs) < 50
    assert min(ys) > 0 and max(ys) < scene.height
    assert min(xs) == pytest.approx(50 - max(xs))
    natural = tower_scene(three_bricks(), COLORS, 12.5)
    assert natural.height / natural.width == pytest.approx(scene.height / scene.width)


def test_sketch_renders_to_both_backends_deterministically(tmp_path: Path) -> None:
    scene = tower_scene(three_bricks(), COLORS, 12.5, width_mm=60)
    ET.fromstring(scene_to_svg(scene).encode("utf-8"))
    assert scene_to_pdf_bytes(scene) == scene_to_pdf_bytes(scene)
