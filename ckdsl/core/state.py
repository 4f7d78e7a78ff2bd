"""The game state: plain data and the random streams, nothing else.

Everything a game is lives here, in lists of ints indexed by intersection, edge, player,
good or track, so that copying, saving and comparing a game is cheap and exact. The
board's shape is not state (it comes from the map's topology); where the pieces stand is.
The log is not state either: it is a record of what happened, kept by the game when asked
(``Game(log=...)``), and nothing in the engine reads it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields
from typing import Any, Final

from ckdsl.core.tasks import Modifier, Task

# The constants are Final: the compiled build (tools/build_mypyc.py) writes their values in
# where they are used instead of looking each up in this module at every use.
NOBODY: Final = -1

# What stands on an intersection. A damaged city is a city pillaged by the barbarians
# when its owner had no settlement piece left to put in its place (docs/rules.md,
# "Losing a city"): it counts and produces as a settlement and must be rebuilt before any
# other city is built.
EMPTY: Final = 0
SETTLEMENT: Final = 1
CITY: Final = 2
DAMAGED: Final = 3

# Knight flags, per intersection, cleared at the start of every turn: whether the knight
# was activated this turn (bit 0), and how many times it was promoted (bits 1-3) and has
# acted (bits 4 and up) this turn; the rule set's `allow` conditions read them.
ACTIVATED_THIS_TURN: Final = 1
PROMOTION: Final = 2  # added once per promotion
ACTION: Final = 16  # added once per action


@dataclass(slots=True)
class PlayerState:
    """One player's hand, pieces left in supply, and what they hold on the board."""

    hand: list[int]  # per good index
    supply: dict[str, int]  # piece id or knight level id -> pieces not yet on the board
    harbor_rates: list[int]  # best bank rate per good from harbors alone
    levels: list[int]  # improvement level per track (0: none)
    roads: list[int] = field(default_factory=list)  # edge ids
    buildings: list[int] = field(default_factory=list)  # intersections with own building
    knights: list[int] = field(default_factory=list)  # intersections with own knight
    rates: list[int] = field(default_factory=list)  # bank rate per good now (all sources)
    progress: list[str] = field(default_factory=list)  # progress cards in hand, by id
    revealed: list[str] = field(default_factory=list)  # points cards shown (Printer, ...)
    defender: int = 0  # Defender of Catan cards won
    points: int = 0  # tracked victory points (the property tests recount them)
    road_length: int = 0

    def copy(self) -> PlayerState:
        return PlayerState(
            self.hand[:],
            dict(self.supply),
            self.harbor_rates[:],
            self.levels[:],
            self.roads[:],
            self.buildings[:],
            self.knights[:],
            self.rates[:],
            self.progress[:],
            self.revealed[:],
            self.defender,
            self.points,
            self.road_length,
        )


@dataclass(slots=True)
class GameState:
    """A game in progress: the board's pieces, the players, the flow, the random streams."""

    seed: int
    rng: dict[str, int]  # random stream name -> its state (``ckdsl.rng``)
    players: list[PlayerState]
    building: list[int]  # per intersection: EMPTY, SETTLEMENT, CITY or DAMAGED
    owner: list[int]  # per intersection: owner of the building, or NOBODY
    wall: list[bool]  # per intersection: a city wall stands there
    road: list[int]  # per edge: player or NOBODY
    knight: list[int]  # per intersection: owner of the knight there, or NOBODY
    knight_level: list[int]  # per intersection: 1 basic, 2 strong, 3 mighty (0: none)
    knight_active: list[bool]  # per intersection
    knight_flags: list[int]  # per intersection: this turn's activation, promotions, actions
    robber: int  # tile id
    numbers: list[int | None]  # per tile: its number token (the Inventor swaps them)
    bank: list[int]  # per good index
    decks: list[list[str]]  # per deck: card ids, the top card last
    metropolis: list[int]  # per track: the intersection carrying its metropolis, or NOBODY
    metropolis_kept: list[bool]  # per track: taken at the take level, held for good
    current: int = 0  # whose turn it is
    turn: int = 0  # turns begun since setup (0 during setup)
    setup_step: int = 0  # index into the setup order; past its end once setup is over
    rolled: bool = False  # the current player has rolled this turn
    dice: tuple[int, int, str] | None = None  # white, red, event face of the last roll
    queue: list[Task] = field(default_factory=list)  # work owed before the main phase
    fixed_rolls: list[tuple[int, int, str]] = field(default_factory=list)  # scenarios' dice
    next_dice: tuple[int, int] | None = None  # production dice set by a card (Alchemist)
    barbarians: int = 0  # the ship's position on its track
    attacks: int = 0  # barbarian attacks so far
    robber_unlocked: bool = False
    merchant: int = NOBODY  # the tile the merchant stands on
    merchant_owner: int = NOBODY
    modifiers: list[Modifier] = field(default_factory=list)  # until the end of turn
    longest_road_holder: int = NOBODY
    offers_made: int = 0  # trade offers to other players this turn
    winner: int = NOBODY
    over: bool = False
    counters: dict[str, int | list[int]] = field(default_factory=dict)  # one, or per player
    decisions: int = 0  # answers given this game (``Game.answer``: the decision budget)
    turn_decisions: int = 0  # answers given since this turn began
    logged: int = 0  # events logged this game (``Game.log``: the budget of the log)
    step_logged: int = 0  # events logged since the last answer
    # The titles and points declared in data (``ckdsl.turn.titles``), by id: who holds
    # each (none for points by formula) and the points it gives each player now.
    titles: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (without ``titles`` when the rule set
        declares none: a game of such rules has the digest it always had)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        if not self.titles:
            del data["titles"]
        data["players"] = [{f.name: getattr(p, f.name) for f in fields(p)} for p in self.players]
        return data

    def copy(self) -> GameState:
        """A copy sharing nothing mutable with this state (for ``Game.clone``): every list
        and dict is copied, immutable values are shared. Written out field by field
        because a generic deep copy costs a hundred times more."""
        return GameState(
            self.seed,
            dict(self.rng),
            [p.copy() for p in self.players],
            self.building[:],
            self.owner[:],
            self.wall[:],
            self.road[:],
            self.knight[:],
            self.knight_level[:],
            self.knight_active[:],
            self.knight_flags[:],
            self.robber,
            self.numbers[:],
            self.bank[:],
            [deck[:] for deck in self.decks],
            self.metropolis[:],
            self.metropolis_kept[:],
            self.current,
            self.turn,
            self.setup_step,
            self.rolled,
            self.dice,
            _copied_queue(self.queue) if self.queue else [],
            self.fixed_rolls[:],
            self.next_dice,
            self.barbarians,
            self.attacks,
            self.robber_unlocked,
            self.merchant,
            self.merchant_owner,
            [mod.copy() for mod in self.modifiers] if self.modifiers else [],
            self.longest_road_holder,
            self.offers_made,
            self.winner,
            self.over,
            {k: v[:] if isinstance(v, list) else v for k, v in self.counters.items()}
            if self.counters
            else {},
            self.decisions,
            self.turn_decisions,
            self.logged,
            self.step_logged,
            dict(self.titles) if self.titles else {},
        )

    def digest(self) -> str:
        """A hash of the whole state: two games are identical if and only if these agree."""
        text = json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"), default=list)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _copied_queue(queue: list[Task]) -> list[Task]:
    """A copy of the queue sharing nothing mutable with it: each task of its own kind,
    its frames, lists and dicts copied all the way down, an object two tasks share (a
    trade offer, asked of every player and then of its maker) copied once and still
    shared by both copies; anything else is immutable and shared."""
    memo: dict[int, Any] = {}
    return [_copied(task, memo) for task in queue]


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    if isinstance(value, tuple):
        items = [_copied(v, memo) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if not isinstance(value, (list, dict)):
        return value
    done = memo.get(id(value))
    if done is None:
        if isinstance(value, list):
            done = [_copied(v, memo) for v in value]
        else:
            done = {k: _copied(v, memo) for k, v in value.items()}
        memo[id(value)] = done
    return done
