"""The conditions of the built-in moves, as the rule set writes them (``allow:``).

The engine's Python knows only what is physically possible (a free intersection, a piece
in the supply, a road network to reach); whether a move is *allowed* is the rule set's
`allow` condition for it, a formula of the effect DSL compiled with the rule set
(``CompiledRules.programs``). A move without a condition is always allowed; a move whose
condition is `false` is never offered. ``Env`` is what every compiled formula and effect
runs against.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from ckdsl.core.values import Value, Variables

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


V = TypeVar("V", bound=Value)

STEP_BUDGET: Final = 10_000
"""The loop steps one run of an effect may take (each turn of a `for` or a `repeat`):
hundreds of times what any card takes, a few milliseconds at most, so a house rule with
`repeat 1000000000000` or loops in loops stops (``ckdsl.dsl.base.errors.out_of_budget``)
instead of hanging the game."""


class Env:
    """What an effect sees while it runs: the game, its player, its variables."""

    __slots__ = ("budget", "game", "me", "vars")

    def __init__(self, game: Game, me: int, variables: Variables) -> None:
        self.game = game
        self.me = me
        self.vars = variables
        self.budget = STEP_BUDGET  # loop steps left


def allowed(game: Game, move: str, player: int, **variables: Value) -> bool:
    """Whether ``player`` may make ``move`` with these variables now."""
    programs = game.rules.programs
    condition = programs.allow.get(move)
    if condition is None:
        return move not in programs.never
    return bool(condition(Env(game, player, variables)))


def allowed_items(game: Game, move: str, player: int, var: str, items: Sequence[V]) -> Sequence[V]:
    """The items (places, tiles, cards...) for which ``move`` is allowed, each named
    ``var`` in the condition: the list itself when the move has no condition (the hot
    path lists roads and settlements at every main-phase decision)."""
    programs = game.rules.programs
    condition = programs.allow.get(move)
    if condition is None:
        return [] if move in programs.never else items
    env = Env(game, player, {})
    found = programs.filter(move, var)
    if found is not None:  # the loop below, compiled with the condition
        return found(env, items)
    out = []
    for x in items:
        env.vars[var] = x
        if condition(env):
            out.append(x)
    return out
