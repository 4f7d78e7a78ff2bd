"""Decisions and answers: the one path by which anything a player does enters a game.

An option is a small tuple of plain values (``("road", 17)``, ``("bank", "brick", "ore")``),
so that options compare, hash and serialise cheaply; ``ckdsl.engine.notation`` gives each a
readable form ("build road 12-13") for people, scenarios and save files.
"""

from __future__ import annotations

from typing import Any, NamedTuple

Option = tuple[Any, ...]

# Kinds of answer that are not listed one by one because there are too many to list
# (any bundle of goods for any other): they are checked when given instead.
OPEN_KINDS = {"main": ("offer",)}


class Decision(NamedTuple):
    """Who must decide what now, and every answer they may give."""

    player: int
    kind: str  # setup_settlement, setup_city, setup_road, roll, main, discard, robber, ...
    options: tuple[Option, ...]

    def accepts_open(self, verb: str) -> bool:
        """Whether an unlisted answer starting with ``verb`` may be given (and then checked)."""
        return verb in OPEN_KINDS.get(self.kind, ())


class IllegalAnswer(Exception):
    """An answer the pending decision does not allow; the game is left unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
