"""One rule set's summary: each metric's estimate with its interval, win rates by seat and bot.

The seed is the unit: means get t (or bootstrap) intervals over seeds, the games of a seed
averaged first (they share the board and the dice); proportions (a seat's or a bot's wins,
the finished share) get Wilson intervals over games, on the effective number of games when
a seed has several (``seeds.clustered_wilson``); seat balance is Hotelling's test on
the per-seed win shares (``seeds.seat_balance_by_seed``), the χ² over games kept beside
it for reference.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl.jsondata import JsonValue
from ckdsl.sim.compare.specs import (
    MetricSpec,
    StoreFacts,
    _as_list,
    _Context,
    _context,
    _f,
    _finite,
    metric_specs,
)
from ckdsl.sim.compare.tables import _require, _sorted, game_table
from ckdsl.sim.stats.balance import ChiSquare, seat_balance
from ckdsl.sim.stats.means import block_means, mean_interval
from ckdsl.sim.stats.results import Interval, MeanMethod
from ckdsl.sim.stats.seeds import SeatTest, clustered_wilson, seat_balance_by_seed

__all__ = [
    "BotWin",
    "MetricSummary",
    "RuleSetSummary",
    "SeatWin",
    "Trajectory",
    "summarize_ruleset",
]

# --- One rule set --------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricSummary:
    """A metric over one rule set: the interval of its mean (Wilson over games for a
    proportion, t or bootstrap over seeds for a mean) and the per-game distribution."""

    spec: MetricSpec
    n: int  # games with a value
    interval: Interval
    sd: float | None
    median: float | None
    q1: float | None
    q3: float | None
    low: float | None
    high: float | None
    seeds: int = 0  # seeds with a value: the unit of the interval

    def to_json(self) -> dict[str, object]:
        return {
            "metric": self.spec.name,
            "label": self.spec.label,
            "unit": self.spec.unit,
            "group": self.spec.group,
            "kind": self.spec.kind,
            "n": self.n,
            "seeds": self.seeds,
            "mean": self.interval.to_json(),
            "sd": _f(self.sd),
            "median": _f(self.median),
            "q1": _f(self.q1),
            "q3": _f(self.q3),
            "min": _f(self.low),
            "max": _f(self.high),
        }


@dataclass(frozen=True)
class SeatWin:
    seat: int  # 1-based
    wins: int
    games: int
    interval: Interval

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "wins": self.wins,
            "games": self.games,
            "rate": self.interval.to_json(),
        }


@dataclass(frozen=True)
class BotWin:
    """A bot's wins over the seats it held (a game with the bot in two seats counts two)."""

    bot: str
    version: str
    wins: int
    seats_held: int
    interval: Interval

    def to_json(self) -> dict[str, object]:
        return {
            "bot": self.bot,
            "version": self.version,
            "wins": self.wins,
            "seats_held": self.seats_held,
            "rate": self.interval.to_json(),
        }


@dataclass(frozen=True)
class Trajectory:
    """Mean victory points of the eventual winner and of the other players after each number
    of turns (0: after the setup), over the finished games; a finished game keeps its final
    points after its end. ``running``: the share of those games not yet over by then."""

    turns: tuple[int, ...]
    winner: tuple[float, ...]
    others: tuple[float, ...]
    running: tuple[float, ...]
    games: int

    def to_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "turn": list(self.turns),
            "winner": [_f(v) for v in self.winner],
            "others": [_f(v) for v in self.others],
            "running": [_f(v) for v in self.running],
        }


@dataclass(frozen=True)
class RuleSetSummary:
    """Everything about one rule set's games."""

    label: str
    rules_hashes: tuple[str, ...]
    engine_versions: tuple[str, ...]
    lineups: tuple[tuple[str, ...], ...]
    bot_versions: tuple[tuple[str, str], ...]
    games: int
    finished: int
    seeds: int
    seed_index_range: tuple[int, int]
    seeds_digest: str
    rotations: tuple[int, ...]
    seats: int
    win_by_seat: tuple[SeatWin, ...]
    win_by_bot: tuple[BotWin, ...]
    seat_balance: ChiSquare  # χ² over finished games: valid with one game per seed only
    balance: float | None
    metrics: tuple[MetricSummary, ...]
    trajectory: Trajectory | None
    turns_histogram: tuple[tuple[float, ...], tuple[int, ...]]
    turns_quantiles: tuple[float, ...]
    store: StoreFacts = field(default_factory=dict)
    seconds: float | None = None
    seat_test: SeatTest | None = None  # by seed (Hotelling); None with one game per seed
    seat_design_effects: tuple[float | None, ...] = ()

    @property
    def seat_p(self) -> float | None:
        """The p-value of the seat-balance test that treats the seed as the unit."""
        return self.seat_test.p if self.seat_test is not None else self.seat_balance.p

    def metric(self, name: str) -> MetricSummary | None:
        for m in self.metrics:
            if m.spec.name == name:
                return m
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "label": self.label,
            "rules_hash": list(self.rules_hashes),
            "engine_version": list(self.engine_versions),
            "lineups": [list(lineup) for lineup in self.lineups],
            "bot_versions": dict(self.bot_versions),
            "games": self.games,
            "finished": self.finished,
            "unfinished": self.games - self.finished,
            "seeds": self.seeds,
            "seed_index_range": list(self.seed_index_range),
            "seeds_digest": self.seeds_digest,
            "rotations": list(self.rotations),
            "seats": self.seats,
            "win_by_seat": [w.to_json() for w in self.win_by_seat],
            "win_by_bot": [w.to_json() for w in self.win_by_bot],
            "seat_balance": self.seat_balance.to_json(),
            "seat_balance_by_seed": self.seat_test.to_json() if self.seat_test else None,
            "seat_design_effects": [_f(d) for d in self.seat_design_effects],
            "balance": _f(self.balance),
            "metrics": [m.to_json() for m in self.metrics],
            "trajectory": self.trajectory.to_json() if self.trajectory else None,
            "turns_histogram": {
                "edges": [_f(e) for e in self.turns_histogram[0]],
                "counts": list(self.turns_histogram[1]),
            },
            "turns_quantiles": [_f(q) for q in self.turns_quantiles],
            "store": _jsonable(self.store),
        }


def _jsonable(value: object) -> JsonValue:
    """Plain, deterministic JSON data (floats rounded, mapping keys sorted)."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, (float, np.floating)):
        return _f(float(value))
    if isinstance(value, np.integer):
        return int(value)
    return str(value)


def _unique_str(frame: pd.DataFrame, column: str) -> tuple[str, ...]:
    if column not in frame.columns:
        return ()
    return tuple(sorted({str(v) for v in frame[column]}))


def _digest(values: Iterable[int]) -> str:
    text = ",".join(str(v) for v in sorted(set(values)))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _values(
    table: pd.DataFrame, name: str
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """The finite values of a metric and their blocks (seed indices)."""
    column = table[name].to_numpy(dtype=np.float64, na_value=np.nan)
    keep = np.isfinite(column)
    return column[keep], table["block"].to_numpy()[keep]


def _summarize_metric(
    table: pd.DataFrame, spec: MetricSpec, level: float, method: MeanMethod, seed: int
) -> MetricSummary:
    values, blocks = _values(table, spec.name)
    n = int(values.size)
    if spec.kind == "proportion":
        interval, _ = clustered_wilson(values, np.ones(n), blocks, level)
    else:
        means = block_means(values, blocks)
        interval = mean_interval(means, level, method, seed).interval
    if n == 0:
        return MetricSummary(spec, 0, interval, None, None, None, None, None, None)
    q1, median, q3 = (float(q) for q in np.quantile(values, [0.25, 0.5, 0.75]))
    sd = float(np.std(values, ddof=1)) if n > 1 else None
    seeds = int(np.unique(blocks).size)
    return MetricSummary(
        spec, n, interval, sd, median, q1, q3, float(values.min()), float(values.max()), seeds
    )


def _trajectory(frame: pd.DataFrame) -> Trajectory | None:
    if "vp_trajectory" not in frame.columns:
        return None
    series: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = []
    for raw, won, seat in zip(
        frame["vp_trajectory"], frame["finished"], frame["winner_seat"], strict=True
    ):
        w = int(seat)
        if not bool(won) or w < 0:
            continue
        rows = [_as_list(t) for t in _as_list(raw)]
        if not rows or len({len(r) for r in rows}) != 1 or len(rows[0]) <= max(w, 1):
            continue
        vp = np.asarray(rows, dtype=np.float64)
        others = (vp.sum(axis=1) - vp[:, w]) / (vp.shape[1] - 1)
        series.append((vp[:, w], others))
    if not series:
        return None
    lengths = np.asarray([len(s[0]) for s in series])
    horizon = int(np.max(lengths))
    winner = np.empty((len(series), horizon))
    others = np.empty((len(series), horizon))
    for i, (w_vp, o_vp) in enumerate(series):
        k = len(w_vp)
        winner[i, :k], winner[i, k:] = w_vp, w_vp[-1]
        others[i, :k], others[i, k:] = o_vp, o_vp[-1]
    running = [(lengths - 1 > t).mean() for t in range(horizon)]
    return Trajectory(
        tuple(range(horizon)),
        tuple(float(v) for v in winner.mean(axis=0)),
        tuple(float(v) for v in others.mean(axis=0)),
        tuple(float(v) for v in running),
        len(series),
    )


MAX_BINS = 40
"""The most bins of a game-length histogram (a spike at the turn limit would otherwise make
numpy's automatic rule choose hundreds)."""


def turn_edges(values: npt.ArrayLike, max_bins: int = MAX_BINS) -> npt.NDArray[np.float64] | None:
    """Edges on half-turns, each bin a whole number of turns wide: numpy's automatic
    (Freedman–Diaconis / Sturges) width rounded up to a whole turn, widened until at most
    ``max_bins`` bins. None without a finite value."""
    data = np.asarray(values, dtype=np.float64)
    data = data[np.isfinite(data)]
    if data.size == 0:
        return None
    low, high = math.floor(float(data.min())), math.ceil(float(data.max()))
    auto = np.histogram_bin_edges(data, bins="auto")
    width = max(1, math.ceil(float(auto[1] - auto[0])) if auto.size > 1 else 1)
    span = high - low + 1
    width = max(width, math.ceil(span / max_bins))
    bins = math.ceil(span / width)
    edges: npt.NDArray[np.float64] = low - 0.5 + width * np.arange(bins + 1, dtype=np.float64)
    return edges


def _histogram(
    turns: npt.NDArray[np.float64], edges: npt.NDArray[np.float64] | None = None
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """Counts of game lengths in bins (``edges``: shared by the rule sets of a comparison)."""
    if turns.size == 0:
        return (), ()
    if edges is None:
        edges = _edges([pd.DataFrame({"turns": turns})])
    counts, bins = np.histogram(turns, bins="auto" if edges is None else edges)
    return tuple(float(e) for e in bins), tuple(int(c) for c in counts)


def _edges(tables: Iterable[pd.DataFrame]) -> npt.NDArray[np.float64] | None:
    """Bins on whole turns, shared by the rule sets (:func:`turn_edges`)."""
    values = np.concatenate([t["turns"].to_numpy(dtype=np.float64) for t in tables])
    return turn_edges(values)


def summarize_ruleset(
    label: str,
    frame: pd.DataFrame,
    *,
    context: _Context | None = None,
    level: float = 0.95,
    method: MeanMethod = "t",
    seed: int = 0,
    store: StoreFacts | None = None,
) -> RuleSetSummary:
    """The summary of one rule set's games (see the module's docstring for the methods)."""
    _require(frame, label)
    frame = _sorted(frame)
    context = context or _context([frame])
    table = game_table(frame, context)
    return _summary(label, frame, table, context, level, method, seed, store, None)


def _summary(
    label: str,
    frame: pd.DataFrame,
    table: pd.DataFrame,
    context: _Context,
    level: float,
    method: MeanMethod,
    seed: int,
    store: StoreFacts | None,
    edges: npt.NDArray[np.float64] | None,
) -> RuleSetSummary:
    games = len(table)
    finished = int(table["finished"].sum())
    seats = context.seats
    wins = [int(table[f"win_seat_{s + 1}"].sum()) for s in range(seats)]
    by_seed = seat_balance_by_seed(table, seats, level)
    clustered = by_seed.games_per_seed > 1
    win_by_seat = tuple(SeatWin(s + 1, wins[s], games, by_seed.rates[s]) for s in range(seats))
    # Bots: wins over seats held, from the raw lineups.
    held: dict[str, int] = {}
    won: dict[str, int] = {}
    played: list[tuple[tuple[str, ...], int]] = []  # each game's line-up and winning seat
    versions: dict[str, str] = {}
    lineups: set[tuple[str, ...]] = set()
    if "bots" in frame.columns:
        bot_versions = frame["bot_versions"] if "bot_versions" in frame.columns else None
        for i, raw in enumerate(frame["bots"]):
            lineup = tuple(str(b) for b in _as_list(raw))
            lineups.add(lineup)
            vers = (
                [str(v) for v in _as_list(bot_versions.iloc[i])] if bot_versions is not None else []
            )
            w = int(frame["winner_seat"].iloc[i]) if bool(frame["finished"].iloc[i]) else -1
            for s, bot in enumerate(lineup):
                held[bot] = held.get(bot, 0) + 1
                won[bot] = won.get(bot, 0) + (1 if s == w else 0)
                if s < len(vers):
                    versions.setdefault(bot, vers[s])
            played.append((lineup, w))
    blocks = table["block"].to_numpy()

    def bot_rate(bot: str) -> Interval:
        """The bot's wins over the seats it held, clustered by seed."""
        wins = [float(0 <= w < len(lineup) and lineup[w] == bot) for lineup, w in played]
        seats_held = [float(lineup.count(bot)) for lineup, _ in played]
        return clustered_wilson(wins, seats_held, blocks, level)[0]

    win_by_bot = tuple(
        BotWin(bot, versions.get(bot, ""), won[bot], held[bot], bot_rate(bot))
        for bot in sorted(held)
    )
    rates = [w / games for w in wins]
    balance = 1.0 - (max(rates) - min(rates)) if rates else None
    specs = metric_specs(context)
    present = [s for s in specs if s.name in table.columns]
    metrics = tuple(_summarize_metric(table, s, level, method, seed) for s in present)
    seconds = None
    if "seconds" in frame.columns:
        seconds = float(sum(_finite(v) or 0.0 for v in frame["seconds"]))
    seed_index = table["seed_index"]
    turns = table["turns"].to_numpy(dtype=np.float64)
    return RuleSetSummary(
        label=label,
        rules_hashes=_unique_str(frame, "rules_hash"),
        engine_versions=_unique_str(frame, "engine_version"),
        lineups=tuple(sorted(lineups)),
        bot_versions=tuple(sorted(versions.items())),
        games=games,
        finished=finished,
        seeds=int(seed_index.nunique()),
        seed_index_range=(int(seed_index.min()), int(seed_index.max())),
        seeds_digest=_digest(int(s) for s in table["seed"]),
        rotations=tuple(sorted({int(r) for r in table["rotation"]})),
        seats=seats,
        win_by_seat=win_by_seat,
        win_by_bot=win_by_bot,
        seat_balance=seat_balance(wins, finished),
        seat_test=by_seed.test if clustered else None,
        seat_design_effects=by_seed.design_effects if clustered else (),
        balance=balance,
        metrics=metrics,
        trajectory=_trajectory(frame),
        turns_histogram=_histogram(turns, edges),
        turns_quantiles=tuple(float(q) for q in np.quantile(turns, np.linspace(0, 1, 101))),
        store=dict(store or {}),
        seconds=seconds,
    )
