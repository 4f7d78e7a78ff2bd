"""The 5-6 player extension: its map (rules/maps/five_six.yaml), its variant
(examples/variants/five_six.yaml), and six bots playing it to the end."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ckdsl.board import MapSpec, Topology, load_map, map_path, random_layout, topology_for
from ckdsl.cli import cli
from ckdsl.core.invariants import broken_invariants
from ckdsl.diagnostics import CkdslError
from ckdsl.dsl.program import load_ruleset
from ckdsl.session import GameSetup, open_replay, replay_answer, start

REPO = Path(__file__).resolve().parent.parent
VARIANT = REPO / "examples" / "variants" / "five_six.yaml"

Board = tuple[MapSpec, Topology]


@pytest.fixture(scope="module")
def board() -> Board:
    spec, problems = load_map(map_path("five_six"))
    assert problems == [] and spec is not None
    return spec, topology_for(spec)


# --- the map ----------------------------------------------------------------------------------


def test_the_map_has_the_extension_hexes_and_tokens(board: Board) -> None:
    spec, topo = board
    assert len(spec.hexes) == len(topo.hexes) == 30
    # Rows of 3, 4, 5, 6, 5, 4, 3 from the top.
    rows = Counter(r for _, r in spec.hexes)
    assert [rows[r] for r in sorted(rows)] == [3, 4, 5, 6, 5, 4, 3]
    # The base game's 19 hexes plus 1 desert and 2 of each other terrain.
    assert spec.terrains == {
        "forest": 6,
        "pasture": 6,
        "fields": 6,
        "hills": 5,
        "mountains": 5,
        "desert": 2,
    }
    # 28 tokens: 2 and 12 twice, every other number three times.
    assert len(spec.numbers) == 28
    assert Counter(spec.numbers) == {2: 2, 12: 2, **{n: 3 for n in (3, 4, 5, 6, 8, 9, 10, 11)}}


def test_the_map_has_eleven_harbors_round_the_coast(
    board: Board, harbor_gaps: Callable[..., list[int]]
) -> None:
    spec, topo = board
    assert len(topo.coast_edges) == 38
    assert len(topo.harbor_edges) == 11 and len(set(topo.harbor_edges)) == 11
    assert set(topo.harbor_edges) <= set(topo.coast_edges)
    # The base game's 9 kinds plus one generic 3:1 and one wool 2:1.
    assert spec.harbor_kinds == {
        "generic": 5,
        "brick": 1,
        "lumber": 1,
        "wool": 2,
        "grain": 1,
        "ore": 1,
    }
    # Harbors and open sea alternate round the coast, 3 or 4 coast edges apart.
    assert len(topo.coast_edges) == 38
    gaps = harbor_gaps(topo)
    assert set(gaps) == {3, 4} and sum(gaps) == 38


def test_a_random_layout_deals_the_pools(board: Board) -> None:
    spec, topo = board
    layout = random_layout(spec, topo, 1)
    assert Counter(layout.terrain) == Counter(spec.terrains)
    assert Counter(n for n in layout.number if n) == Counter(spec.numbers)
    assert Counter(layout.harbors) == Counter(spec.harbor_kinds)
    assert layout == random_layout(spec, topo, 1)


def test_the_board_command_draws_the_map(tmp_path: Path) -> None:
    svg = tmp_path / "b.svg"
    result = CliRunner().invoke(
        cli, ["board", "--map", "five_six", "--seed", "1", "--svg", str(svg)]
    )
    assert result.exit_code == 0, result.output
    text = svg.read_text(encoding="utf-8")
    assert "tile 29" in text and "tile 30" not in text


# --- the variant ------------------------------------------------------------------------------


def test_the_variant_validates() -> None:
    result = CliRunner().invoke(
        cli, ["validate", str(VARIANT), str(REPO / "rules" / "maps" / "five_six.yaml")]
    )
    assert result.exit_code == 0, result.output
    ruleset, problems = load_ruleset(VARIANT)
    assert ruleset is not None and problems == []
    params = ruleset.parameters
    assert (params["players_min"], params["players_max"]) == (5, 6)
    assert params["player_colours"][4:] == ["green", "brown"]
    assert {g: ruleset.data["resources"][g]["bank"] for g in ruleset.data["resources"]} == {
        g: 24 for g in ("brick", "lumber", "wool", "grain", "ore")
    }
    assert {g: s["bank"] for g, s in ruleset.data["commodities"].items()} == {
        "paper": 18,
        "cloth": 18,
        "coin": 18,
    }
    assert ruleset.data["titles"]["defender"]["supply"] == 9
    assert ruleset.names["en"]["names"]["colours"]["brown"] == "Brown"


def test_every_language_names_the_new_colour() -> None:
    result = CliRunner().invoke(cli, ["l10n", "check", "--rules", str(VARIANT)])
    assert result.exit_code == 0, result.output


def test_the_variant_is_for_five_or_six_players() -> None:
    with pytest.raises(CkdslError, match="5 to 6 players"):
        start(GameSetup(rules=str(VARIANT), map="five_six", players=4, seed=1))


# --- playing ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def six_bots_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    """One game of six heuristic bots, played by the play command and saved: the two tests
    below read it (a game of six bots costs seconds; each test only reads it)."""
    save = tmp_path_factory.mktemp("five_six") / "game.json"
    args = [
        "play",
        "--rules",
        str(VARIANT),
        "--map",
        "five_six",
        "--players",
        ",".join(["heuristic"] * 6),
        "--seed",
        "1",
        "--save",
        str(save),
    ]
    return CliRunner().invoke(cli, args), save


@pytest.mark.slow
@pytest.mark.xdist_group("five_six_game")  # one worker plays the game for both
def test_six_heuristic_bots_play_a_whole_game(six_bots_game: tuple[Result, Path]) -> None:
    _, save = six_bots_game
    game, _, answers = open_replay(save)
    assert game.n == 6 and len(game.topo.hexes) == 30
    broken: list[list[str]] = []
    for number, text in enumerate(answers, start=1):
        replay_answer(game, save, number, text)
        found = broken_invariants(game)
        if found and len(broken) < 3:
            broken.append(found)
    assert broken == []
    assert game.pending.kind == "over"
    assert game.state.winner >= 0
    assert game.state.players[game.state.winner].points >= game.rules.param("points_to_win")
    assert all(game.state.players[p].points == game.recount_points(p) for p in range(6))
    # Every seat set up: a settlement and a city each.
    assert all(game.state.players[p].points >= 2 for p in range(6))


@pytest.mark.xdist_group("five_six_game")
def test_the_play_command_plays_six_bots(six_bots_game: tuple[Result, Path]) -> None:
    result, save = six_bots_game
    assert result.exit_code == 0, result.output
    assert "Brown:" in result.stdout and "Green:" in result.stdout
    assert " wins with " in result.stdout
    replayed = CliRunner().invoke(cli, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.splitlines()[-6:] == result.stdout.splitlines()[-6:]
