"""What compiled expressions call as they run: aggregates, the budget of selections, actions,
guards."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from ckdsl.core.allow import Env
from ckdsl.core.values import Value, Variables, number
from ckdsl.dsl.base.errors import LARGEST, EffectFailure, out_of_budget
from ckdsl.dsl.base.types import (
    BOOL,
    INT,
    LITERAL,
    Type,
    family,
)
from ckdsl.dsl.compiler.program import Fn, Instruction
from ckdsl.dsl.compiler.pycode import _const, _const_of, _name, _py, _text, finish

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
