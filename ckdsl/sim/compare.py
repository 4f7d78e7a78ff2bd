"""Compare a base rule set with its variants: pure functions over the results' DataFrames.

:func:`compare` takes one DataFrame of games per rule set (as ``ckdsl.sim.store.read_results``
returns it: one row per game, keyed by ``(seed_index, lineup, rotation)``) and returns a
:class:`ComparisonReport`: a summary of each rule set and, for each variant, its differences
from the base with confidence intervals, tests and corrections for multiplicity.

How the numbers are made
------------------------

- **Per-game values first.** Every metric becomes one number per game (:func:`game_table`);
  NaN where it is undefined for that game (the winner's points of an unfinished game, the
  turn a metropolis was first taken when nobody took it). Unfinished games are never
  dropped: a seat's win rate and the finished share count them in the denominator.
- **One rule set.** A proportion (a seat's win rate, the finished share, a metropolis
  taken) gets a Wilson interval over the games; a mean (turns, attacks per game) gets a t
  (or bootstrap) interval over the **seeds**: the games of one seed (its seat rotations)
  are reduced to their mean first, because they share the board and the dice.
- **Variant against base.** Games are matched on ``(seed_index, lineup, rotation)`` where
  both rule sets played the same game seed: that is the paired design (common random
  numbers). Each metric is reduced to one value per seed over the matched games
  (``stats.block_means``), then compared with the paired t (or bootstrap) interval of the
  per-seed differences (``stats.diff_paired_mean``). When each seed has a single game, a
  0/1 metric uses Newcombe's paired interval and McNemar's test (``stats.diff_paired``).
  Without matched games (different seeds) the comparison falls back to independent
  samples (Newcombe's hybrid score interval, Welch's t) and says so.
- **Many metrics.** The headline metrics (the seats' win rates, finished share, turns,
  decisions, winning margin, lead changes, decisiveness) form one family over all the
  variants, corrected with Holm's method; the exploratory panel (everything else) is
  corrected with Benjamini–Hochberg. A difference is *significant* when its adjusted
  p-value is below 1 − level.
- **Pairing gain.** For game length, the first seat's win and the finished share, the
  variance of the paired difference against that of independent samples
  (``stats.pairing_gain``): how many times more seeds an unpaired design would need.

Everything is deterministic: rows are sorted by key before use, labels and metric names are
in a fixed order, the bootstrap takes ``seed``, and :meth:`ComparisonReport.to_json` has no
timestamps or timings (the optional ``run`` section, with the games' seconds, is left out
unless asked for).
"""

from __future__ import annotations

import hashlib
import json
import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, SupportsFloat, SupportsIndex, TypeAlias

import numpy as np
import numpy.typing as npt
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl.jsondata import JsonValue, arr, obj
from ckdsl.sim import stats
from ckdsl.sim.stats import (
    ChiSquare,
    Interval,
    MeanMethod,
    PairingGain,
    json_float,
)

__all__ = [
    "HEADLINE",
    "KEY",
    "PAIRING_METRICS",
    "REPORT_VERSION",
    "BotWin",
    "CompareError",
    "Comparison",
    "ComparisonReport",
    "Difference",
    "MetricSpec",
    "MetricSummary",
    "PairingRow",
    "RuleSetSummary",
    "SeatWin",
    "StoppingRule",
    "Trajectory",
    "compare",
    "game_table",
    "game_tables",
    "metric_specs",
    "paired_blocks",
    "summarize_ruleset",
]

REPORT_VERSION = 1
"""The version of the report's JSON layout."""

KEY = ("seed_index", "lineup", "rotation")
"""The columns that identify a game within a rule set's store; equal keys (and seeds) pair."""

Kind = Literal["proportion", "mean"]

VP_SOURCES = (
    "settlements",
    "cities",
    "metropolises",
    "defender",
    "merchant",
    "longest_road",
    "cards",
)
"""The ``vp_<source>`` columns: how the points were made, per seat."""

# Plain per-game count columns of the metrics module, in report order: (column, label, group).
_COUNTS: tuple[tuple[str, str, str], ...] = (
    ("attacks", "barbarian attacks per game", "barbarians"),
    ("attacks_lost", "barbarian attacks lost per game", "barbarians"),
    ("cities_pillaged", "cities pillaged per game", "barbarians"),
    ("cities_damaged", "cities left damaged (no settlement piece) per game", "barbarians"),
    ("defender_awards", "Defender of Catan awards per game", "barbarians"),
    ("defender_none_left", "won attacks with no Defender card left, per game", "barbarians"),
    ("defence_ties", "won attacks with tied best defenders, per game", "barbarians"),
    ("defence_rewards", "progress cards taken by tied defenders, per game", "barbarians"),
    ("improvements", "city improvement levels gained per game", "metropolis"),
    ("progress_drawn", "progress cards drawn per game", "progress"),
    ("progress_played", "progress cards played per game", "progress"),
    ("progress_discarded", "progress cards discarded over the limit, per game", "progress"),
    ("progress_seized", "progress cards taken by Spy, per game", "progress"),
    ("knights_built", "knights built per game", "knights"),
    ("knights_promoted", "knight promotions per game", "knights"),
    ("knights_activated", "knight activations per game", "knights"),
    ("knights_moved", "knight moves per game", "knights"),
    ("knights_displaced", "knights displaced per game", "knights"),
    ("robber_chases", "robber chased by a knight, per game", "knights"),
    ("robber_moves", "robber moves per game", "board"),
    ("steals", "goods stolen per game", "board"),
    ("goods_discarded", "goods discarded per game", "board"),
    ("merchant_moves", "merchant placements per game", "board"),
    ("longest_road_changes", "longest-road changes per game", "board"),
    ("roads_built", "roads built per game", "building"),
    ("settlements_built", "settlements built per game", "building"),
    ("cities_built", "cities built per game", "building"),
    ("walls_built", "city walls built per game", "building"),
    ("bank_trades", "bank and harbour trades per game", "trade"),
    ("offers", "trade offers per game", "trade"),
    ("trades", "trades between players per game", "trade"),
)
"""The per-game counts of ``ckdsl.sim.metrics`` in report order: (column, label, group).
A numeric column the frames have beyond these is reported too, in the group "other"."""

# Ludii-style columns (besides score_margin, lead_changes and decisive_fraction, headline).
_LUDII: tuple[tuple[str, str, str], ...] = (
    ("lead_change_rate", "lead changes per turn", ""),
    ("drama_mean", "drama: mean VP behind of the eventual winner", "VP"),
    ("drama_max", "drama: most VP behind of the eventual winner", "VP"),
    ("decisive_turn", "turn the winner took the lead for good", "turns"),
)

# Columns in which a negative number means "did not happen" (e.g. -1: never).
_NEGATIVE_IS_MISSING = frozenset({"decisive_turn", "decisive_fraction", "drama_mean", "drama_max"})

HEADLINE_BASE = (
    "finished",
    "turns",
    "decisions",
    "score_margin",
    "lead_changes",
    "decisive_fraction",
)
"""The headline metrics after the seats' win rates (``win_seat_1`` ...), when present."""

HEADLINE = ("win_seat_*", *HEADLINE_BASE)
"""The headline family, in table order (``win_seat_*``: every seat)."""

PAIRING_METRICS = ("turns", "win_seat_1", "finished")
"""The metrics whose pairing gain the report shows."""


class CompareError(ValueError):
    """The frames cannot be compared (a missing column, an unknown base, no games)."""


# --- Small helpers -------------------------------------------------------------------------


def _f(value: float | None) -> float | None:
    return json_float(value)


# What ``float()`` converts; numbers first, as they are the common case.
_FLOATABLE = (
    float,
    int,
    np.floating,
    np.integer,
    str,
    bytes,
    bytearray,
    memoryview,
    SupportsFloat,
    SupportsIndex,
)


def _number(value: object) -> float:
    """``float(value)`` of a cell of a results frame (whose cells pandas does not type);
    TypeError or ValueError when it is not a number."""
    if isinstance(value, _FLOATABLE):
        return float(value)
    raise TypeError(f"expected a number, found {type(value).__name__}")


def _finite(value: object) -> float | None:
    if value is None:
        return None
    try:
        number = _number(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _as_list(value: object) -> list[object]:
    """A list from a list, tuple, numpy array or pyarrow scalar; [] for None/NaN."""
    if value is None:
        return []
    if isinstance(value, float) and math.isnan(value):
        return []
    if isinstance(value, str):
        return [value]
    if hasattr(value, "as_py"):
        return _as_list(value.as_py())
    if isinstance(value, Iterable):
        try:
            return list(value)
        except TypeError:  # a zero-dimensional numpy array
            pass
    return [value]


def _as_mapping(value: object) -> dict[str, object]:
    """A dict from a dict, a pyarrow map as pandas shows it (a list of (key, value) pairs or
    of {"key": .., "value": ..} dicts), or a JSON text; {} for None/NaN."""
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, str):
        try:
            loaded: JsonValue = json.loads(value)
        except ValueError:
            return {}
        return _as_mapping(loaded)
    out: dict[str, object] = {}
    for item in _as_list(value):
        if isinstance(item, Mapping) and "key" in item:
            out[str(item["key"])] = item.get("value")
        elif isinstance(item, (tuple, list)) and len(item) == 2:
            out[str(item[0])] = item[1]
    return out


def _seat_count(frame: pd.DataFrame) -> int:
    counts = {len(_as_list(p)) for p in frame["points"]}
    counts.discard(0)
    if not counts:
        raise CompareError("no game has points per seat")
    return max(counts)


def _label_seat(seat: int) -> str:
    return f"seat {seat + 1}"


# --- Metric registry -----------------------------------------------------------------------


StoreFacts: TypeAlias = "Mapping[str, str | int | bool | None]"
"""Facts about a rule set's results folder shown in a report's header: where the rules
came from, the master seed, the map and layout, the rotation, the folder."""


@dataclass(frozen=True)
class MetricSpec:
    """A per-game metric: its column in :func:`game_table` and how to show it.

    ``kind``: ``"proportion"`` (0/1 per game: Wilson for one rule set; McNemar when paired
    one game per seed) or ``"mean"``. ``scale``: multiply for display (100: percentage
    points). ``headline``: in the Holm family, otherwise in the exploratory panel.
    """

    name: str
    label: str
    kind: Kind
    group: str
    unit: str = ""
    scale: float = 1.0
    headline: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "group": self.group,
            "unit": self.unit,
            "scale": self.scale,
            "headline": self.headline,
        }


def _discover(frames: Iterable[pd.DataFrame], column: str) -> list[str]:
    """The sorted keys of a map column over every frame."""
    keys: set[str] = set()
    for frame in frames:
        if column in frame.columns:
            for value in frame[column]:
                keys.update(_as_mapping(value))
    return sorted(keys)


def _bots(frames: Iterable[pd.DataFrame]) -> list[str]:
    names: set[str] = set()
    for frame in frames:
        if "bots" in frame.columns:
            for lineup in frame["bots"]:
                names.update(str(b) for b in _as_list(lineup))
    return sorted(names)


@dataclass(frozen=True)
class _Context:
    """What the metric registry depends on: seats, tracks, cards, bots, columns present."""

    seats: int
    tracks: tuple[str, ...]
    cards_drawn: tuple[str, ...]
    cards_played: tuple[str, ...]
    bots: tuple[str, ...]
    columns: frozenset[str]
    extra: tuple[str, ...] = ()


_BASE = frozenset(
    {
        "rules", "rules_hash", "seed_index", "seed", "lineup", "rotation", "engine_version",
        "bots", "bot_versions", "winner_seat", "winner_bot", "points", "turns", "decisions",
        "finished", "seconds", "vp_trajectory", "metropolis_first_turn", "metropolis_changes",
        "cards_drawn", "cards_played", "lead_changes", "decisive_fraction", "score_margin",
    }
)  # fmt: skip


def _known(name: str) -> bool:
    return (
        name in _BASE
        or name.startswith("vp_")
        or any(name == c for c, _, _ in _COUNTS)
        or any(name == c for c, _, _ in _LUDII)
    )


def _context(frames: Sequence[pd.DataFrame]) -> _Context:
    columns = frozenset.intersection(*(frozenset(f.columns) for f in frames))
    extra = tuple(
        sorted(
            c
            for c in columns
            if not _known(c)
            and all(
                pd.api.types.is_numeric_dtype(f[c]) and not pd.api.types.is_bool_dtype(f[c])
                for f in frames
            )
        )
    )
    tracks = sorted(
        set(_discover(frames, "metropolis_first_turn"))
        | set(_discover(frames, "metropolis_changes"))
    )
    return _Context(
        seats=max(_seat_count(f) for f in frames),
        tracks=tuple(tracks),
        cards_drawn=tuple(_discover(frames, "cards_drawn")),
        cards_played=tuple(_discover(frames, "cards_played")),
        bots=tuple(_bots(frames)),
        columns=columns,
        extra=extra,
    )


def metric_specs(context: _Context) -> list[MetricSpec]:
    """Every metric the frames support, headline metrics first, in report order."""
    has = context.columns.__contains__
    specs = [
        MetricSpec(
            f"win_seat_{s + 1}",
            f"{_label_seat(s)} win rate",
            "proportion",
            "outcome",
            "pp",
            100.0,
            True,
        )
        for s in range(context.seats)
    ]
    specs.append(
        MetricSpec("finished", "finished games", "proportion", "outcome", "pp", 100.0, True)
    )
    specs.append(MetricSpec("turns", "game length", "mean", "length", "turns", 1.0, True))
    if has("decisions"):
        specs.append(
            MetricSpec("decisions", "decisions per game", "mean", "length", "decisions", 1.0, True)
        )
    specs.append(
        MetricSpec("score_margin", "winning margin (1st − 2nd)", "mean", "ludii", "VP", 1.0, True)
    )
    if has("lead_changes"):
        specs.append(
            MetricSpec("lead_changes", "lead changes per game", "mean", "ludii", "", 1.0, True)
        )
    if has("decisive_fraction"):
        specs.append(
            MetricSpec(
                "decisive_fraction",
                "share of the game before the winner's lasting lead",
                "mean",
                "ludii",
                "pp",
                100.0,
                True,
            )
        )
    # Exploratory panel.
    specs.append(MetricSpec("winner_points", "winner's points", "mean", "points", "VP"))
    specs.append(MetricSpec("loser_points", "losers' mean points", "mean", "points", "VP"))
    for bot_index, bot in enumerate(context.bots):
        specs.append(
            MetricSpec(
                f"win_bot_{bot_index + 1}",
                f"{bot} win rate per seat held",
                "mean",
                "outcome",
                "pp",
                100.0,
            )
        )
    for name, label, unit in _LUDII:
        if has(name):
            specs.append(MetricSpec(name, label, "mean", "ludii", unit))
    for name, label, group in _COUNTS:
        if has(name):
            specs.append(MetricSpec(name, label, "mean", group))
        if name == "attacks_lost" and has("attacks") and has("attacks_lost"):
            specs.append(
                MetricSpec("attacks_won", "barbarian attacks won per game", "mean", "barbarians")
            )
            specs.append(
                MetricSpec(
                    "attacks_lost_share",
                    "share of barbarian attacks lost",
                    "mean",
                    "barbarians",
                    "pp",
                    100.0,
                )
            )
    for name in context.extra:
        specs.append(MetricSpec(name, f"{name.replace('_', ' ')} per game", "mean", "other"))
    for track in context.tracks:
        if has("metropolis_first_turn"):
            specs.append(
                MetricSpec(
                    f"metropolis_taken_{track}",
                    f"{track} metropolis taken",
                    "proportion",
                    "metropolis",
                    "pp",
                    100.0,
                )
            )
            specs.append(
                MetricSpec(
                    f"metropolis_turn_{track}",
                    f"turn the {track} metropolis was first taken",
                    "mean",
                    "metropolis",
                    "turns",
                )
            )
        if has("metropolis_changes"):
            specs.append(
                MetricSpec(
                    f"metropolis_changes_{track}",
                    f"{track} metropolis changes of hands per game",
                    "mean",
                    "metropolis",
                )
            )
    for source in VP_SOURCES:
        if has(f"vp_{source}"):
            specs.append(
                MetricSpec(
                    f"winner_vp_{source}",
                    f"winner's points from {source.replace('_', ' ')}",
                    "mean",
                    "points",
                    "VP",
                )
            )
    for card in context.cards_drawn:
        specs.append(MetricSpec(f"drawn_{card}", f"{card} drawn per game", "mean", "cards"))
    for card in context.cards_played:
        specs.append(MetricSpec(f"played_{card}", f"{card} played per game", "mean", "cards"))
    return specs


# --- Per-game table ------------------------------------------------------------------------


def _require(frame: pd.DataFrame, label: str) -> None:
    needed = (*KEY, "seed", "winner_seat", "points", "turns", "finished")
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise CompareError(f"the results of '{label}' lack the columns {', '.join(missing)}")
    if frame.empty:
        raise CompareError(f"the results of '{label}' hold no game")
    if frame.duplicated(list(KEY)).any():
        raise CompareError(f"the results of '{label}' hold a game twice (same {', '.join(KEY)})")


def _sorted(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows in key order, with a clean index: the order no longer depends on storage."""
    keys = pd.DataFrame(
        {
            "seed_index": frame["seed_index"].astype("int64").to_numpy(),
            "lineup": frame["lineup"].astype(str).to_numpy(),
            "rotation": frame["rotation"].astype("int64").to_numpy(),
        }
    )
    order = keys.sort_values(list(KEY), kind="stable").index.to_numpy()
    return frame.iloc[order].reset_index(drop=True)


def _margin(points: list[float], finished: bool) -> float:
    if not finished or len(points) < 2:
        return math.nan
    top = sorted(points, reverse=True)
    return float(top[0] - top[1])


def game_table(frame: pd.DataFrame, context: _Context) -> pd.DataFrame:
    """One row per game (in the frame's order) and one float column per metric
    (:func:`metric_specs`), NaN where the metric is undefined for that game; plus the key
    columns and ``block`` (the seed index) and ``seed``."""
    n = len(frame)
    finished = np.asarray([bool(x) for x in frame["finished"]], dtype=bool)
    winner = np.asarray([int(x) for x in frame["winner_seat"]], dtype=np.int64)
    winner = np.where(finished, winner, -1)
    points = [[_number(p) for p in _as_list(x)] for x in frame["points"]]
    seed_index = [int(x) for x in frame["seed_index"]]
    rotation = [int(x) for x in frame["rotation"]]
    seed = [int(x) for x in frame["seed"]]
    cols: dict[str, Sequence[float | None] | npt.NDArray[np.float64]] = {}
    for s in range(context.seats):
        cols[f"win_seat_{s + 1}"] = (winner == s).astype(np.float64)
    cols["finished"] = finished.astype(np.float64)
    cols["turns"] = np.asarray([float(x) for x in frame["turns"]])
    if "decisions" in frame.columns:
        cols["decisions"] = np.asarray([float(x) for x in frame["decisions"]])

    def winner_value(values: list[float], i: int) -> float:
        w = int(winner[i])
        return float(values[w]) if 0 <= w < len(values) else math.nan

    cols["winner_points"] = [winner_value(points[i], i) for i in range(n)]
    cols["loser_points"] = [
        float(np.mean([p for s, p in enumerate(points[i]) if s != winner[i]]))
        if winner[i] >= 0 and len(points[i]) > 1
        else math.nan
        for i in range(n)
    ]
    if "score_margin" in frame.columns:
        cols["score_margin"] = [
            (_finite(v) if finished[i] else None) for i, v in enumerate(frame["score_margin"])
        ]
    else:
        cols["score_margin"] = [_margin(points[i], bool(finished[i])) for i in range(n)]
    # Per-bot win rate per seat held: wins of the bot's seats / seats it held (NaN: absent).
    if "bots" in frame.columns:
        lineups = [[str(b) for b in _as_list(x)] for x in frame["bots"]]
        for bot_index, bot in enumerate(context.bots):
            rates: list[float] = []
            for i, lineup in enumerate(lineups):
                held = [s for s, b in enumerate(lineup) if b == bot]
                rates.append((1.0 if winner[i] in held else 0.0) / len(held) if held else math.nan)
            cols[f"win_bot_{bot_index + 1}"] = rates
    for name, _, _ in (*_LUDII, ("lead_changes", "", ""), ("decisive_fraction", "", "")):
        if name in frame.columns:
            values = [_finite(v) for v in frame[name]]
            if name in _NEGATIVE_IS_MISSING:
                values = [v if v is not None and v >= 0 else None for v in values]
            cols[name] = values
    for name in (*(c for c, _, _ in _COUNTS), *context.extra):
        if name in frame.columns:
            cols[name] = [_finite(v) for v in frame[name]]
    if "attacks" in frame.columns and "attacks_lost" in frame.columns:
        cols["attacks_lost_share"] = [
            (lost / attacks) if attacks and lost is not None else None
            for attacks, lost in zip(
                (_finite(v) for v in frame["attacks"]),
                (_finite(v) for v in frame["attacks_lost"]),
                strict=True,
            )
        ]
        cols["attacks_won"] = [
            attacks - lost if attacks is not None and lost is not None else None
            for attacks, lost in zip(
                (_finite(v) for v in frame["attacks"]),
                (_finite(v) for v in frame["attacks_lost"]),
                strict=True,
            )
        ]
    if "metropolis_first_turn" in frame.columns:
        firsts = [_as_mapping(v) for v in frame["metropolis_first_turn"]]
        for track in context.tracks:
            turns = [_finite(m.get(track)) for m in firsts]
            taken = [t is not None and t >= 0 for t in turns]
            cols[f"metropolis_taken_{track}"] = [1.0 if t else 0.0 for t in taken]
            cols[f"metropolis_turn_{track}"] = [
                t if ok else None for t, ok in zip(turns, taken, strict=True)
            ]
    if "metropolis_changes" in frame.columns:
        changes = [_as_mapping(v) for v in frame["metropolis_changes"]]
        for track in context.tracks:
            cols[f"metropolis_changes_{track}"] = [_finite(m.get(track, 0)) for m in changes]
    for source in VP_SOURCES:
        column = f"vp_{source}"
        if column in frame.columns:
            per_seat = [[_finite(v) or 0.0 for v in _as_list(x)] for x in frame[column]]
            cols[f"winner_vp_{source}"] = [winner_value(per_seat[i], i) for i in range(n)]
    for column, prefix, cards in (
        ("cards_drawn", "drawn", context.cards_drawn),
        ("cards_played", "played", context.cards_played),
    ):
        if column in frame.columns:
            maps = [_as_mapping(v) for v in frame[column]]
            for card in cards:
                cols[f"{prefix}_{card}"] = [_finite(m.get(card, 0)) for m in maps]
    data: dict[str, list[str] | npt.NDArray[np.float64 | np.int64 | np.uint64]] = {
        "lineup": [str(x) for x in frame["lineup"]]
    }
    for name, metric in cols.items():
        data[name] = np.asarray(metric, dtype=np.float64)
    data["seed_index"] = np.asarray(seed_index, dtype=np.int64)
    data["rotation"] = np.asarray(rotation, dtype=np.int64)
    data["block"] = np.asarray(seed_index, dtype=np.int64)
    data["seed"] = np.asarray(seed, dtype=np.uint64)
    return pd.DataFrame(data)


def game_tables(frames: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """:func:`game_table` of each frame, sorted by key, with the metrics of all of them."""
    ordered = {label: _sorted(frame) for label, frame in frames.items()}
    context = _context(list(ordered.values()))
    return {label: game_table(frame, context) for label, frame in ordered.items()}


# --- One rule set --------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricSummary:
    """A metric over one rule set: the interval of its mean (Wilson over games for a
    proportion, t or bootstrap over seeds for a mean) and the per-game distribution."""

    spec: MetricSpec
    n: int
    interval: Interval
    sd: float | None
    median: float | None
    q1: float | None
    q3: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, object]:
        return {
            "metric": self.spec.name,
            "label": self.spec.label,
            "unit": self.spec.unit,
            "group": self.spec.group,
            "kind": self.spec.kind,
            "n": self.n,
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
    seat_balance: ChiSquare
    balance: float | None
    metrics: tuple[MetricSummary, ...]
    trajectory: Trajectory | None
    turns_histogram: tuple[tuple[float, ...], tuple[int, ...]]
    turns_quantiles: tuple[float, ...]
    store: StoreFacts = field(default_factory=dict)
    seconds: float | None = None

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
        interval = stats.wilson(round(float(values.sum())), n, level)
    else:
        means = stats.block_means(values, blocks)
        interval = stats.mean_interval(means, level, method, seed).interval
    if n == 0:
        return MetricSummary(spec, 0, interval, None, None, None, None, None, None)
    q1, median, q3 = (float(q) for q in np.quantile(values, [0.25, 0.5, 0.75]))
    sd = float(np.std(values, ddof=1)) if n > 1 else None
    return MetricSummary(
        spec, n, interval, sd, median, q1, q3, float(values.min()), float(values.max())
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
"""The most bins of the game-length histogram (a spike at the turn limit would otherwise
make numpy's automatic rule choose hundreds)."""


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
    values = np.concatenate([t["turns"].to_numpy(dtype=np.float64) for t in tables])
    values = values[np.isfinite(values)]
    if values.size == 0:
        return None
    edges: npt.NDArray[np.float64] = np.histogram_bin_edges(values, bins="auto")
    if edges.size > MAX_BINS + 1:
        edges = np.histogram_bin_edges(values, bins=MAX_BINS)
    return edges


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
    win_by_seat = tuple(
        SeatWin(s + 1, wins[s], games, stats.wilson(wins[s], games, level)) for s in range(seats)
    )
    # Bots: wins over seats held, from the raw lineups.
    held: dict[str, int] = {}
    won: dict[str, int] = {}
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
    win_by_bot = tuple(
        BotWin(
            bot,
            versions.get(bot, ""),
            won[bot],
            held[bot],
            stats.wilson(won[bot], held[bot], level),
        )
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
        seat_balance=stats.seat_balance(wins, finished),
        balance=balance,
        metrics=metrics,
        trajectory=_trajectory(frame),
        turns_histogram=_histogram(turns, edges),
        turns_quantiles=tuple(float(q) for q in np.quantile(turns, np.linspace(0, 1, 101))),
        store=dict(store or {}),
        seconds=seconds,
    )


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
        }


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


def paired_blocks(a: pd.DataFrame, b: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, int, int]:
    """The games both tables played with the same seed, in the same order: (a rows, b rows,
    games of a left out, games of b left out). Tables as :func:`game_table` makes them."""
    keys = list(KEY)
    merged = (
        a[[*keys, "seed"]]
        .reset_index()
        .merge(b[[*keys, "seed"]].reset_index(), on=keys, suffixes=("_a", "_b"))
    )
    merged = merged[merged["seed_a"] == merged["seed_b"]]
    merged = merged.sort_values(keys, kind="stable")
    rows_a = a.loc[merged["index_a"].to_numpy()].reset_index(drop=True)
    rows_b = b.loc[merged["index_b"].to_numpy()].reset_index(drop=True)
    return rows_a, rows_b, len(a) - len(rows_a), len(b) - len(rows_b)


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
        result = stats.diff_paired(x, y, level)
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
        )
        return diff, _gain(spec, x, y)
    # Each side's mean per seed over its own games with a value (a metric that needs a
    # winner is undefined for an unfinished game), then the seeds where both have one.
    ids_a, means_a = _seed_means(x, blocks)
    ids_b, means_b = _seed_means(y, blocks)
    common = np.intersect1d(ids_a, ids_b)
    block_a = means_a[np.isin(ids_a, common)]
    block_b = means_b[np.isin(ids_b, common)]
    mean = stats.diff_paired_mean(block_a, block_b, level, method, seed)
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
    )
    return diff, _gain(spec, block_a, block_b)


def _seed_means(
    values: npt.NDArray[np.float64], blocks: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The seeds with a value and the mean of their values (NaN skipped), by seed."""
    keep = np.isfinite(values)
    return np.unique(blocks[keep]), stats.block_means(values[keep], blocks[keep])


def _gain(
    spec: MetricSpec, a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
) -> PairingGain | None:
    """The pairing gain of the headline metrics that show it (quiet on constant data)."""
    if spec.name not in PAIRING_METRICS:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)
        return stats.pairing_gain(a, b)


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
        interval = stats.diff_independent(k1, n1, k2, n2, level)
        p: float | None = None
        if n1 and n2 and 0 < k1 + k2 < n1 + n2:
            p = _finite(test_proportions_2indep(k2, n2, k1, n1, method="score").pvalue)
        elif n1 and n2:
            p = 1.0
        return Difference(
            spec, mean_a, mean_b, interval, p, "two-proportion score test", n1 + n2, False, family
        )
    result = stats.diff_independent_mean(
        stats.block_means(x_all, bx), stats.block_means(y_all, by), level, method, seed
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


def _fmt_number(value: float, digits: int) -> str:
    text = f"{abs(value):.{digits}f}"
    return ("−" if value < 0 and float(text) != 0 else "") + text


def _signed(value: float, digits: int) -> str:
    text = f"{abs(value):.{digits}f}"
    if float(text) == 0:
        return text
    return ("+" if value > 0 else "−") + text


def _digits(spec: MetricSpec) -> int:
    if spec.unit == "pp":
        return 1
    if spec.unit in ("turns", "decisions"):
        return 1
    return 2


def format_delta(d: Difference) -> str:
    """``"+28.1 turns [+24.8, +31.6]"`` or ``"−0.4 pp [−2.6, +1.8]"``."""
    spec = d.spec
    digits = _digits(spec)
    unit = f" {spec.unit}" if spec.unit else ""
    if d.delta.estimate is None:
        return "n/a"
    text = _signed(d.delta.estimate * spec.scale, digits) + unit
    if d.delta.low is not None and d.delta.high is not None:
        low = _signed(d.delta.low * spec.scale, digits)
        high = _signed(d.delta.high * spec.scale, digits)
        text += f" [{low}, {high}]"
    return text


_VERBS: dict[str, tuple[str, str]] = {
    # metric: (phrase when B > A, phrase when B < A); {m}: the size of the change
    "turns": ("lengthens games by {m}", "shortens games by {m}"),
    "decisions": ("adds {m} per game", "removes {m} per game"),
    "finished": (
        "raises the share of finished games by {m}",
        "lowers the share of finished games by {m}",
    ),
    "score_margin": ("widens the winning margin by {m}", "narrows the winning margin by {m}"),
    "lead_changes": ("adds {m} lead changes per game", "removes {m} lead changes per game"),
    "decisive_fraction": (
        "delays the winner's decisive lead by {m} of the game",
        "brings the winner's decisive lead forward by {m} of the game",
    ),
}


def _magnitude(d: Difference) -> str:
    """``"28.1 turns [24.8, 31.6]"`` in the direction of the change (absolute values)."""
    spec = d.spec
    digits = _digits(spec)
    assert d.delta.estimate is not None and d.delta.low is not None and d.delta.high is not None
    sign = 1.0 if d.delta.estimate >= 0 else -1.0
    est = abs(d.delta.estimate) * spec.scale
    low, high = sorted((sign * d.delta.low * spec.scale, sign * d.delta.high * spec.scale))
    unit = f" {spec.unit}" if spec.unit else ""
    return (
        f"{_fmt_number(est, digits)}{unit} "
        f"[{_fmt_number(low, digits)}, {_fmt_number(high, digits)}]"
    )


def _subject(spec: MetricSpec) -> str:
    if spec.name.startswith("win_seat_"):
        return spec.label.replace(" win rate", "'s win rate")
    if spec.name == "finished":
        return "the share of finished games"
    return spec.label


def verdict(variant: str, d: Difference, family_size: int) -> str:
    """A plain-language line drawn only from the interval and the corrected test:
    ``"fifteen_points lengthens games by 28.1 turns [24.8, 31.6]."``, ``"fifteen_points: no
    detectable change in seat 1's win rate (−0.4 pp [−2.6, +1.8])."``"""
    spec = d.spec
    name = _subject(spec)
    if d.delta.estimate is None or d.delta.low is None or d.delta.high is None:
        return f"{variant}: not enough games to compare {name}."
    if not d.delta.excludes(0.0):
        return f"{variant}: no detectable change in {name} ({format_delta(d)})."
    up = d.delta.estimate > 0
    if spec.name in _VERBS:
        phrase = _VERBS[spec.name][0 if up else 1].format(m=_magnitude(d))
    else:
        phrase = f"{'raises' if up else 'lowers'} {name} by {_magnitude(d)}"
    if d.significant:
        return f"{variant} {phrase}."
    correction = "Holm's" if d.family == "headline" else "Benjamini–Hochberg's"
    return (
        f"{variant}: {name} changes by {format_delta(d)}, but not significantly after "
        f"{correction} correction over {family_size} tests."
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
) -> tuple[list[Difference], list[PairingRow], list[str], _Design]:
    rows_a, rows_b, left_a, left_b = paired_blocks(a, b)
    cautions: list[str] = []
    paired = len(rows_a) > 0
    differences: list[Difference] = []
    pairing: list[PairingRow] = []
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


# --- The report ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StoppingRule:
    """How many games were played: a fixed number of seeds, or until an SPRT decided.

    ``seeds`` and ``games``: per rule set. ``details`` for an SPRT (``sprt_run``): the
    metric and its label, ``h0`` and ``h1`` (in the metric's units), ``alpha``, ``beta``,
    ``batch`` and ``max_seeds`` (in seeds), ``batches``, and ``tests``: per variant its
    ``variant``, ``llr``, ``lower_bound``, ``upper_bound``, ``decision`` and ``n`` (seeds).
    """

    kind: Literal["fixed", "sprt"]
    seeds: int
    games: int
    details: Mapping[str, JsonValue] = field(default_factory=dict)

    def describe(self) -> str:
        played = f"{self.seeds} seeds ({self.games} games) per rule set"
        if self.kind == "fixed":
            return f"fixed: {played}"
        d = self.details
        head = (
            f"SPRT on {d.get('metric_label', d.get('metric'))}: H0 Δ = {d.get('h0')}, "
            f"H1 Δ = {d.get('h1')} (α = {d.get('alpha')}, β = {d.get('beta')}), batches of "
            f"{d.get('batch')} seeds, at most {d.get('max_seeds')} seeds; played {played} "
            f"in {d.get('batches')} batches"
        )
        tests = []
        for item in arr(d.get("tests", [])):
            test = obj(item)
            decision = {
                "accept_h1": "H1 accepted",
                "accept_h0": "H0 accepted",
            }.get(str(test.get("decision")), "no decision at the cap")
            tests.append(
                f"{test.get('variant')}: {decision} (LLR {_fmt_llr(test.get('llr'))}, bounds "
                f"{_fmt_llr(test.get('lower_bound'))} and {_fmt_llr(test.get('upper_bound'))}, "
                f"{test.get('n')} seeds)"
            )
        return head + ("; " + "; ".join(tests) if tests else "")

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "seeds": self.seeds,
            "games": self.games,
            "description": self.describe(),
            "details": _jsonable(self.details),
        }


def _fmt_llr(value: JsonValue) -> str:
    number = _finite(value)
    return "n/a" if number is None else f"{number:+.3f}"


@dataclass(frozen=True)
class ComparisonReport:
    """The whole comparison: design, each rule set, each variant against the base."""

    base: str
    labels: tuple[str, ...]
    level: float
    method: MeanMethod
    seed: int
    rulesets: tuple[RuleSetSummary, ...]
    comparisons: tuple[Comparison, ...]
    headline_tests: int
    exploratory_tests: int
    stopping: StoppingRule | None = None
    notes: tuple[str, ...] = ()

    def ruleset(self, label: str) -> RuleSetSummary:
        for r in self.rulesets:
            if r.label == label:
                return r
        raise KeyError(label)

    def comparison(self, variant: str) -> Comparison:
        for c in self.comparisons:
            if c.variant == variant:
                return c
        raise KeyError(variant)

    def run_section(self) -> dict[str, object]:
        """Timings (not deterministic across runs): the games' seconds per rule set."""
        out: dict[str, object] = {}
        for r in self.rulesets:
            if r.seconds is not None:
                rate = r.games / r.seconds if r.seconds > 0 else None
                out[r.label] = {
                    "game_seconds": _f(r.seconds),
                    "games_per_cpu_second": _f(rate),
                }
        return out

    def to_json(self, *, include_run: bool = False) -> dict[str, object]:
        data: dict[str, object] = {
            "report_version": REPORT_VERSION,
            "base": self.base,
            "labels": list(self.labels),
            "level": _f(self.level),
            "interval_method": self.method,
            "bootstrap_seed": self.seed,
            "stopping": self.stopping.to_json() if self.stopping else None,
            "multiplicity": {
                "headline": {"method": "holm", "tests": self.headline_tests},
                "exploratory": {
                    "method": "benjamini-hochberg",
                    "tests": self.exploratory_tests,
                },
            },
            "rulesets": [r.to_json() for r in self.rulesets],
            "comparisons": [c.to_json() for c in self.comparisons],
            "notes": list(self.notes),
        }
        if include_run:
            data["run"] = self.run_section()
        return data

    def dumps(self, *, include_run: bool = False) -> str:
        """The JSON text: sorted keys, two-space indent, no NaN; byte-identical for equal
        inputs."""
        return json.dumps(
            self.to_json(include_run=include_run),
            indent=2,
            sort_keys=True,
            ensure_ascii=False,
            allow_nan=False,
        )


NOTES: tuple[str, ...] = (
    "Differences are variant − base (B − A).",
    "Unfinished games (turn limit) count in every denominator: a seat's win rate is its wins "
    "over all games; the seat-balance χ² test is over the finished games.",
    "One rule set: proportions have Wilson intervals over games; means have intervals over "
    "seeds (the games of a seed are averaged first).",
    "Variant against base: games are paired on (seed_index, lineup, rotation) with the same "
    "game seed; each metric is averaged per seed, and the per-seed differences get a paired "
    "interval and test; with one game per seed, 0/1 metrics use Newcombe's paired interval "
    "and McNemar's test.",
    "Headline metrics: Holm's correction over every variant's headline tests; exploratory "
    "panel: Benjamini–Hochberg. 'significant' means adjusted p < 1 − level.",
)


SPRT_NOTE = (
    "The games were played until an SPRT decided: the intervals and p-values are computed as "
    "for a fixed number of games and are somewhat optimistic after a sequential stop; quote "
    "the SPRT's decision, with its α and β, for the tested metric."
)


def compare(
    frames: Mapping[str, pd.DataFrame],
    *,
    base: str,
    level: float = 0.95,
    seed: int = 0,
    method: MeanMethod = "t",
    stopping: StoppingRule | None = None,
    stores: Mapping[str, StoreFacts] | None = None,
    progress: Callable[[str], None] | None = None,
) -> ComparisonReport:
    """Compare every rule set in ``frames`` with ``frames[base]``.

    ``frames``: label → the games of that rule set (``read_results``). ``level``: of every
    interval, and 1 − level is the significance threshold after correction. ``method``:
    ``"t"`` or ``"bootstrap"`` (BCa over seeds, with ``seed``) for the means. ``stopping``:
    how the games were played (default: a fixed number, the base's seeds and games).
    ``stores``: per label, facts about the store to show in the header (where the rules came
    from, the master seed); keep them deterministic. ``progress``: called with a line of
    text as each step starts."""
    if base not in frames:
        raise CompareError(f"no results for the base '{base}'")
    if len(frames) < 2:
        raise CompareError("need the base and at least one variant")
    if not 0.0 < level < 1.0:
        raise CompareError(f"the level must lie strictly between 0 and 1, not {level}")
    labels = (base, *(label for label in frames if label != base))
    for label in labels:
        _require(frames[label], label)
    ordered = {label: _sorted(frames[label]) for label in labels}
    context = _context(list(ordered.values()))
    specs = metric_specs(context)
    tables = {label: game_table(ordered[label], context) for label in labels}
    edges = _edges(tables.values())
    summaries = []
    for label in labels:
        if progress:
            progress(f"summarizing {label}")
        store = (stores or {}).get(label)
        summaries.append(
            _summary(
                label, ordered[label], tables[label], context, level, method, seed, store, edges
            )
        )
    raw: list[tuple[str, list[Difference], list[PairingRow], list[str], _Design]] = []
    for variant in labels[1:]:
        if progress:
            progress(f"comparing {variant} with {base}")
        diffs, pairing, cautions, design = _compare_pair(
            base, variant, tables[base], tables[variant], specs, level, method, seed
        )
        a_hashes = summaries[0].rules_hashes
        b_hashes = next(s for s in summaries if s.label == variant).rules_hashes
        if a_hashes and a_hashes == b_hashes:
            cautions.append(f"'{base}' and '{variant}' have the same rules hash (a mirror run)")
        a_lineups = summaries[0].lineups
        b_lineups = next(s for s in summaries if s.label == variant).lineups
        if a_lineups != b_lineups:
            cautions.append(f"'{base}' and '{variant}' were played by different bot line-ups")
        raw.append((variant, diffs, pairing, cautions, design))
    # Multiplicity: Holm over all headline tests, BH over all exploratory ones.
    alpha = 1.0 - level
    adjusted: dict[tuple[str, str], tuple[float | None, bool]] = {}
    sizes: dict[str, int] = {}
    for family, correct in (("headline", stats.holm), ("exploratory", stats.benjamini_hochberg)):
        members = [(v, d) for v, diffs, *_ in raw for d in diffs if d.family == family]
        results = correct([d.p for _, d in members], alpha)
        sizes[family] = sum(1 for _, d in members if d.p is not None)
        for (v, d), result in zip(members, results, strict=True):
            adjusted[(v, d.spec.name)] = result
    comparisons = []
    for variant, diffs, pairing, cautions, design in raw:
        final = []
        for d in diffs:
            adj, sig = adjusted[(variant, d.spec.name)]
            final.append(
                Difference(
                    d.spec,
                    d.a,
                    d.b,
                    d.delta,
                    d.p,
                    d.test,
                    d.n,
                    d.paired,
                    d.family,
                    adj,
                    sig,
                    d.table,
                )
            )
        verdicts = tuple(
            verdict(variant, d, sizes["headline"]) for d in final if d.family == "headline"
        )
        paired, matched, seeds, left_a, left_b = design
        comparisons.append(
            Comparison(
                base,
                variant,
                paired,
                matched,
                seeds,
                left_a,
                left_b,
                tuple(final),
                tuple(pairing),
                verdicts,
                tuple(cautions),
            )
        )
    if stopping is None:
        stopping = StoppingRule("fixed", summaries[0].seeds, summaries[0].games)
    notes: tuple[str, ...] = NOTES
    if stopping.kind == "sprt":
        notes = (*NOTES, SPRT_NOTE)
    return ComparisonReport(
        base=base,
        labels=labels,
        level=level,
        method=method,
        seed=seed,
        rulesets=tuple(summaries),
        comparisons=tuple(comparisons),
        headline_tests=sizes["headline"],
        exploratory_tests=sizes["exploratory"],
        stopping=stopping,
        notes=notes,
    )
