"""The DSL's meaning, written for clarity: a tree-walking interpreter over the syntax tree.

``ckdsl.dsl.compiler`` turns an effect into closures and then into Python text compiled
as one function, for speed; two implementations built by the same code share its
mistakes (``all(each k in L where A and B)`` once compiled to ``if not A and B:``). This
module is the oracle they are tested against (``tests/test_dsl_differential.py``): each
node of the tree is evaluated by the rule docs/dsl.md states, one plain ``match`` per node
kind, with no caching, inlining or code generation. It calls the vocabulary's functions
and verbs (``ckdsl.dsl.base.registry``) as the compiler does: what it checks is how the
language composes them (names, operators, selections, blocks, budgets, failures), not the
words themselves, which ``tests/test_vocabulary.py`` checks one by one.

It runs only what the compiler accepts: it assumes a checked tree and does not report
faults of its own. It is not used by a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ckdsl.core.allow import Env
from ckdsl.core.building import cost_of, spots
from ckdsl.core.compiled import has
from ckdsl.core.values import Value
from ckdsl.dsl.base import ast
from ckdsl.dsl.base.errors import LARGEST, EffectFailure, out_of_budget
from ckdsl.dsl.base.registry import FUNCTIONS, VERBS, Function
from ckdsl.dsl.base.types import (
    ANY,
    BOOL,
    BUNDLE,
    CHOICE_KINDS,
    INT,
    LITERAL,
    PLAYER,
    TEXT,
    Type,
    family,
    list_of,
    specificity,
)
from ckdsl.dsl.compiler.program import DEFAULT_SOURCE, Names

AGGREGATE_TYPES = {"count": INT, "sum": INT, "min": INT, "max": INT, "any": BOOL, "all": BOOL}

Pick = Callable[[str, list[Value], bool], Value]
"""How a choice is answered: ``pick(kind, candidates, optional)`` gives one candidate (or
``"skip"`` when ``optional``); an ``optional`` block without a choice asks
``pick("optional", ["do", "skip"], True)``."""


class Stopped(Exception):
    """The effect ends here (`stop`, an unmet `require`, a choice with nothing to choose)."""


class Waiting(Exception):
    """A verb queued work of its own (a discard, another player's move): the effect would
    wait behind it. The reference stops there; ``line`` is where it waits."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


@dataclass
class Outcome:
    """How an effect ended: ``"end"`` (its last line, `stop` or an unmet `require`),
    ``"waits"`` (``line``: at a verb that queued work) or ``"failed"`` (``line`` and
    ``reason``: an ``EffectFailure``, as the log's ``hook_failed`` says)."""

    how: str
    line: int = 0
    reason: str = ""


class Evaluator:
    """Evaluates formulas and runs effects of one rule set (its ``Names``)."""

    def __init__(self, names: Names) -> None:
        self.names = names

    # --- formulas -------------------------------------------------------------------------

    def formula(self, expr: ast.Expr, env: Env, types: dict[str, Type], want: Type) -> Value:
        """A rule set's formula, as the engine asks it: one that stops gives false or 0
        (docs/dsl.md, "Allow"), so a condition cannot crash a game."""
        try:
            return self.value(expr, env, dict(types))
        except EffectFailure:
            return False if want is BOOL else 0

    def value(self, node: ast.Expr, env: Env, types: dict[str, Type]) -> Value:
        """The value of an expression; ``types`` are the variables' types (they decide a
        call's overload and whether a number written out must be a place on the board)."""
        match node:
            case ast.Number() | ast.Text():
                return node.value
            case ast.Name():
                return self.name(node.id, env, types)
            case ast.Call():
                return self.call(node, env, types)
            case ast.Unary():
                operand = self.value(node.operand, env, types)
                return (not operand) if node.op == "not" else -_int(operand)
            case ast.Binary():
                return self.binary(node, env, types)
            case ast.Conditional():
                if self.value(node.cond, env, types):
                    return self.value(node.then, env, types)
                return self.value(node.orelse, env, types)
            case ast.ListOf():
                return [self.value(item, env, types) for item in node.items]
            case ast.Bundle():
                return {pair.key: _int(self.value(pair.value, env, types)) for pair in node.pairs}
            case ast.Each():  # pragma: no cover - the compiler refuses it outside a call
                raise AssertionError("`each` outside a call")

    def name(self, key: str, env: Env, types: dict[str, Type]) -> Value:
        """A name is, in this order: a variable, `me`, a function without arguments, an
        id of the rule set, a parameter (docs/dsl.md, "Names")."""
        if key in types:
            return env.vars[key]
        if key == "me":
            return env.me
        for fn in FUNCTIONS.get(key, ()):
            if not fn.params:
                return fn.impl(env)
        if key in self.names.ids:
            return key
        param = self.names.params[key]
        assert isinstance(param, int)  # a number or a flag (the compiler reads no other)
        return param

    def binary(self, node: ast.Binary, env: Env, types: dict[str, Type]) -> Value:
        op = node.op
        if op in ("and", "or"):
            for known, other in ((node.left, node.right), (node.right, node.left)):
                value = self.constant(known, types)
                if value is not None:  # a parameter decides it, or leaves the other side
                    return (
                        self.value(other, env, types) if value[0] == (op == "and") else op == "or"
                    )
        left = self.value(node.left, env, types)
        if op == "and":
            return bool(left) and bool(self.value(node.right, env, types))
        if op == "or":
            return bool(left) or bool(self.value(node.right, env, types))
        right = self.value(node.right, env, types)
        if op == "==":
            return left == right
        if op == "!=":
            return left != right
        if op == "in":
            return left in _list(right)
        if op == "not in":
            return left not in _list(right)
        a, b = _int(left), _int(right)
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":  # a product past 10^18 stops the effect
            if abs(a * b) > LARGEST:
                raise EffectFailure(
                    f"{a} × {b} is past the largest number an effect may make (10^18)",
                    "stop_too_large", a=a, b=b,
                )  # fmt: skip
            return a * b
        if op == "/":  # rounds down; anything / 0 is 0
            return a // b if b else 0
        if op == "%":
            return a % b if b else 0
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]

    def constant(self, node: ast.Expr, types: dict[str, Type]) -> tuple[bool] | None:
        """The value of a condition known when the rule set is compiled (a parameter,
        `not` one, `and`/`or` of such), or None. Such a side of `and`/`or` decides first:
        ``x or p`` with ``p`` true is true, ``x`` is not even computed (docs/dsl.md)."""
        match node:
            case ast.Name():
                named = node.id not in types and node.id != "me"
                named = named and not any(not f.params for f in FUNCTIONS.get(node.id, ()))
                if named and node.id not in self.names.ids and node.id in self.names.params:
                    return (bool(self.names.params[node.id]),)
            case ast.Unary(op="not"):
                inner = self.constant(node.operand, types)
                return None if inner is None else (not inner[0],)
            case ast.Binary(op="and" | "or"):
                left, right = self.constant(node.left, types), self.constant(node.right, types)
                for known, other in ((left, right), (right, left)):
                    if known is not None:
                        return other if known[0] == (node.op == "and") else (node.op == "or",)
        return None

    def call(self, node: ast.Call, env: Env, types: dict[str, Type]) -> Value:
        if len(node.args) == 1 and isinstance(node.args[0], ast.Each):
            return self.aggregate(node.func, node.args[0], env, types)
        arg_types = [self.type_of(a, types) for a in node.args]
        fn = _overload(node.func, arg_types)
        args = [self.value(a, env, types) for a in node.args]
        for k, (t, want) in enumerate(zip(arg_types, fn.params, strict=True)):
            args[k] = _on_board(env, args[k], t, want)
        return fn.impl(env, *args)

    def aggregate(self, func: str, each: ast.Each, env: Env, types: dict[str, Type]) -> Value:
        """``count``, ``sum``, ``min``, ``max``, ``any``, ``all``, ``list`` of a selection:
        its items are looked at once each (one step of the budget each), ``each``'s name
        naming them meanwhile, and given back after."""
        items = self.selection(each.source, env, types)
        inner = {**types, each.var: self.item_type(each.source, types)}
        had, old = each.var in env.vars, env.vars.get(each.var)
        chosen: list[Value] = []
        try:
            for x in items:
                env.vars[each.var] = x
                passes = each.where is None or bool(self.value(each.where, env, inner))
                if each.value is None and func in ("any", "all") and passes == (func == "any"):
                    return func == "any"  # the first item that decides it
                if passes:
                    chosen.append(self.value(each.value, env, inner) if each.value else x)
        finally:
            if had:
                env.vars[each.var] = old
            else:
                env.vars.pop(each.var, None)
        if func == "count":
            return len(chosen)
        if func in ("sum", "min", "max"):
            numbers = [_int(v) for v in chosen]
            if func == "sum":
                return sum(numbers)
            return (min if func == "min" else max)(numbers, default=0)
        if func == "any":
            return any(chosen) if each.value else False
        if func == "all":
            return all(chosen) if each.value else True
        return chosen

    def selection(self, source: ast.Expr, env: Env, types: dict[str, Type]) -> list[Value]:
        """The items of a selection's list, paid for: one step of the budget each."""
        items = _list(self.value(source, env, types))
        env.budget -= len(items)
        if env.budget < 0:
            out_of_budget()
        return items

    # --- types ----------------------------------------------------------------------------

    def type_of(self, node: ast.Expr, types: dict[str, Type]) -> Type:
        """The static type of an expression (the compiler's rules, without its faults)."""
        match node:
            case ast.Number():
                return LITERAL
            case ast.Text():
                return TEXT
            case ast.Name():
                return self.name_type(node.id, types)
            case ast.Call():
                if len(node.args) == 1 and isinstance(node.args[0], ast.Each):
                    each = node.args[0]
                    if node.func != "list":
                        return AGGREGATE_TYPES[node.func]
                    item = self.item_type(each.source, types)
                    if each.value is None:
                        return list_of(item)
                    return list_of(self.type_of(each.value, {**types, each.var: item}))
                return _overload(node.func, [self.type_of(a, types) for a in node.args]).result
            case ast.Unary():
                return BOOL if node.op == "not" else INT
            case ast.Binary():
                if node.op in ("+", "-", "*", "/", "%"):
                    return INT
                return BOOL
            case ast.Conditional():
                then, orelse = self.type_of(node.then, types), self.type_of(node.orelse, types)
                return _either(then, orelse)
            case ast.ListOf():
                item = ANY
                for sub in node.items:
                    t = self.type_of(sub, types)
                    if item is ANY:
                        item = t
                    elif t is LITERAL and family(item) in ON_BOARD:
                        item = LITERAL
                return list_of(item)
            case ast.Bundle():
                return BUNDLE
            case ast.Each():  # pragma: no cover - the compiler refuses it outside a call
                return ANY

    def name_type(self, key: str, types: dict[str, Type]) -> Type:
        if key in types:
            return types[key]
        if key == "me":
            return PLAYER
        for fn in FUNCTIONS.get(key, ()):
            if not fn.params:
                return fn.result
        found = self.names.ids.get(key)
        if found is not None:
            return found
        return BOOL if isinstance(self.names.params[key], bool) else INT

    def item_type(self, source: ast.Expr, types: dict[str, Type]) -> Type:
        return self.type_of(source, types).item or ANY

    # --- effects --------------------------------------------------------------------------

    def run(
        self, tree: ast.Effect, env: Env, types: dict[str, Type], pick: Pick | None = None
    ) -> Outcome:
        """Run an effect to its end, to a verb that queues work (it would wait), or to a
        failure (at its statement's line)."""
        runner = _Runner(self, env, dict(types), pick)
        try:
            runner.block(tree.body)
        except Stopped:
            pass
        except Waiting as waiting:
            return Outcome("waits", waiting.line)
        except EffectFailure as failure:
            return Outcome("failed", runner.line, str(failure))
        return Outcome("end")


class _Runner:
    """One run of an effect: its environment, its variables' types, where it stands."""

    def __init__(self, evaluator: Evaluator, env: Env, types: dict[str, Type], pick: Pick | None):
        self.ev = evaluator
        self.env = env
        self.types = types
        self.pick = pick
        self.line = 0  # the statement running (what a failure reports)

    def block(self, body: tuple[ast.Stmt, ...]) -> None:
        for stmt in body:
            self.line = stmt.line
            self.statement(stmt)

    def value(self, node: ast.Expr) -> Value:
        return self.ev.value(node, self.env, self.types)

    def statement(self, stmt: ast.Stmt) -> None:
        env = self.env
        match stmt:
            case ast.Let(value=ast.Choose() as choice):
                self.choose(stmt.name, choice)
            case ast.Let():
                value = stmt.value
                assert not isinstance(value, ast.Choose)
                self.types[stmt.name] = self.ev.type_of(value, self.types)
                env.vars[stmt.name] = self.value(value)
            case ast.Require():
                if not self.value(stmt.cond):
                    raise Stopped
            case ast.Stop():
                raise Stopped
            case ast.Action():
                self.action(stmt)
            case ast.If():
                for cond, body in stmt.branches:
                    if self.value(cond):
                        self.block(body)
                        return
                if stmt.orelse is not None:
                    self.block(stmt.orelse)
            case ast.For():
                self.loop(stmt)
            case ast.Repeat():
                count = _int(self.value(stmt.count))
                self.spend(max(count, 0))
                for _ in range(count):
                    self.block(stmt.body)
                    self.line = stmt.line
            case ast.Optional():
                self.optional(stmt)

    def spend(self, steps: int) -> None:
        self.env.budget -= steps
        if self.env.budget < 0:
            out_of_budget()

    def loop(self, stmt: ast.For) -> None:
        """`for`: the items are picked once, before the first round, each once; the
        loop's name keeps the last item afterwards. A round costs one step."""
        env = self.env
        item = self.ev.item_type(stmt.source, self.types)
        if stmt.where is None:
            items = list(dict.fromkeys(_list(self.value(stmt.source))))
        else:
            items = self.distinct(stmt.source, stmt.var, item, stmt.where)
        self.types[stmt.var] = item
        for x in items:
            env.vars[stmt.var] = x
            self.block(stmt.body)
            self.line = stmt.line
            self.spend(1)
        del self.types[stmt.var]  # the name is the loop's only

    def distinct(self, source: ast.Expr, var: str, item: Type, where: ast.Expr) -> list[Value]:
        """The distinct items of ``source`` that pass ``where`` (``var`` naming each)."""
        env = self.env
        items = self.ev.selection(source, env, self.types)
        inner = {**self.types, var: item}
        had, old = var in env.vars, env.vars.get(var)
        kept: list[Value] = []
        for x in items:
            env.vars[var] = x
            if self.ev.value(where, env, inner) and x not in kept:
                kept.append(x)
        if had:
            env.vars[var] = old
        else:
            env.vars.pop(var, None)
        return kept

    def action(self, node: ast.Action) -> None:
        """A verb: its flags, its arguments (a word, or a value) in order, then its
        clauses in the order written; then the verb runs. A build without `at` asks where."""
        env = self.env
        verb = VERBS[node.verb]
        flags = frozenset(
            a.id
            for a in node.args
            if isinstance(a, ast.Name) and a.id in verb.flags and a.id not in self.types
        )
        positional = [a for a in node.args if not (isinstance(a, ast.Name) and a.id in flags)]
        args: list[Value] = []
        word = None
        for param, a in zip(verb.params, positional, strict=False):
            if param.type.words is not None:
                assert isinstance(a, ast.Name)
                word = a.id
                args.append(a.id)
                continue
            t = self.ev.type_of(a, self.types)
            args.append(_on_board(env, self.value(a), t, param.type))
        clauses: dict[str, Value] = {}
        for clause in node.clauses:
            on_word = verb.name == "grant" and clause.prep == "on" and word != "rate"
            if on_word:
                assert isinstance(clause.value, ast.Name)
                clauses[clause.prep] = clause.value.id
                continue
            t = self.ev.type_of(clause.value, self.types)
            value = self.value(clause.value)
            if not (verb.name == "grant" and clause.prep == "on"):
                value = _on_board(env, value, t, verb.clauses[clause.prep].type)
            clauses[clause.prep] = value
        if word in verb.decides and "at" not in clauses:
            clauses["at"] = self.ask(verb.decides[word], self.places(word, flags, clauses))
        queue = env.game.state.queue
        before = len(queue)
        verb.impl(env, args, clauses, flags)
        if len(queue) != before:
            raise Waiting(node.line)

    def places(self, word: str, flags: frozenset[str], clauses: dict[str, Value]) -> list[Value]:
        """Where a build may go: the legal places, if the player can pay."""
        game, me = self.env.game, self.env.me
        if "free" not in flags:
            paying = clauses.get("paying")
            if paying is not None:
                assert isinstance(paying, dict)
                price = game.bundle(paying)
            else:
                price = cost_of(game, me, word, game.rules.costs[word])[0]
            if not has(game.state.players[me].hand, price):
                return []
        return list(spots(game, me, word))

    def choose(self, var: str, node: ast.Choose) -> None:
        env = self.env
        kind_type = CHOICE_KINDS[node.kind]
        if node.source is not None:
            source = node.source
        elif node.kind in DEFAULT_SOURCE:
            source = ast.Name(node.line, node.col, DEFAULT_SOURCE[node.kind])
        else:  # a card: one of my progress cards
            source = ast.Call(node.line, node.col, "progress", (ast.Name(0, 0, "me"),))
        if node.where is None:
            candidates = list(dict.fromkeys(_list(self.value(source))))
        else:
            candidates = self.distinct(source, node.var, kind_type, node.where)
        if family(kind_type) in ON_BOARD:
            candidates = [c for c in candidates if 0 <= _int(c) < _board_size(env, kind_type)]
        if node.up_to is None:
            self.types[var] = kind_type
            env.vars[var] = self.ask(node.kind, candidates)
            return
        limit = _int(self.value(node.up_to))
        picked: list[Value] = []
        while len(picked) < limit:
            left = [c for c in candidates if c not in picked]
            if not left:
                break
            got = self.ask(node.kind, [*left, "done"])
            if got == "done":
                break
            picked.append(got)
        if not picked:
            raise Stopped
        self.types[var] = list_of(kind_type)
        env.vars[var] = picked

    def ask(self, kind: str, candidates: list[Value]) -> Value:
        if not candidates:
            raise Stopped
        if self.pick is None:
            raise Waiting(self.line)
        return self.pick(kind, candidates, False)

    def optional(self, stmt: ast.Optional) -> None:
        if self.pick is None:
            raise Waiting(self.line)
        if self.pick("optional", ["do", "skip"], True) == "do":
            self.block(stmt.body)


ON_BOARD = ("tile", "intersection")
"""What a number written out may name: it is checked against the board where meant."""


def _either(a: Type, b: Type) -> Type:
    """The type of `A if C else B`: a number written out on either side, next to a tile
    or an intersection, keeps it a number written out (checked where a place is meant)."""
    if LITERAL in (a, b):
        other = b if a is LITERAL else a
        return LITERAL if family(other) in ON_BOARD else other
    return a


def _overload(name: str, arg_types: list[Type]) -> Function:
    """The function a call means: of those with as many parameters, the one the
    arguments' types fit best (as the compiler chooses)."""
    best: Function | None = None
    score = 0
    for fn in FUNCTIONS[name]:
        if len(fn.params) != len(arg_types):
            continue
        fit = [specificity(t, p) for t, p in zip(arg_types, fn.params, strict=True)]
        if all(fit) and sum(fit) > score:
            best, score = fn, sum(fit)
    assert best is not None, (name, arg_types)
    return best


def _on_board(env: Env, value: Value, given: Type, want: Type) -> Value:
    """A number written out where a tile or an intersection is meant must be one of this
    board's: else the effect stops there (docs/dsl.md, "How an effect runs")."""
    what = family(want)
    if given is not LITERAL or what not in ON_BOARD:
        return value
    n = _int(value)
    size = _board_size(env, want)
    if not 0 <= n < size:
        raise EffectFailure(
            f"there is no {what} {n} on this board (0 to {size - 1})",
            f"stop_no_{what}", value=n, last=size - 1,
        )  # fmt: skip
    return n


def _board_size(env: Env, what: Type) -> int:
    topo = env.game.topo
    return len(topo.hexes) if family(what) == "tile" else len(topo.inter_tiles)


def _int(value: Value) -> int:
    assert isinstance(value, int), value
    return value


def _list(value: Value) -> list[Value]:
    assert isinstance(value, (list, tuple)), value
    return list(value)
