"""Cards in hand, moved one at a time: a discard or a chosen good, and a steal.

Primitives of the turn and of the vocabulary (`steal`): what moves is counted on both
sides, so the bank and the hands always add up to the rule set's totals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl import rng

if TYPE_CHECKING:
    from ckdsl.engine.game import Game


def move_one(game: Game, player: int, good: str, *, to_bank: bool) -> None:
    """One card of ``good`` from the player's hand to the bank, or the other way."""
    g = game.rules.good_index[good]
    step = -1 if to_bank else 1
    game.state.players[player].hand[g] += step
    game.state.bank[g] -= step


def steal(game: Game, player: int, victim: int) -> str | None:
    """Take one random resource or commodity from ``victim`` (none if the hand is empty)."""
    state = game.state
    hand = state.players[victim].hand
    total = sum(hand)
    if not total:
        return None
    pick = rng.below(state.rng, "other", total)
    g = 0
    while pick >= hand[g]:
        pick -= hand[g]
        g += 1
    hand[g] -= 1
    state.players[player].hand[g] += 1
    good = game.rules.goods[g]
    game.log("steal", player, victim=victim, good=good)
    return good
