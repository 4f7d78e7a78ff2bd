"""Per-game values: one row per game, one column per metric, and the pairing of two rule sets.

:func:`game_table` turns a results frame into one number per game and metric (NaN where a
metric is undefined for that game; unfinished games are kept). :func:`paired_blocks`
matches the games of two rule sets on ``(seed_index, lineup, rotation)`` with the same game
seed: the paired design (common random numbers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl.sim.compare.specs import (
    _COUNTS,
    _LUDII,
    _NEGATIVE_IS_MISSING,
    KEY,
    VP_SOURCES,
    CompareError,
    _as_list,
    _as_mapping,
    _Context,
    _context,
    _finite,
    _number,
)

__all__ = [
    "game_table",
    "game_tables",
    "paired_blocks",
]

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
    for user in context.user:
        if not user.per_player:
            cols[user.name] = [_finite(v) for v in frame[user.name]]
            continue
        by_seat = [[_finite(v) for v in _as_list(x)] for x in frame[user.name]]
        cols[user.name] = [
            None if not seats or None in seats else sum(v for v in seats if v is not None)
            for seats in by_seat
        ]
        for s in range(context.seats):
            cols[f"{user.name}_seat_{s + 1}"] = [
                seats[s] if s < len(seats) else None for seats in by_seat
            ]
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
