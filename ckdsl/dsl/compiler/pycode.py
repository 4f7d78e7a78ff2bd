"""Closures written out as Python text, and compiled as one function (:func:`finish`).

Each closure the compiler makes may carry the Python text that computes the same value and
the objects that text calls (:func:`_py`); :func:`finish` compiles a closure's text into one
function. :func:`closures_only` turns the writing off: the reference the tests compare with.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import CodeType
from typing import Any, NoReturn

from ckdsl.core.allow import Env
from ckdsl.core.values import Value
from ckdsl.dsl.compiler.program import Fn, Namespace


def _unknown(node: NoReturn) -> NoReturn:
    """Reached only if a node type has no case: mypy rejects the call while one is missing
    (``NoReturn`` takes no value), so a node added to ``ast`` cannot be forgotten here."""
    raise AssertionError(f"no case for {node!r}")


def _const(value: Value) -> Fn:
    fn = lambda env: value  # noqa: E731
    fn.const = (value,)  # type: ignore[attr-defined]
    if value is None or type(value) in (bool, int, str):
        return _py(fn, repr(value), ())
    return _py(fn, _name(value), (), {_name(value): value})


def _variable(name: str) -> Fn:
    fn = lambda env: env.vars[name]  # noqa: E731
    fn.var = name  # type: ignore[attr-defined]
    return _py(fn, f"env.vars[{name!r}]", ())


def _var_of(fn: Fn) -> str | None:
    return getattr(fn, "var", None)


def _const_of(fn: Fn) -> tuple[Value] | None:
    return getattr(fn, "const", None)


def _me(env: Env) -> int:
    return env.me


def _nothing(env: Env) -> list[Value]:
    return []


# --- expressions as Python -------------------------------------------------------------
#
# Each closure the compiler builds also carries its Python text (``py``: the text of an
# expression over ``env``, and the namespace of the objects it names: the functions of
# the vocabulary, constants without a literal, closures of their own such as selections).
# Where a closure is handed out (an instruction, a choice, a formula) ``finish`` compiles
# the whole expression as one Python function: ``points(p) >= 10 and p == current`` runs
# as one call instead of one per node. The text computes what the closures compute, in
# the same order, with the same operators. ``closures_only`` turns all of it off (and the
# loops, hooks and openings compiled to Python below): everything then runs as the
# closures it is built from, the reference the tests compare the compiled Python with.

_PYTHON = True


def to_python() -> bool:
    """Whether code is compiled to Python (the default), or runs as closures alone."""
    return _PYTHON


@contextlib.contextmanager
def closures_only() -> Iterator[None]:
    """Compile to closures alone meanwhile (no Python text is compiled): what the tests
    compare the compiled Python with."""
    global _PYTHON
    saved, _PYTHON = _PYTHON, False
    try:
        yield
    finally:
        _PYTHON = saved


def _py(fn: Fn, text: str, subs: Iterable[Fn], names: Mapping[str, object] | None = None) -> Fn:
    """``fn``, given its Python text and the namespace it needs (its parts' and ``names``)."""
    namespace: Namespace = {}
    for sub in subs:
        namespace.update(_code(sub)[1])
    if names:
        namespace.update(names)
    setattr(fn, "py", (text, namespace))  # noqa: B010
    return fn


def _code(fn: Fn) -> tuple[str, Namespace]:
    """The Python text of ``fn`` and its namespace; a closure without text is called."""
    code: tuple[str, Namespace] | None = getattr(fn, "py", None)
    if code is not None:
        return code
    name = _name(fn)
    return f"{name}(env)", {name: fn}


def _text(fn: Fn) -> str:
    return _code(fn)[0]


def _name(obj: object) -> str:
    """The name of an object in a namespace (unique: the namespace keeps it alive)."""
    return f"_o{id(obj)}"


_py(_me, "env.me", ())
_py(_nothing, "[]", ())


def _define(lines: list[str], names: Namespace) -> Callable[..., Any]:
    """The function ``_f`` that ``lines`` define, in a namespace of ``names``."""
    namespace = dict(names)
    exec(_module("\n".join(lines)), namespace)  # our own text
    made = namespace["_f"]
    if not callable(made):  # pragma: no cover - the lines define ``_f``
        raise TypeError(made)
    return made


@functools.lru_cache(maxsize=4096)
def _module(text: str) -> CodeType:
    return compile(text, _filename(text), "exec")


def finish(fn: Fn) -> Fn:
    """The closure as one Python function compiled from its text (see ``_py``); a
    constant, a variable or a closure without text is already as short as it gets."""
    code: tuple[str, Namespace] | None = getattr(fn, "py", None)
    if code is None or hasattr(fn, "const") or hasattr(fn, "var") or fn is _me:
        return fn
    if not _PYTHON:
        return fn
    text, namespace = code
    made: Fn = eval(_lambda(text), dict(namespace))  # our own text
    made.__dict__.update(fn.__dict__)
    return made


def finish_opt(fn: Fn | None) -> Fn | None:
    return None if fn is None else finish(fn)


@functools.lru_cache(maxsize=4096)
def _lambda(text: str) -> CodeType:
    return compile(f"lambda env: {text}", _filename(text), "eval")


def _filename(text: str) -> str:
    """The name of compiled code in a traceback or a profile: its text, shortened."""
    flat = " ".join(text.split())
    return f"<dsl: {flat[:117] + '...' if len(flat) > 120 else flat}>"
