"""Hooks that run themselves without end, found before a game is played.

A hook that always runs itself again (``turn_end`` that opens a phase and then says
``run turn_end``), directly or through other hooks, never ends: each round asks for an
answer (the game then stops, unfinished, at its budget of decisions:
``parameters.turn_decision_limit``) or none (past ``MAX_HOOK_RUNS`` the hooks stop
running). Either way the rule set is wrong, and ``ckdsl validate`` says so at the `run`
that closes the loop. Only what a hook does *always* counts: a `run` at the top level of
its effect, before any `stop` or `require`; a `run` under `if`, `for`, `repeat` or
`optional` may be a countdown, and is left to the budgets at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.diagnostics import Diagnostic
from ckdsl.dsl import parsed
from ckdsl.dsl.base.errors import DslError
from ckdsl.dsl.source import diagnostic
from ckdsl.jsondata import JsonObject
from ckdsl.rules.positions import Positions

if TYPE_CHECKING:  # the syntax tree: loaded only to check (not on a start from the cache)
    from ckdsl.dsl.base import ast


def _always_runs(tree: ast.Effect) -> list[tuple[str, ast.Action]]:
    """The hooks an effect always runs: ``run H`` at its top level, before anything that
    may end it early."""
    from ckdsl.dsl.base import ast

    found: list[tuple[str, ast.Action]] = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.Stop, ast.Require)):
            break
        if isinstance(stmt, ast.Action) and stmt.verb == "run" and stmt.args:
            target = stmt.args[0]
            if isinstance(target, ast.Name):
                found.append((target.id, stmt))
    return found


def endless_hooks(data: JsonObject, positions: Positions) -> list[Diagnostic]:
    """An error for each loop of hooks that always run one another (one per loop, at the
    `run` of its first hook, in the order the file lists them)."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    texts = {h: spec.get("effect") for h, spec in hooks.items() if isinstance(spec, dict)}
    edges: dict[str, list[tuple[str, ast.Action]]] = {}
    for hook, text in texts.items():
        if isinstance(text, str):
            try:
                edges[hook] = _always_runs(parsed.parse(text))
            except DslError:
                edges[hook] = []  # its syntax error is reported already
    out: list[Diagnostic] = []
    reported: set[str] = set()
    for start in edges:
        if start in reported:
            continue
        path = _loop_from(start, edges)
        if path is None:
            continue
        reported.update(path)
        first = next(stmt for target, stmt in edges[start] if target == path[1 % len(path)])
        chain = " → ".join([*path, start])
        error = DslError(
            first.line,
            first.col,
            f"the hook '{start}' always runs itself again ({chain}): once it runs, it never "
            "ends (the game would stop, unfinished, at its budget of decisions)",
            "run it under a condition that becomes false (`if counter(c) < 3:`), or not at all",
        )
        text = texts[start]
        assert isinstance(text, str)
        at = ("hooks", start, "effect")
        out.append(diagnostic(error, text, positions.value(at), at))
    return out


def _loop_from(start: str, edges: dict[str, list[tuple[str, ast.Action]]]) -> list[str] | None:
    """The hooks of a loop back to ``start`` along the runs that always happen (``start``
    first), or None. Depth first, with a stack of its own and each hook visited once."""
    seen = {start}
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    while stack:
        hook, path = stack.pop()
        for target, _ in edges.get(hook, ()):
            if target == start:
                return path
            if target not in seen:
                seen.add(target)
                stack.append((target, [*path, target]))
    return None
