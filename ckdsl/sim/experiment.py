"""Experiments: which games to play, and how one game becomes one result row.

An :class:`Experiment` names a rule set, one or more bot line-ups, a number of seeds, a
master seed and whether seats rotate. Its games are identified by a **key**
``(seed_index, lineup, rotation)``:

- ``seed_index`` runs from 0 to ``games - 1``; the game's seed is
  :func:`game_seed` ``(master_seed, seed_index)``, the same for every line-up, every
  rotation and every rule set. That is the pairing: under two rule sets (or two line-ups,
  or two rotations) a seed gives the same board, the same dice and the same decks until
  the rules or the players make the games differ.
- ``lineup`` indexes ``Experiment.lineups`` (``simulate`` has one line-up; a tournament
  has several).
- ``rotation`` ``r`` seats the line-up shifted by ``r``: seat ``s`` gets
  ``lineup[(s - r) % n]``, so with rotation 1 the line-up's first bot sits in seat 1.
  Without ``rotate`` only rotation 0 is played; with it, every seed is played with each of
  the ``n`` rotations.

The bot at place ``p`` of the line-up is seeded with :func:`ckdsl.bots.bot_seed`
``(game_seed, p)`` wherever it sits, so rotating a line-up of identical bots still plays
other games.

Workers receive seeds, not games: the parent turns an experiment into a
:class:`WorkSpec` (:func:`prepare`), which carries the rule set **as data** (the merged
rules and their hash) and the parsed map, never a path, so a Dask worker on another
machine needs only ckdsl installed. A worker rebuilds the rule set, checks its hash,
compiles it once (:func:`prepared`, cached per process) and plays batches of keys
(:func:`play_batch`), returning one plain row per game (:func:`play_game`).
"""

from __future__ import annotations

import hashlib
import json
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import ckdsl
from ckdsl import arguments
from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.jsondata import JsonObject
from ckdsl.session import LayoutError, PlayersError
from ckdsl.sim.games import EVENTS, Key, game_seed, seat_positions

if TYPE_CHECKING:
    from ckdsl.board import Layout, MapSpec, Topology
    from ckdsl.bots import Bot, BotSpec
    from ckdsl.core.compiled import CompiledRules
    from ckdsl.sim.metrics import Cell
    from ckdsl.sim.user_metrics import Evaluate, MetricFormula
    from ckdsl.turn.game import Game

Row: TypeAlias = "dict[str, Cell]"
"""One game's results: the columns of :data:`ckdsl.sim.store.BASE_COLUMNS` and the
metric columns."""

DEFAULT_PLAYERS = "heuristic,heuristic,heuristic,heuristic"  # as the commands' default


def canonical_spec(text: str) -> str:
    """A bot spec with every parameter spelled out (``BotSpec.full()``); BotError if it
    names no bot or a bad parameter."""
    from ckdsl.bots import parse_spec

    return parse_spec(text).full()


def _pairs(metrics: object) -> tuple[tuple[str, str], ...]:
    """``metrics`` as a tuple of (name, formula) pairs, checked by ``Experiment``; a str
    is refused (it would be read letter by letter)."""
    if isinstance(metrics, str) or not isinstance(metrics, (tuple, list)):
        raise TypeError(f"metrics takes (name, formula) pairs, not {metrics!r:.40}")
    return tuple(metrics)


def parse_lineup(players: str | Sequence[str]) -> tuple[str, ...]:
    """A line-up from ``"heuristic,mcts:iterations=200,random"`` or a list of specs, each
    spelled out in full; BotError naming what is wrong."""
    from ckdsl.bots import parse_players

    if isinstance(players, str):
        return tuple(spec.full() for spec in parse_players(players))
    hint = "a line-up ('heuristic,random,random') or a list of bot specs"
    if not isinstance(players, (list, tuple)):
        raise TypeError(f"players takes {hint}, not {players!r:.40}")
    return tuple(canonical_spec(arguments.text(text, f"players ({hint})")) for text in players)


@dataclass(frozen=True)
class Experiment:
    """What to play: see the module's documentation for keys, seeds and rotations.

    ``rules``: ``"base"``, a variant file or a rule-set folder. ``label``: the rule set's
    name in results (default: the rule set's own name, e.g. the variant file's stem).
    ``lineups``: bot specs per seat, normalized to full specs (every parameter spelled
    out). ``games``: the number of seeds. ``players``: the number of seats, the length of
    every line-up (filled in when omitted). Raises ValueError (or BotError, a ValueError)
    for an impossible experiment.
    """

    rules: str = "base"
    lineups: tuple[tuple[str, ...], ...] = ()
    games: int = 100
    seed: int = 0
    rotate: bool = False
    map: str = "standard"
    layout: str | None = None
    label: str | None = None
    players: int | None = None
    metrics: tuple[tuple[str, str], ...] = ()
    """User metrics: (column name, DSL formula over the final state) (``user_metrics``)."""
    keep_events: bool = False
    """Keep each game's event log in the results folder (``event_logs``)."""

    def __post_init__(self) -> None:
        self._check_types()
        lineups = self.lineups or (parse_lineup(DEFAULT_PLAYERS),)
        lineups = tuple(tuple(canonical_spec(s) for s in lineup) for lineup in lineups)
        sizes = {len(lineup) for lineup in lineups}
        if 0 in sizes:
            raise ValueError("a line-up needs at least one bot")
        if len(sizes) != 1:
            raise ValueError("every line-up must seat the same number of players")
        players = sizes.pop()
        if self.players is not None and self.players != players:
            raise ValueError(f"players={self.players} but the line-ups seat {players}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"games must be a positive number of seeds, not {self.games!r}")
        object.__setattr__(self, "lineups", lineups)
        object.__setattr__(self, "players", players)

    def _check_types(self) -> None:
        """Each field of its type (a notebook's slip is a TypeError naming the field, not
        an error deep inside a game); a Path for rules or map is kept as its str."""
        object.__setattr__(self, "rules", arguments.file_name(self.rules, "rules"))
        object.__setattr__(self, "map", arguments.file_name(self.map, "map"))
        lineups: object = self.lineups
        if isinstance(lineups, str) or not isinstance(lineups, (tuple, list)):
            raise TypeError(
                f"lineups takes a list of line-ups (each a list of bot specs), not {lineups!r:.40}"
            )
        for lineup in lineups:
            arguments.texts(lineup, "each line-up")
        arguments.whole(self.seed, "seed")
        arguments.flag(self.rotate, "rotate")
        arguments.flag(self.keep_events, "keep_events")
        arguments.optional_text(self.layout, "layout")
        arguments.optional_text(self.label, "label")
        if self.players is not None:
            arguments.whole(self.players, "players")
        for pair in _pairs(self.metrics):
            if len(arguments.texts(pair, "each metric (name, formula)")) != 2:
                raise TypeError(f"each metric is a (name, formula) pair, not {pair!r:.60}")
        object.__setattr__(self, "metrics", tuple(tuple(pair) for pair in self.metrics))

    @classmethod
    def single(
        cls,
        rules: str = "base",
        players: str | Sequence[str] = DEFAULT_PLAYERS,
        *,
        games: int = 100,
        seed: int = 0,
        rotate: bool = False,
        map: str = "standard",
        layout: str | None = None,
        label: str | None = None,
        metrics: Sequence[tuple[str, str]] = (),
        keep_events: bool = False,
    ) -> Experiment:
        """An experiment with one line-up (``simulate``): ``players`` is a spec list; the
        other options are the fields of the same names."""
        return cls(
            rules=arguments.file_name(rules, "rules"),  # (a str or a Path)
            lineups=(parse_lineup(players),),
            games=games,
            seed=seed,
            rotate=rotate,
            map=arguments.file_name(map, "map"),
            layout=layout,
            label=label,
            metrics=_pairs(metrics),
            keep_events=keep_events,
        )

    @property
    def seats(self) -> int:
        assert self.players is not None  # filled in by __post_init__
        return self.players

    @property
    def rotations(self) -> range:
        return range(self.seats) if self.rotate else range(1)

    @property
    def total(self) -> int:
        """How many games the experiment has: seeds x line-ups x rotations."""
        return self.games * len(self.lineups) * len(self.rotations)

    def keys(self) -> list[Key]:
        """Every game's key, in order (seed first: a prefix holds whole seeds)."""
        return [
            (index, lineup, rotation)
            for index in range(self.games)
            for lineup in range(len(self.lineups))
            for rotation in self.rotations
        ]

    def seat_bots(self, lineup: int, rotation: int) -> tuple[str, ...]:
        """The full spec of the bot in each seat of the game (lineup, rotation)."""
        bots = self.lineups[lineup]
        return tuple(bots[p] for p in seat_positions(self.seats, rotation))


# --- what the workers receive ------------------------------------------------------------


@dataclass(frozen=True)
class WorkSpec:
    """Everything a worker needs to play an experiment's games, as plain data."""

    label: str
    rules: str  # how the rules were named ("base", a file): for messages only
    rules_name: str
    rules_data: JsonObject
    rules_hash: str
    map_name: str
    map_spec: MapSpec
    map_hash: str
    layout: str | None
    players: int
    lineups: tuple[tuple[str, ...], ...]
    bot_versions: tuple[tuple[str, ...], ...]
    master_seed: int
    rotate: bool
    engine_version: str
    metrics: tuple[MetricFormula, ...] = ()
    keep_events: bool = False
    fingerprint: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        # Everything but the bulky data, which its hashes stand for: two specs with one
        # fingerprint play identical games.
        text = json.dumps([self.label, self.rules_name, self.describe()], sort_keys=True)
        object.__setattr__(self, "fingerprint", hashlib.sha256(text.encode()).hexdigest())

    def identity(self) -> JsonObject:
        """What a results store must agree on to hold more games of this experiment."""
        return {
            "label": self.label,
            "rules_hash": self.rules_hash,
            "lineups": [[*lineup] for lineup in self.lineups],
            "bot_versions": [[*versions] for versions in self.bot_versions],
            "players": self.players,
            "map_hash": self.map_hash,
            "layout": self.layout,
            "master_seed": self.master_seed,
            "rotate": self.rotate,
            "engine_version": self.engine_version,
            # only when asked for: a folder made without them keeps its identity
            **({"metrics": [m.describe() for m in self.metrics]} if self.metrics else {}),
            **({"events": True} if self.keep_events else {}),
        }

    def describe(self) -> JsonObject:
        """The experiment as a manifest records it: the identity plus names."""
        return {"rules": self.rules, "map": self.map_name, **self.identity()}


def experiment_header(experiment: Experiment, spec: WorkSpec) -> JsonObject:
    """The experiment as a summary reports it (``simulate --json``): what the manifest
    records, then the seeds, the rotations per seed, the games in all and the sources
    that ran (digest and commit: two source trees' outputs are told apart)."""
    from ckdsl.sim import provenance

    return {
        **spec.describe(),
        "games": experiment.games,
        "rotations": len(experiment.rotations),
        "total": experiment.total,
        "sources": provenance.describe({"provenance": provenance.provenance()}),
    }


def _error(message: str, file: str = "ckdsl") -> list[Diagnostic]:
    return [Diagnostic(file, 0, 0, message)]


def prepare(experiment: Experiment) -> WorkSpec:
    """Load and check what ``experiment`` needs (in the parent, once) and pack it for the
    workers. Raises CkdslError: a broken rule or map file (its diagnostics), a line-up
    that does not fit the rule set (PlayersError), an unknown layout (LayoutError)."""
    from ckdsl.board import fixed_layout
    from ckdsl.bots import parse_spec
    from ckdsl.session import load_board, load_rules

    loaded = load_rules(experiment.rules)
    ruleset, compiled = loaded.ruleset, loaded.compiled
    low, high = compiled.number("players_min"), compiled.number("players_max")
    if not low <= experiment.seats <= high:
        raise PlayersError(
            _error(
                f"the rule set '{ruleset.name}' is for {low} to {high} players; "
                f"the line-up seats {experiment.seats}"
            )
        )
    spec, topology = load_board(experiment.map)
    if experiment.layout is None:
        terrains = set(spec.terrains)
    else:
        try:
            terrains = set(fixed_layout(spec, topology, experiment.layout).terrain)
        except (KeyError, ValueError) as exc:
            raise LayoutError(_error(str(exc).strip("'\""))) from None
    unknown = sorted(terrains - set(compiled.production))
    if unknown:
        raise CkdslError(
            _error(
                f"the map '{experiment.map}' uses terrains the rule set does not define: "
                + ", ".join(unknown)
            )
        )
    versions = tuple(
        tuple(parse_spec(text).version() for text in lineup) for lineup in experiment.lineups
    )
    metrics = _user_metrics(ruleset.data, experiment.metrics)
    return WorkSpec(
        label=experiment.label or ruleset.name,
        rules=experiment.rules,
        rules_name=ruleset.name,
        rules_data=ruleset.data,
        rules_hash=ruleset.hash,
        map_name=experiment.map,
        map_spec=spec,
        map_hash=hashlib.sha256(Path(spec.file).read_bytes()).hexdigest(),
        layout=experiment.layout,
        players=experiment.seats,
        lineups=experiment.lineups,
        bot_versions=versions,
        master_seed=experiment.seed,
        rotate=experiment.rotate,
        engine_version=ckdsl.__version__,
        metrics=tuple(metrics),
        keep_events=experiment.keep_events,
    )


def _user_metrics(data: JsonObject, metrics: Sequence[tuple[str, str]]) -> list[MetricFormula]:
    """The user metrics checked: names free and distinct, formulas compiled (CkdslError)."""
    from ckdsl.sim.store import columns
    from ckdsl.sim.user_metrics import check

    taken = {name for name, _, _ in columns()}
    for name, _ in metrics:
        if name in taken:
            raise CkdslError(_error(f"--metric {name}: a column of that name exists already"))
        taken.add(name)
    return check(data, metrics)


# --- in the workers ----------------------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """A work spec made ready to play in this process: rules compiled, map built."""

    spec: WorkSpec
    compiled: CompiledRules
    topology: Topology
    fixed: Layout | None
    bots: tuple[tuple[BotSpec, ...], ...]
    metrics: tuple[tuple[str, Evaluate], ...] = ()


_PREPARED: dict[str, Prepared] = {}
_COMPILED: dict[str, CompiledRules] = {}
_CACHE_SIZE = 8


def prepared(spec: WorkSpec) -> Prepared:
    """``spec`` ready to play, built once per process (cached by its fingerprint; the
    compiled rules by their hash)."""
    ready = _PREPARED.get(spec.fingerprint)
    if ready is None:
        ready = _prepare_here(spec)
        if len(_PREPARED) >= _CACHE_SIZE:
            _PREPARED.clear()
        _PREPARED[spec.fingerprint] = ready
    return ready


def _compiled(spec: WorkSpec) -> CompiledRules:
    from ckdsl.core.compiled import compile_rules
    from ckdsl.dsl.program import compile_programs
    from ckdsl.rules.positions import Positions
    from ckdsl.rules.ruleset import RuleSet

    compiled = _COMPILED.get(spec.rules_hash)
    if compiled is None:
        ruleset = RuleSet(spec.rules_name, spec.rules_data, Positions(), [])
        if ruleset.hash != spec.rules_hash:
            raise RuntimeError(
                f"the rule set '{spec.rules_name}' arrived changed (hash {ruleset.hash[:12]}, "
                f"sent {spec.rules_hash[:12]}): does the worker's ckdsl differ from the parent's?"
            )
        compiled = compile_rules(ruleset, compile_programs(ruleset))
        if len(_COMPILED) >= _CACHE_SIZE:
            _COMPILED.clear()
        _COMPILED[spec.rules_hash] = compiled
    return compiled


def _prepare_here(spec: WorkSpec) -> Prepared:
    from ckdsl.board import fixed_layout, topology_for
    from ckdsl.bots import parse_spec

    topology = topology_for(spec.map_spec)
    fixed = None if spec.layout is None else fixed_layout(spec.map_spec, topology, spec.layout)
    from ckdsl.sim.user_metrics import evaluator

    bots = tuple(tuple(parse_spec(text) for text in lineup) for lineup in spec.lineups)
    metrics = tuple((m.name, evaluator(spec.rules_data, m)) for m in spec.metrics)
    return Prepared(spec, _compiled(spec), topology, fixed, bots, metrics)


def start_game(ready: Prepared, key: Key) -> tuple[Game, list[Bot]]:
    """The game ``key`` at its start (no log) and its bots, seat by seat."""
    from ckdsl.board import random_layout
    from ckdsl.bots import bot_seed
    from ckdsl.turn.game import Game

    spec = ready.spec
    index, lineup, rotation = key
    seed = game_seed(spec.master_seed, index)
    layout = ready.fixed or random_layout(spec.map_spec, ready.topology, seed)
    game = Game(ready.compiled, ready.topology, layout, spec.players, seed, log=spec.keep_events)
    bots = ready.bots[lineup]
    seats = seat_positions(spec.players, rotation)
    # Each bot's stream follows its place in the line-up, not its seat: a rotation of
    # identical bots is then another game, not the same one again.
    return game, [bots[p].make(bot_seed(seed, p)) for p in seats]


def play_game(spec: WorkSpec, key: Key) -> Row:
    """Play the game ``key`` of ``spec`` and return its row (see ``ckdsl.sim.store``)."""
    from ckdsl.session import play
    from ckdsl.sim.metrics import GameRecorder

    ready = prepared(spec)
    began = time.perf_counter()
    game, bots = start_game(ready, key)
    recorder = GameRecorder(game)
    play(game, bots)
    metrics = recorder.finish(game)
    seconds = time.perf_counter() - began
    state = game.state
    index, lineup, rotation = key
    seats = seat_positions(spec.players, rotation)
    specs = [spec.lineups[lineup][p] for p in seats]
    winner = state.winner
    row: Row = {
        "rules": spec.label,
        "rules_hash": spec.rules_hash,
        "seed_index": index,
        "lineup": lineup,
        "rotation": rotation,
        "seed": state.seed,
        "engine_version": spec.engine_version,
        "bots": specs,
        "bot_versions": [spec.bot_versions[lineup][p] for p in seats],
        "winner_seat": winner,
        "winner_bot": specs[winner] if winner >= 0 else None,
        "points": [player.points for player in state.players],
        "turns": state.turn,
        "decisions": len(game.history),
        "finished": winner >= 0,
        "seconds": seconds,
    }
    row.update(metrics)
    for name, evaluate in ready.metrics:
        row[name] = evaluate(game)
    if spec.keep_events:
        from ckdsl.sim.event_logs import encode

        row[EVENTS] = encode(game.events)
    return row


class GameFailed(Exception):
    """A game raised an exception in a worker: which game (its key, seed and line-up),
    and what happened."""

    def __init__(self, key: Key, seed: int, bots: list[str], error: str, trace: str) -> None:
        super().__init__(key, seed, bots, error, trace)
        self.key, self.seed, self.bots, self.error, self.trace = key, seed, bots, error, trace

    def __str__(self) -> str:
        index, lineup, rotation = self.key
        return (
            f"game {index} (line-up {lineup}, rotation {rotation}, seed {self.seed}) "
            f"failed: {self.error}"
        )


def play_batch(
    spec: WorkSpec, keys: Iterable[Key], on_game: Callable[[], None] | None = None
) -> list[Row]:
    """Play the games ``keys`` of ``spec`` in this process; GameFailed names a game that
    raised (the rows of the batch are lost, the store never sees half a batch).
    ``on_game``: called after each game (progress)."""
    rows = []
    for key in keys:
        try:
            rows.append(play_game(spec, key))
            if on_game is not None:
                on_game()
        except Exception as exc:
            index, lineup, _ = key
            raise GameFailed(
                key,
                game_seed(spec.master_seed, index),
                list(spec.lineups[lineup]),
                f"{type(exc).__name__}: {exc}",
                traceback.format_exc(),
            ) from None
    return rows
