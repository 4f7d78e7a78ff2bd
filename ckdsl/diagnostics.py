"""Diagnostics: what went wrong, and exactly where.

Every error a user can cause is reported as a :class:`Diagnostic` naming the file, the
1-based line and column, a message written for a newcomer, and (when the fault is inside
a document) the JSON path of the offending value. Checks collect diagnostics instead of
raising, so that one run reports every fault of every file at once, the way a compiler
does.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

PathItem = str | int
JsonPath = tuple[PathItem, ...]


@dataclass(frozen=True, order=True)
class Pos:
    """A position in a file: 1-based line and column (columns count characters).

    For a text value, also how the file writes it (its YAML style: ``|`` or ``>`` for a
    block, a quote, or "" for plain; for a block, the indentation of its content), so a
    position inside the text (a DSL error in an effect) maps back to the file without
    reading the file again (``ckdsl.dsl.source.locate``). They do not take part in
    comparisons: a position is its file, line and column."""

    file: str
    line: int = 0
    col: int = 0
    style: str = field(default="", compare=False)
    indent: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Diagnostic:
    """One finding. ``line``/``col`` are 1-based; 0 means "the whole file"."""

    file: str
    line: int
    col: int
    message: str
    path: JsonPath | None = None
    severity: str = "error"
    notes: tuple[str, ...] = field(default=())

    @classmethod
    def at(
        cls,
        pos: Pos,
        message: str,
        path: JsonPath | None = None,
        notes: Sequence[str] = (),
    ) -> Diagnostic:
        return cls(pos.file, pos.line, pos.col, message, path, notes=tuple(notes))

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.file, self.line, self.col, self.message)

    def format(self, relative_to: str | None = None) -> str:
        """``path:line:col: message [json-path]``, followed by indented notes."""
        text = self.message if self.severity == "error" else f"{self.severity}: {self.message}"
        if self.file:  # a fault of no file (a setting, a player count) is its message alone
            where = display_path(self.file, relative_to)
            if self.line:
                where += f":{self.line}:{self.col}"
            text = f"{where}: {text}"
        if self.path is not None:
            text += f" [{json_path(self.path)}]"
        for note in self.notes:
            text += "\n    " + note
        return text

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
            "message": self.message,
            "path": json_path(self.path) if self.path is not None else None,
            "notes": list(self.notes),
        }


def json_path(path: JsonPath) -> str:
    """``("cards", "bishop", "count")`` -> ``$.cards.bishop.count``; indexes as ``[0]``."""
    text = "$"
    for item in path:
        if isinstance(item, int):
            text += f"[{item}]"
        elif item.isidentifier():
            text += f".{item}"
        else:
            text += "[" + repr(item) + "]"
    return text


def display_path(file: str, relative_to: str | None = None) -> str:
    """Show a file relative to the working directory when it lies below it."""
    base = relative_to if relative_to is not None else os.getcwd()
    try:  # as named first: a link is shown as the link, not as where it leads
        return str(Path(os.path.abspath(file)).relative_to(os.path.abspath(base)))
    except ValueError:
        pass
    try:
        rel = Path(file).resolve().relative_to(Path(base).resolve())
    except (ValueError, OSError, RuntimeError):  # (RuntimeError: a loop of links)
        return file
    return str(rel)


def sorted_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted by file, line, column and message, without exact duplicates."""
    unique = {(d.sort_key(), d.path, d.notes): d for d in diagnostics}
    return sorted(unique.values(), key=lambda d: (d.sort_key(), str(d.path)))


class CkdslError(Exception):
    """An error that ends a command with a message for the user, never a traceback."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = sorted_diagnostics(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))
