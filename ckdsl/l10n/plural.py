"""CLDR plural categories, from Babel.

Messages that contain a count carry one text per plural category of their language:
English needs one/other, Polish one/few/many/other, Serbian one/few/other. Babel knows
each language's categories and which one a number falls in; we do not re-implement it.

Babel reads a language's CLDR data to answer (tens of milliseconds, more than a game's
log takes to print), so the categories of the counts 0 to ``TABLE - 1``, Babel's answers
all of them, are kept in the cache on disk (``ckdsl.rules.disk``, keyed by the installed
Babel too): printing a log then does not import Babel at all. Any other count is Babel's
to answer, as is everything when there is no cache folder.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ckdsl.paths import cache_dir

if TYPE_CHECKING:
    from babel import Locale

ORDER = ("zero", "one", "two", "few", "many", "other")

TABLE = 1000
"""Counts below this are answered from a table of Babel's answers (``_table``)."""


@cache
def _locale(language: str) -> Locale | None:
    from babel import Locale, UnknownLocaleError  # its data: only when Babel must answer

    try:
        return Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None


def categories(language: str) -> tuple[str, ...]:
    """The plural categories ``language`` uses, in CLDR order (``other`` always)."""
    loc = _locale(language)
    tags = set(loc.plural_form.tags) if loc is not None else set()
    tags.add("other")
    return tuple(c for c in ORDER if c in tags)


def category(language: str, count: int | float) -> str:
    """The plural category of ``count`` in ``language``."""
    if type(count) is int and 0 <= count < TABLE:
        table = _table(language)
        if table is not None:
            return table[count]
    return _babel_category(language, count)


def _babel_category(language: str, count: int | float) -> str:
    loc = _locale(language)
    if loc is None:
        return "one" if count == 1 else "other"
    return str(loc.plural_form(count))


@cache
def _table(language: str) -> tuple[str, ...] | None:
    """Babel's categories of 0 to ``TABLE - 1`` in ``language``, from the cache on disk or
    made and stored there; None without a cache folder (Babel answers each count)."""
    if cache_dir() is None:
        return None
    from ckdsl.rules import disk

    found = disk.load("plural", language)
    if found is not None and isinstance(found[0], tuple) and len(found[0]) == TABLE:
        return found[0]
    table = tuple(_babel_category(language, n) for n in range(TABLE))
    disk.store("plural", language, (), table)
    return table
