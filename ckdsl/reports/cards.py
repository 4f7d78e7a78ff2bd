"""``ckdsl cards``: the facts of each progress card (deck, copies, timing, points) with
its name and text in a language, as data and as a listing grouped by deck."""

from __future__ import annotations

import textwrap
from typing import TypedDict

from ckdsl.jsondata import integer, text
from ckdsl.l10n.catalog import Catalog
from ckdsl.rules.ruleset import RuleSet

DEFAULT_TIMING = "after_roll"
"""When a card is played if its rule says nothing: after the production roll."""


class CardRow(TypedDict):
    """One progress card as ``ckdsl cards --json`` prints it (keys in this order)."""

    id: str
    deck: str
    count: int
    timing: str
    points: int
    name: str
    text: str


def card_rows(ruleset: RuleSet, catalog: Catalog, deck: str | None = None) -> list[CardRow]:
    """The cards in rule-file order, only those of ``deck`` if one is given."""
    rows: list[CardRow] = []
    for card_id, card in ruleset.cards.items():
        if deck is not None and card["deck"] != deck:
            continue
        rows.append(
            {
                "id": card_id,
                "deck": text(card["deck"]),
                "count": integer(card["count"]),
                "timing": text(card.get("timing", DEFAULT_TIMING)),
                "points": integer(card.get("points", 0)),
                "name": catalog.card_name(card_id),
                "text": catalog.card_text(card_id),
            }
        )
    return rows


def card_facts(row: CardRow, catalog: Catalog) -> list[str]:
    """What sets a card apart, in words: its copies, an unusual timing, its points."""
    facts = [catalog.message("copies", row["count"])]
    if row["timing"] != DEFAULT_TIMING:
        facts.append(catalog.name("timings", row["timing"]))
    if row["points"]:
        facts.append(catalog.message("victory_points", row["points"]))
    return facts


def card_lines(ruleset: RuleSet, catalog: Catalog, rows: list[CardRow]) -> list[str]:
    """``rows`` by deck (in the rule set's deck order): a heading with the deck's size,
    then each card's name, id and facts and its text wrapped at 88 columns; a blank line
    after each deck."""
    lines: list[str] = []
    for deck_id in ruleset.decks:
        in_deck = [r for r in rows if r["deck"] == deck_id]
        if not in_deck:
            continue
        total = sum(r["count"] for r in in_deck)
        heading = f"{catalog.name('decks', deck_id)} ({catalog.message('cards_in_deck', total)})"
        lines += [heading, "=" * len(heading)]
        for r in in_deck:
            lines.append(f"{r['name']}  [{r['id']}]  {' · '.join(card_facts(r, catalog))}")
            wrapped = textwrap.fill(r["text"], 88, initial_indent="    ", subsequent_indent="    ")
            lines += wrapped.split("\n")
        lines.append("")
    return lines
