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
from ckdsl.dsl.vocabulary import Env
from ckdsl.engine.decisions import Decision, Option
from ckdsl.engine.state import Task

if TYPE_CHECKING:
    from ckdsl.engine.game import Game

Frame = dict[str, Any]


def new_frame(source: str, key: str, me: int) -> Frame:
    """A frame at the start of a program: ``source`` is "card" or "ability"."""
    return {"src": source, "id": key, "me": me, "pc": 0, "vars": {}, "loops": [],
            "picked": [], "skip": -1, "asker": me}  # fmt: skip


def _program(game: Game, frame: Frame) -> Program | None:
    programs = game.rules.programs
    if frame["src"] == "card":
        return programs.cards.get(frame["id"])
    found = programs.abilities.get(frame["id"])
    return found[1] if found is not None else None


def start_card(game: Game, player: int, card: str) -> None:
    """Play ``card``: its effect runs now, before anything else waiting."""
    if card not in game.rules.programs.cards:
        from ckdsl.engine.progress import under_deck

        under_deck(game, card)
        return
    game.push(("effect", new_frame("card", card, player)))


def ability_tasks(game: Game, when: str, player: int, level: str | None = None) -> list[Task]:
    """The effects of the abilities ``player`` holds that trigger on ``when``: on
    "reached", the ability of the level just reached; on other events, the abilities of
    every level the player has."""
    abilities = game.rules.programs.abilities
    if not abilities:
        return []
    if level is not None:
        found = abilities.get(level)
        if found is None or found[0] != when:
            return []
        return [("effect", new_frame("ability", level, player))]
    levels = game.state.players[player].levels
    tasks: list[Task] = []
    for t, track in enumerate(game.rules.tracks):
        for lid in track.levels[: levels[t]]:
            found = abilities.get(lid)
            if found is not None and found[0] == when:
                tasks.append(("effect", new_frame("ability", lid, player)))
    return tasks


def _finish(game: Game, task: Task) -> None:
    queue = game.state.queue
    if queue and queue[0] is task:
        queue.pop(0)
    frame = task[1]
    if frame["src"] == "card":
        from ckdsl.engine.progress import under_deck

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
        where = "card" if frame["src"] == "card" else "level"
        line = program.lines[frame["pc"]] if frame["pc"] < len(program.lines) else 0
        game.log(f"{where}_failed", frame["me"], **{where: frame["id"]}, line=line,
                 reason=str(failure))  # fmt: skip
        _finish(game, task)
        return ()


def _run(game: Game, task: Task, program: Program) -> tuple[Option, ...]:
    frame: Frame = task[1]
    code = program.code
    env = Env(game, frame["me"], frame["vars"])
    queue = game.state.queue
    loops = frame["loops"]
    while True:
        pc = frame["pc"]
        if pc >= len(code):
            _finish(game, task)
            return ()
        ins = code[pc]
        op = ins[0]
        if op == LET:
            frame["vars"][ins[1]] = ins[2](env)
            frame["pc"] = pc + 1
        elif op == CHOOSE:
            spec: ChooseSpec = ins[1]
            options = choice_options(env, spec, frame)
            if options:
                frame["asker"] = spec.by(env) if spec.by is not None else frame["me"]
                return options
            target = frame["skip"] if frame["skip"] >= 0 else spec.on_empty
            frame["skip"] = -1
            if spec.up_to is not None and frame["picked"]:
                frame["vars"][spec.var] = frame["picked"]
                frame["picked"] = []
                frame["pc"] = pc + 1
            elif target < 0:  # nothing to choose: the effect ends here
                _finish(game, task)
                return ()
            else:
                frame["pc"] = target
        elif op == ACT:
            _, impl, args, clauses, flags = ins
            impl(env, [f(env) for f in args], {k: f(env) for k, f in clauses}, flags)
            frame["pc"] = pc + 1
            if not queue or queue[0] is not task:
                return ()  # it queued work of its own (or the game ended): that comes first
        elif op == JUMP:
            frame["pc"] = ins[1]
        elif op == BRANCH:
            frame["pc"] = pc + 1 if ins[1](env) else ins[2]
        elif op == FOR:
            _, var, source, where, end = ins
            items = _selected(env, source, var, where)
            if items:
                loops.append([items, 0])
                frame["vars"][var] = items[0]
                frame["pc"] = pc + 1
            else:
                frame["pc"] = end
        elif op == NEXT:
            loop = loops[-1]
            loop[1] += 1
            if loop[1] < len(loop[0]):
                frame["vars"][ins[1]] = loop[0][loop[1]]
                frame["pc"] = ins[2]
            else:
                loops.pop()
                frame["pc"] = pc + 1
        elif op == REPEAT:
            count = ins[1](env)
            if count > 0:
                loops.append([count, 0])
                frame["pc"] = pc + 1
            else:
                frame["pc"] = ins[2]
        elif op == AGAIN:
            loop = loops[-1]
            loop[1] += 1
            if loop[1] < loop[0]:
                frame["pc"] = ins[1]
            else:
                loops.pop()
                frame["pc"] = pc + 1
        elif op == OPTIONAL:
            _, by, end, opens_with_choice = ins
            if opens_with_choice:  # "skip" becomes an answer of that choice
                frame["skip"] = end
                frame["pc"] = pc + 1
            else:
                frame["asker"] = by(env) if by is not None else frame["me"]
                return (("do",), ("skip",))
        elif op == REQUIRE:
            if not ins[1](env):
                _finish(game, task)
                return ()
            frame["pc"] = pc + 1
        elif op == STOP:
            _finish(game, task)
            return ()
        else:  # pragma: no cover - the compiler emits no other instruction
            raise AssertionError(ins)


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
    opening = game.rules.programs.openings.get(card)
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
