"""The game log in words: each structured event rendered by a locale's messages.

The engine logs who did what with ids and numbers only (``{"event": "build", "player": 0,
"piece": "road", "at": 17}``); this module turns that into a sentence of any language,
so a saved game reads the same in all six. How each field is shown follows from its type
in the event schema (``ckdsl.events``): a player by colour, goods counted, ids by their
names, a flag not at all; which message tells an event is the schema's too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ckdsl.events import EVENTS, EventSpec, FieldSpec, FieldType, fields_of_type, spec_of
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
    """The ``{placeholders}`` a message telling this event may use."""
    names: set[str] = set()
    for f in spec.fields:
        names.update(_FILLS.get(f.type, (f.name,)))
        if f.type == "good":
            names.add("goods")
    return frozenset(names)


class EventRenderer:
    """Renders events for one game: the catalog, the players' colours, and how to name a
    place (edge ids are written as their two intersections, "12-13")."""

    def __init__(
        self, catalog: Catalog, colours: Sequence[str], place: Callable[[str, int], str]
    ) -> None:
        self.catalog = catalog
        self.colours = colours
        self.place = place
        self._fields: dict[str, Mapping[str, FieldSpec]] = {}  # event kind -> its fields
        self._players: dict[int, str] = {}

    def player(self, index: int) -> str:
        name = self._players.get(index)
        if name is None:
            name = self._players[index] = self.catalog.name("colours", self.colours[index])
        return name

    def goods(self, amounts: Mapping[str, int]) -> str:
        return ", ".join(self.catalog.counted(good, n) for good, n in amounts.items())

    def level(self, level: str) -> str:
        """An improvement level's or a knight level's name."""
        name = self.catalog.name("levels", level)
        return name if name != level else self.catalog.name("knight_levels", level)

    def render(self, event: Mapping[str, object]) -> str | None:
        """The sentence for ``event``, or None for an event the readable log leaves out.

        A field the schema does not know is passed to the message as it is."""
        kind = str(event.get("event"))
        spec = spec_of(kind)
        if spec is not None and spec.quiet:
            return None
        count: int | None = None
        values: dict[str, object] = {}
        fields = self._fields.get(kind)
        if fields is None:
            specs = spec.fields if spec is not None else ()
            fields = self._fields[kind] = {f.name: f for f in reversed(specs)}  # first wins
        for key, value in event.items():
            if key == "event":
                continue
            f = fields.get(key)
            if f is None:
                values[key] = value
            elif f.type == "count":
                count = value if isinstance(value, int) else None
            elif f.type != "flag":
                values.update(self._fill(f.type, key, value, event))
        message = spec.message_for(event) if spec is not None else None
        return self.catalog.message(message or f"log_{kind}", count, **values)

    def _fill(
        self, kind: FieldType, key: str, value: object, event: Mapping[str, object]
    ) -> dict[str, object]:
        """The placeholders one field fills (the value as it is when it has not the shape
        its type says: a masked id, say)."""
        catalog = self.catalog
        if kind == "stop" and isinstance(value, dict):  # the `reason`, in this language
            fields = {k: v for k, v in value.items() if k != "key"}
            return {"reason": catalog.message(str(value.get("key")), None, **fields)}
        if isinstance(value, int):
            if kind == "player":
                return {key: self.player(value) if value >= 0 else ""}
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


_NAMED: Mapping[FieldType, str] = {"piece": "pieces", "deck": "decks", "track": "tracks"}
"""Field types shown by their name in a ``names`` table of the locale."""
