"""What ``ckdsl explain`` tells about a card or an ability: names and texts in a language,
where it comes from, and its effect as the engine reads it (printed from the syntax tree).
"""

from __future__ import annotations

from ckdsl.diagnostics import JsonPath, display_path
from ckdsl.dsl import pretty
from ckdsl.dsl.base.errors import DslError
from ckdsl.dsl.parser import parse
from ckdsl.jsondata import JsonObject, JsonValue
from ckdsl.l10n.catalog import Catalog
from ckdsl.rules.ruleset import RuleSet
from ckdsl.rules.schemas import suggest


def explain(ruleset: RuleSet, what: str, catalog: Catalog) -> JsonObject:
    """The report on card or level ``what`` (plain data: ``ckdsl explain --json`` prints
    it as it is); KeyError (with a message) if there is none."""
    cards = ruleset.cards
    if what in cards:
        return _card(ruleset, what, catalog)
    abilities = _abilities(ruleset)
    if what in abilities:
        return _ability(ruleset, what, abilities[what], catalog)
    known = [*cards, *abilities]
    raise KeyError(
        f"no card or ability '{what}'{suggest(what, known)}; cards: {', '.join(cards)}; "
        f"levels with an ability: {', '.join(abilities) or 'none'}"
    )


def _card(ruleset: RuleSet, card: str, catalog: Catalog) -> JsonObject:
    spec = ruleset.cards[card]
    facts: list[JsonValue] = [
        catalog.name("decks", spec["deck"]),
        catalog.message("copies", spec["count"]),
    ]
    timing = spec.get("timing", "after_roll")
    facts.append(catalog.name("timings", timing))
    if spec.get("points"):
        facts.append(catalog.message("victory_points", spec["points"]))
    path: JsonPath = ("cards", card, "effect")
    return {
        "id": card,
        "kind": "card",
        "name": catalog.card_name(card),
        "text": catalog.card_text(card),
        "deck": spec["deck"],
        "count": spec["count"],
        "timing": timing,
        "points": spec.get("points", 0),
        "facts": facts,
        "effect_heading": catalog.message("explain_effect"),
        "effect": _printed(spec["effect"]),
        "source": _where(ruleset, path),
    }


def _abilities(ruleset: RuleSet) -> dict[str, JsonPath]:
    found: dict[str, JsonPath] = {}
    for track, spec in ruleset.section("tracks").items():
        for k, level in enumerate(spec["levels"]):
            if "ability" in level:
                found[level["id"]] = ("tracks", track, "levels", k)
    return found


def _ability(ruleset: RuleSet, level: str, at: JsonPath, catalog: Catalog) -> JsonObject:
    track, number = str(at[1]), int(at[3]) + 1
    ability = ruleset.section("tracks")[track]["levels"][number - 1]["ability"]
    return {
        "id": level,
        "kind": "ability",
        "name": catalog.name("levels", level),
        "text": _ability_text(level, catalog),
        "track": track,
        "level": number,
        "when": ability["when"],
        "facts": [
            f"{catalog.name('tracks', track)} {number}",
            catalog.message(f"explain_when_{ability['when']}"),
        ],
        "effect_heading": catalog.message("explain_ability"),
        "effect": _printed(ability["effect"]),
        "source": _where(ruleset, (*at, "ability", "effect")),
    }


def _ability_text(level: str, catalog: Catalog) -> str:
    """What the level's ability does, in words (``messages.ability_<level>``; none for a
    variant's new ability that no locale describes)."""
    key = f"ability_{level}"
    return catalog.message(key) if catalog.has_message(key) else ""


def _printed(text: str) -> str:
    try:
        return pretty.effect(parse(text))
    except DslError:  # a rule set that loaded has clean effects; show the text as it is
        return text


def _where(ruleset: RuleSet, path: JsonPath) -> str:
    pos = ruleset.positions.value(path)
    return f"{display_path(pos.file)}:{pos.line}" if pos.line else display_path(pos.file)
