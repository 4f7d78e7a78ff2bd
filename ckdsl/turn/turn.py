"""The turn machine's own steps: the roll, the discards, gold, the robber, the end of a
turn (docs/rules.md, "The turn").

What the roll *does* is the rule set's: the dice are drawn here, then the `after_roll`
hook runs (the event die, production, the 7, written in the DSL in rules/base/turn.yaml).
The decisions those hooks open (a discard, gold, the robber and its steal) are answered
here; a turn ends by running the `turn_end` and `between_turns` hooks, and the next
begins with `turn_start`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core import pieces, progress
from ckdsl.core.allow import Env, allowed_items
from ckdsl.core.decisions import Asked, Decision, Option, Verb, new_decision
from ckdsl.core.frames import count_down
from ckdsl.core.hands import move_one, steal
from ckdsl.core.production import roll_dice
from ckdsl.core.state import NOBODY
from ckdsl.core.tasks import (
    BeginTurnTask,
    CloseTurnTask,
    DiscardProgressTask,
    DiscardTask,
    EndTurnTask,
    HookTask,
    RobberTask,
    StealTask,
    Task,
    expect,
)
from ckdsl.turn import cards

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def decision(game: Game) -> Decision:
    """Before the roll: roll (or play a card allowed before it); after it: the main phase."""
    state = game.state
    player = state.current
    if state.rolled:
        return game.main_decision(player)
    options: list[Option] = [("roll",)]
    cards.play_options(game, player, "before_roll", options)
    return new_decision(player, "roll", tuple(options))


def _on_roll(game: Game, player: int, option: Option) -> None:
    if option[0] == "play":
        cards.play(game, player, option[1])
        return
    roll_dice(game, player)
    game.run_hook("after_roll", player)


def hand_limit(game: Game, player: int) -> int:
    """How many resources and commodities ``player`` may hold when a 7 is rolled (the
    rule set's `turn.discard_limit`)."""
    formula = game.rules.programs.discard_limit
    if formula is None:
        return 1 << 30
    return int(formula(Env(game, player, {"p": player})))


def _discard_options(game: Game, task: Task) -> tuple[Option, ...]:
    hand, goods = game.state.players[expect(task, DiscardTask).player].hand, game.rules.goods
    return tuple(("discard", goods[g]) for g in range(len(goods)) if hand[g])


def _on_discard(game: Game, player: int, option: Option) -> None:
    move_one(game, player, option[1], to_bank=True)
    game.log("discard", player, good=option[1])
    count_down(game)


def _gold_options(game: Game, task: Task) -> tuple[Option, ...]:
    bank, goods = game.state.bank, game.rules.goods
    return tuple(("take", goods[g]) for g in game.rules.resources if bank[g])


def _on_gold(game: Game, player: int, option: Option) -> None:
    move_one(game, player, option[1], to_bank=False)
    game.log("produce", player, goods={option[1]: 1})
    count_down(game)


# --- the robber ------------------------------------------------------------------------------


def _robber_options(game: Game, task: Task) -> tuple[Option, ...]:
    """The tiles the robber may go to (the rule set's `robber` condition)."""
    player = expect(task, RobberTask).player
    tiles = allowed_items(game, "robber", player, "t", list(range(len(game.terrain))))
    return tuple(("robber", t) for t in tiles)


def _on_robber(game: Game, player: int, option: Option) -> None:
    pieces.move_robber(game, player, option[1])
    game.state.queue[0] = StealTask("steal", player)


def victims(game: Game, player: int, tile: int) -> list[int]:
    """Players other than ``player`` with a building next to ``tile`` and a card to lose,
    whom the rule set's `steal` condition allows ``player`` to rob."""
    state = game.state
    found = {
        state.owner[i]
        for i in game.topo.tile_corners[tile]
        if state.owner[i] not in (NOBODY, player)
    }
    near = sorted(q for q in found if sum(state.players[q].hand))
    return list(allowed_items(game, "steal", player, "victim", near))


def _steal_options(game: Game, task: Task) -> tuple[Option, ...]:
    """Whom the robber's mover may steal from; and, when the rule set declares a
    `steal_declined` hook, "steal nothing" (that hook then says what comes instead:
    docs/dsl.md, "Hooks")."""
    player = expect(task, StealTask).player
    options: tuple[Option, ...] = tuple(
        ("steal", q) for q in victims(game, player, game.state.robber)
    )
    if "steal_declined" in game.rules.programs.hooks:
        options += (("no_steal",),)
    return options


def _on_steal(game: Game, player: int, option: Option) -> None:
    game.state.queue.pop(0)
    if option[0] == "no_steal":
        game.run_hook("steal_declined", player)
        return
    steal(game, player, option[1])


# --- the end of a turn ---------------------------------------------------------------------


def _on_end(game: Game, player: int, option: Option) -> None:
    """docs/rules.md, "Progress cards": a player who ends the turn with more progress
    cards than the limit off their turn discards down to it first."""
    held = len(game.state.players[player].progress)
    over = held - progress.hand_limit(game, player, own_turn=False)
    if over > 0:
        game.push(
            DiscardProgressTask("discard_progress", player, over), EndTurnTask("end_turn", player)
        )
    else:
        end_turn(game, player)


def _end_turn_task(game: Game, task: Task) -> None:
    end_turn(game, expect(task, EndTurnTask).player)


def end_turn(game: Game, player: int) -> None:
    """The turn ends: the `turn_end` hook, the turn's modifiers lapse, then the
    `between_turns` hook (a special build phase) and the next player's turn."""
    game.log("end_turn", player)
    programs = game.rules.programs
    hooks = programs.hooks
    unchanged = programs.win is None or programs.win_reads is not None
    if unchanged and "turn_end" not in hooks and "between_turns" not in hooks:
        # Nothing runs between the steps, and the win condition (which the queue checks
        # between them) reads nothing they change: the same as queueing them, sooner.
        close_turn(game)
        begin_turn(game, (player + 1) % game.n)
        return
    game.push(
        *_hook(game, "turn_end", player),
        CloseTurnTask("close_turn", player),
        *_hook(game, "between_turns", player),
        BeginTurnTask("begin_turn", (player + 1) % game.n),
    )


def _hook(game: Game, hook: str, player: int) -> list[Task]:
    """A task that runs the rule set's ``hook`` when its turn in the queue comes (none
    if the rule set has no such hook)."""
    return [HookTask("hook", player, hook)] if hook in game.rules.programs.hooks else []


def _run_hook(game: Game, task: Task) -> None:
    hook = expect(task, HookTask)
    game.run_hook(hook.hook, hook.player)


def _close_turn(game: Game, task: Task) -> None:
    close_turn(game)


def close_turn(game: Game) -> None:
    """The turn's modifiers lapse (those granted `always` stay)."""
    state = game.state
    if state.modifiers:  # every modifier lasts until the end of the turn it was granted in
        holders = {mod["player"] for mod in state.modifiers if not mod.get("always")}
        state.modifiers = [mod for mod in state.modifiers if mod.get("always")]
        for p in holders:
            pieces.refresh_rates(game, p)


def _begin_turn(game: Game, task: Task) -> None:
    begin_turn(game, expect(task, BeginTurnTask).player)


def begin_turn(game: Game, player: int) -> None:
    state = game.state
    if state.turn >= game.rules.number("turn_limit"):  # stopped: ``turn`` stays the last one
        state.over = True
        game.log("unfinished", NOBODY, turns=state.turn, limit="turn_limit", budget=False)
        return
    state.turn += 1
    state.current = player
    state.rolled = False
    state.offers_made = 0
    state.turn_decisions = 0
    flags = state.knight_flags
    # This turn's flags of every knight are cleared, if any is set (counted: a C loop
    # that finds small ints by identity, cheaper than asking each for its truth).
    if flags.count(0) != len(flags):
        flags[:] = [0] * len(flags)
    for key, (per, reset, start) in game.rules.counters.items():
        if reset == "turn":
            state.counters[key] = [start] * game.n if per == "player" else start
    game.log("turn", player, turn=state.turn)
    if "turn_start" in game.rules.programs.hooks:
        game.run_hook("turn_start", player)


DECISIONS = (
    Asked("roll", _on_roll),
    Asked("discard", _on_discard, _discard_options),
    Asked("gold", _on_gold, _gold_options),
    Asked("robber", _on_robber, _robber_options),
    Asked("steal", _on_steal, _steal_options),
)
VERBS = (
    Verb("roll", "roll"),
    Verb("discard", "discard {1}"),
    Verb("take", "take {1}"),
    Verb("robber", "move robber to {1}"),
    Verb("steal", "steal from {1:player}"),
    Verb("no_steal", "steal nothing"),
    Verb("end", "end turn", main=_on_end),
)
AUTO_TASKS = {
    "hook": _run_hook,
    "end_turn": _end_turn_task,
    "close_turn": _close_turn,
    "begin_turn": _begin_turn,
}
