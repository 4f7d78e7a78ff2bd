"""The board drawn in characters at the terminal (``map``, and before each set-up
decision): every id a person types is on it, the legal spots and only they are in
brackets, pieces show whose they are, and it fits 100 columns."""

from __future__ import annotations

import re

import pytest

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


def test_harbors_are_drawn_at_sea_and_listed_at_the_rule_sets_rates(tmp_path) -> None:  # type: ignore[no-untyped-def]
    variant = tmp_path / "dear_harbors.yaml"
    variant.write_text(
        "extends: base\ndescription: Dear harbors.\noverride:\n  parameters:\n"
        "    generic_harbor_rate: 4\n    special_harbor_rate: 3\n",
        encoding="utf-8",
    )
    for rules, generic, special in (("base", "3:1", "2:1"), (str(variant), "4:1", "3:1")):
        game = start(GameSetup(rules, seed=11))
        pl = load_catalog("pl", load_rules(rules).ruleset)
        lines = text_board(game, pl)
        listed = next(i for i, line in enumerate(lines) if line.startswith("Porty: "))
        board, notes = "\n".join(lines[:listed]), " ".join(lines[listed:-2])
        kinds = game.layout.harbors
        assert board.count(generic) == kinds.count("generic")  # out at sea, by its rate
        for edge, kind in zip(game.topo.harbor_edges, kinds, strict=True):
            said = generic if kind == "generic" else f"{special}\u00a0{pl.good_name(kind)}"
            assert f"{game.topo.edge_name(edge)}\u00a0{said}" in notes
            if kind != "generic":
                assert pl.good_name(kind) in board
        assert all(len(line) <= 100 for line in lines)


def test_pieces_are_in_their_owners_colour_and_read_without_it() -> None:
    from ckdsl.table.textboard import LEGAL, player_style, styled_board

    game = start(GameSetup(seed=1))
    game.answer(("settlement", 0))  # red
    game.answer(game.pending.options[0])  # its road
    game.answer(game.pending.options[0])  # blue's settlement
    styled = styled_board(game, catalog())
    assert ["".join(t for _, t in line) for line in styled] == text_board(game, catalog())
    runs = [run for line in styled for run in line]
    assert ("fg:#d32f2f bold", "R^0") in runs  # red's settlement, its mark and its colour
    blue = next(text for style, text in runs if style == player_style("blue"))
    assert blue.startswith("B^")
    assert player_style("white") == "reverse bold"  # seen on a light background too
    legal = {t for style, t in runs if style == LEGAL}
    assert legal and all(t == "*" or t.startswith("[") for t in legal)


@pytest.mark.slow
def test_map_at_a_terminal_is_in_colour_unless_no_color() -> None:
    import os
    import sys

    import pexpect

    for no_color, coloured in (("", True), ("1", False)):
        env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color", NO_COLOR=no_color)
        if not no_color:
            env.pop("NO_COLOR")
        child = pexpect.spawn(
            sys.executable,
            ["-m", "ckdsl", "play", "--players", "human,random,random,random", "--seed", "3"],
            env=env, encoding="utf-8", timeout=60, dimensions=(60, 120),
        )  # fmt: skip
        child.expect(r"\[Red\] >")  # set-up: the board is drawn before the question
        shown = child.before
        child.sendline("quit")
        child.expect(r"\[y/N\]")  # save first? no
        child.sendline("n")
        child.expect(pexpect.EOF)
        board = shown.split("Harbors:")[0]
        assert "Harbors:" in shown and "t18" in board
        colours = re.findall(r"\x1b\[0;3[0-9;]*m", board)  # a foreground colour set
        assert bool(colours) == coloured, colours[:3]
