"""``ckdsl report DIR`` and ``ckdsl plan DIR`` on a stored comparison, ``--margin`` and
``--lineups``: their numbers against scipy/statsmodels computed from the stored rows."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import click
import numpy as np
import pytest
from statsmodels.stats.power import TTestPower  # type: ignore[import-untyped, unused-ignore]
from statsmodels.stats.weightstats import (  # type: ignore[import-untyped, unused-ignore]
    ttost_paired,
)

from ckdsl.commands.compare import parse_lineups, parse_margins
from ckdsl.sim.store import read_results

REPO = Path(__file__).resolve().parent.parent
FIFTEEN = str(REPO / "examples" / "variants" / "fifteen_points.yaml")


def _run(*args: str) -> Any:
    from click.testing import CliRunner

    from ckdsl.cli import cli

    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("stored") / "runs"
    played = _run("compare", "base", FIFTEEN, "--players", "random,random,random,random",
                  "--games", "6", "--rotate-seats", "--jobs", "1", "--seed", "3", "--out",
                  str(folder), "--json", "--margin", "turns=60")  # fmt: skip
    assert played.exit_code == 0, played.output
    return {"folder": folder, "json": json.loads(played.stdout)}


def per_seed(folder: Path, column: str) -> np.ndarray:
    """Per-seed mean of a column, variant − base, from the stored rows."""
    means = []
    for label in ("base", "fifteen_points"):
        frame = read_results(folder / label)
        if column.startswith("win_seat_"):
            seat = int(column.rsplit("_", 1)[1]) - 1
            values = (frame["winner_seat"] == seat) & frame["finished"]
        else:
            values = frame[column]
        means.append(values.astype(float).groupby(frame["seed_index"]).mean().to_numpy())
    return means[1] - means[0]


@pytest.mark.slow
@pytest.mark.xdist_group("stored_report")  # one worker makes the stored folder for all
def test_report_rerenders_the_stored_comparison(stored: dict[str, Any]) -> None:
    again = _run("report", str(stored["folder"]), "--json", "--margin", "turns=60")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == stored["json"]
    table = _run("report", str(stored["folder"]), "--table", "csv")
    rows = list(csv.DictReader(io.StringIO(table.stdout)))
    assert rows[0]["metric"] == "seat_balance" and rows[0]["family"] == "headline"
    turns = next(r for r in rows if r["metric"] == "turns")
    assert float(turns["delta"]) == pytest.approx(per_seed(stored["folder"], "turns").mean(), 1e-5)
    latex = _run("report", str(stored["folder"]), "--table", "latex").stdout
    assert latex.startswith("\\begin{tabular}") and "\\bottomrule" in latex


@pytest.mark.xdist_group("stored_report")
def test_margin_gives_the_tost_verdict_of_statsmodels(stored: dict[str, Any]) -> None:
    headline = stored["json"]["comparisons"][0]["headline"]
    turns = next(d for d in headline if d["metric"] == "turns")
    d = per_seed(stored["folder"], "turns")
    expected = ttost_paired(d, np.zeros(d.size), -60, 60)[0]
    assert turns["equivalence"]["p"] == pytest.approx(expected, rel=1e-5)
    assert turns["equivalence"]["margin"] == 60
    size = TTestPower().solve_power(nobs=d.size, alpha=0.05, power=0.8)
    assert turns["mde"] == pytest.approx(size * np.std(d, ddof=1), rel=1e-5)


@pytest.mark.xdist_group("stored_report")
def test_plan_solves_the_power_equation_on_the_pilot(stored: dict[str, Any]) -> None:
    out = _run("plan", str(stored["folder"]), "--delta", "0.1", "--metric", "seat4_win", "--json")
    assert out.exit_code == 0, out.output
    plan = json.loads(out.stdout)
    d = per_seed(stored["folder"], "win_seat_4")
    sd = float(np.std(d, ddof=1))
    assert plan["sd_per_seed_difference"] == pytest.approx(sd)
    n = TTestPower().solve_power(effect_size=0.1 / sd, alpha=0.05, power=0.8)
    assert plan["seeds_needed"] == int(np.ceil(n))
    text = _run("plan", str(stored["folder"]), "--delta", "0.1", "--metric", "seat4_win")
    assert f"{plan['seeds_needed']} seeds" in text.stdout


@pytest.mark.xdist_group("stored_report")
def test_report_refuses_a_folder_of_one_rule_set(stored: dict[str, Any]) -> None:
    out = _run("report", str(stored["folder"] / "base"))
    assert out.exit_code != 0 and "one rule set" in out.output
    unknown = _run("report", str(stored["folder"]), "--headline", "turns,no_such_metric")
    assert unknown.exit_code == 2 and "no metric named 'no_such_metric'" in unknown.output


def test_lineups_and_margins_parse() -> None:
    teams = parse_lineups("random*3,random ; random, random*3")
    assert [len(t) for t in teams] == [4, 4]
    with pytest.raises(click.BadParameter, match="empty line-up"):
        parse_lineups("random*4 ; ")
    assert parse_margins(["0.03", "turns=2"]) == {"*pp": 0.03, "turns": 2.0}
    with pytest.raises(click.BadParameter, match="positive"):
        parse_margins(["turns=-1"])
