"""Hooks that run themselves without end, found before a game is played.

A hook that always runs itself again (``turn_end`` that opens a phase and then says
``run turn_end``), directly or through other hooks, never ends: each round asks for an
answer (the game then stops, unfinished, at its budget of decisions:
``parameters.turn_decision_limit``) or none (past ``MAX_HOOK_RUNS`` the hooks stop
running). Either way the rule set is wrong, and ``ckdsl validate`` says so at the `run`
that closes the loop.

Every `run`, however deeply nested, is looked at. One that always happens is an error: at
the top level of the effect or of a block that always runs (``if`` whose condition is a
constant truth, ``repeat`` a constant number of times, ``for`` over a written-out list or
every player), or in every branch of an ``if`` with an ``else``, before any ``stop`` or
``require`` that may end the effect early. One under a condition (``if``, ``for``,
``repeat``, ``optional``) may be a countdown: a loop through it is a warning, since
validate cannot tell whether the condition becomes false (if it never does, the budgets
stop the game at run time).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ckdsl.diagnostics import Diagnostic
from ckdsl.dsl import parsed
from ckdsl.dsl.base.errors import DslError
from ckdsl.dsl.source import diagnostic
from ckdsl.jsondata import JsonObject
from ckdsl.rules.positions import Positions

if TYPE_CHECKING:  # the syntax tree: loaded only to check (not on a start from the cache)
    from collections.abc import Sequence

    from ckdsl.dsl.base import ast

# Lists every game has at least one item of: a `for` over one runs its block.
_NEVER_EMPTY = frozenset({"players"})


@dataclass(frozen=True)
class _Run:
    """A `run` of ``target`` in a hook's effect: ``always`` when nothing can skip it."""

    target: str
    stmt: ast.Action
    always: bool


def _runs(body: Sequence[ast.Stmt], always: bool = True) -> list[_Run]:
    """Every `run` of the block ``body``, in order; ``always`` for those the block runs
    whenever it runs (and ``always`` says whether it does)."""
    from ckdsl.dsl.base import ast

    found: list[_Run] = []
    for stmt in body:
        if isinstance(stmt, ast.Action):
            if stmt.verb == "run" and stmt.args and isinstance(stmt.args[0], ast.Name):
                found.append(_Run(stmt.args[0].id, stmt, always))
        elif isinstance(stmt, ast.If):
            found += _if_runs(stmt, always)
        elif isinstance(stmt, ast.For):
            every = stmt.where is None and _never_empty(stmt.source)
            found += _runs(stmt.body, always and every)
        elif isinstance(stmt, ast.Repeat):
            count = _constant(stmt.count)
            found += _runs(stmt.body, always and isinstance(count, int) and count >= 1)
        elif isinstance(stmt, ast.Optional):
            found += _runs(stmt.body, False)
        if _may_end(stmt):
            always = False  # what follows may never run (`stop`, or `if X: stop`)
    return found


def _may_end(stmt: ast.Stmt) -> bool:
    """Whether ``stmt`` holds a `stop` or a `require` (at any depth)."""
    from ckdsl.dsl.base import ast

    if isinstance(stmt, (ast.Stop, ast.Require)):
        return True
    if isinstance(stmt, ast.If):
        blocks = [block for _, block in stmt.branches] + [stmt.orelse or ()]
        return any(_may_end(inner) for block in blocks for inner in block)
    if isinstance(stmt, (ast.For, ast.Repeat, ast.Optional)):
        return any(_may_end(inner) for inner in stmt.body)
    return False


def _if_runs(stmt: ast.If, always: bool) -> list[_Run]:
    """The runs of an ``if``. A block surely runs when its condition is a constant truth
    after constant falsehoods only (the ``else``: after falsehoods only); a target every
    block always runs, when there is an ``else``, is always run whichever block runs."""
    blocks = [block for _, block in stmt.branches]
    blocks += [stmt.orelse] if stmt.orelse is not None else []
    sure = [False] * len(blocks)
    for at, (cond, _) in enumerate([*stmt.branches, (None, ())]):
        value = True if cond is None else _constant(cond)
        if value is not False:
            sure[at] = value is True and at < len(blocks)
            break
    runs = [_runs(block) for block in blocks]  # (always: whenever that block runs)
    common: set[str] = set()
    if stmt.orelse is not None:
        common = set.intersection(*({r.target for r in found if r.always} for found in runs))
    return [
        _Run(r.target, r.stmt, always and r.always and (sure[at] or r.target in common))
        for at, found in enumerate(runs)
        for r in found
    ]


def _never_empty(source: ast.Expr) -> bool:
    from ckdsl.dsl.base import ast

    if isinstance(source, ast.ListOf):
        return bool(source.items)
    return isinstance(source, ast.Name) and source.id in _NEVER_EMPTY


def _constant(expr: ast.Expr) -> bool | int | None:
    """The value of ``expr`` if it reads nothing of the game (``true``, ``1 < 2``), else
    None."""
    from ckdsl.dsl.base import ast

    if isinstance(expr, ast.Number):
        return expr.value
    if isinstance(expr, ast.Name) and expr.id in ("true", "false"):
        return expr.id == "true"
    if isinstance(expr, ast.Unary):
        operand = _constant(expr.operand)
        if operand is None:
            return None
        return (not operand) if expr.op == "not" else -operand
    if isinstance(expr, ast.Binary):
        left, right = _constant(expr.left), _constant(expr.right)
        if left is None or right is None:
            # `true or X` and `false and X` are known without X
            if expr.op == "or" and True in (left, right):
                return True
            if expr.op == "and" and False in (left, right):
                return False
            return None
        combine = _BINARY.get(expr.op)
        return None if combine is None else combine(left, right)
    return None


_BINARY: dict[str, Callable[[Any, Any], bool | int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "and": lambda a, b: bool(a and b),
    "or": lambda a, b: bool(a or b),
}


def endless_hooks(data: JsonObject, positions: Positions) -> list[Diagnostic]:
    """An error for each loop of hooks that always run one another, and a warning for
    each loop through a `run` under a condition (one per loop, at the `run` of its first
    hook, in the order the file lists them)."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    texts = {h: spec.get("effect") for h, spec in hooks.items() if isinstance(spec, dict)}
    edges: dict[str, list[_Run]] = {}
    for hook, text in texts.items():
        if isinstance(text, str):
            try:
                edges[hook] = _runs(parsed.parse(text).body)
            except DslError:
                edges[hook] = []  # its syntax error is reported already
            except RecursionError:
                edges[hook] = []  # nested too deeply: said by the effect's own check
    always = {hook: [r for r in runs if r.always] for hook, runs in edges.items()}
    out: list[Diagnostic] = []
    reported: set[str] = set()
    for certain, found in ((True, always), (False, edges)):
        for start in edges:
            if start in reported:
                continue
            path = _loop_from(start, found)
            if path is None:
                continue
            reported.update(path)
            first = next(r.stmt for r in found[start] if r.target == path[1 % len(path)])
            out.append(_said(start, path, first, certain, texts, positions))
    return out


def _said(
    start: str,
    path: list[str],
    first: ast.Action,
    certain: bool,
    texts: Mapping[str, object],
    positions: Positions,
) -> Diagnostic:
    chain = " → ".join([*path, start])
    if certain:
        message = (
            f"the hook '{start}' always runs itself again ({chain}): once it runs, it never "
            "ends (the game would stop, unfinished, at its budget of decisions)"
        )
        hint = "run it under a condition that becomes false (`if counter(c) < 3:`), or not at all"
    else:
        message = (
            f"the hook '{start}' may run itself again ({chain}), under a condition validate "
            "cannot tell becomes false; if it never does, the game stops, unfinished, at its "
            "budget of decisions"
        )
        hint = "make sure the condition becomes false (a counter counting down, a turn number)"
    text = texts[start]
    assert isinstance(text, str)
    at = ("hooks", start, "effect")
    found = diagnostic(
        DslError(first.line, first.col, message, hint), text, positions.value(at), at
    )
    return found if certain else _warning(found)


def _warning(found: Diagnostic) -> Diagnostic:

    return replace(found, severity="warning")


def _loop_from(start: str, edges: dict[str, list[_Run]]) -> list[str] | None:
    """The hooks of a loop back to ``start`` along ``edges`` (``start`` first), or None.
    Depth first, with a stack of its own and each hook visited once."""
    seen = {start}
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    while stack:
        hook, path = stack.pop()
        for run in edges.get(hook, ()):
            if run.target == start:
                return path
            if run.target not in seen:
                seen.add(run.target)
                stack.append((run.target, [*path, run.target]))
    return None
