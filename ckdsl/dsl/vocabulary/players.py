"""Words about the players and their hands: who plays, points, goods held, progress cards,
improvement levels.
"""

from __future__ import annotations

from ckdsl.core import improvements
from ckdsl.core.allow import Env
from ckdsl.dsl.base.registry import function
from ckdsl.dsl.base.types import (
    BOOL,
    BUNDLE,
    CARD,
    GOOD,
    INT,
    PLAYER,
    TRACK,
    list_of,
)

# --- players ------------------------------------------------------------------------------


@function("me", (), PLAYER, "the player who plays the card (or holds the ability)")
def _me(env: Env) -> int:
    return env.me


@function("opponents", (), list_of(PLAYER), "every other player, in turn order after me", reads=())
def _opponents(env: Env) -> list[int]:
    return [q for q in env.game.order_from(env.me) if q != env.me]


@function("players", (), list_of(PLAYER), "every player, in turn order from me", reads=())
def _players(env: Env) -> list[int]:
    return list(env.game.order_from(env.me))


@function("current", (), PLAYER, "the player whose turn it is", reads=("current",))
def _current(env: Env) -> int:
    return env.game.state.current


@function("points", (PLAYER,), INT, "p's victory points", reads=("points",))
def _points(env: Env, p: int) -> int:
    return env.game.state.players[p].points


@function("hand_size", (PLAYER,), INT, "how many resources and commodities p holds")
def _hand_size(env: Env, p: int) -> int:
    return sum(env.game.state.players[p].hand)


@function("amount", (PLAYER, GOOD), INT, "how many of good g p holds")
def _amount(env: Env, p: int, g: str) -> int:
    return env.game.state.players[p].hand[env.game.rules.good_index[g]]


@function("has", (PLAYER, BUNDLE), BOOL, "whether p holds all these goods")
def _has(env: Env, p: int, goods: dict[str, int]) -> bool:
    hand, index = env.game.state.players[p].hand, env.game.rules.good_index
    return all(hand[index[g]] >= n for g, n in goods.items())


@function("hand", (PLAYER,), list_of(GOOD), "the goods p holds at least one of")
def _hand(env: Env, p: int) -> list[str]:
    hand, goods = env.game.state.players[p].hand, env.game.rules.goods
    return [goods[g] for g, n in enumerate(hand) if n]


@function("progress", (PLAYER,), list_of(CARD), "the progress cards in p's hand")
def _progress(env: Env, p: int) -> list[str]:
    return list(dict.fromkeys(env.game.state.players[p].progress))


@function("level", (PLAYER, TRACK), INT, "p's improvement level in a track (0 to 5)")
def _level_of(env: Env, p: int, track: str) -> int:
    return env.game.state.players[p].levels[env.game.rules.track_index[track]]


@function("can_improve", (PLAYER, TRACK), BOOL, "whether p could improve a track (cost aside)")
def _can_improve(env: Env, p: int, track: str) -> bool:
    return improvements.can_improve(env.game, p, env.game.rules.track_index[track])
