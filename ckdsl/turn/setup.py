"""The setup: snake order, a settlement and a road, then (C&K) a city and a road.

docs/rules.md, "Setup": the second placement is ``parameters.second_setup_piece`` (a
city in Cities & Knights) and it alone yields start resources, one per terrain around it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core import board_rules, pieces
from ckdsl.core.decisions import Asked, Decision, DecisionKind, Option, new_decision
from ckdsl.core.hands import transfer
from ckdsl.core.state import CITY, NOBODY, SETTLEMENT
from ckdsl.core.tasks import GoldTask
from ckdsl.turn.turn import begin_turn

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def decision(game: Game) -> Decision:
    state, topo = game.state, game.topo
    player, step = game.setup_order[state.setup_step]
    if step == "road":
        home = state.players[player].buildings[-1]
        spots = [e for e in topo.inter_edges[home] if state.road[e] == NOBODY]
        return new_decision(player, "setup_road", tuple(("road", e) for e in spots))
    spots = [i for i in range(len(state.building)) if board_rules.distance_ok(topo, state, i)]
    kind: DecisionKind = "setup_city" if step == "city" else "setup_settlement"
    return new_decision(player, kind, tuple((step, i) for i in spots))


def _on_settlement(game: Game, player: int, option: Option) -> None:
    pieces.place_building(game, player, option[1], SETTLEMENT)
    pieces.run_placed(game, "setup_placed", player, "settlement", option[1])
    game.state.setup_step += 1


def _on_city(game: Game, player: int, option: Option) -> None:
    i = option[1]
    pieces.place_building(game, player, i, CITY)
    state, rules = game.state, game.rules
    for tile in game.topo.inter_tiles[i]:
        production = rules.production[game.terrain[tile]]["settlement"]
        for g, amount in production.goods:
            got = transfer(game, NOBODY, player, g, amount)
            if got:
                game.log("produce", player, goods={rules.goods[g]: got})
        if production.choice:
            state.queue.append(GoldTask("gold", player, production.choice))
    pieces.run_placed(game, "setup_placed", player, "city", i)  # its start resources given
    state.setup_step += 1


def _on_road(game: Game, player: int, option: Option) -> None:
    pieces.place_road(game, player, option[1])
    pieces.run_placed(game, "setup_placed", player, "road", option[1])
    state = game.state
    state.setup_step += 1
    if state.setup_step == len(game.setup_order):
        begin_turn(game, 0)


DECISIONS = (
    Asked("setup_settlement", _on_settlement),
    Asked("setup_city", _on_city),
    Asked("setup_road", _on_road),
)
