"""Means over seeds: t or bootstrap (BCa) intervals for one mean and for a paired or independent
difference, and the gain of pairing.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, SupportsFloat

import numpy as np
import numpy.typing as npt
from scipy import stats as sps  # type: ignore[import-untyped, unused-ignore]

from ckdsl.sim.stats.results import (
    _T,
    FloatArray,
    Interval,
    MeanMethod,
    _as_1d,
    _check_level,
    _opt,
    _pair,
    json_float,
)

__all__ = [
    "MeanResult",
    "PairingGain",
    "block_means",
    "diff_independent_mean",
    "diff_paired_mean",
    "mean_interval",
    "pairing_gain",
]

# --- Continuous metrics --------------------------------------------------------------------


@dataclass(frozen=True)
class MeanResult:
    """A mean (or a difference of means), its interval and the t-test's two-sided p-value.

    ``test`` names the test behind ``p`` (``"one-sample t"``, ``"paired t"``, ``"Welch t"``);
    ``interval.method`` names the interval (``"t"``, ``"bootstrap-bca"``,
    ``"bootstrap-percentile"``). ``sizes``: the number of units of each sample.
    """

    interval: Interval
    p: float | None
    test: str
    sizes: tuple[int, ...]

    @property
    def estimate(self) -> float | None:
        return self.interval.estimate

    def to_json(self) -> dict[str, object]:
        return {
            "interval": self.interval.to_json(),
            "p": json_float(self.p),
            "test": self.test,
            "sizes": list(self.sizes),
        }


def _quiet(function: Callable[[], _T]) -> _T:
    """Run a scipy call without its warnings about degenerate data (handled by the caller)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", sps.DegenerateDataWarning)
        return function()


def _bootstrap(
    samples: tuple[FloatArray, ...],
    statistic: Callable[..., object],
    level: float,
    seed: int,
    n_resamples: int,
) -> tuple[float | None, float | None, str]:
    """BCa interval by ``scipy.stats.bootstrap``; the percentile interval of the same bootstrap
    distribution when BCa fails (degenerate data). Returns (low, high, method)."""
    result = _quiet(
        lambda: sps.bootstrap(
            samples,
            statistic,
            n_resamples=n_resamples,
            confidence_level=level,
            method="BCa",
            vectorized=True,
            rng=np.random.default_rng(seed),  # scipy's name for ``random_state`` since 1.15
        )
    )
    low, high = _opt(result.confidence_interval.low), _opt(result.confidence_interval.high)
    if low is not None and high is not None:
        return low, high, "bootstrap-bca"
    result = _quiet(
        lambda: sps.bootstrap(
            samples,
            statistic,
            n_resamples=0,
            bootstrap_result=result,
            confidence_level=level,
            method="percentile",
            vectorized=True,
            rng=np.random.default_rng(seed),
        )
    )
    low, high = _opt(result.confidence_interval.low), _opt(result.confidence_interval.high)
    return low, high, "bootstrap-percentile"


def _mean(x: FloatArray, axis: int = -1) -> FloatArray | np.float64:
    """The means along ``axis`` (a scalar for one-dimensional ``x``): a bootstrap statistic."""
    means: FloatArray | np.float64 = np.mean(x, axis=axis)
    return means


def _mean_difference(x: FloatArray, y: FloatArray, axis: int = -1) -> FloatArray | np.float64:
    differences: FloatArray | np.float64 = np.mean(y, axis=axis) - np.mean(x, axis=axis)
    return differences


def _check_method(method: str, n_resamples: int) -> None:
    if method not in ("t", "bootstrap"):
        raise ValueError(f"method must be 't' or 'bootstrap', not {method!r}")
    if n_resamples < 1:
        raise ValueError("n_resamples must be positive")


class _Bounds(Protocol):
    """The confidence interval of a scipy t-test result."""

    @property
    def low(self) -> SupportsFloat: ...
    @property
    def high(self) -> SupportsFloat: ...


class _TTest(Protocol):
    """What this module uses of the results of ``scipy.stats.ttest_1samp`` and
    ``ttest_rel`` (scipy has no type annotations): the p-value and the interval."""

    @property
    def pvalue(self) -> SupportsFloat: ...
    def confidence_interval(self, confidence_level: float = 0.95) -> _Bounds: ...


def _one_sample(
    x: FloatArray,
    level: float,
    method: MeanMethod,
    seed: int,
    n_resamples: int,
    test: str,
    run_test: Callable[[], _TTest],
) -> MeanResult:
    """Mean of ``x`` with a t or bootstrap interval; ``run_test()`` is the t-test of ``x``."""
    n = int(x.size)
    estimate = float(np.mean(x)) if n else None
    if n < 2:
        name = "t" if method == "t" else "bootstrap"
        return MeanResult(Interval(estimate, None, None, name, level), None, test, (n,))
    ttest = _quiet(run_test)
    if method == "t":
        ci = _quiet(lambda: ttest.confidence_interval(level))
        low, high, name = _opt(ci.low), _opt(ci.high), "t"
    else:
        low, high, name = _bootstrap((x,), _mean, level, seed, n_resamples)
    interval = Interval(estimate, low, high, name, level)
    return MeanResult(interval, _opt(ttest.pvalue), test, (n,))


def mean_interval(
    x: npt.ArrayLike,
    level: float = 0.95,
    method: MeanMethod = "t",
    seed: int = 0,
    *,
    n_resamples: int = 9999,
    null: float = 0.0,
) -> MeanResult:
    """The mean of ``x`` (one value per seed) with a t or bootstrap interval.

    ``method="t"``: Student's t interval and one-sample t-test of mean == ``null``
    (``scipy.stats.ttest_1samp``). ``method="bootstrap"``: BCa by ``scipy.stats.bootstrap``
    with ``numpy.random.default_rng(seed)``, so the same seed gives the same interval, falling
    back to the percentile interval when BCa fails on degenerate data (``interval.method``
    says which); the p-value is still the t-test's. Fewer than two values: no interval.

    Pass one value per seed (:func:`block_means`), not one per game.
    """
    _check_level(level)
    _check_method(method, n_resamples)
    values = _as_1d(x, "x")
    return _one_sample(
        values,
        level,
        method,
        seed,
        n_resamples,
        "one-sample t",
        lambda: sps.ttest_1samp(values, null),
    )


def diff_paired_mean(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    level: float = 0.95,
    method: MeanMethod = "t",
    seed: int = 0,
    *,
    n_resamples: int = 9999,
) -> MeanResult:
    """The paired difference ``mean(b − a)``: ``a[i]`` and ``b[i]`` are seed i under A and B.

    ``method="t"``: paired t interval and ``scipy.stats.ttest_rel``. ``method="bootstrap"``:
    BCa (or percentile, see :func:`mean_interval`) over the per-seed differences, i.e.
    resampling whole seeds, with the paired t-test's p-value.

    Clustering: when each seed is played in several seat rotations, the seed (the rotation
    block) is the unit. Reduce ``a`` and ``b`` to one value per seed with :func:`block_means`,
    over the same block ids in the same order, before calling this.
    """
    _check_level(level)
    _check_method(method, n_resamples)
    x, y = _pair(a, b)
    return _one_sample(
        y - x, level, method, seed, n_resamples, "paired t", lambda: sps.ttest_rel(y, x)
    )


def diff_independent_mean(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    level: float = 0.95,
    method: MeanMethod = "t",
    seed: int = 0,
    *,
    n_resamples: int = 9999,
) -> MeanResult:
    """The difference ``mean(b) − mean(a)`` of two independent samples (different seeds).

    ``method="t"``: Welch's t interval and test (``scipy.stats.ttest_ind(equal_var=False)``),
    which does not assume equal variances. ``method="bootstrap"``: two-sample bootstrap (each
    sample resampled on its own), BCa falling back to percentile, with Welch's p-value.
    For a paired design use :func:`diff_paired_mean`: it is more precise.
    """
    _check_level(level)
    _check_method(method, n_resamples)
    x, y = _as_1d(a, "a"), _as_1d(b, "b")
    sizes = (int(x.size), int(y.size))
    estimate = float(np.mean(y) - np.mean(x)) if x.size and y.size else None
    if min(sizes) < 2:
        name = "t" if method == "t" else "bootstrap"
        return MeanResult(Interval(estimate, None, None, name, level), None, "Welch t", sizes)
    welch = _quiet(lambda: sps.ttest_ind(y, x, equal_var=False))
    if method == "t":
        ci = _quiet(lambda: welch.confidence_interval(level))
        low, high, name = _opt(ci.low), _opt(ci.high), "t"
    else:
        low, high, name = _bootstrap((x, y), _mean_difference, level, seed, n_resamples)
    interval = Interval(estimate, low, high, name, level)
    return MeanResult(interval, _opt(welch.pvalue), "Welch t", sizes)


def block_means(values: npt.ArrayLike, blocks: npt.ArrayLike) -> FloatArray:
    """The mean of ``values`` per block id, in sorted block order (``numpy.unique(blocks)``).

    The analysis unit of an experiment is the seed: the games of one seed (its seat
    rotations) share the board and the dice, so they are not independent. Reduce per-game
    values to one number per seed with this function, then pass the per-seed means of A and
    of B (same block ids, hence the same order) to :func:`diff_paired_mean`,
    :func:`pairing_gain` or :meth:`Sprt.result`. A binary per-game outcome becomes a per-seed
    rate (e.g. the share of the seed's rotations in which seat 1 won).
    """
    data = _as_1d(values, "values")
    ids = np.asarray(blocks)
    if ids.ndim != 1 or ids.shape != data.shape:
        raise ValueError(f"blocks must be one-dimensional and as long as values ({data.size})")
    if data.size == 0:
        return np.zeros(0, dtype=np.float64)
    _, inverse = np.unique(ids, return_inverse=True)
    totals = np.bincount(inverse, weights=data)
    counts = np.bincount(inverse)
    means: FloatArray = (totals / counts).astype(np.float64)
    return means


# --- Pairing, seats, multiplicity ----------------------------------------------------------


@dataclass(frozen=True)
class PairingGain:
    """How much pairing helped: variance of the mean difference, paired against independent.

    ``var_paired`` = var(a − b)/n; ``var_independent`` = (var(a) + var(b))/n (sample
    variances); ``gain`` = var_independent / var_paired: how many times more seeds an
    unpaired design would need for the same precision. ``correlation``: Pearson's r of a and
    b. None where undefined (fewer than two seeds, zero variance).
    """

    var_paired: float | None
    var_independent: float | None
    gain: float | None
    correlation: float | None
    n: int

    def to_json(self) -> dict[str, object]:
        return {
            "var_paired": json_float(self.var_paired),
            "var_independent": json_float(self.var_independent),
            "gain": json_float(self.gain),
            "correlation": json_float(self.correlation),
            "n": self.n,
        }


def pairing_gain(a: npt.ArrayLike, b: npt.ArrayLike) -> PairingGain:
    """The variance reduction that pairing A and B on the same seeds achieved.

    Since var(a − b) = var(a) + var(b) − 2 cov(a, b), ``gain`` > 1 when the outcomes of a seed
    under A and B are positively correlated, ≈ 1 when they are independent. A gain ≤ 1 on a
    paired experiment means the seeds did not synchronise the games (e.g. one shared random
    stream that desynchronises as soon as the bots' choices diverge).
    """
    x, y = _pair(a, b)
    n = int(x.size)
    if n < 2:
        return PairingGain(None, None, None, None, n)
    var_a, var_b = float(np.var(x, ddof=1)), float(np.var(y, ddof=1))
    var_paired = float(np.var(x - y, ddof=1)) / n
    var_independent = (var_a + var_b) / n
    gain = var_independent / var_paired if var_paired > 0 else None
    correlation = None
    if var_a > 0 and var_b > 0:
        correlation = _opt(sps.pearsonr(x, y).statistic)
    return PairingGain(var_paired, var_independent, gain, correlation, n)
