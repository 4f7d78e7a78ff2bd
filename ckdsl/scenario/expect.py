"""The visible state, in the shape scenario expectations are written in.

Players by colour, edges as "a-b", goods by id, zero amounts left out: what a person
writes in a scenario file is compared with exactly this. The log is shown by the event
schema (``ckdsl.events``): a field of type player by colour, an edge as "a-b"; and a
``log:`` expectation naming an event or a field the schema does not have is an error of
the file, reported before the scenario runs, since it could never match.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeAlias

from ckdsl.core.state import (
    ACTION,
    ACTIVATED_THIS_TURN,
    CITY,
    DAMAGED,
    NOBODY,
    PROMOTION,
    SETTLEMENT,
)
from ckdsl.diagnostics import Diagnostic, JsonPath
from ckdsl.dsl.vocabulary.verbs import MODIFIER_KINDS
from ckdsl.events import EVENTS, all_field_names, place_type, spec_of
from ckdsl.jsondata import JsonObject, JsonValue
from ckdsl.rules.positions import Positions
from ckdsl.rules.schemas import suggest
from ckdsl.turn.game import Game
from ckdsl.turn.notation import edge_name, format_option, player_name

Shown: TypeAlias = "bool | int | float | str | Sequence[Shown] | Mapping[str, Shown] | None"
"""A value as a scenario shows it: JSON data, read-only (so a ``dict[str, int]`` is one)."""

LOG_EXPECTATIONS = ("log", "log_so_far", "log_absent")
"""The expectations that match events of the log."""


def actual_values(game: Game, wanted: Iterable[str]) -> dict[str, Shown]:
    """For each key of ``wanted``, its actual value now."""
    return {key: _ACTUAL[key](game) for key in wanted}


def _colour(game: Game, player: int) -> str | None:
    return None if player == NOBODY else player_name(game, player)


def _per_player(game: Game, value: Callable[[int], Shown]) -> dict[str, Shown]:
    return {player_name(game, p): value(p) for p in range(game.n)}


def pending(game: Game) -> dict[str, str | list[str] | None]:
    """The pending decision: its player, kind and options (as answers are written)."""
    d = game.pending
    return {
        "player": _colour(game, d.player),
        "kind": d.kind,
        "options": [format_option(game, o) for o in d.options],
        "includes": None,
        "excludes": None,
    }


def _hand(game: Game, p: int) -> dict[str, int]:
    hand = game.state.players[p].hand
    return {g: hand[i] for i, g in enumerate(game.rules.goods) if hand[i]}


def _pieces(game: Game, p: int, kind: int) -> list[int]:
    state = game.state
    return sorted(i for i in state.players[p].buildings if state.building[i] == kind)


def _knights(game: Game, p: int) -> list[dict[str, int | bool]]:
    state = game.state
    return [
        {"at": i, "level": state.knight_level[i], "active": state.knight_active[i],
         **knight_flags(state.knight_flags[i])}
        for i in sorted(state.players[p].knights)
    ]  # fmt: skip


def knight_flags(flags: int) -> dict[str, int | bool]:
    """What a knight did this turn, as a position writes it (``ckdsl.core.state``)."""
    return {
        "activated_this_turn": bool(flags & ACTIVATED_THIS_TURN),
        "promoted_this_turn": (flags % ACTION) // PROMOTION,
        "acted_this_turn": flags // ACTION,
    }


def _modifiers(game: Game, p: int) -> list[dict[str, Shown]]:
    """The modifiers in force for ``p``, as a position writes them (``grant``'s words)."""
    words = {kind: word for word, kind in MODIFIER_KINDS.items()}
    out: list[dict[str, Shown]] = []
    for mod in game.state.modifiers:
        if mod["player"] != p:
            continue
        shown: dict[str, Shown] = {words[mod["kind"]]: mod["value"]}
        shown["on"] = mod["goods"] if "goods" in mod else mod.get("target")
        shown.update({flag: True for flag in ("once", "always") if mod.get(flag)})
        out.append(shown)
    return out


def _counters(game: Game) -> dict[str, Shown]:
    """The rule set's counters: a number, or a number per colour."""
    out: dict[str, Shown] = {}
    for counter, value in game.state.counters.items():
        if isinstance(value, list):
            out[counter] = {player_name(game, q): n for q, n in enumerate(value)}
        else:
            out[counter] = value
    return out


def _levels(game: Game, p: int) -> dict[str, int]:
    levels = game.state.players[p].levels
    return {t.id: levels[k] for k, t in enumerate(game.rules.tracks) if levels[k]}


def _metropolises(game: Game) -> dict[str, dict[str, Shown]]:
    state = game.state
    out: dict[str, dict[str, Shown]] = {}
    for k, track in enumerate(game.rules.tracks):
        at = state.metropolis[k]
        owner = _colour(game, state.owner[at]) if at != NOBODY else None
        out[track.id] = {"owner": owner, "at": None if at == NOBODY else at,
                         "kept": state.metropolis_kept[k]}  # fmt: skip
    return out


def _merchant(game: Game) -> dict[str, Shown] | None:
    state = game.state
    if state.merchant == NOBODY:
        return None
    return {"tile": state.merchant, "owner": _colour(game, state.merchant_owner)}


def shown_log(game: Game) -> list[dict[str, Shown]]:
    """The log as a scenario writes it: players by colour (nobody as null), edges "a-b"."""
    out = []
    for event in game.events:
        shown: dict[str, Shown] = dict(event)
        spec = spec_of(str(event.get("event")))
        for f in spec.fields if spec is not None else ():
            value = event.get(f.name)
            if not isinstance(value, int):
                continue
            if f.type == "player":
                shown[f.name] = _colour(game, value)
            elif f.type == "edge" or (f.type == "place" and place_type(event) == "edge"):
                shown[f.name] = edge_name(game, value)
        out.append(shown)
    return out


_ACTUAL: dict[str, Callable[[Game], Shown]] = {
    "pending": pending,
    "hand": lambda g: _per_player(g, lambda p: _hand(g, p)),
    "hand_size": lambda g: _per_player(g, lambda p: sum(g.state.players[p].hand)),
    "points": lambda g: _per_player(g, lambda p: g.state.players[p].points),
    "settlements": lambda g: _per_player(g, lambda p: _pieces(g, p, SETTLEMENT)),
    "cities": lambda g: _per_player(g, lambda p: _pieces(g, p, CITY)),
    "damaged": lambda g: _per_player(g, lambda p: _pieces(g, p, DAMAGED)),
    "walls": lambda g: _per_player(
        g, lambda p: sorted(i for i in g.state.players[p].buildings if g.state.wall[i])
    ),
    "roads": lambda g: _per_player(
        g, lambda p: sorted(edge_name(g, e) for e in g.state.players[p].roads)
    ),
    "road_length": lambda g: _per_player(g, lambda p: g.state.players[p].road_length),
    "longest_road": lambda g: _colour(g, g.state.longest_road_holder),
    "titles": lambda g: _titles(g),
    "robber": lambda g: g.state.robber,
    "robber_unlocked": lambda g: g.state.robber_unlocked,
    "bank": lambda g: dict(zip(g.rules.goods, g.state.bank, strict=True)),
    "turn": lambda g: _colour(g, g.state.current),
    "winner": lambda g: _colour(g, g.state.winner),
    "over": lambda g: g.state.over,
    "log": shown_log,
    "log_so_far": shown_log,
    "log_absent": shown_log,
    "knights": lambda g: _per_player(g, lambda p: _knights(g, p)),
    "levels": lambda g: _per_player(g, lambda p: _levels(g, p)),
    "progress": lambda g: _per_player(g, lambda p: sorted(g.state.players[p].progress)),
    "progress_count": lambda g: _per_player(g, lambda p: len(g.state.players[p].progress)),
    "revealed": lambda g: _per_player(g, lambda p: sorted(g.state.players[p].revealed)),
    "defender": lambda g: _per_player(g, lambda p: g.state.players[p].defender),
    "supply": lambda g: _per_player(g, lambda p: dict(g.state.players[p].supply)),
    "metropolises": _metropolises,
    "barbarians": lambda g: g.state.barbarians,
    "attacks": lambda g: g.state.attacks,
    "merchant": _merchant,
    "deck_sizes": lambda g: {
        t.id: len(g.state.decks[t.deck]) for t in g.rules.tracks if t.deck >= 0
    },
    "numbers": lambda g: {str(t): n for t, n in enumerate(g.state.numbers)},
    "decks": lambda g: {
        t.id: list(reversed(g.state.decks[t.deck])) for t in g.rules.tracks if t.deck >= 0
    },
    "modifiers": lambda g: _per_player(g, lambda p: _modifiers(g, p)),
    "counters": _counters,
}


def _titles(game: Game) -> dict[str, Shown]:
    """Who holds each title the rule set declares (``ckdsl.turn.titles``): a colour, None,
    or the colours of a shared title in seat order."""
    out: dict[str, Shown] = {}
    for title in game.rules.programs.titles:
        if title.score is not None:
            holders = game.state.titles.get(title.id, ((), ()))[0]
            shown = [_colour(game, p) for p in holders]
            out[title.id] = shown if len(shown) > 1 else (shown[0] if shown else None)
    return out


def same(game: Game, field: str, expected: JsonValue, actual: Shown) -> bool:
    """Whether an expected value (as written) matches the actual one: lists in any order,
    amounts of 0 left out, knights by their intersection with only the keys given (a level
    by number or id), a metropolis by its owner or by the keys given, cards as multisets."""
    if field == "knights":
        return _same_knights(game, expected, actual)
    if field == "decks":  # the top cards, top first; those below are not compared
        found = _elements(actual)
        return isinstance(expected, list) and found[: len(expected)] == expected
    if field == "modifiers":
        return Counter(map(_canonical, _elements(expected))) == Counter(
            map(_canonical, _elements(actual))
        )
    if field in ("counters", "titles") and isinstance(expected, dict):
        return isinstance(actual, Mapping) and all(actual.get(k) == v for k, v in expected.items())
    if field in ("metropolises", "merchant", "supply") and isinstance(expected, dict):
        return isinstance(actual, Mapping) and all(actual.get(k) == v for k, v in expected.items())
    if field == "metropolises":
        return isinstance(actual, Mapping) and bool(expected == actual["owner"])
    if field in ("progress", "revealed"):
        return Counter(_elements(expected)) == Counter(_elements(actual))
    if field == "supply":
        return False
    return bool(_normal(expected) == _normal(actual))


def _elements(value: Shown) -> list[Shown]:
    if isinstance(value, Sequence) and not isinstance(value, str):
        return list(value)
    return [value]


def _same_knights(game: Game, expected: JsonValue, actual: Shown) -> bool:
    wanted = [k for k in expected if isinstance(k, dict)] if isinstance(expected, list) else []
    found = [k for k in _elements(actual) if isinstance(k, Mapping)]
    if len(wanted) != len(found):
        return False
    ids = [lv.id for lv in game.rules.knight_levels]
    by_at = {k["at"]: k for k in found}
    for want in wanted:
        got = by_at.get(want["at"])
        if got is None:
            return False
        level = want.get("level")
        if isinstance(level, str):
            level = ids.index(level) + 1 if level in ids else level
        if level is not None and level != got["level"]:
            return False
        for key in ("active", "activated_this_turn", "promoted_this_turn", "acted_this_turn"):
            if key in want and want[key] != got[key]:
                return False
    return True


def _canonical(value: Shown) -> str:
    """A modifier as one text, whatever the order of its keys (`on` a list or one)."""
    if isinstance(value, Mapping) and isinstance(value.get("on"), str):
        value = {**value, "on": [value["on"]]}
    return json.dumps(value, sort_keys=True, default=str)


def _normal(value: Shown) -> Shown:
    if isinstance(value, list):
        return sorted(str(v).replace(" ", "") for v in value)
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if v != 0}
    return value


# --- log expectations against the event schema --------------------------------------------


def log_pattern_errors(steps: JsonValue, positions: Positions) -> list[Diagnostic]:
    """Each ``log:``, ``log_so_far:`` or ``log_absent:`` expectation of ``steps`` that
    names an event the engine never logs, or a field its event does not have (a typo
    that could never match): at the event's value or the field's key."""
    out: list[Diagnostic] = []
    for k, step in enumerate(steps if isinstance(steps, list) else []):
        expect = step.get("expect") if isinstance(step, dict) else None
        for key in LOG_EXPECTATIONS:
            patterns = expect.get(key) if isinstance(expect, dict) else None
            for i, pattern in enumerate(patterns if isinstance(patterns, list) else []):
                if isinstance(pattern, dict):
                    at: JsonPath = ("steps", k, "expect", key, i)
                    out += _pattern_errors(pattern, at, positions)
    return out


def _pattern_errors(pattern: JsonObject, at: JsonPath, positions: Positions) -> list[Diagnostic]:
    def error(path: JsonPath, message: str, *, key: bool = True) -> Diagnostic:
        pos = positions.key(path) if key else positions.value(path)
        return Diagnostic.at(pos, message, path)

    if "event" not in pattern:
        known = all_field_names()
        return [
            error((*at, name), f"no event has a field '{name}'{suggest(name, known)}")
            for name in pattern
            if name not in known
        ]
    kind = pattern["event"]
    spec = spec_of(kind) if isinstance(kind, str) else None
    if spec is None:
        hint = suggest(str(kind), EVENTS)
        message = f"unknown event '{kind}'{hint} (the events are listed in docs/events.md)"
        return [error((*at, "event"), message, key=False)]
    fields = ", ".join(f.name for f in spec.fields)
    return [
        error(
            (*at, name),
            f"the event '{spec.kind}' has no field '{name}'{suggest(name, spec.names)} "
            f"(its fields: {fields})",
        )
        for name in pattern
        if name != "event" and spec.field(name) is None
    ]
