"""Seat statistics with the seed as the unit, and planning: checked against statsmodels,
scipy and hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps  # type: ignore[import-untyped, unused-ignore]
from statsmodels.stats import multivariate  # type: ignore[import-untyped, unused-ignore]
from statsmodels.stats.proportion import (  # type: ignore[import-untyped, unused-ignore]
    proportion_confint,
)

from ckdsl.sim.compare.sensitivity import correct, interactions, lineup_name
from ckdsl.sim.compare.summaries import turn_edges
from ckdsl.sim.stats.planning import equivalence, minimum_detectable_effect, seeds_needed
from ckdsl.sim.stats.seeds import (
    clustered_wilson,
    equal_means_test,
    seat_balance_by_seed,
    seat_change,
    seat_shares,
)


def games(winners: list[list[int]]) -> pd.DataFrame:
    """A game table: seed i's games were won by the seats in winners[i] (-1: unfinished)."""
    rows = [(i, w) for i, seed in enumerate(winners) for w in seed]
    data = {f"win_seat_{s + 1}": [float(w == s) for _, w in rows] for s in range(4)}
    data["block"] = [i for i, _ in rows]
    return pd.DataFrame(data)


def test_equal_means_is_hotelling_on_contrasts() -> None:
    y = np.random.default_rng(3).normal(size=(40, 4)) + np.array([0.0, 0.1, 0.3, 0.0])
    result = equal_means_test(y)
    reference = multivariate.test_mvmean(y[:, :3] - y[:, 3:], np.zeros(3))
    assert result.t2 == pytest.approx(float(reference.t2), rel=1e-9)
    assert result.f == pytest.approx(float(reference.statistic), rel=1e-9)
    assert (result.df1, result.df2) == (3, 37)
    assert result.p == pytest.approx(float(reference.pvalue), rel=1e-9)
    assert result.p_wald == pytest.approx(float(sps.chi2.sf(reference.t2, 3)), rel=1e-9)


def test_two_columns_reduce_to_the_paired_t_test() -> None:
    y = np.random.default_rng(5).normal(size=(25, 2)) + np.array([0.0, 0.4])
    result = equal_means_test(y)
    t = sps.ttest_rel(y[:, 0], y[:, 1])
    assert result.t2 == pytest.approx(float(t.statistic) ** 2, rel=1e-9)
    assert result.p == pytest.approx(float(t.pvalue), rel=1e-9)


def test_no_variation_gives_no_test() -> None:
    assert equal_means_test(np.ones((10, 4))).p is None
    assert equal_means_test(np.zeros((1, 4))).p is None


def test_shares_are_per_seed_and_count_unfinished_games() -> None:
    table = games([[0, 0, 1, -1], [3, 3, 3, 3]])
    ids, shares = seat_shares(table, 4)
    assert ids.tolist() == [0, 1]
    assert shares.tolist() == [[0.5, 0.25, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]


def test_per_seat_interval_counts_copies_of_a_game_once() -> None:
    rng = np.random.default_rng(7)
    # Each seed's four rotations are won by the same seat: four copies of one game.
    winners = [[int(w)] * 4 for w in rng.integers(0, 4, size=60)]
    result = seat_balance_by_seed(games(winners), 4)
    for s in range(4):
        wins = sum(w[0] == s for w in winners)
        # The design effect is the cluster size, 4 (times 60/59: the seeds' ddof), so the
        # interval is Wilson's over 240 / (4 · 60/59) = 59 games (statsmodels' Wilson).
        assert result.design_effects[s] == pytest.approx(4 * 60 / 59)
        low, high = proportion_confint(wins / 60 * 59, 59, method="wilson")
        assert (result.rates[s].low, result.rates[s].high) == pytest.approx((low, high))
        assert result.rates[s].estimate == pytest.approx(wins / 60)
    assert result.games_per_seed == 4


def test_clustered_wilson_is_wilson_without_clusters_and_when_nobody_wins() -> None:
    interval, deff = clustered_wilson([1, 0, 0, 1, 1], [1] * 5, [0, 1, 2, 3, 4])
    assert (interval.low, interval.high) == pytest.approx(proportion_confint(3, 5, method="wilson"))
    assert deff == 1.0
    none, undefined = clustered_wilson([0] * 8, [1] * 8, [0, 0, 1, 1, 2, 2, 3, 3])
    assert undefined is None
    assert (none.low, none.high) == pytest.approx(proportion_confint(0, 4, method="wilson"))


def test_seat_change_is_the_test_of_the_paired_share_changes() -> None:
    rng = np.random.default_rng(11)
    a = games([[int(w) for w in rng.integers(0, 4, size=4)] for _ in range(50)])
    b = games([[int(w) for w in rng.integers(0, 4, size=4)] for _ in range(50)])
    _, sa = seat_shares(a, 4)
    _, sb = seat_shares(b, 4)
    reference = multivariate.test_mvmean((sb - sa)[:, :3] - (sb - sa)[:, 3:], np.zeros(3))
    assert seat_change(a, b, 4).p == pytest.approx(float(reference.pvalue), rel=1e-9)


def test_tost_matches_two_one_sided_t_tests() -> None:
    rng = np.random.default_rng(2)
    a = rng.normal(size=80)
    b = a + rng.normal(0.01, 0.1, size=80)
    d = b - a
    lower = sps.ttest_1samp(d, -0.05, alternative="greater").pvalue
    upper = sps.ttest_1samp(d, 0.05, alternative="less").pvalue
    result = equivalence(a, b, 0.05, 0.05, different=False)
    assert result.p == pytest.approx(max(lower, upper), rel=1e-9)
    assert result.equivalent and result.verdict == "equivalent"
    ci = sps.ttest_1samp(d, 0.0).confidence_interval(0.90)
    assert (result.interval.low, result.interval.high) == pytest.approx((ci.low, ci.high))
    wide = equivalence(a, b, 0.005, 0.05, different=False)
    assert not wide.equivalent and wide.verdict == "inconclusive"
    assert equivalence(a, b, 0.05, 0.05, different=True).verdict == "different, within the margin"


def test_power_planning_matches_the_textbook_and_the_noncentral_t() -> None:
    # Cohen's d = 0.5, α = 0.05 two-sided, 80 % power: 34 pairs (33.4 rounded up).
    assert seeds_needed(2.0, 1.0, 0.05, 0.8) == 34
    mde = minimum_detectable_effect(2.0, 34, 0.05, 0.8)
    assert mde is not None
    df, crit = 33, sps.t.ppf(0.975, 33)
    shift = mde / 2.0 * math.sqrt(34)
    power = sps.nct.sf(crit, df, shift) + sps.nct.cdf(-crit, df, shift)
    assert power == pytest.approx(0.8, abs=1e-4)
    assert seeds_needed(0.0, 1.0, 0.05, 0.8) is None


def lineup_games(effects: list[float], seeds: int, rng: np.random.Generator) -> tuple:
    """Matched base and variant game tables: two rotations per seed and line-up, the
    variant adding effects[line-up] (plus a seed's noise) to 'walls'."""
    rows = [(i, str(u)) for i in range(seeds) for u in range(len(effects)) for _ in range(2)]
    base = rng.normal(size=len(rows))
    shift = np.asarray([effects[int(u)] for _, u in rows]) + rng.normal(size=len(rows))
    keys = {"block": [i for i, _ in rows], "lineup": [u for _, u in rows]}
    return pd.DataFrame({**keys, "walls": base}), pd.DataFrame({**keys, "walls": base + shift})


def test_interaction_of_two_lineups_is_the_paired_t_of_the_effects() -> None:
    a, b = lineup_games([0.1, -1.0], 40, np.random.default_rng(4))
    names = {"0": "heuristic×4", "1": "cautious×4"}
    (found,) = correct(interactions("limit9", a, b, [("walls", "walls", "", 1.0)], names))
    d = (b["walls"] - a["walls"]).groupby([a["block"], a["lineup"]]).mean().unstack()
    t = sps.ttest_rel(d["1"], d["0"])
    assert found.test.p == pytest.approx(float(t.pvalue), rel=1e-9)
    first = sps.ttest_1samp(d["0"], 0.0)
    assert found.effects[0].p == pytest.approx(float(first.pvalue), rel=1e-9)
    assert found.effects[1].versus_first_p == pytest.approx(float(t.pvalue), rel=1e-9)
    assert found.significant
    assert found.verdict().startswith("limit9: the effect on walls depends on the line-up")
    assert "with cautious×4" in found.verdict()


def test_three_lineups_without_interaction_say_so() -> None:
    a, b = lineup_games([0.5, 0.5, 0.5], 60, np.random.default_rng(8))
    names = {"0": "a", "1": "b", "2": "c"}
    (found,) = correct(interactions("v", a, b, [("walls", "walls", "", 1.0)], names))
    assert (found.test.df1, found.test.df2) == (2, 58)
    assert "does not detectably depend" in found.verdict()


def test_lineup_names_are_short() -> None:
    assert lineup_name(["heuristic:weights=bundled,version=3"] * 4) == "heuristic×4"
    cautious = ["heuristic:weights=cautious.yaml"] * 2
    assert lineup_name(["heuristic:weights=bundled"] * 2, cautious) == "heuristic:weights=bundled×2"
    assert lineup_name(["mcts", "heuristic", "heuristic", "random"]) == "mcts, heuristic×2, random"


def test_turn_bins_hold_whole_turns() -> None:
    turns = np.random.default_rng(1).integers(31, 175, size=800)
    edges = turn_edges(turns)
    assert edges is not None
    widths = np.diff(edges)
    assert np.all(widths == widths[0]) and widths[0] == round(widths[0]) >= 1
    assert edges[0] == turns.min() - 0.5 and edges[-1] >= turns.max() + 0.5
    assert len(widths) <= 40
    assert turn_edges([np.nan]) is None
    assert turn_edges([100.0, 100.0]).tolist() == [99.5, 100.5]
