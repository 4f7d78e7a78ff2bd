"""The game log in words: each structured event rendered by a locale's messages.

The engine logs who did what with ids and numbers only (``{"event": "build", "player": 0,
"piece": "road", "at": 17}``); this module turns that into a sentence of any language,
so a saved game reads the same in all six.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ckdsl.l10n.catalog import Catalog

# Events too minor to print in the readable log.
QUIET = frozenset({"end_turn"})


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

    def render(self, event: dict[str, Any]) -> str | None:
        """The sentence for ``event``, or None for an event the readable log leaves out."""
        kind = event["event"]
        if kind in QUIET:
            return None
        count: int | None = None
        values: dict[str, Any] = {}
        for key, value in event.items():
            if key == "event":
                continue
            if key in ("player", "victim", "partner", "offerer", "previous"):
                values[key] = self.player(value) if value >= 0 else ""
            elif key in ("goods", "give", "get"):
                values[key] = self.goods(value)
            elif key == "good":
                values[key] = self.catalog.good_name(value)
                values["goods"] = self.catalog.counted(value, 1)
            elif key == "piece":
                values[key] = self.catalog.name("pieces", value)
            elif key == "at":
                values[key] = self.place(event["piece"], value)
            elif key == "face":
                values["event"] = self.catalog.name("event_faces", value)
            elif key in ("points", "turns"):
                count = value
            else:
                values[key] = value
        if kind == "longest_road" and event["player"] < 0:
            kind = "longest_road_lost"
        return self.catalog.message(f"log_{kind}", count, **values)
