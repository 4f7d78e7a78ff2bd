"""Where each value of a document came from.

A :class:`Positions` table maps a JSON path (``("cards", "bishop", "count")``) to the
position of the value there and, for mapping entries, of its key. Documents read from
YAML fill it; rule sets merged from several files and variants carry it along, so a
value always points back to the file, line and column that defined it.
"""

from __future__ import annotations

from collections.abc import Iterator

from ckdsl.diagnostics import JsonPath, Pos


class Positions:
    """Value and key positions by JSON path."""

    __slots__ = ("keys", "values")

    def __init__(self) -> None:
        self.values: dict[JsonPath, Pos] = {}
        self.keys: dict[JsonPath, Pos] = {}

    def value(self, path: JsonPath) -> Pos:
        """The position of the value at ``path``, or of its nearest known ancestor."""
        for prefix in _prefixes(path):
            pos = self.values.get(prefix)
            if pos is not None:
                return pos
        return Pos("")

    def key(self, path: JsonPath) -> Pos:
        """The position of the key naming ``path`` (the value's if it has no key)."""
        pos = self.keys.get(path)
        return pos if pos is not None else self.value(path)

    def nearest_key(self, path: JsonPath) -> Pos:
        """The key of ``path`` or, when it is absent, of its nearest ancestor that has one."""
        for prefix in _prefixes(path):
            pos = self.keys.get(prefix)
            if pos is not None:
                return pos
        return self.value(())

    def file_of(self, path: JsonPath) -> str:
        return self.value(path).file

    def subtree(self, path: JsonPath) -> Iterator[tuple[JsonPath, Pos, Pos | None]]:
        """Every (relative path, value position, key position) at or below ``path``."""
        n = len(path)
        for p, pos in self.values.items():
            if p[:n] == path:
                yield p[n:], pos, self.keys.get(p)

    def graft(self, other: Positions, src: JsonPath, dst: JsonPath) -> None:
        """Copy ``other``'s positions below ``src`` to below ``dst`` in this table."""
        for rel, pos, key in list(other.subtree(src)):
            self.values[dst + rel] = pos
            if key is not None:
                self.keys[dst + rel] = key

    def drop(self, path: JsonPath) -> None:
        """Forget every position at or below ``path`` (its key position included)."""
        n = len(path)
        for table in (self.values, self.keys):
            for p in [p for p in table if p[:n] == path]:
                del table[p]


def _prefixes(path: JsonPath) -> Iterator[JsonPath]:
    for i in range(len(path), -1, -1):
        yield path[:i]
