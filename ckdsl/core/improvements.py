"""City improvements and metropolises (docs/rules.md, "Improvements and metropolises").

Level n of a track costs the track's commodity (``cost`` per level in the rule set); a
player needs a city to improve, and a level at or above the metropolis level needs a city
that can carry a metropolis (or the track's metropolis already). The first player to reach
the metropolis level takes the metropolis and chooses its city; the first to reach the
take level takes it from its holder, and then it is kept for good. Reaching a level runs
the level's ability, if it has one (``ckdsl.dsl.runtime``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core import pieces
from ckdsl.core.allow import allowed
from ckdsl.core.building import cost_of, spend
from ckdsl.core.compiled import Bundle, has
from ckdsl.core.decisions import Asked, Option, Verb
from ckdsl.core.frames import ability_tasks
from ckdsl.core.state import CITY, NOBODY
from ckdsl.core.tasks import MetropolisTask, Task, expect

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def main_options(game: Game, player: int, options: list[Option]) -> None:
    me = game.state.players[player]
    hand, levels, priced = me.hand, me.levels, bool(game.state.modifiers)
    for t, track in enumerate(game.rules.tracks):
        level = levels[t]
        if level >= len(track.levels):
            continue
        if not priced and hand[track.commodity] < track.costs[level]:
            continue  # the usual price is out of reach, and no card changes it this turn
        price = improvement_price(game, player, t)
        if (
            price is not None
            and has(hand, price[0])
            and allowed(game, "improve", player, t=track.id)
        ):
            options.append(("improve", track.id))


def improvement_price(game: Game, player: int, t: int) -> tuple[Bundle, int] | None:
    """What the next level of track ``t`` costs ``player`` (and the modifier used), or
    None if they cannot improve it at all now."""
    if not can_improve(game, player, t):
        return None
    track = game.rules.tracks[t]
    level = game.state.players[player].levels[t]
    base = ((track.commodity, track.costs[level]),)
    return cost_of(game, player, "improvement", base)


def can_improve(game: Game, player: int, t: int) -> bool:
    """Cost aside: a next level exists, a city stands, and from the metropolis level on a
    city that can carry a metropolis (or this track's metropolis is already theirs)."""
    state, track = game.state, game.rules.tracks[t]
    me = state.players[player]
    level = me.levels[t]
    if level >= len(track.levels):
        return False
    building = state.building
    cities = [i for i in me.buildings if building[i] == CITY]
    if not cities:
        return False
    if level + 1 < track.metropolis_level:
        return True
    held = state.metropolis[t]
    if held != NOBODY and state.owner[held] == player:
        return True
    return any(i not in state.metropolis for i in cities)


def _on_improve(game: Game, player: int, option: Option) -> None:
    try_improve(game, player, game.rules.track_index[option[1]])


def try_improve(game: Game, player: int, t: int, *, free: bool = False) -> bool:
    """Raise ``player``'s level in track ``t`` if they may (``can_improve``), paying its
    price now unless ``free`` (the main phase and the DSL's `improve` both come here);
    whether it happened."""
    price = improvement_price(game, player, t)
    if price is None:
        return False
    if not free:
        if not has(game.state.players[player].hand, price[0]):
            return False
        spend(game, player, *price)
    improve(game, player, t)
    return True


def improve(game: Game, player: int, t: int) -> None:
    """Raise the player's level in track ``t`` (paid for), then the metropolis and the
    level's ability."""
    state, track = game.state, game.rules.tracks[t]
    me = state.players[player]
    me.levels[t] += 1
    level = me.levels[t]
    game.log("improve", player, track=track.id, level=track.levels[level - 1])
    tasks: list[Task] = []
    held = state.metropolis[t]
    holder = state.owner[held] if held != NOBODY else NOBODY
    if holder == NOBODY and level >= track.metropolis_level:
        tasks.append(MetropolisTask("metropolis", player, t))
    elif level >= track.take_level and not state.metropolis_kept[t]:
        if holder == player:
            state.metropolis_kept[t] = True
        else:
            tasks.append(MetropolisTask("metropolis", player, t))
    tasks += ability_tasks(game, "reached", player, track.levels[level - 1])
    game.push(*tasks)


def _metropolis_options(game: Game, task: Task) -> tuple[Option, ...]:
    state = game.state
    building, metropolis = state.building, state.metropolis
    return tuple(
        ("metropolis", i)
        for i in state.players[expect(task, MetropolisTask).player].buildings
        if building[i] == CITY and i not in metropolis
    )


def _on_metropolis(game: Game, player: int, option: Option) -> None:
    state = game.state
    t = expect(state.queue.pop(0), MetropolisTask).track
    pieces.set_metropolis(game, t, option[1])
    if state.players[player].levels[t] >= game.rules.tracks[t].take_level:
        state.metropolis_kept[t] = True


DECISIONS = (Asked("metropolis", _on_metropolis, _metropolis_options),)
VERBS = (
    Verb("improve", "improve {1}", main=_on_improve),
    Verb("metropolis", "metropolis on {1}"),
)
