"""The values the rule set's programs compute with (docs/dsl.md, "Types"): numbers, ids,
flags, lists of them and bundles of goods.

The DSL's checker gives every expression a type before the program runs, so a word of
the vocabulary may rely on its arguments having the types of its parameters; the
narrowing functions below say which type it relies on, and raise ``TypeError`` (a bug,
never a user's error) if the checker let something else through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

Value: TypeAlias = "int | str | bool | Sequence[Value] | Mapping[str, int] | None"
"""A value of the DSL: a number, an id (a tile, an intersection, a player... are numbers;
a card, a good, a track are names), a flag, nothing, a list, or a bundle of goods."""

Variables: TypeAlias = "dict[str, Value]"
"""The named values of a running program (its `let`s, loop variables, choices)."""


def number(value: Value) -> int:
    """``value`` where the program's types say a number (or a tile, an intersection, an
    edge, a player: numbered) stands."""
    if not isinstance(value, int):
        raise TypeError(f"expected a number, found {value!r}")
    return value


def name(value: Value) -> str:
    """``value`` where the program's types say a name (a card, a good, a track...)."""
    if not isinstance(value, str):
        raise TypeError(f"expected a name, found {value!r}")
    return value


def items(value: Value) -> Sequence[Value]:
    """``value`` where the program's types say a list."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise TypeError(f"expected a list, found {value!r}")
    return value


def bundle(value: Value) -> Mapping[str, int]:
    """``value`` where the program's types say goods with amounts (``{2 wool, 1 ore}``)."""
    if not isinstance(value, Mapping):
        raise TypeError(f"expected goods, found {value!r}")
    return value
