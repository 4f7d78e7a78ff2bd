"""Work waiting in the queue, as plain data: the frames of a card, an ability, a hook or an
action of the rule set, the tasks of the abilities an event triggers, and a task that
asks for several answers counting them down.

A running effect is a task ``("effect", frame)`` in the game's queue; the frame says
which program (its source and id), who runs it, where it stands and its variables, so a
game paused inside an effect can be copied, saved and replayed. ``ckdsl.dsl.runtime``
runs frames; the engine only makes them, at the points the rule set names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ckdsl.engine.state import Task

if TYPE_CHECKING:
    from ckdsl.engine.game import Game

Frame = dict[str, Any]


def new_frame(source: str, key: str, me: int, variables: dict[str, Any] | None = None) -> Frame:
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
        return [("effect", new_frame("ability", level, player))]
    levels = game.state.players[player].levels
    tasks: list[Task] = []
    for t, track in enumerate(game.rules.tracks):
        for lid in track.levels[: levels[t]]:
            found = abilities.get(lid)
            if found is not None and found[0] == when:
                tasks.append(("effect", new_frame("ability", lid, player)))
    return tasks


def count_down(game: Game) -> None:
    """One of the cards a task asks for is done; the task ends with its last one."""
    queue = game.state.queue
    task = queue[0]
    if task[2] > 1:
        queue[0] = (*task[:2], task[2] - 1, *task[3:])
    else:
        queue.pop(0)
