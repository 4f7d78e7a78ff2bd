"""Where a token of an effect stands in its YAML file.

An effect is a YAML string; the parser counts lines and columns in the string. To point a
house-rule author at the exact token, we map them back through the scalar's style: in a
block scalar (``effect: |``) line n of the effect is the n-th line after the ``|`` and
columns shift by the block's indentation; in a quoted or plain one-line scalar columns
shift by where the value starts (and the opening quote). The YAML loader records the
style and the indentation with the value's position (``Pos.style``, ``Pos.indent``), so
the file is never read again to report an error.
"""

from __future__ import annotations

from ckdsl.diagnostics import Diagnostic, JsonPath, Pos
from ckdsl.dsl.base.errors import DslError


def locate(value_pos: Pos, line: int, col: int) -> Pos:
    """The file position of (``line``, ``col``) of the effect whose value is at
    ``value_pos`` (which says how the file writes the value: ``Pos.style``)."""
    if not value_pos.line:
        return value_pos
    if value_pos.style in ("|", ">"):
        return Pos(value_pos.file, value_pos.line + line, value_pos.indent + col)
    if value_pos.style in ("'", '"'):
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
