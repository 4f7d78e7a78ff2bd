"""The game log in words: each structured event rendered by a locale's messages.

The engine logs who did what with ids and numbers only (``{"event": "build", "player": 0,
"piece": "road", "at": 17}``); this module turns that into a sentence of any language,
so a saved game reads the same in all six. How each field is shown follows from its type
in the event schema (``ckdsl.events``): a player by colour, goods counted, ids by their
names, a flag not at all; which message tells an event is the schema's too. An event the
schema marks ``run`` (a discard: one event per card) is told once per run of consecutive
such events by one player: "Red discards 4 cards: 2 brick, 1 wool, 1 ore".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from ckdsl.events import EVENTS, EventSpec, FieldType, fields_of_type, spec_of
from ckdsl.l10n.catalog import Catalog

# Events too minor to print in the readable log (a modifier shows as the card played).
QUIET = frozenset(kind for kind, spec in EVENTS.items() if spec.quiet)
PLAYER_FIELDS = fields_of_type("player")
GOODS_FIELDS = fields_of_type("goods")
COUNT_FIELDS = fields_of_type("count")
# Fields that only pick which message to use, never shown themselves.
SILENT_FIELDS = fields_of_type("flag")

_FILLS: Mapping[FieldType, tuple[str, ...]] = {
    "count": ("count",),
    "face": ("event",),
    "flag": (),
    "stop": ("reason",),
}
"""Placeholders a field of these types fills instead of its own name (a ``good`` fills
its name and ``goods``)."""


def placeholders(spec: EventSpec) -> frozenset[str]:
    """The ``{placeholders}`` a message telling this event may use: for a run, the
    player, the run's goods and their number (one good of it means nothing)."""
    if spec.run:
        return frozenset({"player", "goods", "count"})
    names: set[str] = set()
    for f in spec.fields:
        names.update(_FILLS.get(f.type, (f.name,)))
        if f.type == "good":
            names.add("goods")
    return frozenset(names)


Event = Mapping[str, object]


def runs(events: Iterable[Event]) -> Iterator[list[Event]]:
    """``events`` in groups: each run of consecutive events of a ``run`` kind by one
    player together (discards after a 7, player by player), every other event alone."""
    group: list[Event] = []
    for event in events:
        if group and _continues(group[-1], event):
            group.append(event)
            continue
        if group:
            yield group
        group = [event]
    if group:
        yield group


_RUNS = frozenset(kind for kind, spec in EVENTS.items() if spec.run)
"""The kinds of event told by runs."""


def _continues(last: Event, event: Event) -> bool:
    kind = event.get("event")
    return (
        str(kind) in _RUNS
        and last.get("event") == kind
        and last.get("player") == event.get("player")
    )


_Kind = tuple[EventSpec | None, Mapping[str, FieldType], str | None]
"""An event kind as the renderer uses it: its spec, the types of its fields by name (the
first of a name wins), and the key of its message when no field picks it."""


def _kind(kind: str) -> _Kind:
    spec = spec_of(kind)
    if spec is None:
        return None, {}, f"log_{kind}"
    first = {f.name: f.type for f in reversed(spec.fields)}
    messages = spec.messages
    told = (messages[0].key or f"log_{kind}") if messages and messages[0].when is None else None
    return spec, first, told


class EventRenderer:
    """Renders events for one game: the catalog, the players' colours, and how to name a
    place (edge ids are written as their two intersections, "12-13")."""

    def __init__(
        self,
        catalog: Catalog,
        colours: Sequence[str],
        place: Callable[[str, int], str],
        goods: Sequence[str] = (),
    ) -> None:
        self.catalog = catalog
        self.colours = colours
        self.place = place
        self._order = {good: i for i, good in enumerate(goods)}
        """The rule set's order of the goods, for the goods of a run."""
        self._kinds: dict[str, _Kind] = {}
        self._players: dict[int, str] = {}
        self._forms: dict[int, dict[str, str]] = {}
        self._player_fills: dict[tuple[str, int], Mapping[str, object]] = {}

    def player(self, index: int) -> str:
        name = self._players.get(index)
        if name is None:
            name = self._players[index] = self.catalog.name("colours", self.colours[index])
        return name

    def player_fills(self, key: str, index: int) -> Mapping[str, object]:
        """What a player field fills: ``{victim}``, and ``{victim_<form>}`` for each form
        of the player's name the language declares (``player_forms``: its cases). Made
        once per field and player, and shared: not to be changed."""
        fills = self._player_fills.get((key, index))
        if fills is None:
            forms = self._forms.get(index)
            if forms is None:
                forms = self._forms[index] = self.catalog.player_forms(self.colours[index])
            fills = {key: self.player(index), **{f"{key}_{form}": n for form, n in forms.items()}}
            self._player_fills[key, index] = fills
        return fills

    def goods(self, amounts: Mapping[str, int]) -> str:
        return ", ".join(self.catalog.counted(good, n) for good, n in amounts.items())

    def level(self, level: str) -> str:
        """An improvement level's or a knight level's name."""
        name = self.catalog.name("levels", level)
        return name if name != level else self.catalog.name("knight_levels", level)

    def lines(self, events: Iterable[Event]) -> list[str]:
        """The readable log of ``events``: a line per event it shows, a run (discards
        after a 7, player by player) in one line."""
        out = []
        for group in runs(events):
            line = self.render(group[0]) if len(group) == 1 else self.render_run(group)
            if line is not None:
                out.append(line)
        return out

    def render_run(self, events: Sequence[Event]) -> str:
        """The sentence for a run of events of one ``run`` kind by one player: their goods
        summed, in the rule set's order of the goods (any other as first given), and
        their number."""
        kind = str(events[0].get("event"))
        spec = spec_of(kind)
        amounts: dict[str, int] = {}
        for event in events:
            good = event.get("good")
            if isinstance(good, str):  # a masked one is counted, not named
                amounts[good] = amounts.get(good, 0) + 1
        order = self._order
        amounts = dict(sorted(amounts.items(), key=lambda item: order.get(item[0], len(order))))
        player = events[0].get("player")
        values = {
            "player": self.player(player) if isinstance(player, int) and player >= 0 else "",
            "goods": self.goods(amounts),
        }
        message = spec.message_for(events[0]) if spec is not None else None
        return self.catalog.message(message or f"log_{kind}", len(events), **values)

    def render(self, event: Mapping[str, object]) -> str | None:
        """The sentence for ``event``, or None for an event the readable log leaves out.

        A field the schema does not know is passed to the message as it is."""
        kind = str(event.get("event"))
        known = self._kinds.get(kind)
        if known is None:
            known = self._kinds[kind] = _kind(kind)
        spec, types, told = known
        if spec is not None and spec.quiet:
            return None
        if spec is not None and spec.run:
            return self.render_run([event])
        count: int | None = None
        values: dict[str, object] = {}
        for key, value in event.items():
            if key == "event":
                continue
            type_ = types.get(key)
            if type_ is None or type_ in _AS_IS:
                values[key] = value
            elif type_ == "count":
                count = value if isinstance(value, int) else None
            elif type_ != "flag":
                values.update(self._fill(type_, key, value, event))
        if told is None:  # the message depends on the event's fields
            told = (spec.message_for(event) if spec is not None else None) or f"log_{kind}"
        return self.catalog.message_with(told, count, values)

    def _fill(
        self, kind: FieldType, key: str, value: object, event: Mapping[str, object]
    ) -> Mapping[str, object]:
        """The placeholders one field fills (the value as it is when it has not the shape
        its type says: a masked id, say)."""
        catalog = self.catalog
        if kind == "stop" and isinstance(value, dict):  # the `reason`, in this language
            fields = {k: v for k, v in value.items() if k != "key"}
            return {"reason": catalog.message(str(value.get("key")), None, **fields)}
        if isinstance(value, int):
            if kind == "player":
                return self.player_fills(key, value) if value >= 0 else {key: ""}
            if kind in ("place", "intersection", "edge"):
                piece = event.get("piece") if kind == "place" else ""
                return {key: self.place("road" if kind == "edge" else str(piece or ""), value)}
        elif isinstance(value, dict) and kind == "goods":
            amounts = {str(g): n for g, n in value.items() if isinstance(n, int)}
            return {key: self.goods(amounts)}
        elif isinstance(value, str):
            if kind == "good":
                return {key: catalog.good_name(value), "goods": catalog.counted(value, 1)}
            if kind == "face":
                return {"event": catalog.name("event_faces", value)}
            if kind in _NAMED:
                return {key: catalog.name(_NAMED[kind], value)}
            if kind == "card":
                return {key: catalog.card_name(value)}
            if kind in ("level", "knight_level"):
                return {key: self.level(value)}
        return {key: value}


_AS_IS: frozenset[FieldType] = frozenset({"cards", "number", "tile", "text"})
"""Field types whose value a message shows as it is (``_fill`` has no case for them)."""

_NAMED: Mapping[FieldType, str] = {
    "piece": "pieces",
    "deck": "decks",
    "track": "tracks",
    "action": "actions",  # a variant's own, named in its `names:` (the id if not)
    "hook": "hooks",
    "title": "titles",
}
"""Field types shown by their name in a ``names`` table of the locale."""
