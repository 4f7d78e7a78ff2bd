"""A fault in an effect or formula, at a line and column of its own text."""

from __future__ import annotations

from typing import NoReturn

from ckdsl.core.allow import STEP_BUDGET

LARGEST = 10**18
"""The largest product an effect may make (as large as a number it may write), and the
largest value of a counter: a number squared or doubled again and again in a loop would
otherwise fill the memory (and a save could not write it)."""


class DslError(Exception):
    """What is wrong, where (1-based, in the effect's text), and a hint for a common slip."""

    def __init__(self, line: int, col: int, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.col = col
        self.message = message
        self.hint = hint

    def __repr__(self) -> str:
        return f"DslError({self.line}, {self.col}, {self.message!r}, {self.hint!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DslError) and (self.line, self.col, self.message, self.hint) == (
            other.line,
            other.col,
            other.message,
            other.hint,
        )

    def __hash__(self) -> int:
        return hash((self.line, self.col, self.message))


class EffectFailure(Exception):
    """An effect asked for something the board does not have (``move robber to 99`` on a
    map of 19 tiles): the effect ends there, and the log says why, in English (the text)
    and in the reader's language: ``key`` names the locales' message that says it
    (``stop_*``), ``fields`` what it names (``ckdsl.l10n.events`` renders them)."""

    def __init__(self, reason: str, key: str | None = None, **fields: object) -> None:
        super().__init__(reason)
        self.key = key
        self.fields = fields

    @property
    def stop(self) -> dict[str, object] | None:
        """The event field ``stop``: the message key and its fields (None without a key)."""
        return {"key": self.key, **self.fields} if self.key is not None else None


def bounded(value: int, counter: str) -> int:
    """``value``, the new value of a counter (or of the barbarians' position), if within
    ``LARGEST``; else the effect stops, and says which."""
    if -LARGEST <= value <= LARGEST:
        return value
    raise EffectFailure(
        f"the counter {counter} would pass the largest number an effect may make (10^18)",
        "stop_counter_too_large", counter=counter,
    )  # fmt: skip


class OutOfBudget(EffectFailure):
    """An effect or formula ran past ``STEP_BUDGET`` (``ckdsl validate`` looks for it)."""


def out_of_budget() -> NoReturn:
    """Stop the effect: it ran past ``STEP_BUDGET`` (logged, and the game goes on)."""
    raise OutOfBudget(
        f"the effect ran past its budget of {STEP_BUDGET:,} loop steps (a `repeat`, loops "
        "in loops or selections in selections too large)",
        "stop_budget",
        budget=STEP_BUDGET,
    )
