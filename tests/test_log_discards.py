"""Discards in the readable log (issue 17, item 7): one line per player per 7, with the
cards counted in each language's plural forms, while the events stay one per card (the
answers a save and a replay hold, what a scenario's `log:` names)."""

from __future__ import annotations

import re

import pytest
from test_engine import BLUE, WHITE, empty_board, hand
from test_terminal import Script

from ckdsl.bots import make_bot
from ckdsl.l10n.catalog import load_catalog
from ckdsl.l10n.events import EventRenderer, runs
from ckdsl.reports.game import game_lines
from ckdsl.session import GameSetup, load_rules, play, start
from ckdsl.table.terminal import play_at_table

GOODS = ("brick", "lumber", "wool", "grain", "ore", "paper", "cloth", "coin")


def renderer(lang: str = "en") -> EventRenderer:
    catalog = load_catalog(lang, load_rules("base").ruleset)
    return EventRenderer(catalog, ["red", "blue", "white"], lambda piece, at: str(at), GOODS)


def discards(player: int, *goods: str) -> list[dict[str, object]]:
    return [{"event": "discard", "player": player, "good": g} for g in goods]


def test_a_run_of_discards_is_one_line_per_player() -> None:
    events = [
        {"event": "roll", "player": 0, "white": 3, "red": 4, "face": "ship", "total": 7},
        *discards(1, "ore", "brick", "wool", "brick"),
        *discards(2, "coin", "coin"),
        {"event": "robber", "player": 0, "tile": 5},
        *discards(2, "grain"),  # another run, after other events
    ]
    assert renderer().lines(events)[1:] == [
        "Blue discards 4 cards: 2 brick, 1 wool, 1 ore",  # the goods in the rules' order
        "White discards 2 cards: 2 coins",
        "Red moves the robber to tile 5",
        "White discards 1 card: 1 grain",
    ]
    assert [len(group) for group in runs(events)] == [1, 4, 2, 1, 1]
    masked = [{"event": "discard", "player": 1, "good": "?"}, *discards(1, "ore")]
    assert renderer().lines(masked) == ["Blue discards 2 cards: 1 ore, 1 ?"]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("pl", ["Niebieski odrzuca 1 kartę: 1 karta kamienia",
                "Niebieski odrzuca 2 karty: 2 karty kamienia",
                "Niebieski odrzuca 5 kart: 5 kart kamienia",
                "Niebieski odrzuca 22 karty: 22 karty kamienia"]),
        ("sr", ["Плави одбацује 1 карту: 1 карта руде",
                "Плави одбацује 2 карте: 2 карте руде",
                "Плави одбацује 5 карата: 5 карата руде",
                "Плави одбацује 22 карте: 22 карте руде"]),
        ("sr-Latn", ["Plavi odbacuje 1 kartu: 1 karta rude",
                     "Plavi odbacuje 2 karte: 2 karte rude",
                     "Plavi odbacuje 5 karata: 5 karata rude",
                     "Plavi odbacuje 22 karte: 22 karte rude"]),
        ("fr", ["Bleu défausse 1 carte : 1 minerai",
                "Bleu défausse 2 cartes : 2 minerais",
                "Bleu défausse 5 cartes : 5 minerais",
                "Bleu défausse 22 cartes : 22 minerais"]),
    ],
)  # fmt: skip
def test_the_count_takes_the_languages_plural_forms(lang: str, expected: list[str]) -> None:
    lines = [renderer(lang).lines(discards(1, *["ore"] * n))[0] for n in (1, 2, 5, 22)]
    assert lines == expected


def test_a_game_logs_each_players_discards_in_one_line() -> None:
    game = start(GameSetup(seed=3))
    play(game, [make_bot("random", s) for s in range(4)])
    cards = [e for e in game.events if e["event"] == "discard"]
    told = game_lines(game, load_catalog("en"))
    lines = [line for line in told if " discards " in line and "progress card" not in line]
    counted = [re.fullmatch(r"(\w+) discards (\d+) cards?: .+", line) for line in lines]
    assert cards and all(counted)  # the seed has discards, each line in the new form
    assert sum(int(m.group(2)) for m in counted if m) == len(cards)  # every card, once
    assert len(lines) == sum(1 for g in runs(game.events) if g[0]["event"] == "discard")
    assert len(lines) < len(cards)


def test_at_the_terminal_a_persons_discards_show_once_they_are_done() -> None:
    game = empty_board()
    hand(game, BLUE, brick=5, ore=4)  # 9 cards: 4 to discard, one answer each
    hand(game, WHITE, wool=7)
    game.state.fixed_rolls.append((3, 4, "ship"))
    script = Script(["discard brick", "discard ore", "discard brick", "discard brick"])
    seats = [make_bot("heuristic", 1), None, make_bot("heuristic", 2), make_bot("heuristic", 3)]
    play_at_table(
        GameSetup(layout="beginner", seed=1), seats, load_catalog("en"), delay=0,
        save_path=None, make_console=lambda: script, game=game,
    )  # fmt: skip
    told = [line for line in script.said if "discards" in line]
    assert told == ["Blue discards 4 cards: 3 brick, 1 ore"]
    assert sum(1 for e in game.events if e["event"] == "discard") == 4  # the events: per card


def test_the_fields_shown_as_they_are_have_no_case_of_their_own() -> None:
    """The renderer shows a field of these types without asking ``_fill`` (a log prints
    thousands): ``_fill`` must have nothing else to say about any value of them."""
    from ckdsl.l10n.events import _AS_IS

    renderer = EventRenderer(load_catalog("en"), ["red", "blue"], lambda piece, at: f"@{at}")
    for kind in _AS_IS:
        for value in (0, 1, -1, "road", "bishop", ["bishop"], {"ore": 1}, True, None):
            assert renderer._fill(kind, "field", value, {"piece": "road"}) == {"field": value}
