"""A game: the state plus the one path that changes it, ``answer``.

``Game.pending`` is the decision owed now (who, what kind, every legal option);
``Game.answer(option)`` checks the option, applies it and leaves the game at its next
decision. Bots, people, scenarios and replays all go through ``answer``, so a game is
fully determined by its rule set, map layout, seed and the list of answers.
``Game.clone()`` copies a game cheaply (search bots play on copies), and
``Game.view(player)`` is what one player may know of it (``ckdsl.core.view``).

This module only routes: the rules live in one module per system (``turn``, ``trade``,
``knights``, ``improvements``, ``progress``, ``barbarians``, ``pieces``), each giving the
options it adds to a decision and the handlers that apply the answers. Work that must
happen before the turn goes on (a discard, a barbarian attack's losses, production after
them, a card's effect waiting for a choice) waits in ``state.queue`` as plain tuples.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, Protocol

from mypy_extensions import mypyc_attr

from ckdsl.core import (
    barbarians,
    building,
    derived,
    hands,
    improvements,
    knights,
    pieces,
    progress,
    trade,
)
from ckdsl.core.allow import Env
from ckdsl.core.compiled import Bundle, CompiledRules
from ckdsl.core.decisions import (
    Asked,
    AutoTask,
    Decision,
    Handler,
    IllegalAnswer,
    MainOptions,
    Option,
    Refusal,
    TaskOptions,
    Verb,
    new_decision,
)
from ckdsl.core.state import EMPTY, NOBODY, GameState, PlayerState
from ckdsl.core.tasks import (
    BeginTurnTask,
    CloseTurnTask,
    EffectTask,
    EndTurnTask,
    HookTask,
    Task,
)
from ckdsl.core.values import Variables
from ckdsl.core.view import PlayerView
from ckdsl.dsl import runtime
from ckdsl.events import EventKind
from ckdsl.rng import Stream, derive, streams
from ckdsl.turn import actions, cards, refusals, setup, titles, turn
from ckdsl.turn.cards import PlayableKey

if TYPE_CHECKING:
    from ckdsl.board import Layout, Topology

OVER: Final = new_decision(NOBODY, "over", ())

Event = dict[str, Any]
"""A logged event: {"event": name, "player": who, ...details}."""


class Chooser(Protocol):
    """What answers a player's decisions from their view (``ckdsl.bots.Bot``)."""

    def choose(self, view: PlayerView) -> Option: ...


@mypyc_attr(allow_interpreted_subclasses=True)  # mypyc: Game.__new__ skips __init__
class Game:
    """One game on one board under one compiled rule set."""

    def __init__(
        self,
        rules: CompiledRules,
        topology: Topology,
        layout: Layout,
        players: int,
        seed: int,
        *,
        log: bool = True,
    ) -> None:
        """``log``: keep the log of events (``events``); simulations and search turn it
        off, and nothing in the engine reads it."""
        low, high = rules.number("players_min"), rules.number("players_max")
        if not low <= players <= high:
            raise ValueError(f"this rule set is for {low} to {high} players, not {players}")
        self.rules = rules
        # The game's budgets (``Game.answer`` reads them after every answer): read once.
        self.budgets: tuple[tuple[str, int], ...] = tuple(
            (name, rules.number(name))
            for name in ("turn_decision_limit", "game_decision_limit", "game_event_limit")
        )
        self.topo = topology
        self.layout = layout
        self.n = players
        self.terrain: tuple[str, ...] = layout.terrain
        production = rules.production
        # What each tile yields, indexed by what stands on the corner (SETTLEMENT, CITY,
        # DAMAGED, which yields as a settlement; index EMPTY is never read).
        self.tile_yields = tuple(
            (production[t]["settlement"],) * 2
            + (production[t]["city"], production[t]["settlement"])
            for t in self.terrain
        )
        self._orders = tuple(
            tuple((p + k) % players for k in range(players)) for p in range(players)
        )
        # Harbors: which goods an intersection lets its owner trade at a better rate.
        self.harbor_at: dict[int, str] = {}
        for edge, kind in zip(topology.harbor_edges, layout.harbors, strict=True):
            for i in topology.edge_ends[edge]:
                self.harbor_at[i] = kind
        second = rules.text("second_setup_piece")
        self.setup_order: tuple[tuple[int, str], ...] = tuple(
            [(p, step) for p in range(players) for step in ("settlement", "road")]
            + [(p, step) for p in reversed(range(players)) for step in (second, "road")]
        )
        goods = len(rules.goods)
        bank_rate = rules.number("bank_trade_rate")
        people = [
            PlayerState(
                hand=[0] * goods,
                supply=dict(rules.supply),
                harbor_rates=[bank_rate] * goods,
                levels=[0] * len(rules.tracks),
                rates=[bank_rate] * goods,
            )
            for _ in range(players)
        ]
        spots = len(topology.inter_tiles)
        decks = []
        for deck in rules.decks:  # each deck shuffled by a stream of its own
            cards = list(deck.cards)
            Stream(derive(seed, "deck", deck.id)).shuffle(cards)
            decks.append(cards)
        self.state = GameState(
            seed=seed,
            rng=streams(seed),
            players=people,
            building=[EMPTY] * spots,
            owner=[NOBODY] * spots,
            wall=[False] * spots,
            road=[NOBODY] * len(topology.edge_ends),
            knight=[NOBODY] * spots,
            knight_level=[0] * spots,
            knight_active=[False] * spots,
            knight_flags=[0] * spots,
            robber=layout.robber,
            numbers=list(layout.number),
            bank=list(rules.bank),
            decks=decks,
            metropolis=[NOBODY] * len(rules.tracks),
            metropolis_kept=[False] * len(rules.tracks),
            robber_unlocked=not rules.flag("robber_locked_until_first_attack"),
            counters={
                cid: [start] * players if per == "player" else start
                for cid, (per, _, start) in rules.counters.items()
            },
        )
        # Answers of the board rules kept until the board changes (``ckdsl.core.derived``),
        # under the stamp of the board they were computed on; clones share the table.
        self.derived: dict[derived.Key, tuple[int, Any]] = {}
        self.board_stamp = derived.new_stamp()
        self.yield_stamps: dict[int, int] = {}
        # Which cards can be played, kept by what their openings read (``cards.why_not``):
        # a game's own (its points counter is not unique to it), emptied by ``refresh``.
        self.playable: dict[PlayableKey, str | None] = {}
        self.index_numbers()
        self._decision: Decision | None = None
        self._settled = False  # nothing is due but the turn's decision (see ``pending``)
        self.points_changes = 0  # how many times points changed (``add_points``)
        self.hook_depth = 0  # hooks running inside one another now (``run_hook``)
        self.hooks_run = 0  # hooks run since the last answer (``runtime.MAX_HOOK_RUNS``)
        # Effects that ended on a choice with nothing to choose: (source, id, line of the
        # effect), for ``ckdsl validate --play`` (not part of the state, nor of a copy).
        self.empty_choices: list[tuple[str, str, int]] = []
        # When the win condition was last found unmet: points_changes and whose turn.
        self._win_checked, self._win_current = -1, -1
        self.history: list[Option] = []  # every answer applied, in order (the save file)
        self.events: list[Event] = []
        self.logging = log
        self._listeners: tuple[tuple[Collection[str] | None, Callable[[Event], None]], ...] = ()
        found = tables()
        self.handlers, self.task_options = found.handlers, found.task_options
        self.auto_tasks, self.main_verbs = found.auto_tasks, found.main_verbs
        self.main_options = found.main_options
        pieces.refresh_all_rates(self)

    def clone(self, *, log: bool | None = None) -> Game:
        """A copy of this game that shares everything immutable (rules, board, tables)
        and copies the state, the history, the log and the random streams: playing on the
        copy never changes this game. ``log``: keep a log in the copy (default: as this
        game does; a copy without a log starts with none)."""
        new = self._shallow_copy()
        new.state = self.state.copy()
        new.history = self.history[:]
        new.logging = self.logging if log is None else log
        new.events = self.events[:] if new.logging and self.logging else []
        new._listeners = ()
        new.playable = {}  # its points will change apart from this game's: not shared
        new.empty_choices = []
        return new

    def with_hidden(self, state: GameState) -> Game:
        """A game in ``state``, which differs from this game's state only in what some
        player cannot see (hands, progress cards, decks, random streams): a
        determinization (``PlayerView.determinize``). It keeps this game's board stamps
        and the answers kept under them (``derived``), exact for the same board; without
        history or log, its pending decision not yet listed."""
        new = self._shallow_copy()
        new.state = state
        new.history, new.events, new.logging, new._listeners = [], [], False, ()
        new._decision, new._settled, new._win_checked = None, False, -1
        new.playable = {}  # keyed by its points counter, which will part from this game's
        new.empty_choices = []
        return new

    def _shallow_copy(self) -> Game:
        """A new game sharing every attribute of this one (``clone`` and ``with_hidden``
        then replace what must not be shared). Written out attribute by attribute: under
        mypyc a game has no ``__dict__`` (tests/test_clone_view.py checks none is missed)."""
        new = Game.__new__(Game)  # no __init__ (mypyc: allow_interpreted_subclasses)
        new.rules, new.topo, new.layout, new.n = self.rules, self.topo, self.layout, self.n
        new.terrain, new.tile_yields, new._orders = self.terrain, self.tile_yields, self._orders
        new.harbor_at, new.setup_order = self.harbor_at, self.setup_order
        new.budgets = self.budgets
        new.state, new.tiles_by_number = self.state, self.tiles_by_number
        new.derived, new.board_stamp = self.derived, self.board_stamp
        new.yield_stamps, new.playable = self.yield_stamps, self.playable
        new._decision, new._settled = self._decision, self._settled
        new.points_changes, new.hook_depth = self.points_changes, self.hook_depth
        new.hooks_run, new.empty_choices = self.hooks_run, self.empty_choices
        new._win_checked, new._win_current = self._win_checked, self._win_current
        new.history, new.events, new.logging = self.history, self.events, self.logging
        new._listeners = self._listeners
        new.handlers, new.task_options = self.handlers, self.task_options
        new.auto_tasks, new.main_verbs = self.auto_tasks, self.main_verbs
        new.main_options = self.main_options
        return new

    def play_out(
        self, players: Sequence[Chooser], on_answer: Callable[[Game], None] | None = None
    ) -> None:
        """Let ``players`` (one per seat) answer every decision until the game is over,
        each from its own view (``ckdsl.session.play``). Here, not in the session, so the
        compiled build (tools/build_mypyc.py) runs the loop of every simulated game
        compiled too."""
        while True:
            decision = self.pending
            if decision.kind == "over":
                return
            player = decision.player
            self.answer(players[player].choose(self.view(player)))
            if on_answer is not None:
                on_answer(self)

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know of this game now (ckdsl.core.view)."""
        return PlayerView(self, player)

    def listen(
        self, listener: Callable[[Event], None], events: Collection[str] | None = None
    ) -> None:
        """Call ``listener`` with every event from now on (only those named in ``events``,
        if given), logged or not: metrics. A game without a log builds an event only
        when a listener wants it."""
        self._listeners = (*self._listeners, (events, listener))

    def board_changed(self) -> None:
        """Every change of where pieces stand comes here: where a piece may go and where a
        knight reaches (``ckdsl.core.derived``) may have changed."""
        self.board_stamp = derived.new_stamp()

    def yields_changed(self, tiles: Iterable[int]) -> None:
        """A building next to ``tiles`` changed, or the robber left or entered one: what
        their numbers produce (``ckdsl.core.derived``) may have changed. A new table of
        stamps, not a change of the old one, which clones share."""
        numbers = self.state.numbers
        changed = {n: derived.new_stamp() for n in (numbers[t] for t in tiles) if n is not None}
        self.yield_stamps = {**self.yield_stamps, **changed}

    def index_numbers(self) -> None:
        """Which tiles carry each number (again after the Inventor swaps two tokens), and
        new stamps for what every number and every piece allows."""
        self.tiles_by_number = derived.tiles_by_number(self.state.numbers)
        self.yield_stamps = {n: derived.new_stamp() for n in self.tiles_by_number}
        self.board_changed()

    # --- the decision path -----------------------------------------------------------

    @property
    def pending(self) -> Decision:
        """The decision owed now (``kind == "over"`` once the game has ended)."""
        decision = self._decision
        if decision is None:
            # After an answer nothing is left to run (``answer`` ran it): only the turn's
            # options to list. After a direct change of the state, run what is due first.
            decision = self._turn_decision() if self._settled else self._advance()
            assert decision is not None  # listed: the turn's decision included
            self._decision = decision
        return decision

    def peek(self) -> Decision | None:
        """The decision owed now if it is already known, or None when it is a turn's or
        a setup step's decision whose options have not been listed yet (``pending`` lists
        them). Nothing is left to run in that case: a search can stop there cheaply."""
        return self._decision

    def answer(self, option: Option) -> None:
        """Apply ``option`` to the pending decision, or raise IllegalAnswer and change nothing."""
        decision = self.pending
        if decision.kind == "over":
            raise IllegalAnswer(Refusal("refused_game_over"))
        option = tuple(option)
        if option not in decision.options:
            if not option or not decision.accepts_open(option[0]):
                # Why, asked only now: listing the options never explains anything.
                why = refusals.explain(self, decision, option, tables().forms)
                raise IllegalAnswer(why or refusals.not_legal(decision))
            self.check_open(decision, option)
        self._decision = None
        self.hooks_run = 0
        self.history.append(option)
        state = self.state
        state.decisions += 1
        state.turn_decisions += 1  # (before the answer: an `end` that begins a turn resets it)
        state.step_logged = 0
        self.handlers[decision.kind](self, decision.player, option)
        # Everything that follows on its own (production after a roll, the rest of a
        # card's effect) happens now, so the state after an answer is complete. The
        # options of a turn's decision are listed only when asked for (``pending``): a
        # search that looks one answer ahead never needs them.
        self._decision = self._advance(list_turn=False)
        self._settled = self._decision is None
        if not state.over:
            for (limit, budget), used in zip(
                self.budgets, (state.turn_decisions, state.decisions, state.logged), strict=True
            ):
                if used >= budget:
                    self._out_of_budget(limit)
                    break

    def _out_of_budget(self, limit: str) -> None:
        """Every game ends: one whose hooks or phases ask for answers without end (a
        phase a hook opens again and again), or log without end, stops, unfinished, at
        its budget, and the log says which (``turn_decision_limit``,
        ``game_decision_limit`` or ``game_event_limit``)."""
        state = self.state
        state.over = True
        state.queue.clear()
        self.log("unfinished", NOBODY, turns=state.turn, limit=limit, budget=True)
        self._decision, self._settled = OVER, False

    def refresh(self, *, list_now: bool = False) -> None:
        """Forget the cached pending decision, after the state was changed directly
        (a scenario's position, a test); ``list_now``: list the new one at once, so that
        clones made from here share it."""
        self._decision = None
        self._settled = False
        self._win_checked = -1  # the points may have been set directly
        self.playable = {}
        self.index_numbers()  # and the pieces
        if list_now:
            self._decision = self._advance()

    def _advance(self, *, list_turn: bool = True) -> Decision | None:
        """Run the work that needs nobody's answer and return the next decision (None for
        a setup or turn decision when ``list_turn`` is off: nothing is left to run then,
        and ``pending`` lists it when asked)."""
        state = self.state
        queue = state.queue
        declared = self.rules.programs.titles
        while True:
            if declared:  # the rule set's own titles and points, before the win is checked
                titles.recount(self)
            # docs/rules.md, "Winning": the player whose turn it is wins the moment they
            # have the points, even in the middle of a card's effect; the game then stops
            # as it stands.
            # (Not again while nothing it reads has changed: see ``check_winner``.)
            if self._win_checked != self.points_changes or self._win_current != state.current:
                self.check_winner()
            if state.over:
                return OVER
            if not queue:
                break
            task = queue[0]
            auto = self.auto_tasks.get(task[0])
            if auto is not None:
                queue.pop(0)
                auto(self, task)
                continue
            options = self.task_options[task[0]](self, task)  # an effect runs up to here
            if options:
                self.check_winner()
                return OVER if state.over else self.task_decision(task, options)
            if queue and queue[0] is task:
                queue.pop(0)  # nothing to choose from: the task lapses (e.g. empty bank)
        return self._turn_decision() if list_turn else None

    def _turn_decision(self) -> Decision:
        """The setup step's or the turn's decision, once nothing else is due."""
        if self.state.setup_step < len(self.setup_order):
            return setup.decision(self)
        return turn.decision(self)

    def task_decision(self, task: Task, options: tuple[Option, ...]) -> Decision:
        """The decision a waiting task asks of its player (tasks name their player second,
        except a card's effect, which knows who must answer)."""
        if isinstance(task, EffectTask):
            return runtime.effect_decision(self, task, options)
        if isinstance(task, (HookTask, EndTurnTask, CloseTurnTask, BeginTurnTask)):
            raise TypeError(f"a {task.kind} task runs on its own: it asks nobody")
        return new_decision(task.player, task.kind, options)

    def main_decision(self, player: int) -> Decision:
        """The main phase: everything the player may do after the roll, and ending the turn."""
        options: list[Option] = []
        for add in self.main_options:
            add(self, player, options)
        options.append(("end",))
        return new_decision(player, "main", tuple(options))

    def check_open(self, decision: Decision, option: Option) -> None:
        trade.check_offer(self, decision, option)

    # --- shared helpers ----------------------------------------------------------------

    def run_hook(self, hook: str, me: int, variables: Variables | None = None) -> None:
        """Run the rule set's hook ``hook`` for ``me`` now (``ckdsl.dsl.runtime.run_hook``)."""
        runtime.run_hook(self, hook, me, variables)

    def push(self, *tasks: Task) -> None:
        """Queue ``tasks`` before any work already waiting (they follow from what is being
        done now, so they come first)."""
        self.state.queue[:0] = tasks

    def add_points(self, player: int, points: int) -> None:
        """Every change of a player's points goes through here (and is counted, so the
        win condition knows when to look again)."""
        if player != NOBODY:
            self.state.players[player].points += points
            self.points_changes += 1

    def pay(self, player: int, cost: Bundle) -> None:
        """``player`` pays ``cost`` to the bank (they hold it: the price was checked)."""
        hands.transfer_all(self, player, NOBODY, cost)

    def bundle(self, amounts: Mapping[str, int]) -> Bundle:
        """Goods by name as the engine counts them: (good index, amount) pairs."""
        index = self.rules.good_index
        return tuple((index[g], n) for g, n in amounts.items())

    def order_from(self, player: int) -> tuple[int, ...]:
        """Every player in turn order, starting with ``player``."""
        return self._orders[player]

    def heard(self, event: EventKind) -> bool:
        """Whether an event would be kept or heard: work done only to describe one (a
        sorted copy of the goods produced) is skipped when nobody would see it."""
        return self.logging or any(w is None or event in w for w, _ in self._listeners)

    def tally(self) -> None:
        """Count one event, logged or not (kept or not: the budgets of the log count every
        event, so a game without a log ends as the same game with one)."""
        state = self.state
        state.logged += 1
        state.step_logged += 1

    def log(self, event: EventKind, player: int, **details: Any) -> None:
        """Record an event (when the game keeps a log) and tell the listeners."""
        self.tally()
        record: Event | None = None
        if self.logging:
            record = {"event": event, "player": player, **details}
            self.events.append(record)
        for wanted, listener in self._listeners:
            if wanted is None or event in wanted:
                if record is None:  # no log: this call's own details become the event
                    record = details
                    details["event"], details["player"] = event, player
                listener(record)

    def recount_points(self, player: int) -> int:
        """The player's victory points counted afresh from the board (tests compare this
        with the tracked ``points``)."""
        return pieces.recount_points(self, player)

    # --- the end -------------------------------------------------------------------------

    def check_winner(self) -> None:
        """The rule set's `turn.win` condition, for each player from the one whose turn it
        is: the first who meets it wins, and the game stops as it stands. A condition
        that reads only the points and whose turn it is (``Programs.win_reads``) is
        evaluated again only when one of them has changed."""
        state = self.state
        if self._win_checked == self.points_changes and self._win_current == state.current:
            return  # found unmet, and nothing it reads has changed since (set below only)
        programs = self.rules.programs
        win = programs.win
        if state.over or state.turn == 0 or win is None:
            return
        if programs.win_reads is not None:
            self._win_checked, self._win_current = self.points_changes, state.current
        env = Env(self, state.current, {})
        first = programs.win_first
        if first is not None:  # the loop below, compiled with the condition
            p = first(env, self._orders[state.current])
            if p is not None:
                self._win(p)
            return
        for p in self._orders[state.current]:
            env.vars["p"] = p
            if win(env):
                self._win(p)
                return

    def _win(self, p: int) -> None:
        state = self.state
        state.winner = p
        state.over = True
        self.log("win", p, points=state.players[p].points)


def _on_main(game: Game, player: int, option: Option) -> None:
    game.main_verbs[option[0]](game, player, option)


@dataclass(frozen=True)
class Tables:
    """Every part's decisions, answers and tasks, gathered once and shared by every game:
    the handler of each decision kind, the options of each waiting task's decision, the
    tasks that run on their own, the main phase's moves and their options, and how every
    answer reads."""

    handlers: dict[str, Handler]
    task_options: dict[str, TaskOptions]
    auto_tasks: dict[str, AutoTask]
    main_verbs: dict[str, Handler]
    main_options: tuple[MainOptions, ...]
    forms: dict[str, str]


_SYSTEMS = (setup, turn, building, knights, improvements, progress, cards, trade,
            barbarians, actions, runtime)  # fmt: skip
_TABLES: list[Tables] = []


def tables() -> Tables:
    """The engine's tables (``Tables``), built on first use from the parts' ``DECISIONS``,
    ``VERBS``, ``TASK_OPTIONS``, ``AUTO_TASKS`` and ``main_options``."""
    if not _TABLES:
        _TABLES.append(build_tables(_SYSTEMS))
    return _TABLES[0]


def build_tables(systems: tuple[ModuleType, ...]) -> Tables:
    """The tables of ``systems``; a decision kind, answer or task registered twice is an
    error (two parts would both claim it, and one would silently lose)."""
    handlers: dict[str, Handler] = {"main": _on_main}
    task_options: dict[str, TaskOptions] = {}
    auto_tasks: dict[str, AutoTask] = {}
    main_verbs: dict[str, Handler] = {}
    forms: dict[str, str] = {}
    main_options: list[MainOptions] = []
    owners: dict[tuple[str, str], str] = {("decision", "main"): __name__}

    def claim(table: str, name: str, system: ModuleType) -> None:
        first = owners.get((table, name))
        if first is not None:
            raise ValueError(f"{table} '{name}' is registered twice: by {first} and "
                             f"{system.__name__}")  # fmt: skip
        owners[table, name] = system.__name__

    for system in systems:
        asked: tuple[Asked, ...] = getattr(system, "DECISIONS", ())
        for decision in asked:
            claim("decision", decision.kind, system)
            handlers[decision.kind] = decision.handler
            if decision.options is not None:
                claim("task", decision.kind, system)
                task_options[decision.kind] = decision.options
        verbs: tuple[Verb, ...] = getattr(system, "VERBS", ())
        for verb in verbs:
            claim("answer", verb.name, system)
            forms[verb.name] = verb.form
            if verb.main is not None:
                main_verbs[verb.name] = verb.main
        for kind, options in getattr(system, "TASK_OPTIONS", {}).items():
            claim("task", kind, system)
            task_options[kind] = options
        for kind, run in getattr(system, "AUTO_TASKS", {}).items():
            claim("task", kind, system)
            auto_tasks[kind] = run
        if hasattr(system, "main_options"):
            main_options.append(system.main_options)
    return Tables(handlers, task_options, auto_tasks, main_verbs, tuple(main_options), forms)
