"""The syntax tree of an effect: small frozen dataclasses, each with its position.

``line`` and ``col`` are 1-based and count in the effect's own text; ``ckdsl.dsl.source``
turns them into the YAML file's line and column. The tree knows nothing about the
vocabulary: ``gain 2 grain`` is an ``Action`` named "gain" with two arguments, whatever
"gain" turns out to mean.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Node:
    line: int
    col: int


# --- expressions ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Number(Node):
    value: int


@dataclass(frozen=True, slots=True)
class Text(Node):
    value: str


@dataclass(frozen=True, slots=True)
class Name(Node):
    id: str


@dataclass(frozen=True, slots=True)
class Each(Node):
    """``[value for] each var in source [where cond]``: a selection, inside a call."""

    value: Expr | None
    var: str
    source: Expr
    where: Expr | None


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: str  # "-" or "not"
    operand: Expr


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str  # + - * / % and or == != < <= > >= in "not in"
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Conditional(Node):
    """``a if cond else b``."""

    then: Expr
    cond: Expr
    orelse: Expr


@dataclass(frozen=True, slots=True)
class ListOf(Node):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Pair(Node):
    key: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Bundle(Node):
    """``{ore: 2, grain: 1}``: amounts of goods."""

    pairs: tuple[Pair, ...]


Expr = Number | Text | Name | Call | Each | Unary | Binary | Conditional | ListOf | Bundle


@dataclass(frozen=True, slots=True)
class Choose(Node):
    """``choose [up to N] kind [var] [from source] [where cond] [by player]``."""

    kind: str
    var: str  # the name each candidate has in ``where``
    up_to: Expr | None
    source: Expr | None
    where: Expr | None
    by: Expr | None
    kind_line: int = 0
    kind_col: int = 0


# --- statements -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Let(Node):
    name: str
    value: Expr | Choose


@dataclass(frozen=True, slots=True)
class Require(Node):
    cond: Expr
    message: str | None


@dataclass(frozen=True, slots=True)
class Stop(Node):
    pass


@dataclass(frozen=True, slots=True)
class Clause(Node):
    prep: str  # to, from, at, by, on, with, paying
    value: Expr


@dataclass(frozen=True, slots=True)
class Action(Node):
    verb: str
    args: tuple[Expr, ...]
    clauses: tuple[Clause, ...]


@dataclass(frozen=True, slots=True)
class If(Node):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...] | None


@dataclass(frozen=True, slots=True)
class For(Node):
    var: str
    source: Expr
    where: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Repeat(Node):
    count: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Optional(Node):
    by: Expr | None
    body: tuple[Stmt, ...]


Stmt = Let | Require | Stop | Action | If | For | Repeat | Optional


@dataclass(frozen=True, slots=True)
class Effect:
    body: tuple[Stmt, ...]


MAX_DEPTH = 60
"""How deeply an effect's syntax may nest (blocks in blocks, brackets in brackets, a
chain of operators): far past what any card needs, and well short of what would
exhaust Python's stack in the compiler."""


def too_deep(root: object) -> tuple[int, Node] | None:
    """The first node nested deeper than ``MAX_DEPTH`` in ``root`` (an Effect, a node or a
    list of them) and its depth, or None. Walked with a stack of its own: a tree too deep
    for recursion is what it looks for."""
    stack: list[tuple[object, int]] = [(root, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, tuple)):
            stack.extend((item, depth) for item in value)
            continue
        names = getattr(type(value), "__dataclass_fields__", None)
        if names is not None:
            if isinstance(value, Node):
                depth += 1
                if depth > MAX_DEPTH:
                    return depth, value
            stack.extend((getattr(value, name), depth) for name in names)
    return None
