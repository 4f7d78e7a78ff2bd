"""Expressions: every name resolved, every call checked against its signature, every expression
typed.

Each fault becomes a ``DslError`` at the exact token; each expression becomes a closure (with
its Python text, see ``pycode``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ckdsl.dsl.base.errors import DslError
from ckdsl.dsl.base.registry import AGGREGATES, FUNCTIONS, VERBS, Function, FunctionImpl
from ckdsl.dsl.base.types import (
    ANY,
    BOOL,
    BUNDLE,
    INT,
    LITERAL,
    PLAYER,
    TEXT,
    Type,
    family,
    fits,
    list_of,
    plural,
    specificity,
)
from ckdsl.rules.schemas import suggest

if TYPE_CHECKING:  # the syntax tree is imported by what compiles (a game runs without it)
    from ckdsl.dsl.base import ast
from ckdsl.dsl.compiler.closures import (
    AGGREGATE_TYPES,
    BOARD_IDS,
    _chain,
    _checked,
    _div,
    _fold,
    _mod,
    _mul,
    aggregate_closure,
)
from ckdsl.dsl.compiler.inline import _inline
from ckdsl.dsl.compiler.program import Fn, Names
from ckdsl.dsl.compiler.pycode import (
    _const,
    _const_of,
    _me,
    _name,
    _nothing,
    _py,
    _text,
    _unknown,
    _var_of,
    _variable,
    finish,
    finish_opt,
    to_python,
)
from ckdsl.dsl.compiler.selections import _aggregate_code


class ExpressionCompiler:
    """Checks and compiles expressions: each becomes a closure with its type (and the Python
    text it is written out as); ``errors`` holds every fault found."""

    def __init__(self, names: Names, variables: dict[str, Type] | None = None) -> None:
        self.names = names
        self.errors: list[DslError] = []
        self.code: list[list[Any]] = []
        self.lines: list[int] = []
        self.line = 1  # the line of the statement being compiled
        self.scope: dict[str, Type] = dict(variables or {})
        self.hidden = 0
        self.parameters_read: set[str] = set()  # the rule set's parameters it names
        # What of the state its calls read (Function.reads); None: something undeclared.
        self.reads: set[str] | None = set()
        self.reads_at: list[frozenset[str] | None] = []  # ``reads`` as each instruction ends
        # Whether it can stop (EffectFailure): a selection may run past the budget, a
        # written tile may not exist, a function may fail (``formula`` guards such).
        self.may_fail = False
        self.selecting = 0  # selections open around the expression being compiled
        self.nested = False  # a selection inside another: it may take the square of steps

    def error(
        self, node: ast.Node | tuple[int, int], message: str, hint: str | None = None
    ) -> None:
        line, col = node if isinstance(node, tuple) else (node.line, node.col)
        self.errors.append(DslError(line, col, message, hint))

    def bind(self, name: str, t: Type) -> Type | None:
        saved = self.scope.get(name)
        self.scope[name] = t
        return saved

    def unbind(self, name: str, saved: Type | None) -> None:
        if saved is None:
            self.scope.pop(name, None)
        else:
            self.scope[name] = saved

    # --- expressions ------------------------------------------------------------------

    def condition(self, node: ast.Expr, what: str) -> Fn:
        fn, t = self.expr(node)
        if t is not None and not fits(t, BOOL):
            self.error(node, f"{what} needs true or false here, not {t}")
        return fn

    def number(self, node: ast.Expr, what: str) -> Fn:
        fn, t = self.expr(node)
        if t is not None and not fits(t, INT):
            self.error(node, f"{what} needs a number, not {t}")
        return fn

    def player(self, node: ast.Expr) -> Fn:
        fn, t = self.expr(node)
        if t is not None and not fits(t, PLAYER):
            self.error(node, f"`by` needs a player, not {t}")
        return fn

    def selection(self, node: ast.Expr) -> tuple[Fn, Type]:
        fn, t = self.expr(node)
        if t is None:
            return fn, ANY
        if t.item is None:
            self.error(node, f"expected a list or selection here, not {t}")
            return fn, ANY
        return fn, t.item

    def expr(self, node: ast.Expr) -> tuple[Fn, Type | None]:
        """The closure computing ``node`` and its type (None after an error): one method
        per expression type; mypy checks the match is exhaustive (``_unknown``)."""
        from ckdsl.dsl.base import ast  # the syntax tree: only to compile

        match node:
            case ast.Number():
                return _const(node.value), LITERAL
            case ast.Text():
                return _const(node.value), TEXT
            case ast.Name():
                return self.name(node)
            case ast.Call():
                return self.call(node)
            case ast.Unary():
                return self.unary(node)
            case ast.Binary():
                return self.binary(node)
            case ast.Conditional():
                return self.conditional(node)
            case ast.ListOf():
                return self.list_of(node)
            case ast.Bundle():
                return self.bundle(node)
            case ast.Each():
                self.error(node, "`each` belongs inside count(...), sum(...), min, max, any or all")
                return _nothing, None
            case _:
                _unknown(node)

    def name(self, node: ast.Name) -> tuple[Fn, Type | None]:
        key = node.id
        if key in self.scope:
            return _variable(key), self.scope[key]
        if key == "me":
            return _me, PLAYER
        for fn in FUNCTIONS.get(key, ()):
            if not fn.params:
                return self._call_fn(fn, []), fn.result
        t = self.names.ids.get(key)
        if t is not None:
            return _const(key), t
        if key in self.names.params:
            self.parameters_read.add(key)
            value = self.names.params[key]
            if isinstance(value, bool):
                return _const(value), BOOL
            if isinstance(value, int):
                return _const(value), INT
            self.error(node, f"parameter '{key}' is {value!r}: a formula reads numbers and flags")
            return _nothing, None
        if key in FUNCTIONS:
            self.error(node, f"'{key}' needs arguments: {_signatures(key)}")
            return _nothing, None
        known = [*self.scope, *(f for f in FUNCTIONS if any(not v.params for v in FUNCTIONS[f])),
                 *self.names.ids, *self.names.params]  # fmt: skip
        self.error(node, f"unknown name '{key}'{suggest(key, known)}")
        return _nothing, None

    def call(self, node: ast.Call) -> tuple[Fn, Type | None]:
        from ckdsl.dsl.base import ast  # the syntax tree: only to compile

        overloads = FUNCTIONS.get(node.func)
        if overloads is None:
            hint = None
            if node.func in VERBS:
                example = VERBS[node.func].example
                hint = f"`{node.func}` is a verb: write it as a statement, like `{example}`"
            self.error(node, f"unknown function '{node.func}'{suggest(node.func, FUNCTIONS)}", hint)
            return _nothing, None
        if len(node.args) == 1 and isinstance(node.args[0], ast.Each):
            return self.aggregate(node, node.args[0])
        typed = [self.expr(a) for a in node.args]
        if any(t is None for _, t in typed):
            return _nothing, None
        best: Function | None = None
        score = 0
        for fn in overloads:
            if len(fn.params) != len(typed):
                continue
            fit = [specificity(t, p) for (_, t), p in zip(typed, fn.params, strict=True) if t]
            if all(fit) and sum(fit) > score:
                best, score = fn, sum(fit)
        if best is None:
            given = ", ".join(str(t) for _, t in typed) or "nothing"
            self.error(node, f"'{node.func}' does not take {given}: {_signatures(node.func)}")
            return _nothing, None
        args = [_checked(f, t, p) for (f, t), p in zip(typed, best.params, strict=True)]
        checked = any(a is not f for a, (f, _) in zip(args, typed, strict=True))
        self.may_fail |= best.may_fail or checked  # a written tile may not exist
        return self._call_fn(best, args), best.result

    def _call_fn(self, fn: Function, args: list[Fn]) -> Fn:
        """The call's closure, specialised for the shapes effects use most (the hot path:
        playability is checked at every main-phase decision)."""
        if fn.reads is None:
            self.reads = None
        elif self.reads is not None:
            self.reads |= fn.reads
        impl = fn.impl
        closure = self._call_closure(impl, args)
        inlined = _inline(impl, args) if to_python() else None
        if inlined is not None:
            text, names = inlined
            return _py(closure, text, args, names)
        name = _name(impl)
        text = f"{name}({', '.join(['env', *(_text(a) for a in args)])})"
        return _py(closure, text, args, {name: impl})

    @staticmethod
    def _call_closure(impl: FunctionImpl, args: list[Fn]) -> Fn:
        """The call as a closure (what runs if the call is not part of a larger expression
        compiled to Python as a whole: see ``finish``)."""
        if not args:
            return lambda env: impl(env)
        if len(args) == 1:
            (a,) = args
            var = _var_of(a)
            if var is not None:
                return lambda env: impl(env, env.vars[var])
            return lambda env: impl(env, a(env))
        if len(args) == 2:
            a, b = args
            var_a, var_b = _var_of(a), _var_of(b)
            if var_a is not None and var_b is not None:
                return lambda env: impl(env, env.vars[var_a], env.vars[var_b])
            if b is _me and var_a is None:
                return lambda env: impl(env, a(env), env.me)
            return lambda env: impl(env, a(env), b(env))
        if len(args) == 3:
            a, b, c = args
            return lambda env: impl(env, a(env), b(env), c(env))
        return lambda env: impl(env, *[f(env) for f in args])

    def aggregate(self, node: ast.Call, each: ast.Each) -> tuple[Fn, Type | None]:
        func = node.func
        if func not in AGGREGATES:
            self.error(each, f"'{func}' does not take a selection (`each`); these do: "
                       f"{', '.join(sorted(AGGREGATES))}")  # fmt: skip
            return _nothing, None
        self.may_fail = True  # it may run past the budget
        self.nested |= self.selecting > 0
        source, item = self.selection(each.source)
        saved = self.bind(each.var, item)
        self.selecting += 1
        where = self.condition(each.where, "`where`") if each.where is not None else None
        value: Fn | None = None
        value_type: Type | None = item
        if each.value is not None:
            value, value_type = self.expr(each.value)
        self.selecting -= 1
        self.unbind(each.var, saved)
        var = each.var
        source, where, value = finish(source), finish_opt(where), finish_opt(value)
        if func in ("sum", "min", "max") and value_type is not None and not fits(value_type, INT):
            self.error(each.value or each, f"'{func}' adds up numbers, not {value_type}")

        make = _aggregate_code if to_python() else aggregate_closure
        fn = make(func, source, var, where, value)
        return fn, list_of(value_type or ANY) if func == "list" else AGGREGATE_TYPES[func]

    def unary(self, node: ast.Unary) -> tuple[Fn, Type | None]:
        fn, t = self.expr(node.operand)
        if node.op == "not":
            if t is not None and not fits(t, BOOL):
                self.error(node, f"`not` needs true or false, not {t}")
            const = _const_of(fn)
            if const is not None:  # a parameter: decided once, here
                return _const(not const[0]), BOOL
            return _py(lambda env: not fn(env), f"(not {_text(fn)})", [fn]), BOOL
        if t is not None and not fits(t, INT):
            self.error(node, f"'-' needs a number, not {t}")
        return _py(lambda env: -fn(env), f"(-{_text(fn)})", [fn]), INT

    def binary(self, node: ast.Binary) -> tuple[Fn, Type | None]:
        a, ta = self.expr(node.left)
        b, tb = self.expr(node.right)
        op = node.op
        if ta is None or tb is None:
            return _nothing, None
        if op in ("and", "or"):
            for side, t in ((node.left, ta), (node.right, tb)):
                if not fits(t, BOOL):
                    self.error(side, f"`{op}` needs true or false on both sides, not {t}")
            folded = _fold(op, a, b)
            if folded is not None:
                return folded, BOOL
            return _chain(op, a, b), BOOL
        if op in ("==", "!="):
            if not fits(ta, tb):
                self.error(node, f"'{op}' compares {ta} with {tb}: they can never be equal")
            text = f"({_text(a)} {op} {_text(b)})"
            const = _const_of(b)
            if const is not None:
                value = const[0]
                if op == "==":
                    return _py(lambda env: a(env) == value, text, [a, b]), BOOL
                return _py(lambda env: a(env) != value, text, [a, b]), BOOL
            if op == "==":
                return _py(lambda env: a(env) == b(env), text, [a, b]), BOOL
            return _py(lambda env: a(env) != b(env), text, [a, b]), BOOL
        if op in ("in", "not in"):
            if tb.item is None:
                self.error(node.right, f"`{op}` needs a list on its right, not {tb}")
            elif not fits(ta, tb.item):
                self.error(node, f"`{op}`: {ta} is never in {tb}")
            text = f"({_text(a)} {op} {_text(b)})"
            if op == "in":
                return _py(lambda env: a(env) in b(env), text, [a, b]), BOOL
            return _py(lambda env: a(env) not in b(env), text, [a, b]), BOOL
        for side, t in ((node.left, ta), (node.right, tb)):
            if not fits(t, INT):
                self.error(side, f"'{op}' needs numbers on both sides, not {t}")
        ops: dict[str, Fn] = {
            "+": lambda env: a(env) + b(env),
            "-": lambda env: a(env) - b(env),
            "*": lambda env: _mul(a(env), b(env)),
            "/": lambda env: _div(a(env), b(env)),
            "%": lambda env: _mod(a(env), b(env)),
            "<": lambda env: a(env) < b(env),
            "<=": lambda env: a(env) <= b(env),
            ">": lambda env: a(env) > b(env),
            ">=": lambda env: a(env) >= b(env),
        }
        if op in ("/", "%", "*"):
            helper = {"/": _div, "%": _mod, "*": _mul}[op]
            text = f"{helper.__name__}({_text(a)}, {_text(b)})"
            names = {helper.__name__: helper}
            self.may_fail |= op == "*"
        else:
            text, names = f"({_text(a)} {op} {_text(b)})", {}
        fn = _py(ops[op], text, [a, b], names)
        return fn, BOOL if op in ("<", "<=", ">", ">=") else INT

    def conditional(self, node: ast.Conditional) -> tuple[Fn, Type | None]:
        then, ta = self.expr(node.then)
        cond = self.condition(node.cond, "`if`")
        orelse, tb = self.expr(node.orelse)
        if ta is None or tb is None:
            return _nothing, None
        if not fits(ta, tb):
            self.error(node, f"both sides of `if ... else` must be of one kind: {ta} or {tb}")
        result = _numbered(ta, tb)
        fn = lambda env: then(env) if cond(env) else orelse(env)  # noqa: E731
        text = f"({_text(then)} if {_text(cond)} else {_text(orelse)})"
        return _py(fn, text, [then, cond, orelse]), result

    def list_of(self, node: ast.ListOf) -> tuple[Fn, Type | None]:
        typed = [self.expr(i) for i in node.items]
        item: Type = ANY
        for (_, t), sub in zip(typed, node.items, strict=True):
            if t is None:
                continue
            if item is ANY:
                item = t
            elif not fits(t, item):
                self.error(sub, f"a list holds one kind of thing: {t} among {plural(item)}")
            elif t is LITERAL and family(item) in BOARD_IDS:
                item = LITERAL  # `[t, 19]`: checked against the board where a tile is meant
        fns = [f for f, _ in typed]
        text = f"[{', '.join(_text(f) for f in fns)}]"
        return _py(lambda env: [f(env) for f in fns], text, fns), list_of(item)

    def bundle(self, node: ast.Bundle) -> tuple[Fn, Type | None]:
        parts: list[tuple[str, Fn]] = []
        seen: set[str] = set()
        for pair in node.pairs:
            if pair.key not in self.names.goods:
                self.error(pair, f"unknown good '{pair.key}'{suggest(pair.key, self.names.goods)}")
            elif pair.key in seen:
                self.error(pair, f"'{pair.key}' is named twice")
            seen.add(pair.key)
            parts.append((pair.key, self.number(pair.value, f"'{pair.key}'")))
        text = "{" + ", ".join(f"{k!r}: {_text(f)}" for k, f in parts) + "}"
        fn = lambda env: {k: f(env) for k, f in parts}  # noqa: E731
        return _py(fn, text, [f for _, f in parts]), BUNDLE


def _signatures(name: str) -> str:
    return " or ".join(fn.form for fn in FUNCTIONS[name])


def _numbered(a: Type, b: Type) -> Type:
    """The type of a value that is ``a`` or ``b`` (the two sides of `if ... else`): a
    number written out beside a tile or an intersection keeps it a number written out,
    so that it is checked against the board where a place is meant."""
    if LITERAL in (a, b):
        other = b if a is LITERAL else a
        return LITERAL if family(other) in BOARD_IDS else other
    return a
