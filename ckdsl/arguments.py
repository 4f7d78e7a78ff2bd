"""The arguments of the Python API, checked where they come in.

A notebook that passes a ``Path`` where a name was expected, or a number where a file
was, should get a ``TypeError`` that names the argument and what it takes, raised by the
function it called, not an ``AttributeError`` from deep inside (``'PosixPath' object is
not iterable``). The public functions (``ckdsl.session``, ``ckdsl.board``, ``ckdsl.sim``,
``parse_answer``, ``compare``, ``write_html``, ``read_results``) check their arguments
with these.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def file_name(value: object, argument: str) -> str:
    """``value`` (a str or an ``os.PathLike``, such as a ``Path``) as a str; a TypeError
    naming ``argument`` for anything else, a ValueError for an empty name."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise TypeError(f"{argument} takes a name or a file (str or Path), not {_kind(value)}")
    if not value.strip():
        raise ValueError(f"{argument} is empty: give a name or a file")
    return value


def file_path(value: object, argument: str) -> Path:
    """``file_name``, as a ``Path``."""
    return Path(file_name(value, argument))


def text(value: object, argument: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{argument} takes a text (str), not {_kind(value)}")
    return value


def whole(value: object, argument: str) -> int:
    """A whole number (an ``int``, not a ``bool``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{argument} takes a whole number (int), not {_kind(value)}")
    return value


def _kind(value: object) -> str:
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return f"{type(value).__name__} {shown}"


def optional_text(value: object, argument: str) -> str | None:
    """None, or a text (``text``)."""
    return None if value is None else text(value, argument)


def texts(value: object, argument: str) -> tuple[str, ...]:
    """A list (or tuple) of texts; a single str is refused too (it would be read letter
    by letter)."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise TypeError(f"{argument} takes a list of texts (str), not {_kind(value)}")
    for item in value:
        text(item, f"each of {argument}")
    return tuple(value)


def number(value: object, argument: str) -> float:
    """A real number (an ``int`` or a ``float``, not a ``bool``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{argument} takes a number, not {_kind(value)}")
    return float(value)


def flag(value: object, argument: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{argument} takes True or False (bool), not {_kind(value)}")
    return value


def instance(value: object, kind: type, argument: str, hint: str = "") -> None:
    """``value`` is a ``kind``; a TypeError naming ``argument`` (and ``hint``: where one
    comes from) otherwise."""
    if not isinstance(value, kind):
        where = f" ({hint})" if hint else ""
        name = "dict" if kind is Mapping else kind.__name__
        article = "an" if name[0] in "AEIOUaeiou" else "a"
        raise TypeError(f"{argument} takes {article} {name}{where}, not {_kind(value)}")


def mapping(value: object, argument: str, hint: str = "") -> Mapping[object, object]:
    """A mapping (a dict); a TypeError naming ``argument`` otherwise."""
    instance(value, Mapping, argument, hint)
    assert isinstance(value, Mapping)
    return value
