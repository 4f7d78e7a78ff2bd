"""The rule set compiled for play: integer indices and tuples instead of YAML-shaped dicts.

The engine's hot path (legal options, applying an answer) must never look up a string key
in a nested dict or parse anything: a rule set is compiled once, before the first game,
and every game of an experiment shares the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ckdsl.rules.ruleset import RuleSet

Bundle = tuple[tuple[int, int], ...]
"""Goods and amounts as (good index, amount) pairs: a cost, a production, a trade side."""


@dataclass(frozen=True, slots=True)
class Production:
    """What one building yields on one terrain: fixed goods, or goods of the owner's choice."""

    goods: Bundle
    choice: int  # how many resources of choice (gold)


@dataclass(frozen=True, slots=True)
class Track:
    """An improvement track, as far as the base turn flow needs it (C&K systems: issue 5)."""

    id: str
    commodity: int
    levels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CompiledRules:
    """Everything a game reads from its rule set, in the shape the engine wants."""

    ruleset_hash: str
    goods: tuple[str, ...]  # resources first, then commodities
    resource_count: int
    good_index: dict[str, int]
    bank: tuple[int, ...]
    costs: dict[str, Bundle]  # piece id -> cost
    supply: dict[str, int]  # piece id -> pieces per player
    points: dict[str, int]  # piece id -> victory points it is worth
    production: dict[str, dict[str, Production]]  # terrain -> building -> yield
    white_faces: tuple[int, ...]
    red_faces: tuple[int, ...]
    event_faces: tuple[str, ...]  # one entry per face, repeated by count
    tracks: tuple[Track, ...]
    longest_road_points: int
    longest_road_min: int
    params: dict[str, Any]

    @property
    def resources(self) -> range:
        return range(self.resource_count)

    def param(self, name: str) -> Any:
        return self.params[name]


def compile_rules(ruleset: RuleSet) -> CompiledRules:
    """Compile ``ruleset`` (already validated) for the engine."""
    data = ruleset.data
    resources = list(data["resources"])
    goods = tuple(resources + list(data.get("commodities", {})))
    index = {g: i for i, g in enumerate(goods)}
    bank = tuple(
        int(spec["bank"])
        for section in ("resources", "commodities")
        for spec in data.get(section, {}).values()
    )

    def bundle(amounts: dict[str, int] | None) -> Bundle:
        return tuple((index[g], int(n)) for g, n in (amounts or {}).items())

    pieces = data["pieces"]
    production: dict[str, dict[str, Production]] = {}
    for terrain, spec in data["terrains"].items():
        fixed = spec.get("produces") or {}
        choice = spec.get("produces_choice") or {}
        production[terrain] = {
            building: Production(bundle(fixed.get(building)), int(choice.get(building, 0)))
            for building in ("settlement", "city")
        }
    dice = data["dice"]
    event_faces = tuple(
        face for face, spec in dice["event_die"]["faces"].items() for _ in range(spec["count"])
    )
    tracks = tuple(
        Track(tid, index[spec["commodity"]], tuple(level["id"] for level in spec["levels"]))
        for tid, spec in data["tracks"].items()
    )
    longest = data["titles"]["longest_road"]
    return CompiledRules(
        ruleset_hash=ruleset.hash,
        goods=goods,
        resource_count=len(resources),
        good_index=index,
        bank=bank,
        costs={pid: bundle(spec.get("cost")) for pid, spec in pieces.items()},
        supply={pid: int(spec["supply"]) for pid, spec in pieces.items() if "supply" in spec},
        points={pid: int(spec.get("points", 0)) for pid, spec in pieces.items()},
        production=production,
        white_faces=tuple(dice["white_die"]["faces"]),
        red_faces=tuple(dice["red_die"]["faces"]),
        event_faces=event_faces,
        tracks=tracks,
        longest_road_points=int(longest["points"]),
        longest_road_min=int(longest["min_length"]),
        params=dict(data["parameters"]),
    )
