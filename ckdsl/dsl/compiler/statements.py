"""Statements: the checks of each verb and clause, and the instructions of a program."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ckdsl.core.allow import Env
from ckdsl.core.building import cost_of, spots
from ckdsl.core.compiled import has
from ckdsl.dsl.base.registry import FUNCTIONS, VERBS, Verb
from ckdsl.dsl.base.types import (
    ANY,
    BUNDLE,
    CHOICE_KINDS,
    INT,
    Type,
    fits,
    list_of,
)
from ckdsl.dsl.vocabulary.verbs import GRANT_TARGETS
from ckdsl.rules.schemas import suggest

if TYPE_CHECKING:  # the syntax tree is imported by what compiles (a game runs without it)
    from ckdsl.dsl.base import ast
from ckdsl.dsl.compiler.closures import _act, _checked, guarded
from ckdsl.dsl.compiler.expressions import ExpressionCompiler
from ckdsl.dsl.compiler.program import (
    ACT,
    AGAIN,
    BRANCH,
    CHOOSE,
    DEFAULT_SOURCE,
    FOR,
    JUMP,
    LET,
    NEXT,
    OPTIONAL,
    REPEAT,
    REQUIRE,
    STOP,
    ChooseSpec,
    Fn,
    Program,
)
from ckdsl.dsl.compiler.pycode import (
    _const,
    _name,
    _nothing,
    _py,
    _unknown,
    _variable,
    finish,
    finish_opt,
)
from ckdsl.dsl.compiler.selections import candidate_code, selection_code


class Compiler(ExpressionCompiler):
    """Checks and compiles one effect or formula. ``errors`` holds every fault found."""

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
        from ckdsl.dsl.base import ast  # the syntax tree: only to compile

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
        from ckdsl.dsl.base import ast  # the syntax tree: only to compile

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
        if stmt.var in self.scope:  # after the loop it would name the loop's last item
            self.error(stmt, f"'{stmt.var}' already names a variable here: give the loop's "
                       "items a name of their own")  # fmt: skip
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
        from ckdsl.dsl.base import ast  # the syntax tree: only to compile

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
        from ckdsl.dsl.base import ast  # the syntax tree: only to compile

        return isinstance(a, ast.Name) and a.id in verb.flags and a.id not in self.scope

    def _clause_value(
        self, verb: Verb, word: str | None, clause: ast.Clause
    ) -> tuple[Fn, Type | None]:
        from ckdsl.dsl.base import ast  # the syntax tree: only to compile

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
        from ckdsl.dsl.base import ast  # the syntax tree: only to compile

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
