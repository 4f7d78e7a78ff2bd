"""Trading: with the bank at the player's rates, and offers to the other players.

docs/rules.md, "Trading": bank 4:1, harbors 3:1 and 2:1, the merchant 2:1 in its tile's
resource, for resources and commodities alike (the rates per good are kept up to date
by ``pieces.refresh_rates``); progress cards are never traded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core.allow import allowed
from ckdsl.core.compiled import has
from ckdsl.core.decisions import Asked, Decision, IllegalAnswer, Option, Refusal, Verb
from ckdsl.core.hands import transfer, transfer_all
from ckdsl.core.state import NOBODY
from ckdsl.core.tasks import PartnerTask, RespondTask, Task, TradeOffer, expect
from ckdsl.core.unmet import unmet

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def main_options(game: Game, player: int, options: list[Option]) -> None:
    state = game.state
    me = state.players[player]
    goods, bank, rates, hand = game.rules.goods, state.bank, me.rates, me.hand
    count = len(goods)
    trades: list[Option] = []
    for g, held in enumerate(hand):
        if held >= rates[g]:
            give = goods[g]
            trades += [("bank", give, goods[h]) for h in range(count) if h != g and bank[h]]
    programs = game.rules.programs
    if trades and ("bank" in programs.allow or "bank" in programs.never):
        trades = [o for o in trades if allowed(game, "bank", player, give=o[1], get=o[2])]
    options += trades


def _on_bank(game: Game, player: int, option: Option) -> None:
    state = game.state
    me = state.players[player]
    give, get = option[1], option[2]
    g, h = game.rules.good_index[give], game.rules.good_index[get]
    rate = me.rates[g]
    transfer(game, player, NOBODY, g, rate)
    transfer(game, NOBODY, player, h, 1)
    game.log("bank_trade", player, give={give: rate}, get={get: 1})


# --- offers to the other players -----------------------------------------------------------


def check_offer(game: Game, decision: Decision, option: Option) -> None:
    """Check an offer to the other players: ("offer", give, get), each {good: amount}."""
    if len(option) != 3 or not isinstance(option[1], dict) or not isinstance(option[2], dict):
        raise IllegalAnswer(Refusal("refused_offer_form"))
    give, get = option[1], option[2]
    for side in (give, get):
        if not side:
            raise IllegalAnswer(Refusal("refused_offer_empty"))
        for good, amount in side.items():
            if good not in game.rules.good_index:
                raise IllegalAnswer(Refusal("refused_not_a_good", {"id": str(good)[:40]}))
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
                raise IllegalAnswer(Refusal("refused_offer_amount", {"good": good}))
    if set(give) & set(get):
        raise IllegalAnswer(Refusal("refused_offer_same"))
    hand = game.state.players[decision.player].hand
    if not has(hand, game.bundle(give)):
        short = {g: hand[game.rules.good_index[g]] for g in give}
        raise IllegalAnswer(Refusal("refused_offer_not_held", {"goods": give, "held": short}))
    why = offer_refused(game, decision.player)
    if why is not None:
        raise IllegalAnswer(why)


def offer_refused(game: Game, player: int) -> Refusal | None:
    """Why ``player`` may make no offer now, whatever it is (the rule set's `allow: offer`
    condition, the offers made this turn), or None: bots ask before they offer."""
    why = unmet(game, "offer", player)
    if why is not None:
        return why
    limit = game.rules.number("trade_offers_per_turn")
    if game.state.offers_made >= limit:
        return Refusal("refused_offer_limit", {"count": limit})
    return None


def _on_offer(game: Game, player: int, option: Option) -> None:
    state = game.state
    state.offers_made += 1
    offer: TradeOffer = {
        "from": player,
        "give": dict(option[1]),
        "get": dict(option[2]),
        "accepted": [],
    }
    game.log("offer", player, give=offer["give"], get=offer["get"])
    others = [q for q in game.order_from(player) if q != player]
    game.push(
        *[RespondTask("respond", q, offer) for q in others], PartnerTask("partner", player, offer)
    )


def _respond_options(game: Game, task: Task) -> tuple[Option, ...]:
    respond = expect(task, RespondTask)
    can_pay = has(game.state.players[respond.player].hand, game.bundle(respond.offer["get"]))
    return (("accept",), ("decline",)) if can_pay else (("decline",),)


def _on_respond(game: Game, player: int, option: Option) -> None:
    offer = expect(game.state.queue.pop(0), RespondTask).offer
    if option[0] == "accept":
        offer["accepted"].append(player)
        game.log("accept", player, offerer=offer["from"])
    else:
        game.log("decline", player, offerer=offer["from"])


def _partner_options(game: Game, task: Task) -> tuple[Option, ...]:
    return (*(("partner", q) for q in expect(task, PartnerTask).offer["accepted"]), ("cancel",))


def _on_partner(game: Game, player: int, option: Option) -> None:
    state = game.state
    offer = expect(state.queue.pop(0), PartnerTask).offer
    if option[0] == "cancel":
        game.log("trade_cancelled", player)
        return
    partner = option[1]
    transfer_all(game, player, partner, game.bundle(offer["give"]))
    transfer_all(game, partner, player, game.bundle(offer["get"]))
    game.log("trade", player, partner=partner, give=offer["give"], get=offer["get"])


DECISIONS = (
    Asked("respond", _on_respond, _respond_options),
    Asked("partner", _on_partner, _partner_options),
)
VERBS = (
    Verb("bank", "trade {1} for {2}", main=_on_bank),
    Verb("offer", "offer {1:goods} for {2:goods}", main=_on_offer),
    Verb("accept", "accept"),
    Verb("decline", "decline"),
    Verb("partner", "trade with {1:player}"),
    Verb("cancel", "cancel trade"),
)
