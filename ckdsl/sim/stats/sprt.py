"""Fishtest's generalised SPRT on a bounded mean: stop as soon as the answer is clear."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ckdsl.sim.stats.results import Decision, FloatArray, _as_1d, json_float

__all__ = [
    "Sprt",
    "SprtResult",
]

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
