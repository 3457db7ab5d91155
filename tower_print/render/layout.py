"""Layouts users restyle without code: Jinja2 templates that write a small YAML drawing language.

A template in `templates/` is rendered with the data of one component (a card, a sheet, a pad)
and must produce YAML like this (all lengths in mm, colours "#RRGGBB", "#RGB", a CSS name or
"none")::

    elements:
      - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2E8B57", radius: 3}
      - line: {x1: 5, y1: 50, x2: 58.5, y2: 50, stroke: "#999999", stroke_width: 0.2}
      - polygon: {points: [[0, 0], [5, 0], [0, 5]], fill: "#000000"}
      - text: {x: 5, y: 55, w: 53.5, h: 25, text: "Some words", size: 3.8, min_size: 2.4,
               align: center, valign: middle, bold: false, color: "#222222"}
      - slot: {name: sketch, x: 5, y: 12, w: 53.5, h: 40}

`text` wraps inside its box and shrinks (down to `min_size`) when it does not fit; if it still does
not fit, rendering stops with an error naming the template instead of clipping. `slot` places a
drawing the program makes (a tower sketch), scaled to fit its box. Put values that come from data
through the `q` filter (`{{ card.text | q }}`), which quotes them for YAML, so a card text
containing a colon or quotes cannot break the layout.

Templates are looked up first in a user folder (`--templates DIR`) and then in the shipped
`templates/`, so copying one file into your folder and editing it is enough to restyle it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any

import jinja2

from tower_print.content import ContentError, Node, UserError, load_yaml_text, templates_root
from tower_print.render.pdf import check_color
from tower_print.render.scene import NONE, Group, Item, Line, Polygon, Rect, Scene, group_in_box
from tower_print.render.text import Box, TextDoesNotFit, fit_text

KINDS = ("rect", "line", "polygon", "text", "slot")


def _quote(value: Any) -> str:
    """A YAML scalar for any value: JSON's double-quoted strings are valid YAML."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(str(value), ensure_ascii=False)


def _mix(color: str, toward: int, share: float) -> str:
    text = str(color).strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    try:
        rgb = [int(text[k:k + 2], 16) for k in (0, 2, 4)] if len(text) == 6 else None
    except ValueError:
        rgb = None
    if rgb is None:
        raise ValueError(f"tint/shade need a #RRGGBB colour, got {color!r}")
    return "#" + "".join(f"{round(c + (toward - c) * float(share)):02X}" for c in rgb)


def tint(color: str, share: float) -> str:
    """`color` moved `share` (0..1) of the way to white."""
    return _mix(color, 255, share)


def shade(color: str, share: float) -> str:
    """`color` moved `share` (0..1) of the way to black."""
    return _mix(color, 0, share)


@cache
def environment(user_dir: Path | None = None) -> jinja2.Environment:
    """Templates from `user_dir` first, then the shipped ones; unknown variables are errors."""
    folders = [str(templates_root())]
    if user_dir is not None:
        if not user_dir.is_dir():
            raise UserError(f"--templates: folder {user_dir} does not exist")
        folders.insert(0, str(user_dir))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["q"] = _quote
    env.filters["tint"] = tint
    env.filters["shade"] = shade
    if user_dir is not None:  # a typo in the user's templates stops the command before any work
        for path in sorted(user_dir.rglob("*.j2")):
            _template(env, path.relative_to(user_dir).as_posix())
    return env


def _template_line(tb: TracebackType | None, filename: str | None) -> int | None:
    """The template line a rendering error happened on (Jinja keeps it in the traceback)."""
    line = None
    while tb is not None:
        if filename is not None and tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _template(env: jinja2.Environment, name: str) -> jinja2.Template:
    """The compiled template; a missing one or a syntax error is a one-line UserError."""
    try:
        return env.get_template(name)
    except jinja2.TemplateNotFound:
        folders = ", ".join(getattr(env.loader, "searchpath", []))
        raise UserError(f"template {name} not found in {folders}") from None
    except jinja2.TemplateSyntaxError as error:
        where = f"{error.filename or name}:{error.lineno}"
        raise UserError(f"{where}: template syntax: {error.message}") from None


def render_text(env: jinja2.Environment, name: str, context: Mapping[str, Any]) -> tuple[str, str]:
    """(rendered text, the template's file name); template errors become one-line UserErrors."""
    template = _template(env, name)
    filename = template.filename or name
    try:
        return template.render(**context), filename
    except Exception as error:  # anything a template expression can raise
        line = _template_line(error.__traceback__, template.filename)
        where = f"{filename}:{line}" if line is not None else filename
        message = error.message if isinstance(error, jinja2.TemplateError) else str(error)
        raise UserError(f"{where}: {message or type(error).__name__}") from None


@dataclass(frozen=True)
class Layout:
    """A rendered template: its drawing and the whole YAML tree (for extra keys callers read)."""

    items: tuple[Item, ...]
    root: Node


def render_layout(
    env: jinja2.Environment, name: str, context: Mapping[str, Any],
    slots: Mapping[str, Scene] | None = None, what: str = "", extra_keys: tuple[str, ...] = (),
) -> Layout:
    """Render template `name` with `context` and turn its YAML into scene items.

    `what` names the component in errors ("card G01"); `slots` are drawings the template may
    place by name; `extra_keys` are further top-level keys the caller reads itself."""
    text, filename = render_text(env, name, context)
    source = f"{filename} (as rendered for {what})" if what else filename
    root = load_yaml_text(text, source, fast=True)
    root.only_keys("elements", *extra_keys)
    items: list[Item] = []
    elements = root.get("elements")
    for node in elements.items() if elements is not None else ():
        items.extend(_element(node, slots or {}, what))
    return Layout(tuple(items), root)


@dataclass(frozen=True)
class CardSpec:
    """A card's trim size, the bleed drawn around it and the safe zone inside it (mm)."""

    w: float
    h: float
    bleed: float
    safe: float = 3.0

    def context(self) -> dict[str, float]:
        return {"w": self.w, "h": self.h, "bleed": self.bleed, "safe": self.safe}


def card_scene(
    env: jinja2.Environment, name: str, context: Mapping[str, Any], spec: CardSpec,
    slots: Mapping[str, Scene] | None = None, what: str = "",
) -> Scene:
    """A card drawn from a template: a scene of trim + bleed, the trim at (bleed, bleed).

    The template draws in trim coordinates and gets the card geometry as `size`."""
    layout = render_layout(env, name, {**context, "size": spec.context()}, slots, what)
    b = spec.bleed
    return Scene(round(spec.w + 2 * b, 4), round(spec.h + 2 * b, 4),
                 (Group(layout.items, b, b),))


# --- the drawing language ---------------------------------------------------------------------


def _num(node: Node | None, default: float | None = None) -> float:
    if node is None:
        if default is None:
            raise AssertionError("a required field was not checked")
        return default
    return node.number()


def _field(node: Node, key: str, default: float | None = None) -> float:
    child = node.get(key)
    if child is None and default is None:
        raise node.error(f"missing field '{key}'")
    return _num(child, default)


def _color(node: Node, key: str, default: str) -> str:
    child = node.get(key)
    if child is None:
        return default
    value = child.str()
    try:
        check_color(value)
    except ValueError:
        raise child.error(
            f"not a colour: {value!r} (use #RRGGBB, #RGB, a CSS name or none)"
        ) from None
    return value


def _bool(node: Node, key: str, default: bool) -> bool:
    child = node.get(key)
    if child is None:
        return default
    if not isinstance(child.value, bool):
        raise child.error("expected true or false")
    return child.value


def _dash(node: Node) -> tuple[float, ...]:
    child = node.get("dash")
    if child is None:
        return ()
    return tuple(part.number(0.0) for part in child.items())


def _stroke(node: Node) -> tuple[str, float]:
    stroke = _color(node, "stroke", NONE)
    width = _field(node, "stroke_width", 0.25 if stroke != NONE else 0.0)
    return stroke, width


def _element(node: Node, slots: Mapping[str, Scene], what: str) -> list[Item]:
    mapping = node.as_mapping()
    if len(mapping) != 1 or next(iter(mapping)) not in KINDS:
        raise node.error(f"each element is one of: {', '.join(KINDS)}")
    kind, spec = next(iter(mapping.items()))
    if kind == "rect":
        spec.only_keys("x", "y", "w", "h", "fill", "stroke", "stroke_width", "radius", "dash")
        stroke, width = _stroke(spec)
        return [Rect(
            _field(spec, "x"), _field(spec, "y"), _field(spec, "w"), _field(spec, "h"),
            _color(spec, "fill", NONE), stroke, width, _field(spec, "radius", 0.0), _dash(spec),
        )]
    if kind == "line":
        spec.only_keys("x1", "y1", "x2", "y2", "stroke", "stroke_width", "dash")
        return [Line(
            _field(spec, "x1"), _field(spec, "y1"), _field(spec, "x2"), _field(spec, "y2"),
            _color(spec, "stroke", "#000000"), _field(spec, "stroke_width", 0.25), _dash(spec),
        )]
    if kind == "polygon":
        spec.only_keys("points", "fill", "stroke", "stroke_width")
        points = []
        for point in spec["points"].items():
            pair = [p.number() for p in point.items()]
            if len(pair) != 2:
                raise point.error("a point is [x, y]")
            points.append((pair[0], pair[1]))
        stroke, width = _stroke(spec)
        return [Polygon(tuple(points), _color(spec, "fill", NONE), stroke, width)]
    if kind == "slot":
        spec.only_keys("name", "x", "y", "w", "h")
        name = spec["name"].str()
        if name not in slots:
            known = ", ".join(sorted(slots)) or "none here"
            raise spec["name"].error(f"unknown slot '{name}' (available: {known})")
        return [group_in_box(
            slots[name], _field(spec, "x"), _field(spec, "y"), _field(spec, "w"), _field(spec, "h"),
        )]
    spec.only_keys("x", "y", "w", "h", "text", "size", "min_size", "bold", "align", "valign",
                   "color", "line_height", "max_lines")
    text_node = spec["text"]
    if isinstance(text_node.value, (dict, list)) or text_node.value is None:
        raise text_node.error("expected a text")
    size = _field(spec, "size", 3.5)
    if size <= 0:
        raise spec["size"].error("a font size must be positive")
    box = Box(_field(spec, "x"), _field(spec, "y"), _field(spec, "w"), _field(spec, "h"))
    max_lines = spec.get("max_lines")
    align = spec["align"].choice(("left", "center", "right")) if spec.get("align") else "left"
    valign = spec["valign"].choice(("top", "middle", "bottom")) if spec.get("valign") else "top"
    try:
        return list(fit_text(
            str(text_node.value), box, size, _field(spec, "min_size", size),
            bold=_bool(spec, "bold", False), align=align, valign=valign,  # type: ignore[arg-type]
            line_height=_field(spec, "line_height", 1.2),
            fill=_color(spec, "color", "#000000"),
            max_lines=max_lines.int(1, 1000) if max_lines is not None else None,
        ))
    except TextDoesNotFit as error:
        message = f"{what}: {error}" if what else str(error)
        raise ContentError(spec.file, spec.line, spec.field, message) from None
