"""Languages derived from another one's file rather than translated.

Serbian is written in two scripts, one to one, so Serbian in the Latin script (sr-Latn)
is the Cyrillic file transliterated, not a second translation to keep in step. Such a
language is still a file, ``rules/locales/<tag>.yaml``, so that it is found like any other
(no code lists languages); it holds no texts, only where they come from::

    language: sr-Latn
    derived: {from: sr, transliterate: serbian-cyrillic-to-latin}

A new one (Serbian Latin for a variant's other file, Uzbek Cyrillic from Latin, ...) is a
new file naming a transliteration ``TRANSLITERATIONS`` has: no code changes unless the
script pair itself is new.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from ckdsl.diagnostics import Diagnostic, JsonPath
from ckdsl.jsondata import JsonObject, JsonValue
from ckdsl.l10n.translit import to_latin_data
from ckdsl.rules.positions import Positions
from ckdsl.stamps import Stamp, StampedCache
from ckdsl.userfiles import UnsafeFile, read_user_bytes

SECTION = "derived"
"""The top-level key of a locale file that derives its language from another's."""

TRANSLITERATIONS: dict[str, Callable[[JsonValue], JsonValue]] = {
    "serbian-cyrillic-to-latin": to_latin_data,
}
"""The transliterations a derived language can name, each turning a locale's data (every
text in it; keys are ids and stay) into the other script."""

_OWN = ("language", SECTION)
"""The only keys a derived language's file has: its texts are its source's."""

# A top-level `derived:` key, found without parsing YAML: the languages are listed when
# ckdsl starts (the choices of --lang), where reading YAML would cost more than the rest.
_DECLARES = re.compile(r"^derived\s*:", re.MULTILINE)


@dataclass(frozen=True)
class Derivation:
    """Where a derived language's texts come from, and how they are turned."""

    source: str
    transliterate: str


_DECLARED: StampedCache[str, bool] = StampedCache(maxsize=64)


def declares(path: Path) -> bool:
    """Whether the locale file ``path`` derives its language from another's: read once
    while the file is unchanged."""

    def read() -> tuple[bool, tuple[Stamp, ...]]:
        stamp = Stamp.of(path)
        try:
            # Most files have no line that starts with `derived`: said from their bytes
            # (the same in UTF-8; a line may end in \n or \r, as read_text reads them)
            # without decoding and searching every language's file at each start.
            data = read_user_bytes(path)  # a FIFO or a device: refused, never waited on
            if not (data.startswith(b"derived") or b"\nderived" in data or b"\rderived" in data):
                return False, (stamp,)
            text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except (UnsafeFile, UnicodeDecodeError):
            return False, (stamp,)  # (the reading of the catalog says what is wrong)
        return _DECLARES.search(text) is not None, (stamp,)

    return _DECLARED.get(str(path.resolve()), read)


def derivation_of(data: JsonObject) -> Derivation | None:
    """The derivation a locale's data declares (None: it is translated, or the section is
    malformed, which the schema reports)."""
    section = data.get(SECTION)
    if not isinstance(section, dict):
        return None
    source, how = section.get("from"), section.get("transliterate")
    if isinstance(source, str) and isinstance(how, str):
        return Derivation(source, how)
    return None


def problems(
    data: JsonObject, positions: Positions, translated: Collection[str]
) -> list[Diagnostic]:
    """What keeps a derived language's file from working: a source that is no translated
    language (missing, or derived itself: one step only, so a chain cannot loop), a
    transliteration ckdsl does not know, or texts of its own (they would never show)."""
    found = derivation_of(data)
    if found is None:
        return []
    out = []

    def error(path: JsonPath, message: str, at_key: bool = False) -> None:
        where = positions.key(path) if at_key else positions.value(path)
        out.append(Diagnostic.at(where, message, path))

    if found.source not in translated:
        known = ", ".join(sorted(translated))
        error(
            (SECTION, "from"),
            f"no translated language '{found.source}' to derive from (translated: {known})",
        )
    if found.transliterate not in TRANSLITERATIONS:
        known = ", ".join(TRANSLITERATIONS)
        error(
            (SECTION, "transliterate"),
            f"unknown transliteration '{found.transliterate}' (known: {known})",
        )
    for key in data:
        if key not in _OWN:
            error(
                (key,),
                f"a derived language has no texts of its own: its '{key}' would never "
                f"show (they come from {found.source}.yaml; edit them there)",
                at_key=True,
            )
    return out


def derive(found: Derivation, data: JsonObject) -> JsonValue:
    """``data`` (the source language's) in the derived language."""
    return TRANSLITERATIONS[found.transliterate](data)
