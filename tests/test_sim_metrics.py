"""The metrics of ``ckdsl simulate``: the recorder's counts against the game's own log, the
points by source against the engine's recount, and the Ludii-style metrics on hand-made
trajectories with hand-computed answers."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ckdsl.bots import RandomBot
from ckdsl.bots.heuristic import HeuristicBot
from ckdsl.core import pieces
from ckdsl.core.state import CITY, NOBODY
from ckdsl.session import GameSetup, play, start
from ckdsl.sim.metrics import (
    METRIC_COLUMNS,
    METRIC_NAMES,
    RECORDED_EVENTS,
    VP_SOURCES,
    Decisiveness,
    Drama,
    GameRecorder,
    LeadChanges,
    arrow_fields,
    arrow_type,
    decisiveness,
    drama,
    lead_changes,
    points_by_source,
    score_margin,
    trajectory_metrics,
)
from ckdsl.turn.game import Event, Game

PACKAGE = Path(__file__).resolve().parent.parent / "ckdsl"

# Random-bot games chosen for what happens in them: 1 and 5 are won (metropolises, knights
# relocated after a displacement, tied defences), 22 is won early, 54 reaches the turn
# limit with damaged cities, 0 reaches the turn limit. ("heuristic", 0) trades between
# players. Each takes well under a second. Seed 54 is played under
# examples/variants/earlier_base.yaml: since issue 30's base-rule changes (the Defender
# point does not run out) random games end sooner, and none of seeds 1-79 damages a city.
EARLIER_BASE = str(Path(__file__).resolve().parent.parent / "examples/variants/earlier_base.yaml")
RULES_OF = {54: EARLIER_BASE}
GAMES: list[tuple[str, int]] = [
    ("random", 1),
    ("random", 5),
    ("random", 22),
    ("random", 54),
    ("random", 0),
    ("heuristic", 0),
]


@dataclass
class Played:
    game: Game
    row: dict[str, Any]
    ties: int  # won attacks whose best defenders tied, from the defence shares
    tied_players: int  # players in those ties (each takes a progress card)


def bots_for(kind: str, seed: int, players: int = 4) -> list[Any]:
    if kind == "random":
        return [RandomBot(seed * 10 + p) for p in range(players)]
    return [HeuristicBot(seed * 10 + p) for p in range(players)]


def share_counter(game: Game, played: dict[str, int]) -> Any:
    """A second listener that works the defence ties out from the defence shares, the way
    the engine decides them (the recorder cannot: it only reads answers and events)."""

    def listener(event: Event) -> None:
        if event["event"] != "attack" or not event["won"]:
            return
        shares = [game.rules.programs.defence_of(game, p) for p in range(game.n)]
        best = max(shares)
        tied = sum(1 for s in shares if s == best)
        if best > 0 and tied > 1:
            assert any(game.state.decks), "no card left to reward a tie: pick another game"
            played["ties"] += 1
            played["tied_players"] += tied

    return listener


@pytest.fixture(scope="module")
def games() -> list[Played]:
    out = []
    for kind, seed in GAMES:
        game = start(GameSetup(seed=seed, rules=RULES_OF.get(seed, "base")), log=True)
        recorder = GameRecorder(game)
        counted = {"ties": 0, "tied_players": 0}
        game.listen(share_counter(game, counted))
        play(game, bots_for(kind, seed))
        out.append(Played(game, recorder.finish(game), counted["ties"], counted["tied_players"]))
    return out


def count(events: list[Event], name: str, **details: Any) -> int:
    return sum(
        1 for e in events if e["event"] == name and all(e.get(k) == v for k, v in details.items())
    )


# --- the recorder against the log ---------------------------------------------------------------


def test_the_games_cover_what_the_counts_are_about(games: list[Played]) -> None:
    # Every count below is checked on games where it is not zero.
    rows = [p.row for p in games]
    for column in (
        "attacks", "attacks_lost", "cities_pillaged", "cities_damaged", "defender_awards",
        "defence_ties", "defence_rewards", "progress_drawn", "progress_played",
        "knights_built", "knights_promoted", "knights_activated", "knights_displaced",
        "robber_moves", "steals", "longest_road_changes", "bank_trades", "offers", "trades",
        "settlements_built", "cities_built", "walls_built", "roads_built",
    ):  # fmt: skip
        assert any(row[column] for row in rows), column
    assert any(turn > 0 for row in rows for turn in row["metropolis_first_turn"].values())
    assert any(p.game.state.winner == NOBODY for p in games)
    assert any(p.game.state.winner != NOBODY for p in games)
    assert any(o[0] == "relocate" for p in games for o in p.game.history)


def test_counts_match_the_events_of_the_log(games: list[Played]) -> None:
    plain = {
        "attacks": "attack",
        "cities_pillaged": "pillaged",
        "defender_awards": "defender",
        "defender_none_left": "defender_none_left",
        "improvements": "improve",
        "progress_played": "play",
        "progress_discarded": "discard_card",
        "progress_seized": "seize",
        "knights_promoted": "promote",
        "knights_activated": "activate",
        "knights_moved": "move_knight",
        "knights_displaced": "displace",
        "robber_chases": "chase",
        "robber_moves": "robber",
        "steals": "steal",
        "goods_discarded": "discard",
        "merchant_moves": "merchant",
        "longest_road_changes": "longest_road",
        "bank_trades": "bank_trade",
        "offers": "offer",
        "trades": "trade",
    }
    for played in games:
        events, row = played.game.events, played.row
        for column, event in plain.items():
            assert row[column] == count(events, event), column
        assert row["attacks_lost"] == count(events, "attack", won=False)
        assert row["cities_damaged"] == count(events, "pillaged", damaged=True)
        assert row["progress_drawn"] == count(events, "draw") + count(events, "reveal")
        drawn = Counter(e["card"] for e in events if e["event"] in ("draw", "reveal"))
        assert row["cards_drawn"] == dict(drawn)
        played_cards = Counter(e["card"] for e in events if e["event"] == "play")
        assert row["cards_played"] == dict(played_cards)


def test_counts_match_the_final_state(games: list[Played]) -> None:
    for played in games:
        state, row = played.game.state, played.row
        assert row["defender_awards"] == sum(p.defender for p in state.players)
        assert row["attacks"] == state.attacks


def test_building_counts_leave_the_setup_out(games: list[Played]) -> None:
    for played in games:
        events, row = played.game.events, played.row
        first_turn = next(k for k, e in enumerate(events) if e["event"] == "turn")
        built = Counter(e["piece"] for e in events[first_turn:] if e["event"] == "build")
        assert row["roads_built"] == built["road"]
        assert row["settlements_built"] == built["settlement"]
        assert row["cities_built"] == built["city"]
        assert row["walls_built"] == built["city_wall"]
        assert count(events[:first_turn], "build") == 4 * played.game.n  # the setup's


def test_knights_built_leave_relocations_out(games: list[Played]) -> None:
    for played in games:
        game, row = played.game, played.row
        relocations = sum(1 for o in game.history if o[0] == "relocate")
        assert row["knights_built"] == count(game.events, "knight") - relocations
        bought = sum(1 for o in game.history if o[0] == "knight")
        assert row["knights_built"] >= bought


def test_defence_ties_match_the_defence_shares(games: list[Played]) -> None:
    for played in games:
        row = played.row
        assert row["defence_ties"] == played.ties
        assert row["defence_rewards"] == played.tied_players
        rewards = sum(1 for o in played.game.history if o[0] == "reward")
        assert row["defence_rewards"] == rewards


def test_metropolis_first_turns_match_the_log(games: list[Played]) -> None:
    for played in games:
        tracks = [t.id for t in played.game.rules.tracks]
        first = dict.fromkeys(tracks, -1)
        turn = 0
        for e in played.game.events:
            if e["event"] == "turn":
                turn = e["turn"]
            elif e["event"] == "metropolis" and first[e["track"]] == -1:
                first[e["track"]] = turn
        assert played.row["metropolis_first_turn"] == first
        assert played.row["metropolis_changes"] == dict.fromkeys(tracks, 0)


def test_metropolis_changes_of_hands_are_counted() -> None:
    game = start(GameSetup(seed=3), log=False)
    recorder = GameRecorder(game)
    bots = bots_for("random", 3)
    track = game.rules.tracks[1].id

    def city_of(player: int) -> int:
        state = game.state
        return next(i for i in state.players[player].buildings if state.building[i] == CITY)

    def play_until(turn: int) -> None:
        while game.state.turn < turn or game.pending.kind != "roll":
            decision = game.pending
            game.answer(bots[decision.player].choose(game.view(decision.player)))

    play_until(2)
    pieces.set_metropolis(game, 1, city_of(0))
    play_until(5)
    pieces.set_metropolis(game, 1, city_of(2))
    pieces.set_metropolis(game, 1, city_of(2))  # moved, but not to another player
    pieces.set_metropolis(game, 1, city_of(0))
    row = recorder.finish()
    assert row["metropolis_first_turn"][track] == 2
    assert row["metropolis_changes"][track] == 2
    assert row["vp_metropolises"] == [2, 0, 0, 0]
    assert sum(row["metropolis_changes"].values()) == 2
    for p in range(game.n):
        assert sum(points_by_source(game, p).values()) == game.recount_points(p)
    # The game goes on: the trajectory is closed with the points now, one row per turn.
    assert len(row["vp_trajectory"]) == game.state.turn + 1
    assert row["vp_trajectory"][-1] == [p.points for p in game.state.players]
    assert row["decisive_turn"] is None and row["score_margin"] is None


def test_one_reward_card_and_one_relocated_knight_per_answer() -> None:
    # Events heard while the last answer is still a reward or a relocation: only the first
    # draw is the reward, only the first knight the relocated one (an effect running on
    # after such an answer may draw or place more).
    game = start(GameSetup(seed=3), log=False)
    recorder = GameRecorder(game)
    draw = {"event": "draw", "player": 0, "deck": "science", "card": "printer"}
    knight = {"event": "knight", "player": 0, "at": 5, "level": "basic", "active": False}
    game.history.append(("reward", "science"))
    recorder.on_event({"event": "attack", "player": 0, "strength": 3, "defence": 4, "won": True})
    recorder.on_event(draw)
    recorder.on_event(draw)
    game.history.append(("reward", "trade"))
    recorder.on_event(draw)
    game.history.append(("relocate", 5))
    recorder.on_event(knight)
    recorder.on_event(knight)
    row = recorder.finish()
    assert (row["defence_ties"], row["defence_rewards"], row["progress_drawn"]) == (1, 2, 3)
    assert row["knights_built"] == 1
    assert row["cards_drawn"] == {"printer": 3}


# --- without a log ------------------------------------------------------------------------------


def test_the_same_row_without_a_log_and_an_independent_trajectory(games: list[Played]) -> None:
    # Replaying the answers on a game that keeps no log: the recorder hears the same events.
    # Alongside, the points are read after every answer that starts a turn.
    for played in games:
        seed = played.game.state.seed
        again = start(GameSetup(seed=seed, rules=RULES_OF.get(seed, "base")), log=False)
        recorder = GameRecorder(again)
        rows: list[list[int]] = []
        turn = 0
        for option in played.game.history:
            again.answer(option)
            state = again.state
            if state.turn != turn:
                turn = state.turn
                if not (state.over and state.winner == NOBODY):  # the turn beyond the limit
                    rows.append([p.points for p in state.players])
        rows.append([p.points for p in again.state.players])
        assert again.events == []
        assert recorder.finish() == played.row
        assert played.row["vp_trajectory"] == rows


def test_the_same_row_when_bots_play_a_game_without_a_log() -> None:
    game = start(GameSetup(seed=22), log=True)
    recorder = GameRecorder(game)
    play(game, bots_for("random", 22))
    quiet = start(GameSetup(seed=22), log=False)
    quiet_recorder = GameRecorder(quiet)
    play(quiet, bots_for("random", 22))
    assert quiet_recorder.finish(quiet) == recorder.finish(game)


# --- points and the trajectory ------------------------------------------------------------------


def test_points_by_source_add_up_to_the_recount(games: list[Played]) -> None:
    for played in games:
        game, row = played.game, played.row
        for p in range(game.n):
            by_source = points_by_source(game, p)
            assert tuple(by_source) == VP_SOURCES
            assert sum(by_source.values()) == game.recount_points(p) == game.state.players[p].points
            assert [row[f"vp_{s}"][p] for s in VP_SOURCES] == list(by_source.values())
        assert row["vp_defender"] == [p.defender for p in game.state.players]


def test_the_trajectory_has_a_row_per_turn_and_the_final_points(games: list[Played]) -> None:
    for played in games:
        game, traj = played.game, played.row["vp_trajectory"]
        state = game.state
        turns = count(game.events, "turn")
        assert turns == state.turn
        assert len(traj) == turns + 1
        assert traj[0] == [3] * game.n  # a settlement and a city each after the setup
        assert traj[-1] == [p.points for p in state.players]
        assert all(len(row) == game.n for row in traj)
        if state.winner != NOBODY:
            assert traj[-1][state.winner] >= game.rules.params["points_to_win"]


def test_ludii_columns_follow_the_trajectory_and_the_winner(games: list[Played]) -> None:
    for played in games:
        row, winner = played.row, played.game.state.winner
        expected = trajectory_metrics(row["vp_trajectory"], winner)
        assert {k: row[k] for k in expected} == expected
        if winner == NOBODY:
            assert row["drama_mean"] is None and row["decisive_turn"] is None
            assert row["score_margin"] is None and row["lead_changes"] >= 0
        else:
            assert row["score_margin"] == score_margin(row["vp_trajectory"][-1], winner)
            assert 0 <= row["decisive_turn"] < len(row["vp_trajectory"])


def test_finish_twice_gives_the_same_row_and_refuses_another_game(games: list[Played]) -> None:
    game = start(GameSetup(seed=22), log=False)
    recorder = GameRecorder(game)
    play(game, bots_for("random", 22))
    first = recorder.finish()
    assert recorder.finish(game) == first
    assert len(first["vp_trajectory"]) == game.state.turn + 1  # won: no turn beyond
    with pytest.raises(ValueError, match="another game"):
        recorder.finish(games[0].game)


# --- the row's schema ----------------------------------------------------------------------------


def test_rows_have_the_columns_in_order_and_are_plain_json(games: list[Played]) -> None:
    for played in games:
        assert tuple(played.row) == METRIC_NAMES
        text = json.dumps(played.row, allow_nan=False)
        assert json.loads(text) == played.row


def test_the_columns_are_named_typed_and_described() -> None:
    names = [c.name for c in METRIC_COLUMNS]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", n) for n in names)
    assert all(c.description and len(c.description) < 100 for c in METRIC_COLUMNS)
    required = [
        "attacks",
        "attacks_lost",
        "cities_pillaged",
        "cities_damaged",
        "defender_awards",
        "defence_ties",
        "metropolis_first_turn",
        "metropolis_changes",
        "progress_drawn",
        "progress_played",
        "cards_drawn",
        "cards_played",
        "knights_built",
        "knights_promoted",
        "knights_activated",
        "knights_displaced",
        "robber_moves",
        "steals",
        "longest_road_changes",
        "bank_trades",
        "offers",
        "trades",
        "vp_settlements",
        "vp_cities",
        "vp_metropolises",
        "vp_defender",
        "vp_merchant",
        "vp_longest_road",
        "vp_cards",
        "vp_trajectory",
        "lead_changes",
        "lead_change_rate",
        "drama_mean",
        "drama_max",
        "decisive_turn",
        "decisive_fraction",
        "score_margin",
    ]
    assert set(required) <= set(names)
    types = {c.name: c.type for c in METRIC_COLUMNS}
    assert types["cards_drawn"] == types["metropolis_first_turn"] == "map<string,int32>"
    assert types["vp_trajectory"] == "list<list<int16>>"
    assert all(types[f"vp_{s}"] == "list<int32>" for s in VP_SOURCES)


def test_the_engine_logs_every_event_the_recorder_reads() -> None:
    # A renamed event would leave a column at 0 for ever: each name must be logged.
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for folder in ("core", "turn", "dsl")
        for path in (PACKAGE / folder).rglob("*.py")
    )
    for name in RECORDED_EVENTS:
        assert re.search(rf'\.log\(\s*"{name}"', source), name


def test_rows_fit_the_arrow_schema(games: list[Played]) -> None:
    pa = pytest.importorskip("pyarrow")
    schema = pa.schema(arrow_fields())
    table = pa.Table.from_pylist([p.row for p in games], schema=schema)
    assert table.schema.names == list(METRIC_NAMES)
    back = table.to_pylist()
    for played, again in zip(games, back, strict=True):
        assert again["vp_trajectory"] == played.row["vp_trajectory"]
        assert dict(again["cards_drawn"]) == played.row["cards_drawn"]
        assert again["drama_mean"] == played.row["drama_mean"]
    assert arrow_type("map<string, int32>") == pa.map_(pa.string(), pa.int32())
    assert arrow_type("list<list<int16>>") == pa.list_(pa.list_(pa.int16()))
    with pytest.raises(ValueError, match="unknown column type"):
        arrow_type("decimal")


# --- the Ludii-style metrics on hand-made trajectories --------------------------------------------


def test_a_winner_who_led_from_the_start() -> None:
    traj = [[3, 2, 2], [5, 3, 2], [8, 4, 3]]
    assert lead_changes(traj) == LeadChanges(0, 0.0)
    assert drama(traj, 0) == Drama(0.0, 0)
    assert decisiveness(traj, 0) == Decisiveness(0, 0.0)
    assert score_margin(traj[-1], 0) == 4


def test_a_comeback() -> None:
    # Leaders: {0,1,2}, {0}, {0}, {1}, {1}: two changes in four turns. Seat 1 trails by
    # 0, 2, 3, then leads; it leads for good from row 3, after three of the four turns.
    traj = [[3, 3, 3], [5, 3, 3], [7, 4, 3], [7, 8, 3], [9, 10, 3]]
    assert lead_changes(traj) == LeadChanges(2, 0.5)
    assert drama(traj, 1) == Drama(1.0, 3)
    assert decisiveness(traj, 1) == Decisiveness(3, 0.75)
    assert score_margin(traj[-1], 1) == 1
    assert trajectory_metrics(traj, 1) == {
        "lead_changes": 2,
        "lead_change_rate": 0.5,
        "drama_mean": 1.0,
        "drama_max": 3,
        "decisive_turn": 3,
        "decisive_fraction": 0.75,
        "score_margin": 1,
    }


def test_ties_change_the_set_of_leaders_but_count_as_leading() -> None:
    # Leaders: {0,1}, {0,1}, {0}, {0,1}, {0}: three changes; seat 0 never trails.
    traj = [[3, 3], [4, 4], [5, 4], [5, 5], [6, 5]]
    assert lead_changes(traj) == LeadChanges(3, 0.75)
    assert drama(traj, 0) == Drama(0.0, 0)
    assert decisiveness(traj, 0) == Decisiveness(0, 0.0)
    # Seat 1 lost, but as a would-be winner it trailed from row 2 to the end.
    assert decisiveness(traj, 1) == Decisiveness(None, None)
    assert drama(traj, 1) == Drama(0.4, 1)  # gaps 0, 0, 1, 0, 1


def test_a_winner_who_trails_at_the_very_end() -> None:
    # Another seat reached more points off its own turn: the game was never "decided".
    traj = [[3, 3], [12, 12], [13, 14]]
    assert decisiveness(traj, 0) == Decisiveness(None, None)
    assert score_margin(traj[-1], 0) == -1
    assert drama(traj, 0) == Drama(1 / 3, 1)


def test_a_late_decision_is_a_fraction_of_the_turns() -> None:
    traj = [[3, 3], [3, 4], [4, 4], [5, 4], [6, 5]]  # seat 0 ties at row 2 and keeps it up
    assert decisiveness(traj, 0) == Decisiveness(2, 0.5)


def test_unfinished_games_have_no_winner_metrics() -> None:
    traj = [[3, 3, 3], [5, 3, 3], [5, 6, 3]]
    assert lead_changes(traj) == LeadChanges(2, 1.0)  # defined without a winner
    assert drama(traj, NOBODY) == Drama(None, None)
    assert decisiveness(traj, NOBODY) == Decisiveness(None, None)
    assert score_margin(traj[-1], NOBODY) is None
    metrics = trajectory_metrics(traj, NOBODY)
    assert metrics["lead_changes"] == 2
    assert [metrics[k] for k in ("drama_mean", "drama_max", "decisive_turn")] == [None] * 3
    assert [metrics[k] for k in ("decisive_fraction", "score_margin")] == [None] * 2


def test_degenerate_trajectories() -> None:
    assert lead_changes([]) == LeadChanges(0, None)
    assert lead_changes([[3, 3]]) == LeadChanges(0, None)
    assert drama([], 0) == Drama(None, None)
    assert decisiveness([], 0) == Decisiveness(None, None)
    assert decisiveness([[4, 3]], 0) == Decisiveness(0, None)
    assert score_margin([7], 0) is None
    assert trajectory_metrics([], 0)["score_margin"] is None
