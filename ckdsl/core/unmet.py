"""Which part of a move's `allow` condition does not hold, as a refusal.

A built-in move is offered only when the rule set's `allow` condition for it holds
(``ckdsl.core.allow``); many rules live there, in the data, not in Python (a knight acts
only when active, not in the turn it was activated, once per turn; a knight displaces
only a weaker one). When such a move is refused, the condition is asked again, whole,
as the options were listed: it alone decides. Only then are its parts, split at the
top-level `and`s (``Programs.conjuncts``), evaluated in order to find the first that is
false. A part the base rules write is told in words of its own (``KNOWN``); any other,
a house rule's, is quoted: "the rule set's condition for displace does not hold:
level(other) <= 2".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ckdsl.core.allow import Env
from ckdsl.core.decisions import Refusal
from ckdsl.core.values import Value

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def _at(key: str, var: str) -> Callable[[Mapping[str, Value]], Refusal]:
    return lambda variables: Refusal(key, {"at": variables.get(var)})


KNOWN: Mapping[str, Callable[[Mapping[str, Value]], Refusal]] = {
    # rules/base/turn.yaml, `allow: knight_acts` (docs/rules.md, "Knights").
    "active(k)": _at("refused_knight_inactive", "k"),
    "not activated_this_turn(k)": _at("refused_knight_new", "k"),
    "actions_this_turn(k) < knight_actions_per_turn": _at("refused_knight_acted", "k"),
    # `allow: promote`: once per knight per turn.
    "promotions_this_turn(k) < knight_promotions_per_turn": _at("refused_knight_promoted", "k"),
    # `allow: displace`: only a strictly weaker knight.
    "level(other) < level(k)": _at("refused_knight_stronger", "other"),
    # `allow: chase`: the robber is locked until the first barbarian attack.
    "robber_unlocked": lambda variables: Refusal("refused_robber_locked"),
    # `allow: robber`: it must move.
    "t != robber_tile": lambda variables: Refusal("refused_robber_stays"),
}
"""The parts of the base rules' conditions (as ``ckdsl explain`` prints them), each with
the refusal that says in words what it means when it is false."""


def unmet(game: Game, move: str, player: int, **variables: Value) -> Refusal | None:
    """Why ``player`` may not make ``move`` with these variables now under the rule set's
    `allow` condition, or None when the condition holds (or there is none)."""
    programs = game.rules.programs
    if move in programs.never:
        return Refusal("refused_condition", {"move": move, "condition": "false"})
    condition = programs.allow.get(move)
    if condition is None or condition(Env(game, player, dict(variables))):
        return None
    return failed_part(game, ("allow", move), move, player, variables)


def failed_part(
    game: Game, path: tuple[str, ...], move: str, player: int, variables: Mapping[str, Value]
) -> Refusal:
    """The first part of the condition at ``path`` that is false (the condition as a whole
    was found false), as a refusal of ``move``."""
    for text, part in game.rules.programs.conjuncts.get(path, ()):
        if not part(Env(game, player, dict(variables))):
            known = KNOWN.get(text)
            if known is not None:
                return known(variables)
            return Refusal("refused_condition", {"move": move, "condition": text})
    return Refusal("refused_rules", {"move": move})
