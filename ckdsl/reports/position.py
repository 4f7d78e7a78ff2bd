"""A game as it stands, drawn: every piece on the board, the robber, the merchant, the
barbarian ship, and the places the pending decision may name.

``ckdsl board --save`` draws a save's position with it, the terminal seat's ``board``
command writes it, and the web table shows it and makes its highlighted places
clickable (each carries the answers that name it). Nothing hidden is drawn: the board is
public, so any seat may see the whole picture.
"""

from __future__ import annotations

from dataclasses import replace

from ckdsl.board.maps import GENERIC
from ckdsl.board.svg import Piece, Spot, Token, Track, Words, render_svg
from ckdsl.core.decisions import Option
from ckdsl.core.state import CITY, DAMAGED, EMPTY, NOBODY, SETTLEMENT
from ckdsl.l10n.catalog import Catalog
from ckdsl.turn.game import Game
from ckdsl.turn.notation import format_option

# Data (``position_json``) names things by their ids, as answers do: an empty catalog
# gives the ids themselves.
_ENGLISH = Catalog("en", {})

# Screen colours of the bundled colour ids; a rule set's other colours are drawn by
# their id, which SVG reads as a colour name ("teal", "purple").
SCREEN_COLOURS = {
    "red": "#d32f2f",
    "blue": "#1565c0",
    "white": "#f5f5f5",
    "orange": "#ef6c00",
    "green": "#2e7d32",
    "brown": "#6d4c41",
    "yellow": "#f9a825",
}

# Which place an option names, by its verb: the kind of place and the option's field.
# ``move knight 5 to 9`` and ``displace knight 9 with knight 5`` name where the knight
# goes; a ``choose`` names a place when its kind is one.
_VERB_PLACES = {
    "settlement": ("intersection", 1),
    "city": ("intersection", 1),
    "city_wall": ("intersection", 1),
    "knight": ("intersection", 1),
    "activate": ("intersection", 1),
    "promote": ("intersection", 1),
    "chase": ("intersection", 1),
    "lose_city": ("intersection", 1),
    "metropolis": ("intersection", 1),
    "relocate": ("intersection", 1),
    "move_knight": ("intersection", 2),
    "displace": ("intersection", 2),
    "road": ("edge", 1),
    "robber": ("tile", 1),
}
_CHOICE_PLACES = {
    "tile": "tile",
    "intersection": "intersection",
    "knight": "intersection",
    "city": "intersection",
    "settlement": "intersection",
    "building": "intersection",
    "edge": "edge",
    "road": "edge",
}


def screen_colour(colour: str) -> str:
    """The colour a player's pieces are drawn in."""
    return SCREEN_COLOURS.get(colour, colour)


def option_place(option: Option) -> tuple[str, int] | None:
    """The place ``option`` names (``("edge", 17)``), or None if it names none."""
    if option[0] == "choose" and len(option) == 3:
        place = _CHOICE_PLACES.get(option[1])
        return (place, option[2]) if place and isinstance(option[2], int) else None
    found = _VERB_PLACES.get(option[0])
    if found is None or len(option) <= found[1] or not isinstance(option[found[1]], int):
        return None
    return found[0], option[found[1]]


def position_spots(game: Game) -> list[Spot]:
    """The places the pending decision's options name, each with its answers in order."""
    if game.state.over:
        return []
    answers: dict[tuple[str, int], list[str]] = {}
    for option in game.pending.options:
        place = option_place(option)
        if place is not None:
            answers.setdefault(place, []).append(format_option(game, option))
    return [Spot(place, at, tuple(found)) for (place, at), found in answers.items()]


def position_pieces(game: Game, catalog: Catalog) -> list[Piece]:
    """Every piece on the board: buildings (with walls and metropolises), knights, roads."""
    state, rules = game.state, game.rules
    colours = rules.names("player_colours")
    metropolis = {at: t for t, at in enumerate(state.metropolis) if at != NOBODY}
    pieces: list[Piece] = []

    def who(owner: int) -> str:
        return catalog.name("colours", colours[owner])

    for i, kind in enumerate(state.building):
        if kind == EMPTY:
            continue
        owner = state.owner[i]
        shape = "settlement" if kind == SETTLEMENT else "city"
        track = metropolis.get(i)
        track_name = "" if track is None else catalog.name("tracks", rules.tracks[track].id)
        pieces.append(
            Piece(
                shape,
                i,
                screen_colour(colours[owner]),
                label="!" if kind == DAMAGED else "",
                owner=owner,
                wall=state.wall[i] and kind in (CITY, DAMAGED),
                metropolis=track_name,
                title=f"{who(owner)}: {catalog.name('pieces', shape)}",
            )
        )
    for i, owner in enumerate(state.knight):
        if owner == NOBODY:
            continue
        level = state.knight_level[i]
        level_name = catalog.name("knight_levels", rules.knight_levels[level - 1].id)
        pieces.append(
            Piece(
                "knight",
                i,
                screen_colour(colours[owner]),
                label=str(level),
                owner=owner,
                active=state.knight_active[i],
                title=f"{who(owner)}: {level_name}",
            )
        )
    for e, owner in enumerate(state.road):
        if owner != NOBODY:
            pieces.append(
                Piece(
                    "road",
                    e,
                    screen_colour(colours[owner]),
                    owner=owner,
                    title=f"{who(owner)}: {catalog.name('pieces', 'road')}",
                )
            )
    return pieces


def position_tokens(game: Game, catalog: Catalog) -> list[Token]:
    """The robber, and the merchant when it is on the board."""
    state = game.state
    tokens = [Token("robber", state.robber, "", title=catalog.name("pieces", "robber"))]
    if state.merchant != NOBODY:
        colour = game.rules.names("player_colours")[state.merchant_owner]
        title = f"{catalog.name('colours', colour)}: {catalog.name('pieces', 'merchant')}"
        tokens.append(Token("merchant", state.merchant, screen_colour(colour), title=title))
    return tokens


def harbor_rate(game: Game, kind: str) -> int:
    """docs/rules.md "Trading": how many of a good a harbor of ``kind`` takes for one,
    from the rule set (a generic harbor any good, a special one its own)."""
    rules = game.rules
    return rules.number("generic_harbor_rate" if kind == GENERIC else "special_harbor_rate")


def harbor_label(game: Game, catalog: Catalog, kind: str) -> str:
    """A harbor as the boards label it: "3:1", "2:1 Grain" (the rule set's rates)."""
    rate = f"{harbor_rate(game, kind)}:1"
    return rate if kind == GENERIC else f"{rate} {catalog.good_name(kind)}"


def board_words(catalog: Catalog, game: Game | None = None) -> Words:
    """The picture's words in the catalog's language (with ``game``, its harbors' rates)."""
    words = Words(
        terrain=lambda t: catalog.name("terrains", t),
        good=catalog.good_name,
        tile=lambda t: catalog.message("board_tile", tile=t),
        legend=catalog.message("board_legend"),
        barbarians=catalog.name("concepts", "barbarians"),
    )
    if game is None:
        return words
    return replace(words, harbor=lambda kind: harbor_label(game, catalog, kind))


def position_svg(
    game: Game,
    catalog: Catalog,
    *,
    title: str | None = None,
    highlight: bool = True,
    seat: int | None = None,
) -> str:
    """The game as it stands, as an SVG document (``ckdsl.board.svg``), in the catalog's
    language; with ``highlight``, the places the pending decision may name are marked.
    ``seat`` marks whose picture it is in the title (the board hides nothing)."""
    if seat is not None:
        colour = catalog.name("colours", game.rules.names("player_colours")[seat])
        title = f"{title} · {colour}" if title else colour
    layout = replace(game.layout, number=tuple(game.state.numbers))
    return render_svg(
        game.topo,
        layout,
        title=title,
        pieces=position_pieces(game, catalog),
        tokens=position_tokens(game, catalog),
        spots=position_spots(game) if highlight else (),
        track=Track(game.state.barbarians, game.rules.barbarian_track),
        words=board_words(catalog, game),
    )


def position_json(game: Game, answers: int) -> dict[str, object]:
    """The position as data (``ckdsl board --save ... --json``): ids as answers write them."""
    state, topo = game.state, game.topo
    colours = game.rules.names("player_colours")
    pieces: list[dict[str, object]] = []
    for p in position_pieces(game, _ENGLISH):
        where: object = topo.edge_name(p.at) if p.kind == "road" else p.at
        row: dict[str, object] = {"piece": p.kind, "at": where, "owner": colours[p.owner]}
        if p.kind == "knight":
            row.update(level=int(p.label), active=p.active)
        if p.wall:
            row["wall"] = True
        if p.metropolis:
            row["metropolis"] = p.metropolis
        pieces.append(row)
    pending = game.pending
    return {
        "answers": answers,
        "turn": state.turn,
        "current": colours[state.current],
        "pieces": pieces,
        "robber": state.robber,
        "merchant": None
        if state.merchant == NOBODY
        else {"tile": state.merchant, "owner": colours[state.merchant_owner]},
        "barbarians": {"at": state.barbarians, "of": game.rules.barbarian_track},
        "pending": None
        if state.over
        else {
            "player": colours[pending.player],
            "kind": pending.kind,
            "options": [format_option(game, o) for o in pending.options],
        },
    }


def position_lines(game: Game, catalog: Catalog, when: str) -> list[str]:
    """The position for a terminal: whose move, then each player's pieces by kind."""
    state, topo = game.state, game.topo
    colours = game.rules.names("player_colours")

    def who(player: int) -> str:
        return catalog.name("colours", colours[player])

    if state.over:
        head = f"{when}: the game is over"
    else:
        head = f"{when}: turn {state.turn}, {who(game.pending.player)} to answer"
        head += f" ({game.pending.kind}, {len(game.pending.options)} options)"
    lines = [head]
    pieces = position_pieces(game, catalog)
    for player in range(game.n):
        parts = []
        for kind in ("settlement", "city", "knight", "road"):
            own = [p for p in pieces if p.owner == player and p.kind == kind]
            if not own:
                continue
            names = []
            for p in own:
                text = topo.edge_name(p.at) if kind == "road" else str(p.at)
                extra = [catalog.name("pieces", "city_wall")] if p.wall else []
                if p.metropolis:
                    extra.append(f"{catalog.name('pieces', 'metropolis')} {p.metropolis}")
                if kind == "knight":
                    extra.append(f"{p.label}{'' if p.active else ', inactive'}")
                names.append(f"{text} ({', '.join(extra)})" if extra else text)
            parts.append(f"{catalog.name('pieces', kind)}: {' '.join(names)}")
        lines.append(f"  {who(player)}, {state.players[player].points} VP — " + "; ".join(parts))
    tokens = ", ".join(
        f"{t.title} → {catalog.message('board_tile', tile=t.tile)}"
        for t in position_tokens(game, catalog)
    )
    barbarians = (
        f"{catalog.name('concepts', 'barbarians')} {state.barbarians}/{game.rules.barbarian_track}"
    )
    lines.append(f"  {tokens}; {barbarians}")
    return lines
