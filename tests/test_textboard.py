"""The board drawn in characters at the terminal (``map``, and before each set-up
decision): every id a person types is on it, the legal spots and only they are in
brackets, pieces show whose they are, and it fits 100 columns."""

from __future__ import annotations

import re

from ckdsl.bots import bot_seed, make_bot
from ckdsl.l10n.catalog import load_catalog
from ckdsl.session import GameSetup, load_rules, start
from ckdsl.table.terminal import play_at_table
from ckdsl.table.textboard import text_board
from tests.test_terminal import Script


def catalog(lang: str = "en"):  # type: ignore[no-untyped-def]
    return load_catalog(lang, load_rules("base").ruleset)


def labels(lines: list[str]) -> list[str]:
    return re.findall(r"\[?[A-Za-z]?[\^#!]?\d*:?\d+\]?|\[t\d+\]|t\d+", "\n".join(lines))


def test_every_intersection_is_on_the_board_and_the_legal_ones_in_brackets() -> None:
    game = start(GameSetup(seed=1))
    game.answer(("settlement", 0))
    game.answer(game.pending.options[0])  # a road from 0
    lines = text_board(game, catalog())
    assert all(len(line) <= 100 for line in lines)
    board = "\n".join(lines[:-2])
    found = {int(n) for n in re.findall(r"(?<![t\d])(\d+)\]?(?=\s|$)", board)}
    assert found >= set(range(len(game.topo.inter_points)))
    legal = {int(n) for n in re.findall(r"\[(\d+)\]", board)}
    assert legal == {o[1] for o in game.pending.options}  # blue's settlements
    assert "R^0" in board and "[R^0]" not in board  # red's own, not a choice
    assert all(f"t{t}" in board for t in range(len(game.topo.hexes)))


def test_legal_roads_are_starred_and_the_robbers_tile_marked() -> None:
    game = start(GameSetup(seed=1))
    game.answer(("settlement", 0))
    lines = text_board(game, catalog())
    assert "\n".join(lines).count("*") >= len(game.pending.options)  # one * per road
    assert "(R)" in "\n".join(lines)


def test_the_larger_map_fits_100_columns() -> None:
    game = start(GameSetup("examples/variants/five_six.yaml", "five_six", players=6, seed=2))
    lines = text_board(game, catalog())
    assert max(len(line) for line in lines) <= 100
    board = "\n".join(lines)
    assert all(re.search(rf"\[{i}\]", board) for i in range(len(game.topo.inter_points)))


def test_the_terminal_draws_the_board_before_set_up_and_on_map_in_its_language() -> None:
    setup = GameSetup(seed=3)
    seats = [None, *(make_bot("heuristic", bot_seed(3, p)) for p in (1, 2, 3))]
    script = Script(["1", "map"])
    play_at_table(setup, seats, catalog("pl"), delay=0, save_path=None, make_console=lambda: script)
    boards = [s for s in script.said if "[12] dozwolone miejsce" in s]
    assert len(boards) == 3  # set-up settlement, set-up road, and `map`
    assert "[0]" in boards[0] and "C^0" in boards[1] and "C^ osada" in boards[0]
