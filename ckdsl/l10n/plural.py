"""CLDR plural categories, from Babel.

Messages that contain a count carry one text per plural category of their language:
English needs one/other, Polish one/few/many/other, Serbian one/few/other. Babel knows
each language's categories and which one a number falls in; we do not re-implement it.
"""

from __future__ import annotations

from functools import cache

from babel import Locale, UnknownLocaleError

ORDER = ("zero", "one", "two", "few", "many", "other")


@cache
def _locale(language: str) -> Locale | None:
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
    loc = _locale(language)
    if loc is None:
        return "one" if count == 1 else "other"
    return str(loc.plural_form(count))
