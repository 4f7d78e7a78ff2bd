"""The plain address of the web table (no seat token): a spectator sees the public game
only (no hand, no progress card of anyone, the log's secrets masked as at a hot-seat
table) and can change nothing; a wrong token is still refused."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from ckdsl.bots import bot_seed, make_bot, parse_spec
from ckdsl.l10n.catalog import load_catalog
from ckdsl.session import GameSetup, load_rules
from ckdsl.table.web import room as room_module
from ckdsl.table.web.room import Room
from ckdsl.table.web.server import make_app


def table(seed: int = 2, turns: int = 0) -> tuple[Room, TestClient]:
    """Two people and two bots; with ``turns``, random bots first play the people's seats
    too, until that turn (so the log holds draws and steals)."""
    room = Room(GameSetup(seed=seed), [None, None, parse_spec("random"), parse_spec("random")])
    game = room.game
    bots = [make_bot("random", bot_seed(seed, p)) for p in range(4)]
    while game.state.turn < turns and not game.state.over:
        game.answer(bots[game.pending.player].choose(game.view(game.pending.player)))
    return room, TestClient(make_app(room))


def test_a_card_planted_in_every_hand_is_never_in_the_spectators_state() -> None:
    room, client = table(turns=12)
    game, rules = room.game, room.game.rules
    for player in game.state.players:
        player.progress[:] = ["spy", "bishop"]
        player.hand[:] = [0] * len(player.hand)
        player.hand[rules.goods.index("coin")] = 3
    game.refresh()
    room.version += 1
    for lang in ("en", "pl"):
        catalog = load_catalog(lang, load_rules("base").ruleset)
        reply = client.get("/api/state", params={"lang": lang})
        assert reply.status_code == 200
        data = reply.json()
        shown = json.dumps(data, ensure_ascii=False)
        assert data["spectator"] and data["hand"] == [] and data["progress"] == []
        for card in ("spy", "bishop"):
            assert catalog.card_name(card) not in shown and catalog.card_text(card) not in shown
            assert f'"{card}"' not in shown
        assert all(p["progress"] == 2 and p["cards"] == 3 for p in data["players"])
        assert not data["pending"]["yours"] and data["pending"]["options"] == []
        assert data["pending"]["details"] == "" and 'class="option"' not in data["board"]
    # a seat of the same table does see its own planted card: the plant was there to find
    seat = next(t for t, s in room.tokens.items() if s == 0)
    mine = client.get("/api/state", params={"seat": seat}).json()
    assert [c["card"] for c in mine["progress"]] == ["spy", "bishop"]


def test_the_spectators_log_masks_every_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawn cards and stolen goods never reach the spectator's log (the whole log here)."""
    monkeypatch.setattr(room_module, "LOG_LINES", 100_000)
    room, client = table(seed=5, turns=40)
    events = room.game.events
    steals = [e for e in events if e["event"] == "steal"]
    draws = [e for e in events if e["event"] == "draw"]
    assert steals and draws, "the game should have drawn and stolen something by turn 40"
    watched = client.get("/api/state").json()["log"]
    catalog = load_catalog("en", load_rules("base").ruleset)
    stolen = {catalog.good_name(e["good"]).casefold() for e in steals}
    for line in (line.casefold() for line in watched if "steals" in line):
        assert not any(good in line for good in stolen), line
    hidden = {catalog.card_name(e["card"]) for e in draws}
    drawn = [line for line in watched if " draws " in line]
    assert drawn and all("shows it" in line or not any(c in line for c in hidden) for line in drawn)


def test_the_spectator_can_change_nothing_and_a_wrong_token_is_refused() -> None:
    room, client = table()
    before, version = room.game.state.digest(), room.version
    assert client.post("/api/answer", json={"answer": "build settlement 0"}).status_code == 403
    assert (
        client.post("/api/answer", json={"seat": "", "answer": "build settlement 0"}).status_code
        == 403
    )
    assert client.post("/api/new", json={}).status_code == 403
    assert client.get("/api/save").status_code == 403
    assert client.post("/api/load", json={"save": "{}"}).status_code in (400, 403, 422)
    assert room.game.state.digest() == before and room.version == version
    assert client.get("/api/state", params={"seat": "guess"}).status_code == 403
    assert client.get("/api/state", params={"since": version}).json() == {"version": version}
    polish = client.get("/api/state", params={"lang": "pl"}).json()
    assert polish["heading"].startswith("widz (tylko informacje jawne)")
    assert polish["colour"] is None
