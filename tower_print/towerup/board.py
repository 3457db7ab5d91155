"""The city board: sites, districts and streets of each side, validated on load.

Objectives and the rules both work on the street graph, so a board that is disconnected, has a
crossing street or lacks a district must be refused where it is written, not found in play.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tower_print.content import Node, UserError, load_yaml

MAX_STREETS = 5


@dataclass(frozen=True)
class Site:
    id: str
    district: str
    x: float
    y: float


@dataclass(frozen=True)
class Side:
    """One side of the board: its sites (in file order), their neighbours, the start sites."""

    name: str
    players: tuple[int, ...]
    sites: tuple[Site, ...]
    streets: tuple[tuple[str, str], ...]
    start_sites: tuple[str, ...]
    neighbours: dict[str, tuple[str, ...]]
    district_of: dict[str, str]

    @property
    def site_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sites)


@dataclass(frozen=True)
class Board:
    districts: dict[str, str]  # id -> display name
    sides: dict[str, Side]

    def side(self, name: str) -> Side:
        if name not in self.sides:
            raise UserError(f"--side: '{name}' is not one of: {', '.join(self.sides)}")
        return self.sides[name]


def load_board(path: Path) -> Board:
    root = load_yaml(path)
    root.only_keys("districts", "sides")
    districts = {key: node.str() for key, node in root["districts"].as_mapping().items()}
    if not districts:
        raise root["districts"].error("no districts")
    sides = {name: _side(name, node, districts) for name, node in
             root["sides"].as_mapping().items()}
    if not sides:
        raise root["sides"].error("no sides")
    return Board(districts, sides)


def _side(name: str, node: Node, districts: dict[str, str]) -> Side:
    node.only_keys("players", "sites", "streets", "start_sites")
    players = tuple(p.int(2, 4) for p in node["players"].items())
    sites: list[Site] = []
    for site_id, site_node in node["sites"].as_mapping().items():
        site_node.only_keys("district", "x", "y")
        district = site_node["district"]
        if district.str() not in districts:
            raise district.error(f"unknown district '{district.value}'")
        sites.append(Site(site_id, district.str(), site_node["x"].number(),
                          site_node["y"].number()))
    by_id = {s.id: s for s in sites}
    streets: list[tuple[str, str]] = []
    links: dict[str, list[str]] = {s.id: [] for s in sites}
    for street in node["streets"].items():
        ends = [e for e in street.items()]
        if len(ends) != 2:
            raise street.error("a street joins exactly two sites")
        a, b = (e.str() for e in ends)
        for end in ends:
            if end.value not in by_id:
                raise end.error(f"unknown site '{end.value}'")
        if a == b or b in links[a]:
            raise street.error(f"street {a}-{b} is a loop or a duplicate")
        links[a].append(b)
        links[b].append(a)
        streets.append((a, b))
    for site in sites:
        if not 1 <= len(links[site.id]) <= MAX_STREETS:
            raise node["sites"][site.id].error(
                f"site has {len(links[site.id])} streets (expected 1-{MAX_STREETS})")
    _check_connected(node["streets"], links)
    _check_planar(node["streets"], streets, by_id)
    missing = sorted(set(districts) - {s.district for s in sites})
    if missing:
        raise node["sites"].error(f"side '{name}' has no site in district(s) {', '.join(missing)}")
    start = tuple(s.str() for s in node["start_sites"].items())
    for i, site_id in enumerate(start):
        if site_id not in by_id:
            raise node["start_sites"].error(f"unknown site '{site_id}'")
        if any(other in links[site_id] for other in start[:i]):
            raise node["start_sites"].error(f"start site {site_id} is next to another one")
    return Side(name, players, tuple(sites), tuple(streets), start,
                {k: tuple(v) for k, v in links.items()}, {s.id: s.district for s in sites})


def _check_connected(where: Node, links: dict[str, list[str]]) -> None:
    first = next(iter(links))
    seen = {first}
    todo = [first]
    while todo:
        for other in links[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    if len(seen) != len(links):
        rest = set(links) - seen
        cut = sorted(rest if len(rest) <= len(seen) else seen)  # name the smaller part
        raise where.error(f"the streets do not connect every site (cut off: {', '.join(cut)})")


def _check_planar(where: Node, streets: list[tuple[str, str]], sites: dict[str, Site]) -> None:
    """Streets are drawn straight: no two may cross, and none may run through a third site."""
    point = {k: (s.x, s.y) for k, s in sites.items()}
    for i, (a, b) in enumerate(streets):
        for site_id, p in point.items():
            if site_id not in (a, b) and _on_segment(point[a], point[b], p):
                raise where.error(f"street {a}-{b} runs through site {site_id}")
        for c, d in streets[i + 1:]:
            if {a, b} & {c, d}:
                continue
            if _crosses(point[a], point[b], point[c], point[d]):
                raise where.error(f"streets {a}-{b} and {c}-{d} cross")


Point = tuple[float, float]


def _orient(p: Point, q: Point, r: Point) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _on_segment(p: Point, q: Point, r: Point) -> bool:
    return (_orient(p, q, r) == 0 and min(p[0], q[0]) <= r[0] <= max(p[0], q[0])
            and min(p[1], q[1]) <= r[1] <= max(p[1], q[1]))


def _crosses(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    if ((d1 > 0) != (d2 > 0)) and d1 != 0 and d2 != 0 and ((d3 > 0) != (d4 > 0)) \
            and d3 != 0 and d4 != 0:
        return True
    return any(_on_segment(a, b, c) for a, b, c in
               ((q1, q2, p1), (q1, q2, p2), (p1, p2, q1), (p1, p2, q2)))
