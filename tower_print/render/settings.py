"""Print settings shared by every game, from content/print.yaml (validated on load)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tower_print.content import Node, UserError, content_root, load_yaml


@dataclass(frozen=True)
class PrintSettings:
    papers: dict[str, tuple[float, float]]
    card_sizes: dict[str, tuple[float, float]]
    default_card: str
    bleed: float
    safe: float
    gutter: float
    margin: float
    legend_band: float
    png_dpi: int
    png_bleed: float
    tts_columns: int
    tts_rows: int
    tts_max_px: int

    def paper(self, name: str) -> tuple[float, float]:
        key = name.lower()
        if key not in self.papers:
            raise UserError(f"--paper: unknown paper '{name}' "
                            f"(expected one of: {', '.join(self.papers)})")
        return self.papers[key]

    def card(self, name: str | None) -> tuple[float, float]:
        """A named size, or "WxH" in mm (e.g. 63.5x88.9)."""
        key = (name or self.default_card).lower()
        if key in self.card_sizes:
            return self.card_sizes[key]
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*", key)
        if match:
            w, h = float(match[1]), float(match[2])
            if 20 <= w <= 200 and 20 <= h <= 200:
                return w, h
        raise UserError(f"--card: '{name}' is not a card size (one of: "
                        f"{', '.join(self.card_sizes)}, or WxH in mm between 20 and 200)")


def _pair(node: Node) -> tuple[float, float]:
    values = [v.number(1.0, 2000.0) for v in node.items()]
    if len(values) != 2:
        raise node.error("expected [width, height] in mm")
    return values[0], values[1]


def load_settings(path: Path | None = None) -> PrintSettings:
    path = path or content_root() / "print.yaml"
    root = load_yaml(path)
    root.only_keys("papers", "card_sizes", "default_card", "sheet", "png", "tts")
    papers = {k: _pair(v) for k, v in root["papers"].as_mapping().items()}
    cards = {k: _pair(v) for k, v in root["card_sizes"].as_mapping().items()}
    default = root["default_card"].choice(tuple(cards))
    sheet = root["sheet"]
    sheet.only_keys("bleed", "safe", "gutter", "margin", "legend_band")
    png = root["png"]
    png.only_keys("dpi", "bleed")
    tts = root["tts"]
    tts.only_keys("columns", "rows", "max_px")
    return PrintSettings(
        papers=papers, card_sizes=cards, default_card=default,
        bleed=sheet["bleed"].number(0, 20), safe=sheet["safe"].number(0, 20),
        gutter=sheet["gutter"].number(0, 50), margin=sheet["margin"].number(0, 50),
        legend_band=sheet["legend_band"].number(0, 50),
        png_dpi=png["dpi"].int(36, 1200), png_bleed=png["bleed"].number(0, 20),
        tts_columns=tts["columns"].int(2, 10), tts_rows=tts["rows"].int(2, 7),
        tts_max_px=tts["max_px"].int(256, 8192),
    )


@cache
def default_settings() -> PrintSettings:
    return load_settings()
