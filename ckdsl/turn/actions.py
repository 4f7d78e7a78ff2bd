"""Actions and phases that the rule set adds (docs/dsl.md, "Actions" and "Phases").

An action of the rule set (``actions:``) is offered in the main phase as
``("action", id)`` when its player can pay its cost, its `allow` condition holds and its
effect can start (its opening `require`s and first choice, as for a card); answering it
pays the cost and runs the effect. A phase (``phases:``) is opened by a hook with
``phase NAME by p``: the player gets the main phase's options limited to the moves and
actions the phase lists, until they answer ``pass`` ("end phase").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core.allow import Env
from ckdsl.core.compiled import has
from ckdsl.core.decisions import Asked, Option, Verb
from ckdsl.core.frames import new_frame
from ckdsl.core.tasks import EffectTask, PhaseTask, Task, expect
from ckdsl.dsl.runtime import refusal

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def main_options(game: Game, player: int, options: list[Option]) -> None:
    actions = game.rules.programs.actions
    if not actions:
        return
    hand = game.state.players[player].hand
    for key, action in actions.items():
        if not has(hand, game.bundle(dict(action.cost))):
            continue
        if action.allow is not None and not action.allow(Env(game, player, {})):
            continue
        if refusal(game, player, action.program.opening) is None:
            options.append(("action", key))


def _on_action(game: Game, player: int, option: Option) -> None:
    key = option[1]
    action = game.rules.programs.actions[key]
    game.pay(player, game.bundle(dict(action.cost)))
    game.log("action", player, action=key)
    game.push(EffectTask("effect", new_frame("action", key, player)))


# --- phases --------------------------------------------------------------------------------


def _phase_options(game: Game, task: Task) -> tuple[Option, ...]:
    """A player's options in a phase: the main phase's that the phase lists, and
    ``pass``."""
    _, player, phase = expect(task, PhaseTask)
    allowed = game.rules.phases.get(phase, frozenset())
    options: list[Option] = []
    for add in game.main_options:
        add(game, player, options)
    kept = [
        o
        for o in options
        if o[0] != "end" and (o[0] in allowed or (o[0] == "action" and o[1] in allowed))
    ]  # a phase ends with `pass`; ending the turn is the turn's player's, not the phase's
    return (*kept, ("pass",))


def _on_phase(game: Game, player: int, option: Option) -> None:
    if option[0] == "pass":
        game.state.queue.pop(0)
        return
    game.main_verbs[option[0]](game, player, option)


DECISIONS = (Asked("phase", _on_phase, _phase_options),)
VERBS = (Verb("action", "action {1}", main=_on_action), Verb("pass", "end phase"))
