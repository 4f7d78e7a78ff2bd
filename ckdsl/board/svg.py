"""The board as an SVG picture, with every id a player types: tiles, intersections, and
through them edges ("12-13"). No dependencies: the SVG is written as text."""

from __future__ import annotations

from xml.sax.saxutils import escape

from ckdsl.board.layout import Layout
from ckdsl.board.topology import Topology, corner_point, hex_center

SCALE = 60.0
MARGIN = 1.6  # hex radii around the land, for harbors
COLOURS = {
    "forest": "#2e7d32",
    "pasture": "#9ccc65",
    "fields": "#fdd835",
    "hills": "#d84315",
    "mountains": "#78909c",
    "desert": "#e6cf9c",
    "gold": "#ffb300",
}


def render_svg(topology: Topology, layout: Layout, *, title: str | None = None) -> str:
    """An SVG document of the board: terrains, numbers, harbors and every id."""
    xs = [p[0] for p in topology.inter_points]
    ys = [p[1] for p in topology.inter_points]
    left, top = min(xs) - MARGIN, min(ys) - MARGIN
    width = (max(xs) - min(xs) + 2 * MARGIN) * SCALE
    height = (max(ys) - min(ys) + 2 * MARGIN) * SCALE + (30 if title else 0)
    dy = 30 if title else 0

    def px(x: float, y: float) -> tuple[str, str]:
        """Board units to picture pixels."""
        return f"{(x - left) * SCALE:.1f}", f"{(y - top) * SCALE + dy:.1f}"

    def at(x: float, y: float) -> str:
        return ",".join(px(x, y))

    def xy(x: float, y: float) -> str:
        u, v = px(x, y)
        return f'x="{u}" y="{v}"'

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="#4fa3d9"/>',
    ]
    if title:
        out.append(f'<text x="10" y="22" font-size="18">{escape(title)}</text>')
    for t, h in enumerate(topology.hexes):
        corners = " ".join(at(*corner_point(h, k)) for k in range(6))
        terrain = layout.terrain[t]
        fill = COLOURS.get(terrain, "#bdbdbd")
        out.append(f'<polygon points="{corners}" fill="{fill}" stroke="#5d4037" stroke-width="2">'
                   f"<title>tile {t}: {escape(terrain)}</title></polygon>")  # fmt: skip
        cx, cy = hex_center(h)
        out.append(f'<text {xy(cx, cy - 0.45)} font-size="12" text-anchor="middle">'
                   f"tile {t}</text>")  # fmt: skip
        number = layout.number[t]
        if number is not None:
            colour = "#c62828" if number in (6, 8) else "#212121"
            out.append(f'<circle {_c(px(cx, cy))} r="{0.28 * SCALE:.1f}" fill="#fff8e1" '
                       'stroke="#5d4037"/>')  # fmt: skip
            out.append(f'<text {xy(cx, cy + 0.1)} font-size="18" font-weight="bold" '
                       f'text-anchor="middle" fill="{colour}">{number}</text>')  # fmt: skip
        else:
            out.append(f'<text {xy(cx, cy + 0.1)} font-size="11" text-anchor="middle">'
                       f"{escape(terrain)}</text>")  # fmt: skip
    for edge, kind in zip(topology.harbor_edges, layout.harbors, strict=False):
        a, b = topology.edge_ends[edge]
        (ax, ay), (bx, by) = topology.inter_points[a], topology.inter_points[b]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        land = hex_center(topology.hexes[_tile_of_edge(topology, edge)])
        ox, oy = mx + (mx - land[0]) * 0.55, my + (my - land[1]) * 0.55
        label = "3:1" if kind == "generic" else f"2:1 {kind}"
        for end in (px(ax, ay), px(bx, by)):
            out.append(f'<line {_line(end, px(ox, oy))} stroke="#8d6e63" stroke-width="3"/>')
        out.append(f'<text {xy(ox, oy + 0.08)} font-size="12" text-anchor="middle" '
                   f'font-weight="bold">{escape(label)}</text>')  # fmt: skip
    for i, (x, y) in enumerate(topology.inter_points):
        out.append(f'<circle {_c(px(x, y))} r="9" fill="#ffffff" stroke="#424242"/>')
        out.append(f'<text {xy(x, y + 0.07)} font-size="10" text-anchor="middle">{i}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _tile_of_edge(topology: Topology, edge: int) -> int:
    a, b = topology.edge_ends[edge]
    shared = set(topology.inter_tiles[a]) & set(topology.inter_tiles[b])
    return min(shared)


def _c(point: tuple[str, str]) -> str:
    return f'cx="{point[0]}" cy="{point[1]}"'


def _line(a: tuple[str, str], b: tuple[str, str]) -> str:
    return f'x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}"'
