"""The titles and points a rule set declares in data (``titles.<id>`` with a `score`, or
with `points` by formula), counted again whenever the game comes to rest.

A declared title goes to the single player with the highest score (at least its
`at_least`); on a tie its `ties` decide (`keep`: the holder among the tied keeps it, else
nobody holds it, as for the longest road; `nobody`; `shared`: each of them holds it).
Points by formula go to every player. The points pass through ``Game.add_points``, so
the score every reader sees (``points(p)``, the win condition, the bots, the tables) has
them; the log tells of a title changing hands. The engine's own titles (Longest Road,
Defender of Catan) are kept where they change (``ckdsl.core.pieces``): a road built in
the middle of a card counts at once, as it always has.

``Game._advance`` calls ``recount`` before the win condition, before every decision and
between queued tasks, only when the rule set declares any: a rule set without declared
titles pays nothing for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core.allow import Env
from ckdsl.core.state import NOBODY
from ckdsl.dsl.base.errors import EffectFailure

if TYPE_CHECKING:
    from ckdsl.dsl.compiler.program import Fn
    from ckdsl.dsl.program import DeclaredTitle
    from ckdsl.turn.game import Game


def recount(game: Game) -> None:
    """Count every declared title and source of points again, and give or take the
    points that changed (docs/variants.md, "Titles and points by formula")."""
    state = game.state
    held = state.titles
    n = game.n
    for title in game.rules.programs.titles:
        before, given = held.get(title.id, ((), (0,) * n))
        holders = before if title.score is None else _holders(game, title, before)
        points = tuple(
            _points(game, title, p) if title.score is None or p in holders else 0 for p in range(n)
        )
        if points == given and holders == before:
            continue
        held[title.id] = (holders, points)
        for p in range(n):
            if points[p] != given[p]:
                game.add_points(p, points[p] - given[p])
        if holders != before:
            _log(game, title.id, before, holders)


def _points(game: Game, title: DeclaredTitle, p: int) -> int:
    fn = title.points
    return title.constant if fn is None else _value(game, fn, p)


def _value(game: Game, fn: Fn, p: int) -> int:
    """A formula's value for ``p``; 0 where it stops on something the board lacks (a
    tile the map has not: ``EffectFailure``), as a hook would stop there."""
    try:
        return int(fn(Env(game, p, {"p": p})))
    except EffectFailure:
        return 0


def _holders(game: Game, title: DeclaredTitle, before: tuple[int, ...]) -> tuple[int, ...]:
    score = title.score
    assert score is not None
    scores = [_value(game, score, p) for p in range(game.n)]
    best = max(scores)
    if best < title.at_least:
        return ()
    leaders = tuple(p for p, s in enumerate(scores) if s == best)
    if len(leaders) == 1 or title.ties == "shared":
        return leaders
    if title.ties == "keep" and len(before) == 1 and before[0] in leaders:
        return before
    return ()


def _log(game: Game, title: str, before: tuple[int, ...], after: tuple[int, ...]) -> None:
    """One event per player who takes the title (with whom they take it from, when one
    player passes it to another), or, when nobody takes it, per player who loses it."""
    gained = [p for p in after if p not in before]
    lost = [p for p in before if p not in after]
    previous = lost[0] if len(lost) == 1 and len(gained) == 1 else NOBODY
    for p in gained:
        game.log("title", p, title=title, previous=previous)
    if not gained:
        for p in lost:
            game.log("title", NOBODY, title=title, previous=p)
