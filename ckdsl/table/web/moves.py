"""The seat's answers as the web table lays them out: each in a group of the "all moves"
drawer (a main turn has dozens of answers; a phone cannot show them in one list), the
offer a trade answer is about and the trades with the bank as goods the page draws, and
a picture for every good (a variant's own good gets a badge of its own).

The answers are the engine's legal ones, unchanged (``format_option``); this module only
sorts and describes them, so the page never has to read an answer's text to place it.
"""

from __future__ import annotations

import colorsys
import hashlib
from typing import Any

from ckdsl.l10n.catalog import Catalog
from ckdsl.table.answers import localized
from ckdsl.turn.game import Game
from ckdsl.turn.notation import format_option

# The drawer's groups, in the order it shows them, and the verbs of each; an answer of
# any other verb (a card's choice, a discard, the robber) is in "other".
GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("build", frozenset({"road", "settlement", "city", "city_wall", "improve", "action",
                         "metropolis"})),
    ("knights", frozenset({"knight", "activate", "promote", "move_knight", "displace", "chase",
                           "relocate"})),
    ("trade", frozenset({"bank", "offer", "accept", "decline", "partner", "cancel"})),
    ("cards", frozenset({"play", "discard_card"})),
    ("end", frozenset({"end", "roll", "pass", "done", "skip"})),
)  # fmt: skip
GROUP_NAMES = (*(name for name, _ in GROUPS), "other")
_GROUP_OF = {verb: name for name, verbs in GROUPS for verb in verbs}
# Answers that name a good as their first value (``discard wool``, ``choose resource
# ore``): the page draws the good's picture on the button.
_GOOD_VERBS = frozenset({"discard", "take"})
_GOOD_CHOICES = frozenset({"resource", "commodity", "good"})


def group_of(option: tuple[Any, ...]) -> str:
    """The drawer group of ``option``: build, knights, trade, cards, end or other."""
    return _GROUP_OF.get(str(option[0]), "other")


def answer_good(option: tuple[Any, ...]) -> str | None:
    """The good ``option`` is about, if it is about one good (a discard, a card's choice of
    a resource), so its button can show the good's picture."""
    verb = option[0]
    if verb in _GOOD_VERBS and len(option) > 1:
        return str(option[1])
    if verb == "choose" and len(option) > 2 and option[1] in _GOOD_CHOICES:
        return str(option[2])
    return None


def shown_options(game: Game, catalog: Catalog, options: tuple[Any, ...]) -> list[dict[str, Any]]:
    """``options`` as the page shows them: the answer (the notation the server reads),
    its label in the table's language, its drawer group and the good it is about."""
    shown = []
    for o in options:
        item = {
            "answer": format_option(game, o),
            "label": localized(game, catalog, o),
            "group": group_of(o),
        }
        good = answer_good(o)
        if good is not None:
            item["good"] = good
        shown.append(item)
    return shown


def goods_of(catalog: Catalog, amounts: dict[str, int]) -> list[dict[str, Any]]:
    """Goods and their counts as the page draws them (as a price: id, name, count)."""
    return [{"good": g, "name": catalog.good_name(g), "count": n} for g, n in amounts.items() if n]


def pending_offer(game: Game, catalog: Catalog) -> dict[str, Any] | None:
    """The offer the pending trade answer (accept or decline it, or pick a partner for it)
    is about, as goods: who offers, what they give and what they want; None otherwise."""
    decision = game.pending
    for task in game.state.queue:
        if task[0] in ("respond", "partner") and decision.kind == task[0]:
            offer = task[2]
            colour = game.rules.names("player_colours")[offer["from"]]
            name = catalog.name("colours", colour)
            return {
                "from": name,
                "give": goods_of(catalog, offer["give"]),
                "get": goods_of(catalog, offer["get"]),
                # the sentence, its goods left as {give} and {get} for the page's pictures
                "said": catalog.message("log_offer", player=name, give="{give}", get="{get}"),
            }
    return None


def bank_trades(game: Game, options: tuple[Any, ...]) -> list[dict[str, Any]]:
    """The trades with the bank open now, each as the goods it takes and gives at the
    seat's own rate (``PlayerState.rates``: harbors, a Trading House), so the trade dialog
    finds the one its goods make."""
    rates = game.state.players[game.pending.player].rates
    index = game.rules.good_index
    return [
        {
            "answer": format_option(game, o),
            "give": str(o[1]),
            "count": rates[index[str(o[1])]],
            "get": str(o[2]),
        }
        for o in options
        if o[0] == "bank"
    ]


def good_badge(good: str, name: str) -> dict[str, str]:
    """A picture for a good the page has none of (a variant's own): its name's initial on
    a colour of its own, the same for that id at every table and in every language (the
    hue from the id's sha256; the saturation and lightness keep white letters legible)."""
    hue = int.from_bytes(hashlib.sha256(good.encode("utf-8")).digest()[:2], "big") / 65536
    red, green, blue = colorsys.hls_to_rgb(hue, 0.38, 0.55)
    colour = "#" + "".join(f"{round(c * 255):02x}" for c in (red, green, blue))
    initial = next((ch for ch in name if ch.isalnum()), good[:1] or "?").upper()
    return {"initial": initial, "colour": colour}
