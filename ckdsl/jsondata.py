"""The type of plain data read from YAML or JSON (rule sets, locales, saves, results), and
narrowing helpers that say what was expected when the data is not of that shape.

Schema validation has already checked the shape of rule and locale files, so a failed
narrowing is a bug or a file that skipped validation: it raises ``TypeError`` naming what
was expected and what was found, never passes a wrong value on.
"""

from __future__ import annotations

from typing import TypeAlias

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = "dict[str, JsonValue]"
JsonArray: TypeAlias = "list[JsonValue]"


def _wrong(expected: str, value: object) -> TypeError:
    return TypeError(f"expected {expected}, found {type(value).__name__}")


def obj(value: JsonValue) -> JsonObject:
    """``value`` as a mapping."""
    if not isinstance(value, dict):
        raise _wrong("a mapping", value)
    return value


def arr(value: JsonValue) -> JsonArray:
    """``value`` as a list."""
    if not isinstance(value, list):
        raise _wrong("a list", value)
    return value


def text(value: JsonValue) -> str:
    """``value`` as a string."""
    if not isinstance(value, str):
        raise _wrong("a string", value)
    return value


def integer(value: JsonValue) -> int:
    """``value`` as an integer (not a boolean)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise _wrong("an integer", value)
    return value


def number(value: JsonValue) -> float:
    """``value`` as a number (an integer or a float, not a boolean)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise _wrong("a number", value)
    return float(value)


def flag(value: JsonValue) -> bool:
    """``value`` as a boolean."""
    if not isinstance(value, bool):
        raise _wrong("a boolean", value)
    return value
