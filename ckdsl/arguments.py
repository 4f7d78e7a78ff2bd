"""The arguments of the Python API, checked where they come in.

A notebook that passes a ``Path`` where a name was expected, or a number where a file
was, should get a ``TypeError`` that names the argument and what it takes, raised by the
function it called, not an ``AttributeError`` from deep inside (``'PosixPath' object is
not iterable``). The public functions (``ckdsl.session``, ``ckdsl.board``, ``ckdsl.sim``,
``parse_answer``) check their arguments with these.
"""

from __future__ import annotations

import os
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
