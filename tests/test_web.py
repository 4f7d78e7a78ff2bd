"""The web table's server (``ckdsl serve``) without a browser: a seat sees what it may
see, answers go through the game's rules, and a forged or malformed request is refused
with an error and changes nothing (the game's digest stays the same)."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from ckdsl.bots import parse_spec
from ckdsl.session import GameSetup, save_data
from ckdsl.table.web.room import Room
from ckdsl.table.web.server import make_app


def table(players: str = "human,random,random,random", seed: int = 2) -> tuple[Room, TestClient]:
    specs = [None if p == "human" else parse_spec(p) for p in players.split(",")]
    room = Room(GameSetup(seed=seed, players=len(specs)), specs)
    return room, TestClient(make_app(room))


def token(room: Room, seat: int = 0) -> str:
    return next(t for t, s in room.tokens.items() if s == seat)


def test_the_page_and_a_seats_state() -> None:
    room, client = table()
    assert "ckdsl table" in client.get("/").text
    assert '<html lang="pl">' in client.get("/", params={"lang": "pl"}).text
    assert '<html lang="en">' in client.get("/", params={"lang": "<x>"}).text
    state = client.get("/api/state", params={"seat": token(room), "lang": "pl"}).json()
    assert state["pending"]["yours"] and state["pending"]["kind"] == "setup_settlement"
    assert state["players"][0]["name"] == "Czerwony" and state["board"].startswith("<svg")
    assert 'class="option"' in state["board"]
    assert state["rates"].startswith("kursy banku: 4:1 Cegła, Drewno")  # the engine's rates
    room.game.state.players[0].rates[room.game.rules.good_index["grain"]] = 2
    room.version += 1
    state = client.get("/api/state", params={"seat": token(room), "lang": "en"}).json()
    assert state["rates"].startswith("bank rates: 2:1 Grain · 4:1 Brick, Lumber, Wool, Ore")
    assert client.get("/api/state").json()["rates"] == ""  # a spectator has no rates
    french = client.get("/api/state", params={"seat": token(room), "lang": "fr"}).json()
    assert french["words"]["label"] == "{label} : {value}"  # the page writes "titres : …"
    assert french["titles"].startswith("Route la plus longue : ")
    unchanged = client.get(
        "/api/state", params={"seat": token(room), "since": state["version"]}
    ).json()
    assert unchanged == {"version": state["version"]}


def test_an_answer_moves_the_game_and_the_bots_answer_their_seats() -> None:
    room, client = table()
    reply = client.post("/api/answer", json={"seat": token(room), "answer": "build settlement 0"})
    assert reply.status_code == 200
    assert room.game.history[0] == ("settlement", 0)
    assert room.game.pending.player == 0  # the road, then the bots' turns, then red again


def test_a_refusal_says_why_in_the_pages_language() -> None:
    """The reason of a refused answer comes in the language the page sends (issue 16
    item 1, issue 17 item 4), and it is another seat's turn in that language too."""
    room, client = table("human,human,random,random")
    first = {"seat": token(room), "answer": "build settlement 0"}
    assert client.post("/api/answer", json=first).status_code == 200
    digest = room.game.state.digest()
    reply = client.post(
        "/api/answer", json={"seat": token(room), "answer": "build settlement 4", "lang": "fr"}
    )
    assert reply.status_code == 422
    assert reply.json()["error"] == "pas maintenant : d'abord la route de la mise en place " \
        "(c'est à Rouge de répondre)"  # fmt: skip
    other = {"seat": token(room, 1), "answer": "build settlement 20", "lang": "pl"}
    reply = client.post("/api/answer", json=other)
    assert reply.status_code == 409
    assert reply.json()["error"] == "to nie twoja kolej na odpowiedź: teraz decyduje Czerwony"
    reply = client.post("/api/answer", json={**other, "lang": "xx"})
    assert reply.status_code == 400
    assert room.game.state.digest() == digest


def test_a_seat_sees_no_other_hand() -> None:
    room, client = table("human,human,random,random", seed=5)
    game = room.game
    while game.state.turn < 4:  # both people answer their first option until turn 4
        seat = game.pending.player
        client.post("/api/answer", json={"seat": token(room, seat), "answer": _first(room)})
    state = client.get("/api/state", params={"seat": token(room, 0)}).json()
    mine = {h["good"]: h["count"] for h in state["hand"]}
    hand = room.game.state.players[0].hand
    assert sum(mine.values()) == sum(hand)
    assert "hand" not in state["players"][1] and state["players"][1]["cards"] == sum(
        room.game.state.players[1].hand
    )


def _first(room: Room) -> str:
    from ckdsl.turn.notation import format_option

    return format_option(room.game, room.game.pending.options[0])


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/api/answer", b"{not json", 400),
        ("/api/answer", b"[1, 2]", 400),
        ("/api/answer", json.dumps({"seat": "forged", "answer": "build settlement 0"}), 403),
        ("/api/answer", json.dumps({"answer": "build settlement 0"}), 403),
        ("/api/answer", json.dumps({"seat": "SEAT1", "answer": "build settlement 0"}), 409),
        ("/api/answer", json.dumps({"seat": "SEAT0", "answer": "build city 99"}), 422),
        ("/api/answer", json.dumps({"seat": "SEAT0", "answer": "mvoe knight 1 to 2"}), 422),
        ("/api/answer", json.dumps({"seat": "SEAT0", "answer": 7}), 400),
        ("/api/answer", json.dumps({"seat": "SEAT0", "answer": "x" * 5000}), 400),
        ("/api/load", json.dumps({"seat": "SEAT0", "save": "{}"}), 422),
        ("/api/load", json.dumps({"seat": "SEAT0", "save": {"rules": "/etc/passwd"}}), 400),
        ("/api/new", json.dumps({"seat": "forged"}), 403),
    ],
)
def test_forged_and_malformed_requests_are_refused_and_change_nothing(
    path: str, body: str | bytes, status: int
) -> None:
    room, client = table("human,human,random,random")
    if isinstance(body, str):
        body = body.replace("SEAT0", token(room, 0)).replace("SEAT1", token(room, 1))
    before, version = room.game.state.digest(), room.version
    reply = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == status and reply.json()["error"]
    assert room.game.state.digest() == before and room.version == version


def test_another_seats_state_is_not_given_without_its_token() -> None:
    room, client = table()
    reply = client.get("/api/state", params={"seat": "guess"})
    assert reply.status_code == 403
    assert client.get("/api/state", params={"seat": token(room), "lang": "xx"}).status_code == 400


def test_an_oversized_body_is_refused() -> None:
    _room, client = table()
    reply = client.post("/api/load", content=b" " * 4_000_001)
    assert reply.status_code == 413


def test_a_save_of_other_rules_is_refused_and_a_good_one_loads() -> None:
    room, client = table(seed=3)
    seat = token(room)
    for _ in range(5):
        client.post("/api/answer", json={"seat": seat, "answer": _first(room)})
    saved = client.get("/api/save", params={"host": room.host})  # a game in progress
    assert saved.status_code == 200 and "attachment" in saved.headers["content-disposition"]
    text, digest = saved.text, room.game.state.digest()
    data = json.loads(text)
    data["setup"]["rules"] = "/etc/passwd"  # a save naming a file the server was not given
    reply = client.post("/api/load", json={"seat": seat, "save": json.dumps(data)})
    assert reply.status_code == 422 and "not offered here" in reply.json()["error"]
    assert "root:" not in reply.text
    client.post("/api/new", json={"seat": seat})
    assert room.game.state.digest() != digest
    assert client.post("/api/load", json={"seat": seat, "save": text}).status_code == 200
    assert room.game.state.digest() == digest
    assert save_data(room.game, room.setup)["answers"] == data["answers"]


def _to_attack(attacks: int) -> tuple[Room, str]:
    """Seed 8's table, its first seat played by the heuristic bot's choices, until the
    game's ``attacks``-th barbarian attack has been fought."""
    from ckdsl.bots import bot_seed, make_bot
    from ckdsl.turn.notation import format_option

    room = Room(GameSetup(seed=8), [None, *(parse_spec("heuristic") for _ in range(3))])
    seat = token(room)
    red = make_bot("heuristic", bot_seed(8, 0))
    while sum(e["event"] == "attack" for e in room.game.events) < attacks:
        assert not room.game.state.over
        room.answer(seat, format_option(room.game, red.choose(room.game.view(0))))
    return room, seat


def test_the_last_attack_is_shown_as_it_was_fought() -> None:
    """After an attack the live facts say defence 0 (every knight deactivated); the
    page's ``attack`` says the strength and defence at the attack (the engine's event),
    lost or won, who lost a city and who is Defender, in the table's language, to the
    seats and to a spectator alike."""
    room, seat = _to_attack(0)
    assert room.state(seat, "en")["attack"] is None  # no attack yet: nothing to tell
    room, seat = _to_attack(1)
    event = next(e for e in room.game.events if e["event"] == "attack")
    state = room.state(seat, "en")
    attack = state["attack"]
    assert (attack["strength"], attack["defence"], attack["won"]) == (4, 3, False)
    assert (event["strength"], event["defence"]) == (4, 3)
    assert state["barbarians"]["defence"] == 0 and "defence 0" in state["barbarians"]["said"]
    pillaged = [e["player"] for e in room.game.events if e["event"] == "pillaged"]
    colours = room.game.rules.names("player_colours")
    assert attack["lost"] == [colours[p] for p in pillaged] and attack["lost"]
    assert attack["said"].startswith("attack of turn 13: strength 4 against defence 3, lost")
    assert "a city lost: White, Orange" in attack["said"]
    assert attack["lines"][0].startswith("The barbarians attack with strength 4")
    polish = room.state(seat, "pl")["attack"]["said"]
    assert polish.startswith("atak w turze 13: siła 4 przeciw obronie 3, przegrany")
    assert room.spectate("en")["attack"]["said"] == attack["said"]
    room, seat = _to_attack(2)
    attack = room.state(seat, "en")["attack"]
    defender = [e["player"] for e in room.game.events if e["event"] == "defender"]
    assert attack["won"] and attack["defenders"] == [colours[p] for p in defender[-1:]]
    assert f"{attack['strength']} against defence {attack['defence']}, repelled" in attack["said"]
    assert "Defender of Catan: White" in attack["said"] and not attack["lost"]


def test_the_heading_says_set_up_before_the_first_roll_then_the_turn() -> None:
    """Set-up is turn 0 in the engine, which no player calls a turn: the heading and the
    terminal's status say "set-up" (in the table's language), and "turn N" after."""
    from ckdsl.l10n.catalog import load_catalog
    from ckdsl.table.status import status_lines

    room, _ = table()
    me = token(room)
    assert room.state(me, "en")["heading"].startswith("set-up · ")
    assert room.state(me, "pl")["heading"].startswith("przygotowanie · ")
    assert status_lines(room.game, load_catalog("pl"), 0)[0].startswith("przygotowanie · ")
    while room.game.state.turn == 0:
        room.answer(me, room.state(me, "en")["pending"]["options"][0]["answer"])
    assert room.state(me, "en")["heading"].startswith(f"turn {room.game.state.turn} · ")
