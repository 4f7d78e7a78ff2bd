"""What every statistic returns: an :class:`Interval`, and JSON with floats rounded to 6 significant
digits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, SupportsFloat, TypedDict, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = [
    "Decision",
    "Interval",
    "MeanMethod",
    "json_float",
]

FloatArray = npt.NDArray[np.float64]
MeanMethod = Literal["t", "bootstrap"]
Decision = Literal["accept_h1", "accept_h0", "continue"]

SIGNIFICANT_DIGITS = 6
"""Floats in ``to_json()`` are rounded to this many significant digits."""


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
