"""An effect's syntax tree written back as text, in one canonical layout.

``ckdsl explain`` shows a card's effect this way (comments and odd spacing gone, four
spaces per block), and the tests check that printing and parsing again gives the same
tree, which keeps the printer and the grammar in step.

Statements and expressions are printed through two tables (``functools.singledispatch``:
one function per node type), so that a node type added to ``ast`` without its printer fails
a test (tests/dsl/test_tables.py) instead of reaching a fallback at run time.
"""

from __future__ import annotations

from functools import singledispatch
from typing import NoReturn

from ckdsl.dsl.base import ast

INDENT = "    "

# Binding strength of operators, loosest first (parentheses are added only when needed).
_PRECEDENCE = {
    "or": 1,
    "and": 2,
    "not": 3,
    "==": 4,
    "!=": 4,
    "<": 4,
    "<=": 4,
    ">": 4,
    ">=": 4,
    "in": 4,
    "not in": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "/": 6,
    "%": 6,
}
_ATOM = 9


def effect(tree: ast.Effect) -> str:
    """The whole effect, one statement per line."""
    return "\n".join(_statements(tree.body, 0))


def _statements(body: tuple[ast.Stmt, ...], depth: int) -> list[str]:
    lines: list[str] = []
    for stmt in body:
        lines += statement(stmt, depth)
    return lines


# --- statements: one printer per statement type --------------------------------------------


@singledispatch
def statement(stmt: ast.Stmt, depth: int) -> list[str]:
    """The lines of a statement (and of its blocks), indented ``depth`` blocks deep."""
    raise TypeError(f"no printer for the statement {stmt!r}")


@statement.register
def _let(stmt: ast.Let, depth: int) -> list[str]:
    value = (
        choose(stmt.value, stmt.name) if isinstance(stmt.value, ast.Choose) else expr(stmt.value)
    )
    return [f"{INDENT * depth}let {stmt.name} = {value}"]


@statement.register
def _require(stmt: ast.Require, depth: int) -> list[str]:
    tail = f' else "{stmt.message}"' if stmt.message is not None else ""
    return [f"{INDENT * depth}require {expr(stmt.cond)}{tail}"]


@statement.register
def _stop(stmt: ast.Stop, depth: int) -> list[str]:
    return [f"{INDENT * depth}stop"]


@statement.register
def _action(stmt: ast.Action, depth: int) -> list[str]:
    return [INDENT * depth + action(stmt)]


@statement.register
def _if(stmt: ast.If, depth: int) -> list[str]:
    pad = INDENT * depth
    lines = []
    for k, (cond, body) in enumerate(stmt.branches):
        lines.append(f"{pad}{'if' if k == 0 else 'elif'} {expr(cond)}:")
        lines += _statements(body, depth + 1)
    if stmt.orelse is not None:
        lines.append(f"{pad}else:")
        lines += _statements(stmt.orelse, depth + 1)
    return lines


@statement.register
def _for(stmt: ast.For, depth: int) -> list[str]:
    where = f" where {expr(stmt.where)}" if stmt.where is not None else ""
    head = f"{INDENT * depth}for {stmt.var} in {expr(stmt.source)}{where}:"
    return [head, *_statements(stmt.body, depth + 1)]


@statement.register
def _repeat(stmt: ast.Repeat, depth: int) -> list[str]:
    return [f"{INDENT * depth}repeat {expr(stmt.count)}:", *_statements(stmt.body, depth + 1)]


@statement.register
def _optional(stmt: ast.Optional, depth: int) -> list[str]:
    by = f" by {expr(stmt.by)}" if stmt.by is not None else ""
    return [f"{INDENT * depth}optional{by}:", *_statements(stmt.body, depth + 1)]


# --- the parts of statements ----------------------------------------------------------------


def action(stmt: ast.Action) -> str:
    """``verb args clauses flags``: flags named after a clause stay after the clauses."""
    words = [stmt.verb]
    late: list[str] = []
    for arg in stmt.args:
        text = _argument(arg)
        if stmt.clauses and isinstance(arg, ast.Name) and _after_clauses(stmt, arg):
            late.append(text)
        else:
            words.append(text)
    words += [f"{c.prep} {expr(c.value)}" for c in stmt.clauses]
    return " ".join(words + late)


def _after_clauses(stmt: ast.Action, arg: ast.Name) -> bool:
    first = stmt.clauses[0]
    return (arg.line, arg.col) > (first.line, first.col)


def _argument(arg: ast.Expr) -> str:
    """A verb's argument is one value: anything looser than an atom goes in parentheses."""
    text = expr(arg)
    return text if _strength(arg) >= _ATOM else f"({text})"


def choose(node: ast.Choose, name: str) -> str:
    """A choice bound to ``name`` (its candidates' name is written only when it differs)."""
    parts = ["choose"]
    if node.up_to is not None:
        parts.append(f"up to {expr(node.up_to)}")
    parts.append(node.kind)
    if node.var != name:
        parts.append(node.var)
    if node.source is not None:
        parts.append(f"from {expr(node.source)}")
    if node.where is not None:
        parts.append(f"where {expr(node.where)}")
    if node.by is not None:
        parts.append(f"by {expr(node.by)}")
    return " ".join(parts)


# --- expressions: one printer per expression type ------------------------------------------


@singledispatch
def expr(node: ast.Expr) -> str:
    """An expression on one line, with the parentheses its operators need and no more."""
    raise TypeError(f"no printer for the expression {node!r}")


@expr.register
def _number(node: ast.Number) -> str:
    return str(node.value)


@expr.register
def _text(node: ast.Text) -> str:
    return f'"{node.value}"'


@expr.register
def _name(node: ast.Name) -> str:
    return node.id


@expr.register
def _call(node: ast.Call) -> str:
    return f"{node.func}({', '.join(expr(a) for a in node.args)})"


@expr.register
def _each(node: ast.Each) -> str:
    value = f"{expr(node.value)} for " if node.value is not None else ""
    where = f" where {expr(node.where)}" if node.where is not None else ""
    return f"{value}each {node.var} in {expr(node.source)}{where}"


@expr.register
def _unary(node: ast.Unary) -> str:
    inner = _wrap(node.operand, _strength(node), right=True)
    return f"not {inner}" if node.op == "not" else f"-{inner}"


@expr.register
def _binary(node: ast.Binary) -> str:
    mine = _PRECEDENCE[node.op]
    left = _wrap(node.left, mine, right=False)
    right = _wrap(node.right, mine, right=True)
    return f"{left} {node.op} {right}"


@expr.register
def _conditional(node: ast.Conditional) -> str:
    then, cond = _wrap(node.then, 1, right=False), _wrap(node.cond, 1, right=False)
    return f"{then} if {cond} else {expr(node.orelse)}"


@expr.register
def _list_of(node: ast.ListOf) -> str:
    return f"[{', '.join(expr(i) for i in node.items)}]"


@expr.register
def _bundle(node: ast.Bundle) -> str:
    return "{" + ", ".join(f"{p.key}: {expr(p.value)}" for p in node.pairs) + "}"


def _strength(node: ast.Expr) -> int:
    """How tightly an expression binds (``_PRECEDENCE``; ``_ATOM`` for a value that never
    needs parentheses). The match lists every expression type: mypy checks that it is
    exhaustive (``_unknown``), so a new type cannot be forgotten here."""
    match node:
        case ast.Binary():
            return _PRECEDENCE[node.op]
        case ast.Unary():
            return _PRECEDENCE["not"] if node.op == "not" else 7
        case ast.Conditional():
            return 0
        case (
            ast.Number()
            | ast.Text()
            | ast.Name()
            | ast.Call()
            | ast.Each()
            | ast.ListOf()
            | ast.Bundle()
        ):
            return _ATOM
        case _:
            _unknown(node)


def _unknown(node: NoReturn) -> NoReturn:
    """Called only where every type was matched: mypy rejects a call with a real type."""
    raise TypeError(f"unknown expression {node!r}")


def _wrap(node: ast.Expr, outer: int, *, right: bool) -> str:
    """``node`` as an operand of an operator of strength ``outer``: comparisons never
    chain, and operators group to the left."""
    inner = _strength(node)
    text = expr(node)
    comparison = 4
    needs = inner < outer or (right and inner == outer) or (inner == outer == comparison)
    return f"({text})" if needs else text
