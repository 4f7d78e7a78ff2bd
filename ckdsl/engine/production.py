"""Production: what a rolled number gives (docs/rules.md, "Production").

A primitive of the vocabulary (`produce N`), run by the rule set's `production` hook:
every building next to a tile with the number yields what the terrain gives it, but not
under the robber; if the bank cannot pay everyone a good, nobody gets it unless only one
player is owed it (the official shortage rule); gold is chosen; a player who gets nothing
may have an ability for it (the Aqueduct).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.engine import derived
from ckdsl.engine.frames import ability_tasks
from ckdsl.engine.hands import transfer_all
from ckdsl.engine.state import NOBODY
from ckdsl.engine.tasks import GoldTask, Task

if TYPE_CHECKING:
    from ckdsl.engine.game import Game


def produce(game: Game, roller: int, number: int) -> None:
    state, rules = game.state, game.rules
    yields, chosen = derived.production(game, number)
    owed = {owner: dict(goods) for owner, goods in yields}
    gold = list(chosen)
    bank = state.bank
    totals: dict[int, int] = {}
    for due in owed.values():
        for g, amount in due.items():
            totals[g] = totals.get(g, 0) + amount
    for g, total in totals.items():
        if total > bank[g]:
            takers = [p for p, due in owed.items() if g in due]
            if len(takers) > 1:
                for p in takers:
                    del owed[p][g]
                game.log("shortage", NOBODY, good=rules.goods[g])
            else:
                owed[takers[0]][g] = bank[g]
    got_nothing = []
    gold_owners = {owner for owner, _ in gold}
    names, told = rules.goods, game.heard("produce")
    for p in game.order_from(roller):
        goods = owed.get(p)
        if goods and any(goods.values()):
            transfer_all(game, NOBODY, p, goods.items())
            if told:
                named = {names[g]: n for g, n in sorted(goods.items()) if n}
                game.log("produce", p, goods=named)
        elif p not in gold_owners:
            got_nothing.append(p)
    tasks: list[Task] = []
    if gold:
        gold.sort(key=lambda pc: (pc[0] - roller) % game.n)
        tasks += [GoldTask("gold", owner, count) for owner, count in gold]
    for p in got_nothing:
        tasks += ability_tasks(game, "nothing_produced", p)
    game.push(*tasks)
