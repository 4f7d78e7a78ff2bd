"""An effect's syntax tree written back as text, in one canonical layout.

``ckdsl explain`` shows a card's effect this way (comments and odd spacing gone, four
spaces per block), and the tests check that printing and parsing again gives the same
tree, which keeps the printer and the grammar in step.
"""

from __future__ import annotations

from ckdsl.dsl import ast

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
        lines += _statement(stmt, depth)
    return lines


def _statement(stmt: ast.Stmt, depth: int) -> list[str]:
    pad = INDENT * depth
    if isinstance(stmt, ast.Let):
        if isinstance(stmt.value, ast.Choose):
            value = choose(stmt.value, stmt.name)
        else:
            value = expr(stmt.value)
        return [f"{pad}let {stmt.name} = {value}"]
    if isinstance(stmt, ast.Require):
        tail = f' else "{stmt.message}"' if stmt.message is not None else ""
        return [f"{pad}require {expr(stmt.cond)}{tail}"]
    if isinstance(stmt, ast.Stop):
        return [f"{pad}stop"]
    if isinstance(stmt, ast.Action):
        return [pad + action(stmt)]
    if isinstance(stmt, ast.If):
        lines = []
        for k, (cond, body) in enumerate(stmt.branches):
            lines.append(f"{pad}{'if' if k == 0 else 'elif'} {expr(cond)}:")
            lines += _statements(body, depth + 1)
        if stmt.orelse is not None:
            lines.append(f"{pad}else:")
            lines += _statements(stmt.orelse, depth + 1)
        return lines
    if isinstance(stmt, ast.For):
        where = f" where {expr(stmt.where)}" if stmt.where is not None else ""
        head = f"{pad}for {stmt.var} in {expr(stmt.source)}{where}:"
        return [head, *_statements(stmt.body, depth + 1)]
    if isinstance(stmt, ast.Repeat):
        return [f"{pad}repeat {expr(stmt.count)}:", *_statements(stmt.body, depth + 1)]
    if isinstance(stmt, ast.Optional):
        by = f" by {expr(stmt.by)}" if stmt.by is not None else ""
        return [f"{pad}optional{by}:", *_statements(stmt.body, depth + 1)]
    raise AssertionError(stmt)  # pragma: no cover


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


def _strength(node: ast.Expr) -> int:
    if isinstance(node, ast.Binary):
        return _PRECEDENCE[node.op]
    if isinstance(node, ast.Unary):
        return _PRECEDENCE["not"] if node.op == "not" else 7
    if isinstance(node, ast.Conditional):
        return 0
    return _ATOM


def expr(node: ast.Expr) -> str:
    if isinstance(node, ast.Number):
        return str(node.value)
    if isinstance(node, ast.Text):
        return f'"{node.value}"'
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return f"{node.func}({', '.join(expr(a) for a in node.args)})"
    if isinstance(node, ast.Each):
        value = f"{expr(node.value)} for " if node.value is not None else ""
        where = f" where {expr(node.where)}" if node.where is not None else ""
        return f"{value}each {node.var} in {expr(node.source)}{where}"
    if isinstance(node, ast.Unary):
        inner = _wrap(node.operand, _strength(node), right=True)
        return f"not {inner}" if node.op == "not" else f"-{inner}"
    if isinstance(node, ast.Binary):
        mine = _PRECEDENCE[node.op]
        left = _wrap(node.left, mine, right=False)
        right = _wrap(node.right, mine, right=True)
        return f"{left} {node.op} {right}"
    if isinstance(node, ast.Conditional):
        then, cond = _wrap(node.then, 1, right=False), _wrap(node.cond, 1, right=False)
        return f"{then} if {cond} else {expr(node.orelse)}"
    if isinstance(node, ast.ListOf):
        return f"[{', '.join(expr(i) for i in node.items)}]"
    if isinstance(node, ast.Bundle):
        return "{" + ", ".join(f"{p.key}: {expr(p.value)}" for p in node.pairs) + "}"
    raise AssertionError(node)  # pragma: no cover


def _wrap(node: ast.Expr, outer: int, *, right: bool) -> str:
    """``node`` as an operand of an operator of strength ``outer``: comparisons never
    chain, and operators group to the left."""
    inner = _strength(node)
    text = expr(node)
    comparison = 4
    needs = inner < outer or (right and inner == outer) or (inner == outer == comparison)
    return f"({text})" if needs else text
