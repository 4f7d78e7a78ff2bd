"""``--until-significant``: play paired games in batches until an SPRT decides.

Fishtest's way of testing a change (``ckdsl.sim.stats.sprt.Sprt``): rather than fixing the
number of games in advance, play a batch of seeds under every rule set, compute the
log-likelihood ratio of H1 (the variant moves the metric by ``h1``) against H0 (by ``h0``)
on the per-seed differences so far, and stop as soon as it crosses a bound; otherwise play
another batch, up to a cap. Each batch extends the results stores (seeds ``n`` to ``n +
batch - 1``, the same seeds under every rule set), and the test is only ever computed on
whole batches of whole seeds: every rotation of a seed under both rule sets, so no partial
pair is analysed.

The metrics (``--sprt-metric``) are per-seed differences B − A:

- ``seat1``, ``seat2``, ...: the share of the seed's games (its rotations) that the seat
  won, a difference in [−1, 1]; ``h0``/``h1`` are in win-rate units (0.03 = 3 points);
- ``finished``: the share of the seed's games that finished, likewise;
- ``turns``: the mean game length of the seed, in turns. Its range has no natural bound,
  so the SPRT's regularisation uses the range of the differences seen so far (widened to
  include ``h0`` and ``h1``).

The test is one-sided, as fishtest's: H1 accepted means "at least ``h1``", H0 accepted
"at most ``h0``". To look for a decrease, give a negative ``h1`` (``--h0 0 --h1 -5``).

The intervals of the final report are computed as for a fixed number of games; after a
sequential stop they are slightly optimistic (the report says so). The SPRT's own error
rates, α and β, are the ones to quote for the decision.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

import numpy as np
import numpy.typing as npt
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl.jsondata import JsonObject
from ckdsl.sim.compare.analysis import StoppingRule
from ckdsl.sim.compare.tables import game_tables, paired_blocks
from ckdsl.sim.stats.means import block_means
from ckdsl.sim.stats.results import Decision
from ckdsl.sim.stats.sprt import Sprt

__all__ = [
    "DEFAULT_BOUNDS",
    "SprtMetric",
    "seed_differences",
    "sprt_metric",
    "sprt_tests",
    "until_significant",
]

DEFAULT_BOUNDS = {"seat": (0.0, 0.03), "finished": (0.0, 0.03), "turns": (0.0, 5.0)}
"""Default (h0, h1) per kind of metric, in the metric's units."""


class SprtTest(TypedDict):
    """One variant's SPRT after a batch: its LLR against the bounds, and the decision."""

    variant: str
    llr: float
    lower_bound: float
    upper_bound: float
    decision: Decision
    n: int
    mean: float | None


@dataclass(frozen=True)
class SprtMetric:
    """What the SPRT tests: a column of :func:`ckdsl.sim.compare.tables.game_table`, averaged per
    seed, as the difference B − A. ``bounded``: the differences lie in [−1, 1]."""

    name: str
    column: str
    label: str
    bounded: bool

    def default_bounds(self) -> tuple[float, float]:
        kind = "seat" if self.name.startswith("seat") else self.name
        return DEFAULT_BOUNDS[kind]


def sprt_metric(name: str, seats: int) -> SprtMetric:
    """The metric ``seat1`` ... ``seatN``, ``finished`` or ``turns``; ValueError otherwise."""
    text = name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    if text.startswith("seat") and text[4:].isdigit():
        seat = int(text[4:])
        if not 1 <= seat <= seats:
            raise ValueError(f"there is no seat {seat}: the games have {seats} seats")
        return SprtMetric(f"seat{seat}", f"win_seat_{seat}", f"seat {seat}'s win rate", True)
    if text == "finished":
        return SprtMetric("finished", "finished", "the share of finished games", True)
    if text in ("turns", "length", "gamelength"):
        return SprtMetric("turns", "turns", "game length (turns)", False)
    choices = ", ".join([f"seat1 to seat{seats}", "finished", "turns"])
    raise ValueError(f"unknown metric '{name}'; choose {choices}")


def seed_differences(
    a: pd.DataFrame, b: pd.DataFrame, metric: SprtMetric
) -> npt.NDArray[np.float64]:
    """The per-seed differences B − A of ``metric`` over the seeds that both rule sets
    played completely (every game of the seed, with the same game seed), by seed."""
    tables = game_tables({"a": a, "b": b})
    table_a, table_b = tables["a"], tables["b"]
    rows_a, rows_b, _, _ = paired_blocks(table_a, table_b)
    if rows_a.empty:
        return np.zeros(0, dtype=np.float64)
    blocks = rows_a["block"].to_numpy()
    matched = pd.Series(blocks).value_counts()
    in_a = table_a["block"].value_counts()
    in_b = table_b["block"].value_counts()
    whole = np.asarray(
        [bool(matched[k] == in_a.get(k, 0) == in_b.get(k, 0)) for k in np.unique(blocks)]
    )
    x = rows_a[metric.column].to_numpy(dtype=np.float64)
    y = rows_b[metric.column].to_numpy(dtype=np.float64)
    differences: npt.NDArray[np.float64] = block_means(y - x, blocks)[whole]
    return differences


def _sprt(
    metric: SprtMetric,
    h0: float,
    h1: float,
    alpha: float,
    beta: float,
    samples: npt.NDArray[np.float64],
) -> Sprt:
    if metric.bounded:
        low, high = -1.0, 1.0
    else:
        values = [h0, h1, *(samples.tolist() if samples.size else [])]
        span = max(values) - min(values)
        pad = max(1.0, 0.05 * span)
        low, high = min(values) - pad, max(values) + pad
    return Sprt(p0=h0, p1=h1, alpha=alpha, beta=beta, low=low, high=high)


def sprt_tests(
    frames: Mapping[str, pd.DataFrame],
    base: str,
    metric: SprtMetric,
    *,
    h0: float,
    h1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> list[SprtTest]:
    """The SPRT of every variant against the base on the per-seed differences so far."""
    out: list[SprtTest] = []
    for label, frame in frames.items():
        if label == base:
            continue
        samples = seed_differences(frames[base], frame, metric)
        result = _sprt(metric, h0, h1, alpha, beta, samples).result(samples)
        out.append(
            {
                "variant": label,
                "llr": result.llr,
                "lower_bound": result.lower_bound,
                "upper_bound": result.upper_bound,
                "decision": result.decision,
                "n": result.n,
                "mean": result.mean,
            }
        )
    return out


def until_significant(
    play: Callable[[int], Mapping[str, pd.DataFrame]],
    *,
    base: str,
    metric: SprtMetric,
    h0: float,
    h1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    start: int,
    batch: int,
    max_seeds: int,
    on_batch: Callable[[int, Sequence[SprtTest]], None] | None = None,
) -> tuple[StoppingRule, Mapping[str, pd.DataFrame]]:
    """Play (``play(seeds)`` extends every rule set's store to ``seeds`` seeds and returns
    their games) batch after batch until every variant's SPRT has decided or ``max_seeds``
    seeds are played. Returns the stopping rule (for the report) and the last frames."""
    if h0 == h1:
        raise ValueError("h0 and h1 must differ")
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError("need 0 < alpha, beta and alpha + beta < 1")
    if start < 1 or batch < 1 or max_seeds < 1:
        raise ValueError("the number of seeds must be positive")
    if metric.bounded and not (-1 <= h0 <= 1 and -1 <= h1 <= 1):
        raise ValueError("h0 and h1 are differences of rates: they must lie in [-1, 1]")
    seeds = min(start, max_seeds)
    batches = 0
    while True:
        frames = play(seeds)
        batches += 1
        tests = sprt_tests(frames, base, metric, h0=h0, h1=h1, alpha=alpha, beta=beta)
        if on_batch is not None:
            on_batch(seeds, tests)
        decided = all(t["decision"] != "continue" for t in tests)
        if decided or seeds >= max_seeds:
            break
        seeds = min(seeds + batch, max_seeds)
    details: JsonObject = {
        "metric": metric.name,
        "metric_label": metric.label + " (per-seed difference B − A)",
        "h0": h0,
        "h1": h1,
        "alpha": alpha,
        "beta": beta,
        "batch": batch,
        "max_seeds": max_seeds,
        "batches": batches,
        "tests": [_test_json(t) for t in tests],
    }
    games = len(frames[base])
    return StoppingRule("sprt", seeds, games, details), frames


def _test_json(test: SprtTest) -> JsonObject:
    """``test`` as JSON data: a non-finite number (an LLR at a degenerate sample) is None."""
    return {
        "variant": test["variant"],
        "llr": _clean(test["llr"]),
        "lower_bound": _clean(test["lower_bound"]),
        "upper_bound": _clean(test["upper_bound"]),
        "decision": test["decision"],
        "n": test["n"],
        "mean": _clean(test["mean"]),
    }


def _clean(value: float | None) -> float | None:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
