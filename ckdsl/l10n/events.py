"""The game log in words: each structured event rendered by a locale's messages.

The engine logs who did what with ids and numbers only (``{"event": "build", "player": 0,
"piece": "road", "at": 17}``); this module turns that into a sentence of any language,
so a saved game reads the same in all six.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ckdsl.l10n.catalog import Catalog

# Events too minor to print in the readable log (a modifier shows as the card played).
QUIET = frozenset({"end_turn", "modifier"})
PLAYER_FIELDS = frozenset({"player", "victim", "partner", "offerer", "previous", "viewer"})
GOODS_FIELDS = frozenset({"goods", "give", "get"})
COUNT_FIELDS = frozenset({"points", "turns"})
# Fields that only pick which message to use (``_variant``), never shown themselves.
SILENT_FIELDS = frozenset({"won", "damaged", "active"})


class EventRenderer:
    """Renders events for one game: the catalog, the players' colours, and how to name a
    place (edge ids are written as their two intersections, "12-13")."""

    def __init__(
        self, catalog: Catalog, colours: Sequence[str], place: Callable[[str, int], str]
    ) -> None:
        self.catalog = catalog
        self.colours = colours
        self.place = place

    def player(self, index: int) -> str:
        return self.catalog.name("colours", self.colours[index])

    def goods(self, amounts: dict[str, int]) -> str:
        return ", ".join(self.catalog.counted(good, n) for good, n in amounts.items())

    def level(self, level: str) -> str:
        """An improvement level's or a knight level's name."""
        name = self.catalog.name("levels", level)
        return name if name != level else self.catalog.name("knight_levels", level)

    def render(self, event: dict[str, Any]) -> str | None:
        """The sentence for ``event``, or None for an event the readable log leaves out."""
        kind = event["event"]
        if kind in QUIET:
            return None
        catalog = self.catalog
        count: int | None = None
        values: dict[str, Any] = {}
        for key, value in event.items():
            if key == "event" or key in SILENT_FIELDS:
                continue
            if key in PLAYER_FIELDS:
                values[key] = self.player(value) if value >= 0 else ""
            elif key in GOODS_FIELDS:
                values[key] = self.goods(value)
            elif key == "good":
                values[key] = catalog.good_name(value)
                values["goods"] = catalog.counted(value, 1)
            elif key == "piece":
                values[key] = catalog.name("pieces", value)
            elif key == "at":
                values[key] = self.place(event.get("piece", ""), value)
            elif key == "face":
                values["event"] = catalog.name("event_faces", value)
            elif key == "card":
                values[key] = catalog.card_name(value)
            elif key == "deck":
                values[key] = catalog.name("decks", value)
            elif key == "track":
                values[key] = catalog.name("tracks", value)
            elif key == "level":
                values[key] = self.level(value)
            elif key in COUNT_FIELDS:
                count = value
            else:
                values[key] = value
        return catalog.message(_variant(event), count, **values)


def _variant(event: dict[str, Any]) -> str:
    """The message key of ``event``: ``log_<kind>``, or a variant picked by a field."""
    kind = event["event"]
    if kind == "longest_road" and event["player"] < 0:
        return "log_longest_road_lost"
    if kind == "attack":
        return "log_attack_won" if event.get("won") else "log_attack_lost"
    if kind == "pillaged" and event.get("damaged"):
        return "log_pillaged_damaged"
    return f"log_{kind}"
