"""A search for the parameter value(s) that meet a target, then a confirmation on fresh seeds.

``ckdsl search base --set hand_limit=4..13 --target balance`` asks Optuna's TPE sampler
(a well-kept optimizer of noisy, discrete objectives; seeded, so a search is repeatable)
for values to try. Each trial plays the variant on the **search seeds** (the same seeds
for every value, so values are compared on the same boards and dice: common random
numbers make the objective a fixed function of the value, which any optimizer handles),
and scores it:

- ``balance``: the seat spread, largest minus smallest seat win rate (0: every seat wins
  as often);
- ``MEASURE=TARGET``: the distance of a measure's mean from a target, e.g. ``turns=80``
  (a game length), ``seat4=0.25`` or a user metric's name.

The best trial is **biased**: among many values, the one that looks best on these seeds
is partly the one whose noise happened to help it (selection bias, the winner's curse).
So the winner is played again, with the rule set's own value as the reference, on
**fresh seeds** (another master seed), and the report quotes that confirmation, paired
on the fresh seeds, as the estimate, next to the search's optimistic one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ckdsl.sim.sweep import Estimate, Level, Number, Point

if TYPE_CHECKING:
    import pandas as pd

_Space = Sequence[tuple[str, Sequence[Number]]]


@dataclass(frozen=True)
class Target:
    """What a search aims for: ``balance``, or a measure's mean equal to ``value``."""

    measure: str
    value: float | None  # None: balance (minimize the seat spread)

    @classmethod
    def parse(cls, text: str) -> Target:
        if text.strip() == "balance":
            return cls("seat_spread", None)
        name, equals, value = text.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not equals or not name.strip() or not math.isfinite(number):
            raise ValueError(f"'{text}' is not a target: 'balance' or MEASURE=VALUE (turns=80)")
        return cls(name.strip(), number)

    def describe(self) -> str:
        if self.value is None:
            return "seat balance (the smallest seat spread: max − min seat win rate)"
        return f"{self.measure} = {self.value:g}"

    def score(self, found: Level) -> float:
        """How far ``found`` is from the target (smaller is better; inf: not measured)."""
        estimate = found.measures.get(self.measure)
        if estimate is None or estimate.estimate is None:
            return math.inf
        if self.value is None:
            return estimate.estimate
        return abs(estimate.estimate - self.value)


def search(
    space: _Space,
    evaluate: Callable[[Point], float],
    *,
    trials: int,
    seed: int,
) -> list[tuple[Point, float]]:
    """Ask Optuna (TPE, seeded) for ``trials`` points of ``space`` and score each with
    ``evaluate`` (a point tried twice is scored once: its games are stored). Returns the
    distinct points tried with their scores, in the order first tried."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    # TPE starts from random points (by default 10 of them, more than a small search
    # tries): here the first half of the trials, at most 10, then its model's proposals.
    startup = max(1, min(10, trials // 2))
    sampler = optuna.samplers.TPESampler(seed=seed % 2**32, n_startup_trials=startup)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    scores: dict[Point, float] = {}

    def objective(trial: optuna.Trial) -> float:
        point = tuple((name, _suggest(trial, name, values)) for name, values in space)
        if point not in scores:
            scores[point] = evaluate(point)
        return scores[point]

    study.optimize(objective, n_trials=trials)
    return list(scores.items())


def _suggest(trial: object, name: str, values: Sequence[Number]) -> Number:
    """An integer range as suggest_int, a float range as suggest_float with its step,
    anything else as a choice among the values."""
    step = _step(values)
    if step is not None and all(isinstance(v, int) for v in values):
        return int(trial.suggest_int(name, int(values[0]), int(values[-1]), step=int(step)))  # type: ignore[attr-defined]
    if step is not None:
        found = trial.suggest_float(name, float(values[0]), float(values[-1]), step=step)  # type: ignore[attr-defined]
        return round(float(found), 12)
    return trial.suggest_categorical(name, list(values))  # type: ignore[attr-defined,no-any-return]


def _step(values: Sequence[Number]) -> float | None:
    """The step of an arithmetic progression of two values or more, else None."""
    if len(values) < 2:
        return None
    step = values[1] - values[0]
    if step <= 0:
        return None
    ok = all(abs((values[k + 1] - values[k]) - step) < 1e-9 for k in range(len(values) - 1))
    return step if ok else None


def best(tried: Sequence[tuple[Point, float]], current: Point) -> Point:
    """The point with the smallest score; among equals, the closest to the rule set's own
    values (the smallest change wins a tie)."""

    def distance(point: Point) -> float:
        return sum(abs(v - c) for (_, v), (_, c) in zip(point, current, strict=True))

    return min(tried, key=lambda item: (item[1], distance(item[0])))[0]


SELECTION_NOTE = (
    "Selection bias: the winner is the best of {n} values on the same {seeds} search seeds, "
    "so its search score is optimistic (part of its lead is the noise of those seeds: the "
    "winner's curse). Quote the confirmation on {fresh} fresh seeds (master seed {seed}), "
    "paired against the rule set's own value on those seeds."
)


def score_difference(
    winner: pd.DataFrame, reference: pd.DataFrame, target: Target, level: float, seed: int
) -> Estimate:
    """The winner's score minus the reference's on the same fresh seeds (``per_seed``
    tables), with a percentile bootstrap interval resampling the seeds both hold (the
    pairing kept: a resampled seed brings its games under both values). Below 0: the
    winner meets the target better."""
    import numpy as np

    common = winner.index.intersection(reference.index)
    a, b = winner.loc[common], reference.loc[common]
    columns = [c for c in a.columns if c.startswith("seat") and c[4:].isdigit()]
    measure = columns if target.value is None else [target.measure]
    first, second = a[measure].to_numpy(dtype=float), b[measure].to_numpy(dtype=float)

    def score(rows: np.ndarray) -> float:
        means = (first[rows].mean(axis=0), second[rows].mean(axis=0))
        if target.value is None:
            return float(np.ptp(means[0]) - np.ptp(means[1]))
        return float(abs(means[0][0] - target.value) - abs(means[1][0] - target.value))

    n = len(common)
    if n == 0:
        return Estimate(None, None, None)
    estimate = score(np.arange(n))
    if n < 2:
        return Estimate(estimate, None, None)
    rng = np.random.default_rng(seed)
    draws = [score(rng.integers(0, n, n)) for _ in range(2000)]
    low, high = np.quantile(draws, [(1 - level) / 2, (1 + level) / 2])
    return Estimate(estimate, float(low), float(high))


def verdict(difference: Estimate) -> str:
    """In words: whether the fresh seeds confirm the winner against the own value."""
    if difference.high is None or difference.low is None or difference.estimate is None:
        return "too few fresh seeds to say whether the winner does better"
    shown = f"{difference.estimate:+.3g} [{difference.low:+.3g}, {difference.high:+.3g}]"
    if difference.high < 0:
        return f"confirmed: on fresh seeds the winner meets the target better ({shown})"
    if difference.low > 0:
        return f"not confirmed: on fresh seeds the winner does worse ({shown})"
    return f"not confirmed: on fresh seeds the winner is not shown to do better ({shown})"
