"""Are the seats balanced? The χ² goodness of fit of the wins to equal shares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps  # type: ignore[import-untyped, unused-ignore]

from ckdsl.sim.stats.results import ChiSquareJson, _opt, json_float

__all__ = [
    "ChiSquare",
    "seat_balance",
]


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
