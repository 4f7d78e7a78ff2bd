"""A locale's glossary: the one word it uses for each concept of the game, and the others.

Translations drift: one card says "zasobów", the next "surowców"; the piece is the
"Mercador" and the card that places it the "Comerciante". Each word is right on its own,
so no reviewer of one entry sees it; the reader of the log does. A locale therefore
declares, under ``glossary:``, the word it chose for each concept and the words it does
not use for it::

    glossary:
      resource: {term: surowiec, avoid: [zasob, zasób]}

``ckdsl l10n check`` reports every text that uses an avoided word (kind ``glossary``).

How a text is matched, and why:

- An avoided word is a *stem*: it matches every word that starts with it, so one entry
  catches all inflected forms ("zasob" is "zasobów", "zasobami", ...). Case does not
  count; accents do ("ble" and "blé" are different stems, so French "blé" never catches
  "bleu").
- An avoided entry of several words is a phrase, each word a stem of the text's word at
  its place; a ``{placeholder}`` in it matches that placeholder only ("карт {card}"
  catches "Ефекат карте {card}" and not the counted "карте дрвета").
- ``allow`` lists stems that are fine although they start with an avoided one: Serbian
  avoids "карт" (a progress card is a "картица") phrase by phrase but allows "картиц".
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from ckdsl.jsondata import JsonObject, JsonValue

SECTION = "glossary"
"""The top-level key of a locale file that holds its glossary."""

# A placeholder stays one token, so a phrase can name it; a word is a run of letters
# and digits (apostrophes and hyphens split: "l'argile" is "l", "argile").
_TOKEN = re.compile(r"\{\w+\}|\w+")


@dataclass(frozen=True)
class Term:
    """One concept of a glossary: the word chosen for it and the words avoided."""

    concept: str
    term: str
    avoid: tuple[str, ...]
    """The avoided words and phrases as written in the locale (shown in findings)."""
    allow: tuple[str, ...] = ()

    def stems(self) -> list[tuple[str, ...]]:
        """Each avoided entry as its folded words."""
        return [tuple(fold(w) for w in _TOKEN.findall(entry)) for entry in self.avoid]


def fold(word: str) -> str:
    """``word`` as compared: composed (NFC, so a decomposed "ó" is the same letter) and
    case-folded."""
    return unicodedata.normalize("NFC", word).casefold()


def terms_of(data: JsonObject) -> list[Term]:
    """The glossary of a locale's data, in file order (none: an empty list)."""
    section = data.get(SECTION)
    out = []
    for concept, entry in (section if isinstance(section, dict) else {}).items():
        if not isinstance(entry, dict) or not isinstance(entry.get("term"), str):
            continue  # the schema reports it
        out.append(
            Term(
                concept,
                str(entry["term"]),
                _strings(entry.get("avoid")),
                _strings(entry.get("allow")),
            )
        )
    return out


def _strings(value: JsonValue) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def avoided_in(text: str, term: Term) -> str | None:
    """The first words of ``text`` that ``term`` avoids, as the text writes them, or None."""
    for start, end in _matches(text, term):
        return text[start:end]
    return None


def _matches(text: str, term: Term) -> Iterator[tuple[int, int]]:
    spans, words, starts = _words(text)
    phrases, allowed, firsts = _stems(term)
    if starts.isdisjoint(firsts):
        return  # no word of the text starts with a first stem of the term (most pairs)
    for i in range(len(words)):
        for phrase in phrases:
            if i + len(phrase) <= len(words) and all(
                _matches_stem(words[i + j], stem, allowed) for j, stem in enumerate(phrase)
            ):
                yield spans[i][0], spans[i + len(phrase) - 1][1]


# A check asks each text about every term of its glossary: the text's words and each term's
# stems are made once, not once per pair, and a pair none of whose words could match is
# passed over at once (this was most of `ckdsl l10n check`'s time).
@functools.lru_cache(maxsize=4096)
def _words(
    text: str,
) -> tuple[tuple[tuple[int, int], ...], tuple[str, ...], frozenset[str]]:
    """The spans of ``text``'s tokens, their folded words, and every start of those words
    (each prefix: the stems a word could match)."""
    tokens = list(_TOKEN.finditer(text))
    words = tuple(fold(t.group()) for t in tokens)
    starts = frozenset(w[:n] for w in words for n in range(1, len(w) + 1))
    return tuple(t.span() for t in tokens), words, starts


@functools.lru_cache(maxsize=1024)
def _stems(term: Term) -> tuple[list[tuple[str, ...]], list[str], frozenset[str]]:
    """The avoided entries of ``term`` as folded stems (the empty ones left out), its
    allowed stems folded, and the first stem of each entry."""
    phrases = [p for p in term.stems() if p]
    return phrases, [fold(a) for a in term.allow], frozenset(p[0] for p in phrases)


def _matches_stem(word: str, stem: str, allowed: list[str]) -> bool:
    if stem.startswith("{"):
        return word == stem  # a placeholder: itself only
    if word.startswith("{") or not word.startswith(stem):
        return False
    return not any(word.startswith(a) for a in allowed)
