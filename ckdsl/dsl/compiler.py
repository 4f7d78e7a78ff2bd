"""Syntax tree to program: the static checks and the code, in one pass.

Every name is resolved (a variable, a function of the vocabulary, an id of the rule set,
a parameter), every call and verb is checked against its signature, and every expression
gets a type; each fault becomes a ``DslError`` at the exact token. A clean effect becomes
a ``Program``: a flat tuple of instructions whose expressions are Python closures, run by
``ckdsl.dsl.runtime``. The program belongs to the rule set (compiled once); what a paused
effect keeps in the game state is only a frame of plain data: which program, which
instruction, the variables (see ``runtime``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ckdsl.dsl import (
    ast,
    turn_vocabulary,  # noqa: F401  (registers the turn's words)
)
from ckdsl.dsl.errors import DslError, EffectFailure
from ckdsl.dsl.registry import AGGREGATES, FUNCTIONS, VERBS, Function, Verb
from ckdsl.dsl.types import (
    ANY,
    BOOL,
    BUNDLE,
    CARD,
    CHOICE_KINDS,
    COMMODITY,
    COUNTER,
    HOOK,
    INT,
    LITERAL,
    PHASE,
    PLAYER,
    RESOURCE,
    TERRAIN,
    TEXT,
    TRACK,
    Type,
    family,
    fits,
    list_of,
    plural,
    specificity,
)
from ckdsl.dsl.vocabulary import GRANT_TARGETS
from ckdsl.engine.allow import Env
from ckdsl.engine.building import cost_of, spots
from ckdsl.engine.compiled import has
from ckdsl.rules.schemas import load_schema, suggest

Fn = Callable[[Env], Any]

# Instruction opcodes (the first item of each instruction tuple).
LET, CHOOSE, REQUIRE, ACT, JUMP, BRANCH, FOR, NEXT, REPEAT, AGAIN, OPTIONAL, STOP = range(12)

# Where a choice looks when it has no `from`: the selector of its kind.
DEFAULT_SOURCE = {
    "tile": "tiles",
    "intersection": "intersections",
    "edge": "edges",
    "player": "players",
    "knight": "knights",
    "road": "roads",
    "city": "cities",
    "resource": "resources",
    "commodity": "commodities",
    "good": "goods",
    "track": "tracks",
    "terrain": "terrains",
}


@dataclass(frozen=True, slots=True)
class ChooseSpec:
    """A choice: what kind of thing, from where, filtered how, asked of whom."""

    kind: str
    var: str  # where the answer goes
    binder: str  # the name each candidate has in `where`
    source: Fn
    where: Fn | None
    by: Fn | None
    up_to: Fn | None
    on_empty: int  # -1: the effect ends; else: jump to this instruction
    line: int
    col: int


@dataclass(frozen=True)
class Program:
    """A compiled effect: instructions, the effect's line of each (for messages when one
    fails), and the syntax tree it came from (for ``explain``)."""

    code: tuple[tuple[Any, ...], ...]
    lines: tuple[int, ...]
    tree: ast.Effect

    @property
    def opening(self) -> tuple[tuple[Any, ...], ...]:
        """The instructions that decide whether the effect can start: its first `let`s and
        `require`s, up to and with its first choice (it stops at anything else)."""
        out = []
        for ins in self.code:
            if ins[0] not in (LET, REQUIRE, CHOOSE):
                break
            out.append(ins)
            if ins[0] == CHOOSE:
                break
        return tuple(out)


@dataclass(frozen=True)
class Names:
    """What names mean besides variables and the vocabulary: the rule set's ids (with
    their types) and its parameters (with their values)."""

    ids: dict[str, Type] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    goods: frozenset[str] = frozenset()

    @classmethod
    def of(cls, data: dict[str, Any]) -> Names:
        """The names of a rule set's merged data (read defensively: it may be broken)."""

        def keys(section: str) -> list[str]:
            value = data.get(section)
            return list(value) if isinstance(value, dict) else []

        ids: dict[str, Type] = {}
        for section, kind in (
            ("terrains", TERRAIN),
            ("cards", CARD),
            ("tracks", TRACK),
            ("resources", RESOURCE),
            ("commodities", COMMODITY),
            ("hooks", HOOK),
            ("counters", COUNTER),
            ("phases", PHASE),
        ):
            for key in keys(section):
                ids[key] = kind
        params = data.get("parameters")
        numeric = _numeric_parameters()
        values = {
            # A number or true/false; a numeric parameter with a bad value (reported by
            # the schema) still names a number, so no formula fails because of it.
            k: v if isinstance(v, int) else 0
            for k, v in (params.items() if isinstance(params, dict) else ())
            if isinstance(v, int) or k in numeric
        }
        return cls(ids, values, frozenset(keys("resources") + keys("commodities")))


def _numeric_parameters() -> frozenset[str]:
    """The parameters the schema declares as numbers or true/false."""
    spec = load_schema("rules")["properties"]["parameters"]["properties"]
    return frozenset(k for k, v in spec.items() if v.get("type") in ("integer", "boolean"))


class Compiler:
    """Checks and compiles one effect or formula. ``errors`` holds every fault found."""

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

    def error(
        self, node: ast.Node | tuple[int, int], message: str, hint: str | None = None
    ) -> None:
        line, col = (node.line, node.col) if isinstance(node, ast.Node) else node
        self.errors.append(DslError(line, col, message, hint))

    # --- entry points -----------------------------------------------------------------

    def effect(self, tree: ast.Effect) -> Program | None:
        self.block(tree.body)
        if self.errors:
            return None
        return Program(tuple(tuple(ins) for ins in self.code), tuple(self.lines), tree)

    def formula(self, expr: ast.Expr, want: Type) -> Fn | None:
        fn, got = self.expr(expr)
        if got is not None and not fits(got, want):
            self.error(expr, f"this formula must give {want}, not {got}")
        return None if self.errors else fn

    # --- statements -------------------------------------------------------------------

    def block(self, body: Iterable[ast.Stmt]) -> None:
        for stmt in body:
            self.statement(stmt)

    def emit(self, *ins: Any) -> int:
        self.code.append(list(ins))
        self.lines.append(self.line)
        return len(self.code) - 1

    def statement(self, stmt: ast.Stmt) -> None:
        outer, self.line = self.line, stmt.line
        self._statement(stmt)
        self.line = outer

    def _statement(self, stmt: ast.Stmt) -> None:
        if isinstance(stmt, ast.Let):
            if isinstance(stmt.value, ast.Choose):
                self.choose(stmt.value, stmt.name)
            else:
                fn, t = self.expr(stmt.value)
                self.emit(LET, stmt.name, fn)
                self.scope[stmt.name] = t or ANY
        elif isinstance(stmt, ast.Require):
            fn = self.condition(stmt.cond, "`require`")
            self.emit(REQUIRE, fn, stmt.message)
        elif isinstance(stmt, ast.Stop):
            self.emit(STOP)
        elif isinstance(stmt, ast.Action):
            self.action(stmt)
        elif isinstance(stmt, ast.If):
            jumps = []
            for cond, body in stmt.branches:
                fn = self.condition(cond, "`if`")
                branch = self.emit(BRANCH, fn, None)
                self.block(body)
                jumps.append(self.emit(JUMP, None))
                self.code[branch][2] = len(self.code)
            if stmt.orelse is not None:
                self.block(stmt.orelse)
            for j in jumps:
                self.code[j][1] = len(self.code)
        elif isinstance(stmt, ast.For):
            source, item = self.selection(stmt.source)
            saved = self.bind(stmt.var, item)
            where = self.condition(stmt.where, "`where`") if stmt.where else None
            start = self.emit(FOR, stmt.var, source, where, None)
            self.block(stmt.body)
            self.emit(NEXT, stmt.var, start + 1)
            self.code[start][4] = len(self.code)
            self.unbind(stmt.var, saved)
        elif isinstance(stmt, ast.Repeat):
            count = self.number(stmt.count, "`repeat`")
            start = self.emit(REPEAT, count, None)
            self.block(stmt.body)
            self.emit(AGAIN, start + 1)
            self.code[start][2] = len(self.code)
        elif isinstance(stmt, ast.Optional):
            by = self.player(stmt.by) if stmt.by is not None else None
            start = self.emit(OPTIONAL, by, None, False)
            self.block(stmt.body)
            self.code[start][2] = len(self.code)
            # If the block opens with a choice, "skip" is one of that choice's answers.
            first = self.code[start + 1] if start + 1 < len(self.code) else None
            self.code[start][3] = first is not None and first[0] == CHOOSE
        else:  # pragma: no cover - the parser makes no other statement
            raise AssertionError(stmt)

    def bind(self, name: str, t: Type) -> Type | None:
        saved = self.scope.get(name)
        self.scope[name] = t
        return saved

    def unbind(self, name: str, saved: Type | None) -> None:
        if saved is None:
            self.scope.pop(name, None)
        else:
            self.scope[name] = saved

    def choose(self, node: ast.Choose, var: str, *, on_empty: int = -1) -> int:
        kind_type = CHOICE_KINDS.get(node.kind)
        if kind_type is None:
            kinds = ", ".join(CHOICE_KINDS)
            message = f"cannot choose a '{node.kind}'{suggest(node.kind, CHOICE_KINDS)}"
            self.error((node.kind_line, node.kind_col), f"{message} (kinds: {kinds})")
            kind_type = ANY
        up_to = self.number(node.up_to, "`up to`") if node.up_to is not None else None
        if node.source is not None:
            source, item = self.selection(node.source)
            if kind_type is not ANY and not fits(item, kind_type):
                self.error(
                    node.source, f"a choice of {kind_type} cannot be made from {list_of(item)}"
                )
        elif node.kind in DEFAULT_SOURCE:
            source = self._call_fn(FUNCTIONS[DEFAULT_SOURCE[node.kind]][0], [])
        elif node.kind == "card":
            progress = FUNCTIONS["progress"][0]
            source = lambda env: progress.impl(env, env.me)  # noqa: E731
        else:
            if kind_type is not ANY:
                self.error(node, f"`choose {node.kind}` needs `from`: the {node.kind}s to "
                           "choose among")  # fmt: skip
            source = _nothing
        saved = self.bind(node.var, kind_type)
        where = self.condition(node.where, "`where`") if node.where is not None else None
        self.unbind(node.var, saved)
        by = self.player(node.by) if node.by is not None else None
        spec = ChooseSpec(node.kind, var, node.var, source, where, by, up_to, on_empty,
                          node.line, node.col)  # fmt: skip
        self.scope[var] = list_of(kind_type) if up_to is not None else kind_type
        return self.emit(CHOOSE, spec)

    def action(self, node: ast.Action) -> None:
        verb = VERBS.get(node.verb)
        if verb is None:
            self.error(node, f"unknown verb '{node.verb}'{suggest(node.verb, VERBS)}",
                       f"verbs: {', '.join(sorted(VERBS))}")  # fmt: skip
            return
        args: list[Fn] = []
        flags: set[str] = set()
        positional = [a for a in node.args if not self._is_flag(a, verb)]
        for a in node.args:
            if self._is_flag(a, verb):
                assert isinstance(a, ast.Name)
                if a.id in flags:
                    self.error(a, f"'{a.id}' is given twice")
                flags.add(a.id)
        required = [p for p in verb.params if not p.optional]
        if not len(required) <= len(positional) <= len(verb.params):
            names = " ".join(p.name for p in verb.params)
            self.error(node, f"`{verb.name}` takes {len(verb.params)} argument"
                       f"{'s' if len(verb.params) != 1 else ''} ({names}), not {len(positional)}",
                       f"for example: {verb.example}" if verb.example else None)  # fmt: skip
            return
        word = None
        for param, a in zip(verb.params, positional, strict=False):
            if param.type.words is not None:
                if not isinstance(a, ast.Name) or a.id not in param.type.words:
                    shown = a.id if isinstance(a, ast.Name) else "this"
                    self.error(a, f"`{verb.name}` takes {param.type} here, not {shown}"
                               f"{suggest(shown, param.type.words)}")  # fmt: skip
                    return
                word = a.id
                args.append(_const(a.id))
                continue
            fn, t = self.expr(a)
            if t is not None and not fits(t, param.type):
                self.error(a, f"`{verb.name}`: the {param.name} must be {param.type}, not {t}")
            args.append(_checked(fn, t, param.type))
        clauses: dict[str, Fn] = {}
        for clause in node.clauses:
            wanted = verb.clauses.get(clause.prep)
            if wanted is None:
                allowed = ", ".join(f"`{p}`" for p in verb.clauses) or "none"
                self.error(clause, f"`{verb.name}` takes no `{clause.prep}` (it takes: {allowed})")
                continue
            if clause.prep in clauses:
                self.error(clause, f"`{clause.prep}` is given twice")
                continue
            fn, t = self._clause_value(verb, word, clause)
            if t is not None and not fits(t, wanted.type):
                self.error(clause.value, f"`{verb.name} ... {clause.prep}`: the {wanted.name} "
                           f"must be {wanted.type}, not {t}")  # fmt: skip
            clauses[clause.prep] = _checked(fn, t, wanted.type)
        for prep, param in verb.clauses.items():
            if not param.optional and prep not in clauses:
                self.error(node, f"`{verb.name}` needs `{prep}` ({param.name})",
                           f"for example: {verb.example}" if verb.example else None)  # fmt: skip
        if verb.name == "grant":
            self._check_grant(node, positional, flags)
        if word in verb.decides and "at" not in clauses:
            self._choose_place(node, verb, word, flags, args, clauses)
            return
        self.emit(ACT, verb.impl, tuple(args), tuple(clauses.items()), frozenset(flags))

    def _is_flag(self, a: ast.Expr, verb: Verb) -> bool:
        return isinstance(a, ast.Name) and a.id in verb.flags and a.id not in self.scope

    def _clause_value(
        self, verb: Verb, word: str | None, clause: ast.Clause
    ) -> tuple[Fn, Type | None]:
        if verb.name == "grant" and clause.prep == "on" and word in ("discount", "price"):
            value = clause.value
            if not isinstance(value, ast.Name) or value.id not in GRANT_TARGETS:
                shown = value.id if isinstance(value, ast.Name) else "this"
                self.error(value, f"a {word} applies on one of {', '.join(sorted(GRANT_TARGETS))}, "
                           f"not {shown}")  # fmt: skip
                return _nothing, None
            return _const(value.id), None
        if verb.name == "grant" and clause.prep == "on":
            fn, t = self.expr(clause.value)
            if t is not None and not (
                fits(t, CHOICE_KINDS["good"]) or fits(t, list_of(CHOICE_KINDS["good"]))
            ):
                self.error(clause.value, f"a rate applies on a good or a list of goods, not {t}")
            return fn, None
        return self.expr(clause.value)

    def _check_grant(self, node: ast.Action, positional: list[ast.Expr], flags: set[str]) -> None:
        if len(positional) < 2 or not isinstance(positional[0], ast.Name):
            return
        kind, value = positional[0].id, positional[1]
        _, t = self.expr(value)
        want = BUNDLE if kind == "price" else INT
        if t is not None and not fits(t, want):
            self.error(value, f"`grant {kind}` takes {want}, not {t}")
        if "once" in flags and "always" in flags:
            self.error(node, "a modifier is either `once` or `always`, not both")

    def _choose_place(
        self,
        node: ast.Action,
        verb: Verb,
        word: str,
        flags: set[str],
        args: list[Fn],
        clauses: dict[str, Fn],
    ) -> None:
        """``build road free``: the player chooses where among the legal places (if they
        can pay). With no legal place the effect ends there, like any choice with nothing
        to choose from (so a card that opens with it cannot be played), unless the build
        is `optional`."""
        self.hidden += 1
        var = f"_{word}_{self.hidden}"
        paying = clauses.get("paying")
        free = "free" in flags

        def places(env: Env) -> list[int]:
            game, me = env.game, env.me
            if not free:
                if paying is not None:
                    price = game.bundle(paying(env))
                else:
                    price = cost_of(game, me, word, game.rules.costs[word])[0]
                if not has(game.state.players[me].hand, price):
                    return []
            return spots(game, me, word)

        kind = verb.decides[word]
        spec = ChooseSpec(kind, var, var, places, None, None, None, -1, node.line, node.col)
        self.emit(CHOOSE, spec)
        clauses["at"] = lambda env: env.vars[var]
        self.emit(ACT, verb.impl, tuple(args), tuple(clauses.items()), frozenset(flags))

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
        """The closure computing ``node`` and its type (None after an error)."""
        if isinstance(node, ast.Number):
            return _const(node.value), LITERAL
        if isinstance(node, ast.Text):
            return _const(node.value), TEXT
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Unary):
            return self.unary(node)
        if isinstance(node, ast.Binary):
            return self.binary(node)
        if isinstance(node, ast.Conditional):
            return self.conditional(node)
        if isinstance(node, ast.ListOf):
            return self.list_of(node)
        if isinstance(node, ast.Bundle):
            return self.bundle(node)
        if isinstance(node, ast.Each):
            self.error(node, "`each` belongs inside count(...), sum(...), min, max, any or all")
            return _nothing, None
        raise AssertionError(node)  # pragma: no cover

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
            return _const(value), BOOL if isinstance(value, bool) else INT
        if key in FUNCTIONS:
            self.error(node, f"'{key}' needs arguments: {_signatures(key)}")
            return _nothing, None
        known = [*self.scope, *(f for f in FUNCTIONS if any(not v.params for v in FUNCTIONS[f])),
                 *self.names.ids, *self.names.params]  # fmt: skip
        self.error(node, f"unknown name '{key}'{suggest(key, known)}")
        return _nothing, None

    def call(self, node: ast.Call) -> tuple[Fn, Type | None]:
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
        return self._call_fn(best, args), best.result

    def _call_fn(self, fn: Function, args: list[Fn]) -> Fn:
        """The call's closure, specialised for the shapes effects use most (the hot path:
        playability is checked at every main-phase decision)."""
        if fn.reads is None:
            self.reads = None
        elif self.reads is not None:
            self.reads |= fn.reads
        impl = fn.impl
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
        source, item = self.selection(each.source)
        saved = self.bind(each.var, item)
        where = self.condition(each.where, "`where`") if each.where is not None else None
        value: Fn | None = None
        value_type: Type | None = item
        if each.value is not None:
            value, value_type = self.expr(each.value)
        self.unbind(each.var, saved)
        var = each.var
        if func in ("sum", "min", "max") and value_type is not None and not fits(value_type, INT):
            self.error(each.value or each, f"'{func}' adds up numbers, not {value_type}")

        def items(env: Env) -> list[Any]:
            if value is None:
                return list(selected(env, source, var, where))
            return [value(env) for _ in selected(env, source, var, where)]

        def every(env: Env) -> bool:
            if value is not None:
                return all(items(env))
            return where is None or all(where(env) for _ in selected(env, source, var, None))

        def exists(env: Env) -> bool:
            if value is not None:
                return any(items(env))
            return any(True for _ in selected(env, source, var, where))

        result: dict[str, tuple[Fn, Type]] = {
            "count": (lambda env: count(env, source, var, where), INT),
            "sum": (lambda env: sum(items(env)), INT),
            "min": (lambda env: min(items(env), default=0), INT),
            "max": (lambda env: max(items(env), default=0), INT),
            "any": (exists, BOOL),
            "all": (every, BOOL),
            "list": (items, list_of(value_type or ANY)),
        }
        return result[func]

    def unary(self, node: ast.Unary) -> tuple[Fn, Type | None]:
        fn, t = self.expr(node.operand)
        if node.op == "not":
            if t is not None and not fits(t, BOOL):
                self.error(node, f"`not` needs true or false, not {t}")
            const = _const_of(fn)
            if const is not None:  # a parameter: decided once, here
                return _const(not const[0]), BOOL
            return (lambda env: not fn(env)), BOOL
        if t is not None and not fits(t, INT):
            self.error(node, f"'-' needs a number, not {t}")
        return (lambda env: -fn(env)), INT

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
            const = _const_of(b)
            if const is not None:
                value = const[0]
                if op == "==":
                    return (lambda env: a(env) == value), BOOL
                return (lambda env: a(env) != value), BOOL
            if op == "==":
                return (lambda env: a(env) == b(env)), BOOL
            return (lambda env: a(env) != b(env)), BOOL
        if op in ("in", "not in"):
            if tb.item is None:
                self.error(node.right, f"`{op}` needs a list on its right, not {tb}")
            elif not fits(ta, tb.item):
                self.error(node, f"`{op}`: {ta} is never in {tb}")
            if op == "in":
                return (lambda env: a(env) in b(env)), BOOL
            return (lambda env: a(env) not in b(env)), BOOL
        for side, t in ((node.left, ta), (node.right, tb)):
            if not fits(t, INT):
                self.error(side, f"'{op}' needs numbers on both sides, not {t}")
        ops: dict[str, Fn] = {
            "+": lambda env: a(env) + b(env),
            "-": lambda env: a(env) - b(env),
            "*": lambda env: a(env) * b(env),
            "/": lambda env: _div(a(env), b(env)),
            "%": lambda env: _mod(a(env), b(env)),
            "<": lambda env: a(env) < b(env),
            "<=": lambda env: a(env) <= b(env),
            ">": lambda env: a(env) > b(env),
            ">=": lambda env: a(env) >= b(env),
        }
        return ops[op], BOOL if op in ("<", "<=", ">", ">=") else INT

    def conditional(self, node: ast.Conditional) -> tuple[Fn, Type | None]:
        then, ta = self.expr(node.then)
        cond = self.condition(node.cond, "`if`")
        orelse, tb = self.expr(node.orelse)
        if ta is None or tb is None:
            return _nothing, None
        if not fits(ta, tb):
            self.error(node, f"both sides of `if ... else` must be of one kind: {ta} or {tb}")
        result = tb if ta is LITERAL else ta
        return (lambda env: then(env) if cond(env) else orelse(env)), result

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
        fns = [f for f, _ in typed]
        return (lambda env: [f(env) for f in fns]), list_of(item)

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
        return (lambda env: {k: f(env) for k, f in parts}), BUNDLE


def _chain(op: str, a: Fn, b: Fn) -> Fn:
    """``a and b`` (or ``or``), with a chain of the same operator run in one closure: the
    hot conditions (`allow`, `where`) are chains of three or four tests."""
    parts = [*getattr(a, op, (a,)), *getattr(b, op, (b,))]
    if len(parts) == 2:
        x, y = parts
        fn = (lambda env: x(env) and y(env)) if op == "and" else (lambda env: x(env) or y(env))
    elif len(parts) == 3:
        x, y, z = parts
        if op == "and":
            fn = lambda env: x(env) and y(env) and z(env)  # noqa: E731
        else:
            fn = lambda env: x(env) or y(env) or z(env)  # noqa: E731
    elif op == "and":
        fn = lambda env: all(f(env) for f in parts)  # noqa: E731
    else:
        fn = lambda env: any(f(env) for f in parts)  # noqa: E731
    setattr(fn, op, tuple(parts))
    return fn


def _fold(op: str, a: Fn, b: Fn) -> Fn | None:
    """``a and b`` or ``a or b`` with a side known when the rule set is compiled (a
    parameter such as ``win_on_own_turn_only``): the other side alone, or the constant."""
    for known, other in ((_const_of(a), b), (_const_of(b), a)):
        if known is None:
            continue
        if bool(known[0]) == (op == "and"):  # true and x, x or false: x
            return other
        return _const(op == "or")  # false and x: false; true or x: true
    return None


def count(env: Env, source: Fn, var: str, where: Fn | None) -> int:
    """How many items of ``source`` pass ``where`` (``selected`` without a generator: card
    playability counts tiles at every main-phase decision)."""
    vars_ = env.vars
    had, old = var in vars_, vars_.get(var)
    n = 0
    for x in source(env):
        vars_[var] = x
        if where is None or where(env):
            n += 1
    restore_name(vars_, var, had, old)
    return n


def restore_name(vars_: dict[str, Any], var: str, had: bool, old: Any) -> None:
    """Put back what ``var`` named before a selection lent the name to its items."""
    if had:
        vars_[var] = old
    else:
        vars_.pop(var, None)


def selected(env: Env, source: Fn, var: str, where: Fn | None) -> Iterator[Any]:
    """Each item of ``source`` that passes ``where``, with ``var`` naming it meanwhile;
    the effect's own ``var`` (if any) is put back afterwards, even if the caller stops."""
    vars_ = env.vars
    had, old = var in vars_, vars_.get(var)
    try:
        for x in source(env):
            vars_[var] = x
            if where is None or where(env):
                yield x
    finally:
        restore_name(vars_, var, had, old)


def _checked(fn: Fn, actual: Type | None, expected: Type) -> Fn:
    """A number written out where a tile or an intersection is meant: checked against the
    board when the effect runs (the rule set does not know the map)."""
    if actual is not LITERAL or family(expected) not in BOARD_IDS:
        return fn
    what = family(expected)
    const = _const_of(fn)
    assert const is not None  # every literal compiles to a constant
    value = const[0]

    def check(env: Env) -> Any:
        count = board_size(env, what)
        if not 0 <= value < count:
            raise EffectFailure(f"there is no {what} {value} on this board (0 to {count - 1})")
        return value

    return check


BOARD_IDS = ("tile", "intersection")


def board_size(env: Env, what: str) -> int:
    topo = env.game.topo
    return len(topo.hexes) if what == "tile" else len(topo.inter_tiles)


def _const(value: Any) -> Fn:
    fn = lambda env: value  # noqa: E731
    fn.const = (value,)  # type: ignore[attr-defined]
    return fn


def _variable(name: str) -> Fn:
    fn = lambda env: env.vars[name]  # noqa: E731
    fn.var = name  # type: ignore[attr-defined]
    return fn


def _var_of(fn: Fn) -> str | None:
    return getattr(fn, "var", None)


def _const_of(fn: Fn) -> tuple[Any] | None:
    return getattr(fn, "const", None)


def _me(env: Env) -> int:
    return env.me


def _nothing(env: Env) -> Any:
    return []


def _div(a: int, b: int) -> int:
    """Division rounds down; by zero gives 0 (an effect never crashes a game)."""
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _signatures(name: str) -> str:
    return " or ".join(fn.form for fn in FUNCTIONS[name])
