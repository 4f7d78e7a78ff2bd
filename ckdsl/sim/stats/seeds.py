"""Seat statistics with the seed as the unit: balance, per-seat intervals, and balance change.

Under ``--rotate-seats`` a seed is played once per rotation of the line-up, and the games of
one seed are far from independent: with identical bots the same seat wins 57–61 % of a
seed's rotations (26 % if they were independent). A χ² test or a Wilson interval over games
then counts each seed four times and overstates the evidence (design effect about 2.4). So
every seat statistic here is computed on **per-seed results**:

- ``Y[i, s]``: the share of seed ``i``'s games won by seat ``s`` (unfinished games stay in
  the denominator, as everywhere in the report);
- **seat balance**: Hotelling's T² test that the seats' mean shares are equal, on the
  k − 1 contrasts "seat s − seat k" of the per-seed shares (Hotelling 1931, Ann Math Stat
  2:360). It is the Wald test of equal shares with the seed as the unit, the analysis of
  cluster summaries recommended for clustered designs (Donner & Klar 2000, *Design and
  Analysis of Cluster Randomization Trials*, ch. 5), with Hotelling's F reference
  distribution in place of χ²: F = (n − r) / ((n − 1) r) · T² on (r, n − r) degrees of
  freedom, r the rank of the contrasts' covariance (k − 1 unless a seat never varies). The
  Wald χ² (T² on r degrees of freedom) is reported beside it; the two agree for many seeds;
- **per-seat intervals** (and every proportion over clustered games: a bot's wins over the
  seats it held, the finished share): Wilson's interval on the *effective* number of games,
  n / deff, where deff is Kish's design effect of the seed clustering: the variance of the
  ratio estimator over seeds (Cochran 1977, *Sampling Techniques*, §6.11) over the binomial
  variance (Kish 1965, *Survey Sampling*, §8.2; the effective-sample-size Wilson interval
  of Korn & Graubard 1998, Survey Methodology 24:193, with Wilson's score in place of
  Clopper–Pearson). deff is never taken below 1, and where the binomial variance is 0 (no
  win, or every game won) the games of a seed count as one;
- **does the variant change seat balance?** The same test on the paired per-seed changes
  ``Y_B[i] − Y_A[i]`` (the seat × variant interaction, paired on seeds): one omnibus test in
  place of k collinear per-seat tests.

``benchmarks/seat_test_level.py`` shows by simulation that the test holds its level under
rotation (seat labels shuffled within each seed) where the χ² over games does not.
With one game per seed the games are the seeds, and the χ² over finished games
(``stats.seat_balance``) is valid as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd  # type: ignore[import-untyped, unused-ignore]
from scipy import stats as sps  # type: ignore[import-untyped, unused-ignore]

from ckdsl.sim.stats.proportions import wilson
from ckdsl.sim.stats.results import Interval, json_float

__all__ = [
    "SeatBalance",
    "SeatTest",
    "clustered_wilson",
    "equal_means_test",
    "seat_balance_by_seed",
    "seat_change",
    "seat_shares",
]

FloatArray = npt.NDArray[np.float64]

METHOD = "Hotelling T² on per-seed win shares (seed as the unit)"
CHANGE_METHOD = "Hotelling T² on per-seed changes of the win shares (variant × seat, paired)"


@dataclass(frozen=True)
class SeatTest:
    """A test that the columns of a per-seed matrix have equal means.

    ``t2``: Hotelling's T² (= the Wald χ² with the seeds' covariance); ``f``, ``df1``,
    ``df2``, ``p``: its F form; ``p_wald``: T² against χ²(df1). None where the test cannot
    be computed (fewer seeds than contrasts, no variation at all)."""

    t2: float | None
    f: float | None
    df1: int
    df2: int
    p: float | None
    p_wald: float | None
    seeds: int
    method: str

    def to_json(self) -> dict[str, object]:
        return {
            "t2": json_float(self.t2),
            "f": json_float(self.f),
            "df1": self.df1,
            "df2": self.df2,
            "p": json_float(self.p),
            "p_wald": json_float(self.p_wald),
            "seeds": self.seeds,
            "method": self.method,
        }

    def describe(self) -> str:
        """``"F(3, 197) = 2.76, p = 0.043 (200 seeds)"``."""
        if self.f is None or self.p is None:
            return f"no test ({self.seeds} seeds)"
        return f"F({self.df1}, {self.df2}) = {self.f:.2f}, p = {_p(self.p)} ({self.seeds} seeds)"


def _p(p: float) -> str:
    return "< 0.0001" if p < 1e-4 else f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def equal_means_test(values: npt.ArrayLike, method: str = METHOD) -> SeatTest:
    """Hotelling's T² test that every column of ``values`` (one row per seed) has the same
    mean, on the contrasts "column j − last column"."""
    y = np.asarray(values, dtype=np.float64)
    if y.ndim != 2 or y.shape[1] < 2:
        raise ValueError("need a matrix with one row per seed and at least two columns")
    n, k = y.shape
    contrasts = y[:, :-1] - y[:, -1:]
    if n < 2:
        return SeatTest(None, None, k - 1, 0, None, None, n, method)
    mean = contrasts.mean(axis=0)
    cov = np.atleast_2d(np.cov(contrasts, rowvar=False, ddof=1))
    rank = int(np.linalg.matrix_rank(cov))
    if rank == 0 or n <= rank:
        return SeatTest(None, None, rank, max(n - rank, 0), None, None, n, method)
    t2 = float(n * mean @ np.linalg.pinv(cov) @ mean)
    f = (n - rank) / ((n - 1) * rank) * t2
    p = float(sps.f.sf(f, rank, n - rank))
    p_wald = float(sps.chi2.sf(t2, rank))
    return SeatTest(t2, f, rank, n - rank, p, p_wald, n, method)


def seat_shares(table: pd.DataFrame, seats: int) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """The seed indices and, per seed, the share of its games each seat won (a row per
    seed, a column per seat). ``table``: one row per game with ``block`` (the seed) and
    ``win_seat_1`` ... ``win_seat_<seats>`` (0/1), as ``compare.game_table`` makes it."""
    blocks = table["block"].to_numpy()
    ids, inverse = np.unique(blocks, return_inverse=True)
    counts = np.bincount(inverse, minlength=ids.size).astype(np.float64)
    shares = np.empty((ids.size, seats), dtype=np.float64)
    for s in range(seats):
        wins = table[f"win_seat_{s + 1}"].to_numpy(dtype=np.float64)
        shares[:, s] = np.bincount(inverse, weights=wins, minlength=ids.size) / counts
    return ids.astype(np.int64), shares


CLUSTERED = "wilson, effective n (seed design effect)"


def clustered_wilson(
    successes: npt.ArrayLike, trials: npt.ArrayLike, blocks: npt.ArrayLike, level: float = 0.95
) -> tuple[Interval, float | None]:
    """Σ successes / Σ trials over games clustered in seeds (``blocks``), with Wilson's
    interval on the effective number of trials; and the design effect (None when it is
    undefined). With one game per seed it is Wilson's interval over the games."""
    s = np.asarray(successes, dtype=np.float64)
    t = np.asarray(trials, dtype=np.float64)
    _, inverse = np.unique(np.asarray(blocks), return_inverse=True)
    seeds = int(inverse.max()) + 1 if inverse.size else 0
    total = float(t.sum())
    if seeds == 0 or total <= 0:
        return wilson(0, 0, level), None
    if seeds == s.size:
        return wilson(round(float(s.sum())), round(total), level), 1.0
    p = float(s.sum()) / total
    per_seed_s = np.bincount(inverse, weights=s, minlength=seeds)
    per_seed_t = np.bincount(inverse, weights=t, minlength=seeds)
    binomial = p * (1 - p) / total
    clustered = (
        seeds / (seeds - 1) * float(((per_seed_s - p * per_seed_t) ** 2).sum()) / total**2
        if seeds > 1
        else 0.0
    )
    deff = clustered / binomial if binomial > 0 else None
    effective = total / max(deff, 1.0) if deff is not None else float(seeds)
    return _wilson_fraction(p, effective, level), deff


def _wilson_fraction(p: float, n: float, level: float) -> Interval:
    """Wilson's score interval for a proportion ``p`` of ``n`` (not necessarily whole)
    trials (Wilson 1927, JASA 22:209)."""
    z = float(sps.norm.ppf(0.5 + level / 2))
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * float(np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), CLUSTERED, level)


@dataclass(frozen=True)
class SeatBalance:
    """One rule set's seat statistics with the seed as the unit."""

    test: SeatTest
    rates: tuple[Interval, ...]  # per seat: wins over games, Wilson on the effective n
    design_effects: tuple[float | None, ...]  # per seat: var(seed-clustered) / var(binomial)
    games_per_seed: float

    def to_json(self) -> dict[str, object]:
        return {
            "test": self.test.to_json(),
            "rates": [r.to_json() for r in self.rates],
            "design_effects": [json_float(d) for d in self.design_effects],
            "games_per_seed": json_float(self.games_per_seed),
        }


def seat_balance_by_seed(table: pd.DataFrame, seats: int, level: float = 0.95) -> SeatBalance:
    """Seat balance and per-seat win rates over seeds (see the module's docstring)."""
    _, shares = seat_shares(table, seats)
    n_games = len(table)
    blocks = table["block"].to_numpy()
    ones = np.ones(n_games)
    rates = []
    deffs: list[float | None] = []
    for s in range(seats):
        wins = table[f"win_seat_{s + 1}"].to_numpy(dtype=np.float64)
        interval, deff = clustered_wilson(wins, ones, blocks, level)
        rates.append(interval)
        deffs.append(deff)
    return SeatBalance(
        equal_means_test(shares),
        tuple(rates),
        tuple(deffs),
        n_games / shares.shape[0] if shares.shape[0] else 0.0,
    )


def seat_change(rows_a: pd.DataFrame, rows_b: pd.DataFrame, seats: int) -> SeatTest:
    """Does the variant change seat balance? Hotelling's T² on the per-seed changes of the
    seats' win shares, ``rows_a`` and ``rows_b`` being the matched games of the base and the
    variant in the same order (``compare.paired_blocks``). H0: the variant moves every
    seat's share by the same amount (usually none), i.e. no variant × seat interaction."""
    _, a = seat_shares(rows_a, seats)
    _, b = seat_shares(rows_b, seats)
    return equal_means_test(b - a, CHANGE_METHOD)
