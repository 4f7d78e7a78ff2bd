"""Whole blocks compiled as one function: a hook run from its start, a card's opening."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ckdsl.core.allow import Env
from ckdsl.dsl.base.errors import out_of_budget
from ckdsl.dsl.compiler.program import (
    ACT,
    AGAIN,
    BRANCH,
    CHOOSE,
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
    Instruction,
    Namespace,
)
from ckdsl.dsl.compiler.pycode import _code, _define
from ckdsl.dsl.compiler.selections import _local

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
            out += [f"{pad}if not ({text(ins[1])}):", f"{pad}    return -1"]
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
            lines += [f"    if not ({text(ins[1])}):", f"        return {message!r}"]
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
