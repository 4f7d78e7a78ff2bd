"""Proportions: Wilson's interval for one, Newcombe's for a difference (independent or paired, with
McNemar's test).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from statsmodels.stats.contingency_tables import (  # type: ignore[import-untyped, unused-ignore]
    mcnemar,
)
from statsmodels.stats.proportion import (  # type: ignore[import-untyped, unused-ignore]
    confint_proportions_2indep,
    proportion_confint,
)

from ckdsl.sim.stats.results import FloatArray, Interval, _check_level, _opt, _pair, json_float

__all__ = [
    "PairedProportion",
    "diff_independent",
    "diff_paired",
    "wilson",
]

MCNEMAR_EXACT_BELOW = 25
"""McNemar's test is exact (binomial) when fewer discordant pairs than this."""


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
