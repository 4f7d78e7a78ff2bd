"""Why an answer is refused, in words: a refusal's message key and fields, in a language.

The engine says why it refuses an answer as a message key and fields of ids and numbers
(``ckdsl.core.decisions.Refusal``: ``("refused_cost", {"cost": {"brick": 1}, ...})``);
this module writes it with a locale's ``messages.refused_*``, so the terminal and the web
table show it in the player's language and ``IllegalAnswer.reason`` in English. How a
field is shown follows from its name, as in the log (``ckdsl.l10n.events``): a player by
colour, goods counted, a piece, track, card or deck by its name, a decision by its
``decision_*`` message; ids of places and numbers as they are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from ckdsl.diagnostics import CkdslError
from ckdsl.l10n.catalog import REFERENCE, Catalog, load_catalog

PLAYER_FIELDS = frozenset({"player", "victim"})
"""Fields naming a player by colour id."""
GOODS_FIELDS = frozenset({"cost", "held", "goods", "need"})
"""Fields of goods: {good: amount}, written with the locale's `counted`."""


class Reason(Protocol):
    """A refusal as the engine gives it (``ckdsl.core.decisions.Refusal``)."""

    @property
    def key(self) -> str: ...

    @property
    def fields(self) -> Mapping[str, Any]: ...


class Refused(Protocol):
    """A refused answer (``ckdsl.core.decisions.IllegalAnswer``): why, as a key and
    fields when the engine knows it, and in English."""

    @property
    def refusal(self) -> Reason | None: ...

    @property
    def reason(self) -> str: ...


def render(catalog: Catalog, key: str, fields: Mapping[str, Any]) -> str:
    """The message ``key`` of ``catalog`` with ``fields`` written in its language."""
    values: dict[str, object] = {}
    count: int | None = None
    for name, value in fields.items():
        if name == "count" and isinstance(value, int):
            count = value
        else:
            values[name] = _shown(catalog, name, value)
    return catalog.message(key, count, **values)


def say(catalog: Catalog, refused: Refused) -> str:
    """Why ``refused`` was refused, in the catalog's language (in English when the engine
    gave a text rather than a key: a fault of the answer's own text, say)."""
    refusal = refused.refusal
    if refusal is None:
        return refused.reason
    return render(catalog, refusal.key, refusal.fields)


_ENGLISH: list[Catalog] = []


def english(refusal: Reason) -> str:
    """The refusal in English (``IllegalAnswer.reason``); without a readable English locale
    (a broken install), its key and fields, never an error on top of the refusal."""
    try:
        if not _ENGLISH:
            _ENGLISH.append(load_catalog(REFERENCE))
        return render(_ENGLISH[0], refusal.key, refusal.fields)
    except (CkdslError, OSError):
        return f"{refusal.key} {dict(refusal.fields)}"


def _shown(catalog: Catalog, name: str, value: Any) -> object:
    """One field as the language writes it."""
    if name in PLAYER_FIELDS and isinstance(value, str):
        return catalog.name("colours", value)
    if name in GOODS_FIELDS and isinstance(value, Mapping):
        return ", ".join(catalog.counted(str(g), int(n)) for g, n in value.items())
    if not isinstance(value, str):
        return ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else value
    if name == "good":
        return catalog.good_name(value)
    if name == "piece":
        found = catalog.name("pieces", value)
        return found if found != value else catalog.name("knight_levels", value)
    if name == "level":
        found = catalog.name("knight_levels", value)
        return found if found != value else catalog.name("levels", value)
    if name in ("track", "deck"):
        return catalog.name(f"{name}s", value)
    if name == "card":
        return catalog.card_name(value)
    if name == "improvement":
        return catalog.name("levels", value)
    if name in ("decision", "asked"):
        return catalog.message(f"decision_{value}")
    if name == "reason" and _KEY.fullmatch(value) and catalog.has_message(value):
        return catalog.message(value)  # a rule's `require ... else "key"`: its words
    return value


_KEY = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")
"""A message key, as a `require ... else "..."` of a rule set may give one instead of a
text: the locales (or the variant's `names`) say it in each language."""
