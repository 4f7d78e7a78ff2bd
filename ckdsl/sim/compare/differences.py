"""A variant against the base: each metric's difference with its interval and test.

Paired on matched games (per-seed differences, Newcombe/McNemar for 0/1 metrics with one game
per seed), or, without a shared seed, as independent samples (Newcombe's hybrid score
interval, Welch's t), saying so.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl.sim.compare.specs import PAIRING_METRICS, SEAT_BALANCE, MetricSpec, _f, _finite
from ckdsl.sim.compare.summaries import _values
from ckdsl.sim.compare.tables import paired_blocks
from ckdsl.sim.stats.means import (
    PairingGain,
    block_means,
    diff_independent_mean,
    diff_paired_mean,
    pairing_gain,
)
from ckdsl.sim.stats.planning import Equivalence
from ckdsl.sim.stats.proportions import diff_independent, diff_paired
from ckdsl.sim.stats.results import Interval, MeanMethod
from ckdsl.sim.stats.seeds import CHANGE_METHOD, SeatTest, seat_change

__all__ = [
    "Comparison",
    "Difference",
    "PairingRow",
]

# --- Variant against base ------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """B − A for one metric: the values compared, the interval, the test and the verdict."""

    spec: MetricSpec
    a: float | None
    b: float | None
    delta: Interval
    p: float | None
    test: str
    n: int
    paired: bool
    family: str  # "headline" (Holm) or "exploratory" (Benjamini–Hochberg)
    adjusted_p: float | None = None
    significant: bool = False
    table: Mapping[str, int] | None = None
    mde: float | None = None  # the smallest |Δ| the test detects with the report's power
    equivalence: Equivalence | None = None  # TOST against the metric's --margin
    seat_test: SeatTest | None = None  # the variant × seat test (the seat-balance row)
    # The per-seed differences B − A the interval summarizes (for the figures; not in JSON).
    seed_differences: tuple[float, ...] = field(default=(), compare=False, repr=False)

    def to_json(self) -> dict[str, object]:
        return {
            "metric": self.spec.name,
            "label": self.spec.label,
            "unit": self.spec.unit,
            "scale": self.spec.scale,
            "group": self.spec.group,
            "a": _f(self.a),
            "b": _f(self.b),
            "delta": self.delta.to_json(),
            "p": _f(self.p),
            "test": self.test,
            "n": self.n,
            "paired": self.paired,
            "family": self.family,
            "correction": "holm" if self.family == "headline" else "benjamini-hochberg",
            "adjusted_p": _f(self.adjusted_p),
            "significant": self.significant,
            "table": dict(self.table) if self.table is not None else None,
            "mde": _f(self.mde),
            "equivalence": self.equivalence.to_json() if self.equivalence else None,
            "seat_test": self.seat_test.to_json() if self.seat_test else None,
        }


def _seat_difference(
    rows_a: pd.DataFrame, rows_b: pd.DataFrame, seats: int, family: str, level: float
) -> Difference:
    """The variant × seat test on the matched games, as a row of the headline table."""
    test = seat_change(rows_a, rows_b, seats)
    gaps = []
    for rows in (rows_a, rows_b):
        rates = [float(rows[f"win_seat_{s + 1}"].mean()) for s in range(seats)]
        gaps.append(max(rates) - min(rates))
    delta = Interval(gaps[1] - gaps[0], None, None, "none", level)
    return Difference(
        SEAT_BALANCE,
        gaps[0],
        gaps[1],
        delta,
        test.p,
        CHANGE_METHOD,
        test.seeds,
        True,
        family,
        seat_test=test,
    )


@dataclass(frozen=True)
class PairingRow:
    metric: str
    label: str
    gain: PairingGain

    def to_json(self) -> dict[str, object]:
        return {"metric": self.metric, "label": self.label, **self.gain.to_json()}


@dataclass(frozen=True)
class Comparison:
    """A variant against the base."""

    base: str
    variant: str
    paired: bool
    matched_games: int
    matched_seeds: int
    unmatched_base: int
    unmatched_variant: int
    differences: tuple[Difference, ...]
    pairing: tuple[PairingRow, ...]
    verdicts: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def headline(self) -> tuple[Difference, ...]:
        return tuple(d for d in self.differences if d.family == "headline")

    @property
    def exploratory(self) -> tuple[Difference, ...]:
        return tuple(d for d in self.differences if d.family == "exploratory")

    def difference(self, name: str) -> Difference | None:
        for d in self.differences:
            if d.spec.name == name:
                return d
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "base": self.base,
            "variant": self.variant,
            "design": "paired" if self.paired else "independent",
            "matched_games": self.matched_games,
            "matched_seeds": self.matched_seeds,
            "unmatched_base_games": self.unmatched_base,
            "unmatched_variant_games": self.unmatched_variant,
            "headline": [d.to_json() for d in self.headline],
            "exploratory": [d.to_json() for d in self.exploratory],
            "pairing_gain": [p.to_json() for p in self.pairing],
            "verdicts": list(self.verdicts),
            "warnings": list(self.warnings),
        }


def _paired_difference(
    spec: MetricSpec,
    a: pd.DataFrame,
    b: pd.DataFrame,
    family: str,
    level: float,
    method: MeanMethod,
    seed: int,
) -> tuple[Difference, PairingGain | None]:
    x = a[spec.name].to_numpy(dtype=np.float64, na_value=np.nan)
    y = b[spec.name].to_numpy(dtype=np.float64, na_value=np.nan)
    blocks = a["block"].to_numpy()
    complete = bool(np.all(np.isfinite(x)) and np.all(np.isfinite(y)))
    single = x.size > 0 and np.unique(blocks).size == x.size
    if spec.kind == "proportion" and single and complete:
        mean_a, mean_b = float(x.mean()), float(y.mean())
        result = diff_paired(x, y, level)
        table = {
            "both": result.both,
            "only_a": result.only_a,
            "only_b": result.only_b,
            "neither": result.neither,
        }
        diff = Difference(
            spec,
            mean_a,
            mean_b,
            result.interval,
            result.mcnemar_p,
            f"McNemar ({result.mcnemar_method})",
            result.n,
            True,
            family,
            table=table,
            seed_differences=tuple(float(v) for v in y - x),
        )
        return diff, _gain(spec, x, y)
    # Each side's mean per seed over its own games with a value (a metric that needs a
    # winner is undefined for an unfinished game), then the seeds where both have one.
    ids_a, means_a = _seed_means(x, blocks)
    ids_b, means_b = _seed_means(y, blocks)
    common = np.intersect1d(ids_a, ids_b)
    block_a = means_a[np.isin(ids_a, common)]
    block_b = means_b[np.isin(ids_b, common)]
    mean = diff_paired_mean(block_a, block_b, level, method, seed)
    diff = Difference(
        spec,
        float(block_a.mean()) if block_a.size else None,
        float(block_b.mean()) if block_b.size else None,
        mean.interval,
        mean.p,
        f"{mean.test} over seeds",
        int(block_a.size),
        True,
        family,
        seed_differences=tuple(float(v) for v in block_b - block_a),
    )
    return diff, _gain(spec, block_a, block_b)


def _seed_means(
    values: npt.NDArray[np.float64], blocks: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The seeds with a value and the mean of their values (NaN skipped), by seed."""
    keep = np.isfinite(values)
    return np.unique(blocks[keep]), block_means(values[keep], blocks[keep])


def _gain(
    spec: MetricSpec, a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
) -> PairingGain | None:
    """The pairing gain of the headline metrics that show it (quiet on constant data)."""
    if spec.name not in PAIRING_METRICS:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)
        return pairing_gain(a, b)


def _independent_difference(
    spec: MetricSpec,
    a: pd.DataFrame,
    b: pd.DataFrame,
    family: str,
    level: float,
    method: MeanMethod,
    seed: int,
) -> Difference:
    x_all, bx = _values(a, spec.name)
    y_all, by = _values(b, spec.name)
    mean_a = float(x_all.mean()) if x_all.size else None
    mean_b = float(y_all.mean()) if y_all.size else None
    singles = np.unique(bx).size == bx.size and np.unique(by).size == by.size
    if spec.kind == "proportion" and singles:
        from statsmodels.stats.proportion import (  # type: ignore[import-untyped, unused-ignore]
            test_proportions_2indep,
        )

        k1, n1 = round(float(x_all.sum())), int(x_all.size)
        k2, n2 = round(float(y_all.sum())), int(y_all.size)
        interval = diff_independent(k1, n1, k2, n2, level)
        p: float | None = None
        if n1 and n2 and 0 < k1 + k2 < n1 + n2:
            p = _finite(test_proportions_2indep(k2, n2, k1, n1, method="score").pvalue)
        elif n1 and n2:
            p = 1.0
        return Difference(
            spec, mean_a, mean_b, interval, p, "two-proportion score test", n1 + n2, False, family
        )
    result = diff_independent_mean(
        block_means(x_all, bx), block_means(y_all, by), level, method, seed
    )
    return Difference(
        spec,
        mean_a,
        mean_b,
        result.interval,
        result.p,
        f"{result.test} over seeds",
        sum(result.sizes),
        False,
        family,
    )


_Design: TypeAlias = "tuple[bool, int, int, int, int]"
"""How a variant met the base: paired, matched games and seeds, games of each left out."""


def _compare_pair(
    base: str,
    variant: str,
    a: pd.DataFrame,
    b: pd.DataFrame,
    specs: Sequence[MetricSpec],
    level: float,
    method: MeanMethod,
    seed: int,
    seats: int,
) -> tuple[list[Difference], list[PairingRow], list[str], _Design]:
    rows_a, rows_b, left_a, left_b = paired_blocks(a, b)
    cautions: list[str] = []
    paired = len(rows_a) > 0
    differences: list[Difference] = []
    pairing: list[PairingRow] = []
    balance = next((s for s in specs if s.name == SEAT_BALANCE.name), None)
    if paired and balance is not None:
        family = "headline" if balance.headline else "exploratory"
        differences.append(_seat_difference(rows_a, rows_b, seats, family, level))
    for spec in specs:
        if spec.name not in a.columns or spec.name not in b.columns:
            continue
        family = "headline" if spec.headline else "exploratory"
        if paired:
            diff, gain = _paired_difference(spec, rows_a, rows_b, family, level, method, seed)
            if spec.name in PAIRING_METRICS and gain is not None:
                pairing.append(PairingRow(spec.name, spec.label, gain))
        else:
            diff = _independent_difference(spec, a, b, family, level, method, seed)
        differences.append(diff)
    if not paired:
        cautions.append(
            f"'{base}' and '{variant}' share no game seed: the comparison treats them as "
            "independent samples and loses the precision of pairing"
        )
    elif left_a or left_b:
        cautions.append(
            f"the differences use the {len(rows_a)} games played under both rule sets; "
            f"{left_a} games of '{base}' and {left_b} of '{variant}' have no partner"
        )
    seeds = int(rows_a["block"].nunique()) if paired else 0
    return differences, pairing, cautions, (paired, len(rows_a), seeds, left_a, left_b)
