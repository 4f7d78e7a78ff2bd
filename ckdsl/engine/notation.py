"""The readable form of every answer: "build road 12-13", "play bishop", "choose tile 7".

People type these, scenarios and save files store them, and the log shows them, so one
module owns both directions. Ids are the ones ``ckdsl board --svg`` draws: tiles and
intersections by number, edges by their two intersections, players by colour.
"""

from __future__ import annotations

import re
from typing import Any

from ckdsl.engine.decisions import IllegalAnswer, Option
from ckdsl.engine.game import Game, tables

# Kinds of choice whose values are edges, players: shown as "12-13", "blue".
_EDGE_KINDS = ("edge", "road")


def player_name(game: Game, player: int) -> str:
    """A player's colour id (``red``), the name answers and saves use."""
    return game.rules.names("player_colours")[player]


def edge_name(game: Game, edge: int) -> str:
    """An edge by its two intersections, smaller first: "12-13"."""
    return game.topo.edge_name(edge)


def format_value(game: Game, kind: str, value: Any) -> str:
    """A chosen value in words: edges as "12-13", players by colour, the rest as is."""
    if kind in _EDGE_KINDS:
        return edge_name(game, value)
    if kind == "player":
        return player_name(game, value)
    return str(value)


def format_option(game: Game, option: Option) -> str:
    """The readable form of ``option``: its verb's form (``Verb.form``, registered with
    the part of the engine that handles it), with the option's values written in."""
    form = tables().forms.get(option[0])
    if form is None:
        return str(option[0])
    return _FIELD.sub(lambda m: _field(game, option, int(m["at"]), m["as"]), form)


# A field of a form: ``{k}`` or ``{k:how}`` (``ckdsl.engine.decisions.Verb``).
_FIELD = re.compile(r"\{(?P<at>\d+)(?::(?P<as>[a-z]+))?\}")


def _field(game: Game, option: Option, at: int, how: str | None) -> str:
    value = option[at]
    if how == "edge":
        return edge_name(game, value)
    if how == "player":
        return player_name(game, value)
    if how == "goods":
        return format_goods(value)
    if how == "value":
        return format_value(game, option[at - 1], value)
    return str(value)


def format_goods(goods: dict[str, int]) -> str:
    return " + ".join(f"{n} {g}" for g, n in goods.items())


_OFFER = re.compile(r"offer (?P<give>.+?) for (?P<get>.+)")
_AMOUNT = re.compile(r"(?P<n>\d{1,9}) (?P<good>[a-z][a-z0-9_]*)")  # no int of 5,000 digits


def parse_answer(game: Game, text: str) -> Option:
    """The option of the pending decision whose readable form is ``text``.

    Raises IllegalAnswer naming the legal answers when there is none, and saying why when
    the answer is one the game knows but refuses now (a card that cannot be played).
    """
    wanted = " ".join(text.split())
    decision = game.pending
    if decision.kind == "over":
        raise IllegalAnswer(f"'{wanted}' comes too late: the game is over")
    for option in decision.options:
        if format_option(game, option) == wanted:
            return option
    for option, reason in game.blocked_answers(decision):
        if format_option(game, option) == wanted:
            raise IllegalAnswer(reason)
    offer = _OFFER.fullmatch(wanted)
    if offer and decision.accepts_open("offer"):
        return ("offer", _parse_goods(offer["give"]), _parse_goods(offer["get"]))
    legal = ", ".join(f"'{format_option(game, o)}'" for o in decision.options[:40])
    more = len(decision.options) - 40
    if more > 0:
        legal += f" and {more} more"
    if decision.accepts_open("offer"):
        legal += ", or 'offer N good + ... for N good + ...'"
    who = player_name(game, decision.player) if decision.player >= 0 else "nobody"
    shown = wanted if len(wanted) <= 80 else wanted[:77] + "..."
    raise IllegalAnswer(f"'{shown}' is not a legal answer for {who} now; legal: {legal}")


def _parse_goods(text: str) -> dict[str, int]:
    goods: dict[str, int] = {}
    for part in text.split("+"):
        found = _AMOUNT.fullmatch(part.strip())
        if not found:
            raise IllegalAnswer(f"'{part.strip()}' is not an amount and a good, like '2 wool'")
        goods[found["good"]] = goods.get(found["good"], 0) + int(found["n"])
    return goods
