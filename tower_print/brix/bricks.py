"""The brick set and its orientations, read from content/brix/bricks.yaml."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations
from pathlib import Path

from tower_print.content import content_root, load_yaml


@dataclass(frozen=True)
class Brick:
    """One physical brick: `name` is unique (e.g. red-2), `color` is what conditions speak of."""

    index: int
    name: str
    color: str


@dataclass(frozen=True)
class BrickSet:
    unit_mm: float
    length: int
    width: int
    thickness: int
    stability_margin: float
    colors: dict[str, str]
    bricks: tuple[Brick, ...]

    @property
    def color_names(self) -> tuple[str, ...]:
        return tuple(self.colors)

    def extents(self) -> tuple[tuple[int, int, int], ...]:
        """Distinct axis-aligned (dx, dy, dz) a brick can take; the long side on z is upright."""
        sizes = (self.length, self.width, self.thickness)
        return tuple(sorted(set(permutations(sizes)), key=lambda e: (e[2], e[0], e[1])))

    def is_vertical(self, extent: tuple[int, int, int]) -> bool:
        """Upright: the long side points up (and is strictly longest)."""
        return extent[2] == self.length and self.length > max(self.width, self.thickness)

    def by_color(self, color: str) -> tuple[Brick, ...]:
        return tuple(b for b in self.bricks if b.color == color)

    def subset(self, colors: tuple[str, ...]) -> BrickSet:
        """The same bricks restricted to some colours (the green deck leaves out gray)."""
        kept = [b for b in self.bricks if b.color in colors]
        renumbered = tuple(Brick(i, b.name, b.color) for i, b in enumerate(kept))
        return BrickSet(
            self.unit_mm, self.length, self.width, self.thickness, self.stability_margin,
            {c: v for c, v in self.colors.items() if c in colors}, renumbered,
        )


def load_bricks(path: Path | None = None) -> BrickSet:
    path = path or content_root() / "brix" / "bricks.yaml"
    root = load_yaml(path)
    root.only_keys("unit_mm", "brick", "stability_margin", "colors", "bricks")
    size = root["brick"]
    size.only_keys("length", "width", "thickness")
    length, width, thickness = (size[k].int(1, 100) for k in ("length", "width", "thickness"))
    if length < width or width < thickness:
        raise size.error("expected length >= width >= thickness")
    colors = {key: node.str() for key, node in root["colors"].as_mapping().items()}
    bricks: list[Brick] = []
    for entry in root["bricks"].items():
        entry.only_keys("color", "count")
        color = entry["color"].choice(tuple(colors))
        for k in range(entry["count"].int(1, 9)):
            bricks.append(Brick(len(bricks), f"{color}-{k + 1}", color))
    if len(bricks) > 12:
        raise root["bricks"].error("at most 12 bricks are supported")
    return BrickSet(
        unit_mm=root["unit_mm"].number(0.1, 1000),
        length=length, width=width, thickness=thickness,
        stability_margin=root["stability_margin"].number(0.0, 0.49),
        colors=colors, bricks=tuple(bricks),
    )


@cache
def default_bricks() -> BrickSet:
    return load_bricks()
