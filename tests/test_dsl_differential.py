"""The compiler against an oracle that is not the compiler.

``ckdsl.dsl.evaluator`` walks the syntax tree node by node, by the rules of docs/dsl.md.
Hypothesis writes random formulas and effects, shaped by the grammar and by the types of
the vocabulary's functions (``ckdsl.dsl.base.registry``): each is compiled as the engine runs
it (Python text: ``finish``, ``run_code``) and as closures alone (``closures_only``, the
runtime's instruction-by-instruction path), and both are compared with the evaluator on
positions of a random game: the value (or the failure, with its line and reason), the
variables left, and the game's state digest after an effect.

The default profile runs a few dozen examples of each; ``HYPOTHESIS_PROFILE=deep`` hunts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from ckdsl.bots import RandomBot
from ckdsl.core.allow import Env
from ckdsl.core.frames import new_frame
from ckdsl.core.tasks import EffectTask
from ckdsl.dsl import parsed
from ckdsl.dsl.base.errors import EffectFailure
from ckdsl.dsl.base.registry import FUNCTIONS, Function
from ckdsl.dsl.base.types import (
    BOOL,
    INT,
    INTERSECTION,
    PLAYER,
    TILE,
    Type,
    family,
    list_of,
)
from ckdsl.dsl.compiler.blocks import opening_code, run_code
from ckdsl.dsl.compiler.program import Fn, Names, Program
from ckdsl.dsl.compiler.pycode import closures_only
from ckdsl.dsl.evaluator import Evaluator
from ckdsl.dsl.program import compile_effect, compile_formula
from ckdsl.dsl.runtime import _steps
from ckdsl.session import GameSetup, load_rules, start
from ckdsl.turn.game import Game

NAMES = Names.of(load_rules("base").ruleset.data)
VARIABLES: dict[str, Type] = {"p": PLAYER, "t": TILE, "i": INTERSECTION}


# --- the case the issue reported ---------------------------------------------------------


@pytest.fixture(scope="module")
def positions() -> list[Game]:
    """Positions of a random base game, from its setup to its end (a dozen)."""
    game = start(GameSetup(seed=5))
    bots = [RandomBot(50 + p) for p in range(4)]
    found = []
    while game.pending.kind != "over":
        if len(game.history) % 151 == 30:
            found.append(game.clone())
        decision = game.pending
        game.answer(bots[decision.player].choose(game.view(decision.player)))
    return [*found, game]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("all(each q in players where q == me or q != me)", True),
        ("all(each q in players where q == me and q != me)", False),
        ("all(each q in players where not (q == me and q != me))", True),
        ("any(each q in players where q == me and q != me)", False),
        ("all(each q in players where points(q) >= 0 or q == me)", True),
    ],
)
def test_all_with_and_or_in_its_where(text: str, want: bool, positions: list[Game]) -> None:
    """``all(each k in L where A or B)`` was compiled to ``if not A or B:``."""
    fn, errors = compile_formula(text, NAMES, {}, BOOL)
    assert fn is not None, errors
    assert fn(Env(positions[0], 0, {})) is want


def test_require_with_or_is_one_condition(positions: list[Game]) -> None:
    """``require A or B`` at the top of an effect (a card's opening, compiled to Python to
    say whether it can be played) and inside it (a hook compiled to Python) is one
    condition, not ``not A or B``."""
    opening, _ = compile_effect('require me == me or me != me else "no"\ngain 1 grain', NAMES)
    assert opening is not None
    refusal = opening_code(opening.opening)
    assert refusal is not None
    assert refusal(Env(positions[0], 0, {})) is None
    program, _ = compile_effect("let n = 1\nrequire n == 2 or n == 1\ngain 1 grain", NAMES)
    assert program is not None
    game = positions[0].clone()
    grain, _ = compile_formula("amount(me, grain)", NAMES, {}, INT)
    assert grain is not None
    before = grain(Env(game, 0, {}))
    assert _compiled(game, 0, program) == ("end", 0, "")
    assert grain(Env(game, 0, {})) == before + 1


def test_a_number_written_beside_a_tile_is_checked_against_the_board(positions: list[Game]) -> None:
    """Found by the differential test: `(t if c else 19)` and `[t, 19]` were typed as
    tiles, so 19 was never checked and moving the robber there crashed the game."""
    for text in ("move robber to (t if false else 19)", "for x in [t, 19]:\n    move robber to x"):
        program, errors = compile_effect(text, NAMES, VARIABLES)
        assert program is not None, errors
        game = positions[0].clone()
        assert _compiled(game, 0, program, {"t": 0, "p": 0, "i": 0})[0::2] == (
            "failed",
            "there is no tile 19 on this board (0 to 18)",
        )


def test_a_loop_may_not_reuse_a_name_in_use() -> None:
    """Found by the differential test: after `for p in tiles` inside a loop over players,
    `p` named a tile where the checks saw a player (a crash in `pay 1 ore from p`)."""
    _, errors = compile_effect("for q in players:\n    for q in tiles:\n        stop", NAMES)
    assert [(e.line, e.message) for e in errors] == [
        (2, "'q' already names a variable here: give the loop's items a name of their own")
    ]


# --- random formulas and effects ----------------------------------------------------------

ITEM_VARS = ("x", "y", "q", "p")  # `p` hides the outer `p` inside its selection
IDS: dict[str, list[str]] = {}
for _key, _t in NAMES.ids.items():
    IDS.setdefault(_t.name, []).append(_key)
PARAMS = sorted(
    k for k, v in NAMES.params.items() if isinstance(v, int) and not isinstance(v, bool)
)
FLAGS = sorted(k for k, v in NAMES.params.items() if isinstance(v, bool))

# Functions a random formula may call: those whose parameters it can write (a knight, a
# city or a road only by a variable bound to one), minus what reads an unset value.
SKIP = {"counter", "gate_track", "list", "count", "sum", "min", "max", "any", "all"}
SCALARS_BY_VARIABLE = {"knight", "city", "road", "settlement", "building", "edge"}


def _functions(want: Type, scope: dict[str, Type]) -> list[Function]:
    found = []
    for name, overloads in FUNCTIONS.items():
        if name in SKIP:
            continue
        for fn in overloads:
            if fn.result.name == "any" or not _fits_exactly(fn.result, want):
                continue
            if all(_writable(p, scope) for p in fn.params):
                found.append(fn)
    return found


def _fits_exactly(got: Type, want: Type) -> bool:
    if want.item is not None or got.item is not None:
        return got.item is not None and want.item is not None and _fits_exactly(got.item, want.item)
    return got.name == want.name or (want.name == "good" and family(got) == "good")


def _writable(t: Type, scope: dict[str, Type]) -> bool:
    if t.item is not None:
        return True
    if t.name in SCALARS_BY_VARIABLE:
        return any(v == t for v in scope.values())
    return t.name in ("number", "truth", "player", "tile", "intersection", "bundle") or bool(
        IDS.get(t.name) or t.name == "good"
    )


@st.composite
def expression(draw: st.DrawFn, want: Type, scope: dict[str, Type], depth: int) -> str:
    """A formula of type ``want`` using the variables of ``scope``."""
    options: list[str] = ["leaf"]
    if depth > 0:
        options += ["call", "call", "conditional"]
        if want == INT:
            options += ["arith", "arith", "aggregate", "minmax"]
        if want == BOOL:
            options += ["compare", "logic", "logic", "not", "member", "any_all"]
        if want.item is not None:
            options += ["list_each", "literal_list"]
    kind = draw(st.sampled_from(options))
    sub = depth - 1
    if kind == "call":
        fns = _functions(want, scope)
        if fns:
            fn = draw(st.sampled_from(fns))
            if not fn.params:
                return fn.name
            args = [draw(expression(p, scope, sub)) for p in fn.params]
            return f"{fn.name}({', '.join(args)})"
        kind = "leaf"
    if kind == "conditional":
        then = draw(expression(want, scope, sub))
        cond = draw(expression(BOOL, scope, sub))
        orelse = draw(expression(want, scope, sub))
        return f"({then} if {cond} else {orelse})"
    if kind == "arith":
        op = draw(st.sampled_from(["+", "-", "*", "/", "%"]))
        return f"({draw(expression(INT, scope, sub))} {op} {draw(expression(INT, scope, sub))})"
    if kind == "minmax":
        func = draw(st.sampled_from(["min", "max"]))
        return f"{func}({draw(expression(INT, scope, sub))}, {draw(expression(INT, scope, sub))})"
    if kind in ("aggregate", "any_all", "list_each"):
        item = draw(st.sampled_from([PLAYER, TILE, INTERSECTION, Type("knight"), Type("city")]))
        source = draw(expression(list_of(item), scope, sub))
        var = draw(st.sampled_from(ITEM_VARS))
        inner = {**scope, var: item}
        where = ""
        if draw(st.booleans()):
            where = f" where {draw(expression(BOOL, inner, sub))}"
        if kind == "list_each":
            if want.item is not None and _fits_exactly(item, want.item):
                return f"list(each {var} in {source}{where})"
            if want.item is None or not _writable(want.item, inner):
                return draw(leaf(want, scope))
            value = draw(expression(want.item, inner, sub))
            return f"list({value} for each {var} in {source}{where})"
        if kind == "any_all":
            func = draw(st.sampled_from(["any", "all"]))
            if draw(st.booleans()):
                value = draw(expression(BOOL, inner, sub))
                return f"{func}({value} for each {var} in {source}{where})"
            return f"{func}(each {var} in {source}{where})"
        func = draw(st.sampled_from(["count", "sum", "min", "max"]))
        if func == "count":
            return f"count(each {var} in {source}{where})"
        value = draw(expression(INT, inner, sub))
        return f"{func}({value} for each {var} in {source}{where})"
    if kind == "compare":
        if draw(st.booleans()):
            op = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
            return f"({draw(expression(INT, scope, sub))} {op} {draw(expression(INT, scope, sub))})"
        t = draw(st.sampled_from([PLAYER, TILE, INTERSECTION]))
        op = draw(st.sampled_from(["==", "!="]))
        return f"({draw(expression(t, scope, sub))} {op} {draw(expression(t, scope, sub))})"
    if kind == "logic":
        parts = [draw(expression(BOOL, scope, sub)) for _ in range(draw(st.integers(2, 5)))]
        ops = [draw(st.sampled_from(["and", "or"])) for _ in parts[1:]]
        text = parts[0]
        for op, part in zip(ops, parts[1:], strict=True):
            text += f" {op} {part}"
        return f"({text})" if draw(st.booleans()) else text
    if kind == "not":
        return f"not ({draw(expression(BOOL, scope, sub))})"
    if kind == "member":
        t = draw(st.sampled_from([PLAYER, TILE]))
        op = draw(st.sampled_from(["in", "not in"]))
        left = draw(expression(t, scope, sub))
        return f"({left} {op} {draw(expression(list_of(t), scope, sub))})"
    if (
        kind == "literal_list"
        and want.item is not None
        and want.item.name in ("number", "player", "tile")
    ):
        items = [draw(expression(want.item, scope, 0)) for _ in range(draw(st.integers(1, 3)))]
        return f"[{', '.join(items)}]"
    return draw(leaf(want, scope))


@st.composite
def leaf(draw: st.DrawFn, want: Type, scope: dict[str, Type]) -> str:
    """A name, a number, an id or a call without arguments of type ``want``."""
    choices: list[str] = [v for v, t in scope.items() if t == want]
    choices += [fn.name for fn in _functions(want, scope) if not fn.params]
    if want == INT:
        choices += [
            str(draw(st.integers(-3, 12))),
            *draw(st.lists(st.sampled_from(PARAMS), max_size=1)),
        ]
    elif want == BOOL:
        choices += ["true", "false", *FLAGS]
    elif want == TILE:
        choices.append(str(draw(st.integers(0, 20))))  # 19 and 20: not on the board
    elif want == INTERSECTION:
        choices.append(str(draw(st.integers(0, 55))))  # 54 and 55: not on the board
    elif want.name == "good":
        choices += IDS.get("resource", []) + IDS.get("commodity", [])
    elif want.name == "bundle":
        good = draw(st.sampled_from(IDS["resource"]))
        choices.append(f"{{{good}: {draw(st.integers(0, 3))}}}")
    elif want.item is not None:
        choices.append("[]" if want.item.name == "any" else "")
    choices += IDS.get(want.name, [])
    choices = [c for c in choices if c]
    assert choices, want
    return draw(st.sampled_from(choices))


LET_NAMES = {INT: ["n", "m"], BOOL: ["b"], PLAYER: ["who"], TILE: ["at"], list_of(PLAYER): ["ps"]}
GOODS = ["brick", "grain", "ore", "paper", "cloth"]


@st.composite
def effect(draw: st.DrawFn, scope: dict[str, Type], depth: int, pad: str = "") -> list[str]:
    """The lines of an effect's block (``pad``: its indentation)."""
    lines: list[str] = []
    scope = dict(scope)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(
            ["let", "verb", "verb", "if", "for", "repeat", "require", "stop"] if depth > 0
            else ["let", "verb", "require"]
        ))  # fmt: skip
        sub = depth - 1
        if kind == "let":
            t = draw(st.sampled_from(list(LET_NAMES)))
            name = draw(st.sampled_from(LET_NAMES[t]))  # a name keeps its type
            lines.append(f"{pad}let {name} = {draw(expression(t, scope, 2))}")
            scope[name] = t
        elif kind == "verb":
            lines.append(pad + draw(verb(scope)))
        elif kind == "if":
            lines.append(f"{pad}if {draw(expression(BOOL, scope, 2))}:")
            lines += draw(effect(scope, sub, pad + "    "))
            if draw(st.booleans()):
                lines.append(f"{pad}elif {draw(expression(BOOL, scope, 2))}:")
                lines += draw(effect(scope, sub, pad + "    "))
            if draw(st.booleans()):
                lines.append(f"{pad}else:")
                lines += draw(effect(scope, sub, pad + "    "))
        elif kind == "for":
            item = draw(st.sampled_from([PLAYER, TILE]))
            var = draw(st.sampled_from([v for v in ("v", "w", "z") if v not in scope]))
            inner = {**scope, var: item}
            where = f" where {draw(expression(BOOL, inner, 1))}" if draw(st.booleans()) else ""
            lines.append(f"{pad}for {var} in {draw(expression(list_of(item), scope, 1))}{where}:")
            lines += draw(effect(inner, sub, pad + "    "))
        elif kind == "repeat":
            lines.append(f"{pad}repeat min(3, {draw(expression(INT, scope, 1))}):")
            lines += draw(effect(scope, sub, pad + "    "))
        elif kind == "require":
            lines.append(f"{pad}require {draw(expression(BOOL, scope, 2))}")
        else:
            lines.append(f"{pad}stop")
    return lines


@st.composite
def verb(draw: st.DrawFn, scope: dict[str, Type]) -> str:
    """A verb that changes the game without queueing work of its own."""
    n = draw(expression(INT, scope, 1))
    good = draw(st.sampled_from(GOODS))
    player = draw(expression(PLAYER, scope, 1))
    tile = draw(expression(TILE, scope, 1))
    return draw(st.sampled_from([
        f"gain ({n}) {good}",
        f"gain ({n}) {good} to {player}",
        f"pay ({n}) {good} from {player}",
        f"give ({n}) {good} from {player} to me",
        f"take ({n}) {good} from {player}",
        f"steal ({n}) from {player}",
        f"move robber to {tile}",
        f"move merchant to {tile} by {player}",
        "unlock robber",
    ]))  # fmt: skip


# --- running both ---------------------------------------------------------------------------


def _value(value: Any) -> tuple[str, str]:
    return type(value).__name__, json.dumps(value, sort_keys=True)


def _formula_outcome(fn: Fn, env: Env) -> tuple[Any, ...]:
    try:
        result = _value(fn(env))
    except Exception as exc:  # every path must fail the same way
        result = (type(exc).__name__, str(exc))
    return result, dict(env.vars)


@given(
    data=st.data(),
    want=st.sampled_from([INT, BOOL, PLAYER, TILE, list_of(PLAYER), list_of(INT)]),
)
def test_a_formula_means_what_the_evaluator_says(
    data: st.DataObject, want: Type, positions: list[Game]
) -> None:
    text = data.draw(expression(want, VARIABLES, 3), label="formula")
    game = data.draw(st.sampled_from(positions), label="position")
    me, p = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
    t, i = data.draw(st.integers(0, 18)), data.draw(st.integers(0, 53))
    start = {"p": p, "t": t, "i": i}
    compiled, errors = compile_formula(text, NAMES, VARIABLES, want)
    assert compiled is not None, (text, errors)
    with closures_only():
        closures, _ = compile_formula(text, NAMES, VARIABLES, want)
    assert closures is not None
    reference = Evaluator(NAMES)
    expr = parsed.parse_expression(text)

    def oracle(env: Env) -> Any:
        return reference.formula(expr, env, VARIABLES, want)

    want_outcome = _formula_outcome(oracle, Env(game, me, dict(start)))
    note(f"reference: {want_outcome}")
    assert _formula_outcome(compiled, Env(game, me, dict(start))) == want_outcome, text
    assert _formula_outcome(closures, Env(game, me, dict(start))) == want_outcome, text


def _compiled(
    game: Game, me: int, program: Program, variables: dict[str, Any] | None = None
) -> tuple[str, int, str]:
    """Run ``program`` as a hook compiled to Python (``run_code``) runs it."""
    run = run_code(program.code)
    assert run is not None
    at = [0]
    try:
        pc = run(Env(game, me, dict(variables or {})), [], len(game.state.queue), at)
    except EffectFailure as failure:
        return "failed", program.lines[at[0]], str(failure)
    return ("end", 0, "") if pc < 0 else ("waits", program.lines[pc - 1], "")


def _stepped(
    game: Game, me: int, program: Program, variables: dict[str, Any]
) -> tuple[str, int, str]:
    """Run ``program`` instruction by instruction, as the runtime runs a card."""
    task = EffectTask("effect", new_frame("hook", "test", me, variables))
    game.push(task)
    try:
        _steps(game, task, program)
    except EffectFailure as failure:
        game.state.queue.remove(task)
        return "failed", program.lines[task.frame["pc"]], str(failure)
    if task in game.state.queue:
        game.state.queue.remove(task)
        return "waits", program.lines[task.frame["pc"] - 1], ""
    return "end", 0, ""


@given(data=st.data())
def test_an_effect_does_what_the_evaluator_says(data: st.DataObject, positions: list[Game]) -> None:
    text = "\n".join(data.draw(effect(VARIABLES, 2), label="effect"))
    game = data.draw(st.sampled_from(positions), label="position")
    me, p = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
    start = {"p": p, "t": data.draw(st.integers(0, 18)), "i": data.draw(st.integers(0, 53))}
    program, errors = compile_effect(text, NAMES, VARIABLES)
    assert program is not None, (text, errors)
    with closures_only():
        closures, _ = compile_effect(text, NAMES, VARIABLES)
    assert closures is not None

    reference_game = game.clone()
    outcome = Evaluator(NAMES).run(
        parsed.parse(text), Env(reference_game, me, dict(start)), VARIABLES
    )
    want = (outcome.how, outcome.line, outcome.reason)
    note(f"reference: {want}")
    compiled_game, stepped_game = game.clone(), game.clone()
    assert _compiled(compiled_game, me, program, start) == want, text
    assert compiled_game.state.digest() == reference_game.state.digest(), text
    assert _stepped(stepped_game, me, closures, start) == want, text
    assert stepped_game.state.digest() == reference_game.state.digest(), text
