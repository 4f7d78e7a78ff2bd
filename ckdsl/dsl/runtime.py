"""Running effects inside a game: frames of plain data, paused at every choice.

A running effect is a task ``("effect", frame)`` in the game's queue. The frame is plain
data (which program, which instruction, the variables, loop counters) so a game paused
inside an effect can be copied, saved, hashed and replayed like any other. The engine asks
the frame for its options (``TASK_OPTIONS``): the effect runs until it needs an answer (a
``choose``, an ``optional`` block), ends, or queues work of its own (a discard by another
player, a displaced knight): that work runs first, and the effect resumes after it. The
answer comes back through ``Game.answer`` like every other (``DECISIONS``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ckdsl.core.allow import Env
from ckdsl.core.decisions import CHOICE_DECISIONS, Asked, Decision, Option, Verb, new_decision
from ckdsl.core.frames import new_frame
from ckdsl.core.progress import under_deck
from ckdsl.core.tasks import EffectTask, Frame, Task, expect
from ckdsl.core.values import Variables
from ckdsl.dsl.base.errors import EffectFailure, out_of_budget
from ckdsl.dsl.compiler.blocks import ends
from ckdsl.dsl.compiler.closures import BOARD_IDS, board_size
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
    Program,
)
from ckdsl.events import EventKind

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


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
    game.push(EffectTask("effect", new_frame("card", card, player)))


def _finish(game: Game, task: EffectTask) -> None:
    queue = game.state.queue
    if queue and queue[0] is task:
        queue.pop(0)
    frame = task.frame
    if frame["src"] == "card":
        under_deck(game, frame["id"])


def _effect_options(game: Game, task: Task) -> tuple[Option, ...]:
    """Run the effect to its next question; its options (none: it ended or yielded).

    An effect that asks for what the board does not have (a tile number beyond the map,
    in a house rule) ends there, and the log says where and why."""
    task = expect(task, EffectTask)
    frame = task.frame
    program = _program(game, frame)
    if program is None:
        _finish(game, task)
        return ()
    try:
        return _steps(game, task, program)
    except EffectFailure as failure:
        _failed(game, task, program, failure)
        return ()


def _failed(game: Game, task: EffectTask, program: Program, failure: EffectFailure) -> None:
    frame = task.frame
    where, event = _SOURCE_NAMES[frame["src"]]
    line = program.lines[frame["pc"]] if frame["pc"] < len(program.lines) else 0
    stop = failure.stop
    extra = {"stop": stop} if stop is not None else {}
    game.log(event, frame["me"], **{where: frame["id"]}, line=line, reason=str(failure), **extra)
    _finish(game, task)


MAX_HOOK_RUNS: Final = 2000
"""How many hooks may run between two answers (a turn runs a handful): past it, a hook
does not run, and the log says why, so a hook that runs itself cannot hang the game."""

MAX_STEP_EVENTS: Final = 20_000
"""How many events may be logged between two answers before no more hooks run in that
step (a turn logs a few dozen): a hook that logs in a loop and runs itself cannot fill the
memory with its log (the game's own budget, ``game_event_limit``, ends it later)."""

MAX_NESTED_HOOKS: Final = 32
"""How deep hooks run inside one another at once; deeper, a hook waits in the queue (so a
hook that runs itself goes round the queue instead of the Python stack)."""


def run_hook(game: Game, hook: str, me: int, variables: Variables | None = None) -> None:
    """Run the rule set's hook ``hook`` for ``me`` now, before anything waiting.

    A hook runs at once, without waiting in the queue, up to the point where it needs an
    answer or has queued work of its own (a discard, another hook's decision): from there
    it waits in the queue, behind that work, like any effect. Most hooks never wait, and
    running them at once is what keeps the turn fast."""
    programs = game.rules.programs
    run = programs.hook_code.get(hook)
    if run is None and hook not in programs.hooks:
        return
    game.hooks_run += 1
    if game.hooks_run > MAX_HOOK_RUNS:  # a hook that runs itself, forever: stop it
        if game.hooks_run == MAX_HOOK_RUNS + 1:
            reason = f"more than {MAX_HOOK_RUNS} hooks in one step (does a hook run itself?)"
            stop = {"key": "stop_hooks", "limit": MAX_HOOK_RUNS}
            game.log("hook_failed", me, hook=hook, line=0, reason=reason, stop=stop)
        return
    if game.state.step_logged > MAX_STEP_EVENTS:  # hooks that log in a loop: stop them
        game.hooks_run = MAX_HOOK_RUNS + 1  # (the rest of the step: said once, here)
        reason = f"more than {MAX_STEP_EVENTS} events in one step (does a hook log in a loop?)"
        stop = {"key": "stop_events", "limit": MAX_STEP_EVENTS}
        game.log("hook_failed", me, hook=hook, line=0, reason=reason, stop=stop)
        return
    depth = game.hook_depth
    if run is None or depth >= MAX_NESTED_HOOKS:
        # Not compiled to Python (``closures_only``, a shape ``run_code`` does not take),
        # or deep in hooks: it runs first in the queue, instruction by instruction
        # (``_steps``), which comes to the same.
        task = EffectTask("effect", new_frame("hook", hook, me, variables))
        game.push(task)
        if run is None and depth < MAX_NESTED_HOOKS:
            # Now, up to its first question, as a compiled hook runs: not after the next
            # look at the win (a turn won as it begins would leave its `turn_start` queued).
            game.hook_depth = depth + 1
            try:
                _effect_options(game, task)
            finally:
                game.hook_depth = depth
        return
    game.hook_depth = depth + 1
    try:
        variables = dict(variables) if variables else {}
        queue = game.state.queue
        waiting = len(queue)
        loops: list[list[Any]] = []
        at = [0]
        try:
            pc = run(Env(game, me, variables), loops, waiting, at)
        except EffectFailure as failure:
            frame = _frame(hook, me, variables, loops, at[0])
            _failed(game, EffectTask("effect", frame), programs.hooks[hook], failure)
            return
        if pc >= 0:  # it stops to wait, in front of what waited before it began
            frame = _frame(hook, me, variables, loops, pc)
            queue.insert(len(queue) - waiting, EffectTask("effect", frame))
    finally:
        game.hook_depth = depth


_SOURCE_NAMES: dict[str, tuple[str, EventKind]] = {
    "card": ("card", "card_failed"),
    "ability": ("level", "level_failed"),
    "hook": ("hook", "hook_failed"),
    "action": ("action", "action_failed"),
}
"""How the log names what failed (the card, the level of an ability, the hook or the
action) and the event that says so."""


def _frame(hook: str, me: int, variables: Variables, loops: list[list[Any]], pc: int) -> Frame:
    """The frame of a hook run at once (``run_hook``), where it stands."""
    frame = new_frame("hook", hook, me)
    frame["pc"], frame["vars"], frame["loops"] = pc, variables, loops
    return frame


def _steps(game: Game, task: EffectTask, program: Program) -> tuple[Option, ...]:
    """Run the effect of ``task``, at the head of the queue, from where its frame stands,
    until it ends, stops to wait or asks a question (its options). The loop counts with a
    local ``pc``, written back into the frame however it stops (a failure included: its
    message names the line)."""
    frame = task.frame
    pc = frame["pc"]
    code = program.code
    end = len(code)
    variables = frame["vars"]
    env = Env(game, frame["me"], variables)
    queue = game.state.queue
    loops = frame["loops"]
    try:
        while pc < end:
            ins = code[pc]
            op = ins[0]
            if op == ACT:
                ins[5](env)  # the verb with its arguments (``compiler.closures._act``)
                pc += 1
                if not queue or queue[0] is not task:
                    # It queued work of its own (or the game ended): that comes first. A
                    # hook with nothing left to do ends now rather than wait for it (`run`
                    # last).
                    if frame["src"] == "hook" and ends(code, pc):
                        _drop(queue, task)
                    return ()
            elif op == BRANCH:
                pc = pc + 1 if ins[1](env) else ins[2]
            elif op == LET:
                variables[ins[1]] = ins[2](env)
                pc += 1
            elif op == JUMP:
                pc = ins[1]
            elif op == FOR:
                var, after = ins[1], ins[4]
                items = ins[5](env)  # ``compiler.selections.selection_code``
                if items:
                    loops.append([items, 0])
                    variables[var] = items[0]
                    pc += 1
                else:
                    pc = after
            elif op == NEXT:
                env.budget -= 1
                if env.budget < 0:
                    out_of_budget()
                loop = loops[-1]
                loop[1] += 1
                if loop[1] < len(loop[0]):
                    variables[ins[1]] = loop[0][loop[1]]
                    pc = ins[2]
                else:
                    loops.pop()
                    pc += 1
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
                    game.empty_choices.append((frame["src"], frame["id"], program.lines[pc]))
                    break
                else:
                    pc = target
            elif op == REPEAT:
                count = ins[1](env)
                env.budget -= max(count, 0)
                if env.budget < 0:
                    out_of_budget()
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
    finally:
        frame["pc"] = pc
    _finish(game, task)
    return ()


def _drop(queue: list[Task], task: Task) -> None:
    """Take ``task`` (this very one) out of the queue."""
    for k, waiting in enumerate(queue):
        if waiting is task:
            del queue[k]
            return


def choice_options(env: Env, spec: ChooseSpec, frame: Frame | None) -> tuple[Option, ...]:
    """The answers of a choice now: each candidate, then "done" (up to N) and "skip"."""
    candidates = spec.candidates(env)
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


def effect_decision(game: Game, task: EffectTask, options: tuple[Option, ...]) -> Decision:
    frame = task.frame
    program = _program(game, frame)
    assert program is not None
    ins = program.code[frame["pc"]]
    if ins[0] == OPTIONAL:
        return new_decision(frame["asker"], "optional", options)
    return new_decision(frame["asker"], CHOICE_DECISIONS[ins[1].kind], options)


def _on_answer(game: Game, player: int, option: Option) -> None:
    task = expect(game.state.queue[0], EffectTask)
    frame = task.frame
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
    programs = game.rules.programs
    compiled = programs.opening_code.get(card)
    if compiled is None:
        return refusal(game, player, programs.openings.get(card, ()))
    try:  # ``refusal``, compiled (``compiler.blocks.opening_code``)
        return compiled(Env(game, player, {}))
    except EffectFailure as failure:
        return str(failure)


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
                if spec.on_empty == -1 and not spec.any_candidate(env):
                    return f"there is no {spec.kind} to choose"
    except EffectFailure as failure:
        return str(failure)
    return None


# An effect's questions (`choose`, `optional`) are answered through one handler, which
# finds in the effect's frame what was asked.
DECISIONS = (
    Asked("optional", _on_answer),
    *(Asked(kind, _on_answer) for kind in CHOICE_DECISIONS.values()),
)
VERBS = (
    Verb("choose", "choose {1} {2:value}"),
    Verb("done", "done"),
    Verb("do", "do"),
    Verb("skip", "skip"),
)
TASK_OPTIONS = {"effect": _effect_options}
