"""User metrics (a DSL formula over the final state, stored as a column) and kept event
logs (issue 28, item 6). Random bots, two or three games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

from ckdsl.bots import RandomBot, bot_seed
from ckdsl.cli import cli
from ckdsl.session import GameSetup, play, start
from ckdsl.sim.event_logs import iter_events, logged_keys, read_events
from ckdsl.sim.experiment import Experiment
from ckdsl.sim.runner import run
from ckdsl.sim.store import MANIFEST, StoreError, read_manifest, read_results

RANDOM4 = "random,random,random,random"
METRICS = (
    ("points_again", "points(p)"),
    ("attacks_again", "attacks"),
    ("big", "count(cities) > 2"),
)


SHORT = "extends: base\noverride:\n  parameters:\n    points_to_win: 5\n"


def experiment(**options: Any) -> Experiment:
    return Experiment.single("base", RANDOM4, games=2, seed=4, **options)


def test_a_user_metric_is_a_column_computed_from_the_final_state(tmp_path: Path) -> None:
    run(experiment(metrics=METRICS), tmp_path / "o", jobs=1, progress=False)
    df = read_results(tmp_path / "o")
    for _, row in df.iterrows():
        assert list(row["points_again"]) == list(row["points"])  # per player: a list by seat
        assert row["attacks_again"] == row["attacks"]  # per game: a number
        assert row["big"] in (0, 1)  # a truth: 1 or 0
    described = read_manifest(tmp_path / "o")["experiment"]["metrics"]
    assert described[0] == {"name": "points_again", "formula": "points(p)", "per_player": True}
    assert described[1]["per_player"] is False
    with pytest.raises(StoreError, match="user metrics"):  # other metrics: another experiment
        run(experiment(metrics=METRICS[:1]), tmp_path / "o", jobs=1, progress=False)


def test_kept_event_logs_are_the_games_logs_and_read_back(tmp_path: Path) -> None:
    out = tmp_path / "o"
    run(experiment(keep_events=True), out, jobs=1, progress=False)
    df = read_results(out)
    assert logged_keys(out) == [(i, 0, 0) for i in range(2)]
    assert len(pd.read_parquet(out)) == 2  # Parquet readers skip the _events folder
    for (key, events), (_, row) in zip(iter_events(out), df.iterrows(), strict=True):
        game = start(GameSetup(seed=int(row["seed"])), log=True)
        play(game, [RandomBot(bot_seed(int(row["seed"]), s)) for s in range(4)])
        assert events == json.loads(json.dumps(game.events))  # the very log of the game
        assert events == read_events(out, key)
    with pytest.raises(FileNotFoundError):
        read_events(out, (7, 0, 0))


def test_the_command_line_takes_metrics_and_says_where_a_formula_is_wrong(
    tmp_path: Path,
) -> None:
    short = tmp_path / "short.yaml"  # random bots race to 5 points: a short game
    short.write_text(SHORT)

    def simulate(*args: str) -> Any:
        base = ["simulate", str(short), "--players", RANDOM4, "--games", "1", "--jobs", "1"]
        return CliRunner().invoke(cli, [*base, "--quiet", *args])

    out = tmp_path / "o"
    good = simulate("--metric", "walls_at_end=count(walls(p))", "--out", str(out), "--json")
    assert good.exit_code == 0, good.output
    summary = json.loads(good.stdout)["user_metrics"]["walls_at_end"]
    assert len(summary) == 4 and summary[0]["n"] == 1  # a distribution per seat
    assert "--metric walls_at_end=count(walls(p))" in " ".join(
        json.loads((out / MANIFEST).read_text())["runs"][0]["command"]
    )
    wrong = simulate("--metric", "w=count(walls(q))")
    assert wrong.exit_code == 1 and "--metric w:1:13: unknown name 'q'" in wrong.stderr
    for bad, words in {
        "turns=1": "already a column",
        "Walls=1": "not a metric name",
        "walls": "NAME=FORMULA",
    }.items():
        result = simulate("--metric", bad)
        assert result.exit_code == 2 and words in result.stderr, (bad, result.output)


def _compare(tmp_path: Path, *args: str) -> Any:
    short, six = tmp_path / "short.yaml", tmp_path / "six.yaml"
    short.write_text(SHORT)
    six.write_text(SHORT.replace("5", "6"))
    base = ["compare", str(short), str(six), "--players", RANDOM4, "--games", "2", "--jobs", "1"]
    return CliRunner().invoke(cli, [*base, "--quiet", *args])


def _differences(text: str) -> dict[str, Any]:
    """The differences of a ``compare --json`` report's one comparison, by metric."""
    comparison = json.loads(text)["comparisons"][0]
    return {d["metric"]: d for d in comparison["headline"] + comparison["exploratory"]}


@pytest.mark.slow
def test_compare_reports_user_metrics_as_its_own_and_keeps_each_rule_sets_logs(
    tmp_path: Path,
) -> None:
    out = tmp_path / "cmp"
    mine = ["--metric", "pts=points(p)", "--metric", "attacks_again=attacks"]
    result = _compare(tmp_path, *mine, "--keep-events", "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    diffs = _differences(result.stdout)
    games = {label: read_results(out / label) for label in ("short", "six")}
    pts = {label: [list(w) for w in df["pts"]] for label, df in games.items()}
    # per player: the total over the seats, and each seat, from the stored lists
    assert diffs["pts"]["a"] == pytest.approx(sum(map(sum, pts["short"])) / 2)
    assert diffs["pts_seat_2"]["b"] == pytest.approx(sum(w[1] for w in pts["six"]) / 2)
    assert diffs["pts"]["group"] == "user" and diffs["pts"]["p"] is not None
    # a per-game formula equal to a built-in column gets the built-in's statistics
    for field in ("a", "b", "delta", "p", "mde"):
        assert diffs["attacks_again"][field] == diffs["attacks"][field]
    for label, df in games.items():  # every game's log, in its rule set's folder
        assert logged_keys(out / label) == sorted(
            zip(df["seed_index"], df["lineup"], df["rotation"], strict=True)
        )
        assert read_events(out / label, (0, 0, 0))[0]["event"]
        command = " ".join(read_manifest(out / label)["runs"][0]["command"])
        assert "--metric pts=points(p)" in command and "--keep-events" in command
    # the stored comparison re-rendered: the same rows, from the manifests' formulas
    again = CliRunner().invoke(cli, ["report", str(out), "--json", "--quiet"])
    rows = _differences(again.stdout)
    assert rows["pts_seat_2"] == diffs["pts_seat_2"]
    text = CliRunner().invoke(cli, ["report", str(out), "--headline", "pts"]).stdout
    assert "pts = points(p), total over the seats" in text.replace("\n  ", " ")


def test_compare_refuses_logs_it_would_throw_away_and_names_the_sprt_option(
    tmp_path: Path,
) -> None:
    for result in (
        _compare(tmp_path, "--keep-events"),
        CliRunner().invoke(cli, ["simulate", "--games", "1", "--keep-events"]),
    ):
        assert result.exit_code == 2 and "give --out" in result.stderr, result.output
    result = _compare(tmp_path, "--metric", "seat1")
    assert result.exit_code == 2 and "--sprt-metric seat1" in result.stderr
