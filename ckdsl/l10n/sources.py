"""Which English each translation was made from, so a change in English shows.

A translation is right only for the English it was made from: when a card's English text
changes, its French text silently says something else. So each non-English locale file
records, under ``sources:`` at its end, a fingerprint of the English of every translated
entry (``cards.bishop.text: sha256:1f0c9a2e``). ``ckdsl l10n check`` compares them with the
English of today (an entry whose English changed is *outdated*, one without a
fingerprint *unverified*); ``ckdsl l10n update`` writes them (``ckdsl.l10n.update``).

A fingerprint is data the tool reads, not a comment: a YAML comment would be lost by any
tool that rewrites the file. Entries still ``""`` have none (nothing was translated yet).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

from ckdsl.jsondata import JsonValue

SECTION = "sources"
"""The top-level key of a locale file that holds the fingerprints."""

HEADER = (
    "# The English each translation above was made from, as a fingerprint of its text:",
    '# written by `ckdsl l10n update` (docs/l10n.md, "When the English changes"), not by hand.',
)
"""The comment written above a new ``sources:`` section."""


def fingerprint(english: JsonValue) -> str:
    """``sha256:`` and the first 8 hex digits of the sha256 of ``english`` as canonical
    JSON (plural forms as a dict with sorted keys): the same text always gives the same
    fingerprint, however the YAML writes it (folded, quoted, flow or block).

    Why the prefix: 8 bare hex digits can read as a number (``8556e704`` is a float in
    YAML 1.2, and a YAML 1.1 tool such as PyYAML writes it back unquoted); with it the
    value is a string whoever rewrites the file."""
    canonical = json.dumps(english, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:8]


@dataclass(frozen=True)
class Comparison:
    """A locale's recorded fingerprints against the English of today, by dotted key."""

    outdated: tuple[str, ...]
    """Translated entries whose English changed since their fingerprint was recorded."""
    unverified: tuple[str, ...]
    """Translated entries with no fingerprint: which English they translate is unknown."""
    unused: tuple[str, ...]
    """Fingerprints of no translated entry (an entry emptied, renamed or removed)."""


def compare(
    translated: Mapping[str, JsonValue],
    english: Mapping[str, JsonValue],
    recorded: Mapping[str, JsonValue],
) -> Comparison:
    """Compare the ``recorded`` fingerprints of a locale's ``translated`` entries with
    ``english`` (each by dotted key, in the locale's order). An entry English lacks has
    nothing to be compared with: ``l10n check`` reports it as extra already."""
    outdated, unverified = [], []
    for key in translated:
        if key not in english:
            continue
        if key not in recorded:
            unverified.append(key)
        elif recorded[key] != fingerprint(english[key]):
            outdated.append(key)
    unused = [key for key in recorded if key not in translated]
    return Comparison(tuple(outdated), tuple(unverified), tuple(unused))


def recorded_of(data: Mapping[str, JsonValue]) -> dict[str, JsonValue] | None:
    """A locale's ``sources:`` section, or None when it has none (``sources: {}`` is a
    section: a new language's, with nothing translated yet)."""
    section = data.get(SECTION)
    return dict(section) if isinstance(section, dict) else None
