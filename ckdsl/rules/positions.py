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
    """Value and key positions by JSON path.

    ``values`` and ``keys`` are for reading; write with ``set``, ``graft`` and ``drop``,
    which keep an index of the paths under each path, so that moving a
    subtree costs its own size, not the whole table's (a variant adding thousands of
    cards is applied in linear time)."""

    __slots__ = ("_below", "keys", "values")

    def __init__(self) -> None:
        self.values: dict[JsonPath, Pos] = {}
        self.keys: dict[JsonPath, Pos] = {}
        # the paths under each path, one level down (every path with a position is linked
        # to the root); made when a subtree is first asked for (reading a file needs none)
        self._below: dict[JsonPath, dict[JsonPath, None]] | None = None

    def set(self, path: JsonPath, value: Pos | None = None, key: Pos | None = None) -> None:
        """Record the position of the value at ``path`` and/or of the key naming it."""
        below = self._below
        if below is not None and path not in self.values and path not in self.keys:
            _index(below, path)
        if value is not None:
            self.values[path] = value
        if key is not None:
            self.keys[path] = key

    def copy(self) -> Positions:
        """A table of the same positions that can change without changing this one."""
        out = Positions()
        out.values = dict(self.values)  # paths and positions are immutable
        out.keys = dict(self.keys)
        return out

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
        for p in self._walk(path):
            pos = self.values.get(p)
            if pos is not None:
                yield p[n:], pos, self.keys.get(p)

    def graft(self, other: Positions, src: JsonPath, dst: JsonPath) -> None:
        """Copy ``other``'s positions below ``src`` to below ``dst`` in this table."""
        for rel, pos, key in list(other.subtree(src)):
            self.set(dst + rel, pos, key)

    def drop(self, path: JsonPath) -> None:
        """Forget every position at or below ``path`` (its key position included)."""
        children = self._index()
        for p in self._walk(path):
            self.values.pop(p, None)
            self.keys.pop(p, None)
            children.pop(p, None)
        if path:
            children.get(path[:-1], {}).pop(path, None)

    def _walk(self, path: JsonPath) -> list[JsonPath]:
        """``path`` and every path below it (recorded or only passed through)."""
        children = self._index()
        out = [path]
        for p in out:  # grows as it goes: breadth first
            out.extend(children.get(p, ()))
        return out

    def _index(self) -> dict[JsonPath, dict[JsonPath, None]]:
        if self._below is None:
            self._below = {}
            for path in (*self.values, *self.keys):
                _index(self._below, path)
        return self._below


def _index(children: dict[JsonPath, dict[JsonPath, None]], path: JsonPath) -> None:
    """Link ``path`` under its parent, and each newly seen ancestor under its own."""
    while path:
        parent = path[:-1]
        siblings = children.get(parent)
        if siblings is not None:
            siblings[path] = None
            return
        children[parent] = {path: None}
        path = parent


def _prefixes(path: JsonPath) -> Iterator[JsonPath]:
    for i in range(len(path), -1, -1):
        yield path[:i]
