"""What a comparison measures: the metrics the results support, their kind and order.

:func:`metric_specs` lists every per-game metric (:class:`MetricSpec`) the frames support,
headline metrics first; the constants say which metrics form the headline family
(Holm-corrected) and which get a pairing gain. The small readers of a results frame's cells
(lists, maps, numbers) live here too, as every later step reads cells through them.
"""

from __future__ import annotations

import fnmatch
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, SupportsFloat, SupportsIndex, TypeAlias

import numpy as np
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl.jsondata import JsonValue
from ckdsl.sim.stats.results import json_float

__all__ = [
    "HEADLINE",
    "KEY",
    "PAIRING_METRICS",
    "REPORT_VERSION",
    "SEAT_BALANCE",
    "CompareError",
    "MetricSpec",
    "UserMetric",
    "choose_headline",
    "metric_name",
    "metric_specs",
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

HEADLINE = (
    "seat_balance",
    "finished",
    "turns",
    "score_margin",
    "lead_changes",
    "decisive_fraction",
)
"""The default confirmatory family (Holm), in table order: one omnibus test of the variant's
effect on seat balance (the variant × seat test) rather than one test per seat, whose
shares add up to the finished share (collinear tests that would each pay Holm's price),
then the game's outcome and length. Decisions per game (an echo of game length) and each
seat's win rate are exploratory (Benjamini–Hochberg). ``--headline`` chooses another."""

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
class UserMetric:
    """A column of the user's own (``--metric NAME=FORMULA``, ``ckdsl.sim.user_metrics``), as
    the manifest records it. A per-game one is a number per game; a per-player one a list
    per game in seat order, reported as its total over the seats (as ``ckdsl sweep`` does)
    and seat by seat (``NAME_seat_K``, as ``ckdsl simulate`` does)."""

    name: str
    formula: str
    per_player: bool

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> UserMetric:
        """From ``{"name", "formula", "per_player"}`` (``MetricFormula.describe()``)."""
        return cls(str(data["name"]), str(data["formula"]), data.get("per_player") is True)

    def specs(self, seats: int) -> list[MetricSpec]:
        """Its rows in a report: the value per game, or the total and each seat's."""
        label = f"{self.name} = {self.formula}"
        if not self.per_player:
            return [MetricSpec(self.name, label, "mean", "user")]
        return [
            MetricSpec(self.name, f"{label}, total over the seats", "mean", "user"),
            *(
                MetricSpec(
                    f"{self.name}_seat_{s + 1}", f"{label}, {_label_seat(s)}", "mean", "user"
                )
                for s in range(seats)
            ),
        ]


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
    user: tuple[UserMetric, ...] = ()


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


def _context(frames: Sequence[pd.DataFrame], user: Sequence[UserMetric] = ()) -> _Context:
    """What the metrics of ``frames`` depend on; ``user``: the user metrics among their
    columns (those every frame has are reported; a numeric column neither known nor a user
    metric is reported too, in the group "other")."""
    columns = frozenset.intersection(*(frozenset(f.columns) for f in frames))
    mine = tuple(u for u in user if u.name in columns)
    extra = tuple(
        sorted(
            c
            for c in columns
            if not _known(c)
            and all(c != u.name for u in mine)
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
        user=mine,
    )


SEAT_BALANCE = MetricSpec(
    "seat_balance", "seat balance (variant × seat)", "mean", "outcome", "pp", 100.0, True
)
"""The row of the variant × seat test: does the variant change how the seats' win shares
differ? (``seeds.seat_change``). Its A and B are each rule set's largest gap between two
seats' win rates; it has no column of its own."""


def metric_name(text: str) -> str:
    """A metric as a user may name it: ``seat4_win`` or ``seat4`` for ``win_seat_4``,
    ``length`` for ``turns``; anything else as given (a pattern may hold ``*``)."""
    found = re.fullmatch(r"seat(\d+)(?:_win)?", text.strip())
    if found:
        return f"win_seat_{int(found.group(1))}"
    return {"length": "turns", "game_length": "turns"}.get(text.strip(), text.strip())


def choose_headline(
    specs: Sequence[MetricSpec], patterns: Sequence[str] | None = None
) -> list[MetricSpec]:
    """The specs with the confirmatory family set to the metrics matching ``patterns``
    (names or shell patterns, see :func:`metric_name`; default :data:`HEADLINE`), headline
    metrics first in the order of the patterns. A pattern matching nothing is an error."""
    chosen = [metric_name(p) for p in (HEADLINE if patterns is None else patterns)]
    names = [s.name for s in specs]
    if patterns is not None:
        unknown = [p for p in chosen if not fnmatch.filter(names, p)]
        if unknown:
            raise CompareError(
                f"no metric named {', '.join(repr(u) for u in unknown)}; the metrics include "
                f"{', '.join(names[:12])}, ..."
            )

    def rank(spec: MetricSpec) -> int:
        return next(
            (i for i, p in enumerate(chosen) if fnmatch.fnmatchcase(spec.name, p)), len(chosen)
        )

    marked = [replace(s, headline=rank(s) < len(chosen)) for s in specs]
    return sorted(marked, key=lambda s: rank(s) if s.headline else len(chosen))


def metric_specs(context: _Context) -> list[MetricSpec]:
    """Every metric the frames support, the default headline family first, in report
    order."""
    return choose_headline(_every_spec(context))


def _every_spec(context: _Context) -> list[MetricSpec]:
    has = context.columns.__contains__
    specs = [SEAT_BALANCE] if context.seats > 1 else []
    specs += [
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
    # Exploratory panel: the user's metrics first (what the user asked to measure).
    for user in context.user:
        specs += user.specs(context.seats)
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
