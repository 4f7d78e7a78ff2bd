"""The board drawn in characters, for a terminal (over SSH, in tmux: where no picture opens).

The terminal seat shows it before each set-up decision and on its ``map`` command, so a
person chooses a spot by its id on a board rather than from 54 bare numbers. It is built
from the topology's coordinates as ``ckdsl.board.svg`` draws the picture (pointy-topped
hexes of radius 1): an intersection's ``x`` is a multiple of sqrt(3)/2 and its ``y`` of
1/2, so both map to whole character columns and lines. What it shows:

- each intersection by its id; a legal spot of the pending decision in brackets ``[12]``;
  a piece as its owner's initial and a sign (``R^12`` settlement, ``R#12`` city, ``R!12``
  pillaged city, ``R2:12`` knight of level 2, lower case when not active);
- each tile's terrain, number and id (``t7``), the robber ``(R)`` and merchant ``(M)``;
- each road as its owner's initial on the edge, a legal road as ``*``.

It fits 100 columns for the bundled maps: the scale shrinks for wider boards.
"""

from __future__ import annotations

import math
import textwrap

from ckdsl.core.state import NOBODY
from ckdsl.l10n.catalog import Catalog
from ckdsl.reports.position import position_pieces, position_spots
from ckdsl.turn.game import Game

WIDTH = 100
_HALF = math.sqrt(3) / 2  # the horizontal step between an intersection and the next


def text_board(game: Game, catalog: Catalog, *, highlight: bool = True) -> list[str]:
    """The board as lines of at most ``WIDTH`` characters, then a one-line legend."""
    topo, state = game.topo, game.state
    columns = [round(x / _HALF) for x, _ in topo.inter_points]
    levels = [round(y * 2) for _, y in topo.inter_points]
    left, top = min(columns), min(levels)
    span = max(columns) - left
    scale = max(4, min(7, (WIDTH - 8) // max(span, 1)))  # characters per half hex

    def col(x: float) -> int:
        return 4 + round((x - left) * scale)

    def row(level: float) -> int:
        return round((level - top) * 2)

    height = row(max(levels)) + 1
    grid = [[" "] * WIDTH for _ in range(height)]

    def put(r: int, c: int, text: str, centre: bool = True) -> None:
        start = c - len(text) // 2 if centre else c
        for k, ch in enumerate(text):
            if 0 <= r < height and 0 <= start + k < WIDTH:
                grid[r][start + k] = ch

    spots = position_spots(game) if highlight else []
    legal = {(s.place, s.at) for s in spots}
    colours = game.rules.names("player_colours")
    initial = [catalog.name("colours", c)[:1].upper() or "?" for c in colours]
    roads = {p.at: p for p in position_pieces(game, catalog) if p.kind == "road"}
    # Edges: a sign at the middle of each, "/", "\" or "|" (a road or a legal road instead).
    for e, (a, b) in enumerate(topo.edge_ends):
        ca, cb = columns[a] - left, columns[b] - left
        la, lb = levels[a] - top, levels[b] - top
        if ca == cb:  # a vertical side: every line between its ends
            rows = range(row(min(la, lb) + top) + 1, row(max(la, lb) + top))
        else:
            rows = range(row((la + lb) / 2 + top), row((la + lb) / 2 + top) + 1)
        if e in roads:
            sign = initial[roads[e].owner]
        elif ("edge", e) in legal:
            sign = "*"
        elif ca == cb:
            sign = "|"
        else:
            sign = "/" if (cb - ca) * (lb - la) < 0 else "\\"
        for r in rows:
            put(r, col((ca + cb) / 2 + left), sign)
    # Tiles: terrain, number (with the robber and merchant), id.
    robber = state.robber
    merchant = state.merchant if state.merchant != NOBODY else -1
    room = 2 * scale - 1
    for t, (x, y) in enumerate(topo.tile_points):
        c, level = col(x / _HALF), y * 2 - top
        terrain = catalog.name("terrains", game.layout.terrain[t])[:room]
        number = state.numbers[t]
        middle = "" if number is None else str(number)
        middle += " (R)" if t == robber else ""
        middle += " (M)" if t == merchant else ""
        tile = f"[t{t}]" if ("tile", t) in legal else f"t{t}"
        put(row(level + top) - 1, c, terrain)
        put(row(level + top), c, middle.strip())
        put(row(level + top) + 1, c, tile)
    # Intersections last: their labels are what a person types.
    marks = _piece_marks(game, initial)
    for i in range(len(columns)):
        label = marks.get(i, "") + str(i)
        if ("intersection", i) in legal:
            label = f"[{label}]"
        put(row(levels[i]), col(columns[i]), label)
    lines = ["".join(line).rstrip() for line in grid]
    legend = catalog.message("textboard_legend", p=initial[0], q=initial[0].lower())
    return [*lines, *textwrap.wrap(legend, WIDTH)]


def _piece_marks(game: Game, initial: list[str]) -> dict[int, str]:
    """What stands on each intersection, as the owner's initial and a sign."""
    state = game.state
    marks: dict[int, str] = {}
    for p in position_pieces(game, Catalog("en", {})):
        if p.kind == "settlement":
            marks[p.at] = initial[p.owner] + "^"
        elif p.kind == "city":
            marks[p.at] = initial[p.owner] + ("!" if p.label == "!" else "#")
        elif p.kind == "knight":
            name = initial[p.owner] if state.knight_active[p.at] else initial[p.owner].lower()
            marks[p.at] = f"{name}{p.label}:"
    return marks
