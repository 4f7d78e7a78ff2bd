"""Many metrics at once: Holm's correction for the headline family, Benjamini–Hochberg for an
exploratory panel.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from statsmodels.stats.multitest import (  # type: ignore[import-untyped, unused-ignore]
    multipletests,
)

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "benjamini_hochberg",
    "holm",
]


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
        if method == "holm":
            reject, adjusted = _holm(values, alpha)
        else:
            reject, adjusted, _, _ = multipletests(values, alpha=alpha, method=method)
        for (i, _), r, q in zip(tested, reject, adjusted, strict=True):
            out[i] = (float(q), bool(r))
    return out


def _holm(values: Sequence[float], alpha: float) -> tuple[npt.NDArray[np.bool_], FloatArray]:
    """statsmodels' ``multipletests(values, alpha, method="holm")``, step for step (the same
    arithmetic, so the same floats), without the ``gc.collect()`` it runs on every call:
    a full collection of the process, tenths of a second in a large one (a test run, a
    notebook)."""
    sortind = np.argsort(values)
    pvals = np.take(np.asarray(values, dtype=float), sortind)
    ntests = len(pvals)
    notreject = pvals > alpha / np.arange(ntests, 0, -1)
    nr_index = np.nonzero(notreject)[0]
    notreject[(len(pvals) if nr_index.size == 0 else np.min(nr_index)) :] = True
    corrected = np.maximum.accumulate(pvals * np.arange(ntests, 0, -1))
    corrected[corrected > 1] = 1
    reject_, corrected_ = np.empty_like(notreject), np.empty_like(corrected)
    reject_[sortind], corrected_[sortind] = ~notreject, corrected
    return reject_, corrected_


def holm(pvalues: Sequence[float | None], alpha: float = 0.05) -> list[tuple[float | None, bool]]:
    """Holm's step-down adjustment (Holm 1979, Scand J Stat 6:65) of a family of p-values.

    Controls the family-wise error rate at ``alpha``: use it for the headline metrics.
    Returns ``(adjusted_p, significant)`` per input, in input order, as statsmodels
    ``multipletests(method="holm")`` computes them. A None (or NaN) p-value is a metric that
    was not tested: it gives ``(None, False)`` and does not count in the family.
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
