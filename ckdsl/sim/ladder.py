"""The ladder: every bot and weights file rated from round-robin games on shared seeds.

The games are a tournament's (``ckdsl.sim.tournament``: every combination of the bots at
the table, or every cyclic fill when there are fewer bots than seats, seats rotated, the
same seeds for every line-up). The ladder orders the bots by their OpenSkill rating
(Plackett-Luce, the tournament's) and says, for each bot and the one below it, **which is
stronger and by how much**:

- the rating with OpenSkill's own interval, mu +- 1.96 sigma (its posterior, not a
  frequentist interval);
- the **head-to-head**: over the meetings of the two bots in the same game, the share in
  which the upper one finished ahead (ties half), with a 95% interval from a bootstrap
  over the seeds (the games of one seed are resampled together: a seed's line-ups and
  rotations share the board and the dice, so they are not independent);
- a verdict: "stronger" when that interval lies above one half, "not separated" when it
  contains it.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, TypedDict

from ckdsl.sim.stats.results import IntervalJson, json_float

if TYPE_CHECKING:
    import pandas as pd

    from ckdsl.sim.tournament import TournamentReport

RESAMPLES = 2000


class Rung(TypedDict):
    """One bot's line of the ladder, and how it compares with the bot below it."""

    rank: int
    bot: str  # the full spec
    name: str  # as the user named it
    mu: float | None
    low: float | None  # mu - 1.96 sigma
    high: float | None
    win_rate: IntervalJson
    below: str | None  # the next bot's name
    ahead_of_below: IntervalJson | None
    verdict: str


def meetings_by_seed(
    df: pd.DataFrame, names: list[str]
) -> tuple[Any, Any]:  # two numpy arrays [seed, a, b]
    """Per seed index, how often bot a finished ahead of bot b (ties half) and how often
    they met: arrays indexed [seed, a, b] in the order of ``names``."""
    import numpy as np

    index = {name: k for k, name in enumerate(names)}
    seeds = sorted({int(s) for s in df["seed_index"]})
    row_of = {seed: k for k, seed in enumerate(seeds)}
    ahead = np.zeros((len(seeds), len(names), len(names)))
    met = np.zeros_like(ahead)
    for seed, bots, final, winner in zip(
        df["seed_index"], df["bots"], df["points"], df["winner_seat"], strict=True
    ):
        r = row_of[int(seed)]
        order = [(0 if s == int(winner) else 1, -int(p)) for s, p in enumerate(final)]
        for s, t in itertools.permutations(range(len(bots)), 2):
            a, b = index[bots[s]], index[bots[t]]
            if a == b:
                continue
            met[r, a, b] += 1
            ahead[r, a, b] += 1.0 if order[s] < order[t] else 0.5 if order[s] == order[t] else 0.0
    return ahead, met


def bootstrap_share(
    ahead: Any, met: Any, a: int, b: int, seed: int = 0, level: float = 0.95
) -> IntervalJson:
    """The share of meetings in which ``a`` finished ahead of ``b``, with a percentile
    bootstrap interval over the seeds (numpy's generator seeded: the same games give the
    same interval)."""
    import numpy as np

    wins, games = ahead[:, a, b], met[:, a, b]
    total = games.sum()
    if total == 0:
        return {"estimate": None, "low": None, "high": None, "method": "bootstrap", "level": level}
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(wins), size=(RESAMPLES, len(wins)))
    shares = wins[picks].sum(axis=1) / np.maximum(games[picks].sum(axis=1), 1)
    tail = (1 - level) / 2
    return {
        "estimate": json_float(float(wins.sum() / total)),
        "low": json_float(float(np.quantile(shares, tail))),
        "high": json_float(float(np.quantile(shares, 1 - tail))),
        "method": f"percentile bootstrap over seeds ({RESAMPLES} resamples)",
        "level": level,
    }


def ladder(
    df: pd.DataFrame, report: TournamentReport, named: dict[str, str] | None = None
) -> list[Rung]:
    """The rungs, best first, from a tournament's games and its report; ``named`` maps a
    bot's full spec to the name to show (default: the report's)."""
    rows = report["standings"]
    shown = [(named or {}).get(row["bot"], row["name"]) for row in rows]
    names = [row["bot"] for row in rows]
    ahead, met = meetings_by_seed(df, names)
    rungs: list[Rung] = []
    for k, row in enumerate(rows):
        mu, sigma = row["mu"], row["sigma"]
        share = bootstrap_share(ahead, met, k, k + 1) if k + 1 < len(rows) else None
        rungs.append(
            {
                "rank": k + 1,
                "bot": row["bot"],
                "name": shown[k],
                "mu": mu,
                "low": None if mu is None or sigma is None else json_float(mu - 1.96 * sigma),
                "high": None if mu is None or sigma is None else json_float(mu + 1.96 * sigma),
                "win_rate": row["win_rate"],
                "below": shown[k + 1] if k + 1 < len(rows) else None,
                "ahead_of_below": share,
                "verdict": _verdict(share),
            }
        )
    return rungs


def _verdict(share: IntervalJson | None) -> str:
    if share is None:
        return ""
    low, high = share["low"], share["high"]
    if low is None or high is None:
        return "never met"
    if low > 0.5:
        return "stronger"
    if high < 0.5:
        return "weaker (the rating and the meetings disagree)"
    return "not separated"


LADDER_HEADINGS = (
    "rank",
    "bot",
    "rating μ [μ ± 1.96σ]",
    "win rate [Wilson 95%]",
    "ahead of the next [bootstrap 95%]",
    "verdict",
)


def ladder_cells(rungs: list[Rung]) -> list[list[str]]:
    """The ladder's table, a row per bot (``LADDER_HEADINGS``)."""
    out = []
    for rung in rungs:
        rate = rung["win_rate"]
        share = rung["ahead_of_below"]
        out.append(
            [
                str(rung["rank"]),
                rung["name"],
                _interval(rung["mu"], rung["low"], rung["high"], "{:.1f}"),
                _interval(rate["estimate"], rate["low"], rate["high"], "{:.1%}"),
                "-"
                if share is None
                else _interval(share["estimate"], share["low"], share["high"], "{:.0%}")
                + f" vs {rung['below']}",
                rung["verdict"],
            ]
        )
    return out


def _interval(value: float | None, low: float | None, high: float | None, form: str) -> str:
    if value is None or low is None or high is None:
        return "-"
    return f"{form.format(value)} [{form.format(low)}, {form.format(high)}]"
