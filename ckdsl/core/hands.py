"""Goods moving between hands and the bank: every resource or commodity that changes
hands goes through ``transfer`` (the bank is a participant, ``NOBODY``), so what leaves
one side arrives on the other and the bank and the hands always add up to the rule set's
totals. The rest are its uses: a price, one card at a time, a steal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ckdsl import rng
from ckdsl.core.state import NOBODY

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def transfer(game: Game, giver: int, taker: int, g: int, n: int) -> int:
    """Up to ``n`` of good ``g`` from ``giver`` to ``taker`` (a player, or the bank:
    ``NOBODY``), as many as the giver holds; how many moved."""
    state = game.state
    source = state.bank if giver == NOBODY else state.players[giver].hand
    moved = min(n, source[g])
    if moved <= 0:  # nothing held, or nothing (or less than nothing) asked
        return 0
    source[g] -= moved
    (state.bank if taker == NOBODY else state.players[taker].hand)[g] += moved
    return moved


def transfer_all(game: Game, giver: int, taker: int, goods: Iterable[tuple[int, int]]) -> None:
    """Every (good, amount) of ``goods`` from ``giver`` to ``taker`` (``NOBODY``: the
    bank), which the giver holds (the caller checked: a price, what production owes)."""
    state = game.state
    source = state.bank if giver == NOBODY else state.players[giver].hand
    target = state.bank if taker == NOBODY else state.players[taker].hand
    for g, n in goods:
        source[g] -= n
        target[g] += n


def move_one(game: Game, player: int, good: str, *, to_bank: bool) -> None:
    """One card of ``good`` from the player's hand to the bank, or the other way."""
    g = game.rules.good_index[good]
    if to_bank:
        transfer(game, player, NOBODY, g, 1)
    else:
        transfer(game, NOBODY, player, g, 1)


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
    transfer(game, victim, player, g, 1)
    good = game.rules.goods[g]
    game.log("steal", player, victim=victim, good=good)
    if "stolen" in game.rules.programs.hooks:  # the rule set's hook, if it has one
        game.run_hook("stolen", player, {"victim": victim, "g": good})
    return good
