"""The board as an SVG picture, with every id a player types: "tile 7", intersection 23 (the
white circles) and edge "12-13" (on each side). No dependencies: the SVG is written as text.

The picture is how a person finds the ids that answers, scenarios and save files use, so
every label is drawn at a size that stays readable when the picture fills a screen.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ckdsl import arguments
from ckdsl.board.layout import Layout
from ckdsl.board.topology import Topology, corner_point

SCALE = 80.0  # pixels per hex radius
MARGIN_X, MARGIN_Y = 1.8, 1.3  # hex radii of sea around the land, room for harbor labels
COLOURS = {
    "forest": "#2e7d32",
    "pasture": "#9ccc65",
    "fields": "#fdd835",
    "hills": "#e0703a",
    "mountains": "#90a4ae",
    "desert": "#e6cf9c",
    "gold": "#ffb300",
}
DARK_TERRAINS = {"forest"}  # labels in white on these
INK = "#212121"

_PxFn = Callable[[float, float], tuple[float, float]]  # board units to pixels


@dataclass(frozen=True)
class Piece:
    """A piece to draw: ``kind`` settlement, city, knight (at an intersection) or road (at
    an edge), in a player's ``colour`` (any SVG colour); ``label`` e.g. a knight's level.
    A city may carry a ``wall`` and a ``metropolis`` (its track's name); a knight is drawn
    hollow when not ``active``. ``owner`` (a player's index) is written into the picture
    (``data-owner``) for programs that read it, like the web table."""

    kind: str
    at: int
    colour: str
    label: str = ""
    owner: int = -1
    wall: bool = False
    metropolis: str = ""
    active: bool = True
    title: str = ""  # a tooltip: the piece in words


@dataclass(frozen=True)
class Token:
    """A figure on a tile: the robber, the merchant (in its owner's ``colour``)."""

    kind: str
    tile: int
    colour: str
    title: str = ""


@dataclass(frozen=True)
class Spot:
    """A place a pending decision may name: ``place`` intersection, edge or tile ``at``,
    with every answer that names it (drawn as a highlight; the web table clicks it)."""

    place: str
    at: int
    answers: tuple[str, ...]


@dataclass(frozen=True)
class Words:
    """The picture's words in one language: terrain and good names, "tile N", the legend
    and the barbarian track's label (English by default)."""

    terrain: Callable[[str], str] = str
    good: Callable[[str], str] = str
    tile: Callable[[int], str] = "tile {}".format
    legend: str = (
        "tile N: inside each hex · intersections: the white circles · "
        'edges: "a-b" on each side (a, b: its two intersections)'
    )
    barbarians: str = "Barbarians"
    # A harbor's label by its kind, at a rule set's rates (None: the base's rates).
    harbor: Callable[[str], str] | None = None


@dataclass(frozen=True)
class Track:
    """The barbarian ship's track: ``at`` of ``length`` steps."""

    at: int
    length: int


def render_svg(
    topology: Topology,
    layout: Layout,
    *,
    title: str | None = None,
    pieces: Sequence[Piece] = (),
    tokens: Sequence[Token] = (),
    spots: Sequence[Spot] = (),
    track: Track | None = None,
    words: Words = Words(),
) -> str:
    """An SVG document of the board: terrains, numbers, harbors, every id, ``pieces`` and
    ``tokens`` on it, the barbarian ``track`` and the ``spots`` a decision may name."""
    arguments.instance(topology, Topology, "topology", "topology_for(spec)")
    arguments.instance(layout, Layout, "layout", "random_layout or fixed_layout")
    xs = [p[0] for p in topology.inter_points]
    ys = [p[1] for p in topology.inter_points]
    left, top = min(xs) - MARGIN_X, min(ys) - MARGIN_Y
    head = 34.0 if title or track is not None else 0.0
    foot = 26.0
    width = (max(xs) - min(xs) + 2 * MARGIN_X) * SCALE
    height = (max(ys) - min(ys) + 2 * MARGIN_Y) * SCALE + head + foot

    def px(x: float, y: float) -> tuple[float, float]:
        """Board units (hex radius 1) to picture pixels."""
        return (x - left) * SCALE, (y - top) * SCALE + head

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
        '<rect width="100%" height="100%" fill="#4fa3d9"/>',
    ]
    if title:
        out.append(_text(12, 24, title, size=20, anchor="start", bold=True))
    if track is not None:
        out += _track(track, words, width, head)
    out += _tiles(topology, layout, px, words)
    out += _harbors(topology, layout, px, words)
    out += _spots(topology, [s for s in spots if s.place == "tile"], px)
    out += _roads(topology, pieces, px)
    out += _edge_labels(topology, px)
    out += _spots(topology, [s for s in spots if s.place == "edge"], px)
    out += _tokens(topology, tokens, px)
    out += _buildings(topology, pieces, px)
    for i, (x, y) in enumerate(topology.inter_points):
        u, v = px(x, y)
        out.append(f'<circle cx="{u:.1f}" cy="{v:.1f}" r="10" fill="#ffffff" stroke="#424242"/>')
        out.append(_text(u, v + 4, str(i), size=11))
    out += _spots(topology, [s for s in spots if s.place == "intersection"], px)
    out.append(_text(12, height - 9, words.legend, size=12, anchor="start", fill="#0d2b45"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _tiles(topology: Topology, layout: Layout, px: _PxFn, words: Words) -> list[str]:
    out: list[str] = []
    for t, h in enumerate(topology.hexes):
        corners = " ".join("{:.1f},{:.1f}".format(*px(*corner_point(h, k))) for k in range(6))
        terrain = layout.terrain[t]
        fill = COLOURS.get(terrain, "#bdbdbd")
        ink = "#ffffff" if terrain in DARK_TERRAINS else INK
        out.append(
            f'<polygon points="{corners}" fill="{fill}" stroke="#5d4037" stroke-width="2.5">'
            f"<title>{escape(words.tile(t))}: {escape(words.terrain(terrain))}</title></polygon>"
        )
        cx, cy = px(*topology.tile_points[t])
        out.append(_text(cx, cy - 0.42 * SCALE, words.tile(t), size=14, bold=True, fill=ink))
        number = layout.number[t]
        if number is not None:
            colour = "#c62828" if number in (6, 8) else INK
            out.append(
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{0.27 * SCALE:.1f}" fill="#fff8e1" '
                'stroke="#5d4037" stroke-width="1.5"/>'
            )
            out.append(_text(cx, cy + 7, str(number), size=20, bold=True, fill=colour))
        out.append(_text(cx, cy + 0.47 * SCALE, words.terrain(terrain), size=11, fill=ink))
    return out


def _harbors(topology: Topology, layout: Layout, px: _PxFn, words: Words) -> list[str]:
    """A pier from each end of the harbor's edge to a label out at sea."""
    out: list[str] = []
    for edge, kind in zip(topology.harbor_edges, layout.harbors, strict=False):
        a, b = topology.edge_ends[edge]
        (ax, ay), (bx, by) = topology.inter_points[a], topology.inter_points[b]
        o = px(*harbor_point(topology, edge))
        for end in (px(ax, ay), px(bx, by)):
            out.append(
                f'<line x1="{end[0]:.1f}" y1="{end[1]:.1f}" x2="{o[0]:.1f}" y2="{o[1]:.1f}" '
                'stroke="#6d4c41" stroke-width="4"/>'
            )
        if words.harbor is not None:
            label = words.harbor(kind)
        else:
            label = "3:1" if kind == "generic" else f"2:1 {words.good(kind)}"
        w = 10 + 8.2 * len(label)
        out.append(
            f'<rect x="{o[0] - w / 2:.1f}" y="{o[1] - 11:.1f}" width="{w:.1f}" height="21" '
            'rx="5" fill="#fffde7" stroke="#6d4c41" stroke-width="1.5"/>'
        )
        out.append(_text(o[0], o[1] + 4.5, label, size=13, bold=True))
    return out


def _edge_labels(topology: Topology, px: _PxFn) -> list[str]:
    """ "a-b" at the middle of each edge, along it (vertical edges: upright, to be read)."""
    out: list[str] = []
    for e, (a, b) in enumerate(topology.edge_ends):
        (ax, ay), (bx, by) = px(*topology.inter_points[a]), px(*topology.inter_points[b])
        angle = math.degrees(math.atan2(by - ay, bx - ax))
        if angle > 90:
            angle -= 180
        elif angle <= -90:
            angle += 180
        if abs(abs(angle) - 90) < 1:
            angle = 0.0
        name = topology.edge_name(e)
        w = 5 + 6.2 * len(name)
        out.append(
            f'<g transform="translate({(ax + bx) / 2:.1f},{(ay + by) / 2:.1f}) '
            f'rotate({angle:.0f})"><rect x="{-w / 2:.1f}" y="-7" width="{w:.1f}" '
            'height="14" rx="3" fill="#ffffff" fill-opacity="0.85"/>'
            + _text(0, 4, name, size=10, fill="#37474f")
            + "</g>"
        )
    return out


def _roads(topology: Topology, pieces: Sequence[Piece], px: _PxFn) -> list[str]:
    out: list[str] = []
    for p in pieces:
        if p.kind != "road":
            continue
        a, b = topology.edge_ends[p.at]
        (ax, ay), (bx, by) = px(*topology.inter_points[a]), px(*topology.inter_points[b])
        line = f'x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}"'
        out.append(
            f"<g {_piece_attrs(p, 'road')}>"
            f'<line {line} stroke="{INK}" stroke-width="11" stroke-linecap="round"/>'
            f'<line {line} stroke={quoteattr(p.colour)} stroke-width="8" stroke-linecap="round"/>'
            f"{_title(p.title)}</g>"
        )
    return out


def _piece_attrs(p: Piece, kind: str) -> str:
    """What a program reading the picture needs: the piece, where, whose."""
    return f'class="piece" data-piece="{kind}:{p.at}" data-owner="{p.owner}"'


def _title(text: str) -> str:
    return f"<title>{escape(text)}</title>" if text else ""


def _buildings(topology: Topology, pieces: Sequence[Piece], px: _PxFn) -> list[str]:
    """Settlements, cities and knights as coloured shapes around the intersection's id."""
    out: list[str] = []
    for p in pieces:
        if p.kind == "road":
            continue
        x, y = px(*topology.inter_points[p.at])
        fill = f'fill={quoteattr(p.colour)} stroke="{INK}" stroke-width="2"'
        if p.wall:  # a city wall: a grey ring around the city, a piece of its own
            out.append(
                f"<g {_piece_attrs(p, 'city_wall')}>"
                f'<rect x="{x - 25:.1f}" y="{y - 23:.1f}" width="50" height="41" rx="6" '
                f'fill="#9e9e9e" stroke="{INK}" stroke-width="2"/></g>'
            )
        out.append(f"<g {_piece_attrs(p, p.kind)}>")
        if p.kind == "settlement":
            house = [(-13, -4), (0, -18), (13, -4), (13, 13), (-13, 13)]
            out.append(f"<polygon points={_points(x, y, house)} {fill}/>")
        elif p.kind == "city":
            city = [(-20, 13), (-20, -6), (-8, -18), (4, -6), (20, -6), (20, 13)]
            out.append(f"<polygon points={_points(x, y, city)} {fill}/>")
        elif p.active:  # knights, and anything a later rule set invents
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="17" {fill}/>')
        else:  # an inactive knight: hollow, in its owner's colour
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="16" fill="#ffffff" '
                f'stroke={quoteattr(p.colour)} stroke-width="5" stroke-dasharray="6 3"/>'
            )
        out.append(_title(p.title) + "</g>")
        if p.metropolis:  # a gold crown over the city, its track's initial
            crown = [(-12, -22), (-12, -36), (-6, -29), (0, -38), (6, -29), (12, -36), (12, -22)]
            out.append(
                f"<g {_piece_attrs(p, 'metropolis')}>"
                f'<polygon points={_points(x, y, crown)} fill="#ffd54f" stroke="{INK}" '
                f'stroke-width="1.5"/>{_title(p.metropolis)}</g>'
            )
        if p.label:
            out.append(_text(x + 16, y - 14, p.label, size=12, bold=True, anchor="start"))
    return out


def _tokens(topology: Topology, tokens: Sequence[Token], px: _PxFn) -> list[str]:
    """The robber (a dark pawn) and the merchant (a pawn in its owner's colour), beside
    the tile's number so both stay readable."""
    out: list[str] = []
    for k in tokens:
        cx, cy = px(*topology.tile_points[k.tile])
        x = cx - 0.42 * SCALE if k.kind == "robber" else cx + 0.42 * SCALE
        fill = "#263238" if k.kind == "robber" else k.colour
        pawn = [(-9, 14), (-6, -2), (-9, -8), (0, -18), (9, -8), (6, -2), (9, 14)]
        out.append(
            f'<g class="piece" data-piece="{k.kind}:{k.tile}">'
            f"<polygon points={_points(x, cy, pawn)} fill={quoteattr(fill)} "
            f'stroke="#ffffff" stroke-width="2"/>{_title(k.title)}</g>'
        )
    return out


def _spots(topology: Topology, spots: Sequence[Spot], px: _PxFn) -> list[str]:
    """A translucent ring (a bar, for an edge) on each place a decision may name, with
    its answers as data: ``data-answer`` the first, ``data-answers`` all (JSON)."""
    out: list[str] = []
    for s in spots:
        data = (
            f'class="option" data-place="{s.place}:{s.at}" '
            f"data-answer={quoteattr(s.answers[0])} "
            f"data-answers={quoteattr(json.dumps(list(s.answers)))}"
        )
        style = 'fill="#ffeb3b" fill-opacity="0.55" stroke="#f50057" stroke-width="4"'
        if s.place == "edge":
            a, b = topology.edge_ends[s.at]
            (ax, ay), (bx, by) = px(*topology.inter_points[a]), px(*topology.inter_points[b])
            out.append(
                f'<line {data} x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
                'stroke="#f50057" stroke-opacity="0.6" stroke-width="16" stroke-linecap="round">'
                f"{_title(' / '.join(s.answers))}</line>"
            )
            continue
        x, y = px(*(topology.tile_points if s.place == "tile" else topology.inter_points)[s.at])
        r = 0.3 * SCALE if s.place == "tile" else 21
        out.append(
            f'<circle {data} cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {style}>'
            f"{_title(' / '.join(s.answers))}</circle>"
        )
    return out


def _track(track: Track, words: Words, width: float, head: float) -> list[str]:
    """The barbarian ship's track across the top right: one box a step, the ship's
    step filled, the last (the attack) in red."""
    step = 22.0
    x0 = width - 12 - step * (track.length + 1)
    y = 8.0
    out = [
        f'<g class="piece" data-piece="barbarians:{track.at}">',
        _text(
            x0 - 8,
            y + 16,
            f"{words.barbarians} {track.at}/{track.length}",
            size=14,
            anchor="end",
            bold=True,
        ),
    ]
    for k in range(track.length + 1):
        fill = "#263238" if k == track.at else ("#ef9a9a" if k == track.length else "#ffffff")
        out.append(
            f'<rect x="{x0 + k * step:.1f}" y="{y}" width="{step - 3:.1f}" height="{step - 3:.1f}" '
            f'rx="3" fill="{fill}" stroke="{INK}" stroke-width="1"/>'
        )
    out.append("</g>")
    return out


def _points(x: float, y: float, shape: list[tuple[int, int]]) -> str:
    return quoteattr(" ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in shape))


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: int,
    anchor: str = "middle",
    bold: bool = False,
    fill: str = INK,
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{fill}"{weight}>{escape(text)}</text>'
    )


def harbor_point(topology: Topology, edge: int, out: float = 0.95) -> tuple[float, float]:
    """Where a harbor on ``edge`` is labelled, in board units: out at sea, ``out`` times
    the way from the land tile's centre to the edge's middle beyond the edge."""
    a, b = topology.edge_ends[edge]
    (ax, ay), (bx, by) = topology.inter_points[a], topology.inter_points[b]
    mx, my = (ax + bx) / 2, (ay + by) / 2
    lx, ly = topology.tile_points[_tile_of_edge(topology, edge)]
    return mx + (mx - lx) * out, my + (my - ly) * out


def _tile_of_edge(topology: Topology, edge: int) -> int:
    a, b = topology.edge_ends[edge]
    shared = set(topology.inter_tiles[a]) & set(topology.inter_tiles[b])
    return min(shared)


def escape(text: str) -> str:
    """``text`` fit for an XML text node (xml.sax.saxutils, imported when a picture is
    drawn: it brings urllib and http along, which no other command needs)."""
    from xml.sax.saxutils import escape as xml_escape

    return xml_escape(text)


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value."""
    from xml.sax.saxutils import quoteattr as xml_quoteattr

    return xml_quoteattr(text)
