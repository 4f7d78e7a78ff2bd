"""The events a game logs and the fields of each: one schema for every reader of the log.

The engine logs every change as plain data, ``{"event": "build", "player": 0, "piece":
"road", "at": 17}`` (``Game.log``). Several readers depend on the exact fields: the
locales' messages (``ckdsl.l10n.events`` renders them, ``ckdsl l10n check`` checks their
placeholders), scenario files (``log:`` expectations name events and fields), the views
(which fields are secret) and the reference page ``docs/events.md``. They used to keep
their own lists of field names, which drifted apart; now each derives what it needs
from :data:`EVENTS`, and a test plays games and checks every logged event against it.

This module is at the bottom of the layers (it imports nothing from ckdsl), so the engine,
the DSL, the locales and the scenarios can all use it; ``Game.log`` takes an
:data:`EventKind`, and :func:`is_event_kind` narrows a name computed at run time.
``python -m ckdsl.events > docs/events.md`` regenerates the reference page.
"""

from __future__ import annotations

import sys
from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, TypeAlias, TypeGuard, get_args

EventKind = Literal[
    # the game
    "turn",
    "roll",
    "produce",
    "shortage",
    "discard",
    "robber",
    "steal",
    "build",
    "bank_trade",
    "offer",
    "accept",
    "decline",
    "trade",
    "trade_cancelled",
    "longest_road",
    "title",
    "end_turn",
    "win",
    "unfinished",
    # Cities & Knights
    "barbarians",
    "attack",
    "defender",
    "defender_none_left",
    "robber_unlocked",
    "pillaged",
    "metropolis",
    "improve",
    "knight",
    "knight_removed",
    "activate",
    "deactivate",
    "promote",
    "move_knight",
    "displace",
    "chase",
    "draw",
    "reveal",
    "deck_empty",
    "discard_card",
    "play",
    "give",
    "pay",
    "removed",
    "merchant",
    "swap",
    "dice_set",
    "reveal_hand",
    "seize",
    "modifier",
    "action",
    # an effect that stopped on a fault
    "card_failed",
    "level_failed",
    "hook_failed",
    "action_failed",
]
"""Every kind of event the engine logs (the ``event`` of an event)."""

EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)
"""The event kinds, in the order of :data:`EventKind`."""

FieldType = Literal[
    "player",
    "cards",
    "goods",
    "good",
    "count",
    "number",
    "intersection",
    "edge",
    "place",
    "tile",
    "piece",
    "card",
    "deck",
    "track",
    "level",
    "knight_level",
    "face",
    "flag",
    "text",
    "action",
    "hook",
    "title",
    "stop",
]
"""What a field holds: the renderer, the scenario matcher and the checks act on this."""

FIELD_TYPES: Mapping[FieldType, str] = MappingProxyType(
    {
        "player": "a player's seat, 0 to players - 1 (-1, nobody, only where the field says "
        "so); scenarios write the colour, and `null` for nobody",
        "goods": 'amounts by resource or commodity id: `{"brick": 2, "coin": 1}`',
        "good": "one resource or commodity id",
        "count": "a whole number that picks the plural form of the message (`{count}`)",
        "number": "a whole number",
        "intersection": "an intersection id, as `ckdsl board --svg` numbers them",
        "edge": 'an edge id; scenarios write it as its two intersections, `"12-13"`',
        "place": "an intersection id, or an edge id when the event's `piece` is a road "
        '(scenarios write an edge as `"12-13"`)',
        "tile": "a tile id, as `ckdsl board --svg` numbers them",
        "piece": "a piece id of the rule set (`road`, `settlement`, `city`, `city_wall`, ...)",
        "card": "a progress card id",
        "cards": "progress card ids, as a list",
        "deck": "a progress deck id",
        "track": "an improvement track id",
        "level": "an improvement level id",
        "knight_level": "a knight level id",
        "face": "a face of the event die",
        "flag": "`true` or `false`: picks which message tells the event, never shown itself",
        "text": "free text",
        "action": "an action id of the rule set (`actions:`)",
        "hook": "a hook of the rule set (`hooks:`)",
        "title": "a title of the rule set (`titles:`)",
        "stop": "why an effect stopped, for the reader's language: a message key of the "
        'locales and what it names (`{"key": "stop_no_edge", "value": 99, "last": 71}`)',
    }
)
"""Each field type, described for the reference page."""

Group = Literal["game", "cities_and_knights", "fault"]

GROUPS: Mapping[Group, str] = MappingProxyType(
    {
        "game": "The game",
        "cities_and_knights": "Cities & Knights",
        "fault": "Effects that stop on a fault",
    }
)
"""The sections of the reference page."""

NOBODY = -1
"""The ``player`` of an event nobody in particular caused (the engine's ``NOBODY``)."""

EDGE_PIECES = frozenset({"road"})
"""Pieces that stand on an edge: a ``place`` field of an event with such a ``piece`` is
an edge, any other ``place`` an intersection."""


@dataclass(frozen=True)
class FieldSpec:
    """One field of an event.

    ``nobody``: a ``player`` field that may be -1 (nobody). ``secret``: only the event's
    player sees the value (and the player named by the field ``shared_with``); the others'
    views show it masked. ``optional``: the field may be absent."""

    name: str
    type: FieldType
    doc: str
    optional: bool = False
    nobody: bool = False
    secret: bool = False
    shared_with: str | None = None


Condition: TypeAlias = "tuple[str, bool | int | str]"
"""A message's condition: the field and the value it must have."""


@dataclass(frozen=True)
class Message:
    """A locale message (``messages.<key>``) that tells an event; with ``when``, only when
    that field has that value (the first message whose condition holds is used)."""

    key: str
    when: Condition | None = None


@dataclass(frozen=True)
class EventSpec:
    """One kind of event: what it means, its fields (``player`` first) and its messages.

    ``quiet``: the readable log leaves it out (a modifier shows as the card that granted
    it), so its messages may be missing.

    ``run``: the event is one of a run (a discard after a 7 is one answer per card), and
    the readable log tells each run of consecutive such events by one player in one line:
    its message fills ``{goods}`` with the ``good`` fields of the whole run, counted, and
    ``{count}`` with their number (a lone event is a run of one). The events themselves
    stay one per answer, so a save, a replay and a scenario's ``log:`` see each card."""

    kind: EventKind
    group: Group
    doc: str
    fields: tuple[FieldSpec, ...]
    messages: tuple[Message, ...]
    quiet: bool = False
    run: bool = False

    @property
    def names(self) -> frozenset[str]:
        """The names of the fields (``event`` itself is not a field)."""
        return frozenset(f.name for f in self.fields)

    def field(self, name: str) -> FieldSpec | None:
        """The field ``name``, or None if the event has none."""
        return next((f for f in self.fields if f.name == name), None)

    def message_for(self, event: Mapping[str, object]) -> str | None:
        """The key of the message that tells ``event`` (None: the event has none)."""
        for message in self.messages:
            if message.when is None or event.get(message.when[0]) == message.when[1]:
                return message.key
        return None


def _player(doc: str, *, nobody: bool = False) -> FieldSpec:
    return FieldSpec("player", "player", doc, nobody=nobody)


def _event(
    kind: EventKind,
    group: Group,
    doc: str,
    player: FieldSpec | str,
    *fields: FieldSpec,
    messages: tuple[Message, ...] | None = None,
    quiet: bool = False,
    run: bool = False,
) -> EventSpec:
    """An event spec; its message is ``log_<kind>`` unless ``messages`` says otherwise."""
    first = _player(player) if isinstance(player, str) else player
    if messages is None:
        messages = (Message(f"log_{kind}"),)
    return EventSpec(kind, group, doc, (first, *fields), messages, quiet, run)


# Fields several events share.
_AT = FieldSpec("at", "intersection", "the intersection")
_KNIGHT_AT = FieldSpec("at", "intersection", "the knight's intersection")
_PLACE = FieldSpec("at", "place", "where: an intersection, or an edge for a road")
_GIVE = FieldSpec("give", "goods", "what the player gives")
_GET = FieldSpec("get", "goods", "what the player gets")
_CARD = FieldSpec("card", "card", "the progress card")
_DECK = FieldSpec("deck", "deck", "the deck")
_TRACK = FieldSpec("track", "track", "the improvement track")
_OFFERER = FieldSpec("offerer", "player", "who made the offer")
_LINE = FieldSpec("line", "number", "the line of the effect where it stopped (0: before any)")
_REASON = FieldSpec("reason", "text", "why it stopped, in English")
_STOP = FieldSpec("stop", "stop", "why it stopped, as the reader's language says it (the "
                  "`reason` in the log's words)", optional=True)  # fmt: skip

_G: Group = "game"
_CK: Group = "cities_and_knights"
_F: Group = "fault"

_SPECS = (
    # --- the game ------------------------------------------------------------------------
    _event(
        "turn", _G, "A turn begins.", "whose turn it is",
        FieldSpec("turn", "number", "the turn's number, from 1"),
    ),
    _event(
        "roll", _G, "The dice are rolled.", "who rolled",
        FieldSpec("white", "number", "the white die"),
        FieldSpec("red", "number", "the red die"),
        FieldSpec("face", "face", "the event die"),
        FieldSpec("total", "number", "white + red"),
    ),
    _event(
        "produce", _G,
        "A player receives goods: production, the second setup piece, gold, an effect.",
        "who receives them",
        FieldSpec("goods", "goods", "what they receive"),
    ),
    _event(
        "shortage", _G, "The bank cannot pay a good to everyone owed it: nobody receives it.",
        _player("nobody (-1)", nobody=True),
        FieldSpec("good", "good", "the good the bank is short of"),
    ),
    _event(
        "discard", _G, "A player over the hand limit discards one card after a 7 (or "
        "an effect makes them discard: `discard`, docs/dsl.md).",
        "who discards",
        FieldSpec("good", "good", "the card discarded"),
        run=True,
    ),
    _event(
        "robber", _G, "The robber moves.", "who moves it",
        FieldSpec("tile", "tile", "the robber's new tile"),
    ),
    _event(
        "steal", _G, "A player steals a card from another.", "the thief",
        FieldSpec("victim", "player", "who is robbed"),
        FieldSpec("good", "good", "the card taken", secret=True, shared_with="victim"),
        # The thief and the victim are told which card (the others read it masked: "?").
        messages=(Message("log_steal", when=("good", "?")), Message("log_steal_seen")),
    ),
    _event(
        "build", _G, "A piece is built (or placed in setup).", "the builder",
        FieldSpec("piece", "piece", "the piece"),
        _PLACE,
    ),
    _event(
        "bank_trade", _G, "A trade with the bank, a harbor, the merchant or a modifier.",
        "who trades", _GIVE, _GET,
    ),
    _event("offer", _G, "A player offers a trade to the others.", "the offerer", _GIVE, _GET),
    _event("accept", _G, "A player accepts an offer.", "who accepts", _OFFERER),
    _event("decline", _G, "A player declines an offer.", "who declines", _OFFERER),
    _event(
        "trade", _G, "An offer is carried out with one of the players who accepted it.",
        "the offerer",
        FieldSpec("partner", "player", "the player traded with"),
        _GIVE, _GET,
    ),
    _event("trade_cancelled", _G, "The offerer withdraws an offer.", "the offerer"),
    _event(
        "longest_road", _G, "The longest road changes hands, or is lost by everyone.",
        _player("the new holder; -1 when nobody holds it any more", nobody=True),
        FieldSpec("previous", "player", "the previous holder (-1: nobody)", nobody=True),
        FieldSpec("length", "number", "the longest road's length"),
        messages=(Message("log_longest_road_lost", ("player", NOBODY)),
                  Message("log_longest_road")),
    ),
    _event(
        "title", _G,
        "A title the rule set declares in data (`titles:` with a `score`) changes hands, or "
        "is lost by everyone.",
        _player("the new holder; -1 when nobody holds it any more", nobody=True),
        FieldSpec("title", "title", "the title"),
        FieldSpec("previous", "player", "the previous holder (-1: nobody, or several)",
                  nobody=True),
        messages=(Message("log_title_lost", ("player", NOBODY)), Message("log_title")),
    ),
    _event("end_turn", _G, "A player ends the turn.", "whose turn it was", quiet=True),
    _event(
        "win", _G, "A player wins.", "the winner",
        FieldSpec("points", "count", "the winner's victory points"),
    ),
    _event(
        "unfinished", _G,
        "The game stops unfinished: at the turn limit, or past a budget (a turn, or the "
        "game, that asks for answers or logs events without end).",
        _player("nobody (-1)", nobody=True),
        FieldSpec("turns", "count", "the turns played"),
        FieldSpec("limit", "text",
                  "the parameter reached: `turn_limit`, `turn_decision_limit`, "
                  "`game_decision_limit` or `game_event_limit`", optional=True),
        FieldSpec("budget", "flag", "whether a budget (of decisions, or of the log) stopped it",
                  optional=True),
        messages=(Message("log_unfinished_budget", ("budget", True)),
                  Message("log_unfinished")),
    ),
    # --- Cities & Knights ----------------------------------------------------------------
    _event(
        "barbarians", _CK, "The barbarian ship advances.", "whose roll moved it",
        FieldSpec("position", "number", "the ship's new position on its track"),
    ),
    _event(
        "attack", _CK, "The barbarians attack.", "whose roll brought them",
        FieldSpec("strength", "number", "the barbarians' strength"),
        FieldSpec("defence", "number", "the strength of the active knights"),
        FieldSpec("won", "flag", "whether the defence repelled them"),
        messages=(Message("log_attack_won", ("won", True)), Message("log_attack_lost")),
    ),
    _event(
        "defender", _CK, "A player, the best defender, gets a Defender of Catan card.",
        "the defender",
    ),
    _event(
        "defender_none_left", _CK,
        "The best defender gets nothing: no Defender of Catan card is left.", "the defender",
    ),
    _event(
        "robber_unlocked", _CK, "The robber may move from now on (after the first attack).",
        "whose turn it is",
    ),
    _event(
        "pillaged", _CK, "The barbarians take a city: it becomes a settlement.",
        "the city's owner",
        _AT,
        FieldSpec("damaged", "flag",
                  "no settlement was left to replace it: it stays, damaged"),
        messages=(Message("log_pillaged_damaged", ("damaged", True)), Message("log_pillaged")),
    ),
    _event(
        "metropolis", _CK, "A metropolis is placed on a city.", "the city's owner",
        _TRACK, _AT,
    ),
    _event(
        "improve", _CK, "A player improves a city improvement track by one level.",
        "who improves", _TRACK,
        FieldSpec("level", "level", "the level reached"),
    ),
    _event(
        "knight", _CK, "A knight is placed.", "the knight's owner",
        _KNIGHT_AT,
        FieldSpec("level", "knight_level", "its level"),
        FieldSpec("active", "flag", "whether it is placed active"),
    ),
    _event(
        "knight_removed", _CK, "A knight leaves the board.", "its owner",
        _KNIGHT_AT,
        FieldSpec("level", "knight_level", "its level"),
    ),
    _event("activate", _CK, "A knight is activated.", "its owner", _KNIGHT_AT),
    _event("deactivate", _CK, "A knight is made inactive by an effect.", "its owner", _KNIGHT_AT),
    _event(
        "promote", _CK, "A knight is promoted.", "its owner", _KNIGHT_AT,
        FieldSpec("level", "knight_level", "its new level"),
    ),
    _event(
        "move_knight", _CK, "A knight moves along its owner's network.", "its owner",
        FieldSpec("at", "intersection", "where it was"),
        FieldSpec("to", "intersection", "where it goes"),
    ),
    _event(
        "displace", _CK,
        "A knight is displaced: by a stronger knight, or by an effect (then `at` and `to` "
        "are both the displaced knight's intersection).",
        "who displaces it",
        FieldSpec("at", "intersection", "where the displacing knight was"),
        FieldSpec("to", "intersection", "the displaced knight's intersection"),
        FieldSpec("victim", "player", "the displaced knight's owner"),
    ),
    _event("chase", _CK, "A knight chases the robber away.", "its owner", _KNIGHT_AT),
    _event(
        "draw", _CK, "A player draws a progress card.", "who draws", _DECK,
        FieldSpec("card", "card", "the card drawn", secret=True),
    ),
    _event(
        "reveal", _CK, "A card drawn is shown at once (a points card).", "who drew it", _CARD,
    ),
    _event(
        "deck_empty", _CK, "A player would draw from a deck that has no card left.",
        "who would draw", _DECK,
    ),
    _event(
        "discard_card", _CK, "A player over the progress-card limit discards one.",
        "who discards",
        FieldSpec("card", "card", "the card discarded", secret=True),
    ),
    _event("play", _CK, "A progress card is played.", "who plays it", _CARD),
    _event(
        "give", _CK, "An effect makes a player give goods to another.", "the giver",
        FieldSpec("partner", "player", "who receives them"),
        FieldSpec("goods", "goods", "what is given"),
    ),
    _event(
        "pay", _CK, "An effect makes a player pay goods to the bank.", "who pays",
        FieldSpec("goods", "goods", "what is paid"),
    ),
    _event(
        "removed", _CK, "An effect removes a piece from the board.", "the piece's owner",
        FieldSpec("piece", "piece", "the piece"),
        _PLACE,
    ),
    _event(
        "merchant", _CK, "The merchant is placed.", "who places it",
        FieldSpec("tile", "tile", "its tile"),
    ),
    _event(
        "swap", _CK, "The number tokens of two tiles are swapped.", "who swaps them",
        FieldSpec("tile", "tile", "one tile"),
        FieldSpec("other", "tile", "the other tile"),
    ),
    _event(
        "dice_set", _CK, "The next roll's white and red dice are set by an effect.",
        "who sets them",
        FieldSpec("white", "number", "the white die"),
        FieldSpec("red", "number", "the red die"),
    ),
    _event(
        "reveal_hand", _CK, "A player shows their progress cards to another.",
        "who shows them",
        FieldSpec("viewer", "player", "who sees them"),
        FieldSpec("cards", "cards", "the cards shown", secret=True, shared_with="viewer"),
    ),
    _event(
        "seize", _CK, "A player takes a progress card from another's hand.", "who takes it",
        FieldSpec("victim", "player", "whose card it was"),
        FieldSpec("card", "card", "the card", secret=True, shared_with="victim"),
    ),
    _event(
        "modifier", _CK, "A player is granted a modifier (a trade rate, a discount, a price).",
        "who gets it",
        FieldSpec("kind", "text", "the modifier: `rate`, `discount` or `price`"),
        messages=(),
        quiet=True,
    ),
    _event(
        "action", _CK, "A player takes an action of the rule set.", "who takes it",
        FieldSpec("action", "action", "the action"),
    ),
    # --- faults --------------------------------------------------------------------------
    _event(
        "card_failed", _F, "A progress card's effect stops on a fault.",
        _player("who played it", nobody=True),
        _CARD, _LINE, _REASON, _STOP,
    ),
    _event(
        "level_failed", _F, "An improvement level's ability stops on a fault.",
        _player("whose ability it is", nobody=True),
        FieldSpec("level", "level", "the level"),
        _LINE, _REASON, _STOP,
    ),
    _event(
        "hook_failed", _F,
        "A hook of the rule set stops on a fault (or does not run: too many hooks ran in one "
        "step).",
        _player("the hook's player", nobody=True),
        FieldSpec("hook", "hook", "the hook"),
        _LINE, _REASON, _STOP,
    ),
    _event(
        "action_failed", _F, "An action of the rule set stops on a fault.",
        _player("who took it", nobody=True),
        FieldSpec("action", "action", "the action"),
        _LINE, _REASON, _STOP,
    ),
)  # fmt: skip

EVENTS: Mapping[EventKind, EventSpec] = MappingProxyType({s.kind: s for s in _SPECS})
"""Every event kind's spec, in the order of :data:`EventKind`."""


def is_event_kind(name: str) -> TypeGuard[EventKind]:
    """Whether ``name`` is an event kind (narrows a computed name to :data:`EventKind`)."""
    return name in EVENTS


def spec_of(kind: str) -> EventSpec | None:
    """The spec of the event ``kind``, or None for a name that is no event."""
    return EVENTS.get(kind) if is_event_kind(kind) else None


def fields_of_type(*types: FieldType) -> frozenset[str]:
    """The names of the fields of these types, in any event."""
    return frozenset(f.name for s in EVENTS.values() for f in s.fields if f.type in types)


def all_field_names() -> frozenset[str]:
    """Every field name some event has."""
    return frozenset(f.name for s in EVENTS.values() for f in s.fields)


def place_type(event: Mapping[str, object]) -> Literal["intersection", "edge"]:
    """What a ``place`` field of ``event`` is: an edge when its ``piece`` is a road."""
    return "edge" if event.get("piece") in EDGE_PIECES else "intersection"


def secret_fields() -> dict[EventKind, tuple[str, str | None]]:
    """For each event with a secret field: the field, and the field naming the other
    player who sees it (None: only the event's player). The views mask the rest."""
    out: dict[EventKind, tuple[str, str | None]] = {}
    for kind, event in EVENTS.items():
        for f in event.fields:
            if f.secret:
                out[kind] = (f.name, f.shared_with)
    return out


# --- checking an event against the schema ------------------------------------------------


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_SHAPES: Mapping[FieldType, str] = MappingProxyType(
    {
        "player": "a whole number",
        "goods": "a mapping of good ids to whole numbers",
        "count": "a whole number, 0 or more",
        "number": "a whole number",
        "intersection": "a whole number, 0 or more",
        "edge": "a whole number, 0 or more",
        "place": "a whole number, 0 or more",
        "tile": "a whole number, 0 or more",
        "flag": "true or false",
        "cards": "a list of progress card ids",
        "stop": "a mapping with a message key (`key`) and its fields",
    }
)
"""The JSON shape of each field type that is not an id (ids are texts)."""


def _fits(kind: FieldType, value: object) -> bool:
    """Whether ``value`` has the JSON shape of the field type ``kind``."""
    if kind in ("player", "number"):
        return _whole(value)
    if kind in ("count", "intersection", "edge", "place", "tile"):
        return isinstance(value, int) and _whole(value) and value >= 0
    if kind == "goods":
        return isinstance(value, dict) and all(
            isinstance(k, str) and _whole(v) for k, v in value.items()
        )
    if kind == "flag":
        return isinstance(value, bool)
    if kind == "cards":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "stop":
        return isinstance(value, dict) and isinstance(value.get("key"), str)
    return isinstance(value, str)


def problems(
    event: Mapping[str, object], known: Mapping[FieldType, Container[object]] | None = None
) -> list[str]:
    """What is wrong with ``event`` by the schema: an unknown kind, a missing or unknown
    field, a value of the wrong shape, or (given ``known``: the valid values of some field
    types, like the players' seats or the rule set's card ids) an unknown id. Empty when
    the event is right."""
    kind = event.get("event")
    if not isinstance(kind, str) or not is_event_kind(kind):
        return [f"unknown event {kind!r}"]
    spec = EVENTS[kind]
    out = [
        f"{kind}: unknown field '{name}'"
        for name in event
        if name != "event" and name not in spec.names
    ]
    for f in spec.fields:
        if f.name not in event:
            if not f.optional:
                out.append(f"{kind}: missing field '{f.name}'")
            continue
        value = event[f.name]
        if not _fits(f.type, value):
            shape = _SHAPES.get(f.type, "a text (an id)")
            out.append(f"{kind}: '{f.name}' should be {shape} ({f.type}), found {value!r}")
            continue
        out += _unknown_ids(event, kind, f, value, known or {})
    return out


def _unknown_ids(
    event: Mapping[str, object],
    kind: str,
    f: FieldSpec,
    value: object,
    known: Mapping[FieldType, Container[object]],
) -> list[str]:
    if f.type == "player":
        if value == NOBODY and f.nobody:
            return []
        valid = known.get("player")
        if value == NOBODY or (valid is not None and value not in valid):
            return [f"{kind}: '{f.name}' is no player ({value!r})"]
        return []
    values: list[object] = [value]
    what: FieldType = f.type
    if f.type == "goods" and isinstance(value, dict):
        values, what = list(value), "good"
    elif f.type == "cards" and isinstance(value, list):
        values, what = list(value), "card"
    elif f.type == "place":
        what = place_type(event)
    valid = known.get(what)
    if valid is None:
        return []
    return [f"{kind}: '{f.name}' is no {what} ({v!r})" for v in values if v not in valid]


# --- the reference page ------------------------------------------------------------------

REGENERATE = "python -m ckdsl.events > docs/events.md"
"""The command that writes the reference page from this schema."""


def markdown() -> str:
    """The reference page of the log (``docs/events.md``), generated from the schema."""
    return "\n".join(_page()) + "\n"


def _page() -> Iterator[str]:
    yield "# The events of the log"
    yield ""
    yield (f"<!-- Generated from ckdsl/events.py by `{REGENERATE}`: do not edit by hand. -->")
    yield ""
    yield (
        "A game logs every change as plain data, in `game.events`: "
        '`{"event": "build", "player": 0, "piece": "road", "at": 17}`. '
        "`event` is the kind of event, `player` is always there (who did it, or -1 for "
        "nobody where the event says so), and the other fields depend on the kind. "
        "`ckdsl play --json` prints a game's whole log in this shape."
    )
    yield ""
    yield (
        "This page is generated from the schema in `ckdsl/events.py`, which every reader of "
        "the log shares: the readable log (`ckdsl.l10n.events` fills each locale's "
        "`messages.log_*` with the fields), `ckdsl l10n check` (every event has its "
        "messages, naming only its fields), scenario files (a `log:` expectation naming an "
        "unknown event or field is an error: [scenarios.md](scenarios.md)) and the views "
        "(secret fields are masked for the other players). A test plays games of the base "
        "rules and of every example variant and checks every event logged against it."
    )
    yield ""
    yield "## Field types"
    yield ""
    yield "| type | value |"
    yield "|---|---|"
    for kind, doc in FIELD_TYPES.items():
        yield f"| `{kind}` | {doc} |"
    yield ""
    yield (
        "A message's `{placeholders}` are the event's fields, written as the locale names "
        "them, with three exceptions: a `count` field fills `{count}` (and picks the plural "
        "form), a `face` field fills `{event}`, and a `good` field also fills `{goods}` "
        "(one of it, counted). A `flag` field is never shown."
    )
    for group, title in GROUPS.items():
        yield ""
        yield f"## {title}"
        for event in EVENTS.values():
            if event.group == group:
                yield from _section(event)


def _section(event: EventSpec) -> Iterator[str]:
    yield ""
    yield f"### `{event.kind}`"
    yield ""
    yield event.doc
    yield ""
    yield "| field | type | meaning |"
    yield "|---|---|---|"
    for f in event.fields:
        notes = []
        if f.optional:
            notes.append("optional")
        if f.secret:
            seen = (
                f"the player and the `{f.shared_with}` see" if f.shared_with else "the player sees"
            )
            notes.append(f"secret: only {seen} it")
        extra = f" ({'; '.join(notes)})" if notes else ""
        yield f"| `{f.name}` | {f.type} | {f.doc}{extra} |"
    yield ""
    if event.quiet:
        yield "Left out of the readable log."
        yield ""
    if event.run:
        yield (
            "The readable log tells consecutive events of this kind by one player in one "
            "line: its message fills `{goods}` with the whole run's goods, counted, and "
            "`{count}` with their number (and picks the plural form)."
        )
        yield ""
    if event.messages:
        told = []
        for m in event.messages:
            when = ""
            if m.when is not None:
                value = "true" if m.when[1] is True else str(m.when[1]).lower()
                when = f" when `{m.when[0]}` is {value}"
            told.append(f"`messages.{m.key}`{when}")
        yield "Told by " + ", otherwise ".join(told) + "."
    else:
        yield "No message."


if __name__ == "__main__":
    sys.stdout.write(markdown())
