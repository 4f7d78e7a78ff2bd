"""The rule set compiled for play: integer indices and tuples instead of YAML-shaped dicts.

The engine's hot path (legal options, applying an answer) must never look up a string key
in a nested dict or parse anything: a rule set is compiled once, before the first game,
and every game of an experiment shares the result. Effects and formulas written in the
DSL are compiled here too (``programs``), once per rule set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from ckdsl.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from ckdsl.dsl.program import Programs

ENGINE_PARAMETERS = frozenset({
    "bank_trade_rate",
    "generic_harbor_rate",
    "merchant_trade_rate",
    "player_colours",
    "players_max",
    "players_min",
    "progress_hand_limit",
    "progress_hand_limit_own_turn",
    "robber_locked_until_first_attack",
    "second_setup_piece",
    "special_harbor_rate",
    "trade_offers_per_turn",
    "turn_limit",
    "turn_decision_limit",
    "game_decision_limit",
    "game_event_limit",
})  # fmt: skip
"""The parameters the engine's Python reads itself; every other parameter of a rule set
must be named by one of its effects, hooks, conditions or formulas (``ckdsl validate``
says which is read by nothing)."""

DECISION_BUDGETS: Final = {
    "turn_decision_limit": 1000,
    "game_decision_limit": 100_000,
    "game_event_limit": 300_000,
}
"""Every game ends: past this many answers in one turn, or in the whole game, or this many
events logged, it stops, unfinished (``Game.answer``). Parameters of the rule set; these
are their defaults, far past any real game (bots give at most a few dozen answers a turn,
a few thousand a game; a game of 500 turns logs about 4,000 events)."""

Bundle = tuple[tuple[int, int], ...]
"""Goods and amounts as (good index, amount) pairs: a cost, a production, a trade side."""


def has(hand: list[int], cost: Bundle) -> bool:
    """Whether ``hand`` holds ``cost`` (a plain loop: faster than all() on the hot path)."""
    for g, n in cost:  # noqa: SIM110
        if hand[g] < n:
            return False
    return True


@dataclass(frozen=True, slots=True)
class Production:
    """What one building yields on one terrain: fixed goods, or goods of the owner's choice."""

    goods: Bundle
    choice: int  # how many resources of choice (gold)

    def __deepcopy__(self, memo: dict[int, Any]) -> Production:
        """Immutable: a deep copy of a game shares it (and a mypyc-compiled frozen
        dataclass cannot be rebuilt field by field, as deepcopy would)."""
        return self


@dataclass(frozen=True, slots=True)
class Track:
    """An improvement track: its commodity, levels and metropolis (docs/rules.md,
    "Improvements and metropolises")."""

    id: str
    commodity: int
    levels: tuple[str, ...]  # level ids, level 1 first
    costs: tuple[int, ...]  # commodities level n costs, at index n - 1
    draws_on: tuple[frozenset[int], ...]  # red faces on which level n draws, at n - 1
    metropolis_level: int  # the first to reach it takes the metropolis
    take_level: int  # the first to reach it takes the metropolis for good
    deck: int  # index of the progress deck of this track, or -1


@dataclass(frozen=True, slots=True)
class KnightLevel:
    """One knight level (docs/rules.md, "Knights"): its strength, supply and what it requires."""

    id: str
    strength: int
    supply: int
    requires: tuple[int, int] | None  # (track, level) the owner must have reached


@dataclass(frozen=True, slots=True)
class Deck:
    id: str
    track: int
    cards: tuple[str, ...]  # every copy, in rule-set order (shuffled at the start)


@dataclass(frozen=True, slots=True)
class Card:
    """A progress card kind: its deck, when it may be played, and its points."""

    id: str
    deck: int
    timing: str  # after_roll, before_roll, on_draw
    points: int


ProgramsRef: TypeAlias = "Programs"
"""The compiled programs' type by a name that exists at run time (mypyc gives a
dataclass field's class to ``dataclass`` by name, and ``Programs`` is imported only for
type checking)."""

Param: TypeAlias = "int | float | str | bool | tuple[str, ...]"
"""The value of a parameter of the rule set (rules/schema: numbers, flags, names)."""


@dataclass(frozen=True, slots=True)
class CompiledRules:
    """Everything a game reads from its rule set, in the shape the engine wants. Every
    game of an experiment shares one, so nothing in it can be changed: its mappings are
    read-only views (``MappingProxyType``) and its lists are tuples."""

    ruleset_hash: str
    goods: tuple[str, ...]  # resources first, then commodities
    resource_count: int
    good_index: Mapping[str, int]
    bank: tuple[int, ...]
    costs: Mapping[str, Bundle]  # piece id -> cost (knight: building a basic knight)
    activate_cost: Bundle
    promote_cost: Bundle
    supply: Mapping[str, int]  # piece id or knight level id -> pieces per player
    points: Mapping[str, int]  # piece id -> victory points it is worth
    knight_levels: tuple[KnightLevel, ...]  # level 1 first
    production: Mapping[str, Mapping[str, Production]]  # terrain -> building -> yield
    terrain_resource: Mapping[str, int]  # terrain -> the resource a settlement takes there
    land: frozenset[str]  # terrains next to which pieces may stand
    white_faces: tuple[int, ...]
    red_faces: tuple[int, ...]
    event_faces: tuple[str, ...]  # one entry per face, repeated by count
    face_ship: Mapping[str, int]  # ship face -> how far the barbarians advance
    face_gate: Mapping[str, int]  # gate face -> track index
    tracks: tuple[Track, ...]
    track_index: Mapping[str, int]
    decks: tuple[Deck, ...]
    cards: Mapping[str, Card]
    barbarian_track: int
    defender_points: int
    defender_supply: int  # NO_LIMIT (-1): `supply: unlimited`
    longest_road_points: int
    longest_road_min: int
    params: Mapping[str, Param]
    programs: ProgramsRef
    counters: Mapping[str, tuple[str, str, int]]  # id -> (per game|player, reset never|turn, start)
    phases: Mapping[str, frozenset[str]]  # phase id -> the moves and actions allowed in it

    def __deepcopy__(self, memo: dict[int, Any]) -> CompiledRules:
        """Read-only all the way down: a deep copy of a game shares its rules."""
        return self

    @property
    def resources(self) -> range:
        return range(self.resource_count)

    @property
    def commodities(self) -> range:
        return range(self.resource_count, len(self.goods))

    def param(self, name: str) -> Param:
        """The rule set's parameter ``name`` (``parameters:`` in the rule files)."""
        return self.params[name]

    def number(self, name: str) -> int:
        """A whole-number parameter (the schema says which are)."""
        value = self.params[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"parameter '{name}' is {value!r}, not a whole number")
        return value

    def flag(self, name: str) -> bool:
        """A yes/no parameter."""
        value = self.params[name]
        if not isinstance(value, bool):
            raise TypeError(f"parameter '{name}' is {value!r}, not true or false")
        return value

    def text(self, name: str) -> str:
        """A parameter that names something (a piece, a colour)."""
        value = self.params[name]
        if not isinstance(value, str):
            raise TypeError(f"parameter '{name}' is {value!r}, not a name")
        return value

    def names(self, name: str) -> tuple[str, ...]:
        """A parameter that lists names (the players' colours)."""
        value = self.params[name]
        if not isinstance(value, tuple):
            raise TypeError(f"parameter '{name}' is {value!r}, not a list of names")
        return value


NO_LIMIT: Final = -1
"""A supply without limit (`supply: unlimited`)."""


def _supply(value: object) -> int:
    return NO_LIMIT if value == "unlimited" else int(str(value))


def compile_rules(ruleset: RuleSet, programs: Programs) -> CompiledRules:
    """Compile ``ruleset`` (already validated and checked) for the engine, with its
    effects and formulas compiled by the DSL (``ckdsl.dsl.program.compile_programs``,
    a layer above this one)."""
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
    terrain_resource: dict[str, int] = {}
    for terrain, spec in data["terrains"].items():
        fixed = spec.get("produces") or {}
        choice = spec.get("produces_choice") or {}
        production[terrain] = {
            building: Production(bundle(fixed.get(building)), int(choice.get(building, 0)))
            for building in ("settlement", "city")
        }
        for good in fixed.get("settlement") or {}:
            if index[good] < len(resources):
                terrain_resource[terrain] = index[good]
    tracks, track_index = _tracks(data, index)
    level_of = {
        lid: (t, n + 1) for t, track in enumerate(tracks) for n, lid in enumerate(track.levels)
    }
    knight = pieces["knight"]
    knight_levels = tuple(
        KnightLevel(
            lv["id"],
            int(lv["strength"]),
            int(lv["supply"]),
            level_of.get(lv["requires"]) if "requires" in lv else None,
        )
        for lv in knight["levels"]
    )
    supply = {pid: int(spec["supply"]) for pid, spec in pieces.items() if "supply" in spec}
    supply.update({lv.id: lv.supply for lv in knight_levels})
    decks, cards = _decks(data, track_index)
    dice = data["dice"]
    faces = dice["event_die"]["faces"]
    titles = data["titles"]
    barbarians = data["barbarians"]
    return CompiledRules(
        ruleset_hash=ruleset.hash,
        goods=goods,
        resource_count=len(resources),
        good_index=frozen(index),
        bank=bank,
        costs=frozen({pid: bundle(spec.get("cost")) for pid, spec in pieces.items()}),
        activate_cost=bundle(knight.get("activate_cost")),
        promote_cost=bundle(knight.get("promote_cost")),
        supply=frozen(supply),
        points=frozen({pid: int(spec.get("points", 0)) for pid, spec in pieces.items()}),
        knight_levels=knight_levels,
        production=frozen(production),
        terrain_resource=frozen(terrain_resource),
        land=frozenset(t for t, spec in data["terrains"].items() if spec.get("land")),
        white_faces=tuple(dice["white_die"]["faces"]),
        red_faces=tuple(dice["red_die"]["faces"]),
        event_faces=tuple(face for face, spec in faces.items() for _ in range(spec["count"])),
        face_ship=frozen(
            {f: int(s["advances_barbarians"]) for f, s in faces.items() if "track" not in s}
        ),
        face_gate=frozen({f: track_index[s["track"]] for f, s in faces.items() if "track" in s}),
        tracks=tracks,
        track_index=frozen(track_index),
        decks=decks,
        cards=frozen(cards),
        barbarian_track=int(barbarians["track_length"]),
        defender_points=int(titles["defender"]["points"]),
        defender_supply=_supply(titles["defender"]["supply"]),
        longest_road_points=int(titles["longest_road"]["points"]),
        longest_road_min=int(titles["longest_road"]["min_length"]),
        params=frozen({**DECISION_BUDGETS, **data["parameters"]}),
        programs=programs,
        counters=frozen(
            {
                cid: (
                    spec.get("per", "player"),
                    spec.get("reset", "never"),
                    int(spec.get("start", 0)),
                )
                for cid, spec in (data.get("counters") or {}).items()
            }
        ),
        phases=frozen(
            {pid: frozenset(spec["moves"]) for pid, spec in (data.get("phases") or {}).items()}
        ),
    )


def frozen(value: Any) -> Any:
    """``value`` made read-only all the way down: mappings become ``MappingProxyType``
    views of copies, lists tuples; anything else is immutable already."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(frozen(v) for v in value)
    return value


def _tracks(
    data: dict[str, Any], index: dict[str, int]
) -> tuple[tuple[Track, ...], dict[str, int]]:
    deck_of = {spec["track"]: k for k, spec in enumerate(data["decks"].values())}
    tracks = []
    for tid, spec in data["tracks"].items():
        levels = spec["levels"]
        metro = spec.get("metropolis") or {}
        tracks.append(
            Track(
                id=tid,
                commodity=index[spec["commodity"]],
                levels=tuple(level["id"] for level in levels),
                costs=tuple(int(level["cost"]) for level in levels),
                draws_on=tuple(frozenset(level.get("progress_on_red", ())) for level in levels),
                metropolis_level=int(metro.get("level", len(levels) + 1)),
                take_level=int(metro.get("take_level", len(levels) + 1)),
                deck=deck_of.get(tid, -1),
            )
        )
    return tuple(tracks), {t.id: k for k, t in enumerate(tracks)}


def _decks(
    data: dict[str, Any], track_index: dict[str, int]
) -> tuple[tuple[Deck, ...], dict[str, Card]]:
    deck_index = {d: k for k, d in enumerate(data["decks"])}
    cards = {
        cid: Card(cid, deck_index[spec["deck"]], spec.get("timing", "after_roll"),
                  int(spec.get("points", 0)))
        for cid, spec in data["cards"].items()
    }  # fmt: skip
    decks = []
    for did, spec in data["decks"].items():
        copies = [
            cid for cid, card in data["cards"].items() if card["deck"] == did
            for _ in range(int(card["count"]))
        ]  # fmt: skip
        decks.append(Deck(did, track_index[spec["track"]], tuple(copies)))
    return tuple(decks), cards
