"""Template layouts: the YAML drawing language, quoting, and errors that name file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tower_print.content import UserError
from tower_print.render.layout import CardSpec, card_scene, environment, render_layout
from tower_print.render.scene import Group, Line, Polygon, Rect, Scene, Text


def env_with(tmp_path: Path, text: str, name: str = "t.yaml.j2"):  # noqa: ANN201
    folder = tmp_path / "tpl"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text)
    environment.cache_clear()
    return environment(folder)


def test_every_element_kind_becomes_scene_items(tmp_path: Path) -> None:
    env = env_with(tmp_path, """elements:
  - rect: {x: 1, y: 2, w: 3, h: 4, fill: "#ABC", radius: 1, stroke: red, dash: [1, 2]}
  - line: {x1: 0, y1: 0, x2: 5, y2: 5}
  - polygon: {points: [[0, 0], [1, 0], [0, 1]], fill: "#000000"}
  - text: {x: 0, y: 0, w: 50, h: 10, text: {{ words | q }}, size: 3, align: right}
  - slot: {name: pic, x: 0, y: 20, w: 10, h: 10}
""")
    pic = Scene(20, 10, (Rect(0, 0, 20, 10, "#FF0000"),))
    layout = render_layout(env, "t.yaml.j2", {"words": 'x: "y" & <z>'}, {"pic": pic})
    kinds = [type(i) for i in layout.items]
    assert kinds == [Rect, Line, Polygon, Text, Group]
    rect, _, _, text, group = layout.items
    assert isinstance(rect, Rect) and rect.dash == (1, 2) and rect.stroke_width == 0.25
    assert isinstance(text, Text) and text.text == 'x: "y" & <z>' and text.anchor == "end"
    assert isinstance(group, Group) and group.scale == 0.5  # 20 mm wide picture in a 10 mm box


@pytest.mark.parametrize(("element", "words"), [
    ('- rect: {x: 0, y: 0, w: 1, h: 1, fill: "#12345"}', "not a colour"),
    ("- circle: {x: 0}", "each element is one of"),
    ("- slot: {name: nowhere, x: 0, y: 0, w: 1, h: 1}", "unknown slot 'nowhere'"),
    ("- line: {x1: 0, y1: 0, x2: 1}", "missing field 'y2'"),
    ("- text: {x: 0, y: 0, w: 5, h: 2, text: much too long for this box, size: 3}",
     "does not fit"),
])
def test_mistakes_name_template_line_and_field(tmp_path: Path, element: str, words: str) -> None:
    env = env_with(tmp_path, "elements:\n  # a comment\n  " + element + "\n")
    with pytest.raises(UserError) as error:
        render_layout(env, "t.yaml.j2", {}, what="card X1")
    message = str(error.value)
    assert words in message and "t.yaml.j2" in message and ":3:" in message
    assert "\n" not in message


def test_template_errors_name_the_template_line(tmp_path: Path) -> None:
    env = env_with(tmp_path, "elements:\n\n  - text: {{ card.missing }}\n")
    with pytest.raises(UserError, match=r"t\.yaml\.j2:3: .*missing"):
        render_layout(env, "t.yaml.j2", {"card": {}})
    with pytest.raises(UserError, match="not found"):
        render_layout(env, "nope.yaml.j2", {})
    # A syntax error in the user's folder stops the environment itself, before any drawing.
    with pytest.raises(UserError, match=r"t\.yaml\.j2:2: template syntax"):
        env_with(tmp_path, "elements:\n{% for %}\n")


def test_user_folder_overrides_and_falls_back_to_shipped(tmp_path: Path) -> None:
    env = env_with(tmp_path, "elements: []\n", "sheet-footer.yaml.j2")
    mine = render_layout(env, "sheet-footer.yaml.j2", {})
    assert mine.items == ()
    shipped = render_layout(env, "sheet-marks.yaml.j2", {}, extra_keys=("marks", "guides"))
    assert shipped.root["marks"]["length"].number() > 0


def test_card_scene_is_trim_plus_bleed_with_the_trim_at_the_bleed(tmp_path: Path) -> None:
    env = env_with(tmp_path, "elements:\n  - rect: {x: {{ -size.bleed }}, y: 0, w: {{ size.w }},"
                             " h: {{ size.h }}, fill: red}\n")
    scene = card_scene(env, "t.yaml.j2", {}, CardSpec(63.5, 88.9, 3.0))
    assert (scene.width, scene.height) == (69.5, 94.9)
    (group,) = scene.items
    assert isinstance(group, Group) and (group.dx, group.dy) == (3.0, 3.0)
    environment.cache_clear()
