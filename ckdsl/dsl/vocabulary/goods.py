"""Words about goods: the resources and commodities, a player's, the bank's, the tracks, the
terrains, the decks.
"""

from __future__ import annotations

from ckdsl.core.allow import Env
from ckdsl.dsl.base.registry import function
from ckdsl.dsl.base.types import (
    COMMODITY,
    GOOD,
    INT,
    PLAYER,
    RESOURCE,
    TERRAIN,
    TRACK,
    list_of,
)

# --- goods, cards, tracks -----------------------------------------------------------------


@function("resources", (), list_of(RESOURCE), "every resource", reads=())
def _resources(env: Env) -> list[str]:
    rules = env.game.rules
    return [rules.goods[g] for g in rules.resources]


@function("commodities", (), list_of(COMMODITY), "every commodity", reads=())
def _commodities(env: Env) -> list[str]:
    rules = env.game.rules
    return [rules.goods[g] for g in rules.commodities]


@function("resources", (PLAYER,), list_of(RESOURCE), "the resources p holds at least one of")
def _resources_of(env: Env, p: int) -> list[str]:
    rules, hand = env.game.rules, env.game.state.players[p].hand
    return [rules.goods[g] for g in rules.resources if hand[g]]


@function("commodities", (PLAYER,), list_of(COMMODITY), "the commodities p holds at least one of")
def _commodities_of(env: Env, p: int) -> list[str]:
    rules, hand = env.game.rules, env.game.state.players[p].hand
    return [rules.goods[g] for g in rules.commodities if hand[g]]


@function("goods", (), list_of(GOOD), "every resource and commodity", reads=())
def _goods(env: Env) -> list[str]:
    return list(env.game.rules.goods)


@function("bank", (GOOD,), INT, "how many of good g the bank holds")
def _bank(env: Env, g: str) -> int:
    return env.game.state.bank[env.game.rules.good_index[g]]


@function("tracks", (), list_of(TRACK), "every improvement track", reads=())
def _tracks(env: Env) -> list[str]:
    return [t.id for t in env.game.rules.tracks]


@function("terrains", (), list_of(TERRAIN), "every terrain", reads=())
def _terrains(env: Env) -> list[str]:
    return list(env.game.rules.production)


@function("deck_size", (TRACK,), INT, "how many cards are left in the progress deck of a track")
def _deck_size(env: Env, track: str) -> int:
    deck = env.game.rules.tracks[env.game.rules.track_index[track]].deck
    return len(env.game.state.decks[deck]) if deck >= 0 else 0
