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
- each road as its owner's initial on the edge, a legal road as ``*``;
- each harbor out at sea by its rate from the rule set (``3:1``; ``2:1`` above its
  good's name), and listed under the board with the edge it is on.

It fits 100 columns for the bundled maps: the scale shrinks for wider boards. Every
mark reads without colour; ``styled_board`` adds colour where the terminal has it: each
player's pieces and roads in their colour (white ones reversed, to show on any
background), legal spots bold yellow, harbors cyan.
"""

from __future__ import annotations

import math
import textwrap

from ckdsl.board.maps import GENERIC
from ckdsl.board.svg import harbor_point
from ckdsl.core.state import NOBODY
from ckdsl.l10n.catalog import Catalog
from ckdsl.reports.position import (
    harbor_label,
    harbor_rate,
    position_pieces,
    position_spots,
    screen_colour,
)
from ckdsl.turn.game import Game

_ENGLISH = Catalog("en", {})  # pieces by their ids: their marks are drawn here

WIDTH = 100
_HALF = math.sqrt(3) / 2  # the horizontal step between an intersection and the next


Styled = list[tuple[str, str]]
"""A line as runs of (style, text), prompt_toolkit's formatted text ("" is no style)."""

LEGAL = "fg:ansiyellow bold"
HARBOR = "fg:ansicyan"
NBSP = "\u00a0"  # inside a harbor's entry in the list: a line is never broken there


def text_board(game: Game, catalog: Catalog, *, highlight: bool = True) -> list[str]:
    """The board as lines of at most ``WIDTH`` characters, then the harbors and a legend."""
    return [
        "".join(text for _, text in line)
        for line in styled_board(game, catalog, highlight=highlight)
    ]


def player_style(colour: str) -> str:
    """A player's pieces' style: bold in their screen colour; white reversed (it would
    vanish on a light background)."""
    return "reverse bold" if colour == "white" else f"fg:{screen_colour(colour)} bold"


def styled_board(game: Game, catalog: Catalog, *, highlight: bool = True) -> list[Styled]:
    """``text_board`` with styles: the same characters, coloured by owner and kind."""
    topo, state = game.topo, game.state
    columns = [round(x / _HALF) for x, _ in topo.inter_points]
    levels = [round(y * 2) for _, y in topo.inter_points]
    left, top = min(columns), min(levels)
    span = max(columns) - left
    harbors = list(zip(topo.harbor_edges, game.layout.harbors, strict=False))
    margin = 11 if harbors else 4  # room at sea for the harbors' labels
    pad = 2 if harbors else 0  # lines above and below, for the same
    scale = max(4, min(7, (WIDTH - 2 * margin) // max(span, 1)))  # characters per half hex

    def col(x: float) -> int:
        return margin + round((x - left) * scale)

    def row(level: float) -> int:
        return pad + round((level - top) * 2)

    height = row(max(levels)) + 1 + pad
    grid = [[" "] * WIDTH for _ in range(height)]
    styles = [[""] * WIDTH for _ in range(height)]

    def put(r: int, c: int, text: str, centre: bool = True, style: str = "") -> None:
        start = c - len(text) // 2 if centre else c
        for k, ch in enumerate(text):
            if 0 <= r < height and 0 <= start + k < WIDTH:
                grid[r][start + k] = ch
                styles[r][start + k] = style

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
        style = ""
        if e in roads:
            sign = initial[roads[e].owner]
            style = player_style(colours[roads[e].owner])
        elif ("edge", e) in legal:
            sign, style = "*", LEGAL
        elif ca == cb:
            sign = "|"
        else:
            sign = "/" if (cb - ca) * (lb - la) < 0 else "\\"
        for r in rows:
            put(r, col((ca + cb) / 2 + left), sign, style=style)
    # Harbors: the rate out at sea (a special harbor's good below it), listed after.
    listed = []
    for edge, kind in harbors:
        x, y = harbor_point(topo, edge, out=0.9)
        r, c = row(y * 2), col(x / _HALF)
        rate = f"{harbor_rate(game, kind)}:1"
        put(r, c, rate, style=HARBOR)
        if kind != GENERIC:
            put(r + (1 if r + 1 < height else -1), c, catalog.good_name(kind), style=HARBOR)
        listed.append(
            f"{topo.edge_name(edge)} {harbor_label(game, catalog, kind)}".replace(" ", NBSP)
        )
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
        put(row(level + top), c, middle.strip(), style="bold" if t == robber else "")
        put(row(level + top) + 1, c, tile, style=LEGAL if ("tile", t) in legal else "")
    # Intersections last: their labels are what a person types.
    marks = _piece_marks(game, initial)
    owners = {p.at: p.owner for p in position_pieces(game, _ENGLISH) if p.kind != "road"}
    for i in range(len(columns)):
        label = marks.get(i, "") + str(i)
        style = player_style(colours[owners[i]]) if i in owners else ""
        if ("intersection", i) in legal:
            label, style = f"[{label}]", LEGAL
        put(row(levels[i]), col(columns[i]), label, style=style)
    lines = [_runs(chars, kinds) for chars, kinds in zip(grid, styles, strict=True)]
    legend = catalog.message("textboard_legend", p=initial[0], q=initial[0].lower())
    notes = textwrap.wrap(catalog.message("textboard_harbors", harbors=" · ".join(listed)), WIDTH)
    return [*lines, *([[("", n)] for n in notes] if listed else []),
            *[[("", n)] for n in textwrap.wrap(legend, WIDTH)]]  # fmt: skip


def _runs(chars: list[str], kinds: list[str]) -> Styled:
    """A line of the grid as runs of one style, its trailing blanks cut."""
    text = "".join(chars).rstrip()
    runs: Styled = []
    for k, ch in enumerate(text):
        if runs and runs[-1][0] == kinds[k]:
            runs[-1] = (kinds[k], runs[-1][1] + ch)
        else:
            runs.append((kinds[k], ch))
    return runs


def _piece_marks(game: Game, initial: list[str]) -> dict[int, str]:
    """What stands on each intersection, as the owner's initial and a sign."""
    state = game.state
    marks: dict[int, str] = {}
    for p in position_pieces(game, _ENGLISH):
        if p.kind == "settlement":
            marks[p.at] = initial[p.owner] + "^"
        elif p.kind == "city":
            marks[p.at] = initial[p.owner] + ("!" if p.label == "!" else "#")
        elif p.kind == "knight":
            name = initial[p.owner] if state.knight_active[p.at] else initial[p.owner].lower()
            marks[p.at] = f"{name}{p.label}:"
    return marks
