"""Statistics for comparing a rule set A (the base) with a variant B on paired seeds.

Every function here is pure and deterministic (the bootstrap takes an explicit seed), returns a
small frozen dataclass, and each result has ``to_json()``: plain JSON data, floats rounded to 6
significant digits, NaN and infinities as ``None``. Differences are always **B − A**.

Which method for what, and why
------------------------------

==========================================  ===============================================
Question                                    Method
==========================================  ===============================================
one proportion (a seat's win rate,          Wilson score interval (:func:`wilson`)
completion, timeouts)
difference of two proportions from          Newcombe's hybrid score interval, "method 10"
independent games                           (:func:`diff_independent`)
difference of two proportions on the        Newcombe's paired "method 10" interval and the
same seeds, one 0/1 outcome per seed        McNemar test (:func:`diff_paired`)
mean of a continuous metric (turns,         t interval, or bootstrap BCa over seeds
VP margin, a per-seed win rate)             (:func:`mean_interval`)
its paired difference B − A                 paired t, or bootstrap BCa of the per-seed
                                            differences (:func:`diff_paired_mean`)
its difference on unpaired designs          Welch t, or a two-sample bootstrap
                                            (:func:`diff_independent_mean`)
was the pairing worth it?                   variance of the paired against the unpaired mean
                                            difference (:func:`pairing_gain`)
are the seats balanced?                     χ² goodness of fit to equal shares
                                            (:func:`seat_balance`)
many metrics at once                        Holm (family-wise error) for the headline
                                            metrics, Benjamini–Hochberg (false discovery
                                            rate) for an exploratory panel (:func:`holm`,
                                            :func:`benjamini_hochberg`)
stop as soon as the answer is clear         fishtest's generalised SPRT on a bounded mean
                                            (:class:`Sprt`)
==========================================  ===============================================

- **Wilson, not Wald.** The Wald interval p ± z·√(p(1−p)/n) collapses to a point at 0 and 1
  and undercovers near them; Wilson's score interval (Wilson 1927) stays inside [0, 1] and
  keeps close to its nominal coverage (Newcombe 1998a, Stat Med 17:857). Clopper–Pearson is
  needlessly conservative for reports.
- **Newcombe's square-and-add intervals** combine the two Wilson intervals (Newcombe 1998b,
  Stat Med 17:873, method 10; Newcombe 1998c, Stat Med 17:2635, method 10 for paired data).
  They behave well at small counts and at 0 % and 100 %, where the Wald difference fails.
- **Pairing (common random numbers).** Playing each seed under A and B makes the outcomes
  positively correlated, and the variance of the paired difference is
  var(A) + var(B) − 2·cov(A, B): measurements on catanatron found 2× to 12× fewer games for
  the same precision. So a paired design must be analysed with paired methods (McNemar,
  Newcombe's paired interval, paired t); an independent-samples method throws the gain away.
  :func:`pairing_gain` reports how much was gained, as a diagnostic.
- **The unit of analysis is the seed, never the game.** Experiments play each seed in several
  seat rotations; the games of one seed share the board and the dice and are not independent.
  Reduce every metric to one number per seed first with :func:`block_means` (for example the
  share of the seed's rotations that seat 1 won), in the same block order for A and B, then
  compare with :func:`diff_paired_mean` or run the SPRT on the per-seed differences. Treating
  the games of a block as independent would understate every standard error.
  :func:`diff_paired` (binary, McNemar) is for designs with one 0/1 outcome per seed.
- **t and bootstrap.** With a few hundred seeds the t interval on per-seed values is close to
  its nominal coverage even for skewed metrics (central limit theorem). The bootstrap (BCa,
  Efron 1987, JASA 82:171, resampling whole seeds) makes no normality assumption: use it for
  strongly skewed metrics or as a check on the t interval (it too wants a few dozen seeds
  at least). BCa needs a spread in the data; on degenerate data (every value
  equal, for instance) it cannot be computed, and the percentile interval of the same
  bootstrap distribution is reported instead: ``method`` says which was used. The p-value
  always comes from the t-test (``test`` says which); scipy's bootstrap gives no p-value.
- **Seat balance.** The χ² omnibus test of wins across seats comes before any claim about a
  single seat; only finished games have a winner, so the test counts those.
- **Multiplicity.** In a report of twenty unchanged metrics, expect one "significant"
  difference at 5 % by chance alone. Holm (1979, Scand J Stat 6:65) controls the family-wise
  error and is never less powerful than Bonferroni; Benjamini–Hochberg (1995, JRSS B
  57:289) controls the false discovery rate, fit for screening many exploratory metrics.
- **Sequential testing.** Fishtest's generalised SPRT stops a run as soon as the
  log-likelihood ratio of H1 (mean = p1) against H0 (mean = p0) crosses ln(β/(1−α)) or
  ln((1−β)/α), with error rates close to α and β; it needs far fewer games than a fixed-size
  test when the true effect is far from the indifference zone [p0, p1].
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, SupportsFloat, TypedDict, TypeVar

import numpy as np
import numpy.typing as npt
from scipy import stats as sps  # type: ignore[import-untyped, unused-ignore]
from statsmodels.stats.contingency_tables import (  # type: ignore[import-untyped, unused-ignore]
    mcnemar,
)
from statsmodels.stats.multitest import (  # type: ignore[import-untyped, unused-ignore]
    multipletests,
)
from statsmodels.stats.proportion import (  # type: ignore[import-untyped, unused-ignore]
    confint_proportions_2indep,
    proportion_confint,
)

__all__ = [
    "ChiSquare",
    "Decision",
    "Interval",
    "MeanMethod",
    "MeanResult",
    "PairedProportion",
    "PairingGain",
    "Sprt",
    "SprtResult",
    "benjamini_hochberg",
    "block_means",
    "diff_independent",
    "diff_independent_mean",
    "diff_paired",
    "diff_paired_mean",
    "holm",
    "json_float",
    "mean_interval",
    "pairing_gain",
    "seat_balance",
    "wilson",
]

FloatArray = npt.NDArray[np.float64]
MeanMethod = Literal["t", "bootstrap"]
Decision = Literal["accept_h1", "accept_h0", "continue"]

SIGNIFICANT_DIGITS = 6
"""Floats in ``to_json()`` are rounded to this many significant digits."""

MCNEMAR_EXACT_BELOW = 25
"""McNemar's test is exact (binomial) when fewer discordant pairs than this."""


# --- JSON helpers --------------------------------------------------------------------------


def json_float(value: float | None) -> float | None:
    """``value`` rounded to :data:`SIGNIFICANT_DIGITS` digits; ``None`` for None, NaN, ±inf."""
    if value is None or not math.isfinite(value):
        return None
    return float(f"{value:.{SIGNIFICANT_DIGITS}g}") + 0.0  # + 0.0 turns -0.0 into 0.0


_T = TypeVar("_T")


class IntervalJson(TypedDict):
    """An :class:`Interval` as JSON data."""

    estimate: float | None
    low: float | None
    high: float | None
    method: str
    level: float | None


class ChiSquareJson(TypedDict):
    """A :class:`ChiSquare` as JSON data."""

    statistic: float | None
    dof: int
    p: float | None
    observed: list[int]
    expected: list[float | None]


def _opt(value: SupportsFloat | None) -> float | None:
    """A finite Python float, or None (for None, NaN and infinities)."""
    if value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _check_level(level: float) -> None:
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be between 0 and 1 (exclusive), not {level}")


def _as_1d(values: npt.ArrayLike, name: str) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, not of shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} has NaN or infinite values")
    return array


def _pair(a: npt.ArrayLike, b: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    x, y = _as_1d(a, "a"), _as_1d(b, "b")
    if x.shape != y.shape:
        raise ValueError(f"paired samples differ in length: {x.size} and {y.size}")
    return x, y


# --- Intervals -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """A point estimate and a two-sided confidence interval at ``level``.

    A number that cannot be computed (no data, one observation) is None.
    ``method`` names how the interval was computed, e.g. ``"wilson"`` or ``"bootstrap-bca"``.
    """

    estimate: float | None
    low: float | None
    high: float | None
    method: str
    level: float = 0.95

    def __post_init__(self) -> None:
        # Plain Python floats, and None for what could not be computed (NaN, ±inf).
        for name in ("estimate", "low", "high"):
            object.__setattr__(self, name, _opt(getattr(self, name)))

    @property
    def width(self) -> float | None:
        if self.low is None or self.high is None:
            return None
        return self.high - self.low

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the closed interval (False when there is no interval)."""
        if self.low is None or self.high is None:
            return False
        return self.low <= value <= self.high

    def excludes(self, value: float = 0.0) -> bool:
        """Whether the interval exists and lies wholly on one side of ``value``."""
        if self.low is None or self.high is None:
            return False
        return not self.contains(value)

    def format(self, digits: int = 3, scale: float = 1.0, unit: str = "") -> str:
        """``"0.308 [0.255, 0.366]"``; ``scale=100, unit=" pp"`` for percentage points."""

        def show(value: float | None) -> str:
            return "n/a" if value is None else f"{value * scale:.{digits}f}{unit}"

        if self.low is None or self.high is None:
            return show(self.estimate)
        return f"{show(self.estimate)} [{show(self.low)}, {show(self.high)}]"

    def to_json(self) -> IntervalJson:
        return {
            "estimate": json_float(self.estimate),
            "low": json_float(self.low),
            "high": json_float(self.high),
            "method": self.method,
            "level": json_float(self.level),
        }


def wilson(successes: int, n: int, level: float = 0.95) -> Interval:
    """Wilson score interval for the proportion ``successes / n``.

    Wilson (1927), JASA 22:209; recommended by Newcombe (1998a), Stat Med 17:857 (its Table I
    has 81/263 → 0.2553 to 0.3662). Computed by statsmodels
    ``proportion_confint(method="wilson")``. ``n == 0`` gives an interval of Nones.
    """
    _check_level(level)
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return Interval(None, None, None, "wilson", level)
    low, high = proportion_confint(successes, n, alpha=1.0 - level, method="wilson")
    p = successes / n
    # The limits are exactly 0 at 0 successes and 1 at n; keep round-off from moving them
    # past the estimate (1 − 1e-16 below p = 1, say).
    low = 0.0 if successes == 0 else min(float(low), p)
    high = 1.0 if successes == n else max(float(high), p)
    return Interval(p, max(low, 0.0), min(high, 1.0), "wilson", level)


def diff_independent(x1: int, n1: int, x2: int, n2: int, level: float = 0.95) -> Interval:
    """The difference ``x2/n2 − x1/n1`` of two independent proportions (B − A).

    Newcombe's hybrid score interval, method 10 of Newcombe (1998b), Stat Med 17:873: the
    square-and-add combination of the two Wilson intervals. Computed by statsmodels
    ``confint_proportions_2indep(method="newcomb")``. An empty arm gives an interval of Nones.
    Use it only when the two arms were played on different seeds; see :func:`diff_paired`.
    """
    _check_level(level)
    for x, n in ((x1, n1), (x2, n2)):
        if n < 0 or not 0 <= x <= n:
            raise ValueError(f"need 0 <= successes <= n, got {x} of {n}")
    method = "newcombe-hybrid-score"
    if n1 == 0 or n2 == 0:
        return Interval(None, None, None, method, level)
    low, high = confint_proportions_2indep(
        x2, n2, x1, n1, method="newcomb", compare="diff", alpha=1.0 - level
    )
    d = x2 / n2 - x1 / n1
    return Interval(d, max(min(float(low), d), -1.0), min(max(float(high), d), 1.0), method, level)


@dataclass(frozen=True)
class PairedProportion:
    """Paired binary outcomes: the 2×2 table, Newcombe's interval of B − A, McNemar's test.

    ``both``: seeds won (1) under A and B; ``only_a``: 1 under A only; ``only_b``: 1 under B
    only; ``neither``. ``mcnemar_method`` is ``"exact"`` (binomial on the discordant pairs) or
    ``"chi2-cc"`` (χ² with continuity correction).
    """

    interval: Interval
    mcnemar_p: float | None
    mcnemar_method: str
    n: int
    both: int
    only_a: int
    only_b: int
    neither: int

    def to_json(self) -> dict[str, object]:
        return {
            "interval": self.interval.to_json(),
            "mcnemar_p": json_float(self.mcnemar_p),
            "mcnemar_method": self.mcnemar_method,
            "n": self.n,
            "table": {
                "both": self.both,
                "only_a": self.only_a,
                "only_b": self.only_b,
                "neither": self.neither,
            },
        }


def _binary(values: FloatArray, name: str) -> None:
    if not np.all((values == 0) | (values == 1)):
        raise ValueError(f"{name} must hold only 0 and 1")


def diff_paired(a: npt.ArrayLike, b: npt.ArrayLike, level: float = 0.95) -> PairedProportion:
    """Difference ``mean(b) − mean(a)`` of paired binary outcomes (``a[i]``, ``b[i]``: seed i).

    The interval is method 10 of Newcombe (1998c), "Improved confidence intervals for the
    difference between binomial proportions based on paired data", Stat Med 17:2635–2650:
    square-and-add of the Wilson limits (lA, uA) of p_A and (lB, uB) of p_B, with the
    correlation φ of the 2×2 table::

        low  = D − √((p_B − lB)² − 2φ̂ (p_B − lB)(uA − p_A) + (uA − p_A)²)
        high = D + √((uB − p_B)² − 2φ̂ (uB − p_B)(p_A − lA) + (p_A − lA)²)

    with D = p_B − p_A. Newcombe's correction of φ: with t = both·neither − only_a·only_b,
    φ̂ = max(t − n/2, 0)/√(product of the four margins) when t > 0, t/√(…) otherwise, and 0
    when a margin is empty. (As in R's ``contingencytables::Newcombe_square_and_add_CI_paired_2x2``
    and ``MKinfer::binomDiffCI(paired=TRUE)``; Fagerland, Lydersen & Laake 2017, "Statistical
    Analysis of Contingency Tables", ch. 8, give −0.0621 (−0.1186 to −0.0046) for the table
    59, 6, 16, 80.)

    McNemar's test (statsmodels ``mcnemar``) is exact when there are fewer than
    :data:`MCNEMAR_EXACT_BELOW` discordant pairs, χ² with continuity correction otherwise.

    One outcome per seed: with several seat rotations per seed, reduce each seed to its mean
    first (:func:`block_means`) and use :func:`diff_paired_mean` instead.
    """
    _check_level(level)
    x, y = _pair(a, b)
    _binary(x, "a")
    _binary(y, "b")
    n = int(x.size)
    both = int(np.sum((x == 1) & (y == 1)))
    only_a = int(np.sum((x == 1) & (y == 0)))
    only_b = int(np.sum((x == 0) & (y == 1)))
    neither = n - both - only_a - only_b
    exact = only_a + only_b < MCNEMAR_EXACT_BELOW
    mcnemar_method = "exact" if exact else "chi2-cc"
    method = "newcombe-paired-score"
    if n == 0:
        interval = Interval(None, None, None, method, level)
        return PairedProportion(interval, None, mcnemar_method, 0, 0, 0, 0, 0)

    p_a, p_b = (both + only_a) / n, (both + only_b) / n
    wa, wb = wilson(both + only_a, n, level), wilson(both + only_b, n, level)
    assert wa.low is not None and wa.high is not None  # n > 0
    assert wb.low is not None and wb.high is not None
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    t = both * neither - only_a * only_b
    if margins == 0:
        phi = 0.0
    elif t > 0:
        phi = max(t - n / 2, 0.0) / math.sqrt(margins)
    else:
        phi = t / math.sqrt(margins)

    def root(u: float, v: float) -> float:
        return math.sqrt(max(u * u - 2 * phi * u * v + v * v, 0.0))

    d = p_b - p_a
    low = d - root(p_b - wb.low, wa.high - p_a)
    high = d + root(wb.high - p_b, p_a - wa.low)
    interval = Interval(d, max(low, -1.0), min(high, 1.0), method, level)
    table = [[both, only_a], [only_b, neither]]
    test = mcnemar(table, exact=exact, correction=True)
    return PairedProportion(
        interval, _opt(test.pvalue), mcnemar_method, n, both, only_a, only_b, neither
    )


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


@dataclass(frozen=True)
class ChiSquare:
    """A χ² goodness-of-fit test: statistic, degrees of freedom, p-value, expected counts."""

    statistic: float | None
    dof: int
    p: float | None
    observed: tuple[int, ...]
    expected: tuple[float, ...]

    def to_json(self) -> ChiSquareJson:
        return {
            "statistic": json_float(self.statistic),
            "dof": self.dof,
            "p": json_float(self.p),
            "observed": list(self.observed),
            "expected": [json_float(e) for e in self.expected],
        }


def seat_balance(wins_per_seat: Sequence[int], finished_games: int) -> ChiSquare:
    """χ² test of the wins across seats against equal shares (``scipy.stats.chisquare``).

    Unfinished games (turn cap, timeouts) have no winner, so the test is on the finished
    games only: ``wins_per_seat`` must add up to ``finished_games`` and each seat is expected
    to win ``finished_games / seats`` of them. Report the unfinished games separately (their
    rate with :func:`wilson`). With seat rotation every bot plays every seat equally often, so
    a significant result is a seat effect of the rules or the board, not of the bots. Run this
    omnibus test before any claim about a single seat. No finished game: statistic and p None.
    The χ² approximation wants about 5 expected wins per seat or more.
    """
    observed = tuple(int(w) for w in wins_per_seat)
    seats = len(observed)
    if seats < 2:
        raise ValueError("need at least two seats")
    if any(w < 0 for w in observed):
        raise ValueError("wins cannot be negative")
    if sum(observed) != finished_games:
        raise ValueError(
            f"the wins add up to {sum(observed)}, not to the {finished_games} finished games"
        )
    expected = tuple(finished_games / seats for _ in observed)
    if finished_games == 0:
        return ChiSquare(None, seats - 1, None, observed, expected)
    result = sps.chisquare(np.asarray(observed, dtype=np.float64))
    return ChiSquare(_opt(result.statistic), seats - 1, _opt(result.pvalue), observed, expected)


def _adjust(
    pvalues: Sequence[float | None], alpha: float, method: str
) -> list[tuple[float | None, bool]]:
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be between 0 and 1 (exclusive), not {alpha}")
    tested = [(i, float(p)) for i, p in enumerate(pvalues) if p is not None and not math.isnan(p)]
    if any(not 0.0 <= p <= 1.0 for _, p in tested):
        raise ValueError("p-values must lie in [0, 1]")
    out: list[tuple[float | None, bool]] = [(None, False)] * len(pvalues)
    if tested:
        values = [p for _, p in tested]
        reject, adjusted, _, _ = multipletests(values, alpha=alpha, method=method)
        for (i, _), r, q in zip(tested, reject, adjusted, strict=True):
            out[i] = (float(q), bool(r))
    return out


def holm(pvalues: Sequence[float | None], alpha: float = 0.05) -> list[tuple[float | None, bool]]:
    """Holm's step-down adjustment (Holm 1979, Scand J Stat 6:65) of a family of p-values.

    Controls the family-wise error rate at ``alpha``: use it for the headline metrics.
    Returns ``(adjusted_p, significant)`` per input, in input order, by statsmodels
    ``multipletests(method="holm")``. A None (or NaN) p-value is a metric that was not tested:
    it gives ``(None, False)`` and does not count in the family.
    """
    return _adjust(pvalues, alpha, "holm")


def benjamini_hochberg(
    pvalues: Sequence[float | None], alpha: float = 0.05
) -> list[tuple[float | None, bool]]:
    """Benjamini–Hochberg (1995, JRSS B 57:289) adjustment, like :func:`holm`.

    Controls the false discovery rate at ``alpha`` (``multipletests(method="fdr_bh")``): use
    it for a panel of exploratory metrics, where a few false leads are acceptable.
    """
    return _adjust(pvalues, alpha, "fdr_bh")


# --- Sequential testing --------------------------------------------------------------------

REGULARIZATION = 1e-3
"""Pseudo-observations put at each end of the outcome range (as fishtest's ``regularize``)."""


@dataclass(frozen=True)
class SprtResult:
    """The state of an SPRT: the LLR against its bounds, and the decision."""

    llr: float
    lower_bound: float
    upper_bound: float
    n: int
    mean: float | None
    decision: Decision
    p0: float
    p1: float
    alpha: float
    beta: float

    def to_json(self) -> dict[str, object]:
        return {
            "llr": json_float(self.llr),
            "lower_bound": json_float(self.lower_bound),
            "upper_bound": json_float(self.upper_bound),
            "n": self.n,
            "mean": json_float(self.mean),
            "decision": self.decision,
            "p0": json_float(self.p0),
            "p1": json_float(self.p1),
            "alpha": json_float(self.alpha),
            "beta": json_float(self.beta),
        }


@dataclass(frozen=True)
class Sprt:
    """Fishtest's generalised sequential probability ratio test on the mean of a bounded outcome.

    H0: mean = ``p0`` against H1: mean = ``p1``, for outcomes in [``low``, ``high``] (default
    [0, 1]: a seat's win indicator, a per-seed win rate, a per-pair score). After each batch
    compute the LLR of all samples so far; stop with H1 accepted once it reaches
    ln((1 − β)/α), with H0 accepted once it falls to ln(β/(1 − α)), else continue (Wald 1945).
    With α = β = 0.05 the bounds are ±2.944. The error rates are α (accepting H1 when the mean
    is p0 or less) and β (accepting H0 when it is p1 or more).

    The LLR is the normal approximation of the generalised log-likelihood ratio
    (``LLR_alt2`` of fishtest's ``server/fishtest/stats/LLRcalc.py``; M. Van den Bergh,
    "A simple approximation of the GSPRT", https://www.cantate.be/Fishtest/GSPRT_approximation.pdf)::

        LLR ≈ n · (p1 − p0) · (2·mean − p0 − p1) / (2·var)

    with mean and variance (population variance, as fishtest) of the samples. Like fishtest's
    ``regularize``, :data:`REGULARIZATION` pseudo-observations at ``low`` and at ``high`` keep
    the variance positive when every sample so far is equal. The approximation is for many
    samples and small effects: no decision is taken before ``min_samples`` samples (fishtest
    looks at its first result after a batch of 16 game pairs).

    Samples: one per seed, never one per game of a rotation block (see :func:`block_means`).
    Per-pair differences d = b − a of outcomes in [0, 1] lie in [−1, 1]: either use
    ``Sprt(p0=δ0, p1=δ1, low=-1, high=1)`` on d directly, or map d to the pair score
    (d + 1)/2 in [0, 1] and δ to (1 + δ)/2. The LLR is invariant under this affine map, so
    both give the same test. Example: "does B raise seat 1's win rate by at least 3 points?"
    is ``Sprt(p0=0.0, p1=0.03, low=-1, high=1)`` on the per-seed differences, or
    ``Sprt(p0=0.25, p1=0.28)`` on B's per-seed seat-1 rates alone (against a known base rate).
    """

    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05
    low: float = 0.0
    high: float = 1.0
    min_samples: int = 16

    def __post_init__(self) -> None:
        if not self.low < self.high:
            raise ValueError(f"need low < high, got [{self.low}, {self.high}]")
        if not (self.low <= self.p0 <= self.high and self.low <= self.p1 <= self.high):
            raise ValueError(f"p0 and p1 must lie in [{self.low}, {self.high}]")
        if self.p0 == self.p1:
            raise ValueError("p0 and p1 must differ")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise ValueError("need 0 < alpha, beta and alpha + beta < 1")
        if self.min_samples < 0:
            raise ValueError("min_samples cannot be negative")

    @property
    def lower_bound(self) -> float:
        """ln(β/(1 − α)): at or below it, accept H0."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """ln((1 − β)/α): at or above it, accept H1."""
        return math.log((1 - self.beta) / self.alpha)

    def _samples(self, samples: npt.ArrayLike) -> FloatArray:
        x = _as_1d(samples, "samples")
        span = self.high - self.low
        if np.any(x < self.low - 1e-9 * span) or np.any(x > self.high + 1e-9 * span):
            raise ValueError(f"samples must lie in [{self.low}, {self.high}]")
        return x

    def llr(self, samples: npt.ArrayLike) -> float:
        """The approximate generalised log-likelihood ratio of H1 against H0 (0 without data)."""
        return self._llr(self._samples(samples))

    def _llr(self, x: FloatArray) -> float:
        n = int(x.size)
        if n == 0:
            return 0.0
        eps = REGULARIZATION
        weight = n + 2 * eps
        mean = (float(np.sum(x)) + eps * (self.low + self.high)) / weight
        squares = float(np.sum((x - mean) ** 2))
        var = (squares + eps * ((self.low - mean) ** 2 + (self.high - mean) ** 2)) / weight
        return n * (self.p1 - self.p0) * (2 * mean - self.p0 - self.p1) / (2 * var)

    def result(self, samples: npt.ArrayLike) -> SprtResult:
        """The LLR, the bounds and the decision after ``samples``."""
        x = self._samples(samples)
        llr = self._llr(x)
        decision: Decision = "continue"
        if x.size >= max(self.min_samples, 1):
            if llr >= self.upper_bound:
                decision = "accept_h1"
            elif llr <= self.lower_bound:
                decision = "accept_h0"
        mean = float(np.mean(x)) if x.size else None
        return SprtResult(
            llr,
            self.lower_bound,
            self.upper_bound,
            int(x.size),
            mean,
            decision,
            self.p0,
            self.p1,
            self.alpha,
            self.beta,
        )

    def status(self, samples: npt.ArrayLike) -> Decision:
        """``"accept_h1"``, ``"accept_h0"`` or ``"continue"``."""
        return self.result(samples).decision
