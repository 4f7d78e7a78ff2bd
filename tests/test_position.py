"""A game's position drawn (``ckdsl board --save``), stepped through (``replay --step``)
and watched (``ckdsl watch``): every piece of the state is in the picture, the
highlighted places are the pending decision's, and the CLI's errors are usage errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.bots import RandomBot, bot_seed, make_bot
from ckdsl.cli import cli
from ckdsl.core.state import CITY, DAMAGED, EMPTY, NOBODY
from ckdsl.l10n.catalog import load_catalog
from ckdsl.reports.position import option_place, position_svg
from ckdsl.session import GameSetup, load_rules, start, write_save
from ckdsl.turn.game import Game
from ckdsl.turn.notation import parse_answer


def positions(seed: int, every: int, bots: str = "random") -> Iterator[Game]:
    """A game of ``bots`` with ``seed``, yielded every ``every`` answers and at its end."""
    game = start(GameSetup(seed=seed))
    players = [make_bot(bots, bot_seed(seed, p)) for p in range(game.n)]
    count = 0
    while not game.state.over:
        decision = game.pending
        game.answer(players[decision.player].choose(game.view(decision.player)))
        count += 1
        if count % every == 0:
            yield game
    yield game


def drawn(svg: str, attribute: str) -> list[str]:
    """The values of ``attribute`` on every element of the picture that has it."""
    root = ET.fromstring(svg)
    return [e.attrib[attribute] for e in root.iter() if attribute in e.attrib]


def state_pieces(game: Game) -> set[str]:
    """Every piece of the state, as the picture names them."""
    s = game.state
    out = {f"robber:{s.robber}", f"barbarians:{s.barbarians}"}
    if s.merchant != NOBODY:
        out.add(f"merchant:{s.merchant}")
    for i, kind in enumerate(s.building):
        if kind != EMPTY:
            out.add(f"{'city' if kind in (CITY, DAMAGED) else 'settlement'}:{i}")
            if s.wall[i]:
                out.add(f"city_wall:{i}")
        if s.knight[i] != NOBODY:
            out.add(f"knight:{i}")
    out |= {f"metropolis:{at}" for at in s.metropolis if at != NOBODY}
    out |= {f"road:{e}" for e, owner in enumerate(s.road) if owner != NOBODY}
    return out


@pytest.fixture(scope="module")
def catalog_en():  # type: ignore[no-untyped-def]
    return load_catalog("en", load_rules("base").ruleset)


# The kinds of piece each game shows at some point (heuristic bots build everything;
# random bots lose their cities to the barbarians).
KINDS = {"settlement", "road", "knight", "robber", "barbarians"}
HEURISTIC_KINDS = KINDS | {"city", "city_wall", "metropolis", "merchant"}


@pytest.mark.parametrize(
    ("seed", "bots", "kinds"),
    [(1, "random", KINDS), (4, "random", KINDS), (2, "heuristic", HEURISTIC_KINDS)],
)
def test_every_piece_of_the_state_is_drawn_once(  # type: ignore[no-untyped-def]
    seed: int, bots: str, kinds: set[str], catalog_en
) -> None:
    seen_kinds: set[str] = set()
    for game in positions(seed, 97, bots):
        pieces = drawn(position_svg(game, catalog_en), "data-piece")
        assert len(pieces) == len(set(pieces)), "a piece drawn twice"
        assert set(pieces) == state_pieces(game)
        assert drawn_owners(game, catalog_en)  # whose each piece is, checked there
        seen_kinds |= {p.split(":")[0] for p in pieces}
    assert kinds <= seen_kinds


def drawn_owners(game: Game, catalog) -> list[str]:  # type: ignore[no-untyped-def]
    """The owned pieces drawn, each checked to name its owner as the state does."""
    root = ET.fromstring(position_svg(game, catalog))
    out = []
    for e in root.iter():
        piece = e.attrib.get("data-piece")
        if piece is None or piece.split(":")[0] in ("robber", "merchant", "barbarians"):
            continue
        kind, at = piece.split(":")
        owner = int(e.attrib["data-owner"])
        s = game.state
        expected = (
            s.road[int(at)]
            if kind == "road"
            else s.knight[int(at)]
            if kind == "knight"
            else s.owner[int(at)]
        )
        assert owner == expected, piece
        out.append(piece)
    return out


def test_highlights_are_the_pending_options_and_each_answer_is_accepted(catalog_en) -> None:  # type: ignore[no-untyped-def]
    checked = 0
    for game in positions(3, 23):
        if game.state.over:
            continue
        svg = position_svg(game, catalog_en)
        root = ET.fromstring(svg)
        spots = [e for e in root.iter() if e.attrib.get("class") == "option"]
        wanted = {option_place(o) for o in game.pending.options} - {None}
        assert {tuple(e.attrib["data-place"].split(":")) for e in spots} == {
            (place, str(at))
            for place, at in wanted  # type: ignore[misc]
        }
        for e in spots:
            answers = json.loads(e.attrib["data-answers"])
            assert e.attrib["data-answer"] == answers[0]
            for text in answers:
                copy = game.clone(log=False)
                copy.answer(parse_answer(copy, text))  # raises if it were not legal
                checked += 1
        assert not drawn(position_svg(game, catalog_en, highlight=False), "data-answer")
    assert checked > 20


def test_the_picture_speaks_the_language_asked(catalog_en) -> None:  # type: ignore[no-untyped-def]
    game = next(positions(1, 40))
    polish = position_svg(game, load_catalog("pl", load_rules("base").ruleset))
    english = position_svg(game, catalog_en)
    assert "pole 0" in polish and "Las" in polish and "tile 0" not in polish
    assert "tile 0" in english and "Forest" in english


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    setup = GameSetup(seed=5)
    game = start(setup)
    bots = [RandomBot(bot_seed(5, p)) for p in range(game.n)]
    while not game.state.over:
        game.answer(bots[game.pending.player].choose(game.view(game.pending.player)))
    path = tmp_path_factory.mktemp("saves") / "g.json"
    write_save(path, game, setup)
    return path


def test_board_draws_a_saved_position(save: Path, tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    result = CliRunner().invoke(
        cli, ["board", "--save", str(save), "--at", "300", "--svg", str(out)]
    )
    assert result.exit_code == 0, result.output
    answers = json.loads(save.read_text())["answers"]
    game = start(GameSetup(seed=5))
    for text in answers[:300]:
        game.answer(parse_answer(game, text))
    assert set(drawn(out.read_text(), "data-piece")) == state_pieces(game)
    text = CliRunner().invoke(cli, ["board", "--save", str(save), "--at", "300"])
    assert text.exit_code == 0 and text.output.startswith("after 300 answers: turn ")
    data = json.loads(CliRunner().invoke(cli, ["board", "--save", str(save), "--json"]).output)
    assert data["answers"] == len(answers) and data["pending"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "5"], "--at needs --save or --scenario"),
        (["--save", "SAVE", "--at", "999999"], "past the end of g.json, which has"),
        (["--save", "SAVE", "--seed", "3"], "its own board: no --seed or --layout"),
        (["--save", "SAVE", "--at", "-1"], "-1"),
    ],
)
def test_board_usage_errors_exit_2(save: Path, args: list[str], message: str) -> None:
    args = [str(save) if a == "SAVE" else a for a in args]
    result = CliRunner().invoke(cli, ["board", *args])
    assert result.exit_code == 2 and message in result.output, result.output


def test_replay_step_shows_every_turn_then_the_scores(save: Path, tmp_path: Path) -> None:
    out = tmp_path / "step.svg"
    result = CliRunner().invoke(cli, ["replay", str(save), "--step", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    turns = json.loads(CliRunner().invoke(cli, ["replay", str(save), "--json"]).output)["turns"]
    headers = [line for line in result.output.splitlines() if line.startswith("── ")]
    assert headers[0].startswith("── setup") and headers[-1].startswith(f"── turn {turns}")
    assert len(headers) == turns + 1
    assert "Final scores" in result.output and out.read_text().startswith("<svg")
    bad = CliRunner().invoke(cli, ["replay", str(save), "--svg", str(out)])
    assert bad.exit_code == 2


def test_watch_plays_a_game_turn_by_turn() -> None:
    result = CliRunner().invoke(
        cli, ["watch", "--players", "random,random,random,random", "--seed", "2", "--delay", "0"]
    )
    assert result.exit_code == 0, result.output
    assert "── turn 1 " in result.output and "Final scores" in result.output
    assert result.output.count("Barbarians") > 10


def test_board_draws_a_scenarios_position_step_by_step(tmp_path: Path) -> None:
    from ckdsl.scenario import scenario_position

    scenario = Path(__file__).parent / "scenarios" / "ck" / "alchemist_before_roll.yaml"
    before, _, steps = scenario_position(scenario, 0)
    after, _, _ = scenario_position(scenario, steps)
    assert steps > 1 and len(after.history) > len(before.history)
    out = tmp_path / "s.svg"
    for at, game in ((0, before), (steps, after)):
        result = CliRunner().invoke(
            cli, ["board", "--scenario", str(scenario), "--at", str(at), "--svg", str(out)]
        )
        assert result.exit_code == 0, result.output
        assert set(drawn(out.read_text(), "data-piece")) == state_pieces(game)
    past = CliRunner().invoke(cli, ["board", "--scenario", str(scenario), "--at", "99"])
    assert past.exit_code == 2 and f"which has {steps} steps" in past.output
