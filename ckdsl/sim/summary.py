"""The summary of one experiment's games: win rates, game length, points.

:func:`summarize` turns the rows of a results store (``read_results``) into plain JSON
data; :func:`format_summary` prints it for a terminal. The summary holds nothing that
varies between two runs of the same experiment (no wall time, no paths, no dates): the
same command gives byte-identical ``--json`` output, however the games were spread over
workers, interrupted or resumed.

What is counted, and how
------------------------

- **Unfinished games count.** A game that hits the turn limit has no winner; it stays in
  every denominator (a seat's win rate is its wins over *all* games), and the finished
  share is reported with its interval. Nothing is dropped.
- **Win rates** (per seat, per bot) have Wilson score intervals over games
  (``ckdsl.sim.stats.proportions.wilson``). A bot's rate is its wins over the seats it held: four
  copies of one bot in every game hold four seats a game, so they share one win rate.
  The χ² test of seat balance runs on the finished games.
- **Means** (turns, decisions, points) have t intervals whose unit is the **seed**: the
  games of one seed (its seat rotations) share a board and dice, so each seed's games are
  averaged first (``stats.block_means``), and the interval is over those seed means.
  Medians, quartiles, other quantiles and a histogram describe the distribution of the
  games themselves.
- **Points**: the winner's points in finished games, and the points of the other seats
  in those games (the losers); unfinished games have neither.

Floats are rounded to six significant digits (``stats.json_float``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypedDict, TypeVar

if TYPE_CHECKING:
    import pandas as pd

    from ckdsl.sim.stats.results import ChiSquareJson, IntervalJson

_T = TypeVar("_T")

LEVEL = 0.95
QUANTILES = (0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95)
HISTOGRAM_BINS = 12


class Histogram(TypedDict):
    """Counts in bins: ``edges`` has one more entry than ``counts`` (both empty: no data)."""

    edges: list[float | None]
    counts: list[int]


class _DistributionBase(TypedDict):
    n: int
    seeds: int
    mean: IntervalJson | None
    sd: float | None
    min: float | None
    max: float | None
    quantiles: dict[str, float | None]


class Distribution(_DistributionBase, total=False):
    """A metric over games (:func:`distribution`): ``n`` games on ``seeds`` seeds, the mean
    with its interval over seeds, the games' spread, ``quantiles`` keyed by the quantile
    (``"0.5"``) and, when there is a game, a ``histogram``. Without games every number is
    None and ``quantiles`` is empty."""

    histogram: Histogram


class Finished(TypedDict):
    """The finished games and their share of all games (Wilson interval)."""

    games: int
    share: IntervalJson


class SeatRow(TypedDict):
    """A seat (1-based): the bots that held it, its wins over all games, its win rate."""

    seat: int
    bots: list[str]
    wins: int
    games: int
    win_rate: IntervalJson


class BotRow(TypedDict):
    """A bot: the seats it held, its wins, its win rate per seat held."""

    bot: str
    seats_held: int
    wins: int
    win_rate: IntervalJson


class _SeatBalance(TypedDict, total=False):
    seat_balance: ChiSquareJson
    seat_balance_by_seed: dict[str, object]


class _SummaryBase(TypedDict):
    rules: list[str]
    rules_hash: list[str]
    games: int
    seeds: int
    players: int
    finished: Finished
    unfinished: int
    seats: list[SeatRow]
    bots: list[BotRow]
    turns: Distribution
    decisions: Distribution
    winner_points: Distribution
    loser_points: Distribution


class Summary(_SummaryBase, _SeatBalance):
    """One experiment's summary (:func:`summarize`), as JSON data. ``seat_balance`` (the χ²
    test of the wins across seats) is there when the games have two seats or more, and
    ``seat_balance_by_seed`` (Hotelling's test on the per-seed win shares, the test to read)
    when a seed has several games (rotated seats)."""


def _as_list(value: Iterable[_T] | None) -> list[_T]:
    return [] if value is None else list(value)


def _nice_width(span: float, bins: int) -> float:
    """A bin width of 1, 2 or 5 times a power of ten giving about ``bins`` bins."""
    raw = max(span / bins, 1e-9)
    power = 10.0 ** math.floor(math.log10(raw))
    for step in (1, 2, 5, 10):
        if step * power >= raw:
            return step * power
    return 10 * power  # pragma: no cover


def histogram(values: Sequence[float], *, integers: bool = True) -> Histogram:
    """Counts in bins of a round width (at least 1 for integer data): ``edges`` has one
    more entry than ``counts``; a bin holds its left edge, the last also its right."""
    from ckdsl.sim.stats.results import json_float

    if not values:
        return {"edges": [], "counts": []}
    low, high = min(values), max(values)
    width = _nice_width(high - low, HISTOGRAM_BINS)
    if integers:
        width = max(1.0, float(math.ceil(width)))
    start = math.floor(low / width) * width
    bins = max(1, math.floor((high - start) / width) + 1)
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - start) // width))] += 1
    edges = [start + k * width for k in range(bins + 1)]
    return {"edges": [json_float(e) for e in edges], "counts": counts}


def distribution(values: Sequence[float], blocks: Sequence[int]) -> Distribution:
    """A metric over games: its mean with a t interval over the per-block (per-seed)
    means, the games' spread, quantiles and histogram."""
    import numpy as np

    from ckdsl.sim.stats.means import block_means, mean_interval
    from ckdsl.sim.stats.results import json_float

    data = np.asarray(values, dtype=np.float64)
    n, seeds = int(data.size), len(set(blocks))
    if data.size == 0:
        return {
            "n": n,
            "seeds": seeds,
            "mean": None,
            "sd": None,
            "min": None,
            "max": None,
            "quantiles": {},
        }
    per_seed = block_means(data, np.asarray(blocks))
    mean = mean_interval(per_seed, LEVEL, "t")
    sd = float(np.std(data, ddof=1)) if data.size > 1 else None
    quantiles = np.quantile(data, QUANTILES)
    return {
        "n": n,
        "seeds": seeds,
        "mean": mean.interval.to_json(),
        "sd": json_float(sd),
        "min": json_float(float(data.min())),
        "max": json_float(float(data.max())),
        "quantiles": {
            f"{q:g}": json_float(float(v)) for q, v in zip(QUANTILES, quantiles, strict=True)
        },
        "histogram": histogram([float(v) for v in data]),
    }


def summarize(df: pd.DataFrame) -> Summary:
    """The summary of the games in ``df`` (rows of a results store), as JSON data."""
    if not hasattr(df, "sort_values"):  # a folder given for its games: say what is wanted
        raise TypeError(
            f"summarize takes the games as a DataFrame (read_results(folder)), not "
            f"{type(df).__name__}"
        )
    import pandas as pd

    from ckdsl.sim.stats.balance import seat_balance
    from ckdsl.sim.stats.seeds import clustered_wilson, equal_means_test, seat_shares

    frame = df.sort_values(["seed_index", "lineup", "rotation"], kind="stable")
    n = len(frame)
    bots = [_as_list(b) for b in frame["bots"]]
    points = [[int(p) for p in _as_list(x)] for x in frame["points"]]
    winners = [int(w) for w in frame["winner_seat"]]
    seeds = [int(s) for s in frame["seed_index"]]
    players = max((len(b) for b in bots), default=0)
    finished = sum(w >= 0 for w in winners)
    seat_wins = [sum(w == s for w in winners) for s in range(players)]
    ones = [1.0] * n
    # The seed is the unit: a seed's rotations are not independent games.
    won_seat = {f"win_seat_{s + 1}": [float(w == s) for w in winners] for s in range(players)}
    seat_rows: list[SeatRow] = [
        {
            "seat": s + 1,
            "bots": sorted({b[s] for b in bots if s < len(b)}),
            "wins": seat_wins[s],
            "games": n,
            "win_rate": clustered_wilson(won_seat[f"win_seat_{s + 1}"], ones, seeds, LEVEL)[
                0
            ].to_json(),
        }
        for s in range(players)
    ]
    balance: _SeatBalance = {}
    if players >= 2:
        balance["seat_balance"] = seat_balance(seat_wins, finished).to_json()
        if n > len(set(seeds)):
            table = pd.DataFrame({**won_seat, "block": seeds})
            balance["seat_balance_by_seed"] = equal_means_test(
                seat_shares(table, players)[1]
            ).to_json()
    held: dict[str, int] = {}
    won: dict[str, int] = {}
    for seat_bots, w in zip(bots, winners, strict=True):
        for s, bot in enumerate(seat_bots):
            held[bot] = held.get(bot, 0) + 1
            won[bot] = won.get(bot, 0) + (w == s)

    def bot_rate(bot: str) -> IntervalJson:
        wins = [float(0 <= w < len(b) and b[w] == bot) for b, w in zip(bots, winners, strict=True)]
        seats_held = [float(list(b).count(bot)) for b in bots]
        return clustered_wilson(wins, seats_held, seeds, LEVEL)[0].to_json()

    bot_rows: list[BotRow] = [
        {"bot": bot, "seats_held": held[bot], "wins": won[bot], "win_rate": bot_rate(bot)}
        for bot in sorted(held)
    ]
    turns = distribution([int(t) for t in frame["turns"]], seeds)
    decisions = distribution([int(d) for d in frame["decisions"]], seeds)
    win_points: list[float] = []
    lose_points: list[float] = []
    win_blocks: list[int] = []
    lose_blocks: list[int] = []
    for seed, w, pts in zip(seeds, winners, points, strict=True):
        if w < 0:
            continue
        win_points.append(pts[w])
        win_blocks.append(seed)
        for s, p in enumerate(pts):
            if s != w:
                lose_points.append(p)
                lose_blocks.append(seed)
    return {
        "rules": sorted({str(r) for r in frame["rules"]}),
        "rules_hash": sorted({str(r) for r in frame["rules_hash"]}),
        "games": n,
        "seeds": len(set(seeds)),
        "players": players,
        "finished": {
            "games": finished,
            "share": clustered_wilson([float(w >= 0) for w in winners], ones, seeds, LEVEL)[
                0
            ].to_json(),
        },
        "unfinished": n - finished,
        "seats": seat_rows,
        **balance,
        "bots": bot_rows,
        "turns": turns,
        "decisions": decisions,
        "winner_points": distribution(win_points, win_blocks),
        "loser_points": distribution(lose_points, lose_blocks),
    }


# --- for a terminal ----------------------------------------------------------------------


def _pct(interval: IntervalJson) -> str:
    def show(v: float | None) -> str:
        return "n/a" if v is None else f"{100 * v:.1f}%"

    if interval["low"] is None:
        return show(interval["estimate"])
    return f"{show(interval['estimate'])} [{show(interval['low'])}, {show(interval['high'])}]"


def _num(v: float | None, digits: int = 1) -> str:
    return "n/a" if v is None else f"{v:.{digits}f}"


def _line(name: str, d: Distribution) -> str:
    mean = d["mean"]
    if not d["n"] or mean is None:  # a mean whenever there is a game
        return f"{name}: no games"
    q = d["quantiles"]
    interval = f" [{_num(mean['low'])}, {_num(mean['high'])}]" if mean["low"] is not None else ""
    return (
        f"{name}: mean {_num(mean['estimate'])}{interval}, median {_num(q['0.5'], 0)} "
        f"(quartiles {_num(q['0.25'], 0)}-{_num(q['0.75'], 0)}, "
        f"{_num(d['min'], 0)} to {_num(d['max'], 0)})"
    )


def _bars(hist: Histogram | None, width: int = 40) -> list[str]:
    if hist is None or not hist["counts"]:
        return []
    counts, edges = hist["counts"], hist["edges"]
    top = max(counts)
    lines = []
    for k, count in enumerate(counts):
        bar = "#" * (round(width * count / top) if top else 0)
        lines.append(f"  {edges[k]:>7g} - {edges[k + 1]:<7g} {count:>6}  {bar}")
    return lines


def format_summary(summary: Summary) -> str:
    """The summary as text for a terminal (intervals: 95%; means: t over seeds)."""
    if not summary["games"]:
        return "no games"
    rules = ", ".join(summary["rules"])
    fin = summary["finished"]
    lines = [
        f"{rules}: {summary['games']} games on {summary['seeds']} seeds, "
        f"{fin['games']} finished ({_pct(fin['share'])}), "
        f"{summary['unfinished']} stopped unfinished",
        "",
        "Win rate by seat (of all games; Wilson 95%, clustered by seed)",
    ]
    for seat in summary["seats"]:
        who = seat["bots"][0] if len(seat["bots"]) == 1 else "rotated"
        lines.append(
            f"  seat {seat['seat']}  {who:<24} {seat['wins']:>6} wins  {_pct(seat['win_rate'])}"
        )
    balance = summary.get("seat_balance")
    by_seed = summary.get("seat_balance_by_seed")
    if by_seed is not None and isinstance(by_seed.get("p"), float):
        lines.append(
            f"  seat balance by seed: F({by_seed['df1']}, {by_seed['df2']}) = "
            f"{by_seed['f']:.2f}, p = {by_seed['p']:.3g} (Hotelling's T² on per-seed win shares)"
        )
        if balance is not None and balance["p"] is not None:
            lines.append(
                f"  (the chi2 over games, which counts a seed's games as independent: "
                f"chi2({balance['dof']}) = {_num(balance['statistic'], 2)}, p = {balance['p']:.3g})"
            )
    elif balance is not None and balance["p"] is not None:
        lines.append(
            f"  seat balance: chi2({balance['dof']}) = {_num(balance['statistic'], 2)}, "
            f"p = {balance['p']:.3g} (finished games)"
        )
    lines += ["", "Win rate by bot (wins over seats held, clustered by seed)"]
    for bot in summary["bots"]:
        lines.append(
            f"  {bot['bot']:<32} {bot['wins']:>6} of {bot['seats_held']:<7} {_pct(bot['win_rate'])}"
        )
    lines += [
        "",
        "Means with 95% t intervals over seeds",
        "  " + _line("turns", summary["turns"]),
        "  " + _line("decisions", summary["decisions"]),
        "  " + _line("winner's points", summary["winner_points"]),
        "  " + _line("losers' points", summary["loser_points"]),
        "",
        "Turns per game",
        *_bars(summary["turns"].get("histogram")),
    ]
    return "\n".join(lines)
