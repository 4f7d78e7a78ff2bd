"""Sweeps and the balance search (issue 28, item 5): values parsed, variants made and
played on the same seeds, a search confirmed on fresh seeds. Random bots, two seeds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.sim.rule_search import Target, best
from ckdsl.sim.store import read_manifest, read_results
from ckdsl.sim.sweep import Estimate, Level, grid, label, parse_values

RANDOM4 = "random,random,random,random"


def test_values_ranges_steps_and_lists() -> None:
    assert parse_values("7..11") == [7, 8, 9, 10, 11]
    assert parse_values("7..11:2") == [7, 9, 11]
    assert parse_values("0.5..1.5:0.25") == [0.5, 0.75, 1.0, 1.25, 1.5]
    assert parse_values("7,9,12") == [7, 9, 12]
    for bad in ("11..7", "7..11:0", "seven", "7,7", "1..100000", "nan"):
        with pytest.raises(ValueError):
            parse_values(bad)
    points = grid([("a", [1, 2]), ("b", [3])])
    assert [label(p) for p in points] == ["a=1,b=3", "a=2,b=3"]


def test_a_target_scores_and_a_tie_goes_to_the_smallest_change() -> None:
    def level(turns: float, spread: float) -> Level:
        measures = {"turns": Estimate(turns, None, None), "seat_spread": Estimate(spread, 0, 1)}
        return Level((("x", 0),), 2, 2, measures, {})

    assert Target.parse("turns=80").score(level(90, 0.1)) == 10
    assert Target.parse("balance").score(level(90, 0.1)) == 0.1
    with pytest.raises(ValueError):
        Target.parse("turns=lots")
    tried = [((("x", 3),), 0.5), ((("x", 8),), 0.5), ((("x", 9),), 0.7)]
    assert best(tried, (("x", 7),)) == (("x", 8),)


def invoke(*args: str) -> Any:
    base = ["--players", RANDOM4, "--games", "2", "--jobs", "1", "--quiet"]
    return CliRunner().invoke(cli, [*args, *base])


def short_variant(folder: Path) -> str:
    """A variant of short games: random bots race to 5 points."""
    short = folder / "short.yaml"
    short.write_text("extends: base\noverride:\n  parameters:\n    points_to_win: 5\n")
    return str(short)


def test_a_sweep_plays_every_value_on_the_same_seeds(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    rules = short_variant(tmp_path)
    result = invoke("sweep", rules, "--set", "points_to_win=4,5", "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["sweep"]["reference"] == "points_to_win=5"  # the rule set's own value
    levels = {x["label"]: x for x in report["levels"]}
    assert set(levels) == {"points_to_win=4", "points_to_win=5"}
    assert levels["points_to_win=5"]["differences"]["turns"]["estimate"] == 0
    seeds = [list(read_results(out / f"points_to_win_{n}")["seed"]) for n in (4, 5)]
    assert seeds[0] == seeds[1]  # paired: the same game seeds under every value
    texts = [f["text"] for f in read_manifest(out / "points_to_win_4")["rule_files"]]
    assert "points_to_win: 4" in texts[0] and "points_to_win: 5" in texts[1]  # and its parent


def test_the_dose_response_figure_draws_every_value_with_its_interval(tmp_path: Path) -> None:
    from ckdsl.sim.dose_plot import draw

    def level(x: int) -> Level:
        measures = {f"seat{s}": Estimate(0.25, 0.2, 0.3) for s in range(1, 5)}
        measures |= {
            m: Estimate(x, x - 1, x + 1) for m in ("seat_spread", "finished", "turns", "w")
        }
        return Level((("hand_limit", x),), 40, 40, measures, {})

    levels = [level(x) for x in (7, 8, 9)]
    written = draw(levels, tmp_path / "dose.png", title="t", user=["w"], chosen=levels[1:2])
    assert [p.suffix for p in written] == [".png", ".svg"]
    assert written[0].read_bytes()[:4] == b"\x89PNG"
    assert written[1].read_text().count("<path") > 20


def test_a_search_confirms_its_winner_on_fresh_seeds(tmp_path: Path) -> None:
    result = invoke(
        "search", short_variant(tmp_path), "--set", "points_to_win=4..6", "--target", "turns=30",
        "--trials", "3", "--confirm-games", "2", "--seed", "5", "--out", str(tmp_path / "o"),
        "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    tried = report["search"]["trials"]
    assert 1 <= len(tried) <= 3 and report["search"]["master_seed"] == 5
    assert report["winner_search_score"] == min(t["score"] for t in tried)
    confirmation = report["confirmation"]
    assert confirmation["master_seed"] == 6  # fresh seeds
    assert report["reference"] == "points_to_win=5"  # the rule set's own value
    assert "Selection bias" in report["selection_bias"]
    difference = confirmation["score_difference"]  # winner − own value, paired on fresh seeds
    assert set(difference) == {"estimate", "low", "high"}
    assert confirmation["verdict"].startswith(("confirmed", "not confirmed"))
    search_seeds = set(read_results(next((tmp_path / "o" / "search").iterdir()))["seed"])
    fresh_seeds = set(read_results(next((tmp_path / "o" / "confirm").iterdir()))["seed"])
    assert not search_seeds & fresh_seeds


def test_sweep_mistakes_are_usage_errors() -> None:
    unknown = invoke("sweep", "--set", "hand_limits=7..9")
    assert unknown.exit_code == 2 and "hand_limit" in unknown.stderr  # lists the real ones
    backwards = invoke("sweep", "--set", "hand_limit=9..7")
    assert backwards.exit_code == 2 and "low to high" in backwards.stderr
    nothing = invoke("sweep")
    assert nothing.exit_code == 2 and "--set" in nothing.stderr
    target = invoke("search", "--set", "hand_limit=7..9", "--target", "speed=3")
    assert target.exit_code == 2 and "no measure 'speed'" in target.stderr


def test_a_value_the_rules_refuse_is_named_before_any_game(tmp_path: Path) -> None:
    """hand_limit may not pass hand_limit_cap (13): found when the command starts, not
    after the other values' games (nor as a traceback from inside the optimizer)."""
    for command in ("sweep", "search"):
        out = tmp_path / command
        result = invoke(command, "--set", "hand_limit=12..14", "--out", str(out))
        assert result.exit_code == 1, result.output
        assert "hand_limit=14: hand_limit_cap (13) is below hand_limit (14)" in result.stderr
        assert "Traceback" not in result.output
        assert not list(out.rglob("*.parquet"))  # no game played


def test_the_search_finds_a_minimum_and_scores_each_point_once() -> None:
    from ckdsl.sim.rule_search import search

    calls: list[int] = []

    def score(point: Any) -> float:
        calls.append(point[0][1])
        return abs(point[0][1] - 13)

    tried = search([("x", list(range(21)))], score, trials=12, seed=1)
    assert min(s for _, s in tried) == 0  # x = 13 found
    assert len(calls) == len(set(calls)) == len(tried)
    again = search([("x", list(range(21)))], lambda p: abs(p[0][1] - 13), trials=12, seed=1)
    assert again == tried  # seeded: the same search twice
