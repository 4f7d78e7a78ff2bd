"""The base turn flow: setup, production, discards, building, trades, longest road, the win.

Positions are placed directly with ``Game.place_building`` / ``place_road`` and dice are
fixed through ``state.fixed_rolls``; everything a player does goes through ``answer``.
"""

from __future__ import annotations

import dataclasses

import pytest

from ckdsl.bots import RandomBot
from ckdsl.core import pieces
from ckdsl.core.decisions import IllegalAnswer
from ckdsl.core.state import CITY, SETTLEMENT
from ckdsl.session import GameSetup, load_rules, play, start
from ckdsl.turn.game import Game
from ckdsl.turn.notation import format_option, parse_answer

RED, BLUE, WHITE, ORANGE = range(4)


def beginner(players: int = 4, seed: int = 1) -> Game:
    return start(GameSetup(layout="beginner", players=players, seed=seed))


def after_setup(game: Game) -> Game:
    """Answer the setup with the first legal option each time, up to the first roll."""
    while game.pending.kind.startswith("setup") or game.pending.kind == "gold":
        game.answer(game.pending.options[0])
    return game


def empty_board(players: int = 4) -> Game:
    """A game past its setup with nothing on the board and empty hands: tests place what
    they need."""
    game = beginner(players)
    state = game.state
    state.setup_step = len(game.setup_order)
    state.turn = 1
    return game


def hand(game: Game, player: int, **goods: int) -> None:
    """Give ``player`` exactly these goods (from the bank, so totals stay conserved)."""
    state = game.state
    index = game.rules.good_index
    for g, held in enumerate(state.players[player].hand):
        state.bank[g] += held
        state.players[player].hand[g] = 0
    for good, n in goods.items():
        state.players[player].hand[index[good]] = n
        state.bank[index[good]] -= n
    game.refresh()


def held(game: Game, player: int) -> dict[str, int]:
    h = game.state.players[player].hand
    return {g: h[i] for i, g in enumerate(game.rules.goods) if h[i]}


def tile_of(game: Game, terrain: str) -> int:
    return game.terrain.index(terrain)


def roll(game: Game, white: int, red: int, face: str = "ship") -> None:
    game.state.fixed_rolls.append((white, red, face))
    game.answer(("roll",))


def answer(game: Game, text: str) -> None:
    game.answer(parse_answer(game, text))


# --- setup -----------------------------------------------------------------------------


def test_setup_is_snake_order_and_the_second_placement_is_a_city() -> None:
    game = beginner()
    seen = []
    while game.pending.kind != "roll":
        d = game.pending
        seen.append((d.player, d.kind))
        game.answer(d.options[0])
    order = [p for p, kind in seen if kind != "setup_road" and kind != "gold"]
    assert order == [0, 1, 2, 3, 3, 2, 1, 0]
    kinds = [kind for _, kind in seen if kind != "setup_road" and kind != "gold"]
    assert kinds == ["setup_settlement"] * 4 + ["setup_city"] * 4
    for p in range(4):
        me = game.state.players[p]
        assert sorted(game.state.building[i] for i in me.buildings) == [SETTLEMENT, CITY]
        assert len(me.roads) == 2 and me.points == 3


def test_start_resources_come_from_the_city_only() -> None:
    game = beginner()
    while game.pending.kind != "setup_city":
        game.answer(game.pending.options[0])
    spot = game.pending.options[0][1]
    expected: dict[str, int] = {}
    for tile in game.topo.inter_tiles[spot]:
        for g, n in game.rules.production[game.terrain[tile]]["settlement"].goods:
            expected[game.rules.goods[g]] = expected.get(game.rules.goods[g], 0) + n
    before = held(game, game.pending.player)
    assert before == {}
    player = game.pending.player
    game.answer(game.pending.options[0])
    assert held(game, player) == expected


def test_setup_road_must_touch_the_new_building() -> None:
    game = beginner()
    game.answer(game.pending.options[0])
    home = game.state.players[0].buildings[0]
    assert {e for _, e in game.pending.options} == set(game.topo.inter_edges[home])


# --- production ------------------------------------------------------------------------


def test_production_settlement_city_commodity_and_robber() -> None:
    game = empty_board()
    forest = tile_of(game, "forest")
    number = game.layout.number[forest]
    a, b = game.topo.tile_corners[forest][0], game.topo.tile_corners[forest][2]
    pieces.place_building(game, RED, a, SETTLEMENT)
    pieces.place_building(game, BLUE, b, SETTLEMENT)
    pieces.place_building(game, BLUE, b, CITY)
    others = {
        tile: game.rules.production[game.terrain[tile]]
        for tile in game.tiles_by_number[number]
        if tile != forest
    }
    assert all(not set(game.topo.tile_corners[t]) & {a, b} for t in others) or others == {}
    roll(game, 1, number - 1)
    assert held(game, RED).get("lumber") == 1
    assert held(game, BLUE).get("lumber") == 1 and held(game, BLUE).get("paper") == 1
    # Under the robber the tile yields nothing.
    game.state.robber = forest
    game.refresh()  # a direct change of the board (Game.refresh)
    game.answer(("end",))
    roll(game, 1, number - 1)
    assert held(game, RED).get("lumber") == 1


def test_gold_gives_resources_of_choice_only() -> None:
    plain = empty_board()
    tile = tile_of(plain, "hills")
    terrain = list(plain.layout.terrain)
    terrain[tile] = "gold"
    layout = dataclasses.replace(plain.layout, terrain=tuple(terrain))
    game = Game(plain.rules, plain.topo, layout, 4, seed=1)
    game.state.setup_step = len(game.setup_order)
    game.state.turn = 1
    corner = game.topo.tile_corners[tile][0]
    pieces.place_building(game, RED, corner, SETTLEMENT)
    pieces.place_building(game, RED, corner, CITY)
    number = game.layout.number[tile]
    roll(game, 1, number - 1)
    decision = game.pending
    assert decision.kind == "gold" and decision.player == RED
    assert {o[1] for o in decision.options} == set(game.rules.goods[:5])
    answer(game, "take ore")
    answer(game, "take wool")
    assert held(game, RED) == {"ore": 1, "wool": 1}
    assert game.pending.kind == "main"


def test_bank_shortage_two_takers_get_nothing_one_taker_gets_the_rest() -> None:
    game = empty_board()
    hills = tile_of(game, "hills")
    corners = game.topo.tile_corners[hills]
    pieces.place_building(game, RED, corners[0], SETTLEMENT)
    pieces.place_building(game, BLUE, corners[2], SETTLEMENT)
    brick = game.rules.good_index["brick"]
    number = game.layout.number[hills]
    game.state.bank[brick] = 1
    roll(game, 1, number - 1)
    assert "brick" not in held(game, RED) and "brick" not in held(game, BLUE)
    assert game.events[-1]["event"] in ("shortage", "roll") or any(
        e["event"] == "shortage" for e in game.events
    )


# --- the seven -------------------------------------------------------------------------


def test_seven_discards_half_rounded_down_one_card_at_a_time() -> None:
    game = empty_board()
    hand(game, BLUE, brick=5, ore=4)  # 9 cards: discard 4
    hand(game, WHITE, wool=7)  # at the limit: keeps everything
    roll(game, 3, 4)
    for _ in range(4):
        assert game.pending.kind == "discard" and game.pending.player == BLUE
        answer(game, "discard brick")
    assert held(game, BLUE) == {"brick": 1, "ore": 4}
    assert held(game, WHITE) == {"wool": 7}
    # Robber locked until the first barbarian attack: straight to the main phase.
    assert game.pending.kind == "main" and game.pending.player == RED


def test_a_city_wall_raises_the_hand_limit() -> None:
    game = empty_board()
    corner = game.topo.tile_corners[0][0]
    pieces.place_building(game, BLUE, corner, SETTLEMENT)
    pieces.place_building(game, BLUE, corner, CITY)
    game.state.wall[corner] = True
    hand(game, BLUE, grain=9)
    roll(game, 3, 4)
    assert game.pending.kind == "main"


def test_unlocked_robber_moves_and_steals() -> None:
    game = empty_board()
    game.state.robber_unlocked = True
    tile = tile_of(game, "fields")
    pieces.place_building(game, BLUE, game.topo.tile_corners[tile][0], SETTLEMENT)
    hand(game, BLUE, grain=1)
    roll(game, 3, 4)
    assert game.pending.kind == "robber"
    assert ("robber", game.state.robber) not in game.pending.options
    answer(game, f"move robber to {tile}")
    assert game.pending.kind == "steal"
    answer(game, "steal from blue")
    assert held(game, RED) == {"grain": 1} and held(game, BLUE) == {}


# --- building --------------------------------------------------------------------------


def test_distance_rule_and_illegal_answers_change_nothing() -> None:
    game = empty_board()
    a = game.topo.tile_corners[4][0]
    pieces.place_building(game, RED, a, SETTLEMENT)
    b = game.topo.inter_neighbors[a][0]
    e = game.topo.edge_id(a, b)
    pieces.place_road(game, RED, e)
    roll(game, 1, 1)
    hand(game, RED, brick=1, lumber=1, wool=1, grain=1)
    assert ("settlement", b) not in game.pending.options  # next to a settlement
    digest = game.state.digest()
    with pytest.raises(IllegalAnswer):
        game.answer(("settlement", b))
    with pytest.raises(IllegalAnswer, match=f"too close to the building on {a}"):
        answer(game, f"build settlement {b}")
    assert game.state.digest() == digest


def test_building_pays_and_uses_the_supply() -> None:
    game = empty_board()
    a = game.topo.tile_corners[4][0]
    pieces.place_building(game, RED, a, SETTLEMENT)
    roll(game, 1, 1)
    hand(game, RED, grain=2, ore=3, brick=2)
    answer(game, f"build city {a}")
    assert game.state.building[a] == CITY and held(game, RED) == {"brick": 2}
    me = game.state.players[RED]
    assert me.supply["settlement"] == 5 and me.supply["city"] == 3 and me.points == 2
    answer(game, f"build city_wall {a}")
    assert game.state.wall[a] and me.supply["city_wall"] == 2


def chain(game: Game, player: int, start: int, length: int) -> list[int]:
    """Lay ``length`` roads of ``player`` from ``start`` along a simple path; return its
    intersections."""
    path = [start]
    while len(path) <= length:
        nxt = next(
            j
            for j in game.topo.inter_neighbors[path[-1]]
            if j not in path and game.state.road[game.topo.edge_id(path[-1], j)] < 0
        )
        pieces.place_road(game, player, game.topo.edge_id(path[-1], nxt))
        path.append(nxt)
    return path


def test_longest_road_needs_five_and_is_cut_by_another_players_building() -> None:
    game = empty_board()
    path = chain(game, RED, 0, 4)
    assert game.state.longest_road_holder == -1
    path += chain(game, RED, path[-1], 1)[1:]
    assert game.state.players[RED].road_length == 5
    assert game.state.longest_road_holder == RED and game.state.players[RED].points == 2
    pieces.place_building(game, BLUE, path[2], SETTLEMENT)
    assert game.state.players[RED].road_length == 3
    assert game.state.longest_road_holder == -1 and game.state.players[RED].points == 0


# --- trades ----------------------------------------------------------------------------


def test_bank_trade_four_to_one() -> None:
    game = empty_board()
    roll(game, 1, 1)
    hand(game, RED, brick=4)
    answer(game, "trade brick for ore")
    assert held(game, RED) == {"ore": 1}


def harbor_spot(game: Game, kind: str) -> int:
    return next(i for i, k in sorted(game.harbor_at.items()) if k == kind)


def test_harbors_three_and_two_to_one() -> None:
    game = empty_board()
    pieces.place_building(game, RED, harbor_spot(game, "generic"), SETTLEMENT)
    wool_spot = harbor_spot(game, "wool")
    pieces.place_building(game, BLUE, wool_spot, SETTLEMENT)
    roll(game, 1, 1)
    hand(game, RED, grain=3)
    answer(game, "trade grain for ore")
    assert held(game, RED) == {"ore": 1}
    game.answer(("end",))
    roll(game, 1, 1)
    hand(game, BLUE, wool=2, paper=2)
    answer(game, "trade wool for brick")
    assert held(game, BLUE) == {"brick": 1, "paper": 2}
    assert ("bank", "paper", "brick") not in game.pending.options  # 4:1 for paper


def test_trade_with_players_offer_accept_choose_partner() -> None:
    game = empty_board()
    roll(game, 1, 1)
    hand(game, RED, brick=2)
    hand(game, BLUE, ore=1)
    hand(game, WHITE, ore=2)
    answer(game, "offer 2 brick for 1 ore")
    assert (game.pending.kind, game.pending.player) == ("respond", BLUE)
    answer(game, "accept")
    assert (game.pending.kind, game.pending.player) == ("respond", WHITE)
    answer(game, "accept")
    assert game.pending.options == (("decline",),)  # orange holds no ore
    answer(game, "decline")
    assert game.pending.kind == "partner" and game.pending.player == RED
    answer(game, "trade with white")
    assert held(game, RED) == {"ore": 1}
    assert held(game, WHITE) == {"brick": 2, "ore": 1}
    assert game.pending.kind == "main"


def test_declined_offer_and_bad_offers() -> None:
    game = empty_board(players=3)
    roll(game, 1, 1)
    hand(game, RED, brick=1)
    with pytest.raises(IllegalAnswer, match="do not hold"):
        answer(game, "offer 2 brick for 1 ore")
    with pytest.raises(IllegalAnswer, match="same good"):
        answer(game, "offer 1 brick for 1 brick")
    with pytest.raises(IllegalAnswer, match="not a resource"):
        answer(game, "offer 1 brick for 1 gems")
    answer(game, "offer 1 brick for 1 ore")
    answer(game, "decline")
    answer(game, "decline")
    assert game.pending.options == (("cancel",),)
    answer(game, "cancel trade")
    assert held(game, RED) == {"brick": 1} and game.pending.kind == "main"


def test_trade_offers_per_turn_are_limited() -> None:
    game = empty_board(players=3)
    roll(game, 1, 1)
    hand(game, RED, brick=1)
    for _ in range(game.rules.param("trade_offers_per_turn")):
        answer(game, "offer 1 brick for 1 ore")
        answer(game, "decline")
        answer(game, "decline")
        answer(game, "cancel trade")
    with pytest.raises(IllegalAnswer, match="at most"):
        answer(game, "offer 1 brick for 1 ore")


# --- the end ---------------------------------------------------------------------------


def test_win_only_during_ones_own_turn() -> None:
    game = empty_board()
    game.state.players[BLUE].points = 13  # reached on red's turn: no win yet
    roll(game, 1, 1)
    assert game.state.winner == -1 and game.pending.kind == "main"
    game.answer(("end",))  # blue's turn begins: blue wins
    assert game.state.winner == BLUE and game.pending.kind == "over"
    with pytest.raises(IllegalAnswer, match="over"):
        game.answer(("roll",))


def test_turn_limit_ends_the_game_unfinished() -> None:
    game = empty_board(players=3)
    params = dict(game.rules.params, turn_limit=2)
    game.rules = dataclasses.replace(game.rules, params=params)
    for _ in range(2):
        roll(game, 1, 1)
        game.answer(("end",))
    assert game.state.over and game.state.winner == -1
    assert game.events[-1] == {
        "event": "unfinished", "player": -1, "turns": 2, "limit": "turn_limit", "budget": False
    }  # fmt: skip
    assert game.state.turn == 2  # the turns played, not one begun beyond the limit


# --- whole games -----------------------------------------------------------------------


def random_game(seed: int, players: int = 4) -> Game:
    game = start(GameSetup(players=players, seed=seed))
    play(game, [RandomBot(seed * 10 + p) for p in range(players)])
    return game


def test_random_games_finish_and_are_deterministic() -> None:
    first, again, other = random_game(3), random_game(3), random_game(4)
    assert first.pending.kind == "over"
    assert first.state.digest() == again.state.digest()
    assert first.history == again.history
    assert first.state.digest() != other.state.digest()


def test_every_option_has_a_readable_form_that_parses_back() -> None:
    game = start(GameSetup(players=3, seed=5))
    bot = RandomBot(5)
    for _ in range(400):
        decision = game.pending
        if decision.kind == "over":
            break
        for option in decision.options:
            assert parse_answer(game, format_option(game, option)) == option
        game.answer(bot.choose(game.view(decision.player)))


def test_rules_are_compiled_once() -> None:
    assert load_rules("base") is load_rules("base")


def test_goods_move_through_one_transfer_that_keeps_the_books() -> None:
    """Every good that changes hands goes through ``hands.transfer``: as many as the giver
    holds, never a negative amount, and the bank plus the hands stay constant."""
    from ckdsl.core.hands import transfer
    from ckdsl.core.state import NOBODY

    game = empty_board()
    state = game.state
    before = [state.bank[g] + sum(p.hand[g] for p in state.players) for g in range(len(state.bank))]
    assert transfer(game, NOBODY, 0, 0, 3) == 3 and state.players[0].hand[0] == 3
    assert transfer(game, 0, 1, 0, 5) == 3  # only what red holds
    assert transfer(game, 1, 0, 0, -2) == 0  # never backwards
    assert transfer(game, 2, NOBODY, 0, 1) == 0  # nothing held
    after = [state.bank[g] + sum(p.hand[g] for p in state.players) for g in range(len(state.bank))]
    assert before == after and state.players[1].hand[0] == 3


def test_a_knight_is_bought_at_its_price_now_in_the_main_phase_as_in_a_card() -> None:
    """One purchase rule (``building.try_build``): a price modifier on knights (a card's
    `grant price {...} on knight once`) is offered and paid in the main phase too."""
    game = after_setup(beginner())
    while game.pending.kind != "main":
        answer(game, "roll") if game.pending.kind == "roll" else game.answer(
            game.pending.options[0]
        )
    player = game.state.current
    me = game.state.players[player]
    me.hand[:] = [0] * len(me.hand)
    hand(game, player, wool=1)
    game.state.modifiers.append(
        {"player": player, "kind": "cost", "target": "knight", "value": {"wool": 1}, "once": True}
    )
    game.refresh()
    knights = [o for o in game.pending.options if o[0] == "knight"]
    assert knights, game.pending.options
    game.answer(knights[0])
    assert held(game, player) == {} and not game.state.modifiers
    assert game.state.knight[knights[0][1]] == player
