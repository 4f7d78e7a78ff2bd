"""Running effects inside a game: frames of plain data, paused at every choice.

A running effect is a task ``("effect", frame)`` in the game's queue. The frame is plain
data (which program, which instruction, the variables, loop counters) so a game paused
inside an effect can be copied, saved, hashed and replayed like any other. The engine asks
the frame for its options (``TASK_OPTIONS``): the effect runs until it needs an answer (a
``choose``, an ``optional`` block), ends, or queues work of its own (a discard by another
player, a displaced knight): that work runs first, and the effect resumes after it. The
answer comes back through ``Game.answer`` like every other (``HANDLERS``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ckdsl.dsl.compiler import (
    ACT,
    AGAIN,
    BOARD_IDS,
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
    Program,
    board_size,
    restore_name,
)
from ckdsl.dsl.errors import EffectFailure
from ckdsl.dsl.types import CHOICE_KINDS
from ckdsl.engine.allow import Env
from ckdsl.engine.decisions import Decision, Option
from ckdsl.engine.frames import Frame, new_frame
from ckdsl.engine.progress import under_deck
from ckdsl.engine.state import Task

if TYPE_CHECKING:
    from ckdsl.engine.game import Game


def _program(game: Game, frame: Frame) -> Program | None:
    programs = game.rules.programs
    source = frame["src"]
    if source == "card":
        return programs.cards.get(frame["id"])
    if source == "hook":
        return programs.hooks.get(frame["id"])
    if source == "action":
        action = programs.actions.get(frame["id"])
        return action.program if action is not None else None
    found = programs.abilities.get(frame["id"])
    return found[1] if found is not None else None


def start_card(game: Game, player: int, card: str) -> None:
    """Play ``card``: its effect runs now, before anything else waiting."""
    if card not in game.rules.programs.cards:
        under_deck(game, card)
        return
    game.push(("effect", new_frame("card", card, player)))


def _finish(game: Game, task: Task) -> None:
    queue = game.state.queue
    if queue and queue[0] is task:
        queue.pop(0)
    frame = task[1]
    if frame["src"] == "card":
        under_deck(game, frame["id"])


def _effect_options(game: Game, task: Task) -> tuple[Option, ...]:
    """Run the effect to its next question; its options (none: it ended or yielded).

    An effect that asks for what the board does not have (a tile number beyond the map,
    in a house rule) ends there, and the log says where and why."""
    frame: Frame = task[1]
    program = _program(game, frame)
    if program is None:
        _finish(game, task)
        return ()
    try:
        return _run(game, task, program)
    except EffectFailure as failure:
        _failed(game, task, program, failure)
        return ()


def _failed(game: Game, task: Task, program: Program, failure: EffectFailure) -> None:
    frame: Frame = task[1]
    where = _SOURCE_NAMES[frame["src"]]
    line = program.lines[frame["pc"]] if frame["pc"] < len(program.lines) else 0
    game.log(f"{where}_failed", frame["me"], **{where: frame["id"]}, line=line,
             reason=str(failure))  # fmt: skip
    _finish(game, task)


MAX_NESTED_HOOKS = 32
"""How deep hooks run inside one another at once; deeper, a hook waits in the queue (so a
hook that runs itself goes round the queue instead of the Python stack)."""


def run_hook(game: Game, hook: str, me: int, variables: dict[str, Any] | None = None) -> None:
    """Run the rule set's hook ``hook`` for ``me`` now, before anything waiting.

    A hook runs at once, without waiting in the queue, up to the point where it needs an
    answer or has queued work of its own (a discard, another hook's decision): from there
    it waits in the queue, behind that work, like any effect. Most hooks never wait, and
    running them at once is what keeps the turn fast."""
    program = game.rules.programs.hooks.get(hook)
    if program is None:
        return
    task = ("effect", new_frame("hook", hook, me, variables))
    depth = game.hook_depth
    if depth >= MAX_NESTED_HOOKS:
        game.push(task)
        return
    game.hook_depth = depth + 1
    try:
        _run(game, task, program, len(game.state.queue))
    except EffectFailure as failure:
        _failed(game, task, program, failure)
    finally:
        game.hook_depth = depth


_SOURCE_NAMES = {"card": "card", "ability": "level", "hook": "hook", "action": "action"}
"""How the log names what failed: the card, the level (of an ability), hook or action."""


def _run(game: Game, task: Task, program: Program, waiting: int = -1) -> tuple[Option, ...]:
    """Run the effect of ``task`` from where its frame stands. An effect in the queue
    (``waiting`` -1) is at its head. An effect run at once (``run_hook``) is not in the
    queue; ``waiting`` is how many tasks were queued when it began: where it must stop, it
    goes into the queue in front of them (behind anything it queued itself)."""
    frame: Frame = task[1]
    where = [frame["pc"]]  # the instruction running, kept up to date for a failure's line
    try:
        return _steps(game, task, program, waiting, where)
    finally:
        frame["pc"] = where[0]


def _steps(
    game: Game, task: Task, program: Program, waiting: int, where: list[int]
) -> tuple[Option, ...]:
    """The instructions from ``where[0]`` on, until the effect ends, stops to wait or
    asks a question (its options). ``where[0]`` follows the instruction running (read
    back into the frame by ``_run``), so the loop counts with a local ``pc``."""
    frame: Frame = task[1]
    pc = where[0]
    code = program.code
    end = len(code)
    variables = frame["vars"]
    env = Env(game, frame["me"], variables)
    queue = game.state.queue
    loops = frame["loops"]
    while pc < end:
        where[0] = pc
        ins = code[pc]
        op = ins[0]
        if op == ACT:
            _, impl, args, clauses, flags = ins
            impl(env, [f(env) for f in args], {k: f(env) for k, f in clauses}, flags)
            pc += 1
            where[0] = pc
            if waiting >= 0:
                if len(queue) != waiting:  # it queued work: the rest waits behind it
                    if not _ends(code, pc):
                        queue.insert(len(queue) - waiting, task)
                    return ()
            elif not queue or queue[0] is not task:
                # It queued work of its own (or the game ended): that comes first. A hook
                # with nothing left to do ends now rather than wait for it (`run` last).
                if frame["src"] == "hook" and _ends(code, pc):
                    _drop(queue, task)
                return ()
        elif op == BRANCH:
            pc = pc + 1 if ins[1](env) else ins[2]
        elif op == JUMP:
            pc = ins[1]
        elif op == LET:
            variables[ins[1]] = ins[2](env)
            pc += 1
        elif op in (CHOOSE, OPTIONAL) and waiting >= 0:  # an answer is needed: wait
            queue.insert(len(queue) - waiting, task)
            return ()
        elif op == CHOOSE:
            spec: ChooseSpec = ins[1]
            options = choice_options(env, spec, frame)
            if options:
                frame["asker"] = spec.by(env) if spec.by is not None else frame["me"]
                return options
            target = frame["skip"] if frame["skip"] >= 0 else spec.on_empty
            frame["skip"] = -1
            if spec.up_to is not None and frame["picked"]:
                variables[spec.var] = frame["picked"]
                frame["picked"] = []
                pc += 1
            elif target < 0:  # nothing to choose: the effect ends here
                break
            else:
                pc = target
        elif op == FOR:
            _, var, source, where_fn, after = ins
            items = _selected(env, source, var, where_fn)
            if items:
                loops.append([items, 0])
                variables[var] = items[0]
                pc += 1
            else:
                pc = after
        elif op == NEXT:
            loop = loops[-1]
            loop[1] += 1
            if loop[1] < len(loop[0]):
                variables[ins[1]] = loop[0][loop[1]]
                pc = ins[2]
            else:
                loops.pop()
                pc += 1
        elif op == REPEAT:
            count = ins[1](env)
            if count > 0:
                loops.append([count, 0])
                pc += 1
            else:
                pc = ins[2]
        elif op == AGAIN:
            loop = loops[-1]
            loop[1] += 1
            if loop[1] < loop[0]:
                pc = ins[1]
            else:
                loops.pop()
                pc += 1
        elif op == OPTIONAL:
            _, by, after, opens_with_choice = ins
            if opens_with_choice:  # "skip" becomes an answer of that choice
                frame["skip"] = after
                pc += 1
            else:
                frame["asker"] = by(env) if by is not None else frame["me"]
                return (("do",), ("skip",))
        elif op == REQUIRE:
            if not ins[1](env):
                break
            pc += 1
        elif op == STOP:
            break
        else:  # pragma: no cover - the compiler emits no other instruction
            raise AssertionError(ins)
    where[0] = pc
    _finish(game, task)
    return ()


def _drop(queue: list[Task], task: Task) -> None:
    """Take ``task`` (this very one) out of the queue."""
    for k, waiting in enumerate(queue):
        if waiting is task:
            del queue[k]
            return


def _ends(code: tuple[tuple[Any, ...], ...], pc: int) -> bool:
    """Whether the program has nothing left to do from ``pc`` (jumps aside)."""
    while pc < len(code) and code[pc][0] == JUMP:
        pc = code[pc][1]
    return pc >= len(code)


def _selected(env: Env, source: Any, var: str, where: Any) -> list[Any]:
    """The distinct items of a selection that pass ``where`` (all picked before a loop
    runs, so a loop's body does not change which items it visits)."""
    items = source(env)
    if where is None:
        return list(dict.fromkeys(items))
    vars_ = env.vars
    had, old = var in vars_, vars_.get(var)
    kept: dict[Any, None] = {}
    for x in items:
        vars_[var] = x
        if where(env):
            kept[x] = None
    restore_name(vars_, var, had, old)
    return list(kept)


def choice_options(env: Env, spec: ChooseSpec, frame: Frame | None) -> tuple[Option, ...]:
    """The answers of a choice now: each candidate, then "done" (up to N) and "skip"."""
    candidates = _selected(env, spec.source, spec.binder, spec.where)
    kind = spec.kind
    if kind in BOARD_IDS:  # numbers written out in the effect: only those on this board
        size = board_size(env, kind)
        candidates = [v for v in candidates if 0 <= v < size]
    picked = frame["picked"] if frame is not None else []
    options: list[Option] = [("choose", kind, v) for v in candidates if v not in picked]
    if not options:
        return ()
    if spec.up_to is not None:
        options.append(("done",))
    if frame is not None and frame["skip"] >= 0:
        options.append(("skip",))
    return tuple(options)


def _has_candidate(env: Env, spec: ChooseSpec) -> bool:
    """Whether a choice has at least one candidate (stops at the first; the caller's
    environment is its own, so the candidate's name is left as it is)."""
    where, binder, vars_ = spec.where, spec.binder, env.vars
    for x in spec.source(env):
        vars_[binder] = x
        if where is None or where(env):
            return True
    return False


def effect_decision(game: Game, task: Task, options: tuple[Option, ...]) -> Decision:
    frame: Frame = task[1]
    program = _program(game, frame)
    assert program is not None
    ins = program.code[frame["pc"]]
    kind = "optional" if ins[0] == OPTIONAL else f"choose_{ins[1].kind}"
    return Decision(frame["asker"], kind, options)


def _on_answer(game: Game, player: int, option: Option) -> None:
    task = game.state.queue[0]
    frame: Frame = task[1]
    program = _program(game, frame)
    assert program is not None
    ins = program.code[frame["pc"]]
    verb = option[0]
    if ins[0] == OPTIONAL:
        frame["pc"] = frame["pc"] + 1 if verb == "do" else ins[2]
        return
    spec: ChooseSpec = ins[1]
    if verb == "skip":
        frame["pc"] = frame["skip"]
        frame["skip"] = -1
        frame["picked"] = []
        return
    frame["skip"] = -1
    if spec.up_to is not None:
        if verb == "choose":
            frame["picked"].append(option[2])
        env = Env(game, frame["me"], frame["vars"])
        if verb == "done" or len(frame["picked"]) >= spec.up_to(env):
            frame["vars"][spec.var] = frame["picked"]
            frame["picked"] = []
            frame["pc"] += 1
        return
    frame["vars"][spec.var] = option[2]
    frame["pc"] += 1


def unplayable(game: Game, player: int, card: str) -> str | None:
    """Why ``card`` cannot be played by ``player`` now, or None if it can: a `require` at
    the top of its effect does not hold, or its first choice has nothing to choose from."""
    return refusal(game, player, game.rules.programs.openings.get(card, ()))


def refusal(game: Game, player: int, opening: tuple[tuple[Any, ...], ...]) -> str | None:
    """Why an effect with this opening (``Program.opening``) cannot start for ``player``
    now, or None if it can."""
    if not opening:
        return None
    env = Env(game, player, {})  # thrown away after: nothing to put back
    try:
        for ins in opening:
            op = ins[0]
            if op == LET:
                env.vars[ins[1]] = ins[2](env)
            elif op == REQUIRE:
                if not ins[1](env):
                    return ins[2] or "what it needs is not there"
            else:  # the first choice
                spec = ins[1]
                if spec.on_empty == -1 and not _has_candidate(env, spec):
                    return f"there is no {spec.kind} to choose"
    except EffectFailure as failure:
        return str(failure)
    return None


HANDLERS = {"optional": _on_answer, **{f"choose_{kind}": _on_answer for kind in CHOICE_KINDS}}
TASK_OPTIONS = {"effect": _effect_options}
