"""Work waiting in the queue, as plain data: the frames of a card, an ability, a hook or an
action of the rule set, the tasks of the abilities an event triggers, and a task that
asks for several answers counting them down.

A running effect is a task ``("effect", frame)`` in the game's queue; the frame says
which program (its source and id), who runs it, where it stands and its variables, so a
game paused inside an effect can be copied, saved and replayed. ``ckdsl.dsl.runtime``
runs frames; the engine only makes them, at the points the rule set names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core.tasks import (
    DiscardProgressTask,
    DiscardTask,
    EffectTask,
    Frame,
    FrameSource,
    GoldTask,
    Task,
)
from ckdsl.core.values import Variables

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def new_frame(source: FrameSource, key: str, me: int, variables: Variables | None = None) -> Frame:
    """A frame at the start of a program: ``source`` is card, ability, hook or action."""
    return {"src": source, "id": key, "me": me, "pc": 0, "vars": dict(variables or {}),
            "loops": [], "picked": [], "skip": -1, "asker": me}  # fmt: skip


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
        return [EffectTask("effect", new_frame("ability", level, player))]
    levels = game.state.players[player].levels
    tasks: list[Task] = []
    for t, track in enumerate(game.rules.tracks):
        for lid in track.levels[: levels[t]]:
            found = abilities.get(lid)
            if found is not None and found[0] == when:
                tasks.append(EffectTask("effect", new_frame("ability", lid, player)))
    return tasks


def count_down(game: Game) -> None:
    """One of the answers the first task of the queue asks for is given (a discard, a
    good taken, a progress card discarded); the task ends with its last one."""
    queue = game.state.queue
    task = queue[0]
    if not isinstance(task, (DiscardTask, GoldTask, DiscardProgressTask)):
        raise TypeError(f"a {task.kind} task does not count answers down")
    if task.amount > 1:
        # The three share (kind, player, amount); a direct call, not ``_replace``, which
        # is a slow generic copy through Python even in the compiled build.
        queue[0] = type(task)(task.kind, task.player, task.amount - 1)  # type: ignore[arg-type]
    else:
        queue.pop(0)
