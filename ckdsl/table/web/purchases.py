"""What a seat may build or buy, drawn on the web table as pictures with their prices,
and the progress cards in its hand as cards.

Every price is the rule set's (``CompiledRules.costs``, the knights' activation and
promotion, each track's next level, a variant's own actions), as the seat would pay it
now (``cost_of``: a Crane's discount shows); every name is the table's language. What a
seat may answer with each is the part of its legal answers of that kind, so the page
lights only the board spots of the piece chosen. Nothing here is another seat's: a
spectator sees the prices of the rule set and no answers, and no hand.
"""

from __future__ import annotations

from typing import Any

from ckdsl.core.building import cost_of
from ckdsl.core.compiled import Bundle
from ckdsl.l10n.catalog import Catalog
from ckdsl.reports.position import screen_colour
from ckdsl.table.answers import localized
from ckdsl.turn.game import Game
from ckdsl.turn.notation import format_option

# The pieces a seat builds, in the order the page shows them, and the verb of the
# answers that build each (``build road 12-13`` is ``("road", 19)``).
PIECES = ("road", "settlement", "city", "city_wall", "knight")
KNIGHT_MOVES = ("activate", "promote")


def price(catalog: Catalog, game: Game, cost: Bundle) -> list[dict[str, Any]]:
    """A price as goods the page draws: each good's id, name and how many."""
    goods = game.rules.goods
    return [{"good": goods[g], "name": catalog.good_name(goods[g]), "count": n} for g, n in cost]


def purchases(
    game: Game, catalog: Catalog, seat: int | None, track_colours: dict[str, str]
) -> list[dict[str, Any]]:
    """The pieces, knight moves, city improvements and the rule set's actions ``seat``
    may pay for, each with its price now and the answers that buy it now (none when it
    is not ``seat``'s move; ``seat`` None: a spectator, the rule set's prices)."""
    rules = game.rules
    mine = seat is not None and not game.state.over and game.pending.player == seat
    answers: dict[tuple[str, str], list[dict[str, str]]] = {}
    for option in game.pending.options if mine else ():
        verb = str(option[0])
        key = (verb, str(option[1])) if verb in ("improve", "action") else (verb, "")
        shown = {"answer": format_option(game, option), "label": localized(game, catalog, option)}
        answers.setdefault(key, []).append(shown)

    def priced(piece: str, base: Bundle) -> Bundle:
        return base if seat is None else cost_of(game, seat, piece, base)[0]

    found: list[dict[str, Any]] = []
    for piece in PIECES:
        if piece not in rules.costs or rules.supply.get(piece, 1) == 0:
            continue
        cost = priced(piece, rules.costs[piece])
        found.append(
            {
                "kind": piece,
                "name": catalog.name("pieces", piece),
                "cost": price(catalog, game, cost),
                "answers": answers.get((piece, ""), []),
            }
        )
    for verb, cost in zip(KNIGHT_MOVES, (rules.activate_cost, rules.promote_cost), strict=True):
        found.append(
            {
                "kind": verb,
                "name": catalog.message(f"table_buy_{verb}"),
                "cost": price(catalog, game, cost),
                "answers": answers.get((verb, ""), []),
            }
        )
    for t, track in enumerate(rules.tracks):
        level = 0 if seat is None else game.state.players[seat].levels[t]
        if level >= len(track.levels):
            continue  # the track is climbed to its top: nothing left to buy
        # level n + 1 costs its commodities, less a Crane's discount (improvements.py)
        cost = priced("improvement", ((track.commodity, track.costs[level]),))
        found.append(
            {
                "kind": "improve",
                "id": track.id,
                "name": catalog.name("tracks", track.id),
                "level": level + 1,
                "level_name": catalog.name("levels", track.levels[level]),
                "colour": track_colours.get(track.id, "#90a4ae"),
                "cost": price(catalog, game, cost),
                "answers": answers.get(("improve", track.id), []),
            }
        )
    for action_id, action in rules.programs.actions.items():
        found.append(
            {
                "kind": "action",
                "id": action_id,
                "name": catalog.name("actions", action_id),
                "cost": price(catalog, game, game.bundle(dict(action.cost))),
                "answers": answers.get(("action", action_id), []),
            }
        )
    return found


def hand_cards(
    game: Game, catalog: Catalog, cards: list[str], track_colours: dict[str, str], mine: bool
) -> list[dict[str, Any]]:
    """The progress cards ``cards`` (a seat's own hand) as the page draws them: name,
    text and when it may be played in the table's language, its track's colour, and the
    answer that plays it now if there is one (``mine``: the seat's move)."""
    rules = game.rules
    playable = {
        str(o[1]): {"answer": format_option(game, o), "label": localized(game, catalog, o)}
        for o in (game.pending.options if mine else ())
        if o[0] == "play"
    }
    shown = []
    for card in cards:
        found = rules.cards.get(card)
        track = rules.tracks[rules.decks[found.deck].track] if found is not None else None
        shown.append(
            {
                "card": card,
                "name": catalog.card_name(card),
                "text": catalog.card_text(card),
                "track": "" if track is None else catalog.name("tracks", track.id),
                "colour": "#90a4ae" if track is None else track_colours.get(track.id, "#90a4ae"),
                "timing": "" if found is None else catalog.name("timings", found.timing),
                "points": 0 if found is None else found.points,
                "play": playable.get(card),
            }
        )
    return shown


def track_colours(data: dict[str, Any]) -> dict[str, str]:
    """Each track's colour on screen, from the rule set's ``tracks.*.colour``."""
    tracks = data.get("tracks") or {}
    return {
        tid: screen_colour(str(spec.get("colour", "")))
        for tid, spec in tracks.items()
        if isinstance(spec, dict) and spec.get("colour")
    }
