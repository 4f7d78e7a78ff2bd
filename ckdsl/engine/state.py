"""The game state: plain data, one RNG, nothing else.

Everything a game is lives here, in lists of ints indexed by intersection, edge, player
or good, so that copying, saving and comparing a game is cheap and exact. The board's
shape is not state (it comes from the map's topology); where the pieces stand is.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

NOBODY = -1

# What stands on an intersection.
EMPTY, SETTLEMENT, CITY = 0, 1, 2

Task = tuple[Any, ...]
"""A piece of work waiting for a player's answer: ("discard", player, how many), ..."""


@dataclass(slots=True)
class PlayerState:
    """One player's hand, pieces left in supply, and what they hold on the board."""

    hand: list[int]  # per good index
    supply: dict[str, int]  # piece id -> pieces not yet on the board
    roads: list[int] = field(default_factory=list)  # edge ids
    buildings: list[int] = field(default_factory=list)  # intersections with own settlement/city
    rates: list[int] = field(default_factory=list)  # best bank rate per good (harbors)
    points: int = 0  # tracked victory points (the property tests recount them)
    road_length: int = 0


@dataclass(slots=True)
class GameState:
    """A game in progress: the board's pieces, the players, the flow and the log."""

    seed: int
    rng: random.Random
    players: list[PlayerState]
    building: list[int]  # per intersection: EMPTY, SETTLEMENT or CITY
    owner: list[int]  # per intersection: player or NOBODY
    wall: list[bool]  # per intersection: a city wall stands there
    road: list[int]  # per edge: player or NOBODY
    robber: int  # tile id
    bank: list[int]  # per good index
    current: int = 0  # whose turn it is
    turn: int = 0  # turns begun since setup (0 during setup)
    setup_step: int = 0  # index into the setup order; past its end once setup is over
    rolled: bool = False  # the current player has rolled this turn
    dice: tuple[int, int, str] | None = None  # white, red, event face of the last roll
    queue: list[Task] = field(default_factory=list)  # decisions owed before the main phase
    fixed_rolls: list[tuple[int, int, str]] = field(default_factory=list)  # scenarios' dice
    robber_unlocked: bool = False
    longest_road_holder: int = NOBODY
    offers_made: int = 0  # trade offers to other players this turn
    winner: int = NOBODY
    over: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (the RNG as its internal state)."""
        data = {name: getattr(self, name) for name in self.__slots__ if name != "rng"}
        data["players"] = [
            {name: getattr(p, name) for name in PlayerState.__slots__} for p in self.players
        ]
        data["rng"] = self.rng.getstate()
        return data

    def digest(self) -> str:
        """A hash of the whole state: two games are identical if and only if these agree."""
        text = json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"), default=list)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
