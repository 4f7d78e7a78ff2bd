"""``ckdsl tune`` (CMA-ES over a bot's weights file) and ``ckdsl ladder`` (which bot is
stronger, by how much): their logic on games made up by hand, so they run in
milliseconds; the commands' real runs are in docs/bots.md."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import plainyaml
import pytest

from ckdsl.bots import make_bot
from ckdsl.commands.ladder import as_spec
from ckdsl.sim.experiment import Experiment
from ckdsl.sim.ladder import bootstrap_share, meetings_by_seed
from ckdsl.sim.tune import Settings, TuneError, leaves, replaced, tune

# (found, not imported: cma imports matplotlib's pyplot, 0.45 s of every worker's collection)
pytestmark = pytest.mark.skipif(importlib.util.find_spec("cma") is None, reason="no cma")


def test_leaves_and_replaced_walk_a_weights_file() -> None:
    data = {"version": 1, "weights": {"a": 2, "t": {"b": 1.5}, "levels": [0, 3]},
            "features": [{"name": "points", "coefficient": 0.5, "mean": 1}]}  # fmt: skip
    found = dict(leaves(data))
    assert found[("weights", "t", "b")] == 1.5 and found[("weights", "levels", "1")] == 3.0
    assert found[("features", "points", "coefficient")] == 0.5
    new = replaced(data, {("weights", "levels", "1"): 6.0, ("features", "points", "mean"): 2.0})
    assert new["weights"]["levels"] == [0, 6.0] and new["features"][0]["mean"] == 2.0
    assert data["weights"]["levels"] == [0, 3]  # the original unchanged


def _games(experiment: Experiment, score_of: float) -> pd.DataFrame:
    """Made-up games of a candidate: it wins the first ``round(score_of * n)`` of them."""
    keys = experiment.keys()
    wins = round(score_of * len(keys))
    return pd.DataFrame(
        {
            "rotation": [r for _, _, r in keys],
            "winner_seat": [r if k < wins else (r + 1) % 4 for k, (_, _, r) in enumerate(keys)],
            "points": [[13, 13, 13, 13]] * len(keys),
        }
    )


def test_tune_climbs_towards_the_better_weights_and_resumes_the_same(tmp_path: Path) -> None:
    """Made-up games whose win rate grows as weights.points nears 3 times its value:
    the search moves that way (a sign error would move it away), writes a weights file
    the heuristic loads, and a second run asks the same candidates in the same order
    (what resuming after a kill relies on)."""
    asked: list[float] = []

    def play(experiment: Experiment, folder: Path) -> pd.DataFrame:
        spec = experiment.lineups[0][0]
        params = dict(p.split("=", 1) for p in spec.split(":", 1)[1].split(","))
        data = plainyaml.safe_load(Path(params["weights"]).read_text())
        factor = data["weights"]["points"] / 100.0
        asked.append(factor)
        return _games(experiment, max(0.0, 1.0 - abs(np.log(factor / 3.0))))

    settings = Settings(bot="heuristic", against=("random",) * 3, budget=30, games=10,
                        only=("weights.points", "weights.production"), sigma=0.5)  # fmt: skip
    record = tune(settings, tmp_path / "a", play)
    first = list(asked)
    assert len(record["candidates"]) == 30
    best = record["best"]
    assert best["multipliers"]["weights.points"] > 1.5
    assert best["score"] == max(c["score"] for c in record["candidates"])
    written = plainyaml.safe_load((tmp_path / "a" / "best.yaml").read_text())
    assert written["weights"]["points"] == pytest.approx(
        100 * best["multipliers"]["weights.points"], rel=1e-3
    )
    make_bot(f"heuristic:weights={tmp_path / 'a' / 'best.yaml'}", 1)  # a file it loads
    asked.clear()
    tune(settings, tmp_path / "b", play)
    assert asked == first
    with pytest.raises(TuneError, match=r"no weight weights\.nope"):
        tune(Settings(bot="heuristic", against=("random",) * 3, budget=1, games=1,
                      only=("weights.nope",)), tmp_path / "c", play)  # fmt: skip
    with pytest.raises(TuneError, match="'random' has no weights"):
        tune(Settings(bot="random", against=("random",) * 3, budget=1, games=1), tmp_path, play)


def test_the_ladders_meetings_and_bootstrap_by_hand() -> None:
    """Two seeds: A ahead of B in all 4 meetings of seed 0 and in 1 of 4 (and a tie) of
    seed 1: 5.5 of 8, the interval resampling whole seeds (only 4/4 and 1.5/4 exist)."""
    df = pd.DataFrame(
        {
            "seed_index": [0, 0, 1, 1],
            "bots": [["A", "B", "C", "C"], ["B", "A", "C", "C"]] * 2,
            "points": [[10, 5, 3, 3], [5, 10, 3, 3], [10, 12, 3, 3], [7, 7, 3, 3]],
            "winner_seat": [0, 1, 1, -1],
        }
    )
    ahead, met = meetings_by_seed(df, ["A", "B", "C"])
    assert met[0, 0, 1] == 2 and met[1, 0, 1] == 2  # each game, once each way
    assert ahead[0, 0, 1] == 2 and ahead[1, 0, 1] == 0.5
    assert ahead[1, 1, 0] == 1.5
    share = bootstrap_share(ahead, met, 0, 1)
    assert share["estimate"] == pytest.approx(2.5 / 4)
    assert share["low"] == pytest.approx(0.25) and share["high"] == pytest.approx(1.0)
    # A third bot they both beat in every game it sat (C never wins, never ties them).
    assert bootstrap_share(ahead, met, 0, 2)["low"] == 1.0


def test_a_weights_file_in_a_ladder_names_its_bot(tmp_path: Path) -> None:
    model = tmp_path / "m.yaml"
    model.write_text("intercept: 0\nfeatures: []\n")
    weights = tmp_path / "w.yaml"
    weights.write_text("weights: {points: 1}\n")
    assert as_spec(str(model)) == f"learned:model={model.resolve()}"
    assert as_spec(str(weights)) == f"heuristic:weights={weights.resolve()}"
    assert as_spec("heuristic:weights=x.yaml") == "heuristic:weights=x.yaml"
