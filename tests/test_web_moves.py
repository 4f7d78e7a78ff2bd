"""How the web table lays out a seat's answers (``table.web.moves``): every answer in a
group of the "all moves" drawer, the trades with the bank and a pending offer as goods at
the engine's own rates, and a picture for a good the page has none of."""

from __future__ import annotations

import re

from ckdsl.bots import bot_seed, make_bot, parse_spec
from ckdsl.l10n.catalog import load_catalog
from ckdsl.session import GameSetup
from ckdsl.table.web.moves import GROUP_NAMES, good_badge, group_of
from ckdsl.table.web.room import Room
from ckdsl.turn.notation import format_option


def red_until(kind: str, seed: int = 8, limit: int = 3000) -> tuple[Room, str]:
    """A table whose first seat (a heuristic bot's choices) owes a ``kind`` decision."""
    room = Room(GameSetup(seed=seed), [None, *(parse_spec("heuristic") for _ in range(3))])
    token = next(iter(room.tokens))
    red = make_bot("heuristic", bot_seed(seed, 0))
    for _ in range(limit):
        game = room.game
        assert not game.state.over
        if game.pending.kind == kind and game.pending.player == 0:
            return room, token
        room.answer(token, format_option(game, red.choose(game.view(0))))
    raise AssertionError(f"no {kind} decision for red in {limit} answers")


def test_every_answer_of_a_turn_is_in_its_group() -> None:
    room, token = red_until("main")
    options = room.state(token, "en")["pending"]["options"]
    assert [o["answer"] for o in options] == [
        format_option(room.game, o) for o in room.game.pending.options
    ]
    groups = {o["answer"]: o["group"] for o in options}
    assert set(groups.values()) <= set(GROUP_NAMES)
    assert groups["end turn"] == "end"
    for answer, group in groups.items():
        expected = {"build road": "build", "build knight": "knights", "trade ": "trade"}
        for start, wanted in expected.items():
            if answer.startswith(start):
                assert group == wanted, answer
    assert group_of(("play", "smith")) == "cards"
    assert group_of(("choose", "tile", 3)) == "other"


def test_bank_trades_are_the_seats_at_its_rates() -> None:
    room, token = red_until("main")
    shown = room.state(token, "en")["pending"]["bank"]
    game = room.game
    bank = [o for o in game.pending.options if o[0] == "bank"]
    assert len(shown) == len(bank)
    rates = game.state.players[0].rates
    for trade, option in zip(shown, bank, strict=True):
        assert trade["answer"] == format_option(game, option)
        assert (trade["give"], trade["get"]) == (option[1], option[2])
        assert trade["count"] == rates[game.rules.good_index[option[1]]]
        assert game.state.players[0].hand[game.rules.good_index[option[1]]] >= trade["count"]
    # none for a seat whose move it is not (a seat of blue's, made for the test)
    room.tokens["blue"] = 1
    assert room.state("blue", "en")["pending"]["bank"] == []


def test_an_offer_to_answer_is_shown_as_its_goods() -> None:
    room, token = red_until("respond")
    offer = room.state(token, "pl")["pending"]["offer"]
    task = next(t for t in room.game.state.queue if t[0] == "respond")
    pl = load_catalog("pl")
    colour = room.game.rules.names("player_colours")[task[2]["from"]]
    assert offer["from"] == pl.name("colours", colour)
    for side in ("give", "get"):
        assert [(g["good"], g["count"]) for g in offer[side]] == [
            (g, n) for g, n in task[2][side].items() if n
        ]
        assert all(g["name"] == pl.good_name(g["good"]) for g in offer[side])
    assert "{give}" in offer["said"] and "{get}" in offer["said"]
    assert offer["from"] in offer["said"]
    # a seat not asked has no offer to answer
    room.tokens["blue"] = 1
    assert room.state("blue", "pl")["pending"]["offer"] is None


def test_a_good_without_a_picture_gets_a_badge_of_its_own() -> None:
    silk = good_badge("silk", "Jedwab")
    assert silk == good_badge("silk", "Jedwab")  # the same at every table
    assert silk["initial"] == "J" and good_badge("silk", "Silk")["initial"] == "S"
    assert good_badge("silk", "Silk")["colour"] == silk["colour"]  # by id, not by name
    assert re.fullmatch(r"#[0-9a-f]{6}", silk["colour"])
    colours = {good_badge(g, g)["colour"] for g in ("silk", "salt", "spice", "gems", "wine")}
    assert len(colours) == 5
    assert good_badge("salt", "«sól»")["initial"] == "S"  # the first letter, not a quote
