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

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_TOKEN = re.compile(r"\{\{|\}\}|\{(" + _NAME + r")\}|\{[^{}]*\}?")


def fill(template: str, values: Mapping[str, object]) -> str:
    """``template`` with each ``{name}`` of ``values`` replaced by its text; an unknown
    name stays visible as ``{name}``, a field that is not a plain name as written."""

    def one(match: re.Match[str]) -> str:
        token = match[0]
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        name = match[1]
        if name is not None and name in values:
            return str(values[name])
        return token

    return _TOKEN.sub(one, template)


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
