"""Where a token of an effect stands in its YAML file.

An effect is a YAML string; the parser counts lines and columns in the string. To point a
house-rule author at the exact token, we map them back through the scalar's style: in a
block scalar (``effect: |``) line n of the effect is the n-th line after the ``|`` and
columns shift by the block's indentation; in a quoted or plain one-line scalar columns
shift by where the value starts (and the opening quote).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ckdsl.diagnostics import Diagnostic, JsonPath, Pos
from ckdsl.dsl.errors import DslError


@lru_cache(maxsize=64)
def _lines(file: str, stamp: float) -> tuple[str, ...]:
    try:
        return tuple(Path(file).read_text(encoding="utf-8").split("\n"))
    except (OSError, UnicodeDecodeError):
        return ()


def _file_lines(file: str) -> tuple[str, ...]:
    try:
        stamp = Path(file).stat().st_mtime
    except OSError:
        return ()
    return _lines(file, stamp)


def locate(value_pos: Pos, line: int, col: int) -> Pos:
    """The file position of (``line``, ``col``) of the effect whose value is at ``value_pos``."""
    lines = _file_lines(value_pos.file)
    if not value_pos.line or value_pos.line > len(lines):
        return value_pos
    head = lines[value_pos.line - 1]
    start = head[value_pos.col - 1] if 0 < value_pos.col <= len(head) else ""
    if start in "|>" and start:
        first = value_pos.line  # index of the first content line
        while first < len(lines) and not lines[first].strip():
            first += 1
        body = lines[first] if first < len(lines) else ""
        indent = len(body) - len(body.lstrip(" "))
        return Pos(value_pos.file, value_pos.line + line, indent + col)
    if start in ("'", '"'):
        return Pos(value_pos.file, value_pos.line + line - 1, value_pos.col + col)
    return Pos(value_pos.file, value_pos.line + line - 1, value_pos.col + col - 1)


def diagnostic(error: DslError, text: str, value_pos: Pos, path: JsonPath) -> Diagnostic:
    """A ``file:line:col`` diagnostic for ``error`` in the effect ``text``, with the
    effect's line and a caret under the token, and the hint."""
    at = locate(value_pos, error.line, error.col)
    lines = text.split("\n")
    notes: list[str] = []
    if 0 < error.line <= len(lines):
        source = lines[error.line - 1]
        notes += [source, " " * (max(error.col, 1) - 1) + "^"]
    if error.hint:
        notes.append(f"hint: {error.hint}")
    return Diagnostic.at(at, error.message, path, notes)
