"""Serbian Cyrillic to Latin script.

Serbian is written in both scripts with a one-to-one correspondence, so the Latin
locale (sr-Latn) is derived from the Cyrillic one rather than translated twice. The
three digraphs (Љ lj, Њ nj, Џ dž) are written LJ/NJ/DŽ inside a word in capitals.
"""

from __future__ import annotations

from ckdsl.jsondata import JsonValue

_LOWER = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "ђ": "đ", "е": "e", "ж": "ž",
    "з": "z", "и": "i", "ј": "j", "к": "k", "л": "l", "љ": "lj", "м": "m", "н": "n",
    "њ": "nj", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "ћ": "ć", "у": "u",
    "ф": "f", "х": "h", "ц": "c", "ч": "č", "џ": "dž", "ш": "š",
}  # fmt: skip


def to_latin(text: str) -> str:
    """Transliterate Serbian Cyrillic ``text``; other characters pass through."""
    out = []
    for i, ch in enumerate(text):
        low = ch.lower()
        latin = _LOWER.get(low)
        if latin is None:
            out.append(ch)
        elif ch == low:
            out.append(latin)
        elif len(latin) == 1 or not _in_capitals(text, i):
            out.append(latin[0].upper() + latin[1:])
        else:
            out.append(latin.upper())
    return "".join(out)


def _in_capitals(text: str, i: int) -> bool:
    """Whether the letter at ``i`` stands in a word written in capitals."""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    prev = text[i - 1] if i > 0 else ""
    if nxt.isalpha():
        return nxt.isupper()
    return prev.isalpha() and prev.isupper()


def to_latin_data(value: JsonValue) -> JsonValue:
    """Transliterate every text inside ``value`` (keys, which are ids, stay as they are)."""
    if isinstance(value, str):
        return to_latin(value)
    if isinstance(value, dict):
        return {k: to_latin_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_latin_data(v) for v in value]
    return value
