"""Filling a message template: ``{name}`` fields and nothing else.

Templates come from locale files and variants, which people share; ``str.format`` would
let a template read attributes (``{player.__class__.__mro__}``), index values or pad a
field to a gigabyte (``{total:>1000000000}``). Here a field is a plain name only, replaced
by its value's text; ``{{`` and ``}}`` are literal braces; anything else in braces is
left as it is written (and ``bad_fields`` reports it, so a check can say where).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_TOKEN = re.compile(r"\{\{|\}\}|\{(" + _NAME + r")\}|\{[^{}]*\}?")


def fill(template: str, values: Mapping[str, object]) -> str:
    """``template`` with each ``{name}`` of ``values`` replaced by its text; an unknown
    name stays visible as ``{name}``, a field that is not a plain name as written."""
    texts, names = parts(template)
    if not names:
        return texts[0]
    out = [texts[0]]
    for name, text in zip(names, texts[1:], strict=True):
        out.append(str(values[name]) if name in values else "{" + name + "}")
        out.append(text)
    return "".join(out)


@lru_cache(maxsize=4096)
def parts(template: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``template`` split once at its ``{name}`` fields (a log of thousands of lines fills
    a few dozen templates): the texts around the fields, ``{{`` and ``}}`` already read as
    braces and any other brace kept as written, and the fields' names between them
    (one text more than names)."""
    texts: list[str] = []
    names: list[str] = []
    text: list[str] = []
    at = 0
    for match in _TOKEN.finditer(template):
        text.append(template[at : match.start()])
        at = match.end()
        token = match[0]
        if token == "{{":
            text.append("{")
        elif token == "}}":
            text.append("}")
        elif match[1] is not None:
            texts.append("".join(text))
            names.append(match[1])
            text = []
        else:
            text.append(token)
    text.append(template[at:])
    texts.append("".join(text))
    return tuple(texts), tuple(names)


def fields(template: str) -> set[str]:
    """The plain ``{names}`` of ``template``."""
    return {m[1] for m in _TOKEN.finditer(template) if m[1] is not None}


def bad_fields(template: str) -> list[str]:
    """The braces of ``template`` that are neither a plain ``{name}`` nor ``{{``/``}}``:
    a format spec, an attribute, an index, an unclosed ``{``."""
    out = []
    for match in _TOKEN.finditer(template):
        token = match[0]
        if token not in ("{{", "}}") and match[1] is None:
            out.append(token)
    rest = _TOKEN.sub("", template)
    if "}" in rest:
        out.append("}")
    return out
