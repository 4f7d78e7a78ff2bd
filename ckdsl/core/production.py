"""Production: what a rolled number gives (docs/rules.md, "Production").

A primitive of the vocabulary (`produce N`), run by the rule set's `production` hook:
every building next to a tile with the number yields what the terrain gives it, but not
under the robber; if the bank cannot pay everyone a good, nobody gets it unless only one
player is owed it (the official shortage rule); gold is chosen; a player who gets nothing
may have an ability for it (the Aqueduct).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl import rng
from ckdsl.core import derived
from ckdsl.core.compiled import Bundle
from ckdsl.core.frames import ability_tasks
from ckdsl.core.hands import transfer_all
from ckdsl.core.state import NOBODY
from ckdsl.core.tasks import GoldTask, Task

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def produce(game: Game, roller: int, number: int) -> None:
    state, rules = game.state, game.rules
    yields, gold = derived.production(game, number)
    bank = state.bank
    totals: dict[int, int] = {}
    for _, due in yields:
        for g, amount in due:
            totals[g] = totals.get(g, 0) + amount
    short = any(total > bank[g] for g, total in totals.items())
    owed = _shortage(game, yields, totals) if short else dict(yields)
    got_nothing = []
    gold_owners = {owner for owner, _ in gold} if gold else ()
    names, told = rules.goods, game.heard("produce")
    for p in game.order_from(roller):
        goods = owed.get(p)
        if goods and any(n for _, n in goods):
            transfer_all(game, NOBODY, p, goods)
            if told:
                named = {names[g]: n for g, n in sorted(goods) if n}
                game.log("produce", p, goods=named)
            else:
                game.tally()  # counted all the same (the budget of the log)
        elif p not in gold_owners:
            got_nothing.append(p)
    tasks: list[Task] = []
    if gold:
        ordered = sorted(gold, key=lambda pc: (pc[0] - roller) % game.n)
        tasks += [GoldTask("gold", owner, count) for owner, count in ordered]
    for p in got_nothing:
        tasks += ability_tasks(game, "nothing_produced", p)
    game.push(*tasks)


def _shortage(
    game: Game, yields: tuple[tuple[int, Bundle], ...], totals: dict[int, int]
) -> dict[int, Bundle]:
    """What each owner gets when the bank cannot pay every good in full (docs/rules.md,
    "Production"): a good short for several players goes to nobody, a good short for one
    player only gives them what the bank holds."""
    bank, goods = game.state.bank, game.rules.goods
    owed = {owner: dict(due) for owner, due in yields}
    for g, total in totals.items():
        if total > bank[g]:
            takers = [p for p, due in owed.items() if g in due]
            if len(takers) > 1:
                for p in takers:
                    del owed[p][g]
                game.log("shortage", NOBODY, good=goods[g])
            else:
                owed[takers[0]][g] = bank[g]
    return {p: tuple(due.items()) for p, due in owed.items()}


def roll_dice(game: Game, player: int) -> None:
    """``player`` rolls the three dice (docs/rules.md, "The roll"): the faces a scenario
    fixed, else three draws from the game's dice stream; the Alchemist's chosen production
    dice replace the first two. The rule set's `after_roll` hook is the caller's."""
    state, rules = game.state, game.rules
    if state.fixed_rolls:  # a scenario fixed these dice
        white, red, face = state.fixed_rolls.pop(0)
    else:
        # Three draws from the dice stream on every roll, even when a card has set the
        # production dice, so the rolls of two games on one seed stay in step.
        streams = state.rng
        white = rng.choice(streams, "dice", rules.white_faces)
        red = rng.choice(streams, "dice", rules.red_faces)
        face = rng.choice(streams, "dice", rules.event_faces)
    if state.next_dice is not None:  # Alchemist: the production dice were chosen
        white, red = state.next_dice
        state.next_dice = None
    state.dice = (white, red, face)
    state.rolled = True
    game.log("roll", player, white=white, red=red, face=face, total=white + red)
