"""Placing a scenario's position on a fresh game, without playing up to it.

Every id is checked against the board and the rule set, and every fault is reported at
the line and column of the value in the scenario file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ckdsl.diagnostics import Diagnostic, JsonPath
from ckdsl.engine.game import Game
from ckdsl.engine.notation import player_name
from ckdsl.engine.state import CITY, EMPTY, NOBODY, SETTLEMENT
from ckdsl.rules.positions import Positions
from ckdsl.rules.schemas import suggest

Report = Callable[[JsonPath, str], None]


def colours(game: Game) -> dict[str, int]:
    """The players of this game by colour."""
    return {player_name(game, p): p for p in range(game.n)}


def player_index(game: Game, colour: Any, at: JsonPath, report: Report) -> int | None:
    known = colours(game)
    if colour in known:
        return known[colour]
    names = ", ".join(known)
    report(at, f"no player '{colour}' in this {game.n}-player game{suggest(str(colour), known)} "
               f"(players: {names})")  # fmt: skip
    return None


def edge_of(game: Game, text: str, at: JsonPath, report: Report) -> int | None:
    """The edge '12-13' names, or None after reporting why there is none."""
    a, _, b = text.partition("-")
    ends = int(a), int(b)
    count = len(game.topo.inter_tiles)
    for i in ends:
        if not 0 <= i < count:
            report(at, f"there is no intersection {i} (the map has 0 to {count - 1})")
            return None
    try:
        return game.topo.edge_id(*ends)
    except KeyError:
        report(at, f"intersections {ends[0]} and {ends[1]} are not joined by an edge")
        return None


def apply_position(game: Game, position: dict[str, Any], positions: Positions) -> list[Diagnostic]:
    """Put ``position`` on ``game`` (just started, nothing placed); return the faults."""
    problems: list[Diagnostic] = []
    base: JsonPath = ("position",)

    def report(path: JsonPath, message: str) -> None:
        problems.append(Diagnostic.at(positions.value(path), message, path))

    state = game.state
    state.setup_step = len(game.setup_order)
    state.turn = int(position.get("turn_number", 1))
    turn = position.get("turn")
    if turn is not None:
        state.current = player_index(game, turn, (*base, "turn"), report) or 0
    state.rolled = position.get("phase", "before_roll") == "after_roll"

    def report_key(path: JsonPath, message: str) -> None:
        problems.append(Diagnostic.at(positions.key(path), message, path))

    for colour, spec in (position.get("players") or {}).items():
        at: JsonPath = (*base, "players", colour)
        p = player_index(game, colour, at, report_key)
        if p is not None:
            _place_player(game, p, spec, at, report)
    if "robber" in position:
        tile = position["robber"]
        if tile >= len(game.terrain):
            report((*base, "robber"), f"there is no tile {tile} (the map has 0 to "
                                      f"{len(game.terrain) - 1})")  # fmt: skip
        else:
            state.robber = tile
    if "robber_unlocked" in position:
        state.robber_unlocked = bool(position["robber_unlocked"])
    if "longest_road" in position:
        holder = player_index(game, position["longest_road"], (*base, "longest_road"), report)
        if holder is not None:
            _give_longest_road(game, holder)
    state.log.clear()  # the position is not history
    game.refresh()
    return problems


def _place_player(game: Game, p: int, spec: dict[str, Any], at: JsonPath, report: Report) -> None:
    state, topo = game.state, game.topo
    me = state.players[p]
    count = len(topo.inter_tiles)

    def free_spot(i: int, where: JsonPath) -> bool:
        if not 0 <= i < count:
            report(where, f"there is no intersection {i} (the map has 0 to {count - 1})")
            return False
        if state.building[i] != EMPTY:
            owner = player_name(game, state.owner[i])
            report(where, f"intersection {i} already holds a building of {owner}")
            return False
        return True

    for piece, kind in (("settlements", SETTLEMENT), ("cities", CITY)):
        supply_id = "settlement" if kind == SETTLEMENT else "city"
        for k, i in enumerate(spec.get(piece) or []):
            where = (*at, piece, k)
            if not free_spot(i, where):
                continue
            if me.supply[supply_id] <= 0:
                report(where, f"{player_name(game, p)} has no {supply_id} left in supply")
                continue
            game.place_building(p, i, kind)
    for k, i in enumerate(spec.get("walls") or []):
        where = (*at, "walls", k)
        if not (0 <= i < count and state.owner[i] == p and state.building[i] == CITY):
            report(where, f"intersection {i} holds no city of {player_name(game, p)}")
        elif state.wall[i] or me.supply["city_wall"] <= 0:
            report(where, f"no city wall can go on {i} (already walled, or none left)")
        else:
            state.wall[i] = True
            me.supply["city_wall"] -= 1
    for k, text in enumerate(spec.get("roads") or []):
        where = (*at, "roads", k)
        e = edge_of(game, text, where, report)
        if e is None:
            continue
        if state.road[e] != NOBODY:
            report(where, f"edge {text} already holds a road")
        elif me.supply["road"] <= 0:
            report(where, f"{player_name(game, p)} has no road left in supply")
        else:
            game.place_road(p, e)
    for good, n in (spec.get("hand") or {}).items():
        where = (*at, "hand", good)
        g = game.rules.good_index.get(good)
        if g is None:
            report(where, f"'{good}' is not a resource or commodity"
                          f"{suggest(good, game.rules.goods)}")  # fmt: skip
        elif state.bank[g] < n:
            report(where, f"the bank holds only {state.bank[g]} {good}, not {n}")
        else:
            me.hand[g] += n
            state.bank[g] -= n


def _give_longest_road(game: Game, holder: int) -> None:
    state, bonus = game.state, game.rules.longest_road_points
    if state.longest_road_holder != NOBODY:
        state.players[state.longest_road_holder].points -= bonus
    state.longest_road_holder = holder
    state.players[holder].points += bonus
