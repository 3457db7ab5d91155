"""Measured difficulty: how hard a set of condition cards is to build, beyond printed points.

Why this measure: the points on a card's back add up card by card, but cards interact; two easy
cards can together leave only a handful of towers, and a hard-looking pair can agree. What a
table feels is how little room the cards leave: of all the ways to stack the bricks, how many
meet every card. We estimate that share on a reference pool of random standing towers (the
sampler in `sampling`, under the deck's brick rule): `hits` of `samples` towers meet the set,
judged by the plain-Python evaluator. The estimate comes with a Wilson score interval (95 % by
default), which stays honest at 0 hits: then the share is only known to be below `high`.

The pool is drawn once per brick set, rule, size and seed in a run and reused for every set, and
each card's verdict on it is kept as a bit mask, so measuring a set costs one AND per card. The
pool's seed and size and the level bands are content (`content/brix/difficulty.yaml`), not the
caller's seed: a set's difficulty is a property of the set, not of the deal it came from.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tower_print.brix import bricks, evaluate, geometry, language, sampling, statics
from tower_print.brix.bricks import BrickSet
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import Condition, describe
from tower_print.brix.sampling import Tower, sample_towers
from tower_print.brix.stored_towers import lines_of
from tower_print.content import content_root, load_yaml
from tower_print.render.scene import write_atomic

LEVEL_NAMES = ("easy", "medium", "hard")
POOL_FORMAT = 1
_JUDGING_CODE = (bricks, evaluate, geometry, language, sampling, statics)
"""Modules whose source decides which towers are drawn and what they meet: part of the
cache key, so an edit to any of them makes the cached pools stale."""
CACHE_ENV = "TOWER_PRINT_CACHE"


def cache_folder() -> Path | None:
    """Where pools are kept between runs: $TOWER_PRINT_CACHE (empty: no cache), else
    $XDG_CACHE_HOME/tower-print, else ~/.cache/tower-print."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tower-print"


@dataclass(frozen=True)
class Settings:
    """Pool size and seed, interval width and level bands (see content/brix/difficulty.yaml)."""

    samples: int
    seed: int
    z: float
    bands: tuple[tuple[str, float], ...]  # (level, smallest share), highest share first

    def level(self, share: float) -> str:
        for name, low in self.bands:
            if share >= low:
                return name
        return self.bands[-1][0]

    def band(self, level: str) -> tuple[float, float]:
        """[low, high) of estimated shares that read as `level`."""
        upper = 1.0 + 1e-9
        for name, low in self.bands:
            if name == level:
                return low, upper
            upper = low
        raise ValueError(f"unknown measured level {level!r}")


def load_settings(path: Path | None = None) -> Settings:
    path = path or content_root() / "brix" / "difficulty.yaml"
    root = load_yaml(path)
    root.only_keys("samples", "seed", "z", "bands")
    bands: list[tuple[str, float]] = []
    for node in root["bands"].items():
        node.only_keys("level", "min")
        name = node["level"].choice(LEVEL_NAMES)
        low = node["min"].number(0.0, 1.0)
        if bands and low >= bands[-1][1]:
            raise node["min"].error("bands must be listed from the largest share down")
        if any(name == seen for seen, _ in bands):
            raise node["level"].error(f"level '{name}' listed twice")
        bands.append((name, low))
    if not bands or bands[-1][1] != 0.0:
        raise root["bands"].error("the last band must have min: 0 (every share has a level)")
    return Settings(
        samples=root["samples"].int(1, 1_000_000), seed=root["seed"].int(0, 2**63 - 1),
        z=root["z"].number(0.1, 10.0), bands=tuple(bands),
    )


@cache
def default_settings() -> Settings:
    return load_settings()


@dataclass(frozen=True)
class Difficulty:
    """`hits` of `samples` random standing towers meet the set; `share` = hits / samples, with
    the score interval [`low`, `high`]; `level` is the band the estimated share falls in."""

    share: float
    low: float
    high: float
    hits: int
    samples: int
    level: str
    closest: Closest | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "measure": "share of random standing towers meeting every card",
            "share": round(self.share, 6), "low": round(self.low, 6),
            "high": round(self.high, 6), "hits": self.hits, "samples": self.samples,
            "level": self.level,
            "closest": None if self.closest is None else asdict(self.closest),
        }

    def text(self) -> str:
        """One line for people, e.g. 'measured hard: 0.2 % of random towers (95 %: 0.1-0.7 %)'."""
        if self.hits == 0:
            told = f"none of {self.samples} random standing towers, so under {_pct(self.high)}"
        else:
            told = (f"{_pct(self.share)} of {self.samples} random standing towers "
                    f"(95 % interval {_pct(self.low)}-{_pct(self.high)})")
        line = f"measured {self.level}: {told} meet every card"
        return line if self.closest is None else f"{line}; {self.closest.text()}"


@dataclass(frozen=True)
class Closest:
    """When no pool tower meets a set: how near the pool comes. The closest towers miss
    `cards_missed` of the set's `cards`; `towers` of them do. Where the share reads only
    "under 0.4 %" (every hard round), this still tells one set from another: random building
    falls one card short of some sets and four of others."""

    cards_missed: int
    cards: int
    towers: int

    def text(self) -> str:
        come = "1 tower comes" if self.towers == 1 else f"{self.towers} towers come"
        return f"{come} closest, missing {self.cards_missed} of the {self.cards} cards"


def _pct(share: float) -> str:
    value = 100 * share
    return f"{value:.2g} %" if value < 10 else f"{value:.0f} %"


def wilson(hits: int, samples: int, z: float) -> tuple[float, float]:
    """The Wilson score interval for a binomial share: valid at 0 and at `samples` hits, where
    the plain normal interval collapses to a point."""
    if samples <= 0:
        raise ValueError("need at least one sample")
    p = hits / samples
    z2 = z * z
    centre = (p + z2 / (2 * samples)) / (1 + z2 / samples)
    half = z / (1 + z2 / samples) * math.sqrt(p * (1 - p) / samples + z2 / (4 * samples**2))
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == samples else min(1.0, centre + half)
    return low, high


class TowerPool:
    """A seeded pool of random standing towers for one brick set and rule, and each
    condition's verdict on it as a bit mask (bit k: tower k meets it).

    With a `cache` folder the towers and masks are kept on disk between runs (sampling 1000
    towers takes seconds, reading them back milliseconds), under a name made from everything
    they depend on: the brick set, rule, size, seed and the source of the code that samples
    and judges towers. A stale or unreadable file is ignored and written again.

    `towers`: judge these towers instead of sampling (`samples` and `seed` unused; the towers'
    lines are part of the cache's name, and only they are kept, not the towers, which stay
    unread while their masks are cached: `TowerLines`): the towers a deck's audits met
    (`conflicts.known_towers`), whose masks would cost about 0.06 s per card to work out in
    every run."""

    def __init__(
        self, brick_set: BrickSet, all_used: bool, samples: int, seed: int,
        settings: Settings | None = None, cache: Path | None = None,
        towers: Sequence[Tower] | None = None,
    ) -> None:
        self.brick_set = brick_set
        self.all_used = all_used
        self.settings = settings or default_settings()
        self._masks: dict[Condition, int] = {}
        self._stored: dict[str, int] = {}
        self._given = towers is not None
        key = self._key((samples, seed) if towers is None else (lines_of(towers),))
        self._file = None if cache is None else cache / f"pool-{key}.json"
        read = self._read(parse_towers=towers is None)
        self.towers: Sequence[Tower] = towers if towers is not None else read or sample_towers(
            brick_set, all_used, samples, seed=seed)
        self._judges: list[Evaluator] | None = None
        self._saved = len(self._stored)
        self.everyone = (1 << len(self.towers)) - 1

    def _key(self, drawn: tuple[Any, ...]) -> str:
        """`drawn`: what the towers are (the sample's size and seed, or the towers)."""
        digest = hashlib.sha256(repr((
            POOL_FORMAT, self.brick_set.unit_mm, self.brick_set.length, self.brick_set.width,
            self.brick_set.thickness, self.brick_set.stability_margin,
            sorted(self.brick_set.colors), self.brick_set.bricks, self.all_used, *drawn,
        )).encode())
        for module in _JUDGING_CODE:
            digest.update(Path(module.__file__ or "").read_bytes())
        return digest.hexdigest()[:24]

    def _read(self, parse_towers: bool) -> list[Tower] | None:
        """The cached towers (not parsed when the pool was given them: only their masks are
        wanted) and masks, or None when there is no readable cache."""
        if self._file is None or not self._file.is_file():
            return None
        try:
            data = json.loads(self._file.read_text(encoding="utf-8"))
            towers = [tuple(PlacedBrick(*b) for b in tower)
                      for tower in (data["towers"] if parse_towers else ())]
            self._stored = {text: int(bits, 16) for text, bits in data["masks"].items()}
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return towers

    def save(self) -> None:
        """Write the towers and every mask known so far to the cache (when there is one and
        something new was learnt); a cache that cannot be written is only skipped."""
        for condition, bits in self._masks.items():
            self._stored[describe(condition)] = bits
        if self._file is None or len(self._stored) == self._saved:
            return
        data = {"towers": [] if self._given else [[b.as_row() for b in t] for t in self.towers],
                "masks": {text: format(bits, "x") for text, bits in sorted(self._stored.items())}}
        try:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self._file, json.dumps(data, separators=(",", ":")).encode("utf-8"))
        except OSError:
            return
        self._saved = len(self._stored)

    def mask(self, condition: Condition) -> int:
        if condition not in self._masks:
            stored = self._stored.get(describe(condition))
            if stored is None:
                if self._judges is None:
                    self._judges = [Evaluator(t, self.brick_set) for t in self.towers]
                stored = 0
                for k, judge in enumerate(self._judges):
                    if judge.condition(condition):
                        stored |= 1 << k
            self._masks[condition] = stored
        return self._masks[condition]

    def meeting(
        self, conditions: Sequence[Condition], required: Sequence[Condition] = (),
        may_drop: int = 0,
    ) -> int:
        """Bit mask of the pool towers that meet every one of `required` and all of
        `conditions` but at most `may_drop` (0 or 1; a challenge lets the table set one card
        aside)."""
        if may_drop not in (0, 1):
            raise ValueError("at most one card may be set aside")
        bits = self.everyone
        for condition in required:
            bits &= self.mask(condition)
        masks = [self.mask(c) for c in conditions]
        if not may_drop or not masks:
            for mask in masks:
                bits &= mask
            return bits
        # All but one: for each card, the AND of the others (prefix and suffix products).
        prefix = [self.everyone]
        for mask in masks:
            prefix.append(prefix[-1] & mask)
        suffix = self.everyone
        some_drop = 0
        for k in range(len(masks) - 1, -1, -1):
            some_drop |= prefix[k] & suffix
            suffix &= masks[k]
        return bits & some_drop

    def witness(
        self, conditions: Sequence[Condition], required: Sequence[Condition] = (),
        may_drop: int = 0,
    ) -> Tower | None:
        """The first pool tower meeting the conditions as `meeting` reads them (a ready proof
        of solvability), or None."""
        bits = self.meeting(conditions, required, may_drop)
        if not bits:
            return None
        return self.towers[(bits & -bits).bit_length() - 1]

    def closest(
        self, conditions: Sequence[Condition], required: Sequence[Condition] = (),
    ) -> Closest | None:
        """The pool towers meeting every one of `required` that miss the fewest of
        `conditions`, or None when no tower meets `required`."""
        allowed = self.everyone
        for condition in required:
            allowed &= self.mask(condition)
        if not allowed:
            return None
        masks = [self.mask(c) for c in conditions]
        missed = [sum(not mask >> k & 1 for mask in masks)
                  for k in range(len(self.towers)) if allowed >> k & 1]
        fewest = min(missed)
        return Closest(fewest, len(masks), missed.count(fewest))

    def measure(
        self, conditions: Sequence[Condition], required: Sequence[Condition] = (),
        may_drop: int = 0,
    ) -> Difficulty:
        """The share meeting the set (see the module docstring); with no hits, also how close
        the pool comes (`Closest`)."""
        hits = self.meeting(conditions, required, may_drop).bit_count()
        samples = len(self.towers)
        low, high = wilson(hits, samples, self.settings.z)
        share = hits / samples
        closest = None if hits else self.closest(conditions, required)
        return Difficulty(share, low, high, hits, samples, self.settings.level(share), closest)


_POOLS: dict[tuple[Any, ...], TowerPool] = {}


def pool(
    brick_set: BrickSet, all_used: bool, seed: int | None = None, samples: int | None = None,
) -> TowerPool:
    """The run's shared pool for this brick set and rule (drawn on first use, then reused).
    `seed` and `samples` default to content/brix/difficulty.yaml."""
    settings = default_settings()
    seed = settings.seed if seed is None else seed
    samples = settings.samples if samples is None else samples
    key = (
        brick_set.unit_mm, brick_set.length, brick_set.width, brick_set.thickness,
        brick_set.stability_margin, tuple(brick_set.colors.items()), brick_set.bricks,
        all_used, seed, samples,
    )
    if key not in _POOLS:
        _POOLS[key] = TowerPool(brick_set, all_used, samples, seed, settings, cache_folder())
    return _POOLS[key]


def measure(
    conditions: Sequence[Condition], brick_set: BrickSet, all_used: bool,
    seed: int | None = None, samples: int | None = None, *,
    required: Sequence[Condition] = (), may_drop: int = 0,
) -> Difficulty:
    """Measured difficulty of a card set (see the module docstring). The pool is shared within
    the process, so measuring many sets of one deck pays for the sampling once. `required`:
    conditions besides the cards (a challenge's); `may_drop`: cards that may go unmet (0 or 1)."""
    shared = pool(brick_set, all_used, seed, samples)
    found = shared.measure(conditions, required, may_drop)
    shared.save()
    return found
