"""Planning and equivalence: how many seeds, what effect could be seen, and "no change".

A paired comparison reduces every metric to one difference per seed (variant − base); all
three questions here are about the mean of those differences, with the seed as the unit:

- **Equivalence** (``--margin``): "no change" can only be claimed against a smallest
  effect of interest m. Schuirmann's two one-sided tests (TOST; Schuirmann 1987, J
  Pharmacokinet Biopharm 15:657) reject "|Δ| ≥ m" when both one-sided t-tests do, i.e.
  when the (1 − 2α) interval of Δ lies inside (−m, m) (``statsmodels``' ``ttost_paired``).
  Reading it with the ordinary test gives four verdicts: *different* (the interval
  excludes 0 and not equivalent), *equivalent* (inside the margin, not different),
  *different but smaller than the margin* (both), *inconclusive* (neither: more seeds).
- **Minimum detectable effect**: the smallest true Δ the paired t-test at α (two-sided)
  would find with the given power, from the per-seed differences' standard deviation:
  ``statsmodels.stats.power.TTestPower`` solved for the effect size, times the SD.
- **Seeds needed** for a Δ at a power, from a pilot run's per-seed SD (the same solver,
  for the number of seeds). Without a variant in the pilot, the SD of a difference is
  that of one rule set times √(2(1 − r)), r the correlation between a seed's two games;
  r = 0 (no pairing) is the safe default.

The power calculations use α unadjusted for multiplicity: plan a confirmatory metric with
α divided by the size of its Holm family (``--alpha``) to be safe.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import stats as sps  # type: ignore[import-untyped, unused-ignore]
from statsmodels.stats.power import TTestPower  # type: ignore[import-untyped, unused-ignore]
from statsmodels.stats.weightstats import (  # type: ignore[import-untyped, unused-ignore]
    ttost_paired,
)

from ckdsl.sim.stats.results import Interval, json_float

__all__ = [
    "Equivalence",
    "equivalence",
    "minimum_detectable_effect",
    "seeds_needed",
]

Verdict = str


@dataclass(frozen=True)
class Equivalence:
    """TOST of ``|mean(d)| < margin`` for per-seed differences ``d``."""

    margin: float
    p: float | None  # the larger of the two one-sided p-values
    interval: Interval  # the (1 − 2α) interval the TOST reads
    equivalent: bool
    verdict: Verdict  # different / equivalent / different, within the margin / inconclusive

    def to_json(self) -> dict[str, object]:
        return {
            "margin": json_float(self.margin),
            "p": json_float(self.p),
            "interval": self.interval.to_json(),
            "equivalent": self.equivalent,
            "verdict": self.verdict,
        }


def equivalence(
    a: npt.ArrayLike, b: npt.ArrayLike, margin: float, alpha: float, different: bool
) -> Equivalence:
    """TOST on the paired per-seed values ``a`` (base) and ``b`` (variant): is |mean(b − a)|
    smaller than ``margin``? ``different``: whether the ordinary test found a difference
    (after its correction), to name the verdict."""
    if margin <= 0:
        raise ValueError(f"the margin must be positive, not {margin}")
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    d = y - x
    n = d.size
    if n < 2:
        interval = Interval(float(d.mean()) if n else None, None, None, "t", 1 - 2 * alpha)
        return Equivalence(margin, None, interval, False, "inconclusive")
    mean = float(d.mean())
    se = float(np.std(d, ddof=1)) / math.sqrt(n)
    if se == 0:
        p = 0.0 if abs(mean) < margin else 1.0
        interval = Interval(mean, mean, mean, "t", 1 - 2 * alpha)
    else:
        p = float(ttost_paired(y, x, -margin, margin)[0])
        half = float(sps.t.ppf(1 - alpha, n - 1)) * se
        interval = Interval(mean, mean - half, mean + half, "t", 1 - 2 * alpha)
    equivalent = p < alpha
    if equivalent and different:
        verdict = "different, within the margin"
    elif equivalent:
        verdict = "equivalent"
    elif different:
        verdict = "different"
    else:
        verdict = "inconclusive"
    return Equivalence(margin, p, interval, equivalent, verdict)


def minimum_detectable_effect(sd: float, seeds: int, alpha: float, power: float) -> float | None:
    """The smallest |Δ| a two-sided paired t-test at ``alpha`` detects with ``power`` on
    ``seeds`` seeds whose differences have standard deviation ``sd``."""
    if seeds < 2 or not math.isfinite(sd) or sd <= 0:
        return None
    return _detectable_effect_size(seeds, alpha, power) * sd


@functools.lru_cache(maxsize=256)
def _detectable_effect_size(seeds: int, alpha: float, power: float) -> float:
    """The standardized effect (Δ / sd) behind ``minimum_detectable_effect``: it depends on
    the seeds, α and power only, so a report's metrics (same seeds, dozens of metrics) solve
    the power equation once, not once per metric (each solve is ~130 power evaluations)."""
    size = TTestPower().solve_power(
        effect_size=None, nobs=seeds, alpha=alpha, power=power, alternative="two-sided"
    )
    return float(size)


def seeds_needed(sd: float, delta: float, alpha: float, power: float) -> int | None:
    """How many seeds a two-sided paired t-test at ``alpha`` needs to detect ``delta`` with
    ``power``, when the per-seed differences have standard deviation ``sd``."""
    if delta == 0 or not math.isfinite(sd) or sd <= 0:
        return None
    n = TTestPower().solve_power(
        effect_size=abs(delta) / sd, nobs=None, alpha=alpha, power=power, alternative="two-sided"
    )
    return max(2, math.ceil(float(np.squeeze(n))))
