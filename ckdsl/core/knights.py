"""Knights (docs/rules.md, "Knights"): build, activate, promote, and the actions of an active
knight: move, displace a weaker enemy knight, chase the robber away.

A knight is built basic and inactive on a free intersection of its owner's roads (no
distance rule); activation costs grain and the knight may not act in the same turn;
promotion keeps its status, at most once per knight per turn, and a level may require an
improvement (mighty: the Fortress); an active knight acts at most once per turn and is
inactive afterwards. Limits per level are the supplies of the rule set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ckdsl.core import derived, pieces
from ckdsl.core.allow import Env, allowed, allowed_items
from ckdsl.core.building import cost_of, try_build
from ckdsl.core.compiled import has
from ckdsl.core.decisions import Asked, Option, Verb
from ckdsl.core.state import ACTION, EMPTY, NOBODY, PROMOTION
from ckdsl.core.tasks import RelocateTask, RobberTask, Task, expect

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def main_options(game: Game, player: int, options: list[Option]) -> None:
    state, rules = game.state, game.rules
    me = state.players[player]
    hand, supply = me.hand, me.supply
    levels = rules.knight_levels
    price = rules.costs["knight"]
    if state.modifiers:  # a card's price for knights this turn
        price = cost_of(game, player, "knight", price)[0]
    if supply[levels[0].id] and has(hand, price):
        spots = derived.knight_spots(game, player)
        options += [("knight", i) for i in allowed_items(game, "knight", player, "i", spots)]
    if not me.knights:
        return
    # Every knight is asked the same conditions: each is looked up once, and evaluated
    # against one environment whose variables are those of ``allowed`` (k: the knight).
    programs = rules.programs
    allow = programs.allow
    active = state.knight_active
    activate_if = promote_if = None
    can_activate = has(hand, rules.activate_cost)
    if can_activate:
        activate_if = allow.get("activate")
        can_activate = activate_if is not None or "activate" not in programs.never
    can_promote = has(hand, rules.promote_cost)
    if can_promote:
        promote_if = allow.get("promote")
        can_promote = promote_if is not None or "promote" not in programs.never
    acts = allow.get("knight_acts") if "knight_acts" not in programs.never else _NEVER
    env = Env(game, player, {})
    knight = env.vars
    moves: _Moves | None = None
    for i in me.knights:
        knight["k"] = i
        if not active[i] and can_activate and (activate_if is None or activate_if(env)):
            options.append(("activate", i))
        if (
            can_promote
            and _promotable(game, player, i, fortress=True)
            and (promote_if is None or promote_if(env))
        ):
            options.append(("promote", i))
        if acts is None or acts(env):
            if moves is None:
                moves = _Moves(game, player)
            moves.add(i, env, options)


class _Moves:
    """What an active knight may do (it may act): move to a free intersection it reaches,
    displace a knight there (the `displace` condition: a weaker one in the base rules),
    chase the robber from a tile it stands next to (`chase`). The conditions are looked up
    once per listing, for all of the player's knights."""

    __slots__ = ("chase", "displace", "game", "move", "moving", "ousting", "player")

    def __init__(self, game: Game, player: int) -> None:
        programs = game.rules.programs
        allow, never_ = programs.allow, programs.never
        self.game, self.player = game, player
        self.move = allow.get("move_knight") if "move_knight" not in never_ else _NEVER
        self.displace = allow.get("displace") if "displace" not in never_ else _NEVER
        self.chase = allow.get("chase") if "chase" not in never_ else _NEVER
        self.moving = Env(game, player, {})  # k and i
        self.ousting = Env(game, player, {})  # k and other

    def add(self, i: int, env: Env, options: list[Option]) -> None:
        """The moves of the knight on ``i`` (``env``: its condition's variables, k)."""
        game, player = self.game, self.player
        state = game.state
        building, knight = state.building, state.knight
        move, displace = self.move, self.displace
        moving, ousting = self.moving, self.ousting
        moving.vars["k"] = ousting.vars["k"] = i
        for j in derived.knight_reach(game, player, i):
            other = knight[j]
            if other == NOBODY:
                if move is not _NEVER and building[j] == EMPTY:
                    moving.vars["i"] = j
                    if move is None or move(moving):
                        options.append(("move_knight", i, j))
            elif other != player and displace is not _NEVER:
                ousting.vars["other"] = j
                if displace is None or displace(ousting):
                    options.append(("displace", i, j))
        chase = self.chase
        if (
            i in game.topo.tile_corners[state.robber]
            and chase is not _NEVER
            and (chase is None or chase(env))
        ):
            options.append(("chase", i))


def _never(env: Env) -> bool:
    return False


_NEVER: Final = _never
"""A condition that is `false` (the move is never offered)."""


def can_promote_knight(game: Game, player: int, i: int, *, fortress: bool = True) -> bool:
    """Whether the knight on ``i`` may go up a level now: a next level in the supply, the
    improvement it requires (unless ``fortress`` is waived), and the rule set's
    `promote` condition (once per turn in the base rules)."""
    return _promotable(game, player, i, fortress=fortress) and allowed(game, "promote", player, k=i)


def _promotable(game: Game, player: int, i: int, *, fortress: bool) -> bool:
    """``can_promote_knight`` but for the `promote` condition."""
    state, levels = game.state, game.rules.knight_levels
    level = state.knight_level[i]
    if level >= len(levels):
        return False
    nxt = levels[level]
    if not state.players[player].supply[nxt.id]:
        return False
    return not fortress or meets(game, player, nxt.requires)


def meets(game: Game, player: int, requirement: tuple[int, int] | None) -> bool:
    """Whether the player's improvements reach ``(track, level)``."""
    if requirement is None:
        return True
    track, level = requirement
    return game.state.players[player].levels[track] >= level


def _on_knight(game: Game, player: int, option: Option) -> None:
    try_build(game, player, "knight", option[1])


def _on_activate(game: Game, player: int, option: Option) -> None:
    try_activate(game, option[1])


def _on_promote(game: Game, player: int, option: Option) -> None:
    try_promote(game, option[1])


def try_activate(game: Game, k: int, *, free: bool = False) -> bool:
    """Activate the inactive knight on ``k``, its owner paying the price unless ``free``
    (the main phase and the DSL's `activate` both come here); whether it happened."""
    state, rules = game.state, game.rules
    owner = state.knight[k]
    if owner == NOBODY or state.knight_active[k]:
        return False
    if not free:
        if not has(state.players[owner].hand, rules.activate_cost):
            return False
        game.pay(owner, rules.activate_cost)
    pieces.activate_knight(game, k)
    return True


def try_promote(game: Game, k: int, *, free: bool = False) -> bool:
    """Promote the knight on ``k`` if it may go up a level now (``can_promote_knight``),
    its owner paying the price unless ``free`` (the main phase and the DSL's `promote`
    both come here); whether it happened."""
    state, rules = game.state, game.rules
    owner = state.knight[k]
    if owner == NOBODY or not can_promote_knight(game, owner, k):
        return False
    if not free:
        if not has(state.players[owner].hand, rules.promote_cost):
            return False
        game.pay(owner, rules.promote_cost)
    promote(game, owner, k)
    return True


def promote(game: Game, player: int, i: int) -> None:
    state = game.state
    pieces.set_knight_level(game, i, state.knight_level[i] + 1)
    state.knight_flags[i] += PROMOTION
    level_id = game.rules.knight_levels[state.knight_level[i] - 1].id
    game.log("promote", player, at=i, level=level_id)


def _on_move(game: Game, player: int, option: Option) -> None:
    _, i, j = option
    pieces.move_knight(game, i, j)
    game.state.knight_flags[j] += ACTION
    game.log("move_knight", player, at=i, to=j)
    _acted(game, player, j)


def _on_displace(game: Game, player: int, option: Option) -> None:
    """docs/rules.md, "Knights": the displaced knight's owner relocates it on their own
    network, or it is removed when there is no free place there."""
    _, i, j = option
    victim = game.state.knight[j]
    game.log("displace", player, at=i, to=j, victim=victim)
    level, active = pieces.remove_knight(game, j)
    pieces.move_knight(game, i, j)
    game.state.knight_flags[j] += ACTION
    displace_to_network(game, victim, level, active, j)
    _acted(game, player, j)


def displace_to_network(game: Game, owner: int, level: int, active: bool, was: int) -> None:
    """A knight of ``owner`` pushed off ``was`` (already off the board) must go to another
    free place on their roads that the rule set's `relocate` condition allows (the base:
    the road network it stood on); with none it stays off (removed)."""
    if _relocation_spots(game, owner, was):
        game.push(RelocateTask("relocate", owner, level, active, was))


def _relocation_spots(game: Game, owner: int, was: int) -> list[int]:
    spots = [i for i in derived.knight_spots(game, owner) if i != was]
    programs = game.rules.programs
    if "relocate" in programs.never:
        return []
    condition = programs.allow.get("relocate")
    if condition is None:
        return spots
    env = Env(game, owner, {"was": was})
    allowed_spots = []
    for i in spots:
        env.vars["i"] = i
        if condition(env):
            allowed_spots.append(i)
    return allowed_spots


def _relocate_options(game: Game, task: Task) -> tuple[Option, ...]:
    relocate = expect(task, RelocateTask)
    return tuple(("relocate", i) for i in _relocation_spots(game, relocate.player, relocate.was))


def _on_relocate(game: Game, player: int, option: Option) -> None:
    task = expect(game.state.queue.pop(0), RelocateTask)
    pieces.place_knight(game, player, option[1], task.level, task.active)


def _on_chase(game: Game, player: int, option: Option) -> None:
    i = option[1]
    game.state.knight_flags[i] += ACTION
    game.log("chase", player, at=i)
    game.push(RobberTask("robber", player))
    _acted(game, player, i)


def _acted(game: Game, player: int, knight: int) -> None:
    """The rule set's `knight_acted` hook: whether the knight that acted stays active
    (docs/rules.md, "Knights": in the base rules it is inactive after its last action of
    the turn). It comes before what the action queued (the robber, a relocation)."""
    game.run_hook("knight_acted", player, {"k": knight})


DECISIONS = (Asked("relocate", _on_relocate, _relocate_options),)
VERBS = (
    Verb("knight", "build knight {1}", main=_on_knight),
    Verb("activate", "activate knight {1}", main=_on_activate),
    Verb("promote", "promote knight {1}", main=_on_promote),
    Verb("move_knight", "move knight {1} to {2}", main=_on_move),
    Verb("displace", "displace knight {2} with knight {1}", main=_on_displace),
    Verb("chase", "chase robber with knight {1}", main=_on_chase),
    Verb("relocate", "relocate knight to {1}"),
)
