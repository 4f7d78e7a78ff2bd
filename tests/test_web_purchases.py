"""What the web table's build bar and card faces are made of (``table.web.purchases``):
prices from the rule set a table plays (a variant's own), names in the table's language,
the answers of each build only when it is the seat's move, and no other seat's cards."""

from __future__ import annotations

from pathlib import Path

from ckdsl.bots import bot_seed, make_bot, parse_spec
from ckdsl.l10n.catalog import load_catalog
from ckdsl.session import GameSetup, load_rules
from ckdsl.table.web.room import Room
from ckdsl.turn.notation import format_option

ROOT = Path(__file__).resolve().parent.parent
FIFTEEN = str(ROOT / "examples" / "variants" / "fifteen_points.yaml")


def bots_room(rules: str = "base", seed: int = 8) -> tuple[Room, str]:
    room = Room(
        GameSetup(rules=rules, seed=seed), [None, *(parse_spec("random") for _ in range(3))]
    )
    return room, next(iter(room.tokens))


def prices(state: dict[str, object]) -> dict[str, list[tuple[str, str, int]]]:
    return {
        (p["id"] if p["kind"] in ("improve", "action") else p["kind"]): [
            (c["good"], c["name"], c["count"]) for c in p["cost"]
        ]
        for p in state["purchases"]  # type: ignore[attr-defined]
    }


def test_prices_are_the_variants_in_the_tables_language() -> None:
    base, token = bots_room()
    variant, vtoken = bots_room(FIFTEEN)
    pl = load_catalog("pl")
    base_prices = prices(base.state(token, "pl"))
    shown = prices(variant.state(vtoken, "pl"))
    # fifteen_points: a city costs 2 grain and 2 ore (the base: 2 grain, 3 ore)
    assert shown["city"] == [("grain", pl.good_name("grain"), 2), ("ore", pl.good_name("ore"), 2)]
    assert base_prices["city"] == [
        ("grain", pl.good_name("grain"), 2),
        ("ore", pl.good_name("ore"), 3),
    ]
    rules = base.game.rules
    for piece in ("road", "settlement", "city_wall", "knight"):
        expected = [
            (rules.goods[g], pl.good_name(rules.goods[g]), n) for g, n in rules.costs[piece]
        ]
        assert base_prices[piece] == expected
    assert base_prices["activate"] == [("grain", pl.good_name("grain"), 1)]
    for track in rules.tracks:  # the first level: 1 of the track's commodity
        assert base_prices[track.id] == [
            (
                rules.goods[track.commodity],
                pl.good_name(rules.goods[track.commodity]),
                track.costs[0],
            )
        ]
    names = {p["kind"]: p["name"] for p in base.state(token, "pl")["purchases"]}
    assert names["road"] == pl.name("pieces", "road") and names["promote"] == pl.message(
        "table_buy_promote"
    )


def test_each_build_holds_its_answers_only_on_the_seats_move() -> None:
    specs = [None, None, parse_spec("random"), parse_spec("random")]  # two people
    room = Room(GameSetup(seed=8), specs)
    token = {seat: t for t, seat in room.tokens.items()}
    people = [make_bot("heuristic", bot_seed(8, p)) for p in (0, 1)]
    seen_main = False
    while not (room.game.state.over or seen_main):
        game = room.game
        legal = {format_option(game, o) for o in game.pending.options}
        for seat in (0, 1):
            state = room.state(token[seat], "en")
            for p in state["purchases"]:
                for a in p["answers"]:
                    assert game.pending.player == seat and a["answer"] in legal
                    words = a["answer"].split()
                    assert p["kind"] == (words[1] if words[0] == "build" else words[0])
            if game.pending.kind == "main" and game.pending.player == seat:
                roads = [a for p in state["purchases"] if p["kind"] == "road" for a in p["answers"]]
                assert {a["answer"] for a in roads} == {
                    x for x in legal if x.startswith("build road")
                }
                seen_main = bool(roads)
        seat = game.pending.player
        room.answer(token[seat], format_option(game, people[seat].choose(game.view(seat))))
    assert seen_main


def test_card_faces_show_the_seats_own_cards_with_their_text() -> None:
    room, token = bots_room()
    room.game.state.players[0].progress[:] = ["inventor"]
    room.game.state.players[1].progress[:] = ["spy"]  # another seat's: never shown
    room.version += 1
    effect = load_rules("base").ruleset.data["cards"]["inventor"]["effect"]
    for lang in ("en", "sr"):
        catalog = load_catalog(lang)
        faces = room.state(token, lang)["progress"]
        assert [f["card"] for f in faces] == ["inventor"]
        face = faces[0]
        assert face["name"] == catalog.card_name("inventor")
        assert face["text"] == catalog.card_text("inventor") and face["text"]
        assert effect.splitlines()[0] not in face["text"]  # the card's words, not its DSL
        assert face["track"] == catalog.name("tracks", "science")
        assert face["colour"].startswith("#") and face["play"] is None  # set-up: not playable
    watching = room.spectate("en")
    assert watching["progress"] == [] and all(not p["answers"] for p in watching["purchases"])


def test_a_variants_own_action_is_bought_at_its_price_by_its_name() -> None:
    room, token = bots_room(str(ROOT / "examples" / "variants" / "mercenaries.yaml"))
    fr = load_catalog("fr", load_rules(room.setup.rules).ruleset)
    found = [p for p in room.state(token, "fr")["purchases"] if p["kind"] == "action"]
    assert [(p["id"], p["name"]) for p in found] == [("mercenary", fr.name("actions", "mercenary"))]
    assert found[0]["name"] == "Recrutement d'un mercenaire"  # the variant's French name
    assert found[0]["cost"] == [{"good": "coin", "name": fr.good_name("coin"), "count": 2}]


def test_a_discount_of_the_seats_own_shows_in_its_price_only() -> None:
    room, token = bots_room()
    state = room.game.state
    state.players[0].levels[0] = 1  # trade: the next level costs 2 cloth
    state.modifiers.append({"player": 0, "kind": "discount", "target": "improvement", "value": 1})
    room.version += 1
    trade = room.game.rules.tracks[0].id
    assert [c["count"] for c in prices_of(room.state(token, "en"), trade)] == [1]  # a Crane's
    assert [c["count"] for c in prices_of(room.spectate("en"), trade)] == [1]  # no discount


def prices_of(state: dict[str, object], track: str) -> list[dict[str, object]]:
    return next(p["cost"] for p in state["purchases"] if p.get("id") == track)  # type: ignore[attr-defined]
