"""A condition split at its top-level `and`s, each part compiled on its own.

An `allow` condition is one formula (``Programs.allow``), and the hot path evaluates it
whole. When an answer is refused because the condition is false, the refusal should say
*which* part failed ("the knight was activated this turn", not "knight_acts does not
hold"): ``ckdsl.turn.refusals`` evaluates these parts in order, as `and` does, and names
the first that is false. The parts are compiled with the rule set (kept on disk with the
programs), never run while options are listed.
"""

from __future__ import annotations

from ckdsl.dsl import parsed, pretty
from ckdsl.dsl.base import ast
from ckdsl.dsl.base.errors import DslError
from ckdsl.dsl.base.types import BOOL, Type
from ckdsl.dsl.compiler.program import Fn, Names
from ckdsl.dsl.compiler.statements import Compiler

Part = tuple[str, Fn]
"""A part of a condition: its text as ``ckdsl explain`` prints it, and its function."""


def conjuncts(text: str, names: Names, variables: dict[str, Type]) -> tuple[Part, ...]:
    """The top-level `and` parts of the condition ``text``, left to right (one part, the
    whole condition, when it has no top-level `and`); none if a part does not compile on
    its own (the whole condition is then the reason)."""
    try:
        tree = parsed.parse_expression(text)
    except DslError:
        return ()
    parts: list[Part] = []
    for node in _split(tree):
        fn = Compiler(names, variables).formula(node, BOOL)
        if fn is None:
            return ()
        parts.append((pretty.expr(node), fn))
    return tuple(parts)


def _split(node: ast.Expr) -> list[ast.Expr]:
    """``a and b and c`` as [a, b, c] (`and` groups to the left: ((a and b) and c))."""
    if isinstance(node, ast.Binary) and node.op == "and":
        return _split(node.left) + _split(node.right)
    return [node]
