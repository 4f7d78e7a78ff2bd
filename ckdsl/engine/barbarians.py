"""The barbarians (source §7, design §7): the ship, the attack, its rewards and losses.

The ship advances on ship faces of the event die and attacks on reaching the end of its
track, before production. Barbarian strength and each player's defence are formulas of the
rule set (``barbarians.strength``, ``barbarians.defence``), evaluated by the DSL; ties go
to the defenders. Won: the single strongest defender takes a Defender of Catan (points);
tied strongest defenders each take a progress card of a deck of their choice instead.
Lost: of the players owning a city that carries no metropolis, the weakest defenders (all
ties) each lose a city of their choice. Then every knight is deactivated, the ship goes
back to the start, and the first attack unlocks the robber.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.engine import pieces, progress
from ckdsl.engine.decisions import Option
from ckdsl.engine.state import CITY, Task

if TYPE_CHECKING:
    from ckdsl.engine.game import Game


def advance(game: Game, roller: int, steps: int) -> None:
    state = game.state
    state.barbarians += steps
    game.log("barbarians", roller, position=state.barbarians)
    if state.barbarians >= game.rules.barbarian_track:
        attack(game, roller)


def attack(game: Game, roller: int) -> None:
    state, rules = game.state, game.rules
    programs = rules.programs
    strength = programs.barbarian_strength(game)
    shares = [programs.defence_of(game, p) for p in range(game.n)]
    defence = sum(shares)
    won = defence >= strength
    game.log("attack", roller, strength=strength, defence=defence, won=won)
    order = game.order_from(roller)
    tasks: list[Task] = []
    if won:
        best = max(shares)
        leaders = [p for p in order if shares[p] == best]
        if best <= 0:
            pass  # nobody defended: nobody is rewarded
        elif len(leaders) == 1:
            _defender(game, leaders[0])
        else:
            tasks += [("reward", p) for p in leaders]
    else:
        eligible = [p for p in order if pillageable(game, p)]
        if eligible:
            low = min(shares[p] for p in eligible)
            tasks += [("pillage", p) for p in eligible if shares[p] == low]
    for i, active in enumerate(state.knight_active):
        if active:
            state.knight_active[i] = False
    state.barbarians = 0
    state.attacks += 1
    if not state.robber_unlocked:
        state.robber_unlocked = True
        game.log("robber_unlocked", roller)
    game.push(*tasks)


def _defender(game: Game, player: int) -> None:
    state, rules = game.state, game.rules
    given = sum(p.defender for p in state.players)
    if given >= rules.defender_supply:
        game.log("defender_none_left", player)
        return
    state.players[player].defender += 1
    game.add_points(player, rules.defender_points)
    game.log("defender", player)


def pillageable(game: Game, player: int) -> list[int]:
    """The player's cities that the barbarians can take (metropolises are never taken)."""
    state = game.state
    building, metropolis = state.building, state.metropolis
    return [
        i for i in state.players[player].buildings if building[i] == CITY and i not in metropolis
    ]


def _pillage_options(game: Game, task: Task) -> tuple[Option, ...]:
    return tuple(("lose_city", i) for i in pillageable(game, task[1]))


def _on_pillage(game: Game, player: int, option: Option) -> None:
    game.state.queue.pop(0)
    pieces.pillage_city(game, option[1])


def _reward_options(game: Game, task: Task) -> tuple[Option, ...]:
    decks = game.state.decks
    return tuple(("reward", deck.id) for k, deck in enumerate(game.rules.decks) if decks[k])


def _on_reward(game: Game, player: int, option: Option) -> None:
    game.state.queue.pop(0)
    deck = next(k for k, d in enumerate(game.rules.decks) if d.id == option[1])
    progress.draw(game, player, deck)


HANDLERS = {"pillage": _on_pillage, "reward": _on_reward}
TASK_OPTIONS = {"pillage": _pillage_options, "reward": _reward_options}
