"""Syntax tree to program: the static checks and the code, in one pass.

Every name is resolved (a variable, a function of the vocabulary, an id of the rule set,
a parameter), every call and verb is checked against its signature, and every expression
gets a type; each fault becomes a ``DslError`` at the exact token. A clean effect becomes
a ``Program``: a flat tuple of instructions whose expressions are Python closures, run by
``ckdsl.dsl.runtime``. The program belongs to the rule set (compiled once); what a paused
effect keeps in the game state is only a frame of plain data: which program, which
instruction, the variables (see ``runtime``).

What runs is faster than closures calling closures: each expression is also written out
as Python text and compiled as one function (``finish``), with the bodies of the
vocabulary's one-line functions written in (``_inline``); loops over selections, a hook
run from its start, a card's opening are compiled the same way (``run_code``...).
``closures_only`` compiles to the closures alone: the reference the tests compare with.
"""

from __future__ import annotations

import ast as pyast
import builtins
import contextlib
import functools
import inspect
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import CodeType, FunctionType
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

from ckdsl.dsl import turn_vocabulary  # noqa: F401  (registers the turn's words)
from ckdsl.dsl.errors import LARGEST, DslError, EffectFailure, out_of_budget
from ckdsl.dsl.registry import AGGREGATES, FUNCTIONS, VERBS, Function, FunctionImpl, Verb
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
from ckdsl.engine.values import Value, Variables, number
from ckdsl.jsondata import JsonValue
from ckdsl.rules.schemas import load_schema, suggest

if TYPE_CHECKING:  # the syntax tree is imported by what compiles (a game runs without it)
    from ckdsl.dsl import ast

Fn = Callable[[Env], Any]

Instruction: TypeAlias = "tuple[Any, ...]"
"""One instruction of a compiled program: its operation (``ACT``, ``BRANCH``...), then
its operands, whose kinds depend on the operation (see ``Compiler.emit``'s callers)."""

Namespace: TypeAlias = "dict[str, object]"
"""The names compiled Python text reads (``_o<id>`` for each object it calls)."""

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
    # The same as one function each (``selection_code``, ``candidate_code``: compiled to
    # Python, or closures under ``closures_only``): the candidates, and whether there is one.
    candidates: Fn
    any_candidate: Fn


@dataclass(frozen=True)
class Program:
    """A compiled effect: instructions, and the effect's line of each (for messages when
    one fails)."""

    code: tuple[Instruction, ...]
    lines: tuple[int, ...]
    # What of the state the instructions up to each one read (``Function.reads``; None:
    # something undeclared): ``opening_reads`` keys the cache of a card's playability.
    reads_at: tuple[frozenset[str] | None, ...] = ()

    @property
    def opening_reads(self) -> frozenset[str] | None:
        """What the opening reads of the state (``Function.reads``), or None if it reads
        something undeclared (its playability is then never kept)."""
        opening = self.opening
        if not opening:
            return frozenset()
        at = len(opening) - 1
        return self.reads_at[at] if at < len(self.reads_at) else None

    @property
    def opening(self) -> tuple[Instruction, ...]:
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
    params: Mapping[str, JsonValue] = field(default_factory=dict)
    goods: frozenset[str] = frozenset()

    @classmethod
    def of(cls, data: Mapping[str, JsonValue]) -> Names:
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

    # --- entry points -----------------------------------------------------------------

    def effect(self, tree: ast.Effect) -> Program | None:
        self.block(tree.body)
        if self.errors:
            return None
        code = tuple(tuple(ins) for ins in self.code)
        return Program(code, tuple(self.lines), tuple(self.reads_at))

    def formula(self, expr: ast.Expr, want: Type) -> Fn | None:
        fn, got = self.expr(expr)
        if got is not None and not fits(got, want):
            self.error(expr, f"this formula must give {want}, not {got}")
        if self.errors:
            return None
        return guarded(finish(fn), want, self.nested) if self.may_fail else finish(fn)

    # --- statements -------------------------------------------------------------------

    def block(self, body: Iterable[ast.Stmt]) -> None:
        for stmt in body:
            self.statement(stmt)

    def emit(self, *ins: Any) -> int:
        self.code.append(list(ins))
        self.lines.append(self.line)
        self.reads_at.append(None if self.reads is None else frozenset(self.reads))
        return len(self.code) - 1

    def statement(self, stmt: ast.Stmt) -> None:
        outer, self.line = self.line, stmt.line
        self._statement(stmt)
        self.line = outer

    def _statement(self, stmt: ast.Stmt) -> None:
        """One method per statement type; mypy checks the match is exhaustive (``_unknown``)."""
        from ckdsl.dsl import ast  # the syntax tree: only to compile

        match stmt:
            case ast.Let():
                self._let(stmt)
            case ast.Require():
                fn = self.condition(stmt.cond, "`require`")
                self.emit(REQUIRE, finish(fn), stmt.message)
            case ast.Stop():
                self.emit(STOP)
            case ast.Action():
                self.action(stmt)
            case ast.If():
                self._if(stmt)
            case ast.For():
                self._for(stmt)
            case ast.Repeat():
                self._repeat(stmt)
            case ast.Optional():
                self._optional(stmt)
            case _:
                _unknown(stmt)

    def _let(self, stmt: ast.Let) -> None:
        from ckdsl.dsl import ast  # the syntax tree: only to compile

        if isinstance(stmt.value, ast.Choose):
            self.choose(stmt.value, stmt.name)
        else:
            fn, t = self.expr(stmt.value)
            self.emit(LET, stmt.name, finish(fn))
            self.scope[stmt.name] = t or ANY

    def _if(self, stmt: ast.If) -> None:
        jumps = []
        for cond, body in stmt.branches:
            fn = self.condition(cond, "`if`")
            branch = self.emit(BRANCH, finish(fn), None)
            self.block(body)
            jumps.append(self.emit(JUMP, None))
            self.code[branch][2] = len(self.code)
        if stmt.orelse is not None:
            self.block(stmt.orelse)
        for j in jumps:
            self.code[j][1] = len(self.code)

    def _for(self, stmt: ast.For) -> None:
        source, item = self.selection(stmt.source)
        saved = self.bind(stmt.var, item)
        where = self.condition(stmt.where, "`where`") if stmt.where else None
        source, where = finish(source), finish_opt(where)
        select = selection_code(source, stmt.var, where)
        start = self.emit(FOR, stmt.var, source, where, None, select)
        self.block(stmt.body)
        self.emit(NEXT, stmt.var, start + 1)
        self.code[start][4] = len(self.code)
        self.unbind(stmt.var, saved)

    def _repeat(self, stmt: ast.Repeat) -> None:
        count = self.number(stmt.count, "`repeat`")
        start = self.emit(REPEAT, finish(count), None)
        self.block(stmt.body)
        self.emit(AGAIN, start + 1)
        self.code[start][2] = len(self.code)

    def _optional(self, stmt: ast.Optional) -> None:
        by = self.player(stmt.by) if stmt.by is not None else None
        start = self.emit(OPTIONAL, finish_opt(by), None, False)
        self.block(stmt.body)
        self.code[start][2] = len(self.code)
        # If the block opens with a choice, "skip" is one of that choice's answers.
        first = self.code[start + 1] if start + 1 < len(self.code) else None
        self.code[start][3] = first is not None and first[0] == CHOOSE

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
            self.reads = None  # the cards in hand: not a declared part of the state
            impl = FUNCTIONS["progress"][0].impl
            source = _py(lambda env: impl(env, env.me), f"{_name(impl)}(env, env.me)", (),
                         {_name(impl): impl})  # fmt: skip
        else:
            if kind_type is not ANY:
                self.error(node, f"`choose {node.kind}` needs `from`: the {node.kind}s to "
                           "choose among")  # fmt: skip
            source = _nothing
        saved = self.bind(node.var, kind_type)
        where = self.condition(node.where, "`where`") if node.where is not None else None
        self.unbind(node.var, saved)
        by = self.player(node.by) if node.by is not None else None
        source, where = finish(source), finish_opt(where)
        spec = ChooseSpec(node.kind, var, node.var, source, where, finish_opt(by),
                          finish_opt(up_to), on_empty, node.line, node.col,
                          selection_code(source, node.var, where),
                          candidate_code(source, node.var, where))  # fmt: skip
        self.scope[var] = list_of(kind_type) if up_to is not None else kind_type
        return self.emit(CHOOSE, spec)

    def action(self, node: ast.Action) -> None:
        from ckdsl.dsl import ast  # the syntax tree: only to compile

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
            args.append(finish(_checked(fn, t, param.type)))
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
            clauses[clause.prep] = finish(_checked(fn, t, wanted.type))
        for prep, param in verb.clauses.items():
            if not param.optional and prep not in clauses:
                self.error(node, f"`{verb.name}` needs `{prep}` ({param.name})",
                           f"for example: {verb.example}" if verb.example else None)  # fmt: skip
        if verb.name == "grant":
            self._check_grant(node, positional, flags)
        if word in verb.decides and "at" not in clauses:
            self._choose_place(node, verb, word, flags, args, clauses)
            return
        self.emit(ACT, *_act(verb.impl, args, clauses, flags))

    def _is_flag(self, a: ast.Expr, verb: Verb) -> bool:
        from ckdsl.dsl import ast  # the syntax tree: only to compile

        return isinstance(a, ast.Name) and a.id in verb.flags and a.id not in self.scope

    def _clause_value(
        self, verb: Verb, word: str | None, clause: ast.Clause
    ) -> tuple[Fn, Type | None]:
        from ckdsl.dsl import ast  # the syntax tree: only to compile

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
        from ckdsl.dsl import ast  # the syntax tree: only to compile

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
        self.reads = None  # the hand, the turn's prices and the supply: not declared
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
            return list(spots(game, me, word))

        kind = verb.decides[word]
        spec = ChooseSpec(kind, var, var, places, None, None, None, -1, node.line, node.col,
                          selection_code(places, var, None),
                          candidate_code(places, var, None))  # fmt: skip
        self.emit(CHOOSE, spec)
        clauses["at"] = _variable(var)
        self.emit(ACT, *_act(verb.impl, args, clauses, flags))

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
        from ckdsl.dsl import ast  # the syntax tree: only to compile

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
        from ckdsl.dsl import ast  # the syntax tree: only to compile

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
        inlined = _inline(impl, args) if _PYTHON else None
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

        make = _aggregate_code if _PYTHON else aggregate_closure
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
        result = tb if ta is LITERAL else ta
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


AGGREGATE_TYPES = {"count": INT, "sum": INT, "min": INT, "max": INT, "any": BOOL, "all": BOOL}
"""What each aggregate gives (``list``: a list of its items or values)."""


def aggregate_closure(func: str, source: Fn, var: str, where: Fn | None, value: Fn | None) -> Fn:
    """An aggregate (``sum(v for each x in s where c)``) as closures over its parts: what
    its compiled code (``_aggregate_code``) computes, step for step."""

    def items(env: Env) -> list[Value]:
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

    result: dict[str, Fn] = {
        "count": lambda env: count(env, source, var, where),
        "sum": lambda env: sum(items(env)),
        "min": lambda env: min(map(number, items(env)), default=0),
        "max": lambda env: max(map(number, items(env)), default=0),
        "any": exists,
        "all": every,
        "list": items,
    }
    return result[func]


def _unknown(node: NoReturn) -> NoReturn:
    """Reached only if a node type has no case: mypy rejects the call while one is missing
    (``NoReturn`` takes no value), so a node added to ``ast`` cannot be forgotten here."""
    raise AssertionError(f"no case for {node!r}")


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
    text = f" {op} ".join(_text(f) for f in parts)
    # Four or more parts ran as all(...) / any(...): a true or false, not the operand.
    return _py(fn, f"({text})" if len(parts) <= 3 else f"bool({text})", parts)


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


def _act(
    impl: Callable[..., None], arg_fns: list[Fn], clause_fns: dict[str, Fn], flag_set: set[str]
) -> Instruction:
    """The operands of an ACT instruction: the verb, its arguments, clauses and flags, and
    the call as one function (``impl(env, [args...], {clauses...}, flags)``, compiled to
    Python with its arguments: see ``finish``), which is what the runtime calls."""
    args, clauses, flags = tuple(arg_fns), tuple(clause_fns.items()), frozenset(flag_set)

    def call(env: Env) -> None:
        impl(env, [f(env) for f in args], {k: f(env) for k, f in clauses}, flags)

    text = "{}(env, [{}], {{{}}}, {})".format(
        _name(impl),
        ", ".join(_text(f) for f in args),
        ", ".join(f"{k!r}: {_text(f)}" for k, f in clauses),
        _name(flags),
    )
    names = {_name(impl): impl, _name(flags): flags}
    made = finish(_py(call, text, [*args, *(f for _, f in clauses)], names))
    return impl, args, clauses, flags, made


def count(env: Env, source: Fn, var: str, where: Fn | None) -> int:
    """How many items of ``source`` pass ``where`` (``selected`` without a generator: card
    playability counts tiles at every main-phase decision)."""
    vars_ = env.vars
    items = charge(env, source(env))
    had, old = var in vars_, vars_.get(var)
    n = 0
    for x in items:
        vars_[var] = x
        if where is None or where(env):
            n += 1
    restore_name(vars_, var, had, old)
    return n


def selected_items(env: Env, source: Fn, var: str, where: Fn | None) -> list[Value]:
    """The distinct items of a selection that pass ``where`` (all picked before a loop
    runs, so a loop's body does not change which items it visits)."""
    items = source(env)
    if where is None:
        return list(dict.fromkeys(items))
    items = charge(env, items)
    vars_ = env.vars
    had, old = var in vars_, vars_.get(var)
    kept: dict[Value, None] = {}
    for x in items:
        vars_[var] = x
        if where(env):
            kept[x] = None
    restore_name(vars_, var, had, old)
    return list(kept)


def has_item(env: Env, source: Fn, var: str, where: Fn | None) -> bool:
    """Whether a selection has an item that passes ``where`` (it stops at the first, and
    leaves ``var`` naming it)."""
    vars_ = env.vars
    for x in charge(env, source(env)):
        vars_[var] = x
        if where is None or where(env):
            return True
    return False


def charge(env: Env, items: Iterable[Value]) -> Sequence[Value]:
    """``items``, paid for: a selection costs the effect's budget one step per item it
    looks at (``STEP_BUDGET``), so selections in selections cannot run for hours."""
    found = items if isinstance(items, (list, tuple)) else list(items)
    env.budget -= len(found)
    if env.budget < 0:
        out_of_budget()
    return found


def restore_name(vars_: Variables, var: str, had: bool, old: Value) -> None:
    """Put back what ``var`` named before a selection lent the name to its items."""
    if had:
        vars_[var] = old
    else:
        vars_.pop(var, None)


def selected(env: Env, source: Fn, var: str, where: Fn | None) -> Iterator[Value]:
    """Each item of ``source`` that passes ``where``, with ``var`` naming it meanwhile;
    the effect's own ``var`` (if any) is put back afterwards, even if the caller stops."""
    vars_ = env.vars
    had, old = var in vars_, vars_.get(var)
    try:
        for x in charge(env, source(env)):
            vars_[var] = x
            if where is None or where(env):
                yield x
    finally:
        restore_name(vars_, var, had, old)


def guarded(formula: Fn, want: Type, nested: bool) -> Fn:
    """A formula that can stop (a selection past the budget, a tile the board lacks), as
    the engine asks it: stopped, it gives false or 0, so a rule set's condition cannot
    crash a game. ``ckdsl validate`` tries a formula with selections in selections
    (``nested``) on a new game, and reports it if it runs past the budget there
    (``unguarded`` is the formula itself)."""
    default: Value = False if want is BOOL else 0

    def run(env: Env) -> Value:
        try:
            result: Value = formula(env)
            return result
        except EffectFailure:
            return default

    run.unguarded = formula  # type: ignore[attr-defined]
    run.nested = nested  # type: ignore[attr-defined]
    return run


def _checked(fn: Fn, actual: Type | None, expected: Type) -> Fn:
    """A number written out where a tile or an intersection is meant: checked against the
    board when the effect runs (the rule set does not know the map)."""
    if actual is not LITERAL or family(expected) not in BOARD_IDS:
        return fn
    what = family(expected)
    const = _const_of(fn)

    def check(env: Env) -> Value:
        # A written number, or a name bound to one (an item of `[0, 23]`).
        value = number(const[0] if const is not None else fn(env))
        count = board_size(env, what)
        if not 0 <= value < count:
            raise EffectFailure(
                f"there is no {what} {value} on this board (0 to {count - 1})",
                f"stop_no_{what}", value=value, last=count - 1,
            )  # fmt: skip
        return value

    return check


BOARD_IDS = ("tile", "intersection")


def board_size(env: Env, what: str) -> int:
    topo = env.game.topo
    return len(topo.hexes) if what == "tile" else len(topo.inter_tiles)


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


def _div(a: int, b: int) -> int:
    """Division rounds down; by zero gives 0 (an effect never crashes a game)."""
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _mul(a: int, b: int) -> int:
    product = a * b
    if -LARGEST <= product <= LARGEST:
        return product
    raise EffectFailure(
        f"{a} × {b} is past the largest number an effect may make (10^18)",
        "stop_too_large", a=a, b=b,
    )  # fmt: skip


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


# A function of the vocabulary whose body is one `return` of an expression is written
# into the text in place of its call (``_inline``): ``active(k)`` becomes
# ``env.game.state.knight_active[env.vars['k']]``. Its arguments take the place of its
# parameters; an argument that is more than a variable, ``me`` or a constant only when
# each parameter is read once, in order, and always (so every argument is computed once,
# in the order of the call); the names the body reads from its module are looked up once.


@dataclass(frozen=True)
class _Template:
    """The body of a function of the vocabulary, ready to be written in place of a call:
    its text with a placeholder for each parameter (``_slot``), and the names it reads
    from its module under their names in the namespace."""

    text: str
    params: int  # how many, besides the environment
    names: Namespace
    in_order: bool  # each parameter read once, in order, and always (see above)


_TEMPLATES: dict[FunctionImpl, _Template | None] = {}


def _slot(k: int) -> str:
    """The placeholder of parameter ``k`` in a template's text (a control character can
    be in no other part of the text: the text of a string is its ``repr``)."""
    return f"\x01{k}\x01"


def _inline(impl: FunctionImpl, args: list[Fn]) -> tuple[str, Namespace] | None:
    """The text of ``impl(env, *args)`` with the body of ``impl`` written out, and the
    names it needs besides those of ``args`` (None: ``impl`` is not written out)."""
    if impl not in _TEMPLATES:
        _TEMPLATES[impl] = _template(impl)
    template = _TEMPLATES[impl]
    if template is None or template.params != len(args):
        return None
    simple = all(_var_of(a) is not None or _const_of(a) is not None or a is _me for a in args)
    if not (simple or template.in_order):
        return None
    text = template.text
    for k, a in enumerate(args):
        text = text.replace(_slot(k), f"({_text(a)})")
    return f"({text})", template.names


def _template(impl: FunctionImpl) -> _Template | None:
    """The body of ``impl`` if it can be written in place of its calls (see ``_inline``)."""
    if not isinstance(impl, FunctionType) or impl.__closure__ or impl.__defaults__:
        return None
    code = impl.__code__
    if code.co_kwonlyargcount or code.co_posonlyargcount:
        return None
    if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return None
    try:
        tree = pyast.parse(textwrap.dedent(inspect.getsource(impl)))
    except (OSError, TypeError, SyntaxError):
        return None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, pyast.FunctionDef) or node.name != impl.__name__:
        return None
    body = node.body
    if body and isinstance(body[0], pyast.Expr) and isinstance(body[0].value, pyast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], pyast.Return) or body[0].value is None:
        return None
    expr = body[0].value
    params = [a.arg for a in node.args.args]
    if not params:
        return None
    bound: set[str] = set()  # names the body binds itself (a comprehension's, a lambda's)
    for sub in pyast.walk(expr):
        if isinstance(sub, pyast.Name) and not isinstance(sub.ctx, pyast.Load):
            bound.add(sub.id)
        elif isinstance(sub, pyast.arg):
            bound.add(sub.arg)
        elif isinstance(sub, (pyast.NamedExpr, pyast.Await, pyast.Yield, pyast.YieldFrom)):
            return None
    namespace = impl.__globals__
    if bound & {"env", *params, *namespace} or any(b.startswith("_") for b in bound):
        return None
    names: Namespace = {}
    for sub in pyast.walk(expr):
        if isinstance(sub, pyast.Name) and sub.id not in params and sub.id not in bound:
            if sub.id in namespace:
                names[sub.id] = namespace[sub.id]
            elif not hasattr(builtins, sub.id):
                return None
    read = [n.id for n in _in_order(expr) if isinstance(n, pyast.Name) and n.id in params[1:]]
    in_order = read == params[1:] and not any(_unordered(n) for n in pyast.walk(expr))
    values = {p: _slot(k) for k, p in enumerate(params[1:])}
    values[params[0]] = "env"
    values.update({key: _name(obj) for key, obj in names.items()})

    class Put(pyast.NodeTransformer):
        def visit_Name(self, node: pyast.Name) -> pyast.expr:
            found = values.get(node.id)
            return node if found is None else pyast.Name(found, pyast.Load())

    text = pyast.unparse(Put().visit(expr))
    namespace = {_name(obj): obj for obj in names.values()}
    return _Template(text, len(params) - 1, namespace, in_order)


def _unordered(node: pyast.AST) -> bool:
    """Whether Python may skip part of ``node``, or compute its parts in another order than
    they are written (``_in_order`` would not say in what order its names are read)."""
    if isinstance(node, pyast.Compare):
        return len(node.ops) > 1  # a chain stops at its first false comparison
    return isinstance(node, (pyast.BoolOp, pyast.IfExp, pyast.Lambda, pyast.comprehension,
                             pyast.Dict, pyast.Starred))  # fmt: skip


def _in_order(node: pyast.AST) -> Iterator[pyast.AST]:
    """The nodes of an expression in the order they are written (the order Python
    computes them, but in the nodes ``_unordered`` finds)."""
    yield node
    for child in pyast.iter_child_nodes(node):
        yield from _in_order(child)


# --- loops as Python ---------------------------------------------------------------------
#
# A selection (``each x in s where c``: an aggregate, a `for`, a choice's candidates) runs
# its condition once per item. Each is compiled to one Python function with the texts of
# its parts written into the loop (``_define``), so an item costs no call of its own. Each
# computes what the closures do (``aggregate_closure``, ``selected_items``...), in the
# same order, binding and restoring the item's name the same way. Their own names begin
# with ``_`` (an inlined body binds none such: ``_template``).


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


def _names(*fns: Fn | None) -> Namespace:
    found: Namespace = {}
    for fn in fns:
        if fn is not None:
            found.update(_code(fn)[1])
    return found


def _bind(var: str) -> list[str]:
    """The lines that keep what ``var`` names before a selection lends it to its items."""
    return ["    _v = env.vars", f"    _had, _old = {var!r} in _v, _v.get({var!r})"]


def _restore(var: str, pad: str = "    ") -> list[str]:
    """The lines that put back what ``var`` named (``restore_name``)."""
    return [f"{pad}if _had:", f"{pad}    _v[{var!r}] = _old", f"{pad}else:",
            f"{pad}    _v.pop({var!r}, None)"]  # fmt: skip


def _local(fn: Fn, item: str | None = None) -> str:
    """The text of ``fn`` inside a compiled loop: the variables' dict read from the local
    ``_v`` (``env.vars``), and the variable ``item`` (the one the loop binds to ``_x``
    just before) read as ``_x``: the same values, without the lookups."""
    return _localized(_text(fn), item)


@functools.lru_cache(maxsize=4096)
def _localized(text: str, item: str | None) -> str:
    if "env.vars" not in text:
        return text
    tree = pyast.parse(text, mode="eval")

    class Local(pyast.NodeTransformer):
        def visit_Subscript(self, node: pyast.Subscript) -> pyast.expr:
            if (
                item is not None
                and _is_env_vars(node.value)
                and isinstance(node.slice, pyast.Constant)
                and node.slice.value == item
                and isinstance(node.ctx, pyast.Load)
            ):
                return pyast.Name("_x", pyast.Load())
            self.generic_visit(node)
            return node

        def visit_Attribute(self, node: pyast.Attribute) -> pyast.expr:
            if _is_env_vars(node):
                return pyast.Name("_v", pyast.Load())
            self.generic_visit(node)
            return node

    return pyast.unparse(Local().visit(tree).body)


def _is_env_vars(node: pyast.expr) -> bool:
    return (
        isinstance(node, pyast.Attribute)
        and node.attr == "vars"
        and isinstance(node.value, pyast.Name)
        and node.value.id == "env"
    )


def _charged(source: Fn, pad: str = "    ") -> list[str]:
    """The lines that put the items of ``source`` in ``_items`` and pay for them
    (``charge``: one step of the budget per item)."""
    return [f"{pad}_items = {_local(source)}", f"{pad}env.budget -= len(_items)",
            f"{pad}if env.budget < 0:", f"{pad}    _over()"]  # fmt: skip


def _aggregate_code(func: str, source: Fn, var: str, where: Fn | None, value: Fn | None) -> Fn:
    """The aggregate as one compiled function (``aggregate_closure``, step for step)."""
    src = "_items"  # computed (``_charged``) before the first item is bound
    test = f"if {_local(where, var)}:" if where is not None else "if True:"
    item = _local(value, var) if value is not None else "_x"
    names = {**_names(source, where, value), "_over": out_of_budget}
    if func == "all" and value is None:
        if where is None:
            return _define(["def _f(env):", "    return True"], names)
        lines = ["def _f(env):", *_bind(var), *_charged(source), "    try:",
                 f"        for _x in {src}:", f"            _v[{var!r}] = _x",
                 f"            if not {_local(where, var)}:",
                 "                return False", "        return True", "    finally:",
                 *_restore(var, "        ")]  # fmt: skip
        return _define(lines, names)
    if func == "any" and value is None:
        lines = ["def _f(env):", *_bind(var), *_charged(source), "    try:",
                 f"        for _x in {src}:", f"            _v[{var!r}] = _x",
                 f"            {test}", "                return True", "        return False",
                 "    finally:", *_restore(var, "        ")]  # fmt: skip
        return _define(lines, names)
    if func == "count":
        lines = ["def _f(env):", *_bind(var), *_charged(source), "    _n = 0",
                 f"    for _x in {src}:",
                 f"        _v[{var!r}] = _x", f"        {test}", "            _n += 1",
                 *_restore(var), "    return _n"]  # fmt: skip
        return _define(lines, names)
    result = {"sum": "sum(_out)", "min": "min(_out, default=0)", "max": "max(_out, default=0)",
              "any": "any(_out)", "all": "all(_out)", "list": "_out"}[func]  # fmt: skip
    lines = ["def _f(env):", *_bind(var), *_charged(source), "    _out = []", "    try:",
             f"        for _x in {src}:", f"            _v[{var!r}] = _x", f"            {test}",
             f"                _out.append({item})", "    finally:", *_restore(var, "        "),
             f"    return {result}"]  # fmt: skip
    return _define(lines, names)


def selection_code(source: Fn, var: str, where: Fn | None) -> Fn:
    """The distinct items of ``source`` that pass ``where`` (``var`` naming each), as one
    compiled function: ``selected_items`` (a loop's items, a choice's candidates)."""
    if not _PYTHON:
        return lambda env: selected_items(env, source, var, where)
    if where is None:
        return _define(["def _f(env):", "    _v = env.vars",
                        f"    return list(dict.fromkeys({_local(source)}))"],
                       _names(source))  # fmt: skip
    lines = ["def _f(env):", "    _v = env.vars", *_charged(source),
             f"    _had, _old = {var!r} in _v, _v.get({var!r})", "    _kept = {}",
             "    for _x in _items:", f"        _v[{var!r}] = _x",
             f"        if {_local(where, var)}:", "            _kept[_x] = None",
             *_restore(var), "    return list(_kept)"]  # fmt: skip
    return _define(lines, {**_names(source, where), "_over": out_of_budget})


def candidate_code(source: Fn, var: str, where: Fn | None) -> Fn:
    """Whether ``source`` has an item that passes ``where``, as one compiled function
    (``has_item``: it stops at the first, and leaves ``var`` naming it)."""
    if not _PYTHON:
        return lambda env: has_item(env, source, var, where)
    test = f"if {_local(where, var)}:" if where is not None else "if True:"
    lines = ["def _f(env):", "    _v = env.vars", *_charged(source), "    for _x in _items:",
             f"        _v[{var!r}] = _x", f"        {test}", "            return True",
             "    return False"]  # fmt: skip
    return _define(lines, {**_names(source, where), "_over": out_of_budget})


def filter_code(condition: Fn, var: str) -> Callable[[Env, Iterable[Any]], list[Any]]:
    """``f(env, items)``: the items for which ``condition`` holds, each named ``var``
    meanwhile (``allow.allowed_items``), as one compiled function."""
    lines = ["def _f(env, _items):", "    _v = env.vars", "    _out = []",
             "    for _x in _items:", f"        _v[{var!r}] = _x",
             f"        if {_local(condition, var)}:", "            _out.append(_x)",
             "    return _out"]  # fmt: skip
    return _define(lines, _names(condition))


def first_code(condition: Fn, var: str) -> Callable[[Env, Iterable[Any]], Any]:
    """``f(env, items)``: the first item for which ``condition`` holds (None if none),
    each named ``var`` meanwhile (``Game.check_winner``), as one compiled function."""
    lines = ["def _f(env, _items):", "    _v = env.vars", "    for _x in _items:",
             f"        _v[{var!r}] = _x", f"        if {_local(condition, var)}:",
             "            return _x", "    return None"]  # fmt: skip
    return _define(lines, _names(condition))


# --- a hook as Python ---------------------------------------------------------------------
#
# A hook runs at once (``runtime.run_hook``) from its first instruction, and most hooks
# never stop to wait. ``run_code`` writes such a run as one Python function: the `if`s,
# `for`s and `repeat`s of the effect as Python's own, each instruction's expressions
# written in. Where the program would stop (a choice, an `optional` block, work an action
# queued) it returns the instruction the frame must resume at, with the loops' state kept
# as the runtime keeps it; ``runtime._steps`` runs the same instructions one by one.


class _Unstructured(Exception):
    """The instructions are not in a shape the compiler makes (``run_code`` gives up)."""


def ends(code: tuple[Instruction, ...], pc: int) -> bool:
    """Whether the program has nothing left to do from ``pc`` (jumps aside)."""
    while pc < len(code) and code[pc][0] == JUMP:
        pc = code[pc][1]
    return pc >= len(code)


RunCode = Callable[[Env, list[Any], int, list[int]], int]
"""``f(env, loops, waiting, at)``: runs the program from its start with ``env`` (its
variables are ``env.vars``); ``waiting``: how many tasks were queued when it began.
Returns -1 when the program has ended, or the instruction where it stopped to wait (its
loops as the runtime keeps them are in ``loops``); on a failure, ``at[0]`` is the
instruction that failed."""


def run_code(code: tuple[Instruction, ...]) -> RunCode | None:
    """The program as one Python function (``RunCode``), or None if it cannot be."""
    names: Namespace = {}
    try:
        body = _run_block(code, 0, len(code), "        ", names)
        lines = ["def _f(env, _loops, _waiting, _at):", "    _queue = env.game.state.queue",
                 "    _v = env.vars", "    _pc = 0", "    try:", *body,
                 "        return -1", "    except BaseException:", "        _at[0] = _pc",
                 "        raise"]  # fmt: skip
        return _define(lines, names)
    except (_Unstructured, SyntaxError, RecursionError):
        return None


def _run_block(
    code: tuple[Instruction, ...], pc: int, end: int, pad: str, names: Namespace
) -> list[str]:
    """The Python lines of the instructions from ``pc`` to ``end`` (a block)."""
    out: list[str] = []

    def text(fn: Fn) -> str:
        names.update(_code(fn)[1])
        return _local(fn)

    while pc < end:
        ins = code[pc]
        op = ins[0]
        out.append(f"{pad}_pc = {pc}")
        if op == ACT:
            resume = -1 if ends(code, pc + 1) else pc + 1
            out += [f"{pad}{text(ins[5])}", f"{pad}if len(_queue) != _waiting:",
                    f"{pad}    return {resume}"]  # fmt: skip
            pc += 1
        elif op == LET:
            out.append(f"{pad}_v[{ins[1]!r}] = {text(ins[2])}")
            pc += 1
        elif op == BRANCH:
            orelse = ins[2]
            jump = code[orelse - 1] if pc < orelse - 1 < end else None
            if jump is None or jump[0] != JUMP or not orelse <= jump[1] <= end:
                raise _Unstructured(pc)
            out.append(f"{pad}if {text(ins[1])}:")
            out += _run_block(code, pc + 1, orelse - 1, pad + "    ", names)
            if jump[1] > orelse:
                out.append(f"{pad}else:")
                out += _run_block(code, orelse, jump[1], pad + "    ", names)
            pc = jump[1]
        elif op in (FOR, REPEAT):
            after = ins[4] if op == FOR else ins[2]
            again = code[after - 1] if pc < after - 1 < end else None
            if again is None or again[0] != (NEXT if op == FOR else AGAIN):
                raise _Unstructured(pc)
            if again[-1] != pc + 1 or (op == FOR and again[1] != ins[1]):
                raise _Unstructured(pc)
            loop, inner = f"_loop{pc}", pad + "        "
            if op == FOR:
                names["_over"] = out_of_budget
                var = repr(ins[1])
                out += [f"{pad}_items{pc} = {text(ins[5])}", f"{pad}if _items{pc}:",
                        f"{pad}    {loop} = [_items{pc}, 0]", f"{pad}    _loops.append({loop})",
                        f"{pad}    _v[{var}] = _items{pc}[0]", f"{pad}    while True:",
                        *_run_block(code, pc + 1, after - 1, inner, names),
                        f"{inner}env.budget -= 1",
                        f"{inner}if env.budget < 0:", f"{inner}    _over()",
                        f"{inner}{loop}[1] += 1",
                        f"{inner}if {loop}[1] < len({loop}[0]):",
                        f"{inner}    _v[{var}] = {loop}[0][{loop}[1]]",
                        f"{inner}else:", f"{inner}    _loops.pop()",
                        f"{inner}    break"]  # fmt: skip
            else:
                names["_over"] = out_of_budget
                out += [f"{pad}_count{pc} = {text(ins[1])}",
                        f"{pad}env.budget -= max(_count{pc}, 0)",
                        f"{pad}if env.budget < 0:", f"{pad}    _over()",
                        f"{pad}if _count{pc} > 0:",
                        f"{pad}    {loop} = [_count{pc}, 0]", f"{pad}    _loops.append({loop})",
                        f"{pad}    while True:",
                        *_run_block(code, pc + 1, after - 1, inner, names),
                        f"{inner}{loop}[1] += 1", f"{inner}if not {loop}[1] < {loop}[0]:",
                        f"{inner}    _loops.pop()", f"{inner}    break"]  # fmt: skip
            pc = after
        elif op in (CHOOSE, OPTIONAL):  # an answer is needed: wait (what follows: dead code)
            out.append(f"{pad}return {pc}")
            pc += 1
        elif op == REQUIRE:
            out += [f"{pad}if not {text(ins[1])}:", f"{pad}    return -1"]
            pc += 1
        elif op == STOP:
            out.append(f"{pad}return -1")
            pc += 1
        else:  # a jump, or a loop's end, outside the shapes above
            raise _Unstructured(pc)
    return out or [f"{pad}pass"]


def opening_code(opening: tuple[Instruction, ...]) -> Callable[[Env], str | None] | None:
    """Why an effect with this opening (``Program.opening``) cannot start, as one compiled
    function of an environment (``runtime.refusal``, step for step: its `let`s, its
    `require`s, whether its first choice has a candidate), or None if it cannot be."""
    names: Namespace = {}

    def text(fn: Fn, item: str | None = None) -> str:
        names.update(_code(fn)[1])
        return _local(fn, item)

    lines = ["def _f(env):", "    _v = env.vars"]
    for ins in opening:
        if ins[0] == LET:
            lines.append(f"    _v[{ins[1]!r}] = {text(ins[2])}")
        elif ins[0] == REQUIRE:
            message = ins[2] or "what it needs is not there"
            lines += [f"    if not {text(ins[1])}:", f"        return {message!r}"]
        elif ins[0] == CHOOSE:
            spec: ChooseSpec = ins[1]
            if spec.on_empty == -1:  # nothing to choose: the effect cannot start
                where = spec.where
                test = f"if {text(where, spec.binder)}:" if where is not None else "if True:"
                refused = f"there is no {spec.kind} to choose"
                lines += [f"    for _x in {text(spec.source)}:",
                          f"        _v[{spec.binder!r}] = _x", f"        {test}",
                          "            break", "    else:",
                          f"        return {refused!r}"]  # fmt: skip
        else:
            return None
    lines.append("    return None")
    try:
        return _define(lines, names)
    except (SyntaxError, RecursionError):
        return None


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


def _signatures(name: str) -> str:
    return " or ".join(fn.form for fn in FUNCTIONS[name])
