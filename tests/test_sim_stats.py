"""The statistics of ``ckdsl simulate`` / ``ckdsl compare``: published values, hand-computed
values and properties."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps  # type: ignore[import-untyped, unused-ignore]
from statsmodels.stats.proportion import (  # type: ignore[import-untyped, unused-ignore]
    confint_proportions_2indep,
)

from ckdsl.sim.stats.balance import seat_balance
from ckdsl.sim.stats.means import (
    block_means,
    diff_independent_mean,
    diff_paired_mean,
    mean_interval,
    pairing_gain,
)
from ckdsl.sim.stats.multiplicity import benjamini_hochberg, holm
from ckdsl.sim.stats.proportions import diff_independent, diff_paired, wilson
from ckdsl.sim.stats.results import Interval, json_float
from ckdsl.sim.stats.sprt import Sprt


def paired_table(both: int, only_a: int, only_b: int, neither: int) -> tuple[list[int], list[int]]:
    """Outcome arrays (a, b) with the given 2×2 table of paired binary outcomes."""
    a = [1] * both + [1] * only_a + [0] * only_b + [0] * neither
    b = [1] * both + [0] * only_a + [1] * only_b + [0] * neither
    return a, b


def dumps(data: object) -> str:
    return json.dumps(data, allow_nan=False)


# --- Wilson and Newcombe ---------------------------------------------------------------------


def test_wilson_matches_newcombe_1998a_table_i() -> None:
    # Newcombe (1998a), Stat Med 17:857, Table I: 81/263, Wilson score 0.2553 to 0.3662.
    interval = wilson(81, 263)
    assert interval.estimate == pytest.approx(81 / 263)
    assert interval.low == pytest.approx(0.2553, abs=5e-5)
    assert interval.high == pytest.approx(0.3662, abs=5e-5)
    assert interval.method == "wilson"


def test_wilson_matches_the_score_formula_and_the_level() -> None:
    x, n, level = 7, 40, 0.90
    z = sps.norm.ppf(0.95)
    p = x / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    interval = wilson(x, n, level)
    assert interval.low == pytest.approx(centre - half, rel=1e-9)
    assert interval.high == pytest.approx(centre + half, rel=1e-9)
    assert interval.level == level


def test_wilson_edges_and_no_data() -> None:
    assert wilson(0, 10).low == 0.0
    assert wilson(10, 10).high == 1.0
    empty = wilson(0, 0)
    assert (empty.estimate, empty.low, empty.high) == (None, None, None)
    assert empty.to_json()["estimate"] is None
    with pytest.raises(ValueError):
        wilson(11, 10)
    with pytest.raises(ValueError):
        wilson(1, 10, level=1.0)


@given(st.integers(0, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_lies_in_unit_interval_around_the_estimate(case: tuple[int, int]) -> None:
    x, n = case
    interval = wilson(x, n)
    if n == 0:
        assert interval.low is None
        return
    assert interval.low is not None and interval.high is not None
    assert 0.0 <= interval.low <= x / n <= interval.high <= 1.0


def test_diff_independent_matches_newcombe_1998b() -> None:
    # Newcombe (1998b), Stat Med 17:873, example (a): 56/70 − 48/80, method 10:
    # +0.0524 to +0.3339. Here A = 48/80 and B = 56/70, so B − A is the same difference.
    interval = diff_independent(48, 80, 56, 70)
    assert interval.estimate == pytest.approx(56 / 70 - 48 / 80)
    assert interval.low == pytest.approx(0.0524, abs=5e-5)
    assert interval.high == pytest.approx(0.3339, abs=5e-5)
    swapped = diff_independent(56, 70, 48, 80)
    assert swapped.low == pytest.approx(-0.3339, abs=5e-5)
    assert swapped.high == pytest.approx(-0.0524, abs=5e-5)


def test_diff_independent_with_an_empty_arm() -> None:
    interval = diff_independent(0, 0, 3, 10)
    assert (interval.estimate, interval.low, interval.high) == (None, None, None)


@given(
    st.integers(1, 300).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.integers(1, 300).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
)
def test_diff_independent_contains_its_estimate(
    arm_a: tuple[int, int], arm_b: tuple[int, int]
) -> None:
    interval = diff_independent(*arm_a, *arm_b)
    assert interval.estimate is not None and interval.low is not None
    assert interval.high is not None
    assert -1.0 <= interval.low <= interval.estimate <= interval.high <= 1.0


def test_diff_paired_matches_the_published_cavo_example() -> None:
    # Fagerland, Lydersen & Laake (2017), Statistical Analysis of Contingency Tables, ch. 8:
    # table 59, 6, 16, 80 (Cavo et al. 2012), Newcombe square-and-add (method 10):
    # estimate −0.0621, 95% CI −0.1186 to −0.0046 for p(first) − p(second). Here A is the
    # first measurement, and the estimate is B − A, so the signs flip.
    result = diff_paired(*paired_table(59, 6, 16, 80))
    assert (result.both, result.only_a, result.only_b, result.neither) == (59, 6, 16, 80)
    assert result.interval.estimate == pytest.approx(10 / 161)
    assert result.interval.low == pytest.approx(0.0046, abs=5e-5)
    assert result.interval.high == pytest.approx(0.1186, abs=5e-5)
    assert result.interval.method == "newcombe-paired-score"


def test_diff_paired_without_correlation_is_newcombes_independent_interval() -> None:
    # When both·neither − only_a·only_b lies in [0, n/2], Newcombe's corrected φ is 0 and
    # method 10 for paired data reduces to the square-and-add of the two Wilson intervals,
    # which is statsmodels' independent "newcomb" interval with both sample sizes n.
    both, only_a, only_b, neither = 1, 1, 7, 12  # 12 − 7 = 5 <= n/2 = 10.5
    n = both + only_a + only_b + neither
    result = diff_paired(*paired_table(both, only_a, only_b, neither))
    low, high = confint_proportions_2indep(
        both + only_b, n, both + only_a, n, method="newcomb", compare="diff"
    )
    assert result.interval.low == pytest.approx(low, rel=1e-9)
    assert result.interval.high == pytest.approx(high, rel=1e-9)


def test_diff_paired_is_narrower_than_independent_when_outcomes_agree() -> None:
    a, b = paired_table(59, 6, 16, 80)
    paired = diff_paired(a, b).interval
    independent = diff_independent(sum(a), len(a), sum(b), len(b))
    assert paired.width is not None and independent.width is not None
    assert paired.width < independent.width


def test_mcnemar_exact_and_chi_square() -> None:
    # 6 and 16 discordant pairs: exact two-sided binomial p = 2·P(X <= 6), X ~ Bin(22, 1/2).
    exact = diff_paired(*paired_table(59, 6, 16, 80))
    expected = 2 * sum(math.comb(22, k) for k in range(7)) / 2**22
    assert exact.mcnemar_method == "exact"
    assert exact.mcnemar_p == pytest.approx(expected, rel=1e-9)
    # 10 and 20 discordant pairs (>= 25): χ² with continuity correction (|10 − 20| − 1)²/30.
    chi2 = diff_paired(*paired_table(40, 10, 20, 30))
    assert chi2.mcnemar_method == "chi2-cc"
    assert chi2.mcnemar_p == pytest.approx(math.erfc(math.sqrt(81 / 30 / 2)), rel=1e-9)


def test_diff_paired_degenerate_tables() -> None:
    empty = diff_paired([], [])
    assert empty.n == 0 and empty.interval.estimate is None and empty.mcnemar_p is None
    assert dumps(empty.to_json())
    same = diff_paired([1] * 5, [1] * 5)
    assert same.interval.estimate == 0.0
    assert same.interval.contains(0.0)
    assert same.mcnemar_p == 1.0
    with pytest.raises(ValueError):
        diff_paired([0, 1, 2], [0, 1, 1])
    with pytest.raises(ValueError):
        diff_paired([0, 1], [0, 1, 1])


tables = st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))


@given(tables)
def test_diff_paired_contains_its_estimate_and_is_antisymmetric(
    table: tuple[int, int, int, int],
) -> None:
    both, only_a, only_b, neither = table
    a, b = paired_table(both, only_a, only_b, neither)
    result = diff_paired(a, b)
    interval = result.interval
    if not a:
        assert interval.low is None
        return
    assert interval.estimate is not None and interval.low is not None
    assert interval.high is not None
    assert -1.0 <= interval.low <= interval.estimate <= interval.high <= 1.0
    assert interval.estimate == pytest.approx((only_b - only_a) / len(a))
    # Swapping the arms, or coding wins as losses, mirrors the interval around 0.
    for other in (
        diff_paired(b, a).interval,
        diff_paired(1 - np.array(a), 1 - np.array(b)).interval,
    ):
        assert other.low == pytest.approx(-interval.high, abs=1e-12)
        assert other.high == pytest.approx(-interval.low, abs=1e-12)
    assert result.mcnemar_p is not None and 0.0 <= result.mcnemar_p <= 1.0


# --- Continuous metrics ----------------------------------------------------------------------


def test_t_interval_matches_the_textbook_formula() -> None:
    x = np.array([12.0, 15.0, 9.0, 11.0, 14.0, 10.0, 13.0])
    result = mean_interval(x, level=0.9)
    half = sps.t.ppf(0.95, df=6) * x.std(ddof=1) / math.sqrt(7)
    assert result.interval.low == pytest.approx(x.mean() - half, rel=1e-12)
    assert result.interval.high == pytest.approx(x.mean() + half, rel=1e-12)
    t = x.mean() / (x.std(ddof=1) / math.sqrt(7))
    assert result.p == pytest.approx(2 * sps.t.sf(t, df=6), rel=1e-9)
    assert result.test == "one-sample t" and result.sizes == (7,)


def test_paired_t_is_the_t_of_the_differences() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(80, 15, size=40)
    b = a + rng.normal(2, 3, size=40)
    paired = diff_paired_mean(a, b)
    on_differences = mean_interval(b - a)
    assert paired.estimate == pytest.approx(float(np.mean(b - a)))
    assert paired.interval.low == pytest.approx(on_differences.interval.low, rel=1e-12)
    assert paired.interval.high == pytest.approx(on_differences.interval.high, rel=1e-12)
    assert paired.p == pytest.approx(sps.ttest_rel(b, a).pvalue, rel=1e-12)
    assert paired.test == "paired t"
    # The same data analysed as independent samples loses the pairing: a far wider interval.
    welch = diff_independent_mean(a, b)
    assert welch.interval.width is not None and paired.interval.width is not None
    assert welch.interval.width > 3 * paired.interval.width


def test_welch_interval_matches_the_welch_satterthwaite_formula() -> None:
    a = np.array([3.0, 5.0, 4.0, 6.0, 2.0, 4.0])
    b = np.array([7.0, 9.0, 4.0, 12.0, 8.0, 10.0, 6.0, 11.0])
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = sps.t.ppf(0.975, df) * math.sqrt(va + vb)
    result = diff_independent_mean(a, b)
    d = b.mean() - a.mean()
    assert result.estimate == pytest.approx(d)
    assert result.interval.low == pytest.approx(d - half, rel=1e-9)
    assert result.interval.high == pytest.approx(d + half, rel=1e-9)
    assert result.p == pytest.approx(2 * sps.t.sf(d / math.sqrt(va + vb), df), rel=1e-9)
    assert result.test == "Welch t" and result.sizes == (6, 8)


def test_bootstrap_is_reproducible_with_its_seed() -> None:
    rng = np.random.default_rng(7)
    x = rng.exponential(30, size=60)
    first = mean_interval(x, method="bootstrap", seed=11, n_resamples=2000)
    again = mean_interval(x, method="bootstrap", seed=11, n_resamples=2000)
    other = mean_interval(x, method="bootstrap", seed=12, n_resamples=2000)
    assert first == again
    assert first.interval.method == "bootstrap-bca"
    assert (first.interval.low, first.interval.high) != (other.interval.low, other.interval.high)
    assert first.interval.contains(float(np.mean(x)))
    # Close to the t interval at this size, but not the same thing.
    t = mean_interval(x)
    assert first.interval.low != t.interval.low
    assert first.interval.low == pytest.approx(t.interval.low, rel=0.2)
    assert first.p == t.p  # the p-value is the t-test's


def test_bootstrap_of_paired_and_independent_differences() -> None:
    rng = np.random.default_rng(5)
    a = rng.normal(0, 1, size=50)
    b = a + 0.5 + rng.normal(0, 0.2, size=50)
    paired = diff_paired_mean(a, b, method="bootstrap", seed=1, n_resamples=2000)
    assert paired.interval.method == "bootstrap-bca"
    assert paired.interval.low is not None and paired.interval.low > 0.4
    assert paired.interval.high is not None and paired.interval.high < 0.6
    independent = diff_independent_mean(a, b, method="bootstrap", seed=1, n_resamples=2000)
    assert independent.interval.method == "bootstrap-bca"
    assert independent.interval.contains(0.5)
    assert diff_independent_mean(a, b, method="bootstrap", seed=1, n_resamples=2000) == (
        independent
    )


def test_constant_data_falls_back_to_percentile_without_crashing() -> None:
    ones = np.ones(12)
    boot = mean_interval(ones, method="bootstrap")
    assert boot.interval.method == "bootstrap-percentile"
    assert (boot.interval.low, boot.interval.high) == (1.0, 1.0)
    same = diff_paired_mean(ones, ones, method="bootstrap")
    assert same.interval.method == "bootstrap-percentile"
    assert same.interval.estimate == 0.0 and same.p is None
    t = diff_paired_mean(ones, ones)
    assert t.interval.estimate == 0.0 and t.p is None
    welch = diff_independent_mean(ones, 2 * ones, method="bootstrap")
    assert welch.interval.method == "bootstrap-percentile"
    for result in (boot, same, t, welch):
        assert dumps(result.to_json())


def test_too_few_values_give_no_interval() -> None:
    for method in ("t", "bootstrap"):
        empty = mean_interval([], method=method)
        assert empty.estimate is None and empty.interval.low is None and empty.p is None
        one = diff_paired_mean([1.0], [3.0], method=method)
        assert one.estimate == 2.0 and one.interval.low is None
        unpaired = diff_independent_mean([1.0], [2.0, 3.0], method=method)
        assert unpaired.estimate == 1.5 and unpaired.interval.high is None
    with pytest.raises(ValueError):
        mean_interval([1.0, float("nan")])
    with pytest.raises(ValueError):
        mean_interval([1.0, 2.0], method="wald")  # type: ignore[arg-type]


def test_block_means_reduce_rotations_to_one_value_per_seed() -> None:
    # Seat 1's wins in four rotations of seeds 30, 10 and 20 (games in any order).
    wins = [1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0]
    seeds = [30, 30, 30, 30, 10, 10, 10, 10, 20, 20, 20, 20]
    means = block_means(wins, seeds)
    assert means.tolist() == [0.75, 0.0, 0.25]  # in sorted seed order: 10, 20, 30
    assert block_means([1.5, 2.0, 4.0], ["b", "a", "b"]).tolist() == [2.0, 2.75]
    assert block_means([], []).size == 0
    with pytest.raises(ValueError):
        block_means([1, 2], [1])


def test_the_block_not_the_game_is_the_unit() -> None:
    # Four rotations that repeat the seed's outcome exactly carry no more information than
    # one game: analysed per block the interval is that of the seeds, while treating the
    # games as independent would shrink it by half (√4), a false precision.
    rng = np.random.default_rng(2)
    per_seed = rng.normal(0, 1, size=30)
    games = np.repeat(per_seed, 4)
    blocks = np.repeat(np.arange(30), 4)
    by_block = mean_interval(block_means(games, blocks)).interval
    by_game = mean_interval(games).interval
    assert by_block == mean_interval(per_seed).interval
    assert by_block.width is not None and by_game.width is not None
    assert by_game.width < 0.55 * by_block.width


# --- Pairing gain, seats, multiplicity -------------------------------------------------------


def test_pairing_gain_for_correlated_and_independent_samples() -> None:
    rng = np.random.default_rng(0)
    seed_effect = rng.normal(0, 10, size=2000)
    a = seed_effect + rng.normal(0, 3, size=2000)
    b = seed_effect + 5 + rng.normal(0, 3, size=2000)
    correlated = pairing_gain(a, b)
    assert correlated.correlation is not None and correlated.correlation > 0.85
    assert correlated.gain is not None and correlated.gain > 8
    assert correlated.var_paired == pytest.approx(np.var(a - b, ddof=1) / 2000)
    assert correlated.var_independent == pytest.approx(
        (np.var(a, ddof=1) + np.var(b, ddof=1)) / 2000
    )
    independent = pairing_gain(rng.normal(size=2000), rng.normal(size=2000))
    assert independent.gain == pytest.approx(1.0, abs=0.1)
    assert independent.correlation == pytest.approx(0.0, abs=0.1)


def test_pairing_gain_without_variance() -> None:
    flat = pairing_gain([1.0] * 5, [1.0] * 5)
    assert flat.var_paired == 0.0 and flat.gain is None and flat.correlation is None
    shifted = pairing_gain([1.0, 2.0, 3.0], [2.0, 3.0, 4.0])  # b = a + 1: infinite gain
    assert shifted.gain is None and shifted.correlation == pytest.approx(1.0)
    assert pairing_gain([1.0], [2.0]).var_paired is None
    assert dumps(flat.to_json()) and dumps(shifted.to_json())


def test_seat_balance_on_a_hand_computed_table() -> None:
    # 100 finished games, wins 30/20/25/25: χ² = (25 + 25 + 0 + 0)/25 = 2 on 3 dof, and
    # P(χ²₃ > x) = erfc(√(x/2)) + √(2x/π)·e^(−x/2).
    result = seat_balance([30, 20, 25, 25], finished_games=100)
    assert result.statistic == pytest.approx(2.0)
    assert result.dof == 3
    expected_p = math.erfc(1.0) + math.sqrt(4 / math.pi) * math.exp(-1.0)
    assert result.p == pytest.approx(expected_p, rel=1e-9)
    assert result.expected == (25.0, 25.0, 25.0, 25.0)
    assert seat_balance([60, 10, 15, 15], 100).p == pytest.approx(
        sps.chi2.sf((35**2 + 15**2 + 2 * 10**2) / 25, 3)
    )


def test_seat_balance_counts_finished_games_only() -> None:
    with pytest.raises(ValueError, match="finished games"):
        seat_balance([30, 20, 25, 25], finished_games=110)  # 10 timeouts are not wins
    none = seat_balance([0, 0, 0, 0], finished_games=0)
    assert none.statistic is None and none.p is None
    assert dumps(none.to_json())
    with pytest.raises(ValueError):
        seat_balance([5], 5)


def test_holm_on_a_hand_computed_family() -> None:
    # Sorted 0.005, 0.01, 0.03, 0.04 → ×4, ×3, ×2, ×1 = 0.02, 0.03, 0.06, 0.04 → running
    # maximum 0.02, 0.03, 0.06, 0.06. The untested metric (None) does not count in the family.
    adjusted = holm([0.01, 0.04, None, 0.03, 0.005], alpha=0.05)
    assert [q for q, _ in adjusted] == pytest.approx([0.03, 0.06, None, 0.06, 0.02])
    assert [s for _, s in adjusted] == [True, False, False, False, True]
    assert holm([]) == []
    assert holm([None, float("nan")]) == [(None, False), (None, False)]
    with pytest.raises(ValueError):
        holm([1.5])


def test_benjamini_hochberg_on_a_hand_computed_family() -> None:
    # Sorted 0.005, 0.01, 0.03, 0.04 → ×4/1, ×4/2, ×4/3, ×4/4 = 0.02, 0.02, 0.04, 0.04.
    adjusted = benjamini_hochberg([0.01, 0.04, 0.03, 0.005], alpha=0.05)
    assert [q for q, _ in adjusted] == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert all(s for _, s in adjusted)  # Holm keeps only two of these


def test_holm_is_statsmodels_holm_to_the_bit() -> None:
    # ckdsl's Holm is statsmodels' arithmetic without its gc.collect() (each call of
    # statsmodels' runs one: 0.1-0.6 s late in a worker, so three families): ties, zeros,
    # ones, a product exactly at alpha, and thirty at random.
    from statsmodels.stats.multitest import (  # type: ignore[import-untyped, unused-ignore]
        multipletests,
    )

    families = [
        [0.0125, 0.0125, 0.025, 0.05],  # 4 x 0.0125 is 0.05 exactly
        [0.0, 1.0, 0.5, 0.0, 1.0, 0.01],
        list(np.random.default_rng(7).random(30) / 20),
    ]
    for family in families:
        reject, adjusted, _, _ = multipletests(family, alpha=0.05, method="holm")
        expected = [(float(q), bool(r)) for q, r in zip(adjusted, reject, strict=True)]
        assert holm(family) == expected, family


@given(st.lists(st.one_of(st.none(), st.floats(0.0, 1.0)), max_size=12))
def test_holm_never_lowers_a_p_value(pvalues: list[float | None]) -> None:
    adjusted = holm(pvalues)
    assert len(adjusted) == len(pvalues)
    for p, (q, significant) in zip(pvalues, adjusted, strict=True):
        if p is None:
            assert (q, significant) == (None, False)
        else:
            assert q is not None and p <= q <= 1.0
            assert significant == (q <= 0.05)


# --- SPRT ------------------------------------------------------------------------------------


def test_sprt_bounds_are_fishtests() -> None:
    sprt = Sprt(p0=0.25, p1=0.28)
    assert sprt.lower_bound == pytest.approx(-2.944439, abs=1e-6)
    assert sprt.upper_bound == pytest.approx(2.944439, abs=1e-6)
    skewed = Sprt(p0=0.25, p1=0.28, alpha=0.01, beta=0.1)
    assert skewed.lower_bound == pytest.approx(math.log(0.1 / 0.99))
    assert skewed.upper_bound == pytest.approx(math.log(0.9 / 0.01))


def test_sprt_llr_is_the_normal_approximation() -> None:
    rng = np.random.default_rng(4)
    x = (rng.random(3000) < 0.27).astype(float)
    s0, s1 = 0.25, 0.28
    expected = x.size * (s1 - s0) * (2 * x.mean() - s0 - s1) / (2 * x.var())
    # Equal up to the 1e-3 pseudo-observations at 0 and 1 (fishtest's regularisation).
    assert Sprt(p0=s0, p1=s1).llr(x) == pytest.approx(expected, rel=1e-3)
    assert Sprt(p0=s0, p1=s1).llr([]) == 0.0


def test_sprt_on_differences_equals_the_sprt_on_pair_scores() -> None:
    rng = np.random.default_rng(8)
    d = rng.choice([-1.0, 0.0, 1.0], p=[0.1, 0.75, 0.15], size=500)
    on_differences = Sprt(p0=0.0, p1=0.03, low=-1.0, high=1.0)
    on_scores = Sprt(p0=0.5, p1=0.515)
    assert on_differences.llr(d) == pytest.approx(on_scores.llr((d + 1) / 2), rel=1e-12)
    with pytest.raises(ValueError):
        Sprt(p0=0.0, p1=0.03).llr(d)  # negative samples outside [0, 1]


def sequential(sprt: Sprt, p: float, rng: np.random.Generator, batch: int = 16) -> str:
    """Run ``sprt`` on Bernoulli(p) samples in batches until it decides."""
    x = np.zeros(0)
    while x.size < 50_000:
        x = np.concatenate([x, (rng.random(batch) < p).astype(float)])
        decision = sprt.status(x)
        if decision != "continue":
            return decision
    return "continue"


def test_sprt_decides_clear_cases() -> None:
    sprt = Sprt(p0=0.25, p1=0.30)
    rng = np.random.default_rng(9)
    assert all(sequential(sprt, 0.40, rng) == "accept_h1" for _ in range(20))
    assert all(sequential(sprt, 0.15, rng) == "accept_h0" for _ in range(20))
    result = sprt.result((rng.random(400) < 0.45).astype(float))
    assert result.decision == "accept_h1" and result.llr >= result.upper_bound
    assert dumps(result.to_json())


def test_sprt_error_rates_are_near_alpha_and_beta() -> None:
    sprt = Sprt(p0=0.25, p1=0.30)
    rng = np.random.default_rng(10)
    at_p0 = [sequential(sprt, 0.25, rng) for _ in range(150)]
    at_p1 = [sequential(sprt, 0.30, rng) for _ in range(150)]
    assert at_p0.count("accept_h1") / 150 <= 0.10
    assert at_p1.count("accept_h0") / 150 <= 0.10
    assert "continue" not in at_p0 + at_p1


def test_sprt_waits_for_min_samples_and_survives_constant_data() -> None:
    sprt = Sprt(p0=0.0, p1=0.03, low=-1.0, high=1.0)
    zeros = np.zeros(10)
    assert sprt.status(zeros) == "continue"  # fewer than min_samples = 16
    assert math.isfinite(sprt.llr(zeros))
    assert sprt.status(np.zeros(400)) == "accept_h0"  # 400 identical pairs: no effect
    assert Sprt(p0=0.0, p1=0.03, low=-1, high=1, min_samples=0).status([]) == "continue"
    for bad in (
        dict(p0=0.3, p1=0.3),
        dict(p0=0.2, p1=1.2),
        dict(p0=0.2, p1=0.3, alpha=0.6, beta=0.5),
    ):
        with pytest.raises(ValueError):
            Sprt(**bad)  # type: ignore[arg-type]


# --- JSON ------------------------------------------------------------------------------------


def test_json_numbers_are_rounded_and_finite() -> None:
    assert json_float(0.123456789) == 0.123457
    assert json_float(123456789.0) == 123457000.0
    assert json_float(float("nan")) is None
    assert json_float(float("inf")) is None
    assert json_float(None) is None
    assert str(json_float(-0.0)) == "0.0"
    interval = Interval(2 / 3, float("nan"), 1.0, "test")
    assert interval.to_json() == {
        "estimate": 0.666667,
        "low": None,
        "high": 1.0,
        "method": "test",
        "level": 0.95,
    }
    assert interval.format() == "0.667"
    assert wilson(81, 263).format(digits=1, scale=100, unit=" %") == ("30.8 % [25.5 %, 36.6 %]")
