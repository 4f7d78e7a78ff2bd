"""What happened in one game, as the metric columns of its row in an experiment's store.

A :class:`GameRecorder` listens to a game's events (``Game.listen``: it hears them whether
or not the game keeps a log) and counts what the experiments compare: barbarian attacks and
their outcome, metropolises, progress cards, knights, the robber, trade, building, and the
victory points of every seat at the start of every turn. :meth:`GameRecorder.finish` turns
that into plain data (ints, floats, lists, dicts) under the names and types of
:data:`METRIC_COLUMNS`, the fixed schema of the store's metric columns::

    game = start(GameSetup(seed=7), log=False)
    recorder = GameRecorder(game)  # before the first answer
    play(game, bots)
    row.update(recorder.finish())

The recorder costs one dict lookup and one counter increment per event, and one short list
per turn for the points; everything else is worked out once, in ``finish``.

The victory-point trajectory
----------------------------

``vp_trajectory[k]`` is every seat's points at the start of turn ``k + 1`` (row 0: after the
setup), read from the tracked ``PlayerState.points`` when the ``turn`` event is heard; the
last row is the points at the end of the game (the ``win`` or ``unfinished`` event, or
``finish`` on a game still going). A game of ``T`` turns therefore has ``T + 1`` rows, and
the step from row ``k`` to row ``k + 1`` is turn ``k + 1``. In Cities & Knights every point
is public (the points cards, Printer and Constitution, are revealed when drawn), so these
are both the actual and the public points.

Ludii-style metrics on the trajectory
-------------------------------------

:func:`lead_changes`, :func:`drama`, :func:`decisiveness` and :func:`score_margin` adapt
Ludii's state-evaluation metrics (``Evaluation/src/metrics/`` in github.com/Ludeme/Ludii;
what they measure here: docs/experiments.md, "The Cities & Knights metrics"), with victory
points as the cheap state value, one state per turn rather than per move, and one value per
game (the compare report then averages over games, with intervals whose unit is the seed). They are
pure functions of a stored ``vp_trajectory``, so they can be recomputed, or new ones added,
without replaying a game. What we do differently from Ludii's source, on purpose:

- fractions are true divisions (Ludii's ``DecisivenessMoves`` divides an ``int`` by an
  ``int``, which truncates to 0 or 1);
- decisiveness is "from which turn on the winner was always among the leaders", not Ludii's
  threshold rule (the first move at which the winner's value exceeds the best value any
  non-winner ever reached): with points that only rarely go down, the threshold is usually
  the runner-up's final score, and the winner passes it only on the winning turn, so the
  threshold rule says little about a Catan game;
- a metric that needs a winner is ``None`` for an unfinished game (a turn-limit timeout),
  never 0: a timeout is not a game that was decided at once or without drama, and the
  report must count such games apart rather than average them in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from ckdsl.core.state import CITY, NOBODY

if TYPE_CHECKING:
    import pyarrow as pa

    from ckdsl.turn.game import Event, Game

Cell: TypeAlias = (
    "bool | int | float | str | list[str] | list[int] | list[list[int]] | dict[str, int] | bytes"
    " | None"
)
"""The value of one column of a game's row (``ckdsl.sim.experiment.Row``): what the
store's Arrow types hold (strings, counts, booleans, lists, maps of counts), or None."""

Trajectory = Sequence[Sequence[int]]
"""Rows of victory points, one per turn start plus the end, each in seat order."""


class MetricColumn(NamedTuple):
    """A metric column of the store: its name, its Arrow type and what it means."""

    name: str
    type: str  # "int32", "float64", "list<int32>", "list<list<int16>>", "map<string,int32>"
    description: str


_NO_WINNER = "; null without a winner"

METRIC_COLUMNS: tuple[MetricColumn, ...] = tuple(
    MetricColumn(*column)
    for column in (
        # --- barbarians
        ("attacks", "int32", "barbarian attacks"),
        ("attacks_lost", "int32", "barbarian attacks the defenders lost"),
        ("cities_pillaged", "int32", "cities lost to the barbarians"),
        ("cities_damaged", "int32", "pillaged cities left damaged (no settlement piece left)"),
        ("defender_awards", "int32", "Defender of Catan cards given (a point each)"),
        ("defender_none_left", "int32", "won attacks with one best defender but no Defender left"),
        ("defence_ties", "int32", "won attacks whose best defenders tied (no Defender given)"),
        ("defence_rewards", "int32", "progress cards taken by tied best defenders"),
        # --- improvements and metropolises
        ("improvements", "int32", "city improvement levels gained (all tracks and seats)"),
        ("metropolis_first_turn", "map<string,int32>", "per track: turn first taken (-1: never)"),
        ("metropolis_changes", "map<string,int32>", "per track: times it changed hands"),
        # --- progress cards
        ("progress_drawn", "int32", "progress cards drawn (points cards included)"),
        ("progress_played", "int32", "progress cards played"),
        ("progress_discarded", "int32", "progress cards discarded over the hand limit"),
        ("progress_seized", "int32", "progress cards taken from another hand (Spy)"),
        ("cards_drawn", "map<string,int32>", "per card id: times drawn (absent: 0)"),
        ("cards_played", "map<string,int32>", "per card id: times played (absent: 0)"),
        # --- knights
        ("knights_built", "int32", "knights built or placed by a card (not relocations)"),
        ("knights_promoted", "int32", "knight promotions"),
        ("knights_activated", "int32", "knight activations"),
        ("knights_moved", "int32", "knight moves"),
        ("knights_displaced", "int32", "knights displaced (by a knight or a card)"),
        ("robber_chases", "int32", "times a knight chased the robber away"),
        # --- robber, merchant, discards
        ("robber_moves", "int32", "robber moves (after a 7, a chase or a card)"),
        ("steals", "int32", "resources or commodities stolen (robber and cards)"),
        ("goods_discarded", "int32", "resources and commodities discarded (a 7, a card)"),
        ("merchant_moves", "int32", "merchant placements"),
        # --- roads and trade
        ("longest_road_changes", "int32", "times the longest road changed holder (or lapsed)"),
        ("bank_trades", "int32", "trades with the bank (harbors and merchant included)"),
        ("offers", "int32", "trade offers made to the other players"),
        ("trades", "int32", "trades done between players"),
        # --- building after the setup
        ("roads_built", "int32", "roads built after the setup (by cards too)"),
        ("settlements_built", "int32", "settlements built after the setup"),
        ("cities_built", "int32", "cities built after the setup (damaged ones rebuilt too)"),
        ("walls_built", "int32", "city walls built"),
        # --- victory points at the end, by source, per seat
        ("vp_settlements", "list<int32>", "per seat: points of settlements and damaged cities"),
        ("vp_cities", "list<int32>", "per seat: points of cities (metropolis bonus apart)"),
        ("vp_metropolises", "list<int32>", "per seat: points of metropolises"),
        ("vp_defender", "list<int32>", "per seat: points of Defender of Catan cards"),
        ("vp_merchant", "list<int32>", "per seat: the merchant's point"),
        ("vp_longest_road", "list<int32>", "per seat: the longest road's points"),
        ("vp_cards", "list<int32>", "per seat: points cards (Printer, Constitution)"),
        # --- the trajectory and the Ludii-style metrics
        ("vp_trajectory", "list<list<int16>>", "points per seat at each turn start, then the end"),
        ("lead_changes", "int32", "times the set of leaders changed from one turn to the next"),
        ("lead_change_rate", "float64", "lead changes per turn played"),
        ("drama_mean", "float64", "mean (most points - winner's points) per turn" + _NO_WINNER),
        ("drama_max", "int32", "largest (most points - winner's points)" + _NO_WINNER),
        ("decisive_turn", "int32", "turns before the winner led (ties too) for good" + _NO_WINNER),
        ("decisive_fraction", "float64", "decisive_turn / turns played" + _NO_WINNER),
        ("score_margin", "int32", "winner's final points - best other seat's" + _NO_WINNER),
    )
)
"""The metric columns of a game's row, in order: the store's fixed schema. Every column
may be null (``None``) where a value is undefined (no winner)."""

METRIC_NAMES: tuple[str, ...] = tuple(column.name for column in METRIC_COLUMNS)


def arrow_type(spec: str) -> pa.DataType:
    """The pyarrow type of a column type string ("int32", "list<int32>",
    "map<string,int32>", ...). Imports pyarrow, which ckdsl itself does not need."""
    import pyarrow as pa

    spec = spec.replace(" ", "")
    if spec.startswith("list<") and spec.endswith(">"):
        return pa.list_(arrow_type(spec[5:-1]))
    if spec.startswith("map<") and spec.endswith(">"):
        key, _, value = spec[4:-1].partition(",")
        return pa.map_(arrow_type(key), arrow_type(value))
    try:
        return pa.type_for_alias(spec)
    except ValueError:
        raise ValueError(f"unknown column type {spec!r}") from None


def arrow_fields() -> list[pa.Field]:
    """The pyarrow fields (nullable) of :data:`METRIC_COLUMNS`, in order, each with its
    description as field metadata."""
    import pyarrow as pa

    return [
        pa.field(c.name, arrow_type(c.type), metadata={"description": c.description})
        for c in METRIC_COLUMNS
    ]


# --- victory points by source ---------------------------------------------------------------

VP_SOURCES: tuple[str, ...] = (
    "settlements",
    "cities",
    "metropolises",
    "defender",
    "merchant",
    "longest_road",
    "cards",
)


def points_by_source(game: Game, player: int) -> dict[str, int]:
    """The player's victory points counted from the board and their cards, by source (keys
    :data:`VP_SOURCES`). It mirrors ``ckdsl.core.pieces.recount_points`` term by term, so
    the values add up to it: a damaged city counts as a settlement, a city carrying a
    metropolis counts as a city plus the metropolis bonus."""
    state, rules = game.state, game.rules
    points = rules.points
    me = state.players[player]
    cities = sum(1 for i in me.buildings if state.building[i] == CITY)
    metropolises = sum(1 for i in state.metropolis if i != NOBODY and state.owner[i] == player)
    return {
        "settlements": points["settlement"] * (len(me.buildings) - cities),
        "cities": points["city"] * cities,
        "metropolises": points["metropolis"] * metropolises,
        "defender": me.defender * rules.defender_points,
        "merchant": points["merchant"] if state.merchant_owner == player else 0,
        "longest_road": rules.longest_road_points if state.longest_road_holder == player else 0,
        "cards": sum(rules.cards[c].points for c in me.revealed),
    }


# --- the Ludii-style metrics ------------------------------------------------------------------


class LeadChanges(NamedTuple):
    number: int  # times the set of leaders changed between consecutive rows
    rate: float | None  # count / turns (rows - 1); None with fewer than two rows


class Drama(NamedTuple):
    mean: float | None  # mean over rows of (max points - winner's points); None: no winner
    max: int | None  # its largest value; None: no winner


class Decisiveness(NamedTuple):
    turn: int | None  # first row from which the winner is always among the leaders
    fraction: float | None  # turn / turns played (rows - 1)


def leaders(row: Sequence[int]) -> tuple[int, ...]:
    """The seats with the most points in ``row`` (several when tied)."""
    best = max(row)
    return tuple(p for p, points in enumerate(row) if points == best)


def lead_changes(traj: Trajectory) -> LeadChanges:
    """Adapts Ludii's ``LeadChange`` (per trial: changes of the leading set / real moves):
    the number of times the set of leaders (the seats with the most points, ties included)
    differs from one row of the trajectory to the next, and that number per turn played
    (rows - 1).

    Ties count as Ludii counts them: from {A} to {A, B} is a change, and so is the first
    turn after the setup on which somebody pulls ahead of the all-tied start. Defined for
    unfinished games (it needs no winner); the rate is None with fewer than two rows."""
    if len(traj) < 2:
        return LeadChanges(0, None)
    count = 0
    previous = leaders(traj[0])
    for row in traj[1:]:
        now = leaders(row)
        if now != previous:
            count += 1
        previous = now
    return LeadChanges(count, count / (len(traj) - 1))


def drama(traj: Trajectory, winner: int) -> Drama:
    """Adapts Ludii's ``Drama`` (a multi-metric, here with one eventual winner): per row,
    how far the eventual winner is behind the leader, ``max(row) - row[winner]`` (0 when the
    winner leads or shares the lead); its mean over every row of the trajectory and its
    largest value. A game the winner led throughout has drama 0. None without a winner
    (``winner`` < 0: Ludii has no winner to measure from either) or without rows."""
    if winner < 0 or not traj:
        return Drama(None, None)
    gaps = [max(row) - row[winner] for row in traj]
    return Drama(sum(gaps) / len(gaps), max(gaps))


def decisiveness(traj: Trajectory, winner: int) -> Decisiveness:
    """When the game was decided: the first row ``k`` such that in row ``k`` and every row
    after it the eventual winner is **among** the leaders (ties allowed: sharing the lead
    counts as leading). Row ``k`` is the start of turn ``k + 1``, so ``k`` is the number of
    turns played before the winner took the lead for good; 0: the winner never trailed
    (e.g. a game that stays tied until the winner pulls ahead also gives 0). The fraction is
    ``k / (rows - 1)``, the share of the game's turns played before that, a true division
    (cf. the truncating int division in Ludii's ``DecisivenessMoves``).

    Adapts Ludii's ``DecisivenessMoves``/``DecisivenessThreshold``, whose threshold rule we
    replace (see the module's notes). None without a winner, and also when the winner is
    not among the leaders in the last row (possible when another seat reached more points
    off its own turn)."""
    if winner < 0 or not traj:
        return Decisiveness(None, None)
    k = len(traj)
    while k > 0 and traj[k - 1][winner] == max(traj[k - 1]):
        k -= 1
    if k == len(traj):
        return Decisiveness(None, None)
    turns = len(traj) - 1
    return Decisiveness(k, k / turns if turns else None)


def score_margin(final_points: Sequence[int], winner: int) -> int | None:
    """Adapts Ludii's ``ScoreDifference`` at the end: the winner's final points minus the
    best final points of any other seat (negative if another seat ended with more). None
    without a winner or without another seat."""
    if winner < 0 or len(final_points) < 2:
        return None
    return final_points[winner] - max(q for p, q in enumerate(final_points) if p != winner)


def trajectory_metrics(traj: Trajectory, winner: int) -> dict[str, Cell]:
    """The Ludii-style columns of :data:`METRIC_COLUMNS` from a trajectory and the winner
    (-1: none); the final points are the trajectory's last row."""
    changes = lead_changes(traj)
    dram = drama(traj, winner)
    decided = decisiveness(traj, winner)
    return {
        "lead_changes": changes.number,
        "lead_change_rate": changes.rate,
        "drama_mean": dram.mean,
        "drama_max": dram.max,
        "decisive_turn": decided.turn,
        "decisive_fraction": decided.fraction,
        "score_margin": score_margin(traj[-1], winner) if traj else None,
    }


# --- the recorder -----------------------------------------------------------------------------

# Columns that are plain counts of one event (each event is counted in on_event).
_COUNTED = {
    "attacks": "attack",
    "cities_pillaged": "pillaged",
    "defender_awards": "defender",
    "defender_none_left": "defender_none_left",
    "improvements": "improve",
    "progress_played": "play",
    "progress_discarded": "discard_card",
    "progress_seized": "seize",
    "knights_promoted": "promote",
    "knights_activated": "activate",
    "knights_moved": "move_knight",
    "knights_displaced": "displace",
    "robber_chases": "chase",
    "robber_moves": "robber",
    "steals": "steal",
    "goods_discarded": "discard",
    "merchant_moves": "merchant",
    "longest_road_changes": "longest_road",
    "bank_trades": "bank_trade",
    "offers": "offer",
    "trades": "trade",
}
_BUILT = {
    "roads_built": "road",
    "settlements_built": "settlement",
    "cities_built": "city",
    "walls_built": "city_wall",
}


class GameRecorder:
    """Records one game's metrics from its events. Create it before the game's first
    answer (the trajectory starts at the first ``turn`` event); it works the same whether
    the game keeps a log or not."""

    __slots__ = (
        "_closed",
        "_metropolis_owner",
        "_relocate_at",
        "_reward_at",
        "_tie_attack",
        "attacks_lost",
        "built",
        "cards_drawn",
        "cards_played",
        "cities_damaged",
        "counts",
        "defence_rewards",
        "defence_ties",
        "game",
        "knights_built",
        "metropolis_changes",
        "metropolis_first_turn",
        "trajectory",
    )

    def __init__(self, game: Game) -> None:
        self.game = game
        self.counts: dict[str, int] = {}  # event name -> times heard
        self.trajectory: list[tuple[int, ...]] = []  # tuples: the garbage collector skips them
        self.cards_drawn: dict[str, int] = {}
        self.cards_played: dict[str, int] = {}
        self.built: dict[str, int] = {}  # piece -> built after the setup
        self.knights_built = 0
        self.attacks_lost = 0
        self.cities_damaged = 0
        self.defence_ties = 0
        self.defence_rewards = 0
        self._tie_attack = -1  # the attack (by number) whose tie was counted last
        self._reward_at = self._relocate_at = -1  # the answer (by number) last counted
        tracks = [track.id for track in game.rules.tracks]
        self.metropolis_first_turn = dict.fromkeys(tracks, -1)
        self.metropolis_changes = dict.fromkeys(tracks, 0)
        self._metropolis_owner: dict[str, int] = {}
        self._closed = False
        game.listen(self.on_event, RECORDED_EVENTS)

    def on_event(self, event: Event) -> None:
        """Count one event (the game's listener)."""
        name = event["event"]
        counts = self.counts
        counts[name] = counts.get(name, 0) + 1
        handler = _HANDLERS.get(name)
        if handler is not None:
            handler(self, event)

    # --- the events that need more than a count

    def _on_turn(self, event: Event) -> None:
        self.trajectory.append(tuple([p.points for p in self.game.state.players]))

    def _on_end(self, event: Event) -> None:
        if not self._closed:
            self._closed = True
            self.trajectory.append(tuple([p.points for p in self.game.state.players]))

    def _on_attack(self, event: Event) -> None:
        if not event["won"]:
            self.attacks_lost += 1

    def _on_draw(self, event: Event) -> None:
        card = event["card"]
        self.cards_drawn[card] = self.cards_drawn.get(card, 0) + 1
        # A tie for the best defence gives each tied player a progress card of a deck of
        # their choice: the answer ("reward", deck) draws it at once (no event says so).
        # One card per such answer: a later draw while it is still the last answer (an
        # effect that runs on after it) is not a reward.
        history = self.game.history
        if history and history[-1][0] == "reward" and self._reward_at != len(history):
            self._reward_at = len(history)
            self.defence_rewards += 1
            attack = self.counts.get("attack", 0)
            if self._tie_attack != attack:
                self._tie_attack = attack
                self.defence_ties += 1

    def _on_play(self, event: Event) -> None:
        card = event["card"]
        self.cards_played[card] = self.cards_played.get(card, 0) + 1

    def _on_pillaged(self, event: Event) -> None:
        if event["damaged"]:
            self.cities_damaged += 1

    def _on_build(self, event: Event) -> None:
        if self.game.state.turn > 0:  # not the setup's placements
            piece = event["piece"]
            self.built[piece] = self.built.get(piece, 0) + 1

    def _on_knight(self, event: Event) -> None:
        # The same event puts a displaced knight back on its owner's network, answering
        # ("relocate", i): that knight is not a new one (one knight per such answer).
        history = self.game.history
        if history and history[-1][0] == "relocate" and self._relocate_at != len(history):
            self._relocate_at = len(history)
        else:
            self.knights_built += 1

    def _on_metropolis(self, event: Event) -> None:
        track, owner = event["track"], event["player"]
        previous = self._metropolis_owner.get(track)
        if previous is None:
            self.metropolis_first_turn[track] = self.game.state.turn
            self.metropolis_changes.setdefault(track, 0)
        elif previous != owner:
            self.metropolis_changes[track] = self.metropolis_changes.get(track, 0) + 1
        self._metropolis_owner[track] = owner

    # --- the row

    def finish(self, game: Game | None = None) -> dict[str, Cell]:
        """The metric columns of this game's row (:data:`METRIC_COLUMNS`, in order), as
        plain data. Closes the trajectory with the points now if the game has not ended
        (no ``win`` or ``unfinished`` event); calling it again gives the same row.
        ``game``: the recorded game (the default; another game is refused)."""
        if game is not None and game is not self.game:
            raise ValueError("this recorder records another game")
        game = self.game
        self._on_end({})
        counts = self.counts
        row: dict[str, Cell] = {column: counts.get(event, 0) for column, event in _COUNTED.items()}
        row["attacks_lost"] = self.attacks_lost
        row["cities_damaged"] = self.cities_damaged
        row["defence_ties"] = self.defence_ties
        row["defence_rewards"] = self.defence_rewards
        row["metropolis_first_turn"] = dict(self.metropolis_first_turn)
        row["metropolis_changes"] = dict(self.metropolis_changes)
        row["progress_drawn"] = counts.get("draw", 0) + counts.get("reveal", 0)
        row["cards_drawn"] = dict(sorted(self.cards_drawn.items()))
        row["cards_played"] = dict(sorted(self.cards_played.items()))
        row["knights_built"] = self.knights_built
        for column, piece in _BUILT.items():
            row[column] = self.built.get(piece, 0)
        sources = [points_by_source(game, p) for p in range(game.n)]
        for source in VP_SOURCES:
            row[f"vp_{source}"] = [by_source[source] for by_source in sources]
        traj = [list(points) for points in self.trajectory]
        row["vp_trajectory"] = traj
        row.update(trajectory_metrics(traj, game.state.winner))
        return {name: row[name] for name in METRIC_NAMES}


_HANDLERS: dict[str, Callable[[GameRecorder, Event], None]] = {
    "turn": GameRecorder._on_turn,
    "win": GameRecorder._on_end,
    "unfinished": GameRecorder._on_end,
    "draw": GameRecorder._on_draw,
    "reveal": GameRecorder._on_draw,
    "play": GameRecorder._on_play,
    "pillaged": GameRecorder._on_pillaged,
    "build": GameRecorder._on_build,
    "knight": GameRecorder._on_knight,
    "metropolis": GameRecorder._on_metropolis,
    "attack": GameRecorder._on_attack,
}
"""The events that need more than a count, and what the recorder does with them."""

RECORDED_EVENTS: frozenset[str] = frozenset(_COUNTED.values()) | frozenset(_HANDLERS)
"""The names of the events the recorder reads (a test checks that the engine logs each)."""
