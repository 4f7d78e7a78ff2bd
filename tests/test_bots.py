"""Bots: specs, the registry, fair information, and the heuristic bot playing every variant."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.bots import BotError, bot_seed, bots, make_bot, parse_players, parse_spec
from ckdsl.bots.base import _REGISTRY
from ckdsl.cli import cli
from ckdsl.session import GameSetup, play, start
from ckdsl.turn.game import Game

REPO = Path(__file__).resolve().parent.parent
VARIANTS = sorted((REPO / "examples" / "variants").glob("*.yaml"))


# --- specs ------------------------------------------------------------------------------------


def test_specs_name_a_bot_and_its_parameters() -> None:
    specs = parse_players("heuristic, mcts:iterations=20,exploration=0.5 ,random")
    assert [s.name for s in specs] == ["heuristic", "mcts", "random"]
    assert dict(specs[1].params) == {"iterations": 20, "exploration": 0.5}
    assert str(specs[1]) == "mcts:exploration=0.5,iterations=20"
    full = specs[1].full()
    assert full.startswith("mcts:") and "iterations=20" in full and "time=" in full
    assert parse_spec(str(specs[1])) == specs[1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("heuristik", "unknown bot 'heuristik'; the bots are: heuristic, learned, mcts, random"),
        ("human", "a human seat comes with the terminal table"),
        ("random:depth=2", "bot 'random' has no parameter 'depth'"),
        ("mcts:iterations=many", "mcts:iterations: 'many' is not a int"),
        ("mcts:iterations=-3", "below the smallest allowed value"),
        ("mcts:iterations", "is not a parameter (write key=value)"),
        ("mcts:iterations=2,iterations=3", "given twice"),
        ("random,,random", "an empty bot name"),
        ("mcts:exploration=nan", "is not a float"),
        ("mcts:iterations=" + "9" * 5000, "is not a int"),
    ],
)
def test_bad_specs_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BotError, match=None) as caught:
        parse_players(text)
    assert message in str(caught.value)


def test_the_bots_command_lists_every_bot_and_parameter(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["bots", "--json"])
    assert result.exit_code == 0
    listed = {row["name"]: row for row in json.loads(result.stdout)}
    assert set(listed) == {info.name for info in bots()} >= {"random", "heuristic", "mcts"}
    assert {p["name"] for p in listed["mcts"]["params"]} >= {
        "iterations",
        "time",
        "exploration",
        "seed",
    }
    assert all(row["version"] for row in listed.values())
    text = runner.invoke(cli, ["bots"]).stdout
    assert "mcts  (version" in text and "iterations=" in text


def test_play_refuses_an_unknown_bot_as_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["play", "--players", "random,nobody,random"])
    assert result.exit_code == 2
    assert "unknown bot 'nobody'" in result.stderr and "Traceback" not in result.output


# --- fair information -------------------------------------------------------------------------


def _heuristic_position(seed: int) -> Game:
    """A position where a heuristic player must choose among several answers in the main
    phase, with opponents holding cards and progress cards."""
    game = start(GameSetup(seed=seed), log=False)
    players = [make_bot("heuristic", bot_seed(seed, p)) for p in range(4)]
    while True:
        decision = game.pending
        state = game.state
        if (
            decision.kind == "main"
            and len(decision.options) > 3
            and state.turn > 30
            and all(sum(p.hand) for p in state.players)
            and any(p.progress for q, p in enumerate(state.players) if q != decision.player)
        ):
            return game
        assert decision.kind != "over"
        game.answer(players[decision.player].choose(game.view(decision.player)))


def _hide_differently(game: Game, me: int) -> Game:
    """The same game where the opponents hold other cards: two opponents swap a good, an
    opponent's progress cards are swapped with cards of the decks, the decks are reversed."""
    other = game.clone()
    state = other.state
    opponents = [q for q in range(other.n) if q != me]
    a, b = [q for q in opponents if sum(state.players[q].hand)][:2]
    ga = next(g for g, n in enumerate(state.players[a].hand) if n)
    gb = next((g for g, n in enumerate(state.players[b].hand) if n and g != ga), None)
    if gb is not None:
        state.players[a].hand[ga] -= 1
        state.players[b].hand[ga] += 1
        state.players[b].hand[gb] -= 1
        state.players[a].hand[gb] += 1
    holder = next(q for q in opponents if state.players[q].progress)
    rules = other.rules
    for k, card in enumerate(state.players[holder].progress):
        deck = state.decks[rules.cards[card].deck]
        swap = next(
            (i for i, c in enumerate(deck) if c != card and rules.cards[c].timing != "on_draw"),
            None,
        )
        if swap is not None:
            state.players[holder].progress[k], deck[swap] = deck[swap], card
    for deck in state.decks:
        deck.reverse()
    state.rng = {name: value ^ 0x5555 for name, value in state.rng.items()}
    other.refresh()
    assert other.state.digest() != game.state.digest()
    return other


@pytest.mark.parametrize(
    ("spec", "seed"),
    [
        ("heuristic", 11),
        ("heuristic", 21),
        ("mcts:iterations=30", 11),
        ("learned", 11),
        ("learned", 21),
    ],
)
def test_no_bot_reads_what_its_player_cannot_see(spec: str, seed: int) -> None:
    game = _heuristic_position(seed)
    me = game.pending.player
    other = _hide_differently(game, me)
    view, twin = game.view(me), other.view(me)
    assert view.key() == twin.key()
    answers = [make_bot(spec, 99).choose(v) for v in (view, twin)]
    assert answers[0] == answers[1]
    assert answers[0] in game.pending.options or answers[0][0] == "offer"


# --- the heuristic bot playing ----------------------------------------------------------------


def _play(rules: str, seed: int, line_up: list[str], board: str = "standard") -> Game:
    game = start(GameSetup(rules=rules, map=board, players=len(line_up), seed=seed), log=False)
    play(game, [make_bot(name, bot_seed(seed, p)) for p, name in enumerate(line_up)])
    return game


# five_six: tests/test_five_six.py plays six heuristic bots on it to a winner, and checks more
@pytest.mark.parametrize(
    "variant", [v for v in VARIANTS if v.stem != "five_six"], ids=lambda p: p.stem
)
def test_heuristic_bots_play_every_example_variant_to_a_winner(
    variant: Path, example_table: Callable[[Path], tuple[int, str]]
) -> None:
    players, board = example_table(variant)
    game = _play(str(variant), 3, ["heuristic"] * players, board)
    assert game.state.winner >= 0
    target = game.rules.param("points_to_win")
    assert game.state.players[game.state.winner].points >= target


def test_the_heuristic_bot_beats_random_bots() -> None:
    wins = 0
    for seed in range(6):
        seats = ["random"] * 4
        seats[seed % 4] = "heuristic"
        game = _play("base", seed, seats)
        wins += game.state.winner == seed % 4
    assert wins >= 5


def test_a_heuristic_game_is_the_same_game_twice() -> None:
    a = _play("base", 8, ["heuristic"] * 4)
    b = _play("base", 8, ["heuristic"] * 4)
    assert a.state.digest() == b.state.digest() and a.history == b.history


# --- the mcts bot -----------------------------------------------------------------------------


class _Clock:
    """A clock for the search that advances by ``tick`` at every reading, whatever the
    machine is doing: the budget test measures the bot's own discipline, not the load of
    a shared machine (a wall-clock version failed whenever another job ran beside it)."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick = 0.0, tick

    def perf_counter(self) -> float:
        self.now += self.tick
        return self.now


def test_mcts_keeps_to_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision within the budget plus 10%, the search itself included."""
    from ckdsl.bots import mcts

    clock = _Clock(0.001)
    monkeypatch.setattr(mcts, "clock", clock)
    game = _heuristic_position(5)
    budget = 0.15
    bot = make_bot(f"mcts:time={budget},iterations=100000", 1)
    slowest, searched = 0.0, 0
    for _ in range(40):
        decision = game.pending
        if decision.kind == "over":
            break
        view = game.view(decision.player)
        began = clock.now
        answer = bot.choose(view)
        slowest = max(slowest, clock.now - began)
        searched += getattr(bot, "last_iterations", 0) > 0
        game.answer(answer)
    assert searched >= 3
    assert slowest <= 1.1 * budget, slowest


def test_mcts_with_iterations_alone_is_reproducible() -> None:
    game = _heuristic_position(7)
    view = game.view(game.pending.player)
    answers = {make_bot("mcts:iterations=40", 3).choose(view) for _ in range(2)}
    assert len(answers) == 1
    # the seed parameter gives another search of the same game: another stream
    streams = {make_bot(f"mcts:seed={s}", 3).rng.random() for s in (0, 9, 9)}  # type: ignore[attr-defined]
    assert len(streams) == 2


@pytest.mark.slow
def test_a_tournament_ranks_the_heuristic_above_random(runner: CliRunner, tmp_path: Path) -> None:
    args = ["tournament", "heuristic", "random", "--games", "2", "--jobs", "1", "--quiet"]
    result = runner.invoke(cli, [*args, "--json", "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 2 * 2 * 4  # seeds x line-ups (A,B,A,B and B,A,B,A) x rotations
    assert report["standings"][0]["bot"].startswith("heuristic")
    assert report["standings"][0]["ordinal"] > report["standings"][1]["ordinal"]
    ahead = {(p["bot"].split(":")[0], p["opponent"].split(":")[0]): p for p in report["pairwise"]}
    assert ahead["heuristic", "random"]["ahead"]["estimate"] > 0.5
    again = runner.invoke(cli, [*args, "--json", "--out", str(tmp_path / "t")])
    assert again.stdout == result.stdout  # resumed from the store: nothing played, same report
    text = runner.invoke(cli, [*args]).stdout
    assert "heuristic" in text and "rating" in text
    bad = runner.invoke(cli, ["tournament", "heuristic", "nobody"])
    assert bad.exit_code == 2 and "unknown bot 'nobody'" in bad.stderr


def test_the_bots_load_when_first_asked_for() -> None:
    """Importing ``ckdsl.bots`` loads no bot's evaluator: the heuristic's and MCTS's
    modules are imported when their bot is first named, or when the bots are listed (as
    the error naming an unknown bot does)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from ckdsl.bots import BotError, bots, make_bot, parse_spec\n"
        "def loaded(): return sorted(m[11:] for m in sys.modules if m.startswith('ckdsl.bots.'))\n"
        "print(loaded())\n"
        "make_bot('random', 1)\n"
        "print(loaded())\n"
        "print(parse_spec('mcts:iterations=5').full(), loaded())\n"
        "try:\n    parse_spec('nobody')\nexcept BotError as e:\n    print(e)\n"
        "print([b.name for b in bots()])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[:2] == ["['base', 'random_bot']"] * 2
    assert "'heuristic'" in out.stdout.splitlines()[2] and "'mcts'" in out.stdout.splitlines()[2]
    assert out.stdout.splitlines()[3:] == [
        "unknown bot 'nobody'; the bots are: heuristic, learned, mcts, random",
        "['heuristic', 'learned', 'mcts', 'random']",
    ]


def test_the_bot_written_in_docs_bots_md_plays() -> None:
    """The example of docs/bots.md, run as written: registered, named, playing a game."""
    text = (REPO / "docs" / "bots.md").read_text(encoding="utf-8")
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    try:
        exec(compile(code, "docs/bots.md", "exec"), {"__name__": "docs_example"})
        assert "greedy" in {info.name for info in bots()}
        game = _play("base", 2, ["greedy:order=city+settlement+knight"] + ["random"] * 3)
        assert game.state.over and game.history
    finally:
        _REGISTRY.pop("greedy", None)


def test_play_by_default_is_four_heuristic_bots_playing_to_a_winner(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["play", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["finished"] and report["winner"] in report["scores"]
    assert report["scores"][report["winner"]] >= 13 and report["turns"] < 300


def test_the_base_formulas_say_what_they_read() -> None:
    """The barbarians' strength and defence and the hand limit call only functions that
    declare what they read (the buildings, the knights), so the heuristic keeps their
    answers by those parts of the state (``Evaluator.formulas``)."""
    from ckdsl.bots.features import formulas_kept

    programs = start(GameSetup(seed=1), log=False).rules.programs
    assert programs.strength_reads == frozenset({"buildings"})
    assert programs.defence_reads == frozenset({"knights"})
    assert programs.discard_limit_reads == frozenset({"buildings"})
    reads = (programs.strength_reads, programs.defence_reads, programs.discard_limit_reads)
    assert formulas_kept(*reads) is False  # kept, without the points in the key
    assert formulas_kept(None, *reads[1:]) is None  # one that may read anything: never


def test_what_the_heuristic_keeps_is_what_it_would_compute_afresh() -> None:
    """The evaluator keeps answers from one position to the next (productions, settlement
    spots, prices, levels, the rule set's formulas): at each position of a game, each
    position one answer ahead of a main phase, and after changes no search makes (number
    tokens swapped, the robber moved, another game on the same map; each followed by
    ``refresh``, as any direct change of a state is), it values as a fresh evaluator
    does."""
    from ckdsl.bots.features import Evaluator
    from ckdsl.bots.weights import load_weights

    weights = load_weights()
    game = start(GameSetup(seed=4), log=False)
    kept = Evaluator(game.rules, game.topo, weights)

    def same(g: Game) -> None:
        fresh = Evaluator(g.rules, g.topo, weights)
        for p in range(g.n):
            assert kept.value(g, p) == fresh.value(g, p), (p, g.state.turn)

    players = [make_bot("heuristic", bot_seed(4, p)) for p in range(4)]
    for _ in range(250):
        decision = game.pending
        if decision.kind == "over":
            break
        same(game)
        if decision.kind == "main":
            for option in decision.options:
                ahead = game.clone(log=False)
                ahead.answer(option)
                same(ahead)
        game.answer(players[decision.player].choose(game.view(decision.player)))
    same(game)
    state = game.state
    robber = state.robber
    # A number token next to player 0 swapped with another number: their production moves.
    near = next(
        t
        for i in state.players[0].buildings
        for t in game.topo.inter_tiles[i]
        if state.numbers[t] and t != robber
    )
    odds = abs(7 - (state.numbers[near] or 0))  # 4 and 10 are as likely: another odds
    far = next(t for t, n in enumerate(state.numbers) if n and abs(7 - n) != odds and t != robber)
    state.numbers[near], state.numbers[far] = state.numbers[far], state.numbers[near]
    game.index_numbers()
    same(game)
    state.robber = near
    game.refresh()  # a direct change: new board and yield stamps (what the evaluator keys on)
    same(game)
    # Player 0 alone near a metropolis, then another player holding it.
    track = game.rules.tracks[0]
    state.players[0].levels[0] = track.metropolis_level - 1
    same(game)
    state.metropolis[0] = state.players[1].buildings[0]
    same(game)
    # The same pieces on another layout of the same map: other terrains, other yields.
    other = start(GameSetup(seed=9), log=False)
    assert other.topo is game.topo and other.tile_yields != game.tile_yields
    other.state = state.copy()
    other.refresh()
    same(other)
