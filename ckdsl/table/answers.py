"""Answers in the table's language: "zbuduj drogę na 12-13" for ``build road 12-13``.

The answers a game stores, replays and scenarios name stay the English notation
(``ckdsl.turn.notation``): one spelling for every file. What a person reads at a table
is the locale's ``messages.answer_<verb>`` with the answer's values named in that
language (a good, a card, a track, a player by colour; places by their ids), and what
they type may be either: the English notation, or one of the legal answers as the table
showed it. An answer the locale has no text for is shown in the notation.
"""

from __future__ import annotations

from collections.abc import Sequence

from ckdsl.core.decisions import Option
from ckdsl.l10n.catalog import Catalog
from ckdsl.turn.game import Game
from ckdsl.turn.notation import edge_name, format_option

_FIELDS = ("a", "b")
"""The names of an answer's values in its message: ``{a}`` is the first, ``{b}`` the second."""


def localized(game: Game, catalog: Catalog, option: Option) -> str:
    """``option`` as the table shows it in ``catalog``'s language."""
    verb = option[0]
    key = f"answer_{verb}"
    if not isinstance(verb, str) or not catalog.has_message(key):
        return format_option(game, option)
    values = {name: _value(game, catalog, option, at) for at, name in enumerate(_FIELDS, 1)}
    return catalog.message_with(key, None, values)


def _value(game: Game, catalog: Catalog, option: Option, at: int) -> str:
    """The ``at``-th value of ``option`` in words."""
    if at >= len(option):
        return ""
    verb, value = option[0], option[at]
    colours = game.rules.names("player_colours")
    if verb in ("steal", "partner"):
        return catalog.name("colours", colours[value])
    if verb == "road":
        return edge_name(game, value)
    if verb in ("play", "discard_card"):
        return catalog.card_name(value)
    if verb == "improve":
        return catalog.name("tracks", value)
    if verb == "reward":
        return catalog.name("decks", value)
    if verb == "action":
        return catalog.name("actions", value)
    if verb in ("discard", "take"):
        return catalog.good_name(value)
    if verb == "bank":  # at the player's rate: "4 grain" for "1 brick"
        if at == 1:
            rate = game.state.players[game.pending.player].rates[game.rules.good_index[value]]
            return catalog.counted(value, rate)
        return catalog.counted(value, 1)
    if verb == "choose" and at == 2:
        return _chosen(game, catalog, str(option[1]), value)
    return str(value)


def _chosen(game: Game, catalog: Catalog, kind: str, value: object) -> str:
    """A card's choice (``choose resource wool``) by the name of what is chosen."""
    if kind in ("resource", "commodity", "good") and isinstance(value, str):
        return catalog.good_name(value)
    if kind == "player" and isinstance(value, int):
        return catalog.name("colours", game.rules.names("player_colours")[value])
    if kind == "track" and isinstance(value, str):
        return catalog.name("tracks", value)
    if kind == "card" and isinstance(value, str):
        return catalog.card_name(value)
    if kind == "terrain" and isinstance(value, str):
        return catalog.name("terrains", value)
    if kind in ("edge", "road") and isinstance(value, int):
        return edge_name(game, value)
    return str(value)


def read_localized(
    game: Game, catalog: Catalog, text: str, options: Sequence[Option]
) -> Option | None:
    """The one option of ``options`` that the table shows as ``text`` (whatever the case
    and spacing), or None."""
    wanted = " ".join(text.split()).casefold()
    found = [
        o for o in options if " ".join(localized(game, catalog, o).split()).casefold() == wanted
    ]
    return found[0] if len(found) == 1 else None
