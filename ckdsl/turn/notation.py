"""The readable form of every answer: "build road 12-13", "play bishop", "choose tile 7".

People type these, scenarios and save files store them, and the log shows them, so one
module owns both directions. Ids are the ones ``ckdsl board --svg`` draws: tiles and
intersections by number, edges by their two intersections, players by colour.
"""

from __future__ import annotations

import re
from typing import Any

from ckdsl.core.decisions import IllegalAnswer, Option, Refusal
from ckdsl.turn import refusals
from ckdsl.turn.game import Game, tables

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
    the part of the engine that handles it), with the option's values written in. An
    option that is no option (not a tuple starting with its verb, too short for its form)
    is a TypeError naming it (the Python API's callers pass their own)."""
    if not isinstance(option, tuple) or not option or not isinstance(option[0], str):
        raise TypeError(f"option: an answer as a tuple starting with its verb, not {option!r:.60}")
    form = tables().forms.get(option[0])
    if form is None:
        return str(option[0])
    try:
        return _FIELD.sub(lambda m: _field(game, option, int(m["at"]), m["as"]), form)
    except IndexError:
        raise TypeError(f"option: {option!r:.60} lacks the values of a '{option[0]}'") from None


# A field of a form: ``{k}`` or ``{k:how}`` (``ckdsl.core.decisions.Verb``).
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


def parse_answer(game: Game, text: object) -> Option:
    """The option of the pending decision whose readable form is ``text``.

    Raises IllegalAnswer saying why when ``text`` is an answer the game understands (a
    verb it knows, ids it has) but refuses now (``ckdsl.turn.refusals``), and naming the
    closest legal answers when it is no answer the game knows.
    """
    # `text: object`, so that the compiled build, too, says this (not its own type check)
    if not isinstance(text, str):
        raise TypeError(f"parse_answer takes the answer as a text (str), not {type(text).__name__}")
    wanted = " ".join(text.split())
    decision = game.pending
    if decision.kind == "over":
        raise IllegalAnswer(Refusal("refused_game_over"))
    for option in decision.options:
        if format_option(game, option) == wanted:
            return option
    offer = _OFFER.fullmatch(wanted)
    if offer and decision.accepts_open("offer"):
        return ("offer", _parse_goods(offer["give"]), _parse_goods(offer["get"]))
    read = _reading(game, wanted)
    if read is not None:
        if read in decision.options:  # written another way ("build road 13-12")
            return read
        why = refusals.explain(game, decision, read, tables().forms)
        if why is not None:
            raise IllegalAnswer(why)
    raise IllegalAnswer(_not_understood(game, wanted))


def _reading(game: Game, wanted: str) -> Option | None:
    """The option ``wanted`` names, of a verb the pending decision takes if it can be read
    so ("discard bishop" in a discard of progress cards is the card), else of any."""
    found = readings(game, wanted)
    kind = game.pending.kind
    return next((o for o in found if refusals.takes(game, kind, o[0])), found[0] if found else None)


def _not_understood(game: Game, wanted: str) -> Refusal:
    """The refusal of an answer the game does not understand: the legal answers, or the
    few closest to what was written (not a list of thirty)."""
    decision = game.pending
    texts = [format_option(game, o) for o in decision.options]
    closest = len(texts) > 6
    if closest:
        import difflib

        texts = difflib.get_close_matches(wanted, texts, n=5, cutoff=0.0)
    legal = [f"'{t}'" for t in texts]
    if decision.accepts_open("offer"):
        legal.append("'offer N good + ... for N good + ...'")
    who = player_name(game, decision.player) if decision.player >= 0 else "-"
    shown = wanted if len(wanted) <= 80 else wanted[:77] + "..."
    fields = {"answer": shown, "player": who, "legal": ", ".join(legal)}
    if closest:
        return Refusal("refused_unknown_closest", {**fields, "total": len(decision.options)})
    return Refusal("refused_unknown", fields)


def _parse_goods(text: str) -> dict[str, int]:
    goods: dict[str, int] = {}
    for part in text.split("+"):
        found = _AMOUNT.fullmatch(part.strip())
        if not found:
            raise IllegalAnswer(Refusal("refused_amount", {"text": part.strip()[:40]}))
        goods[found["good"]] = goods.get(found["good"], 0) + int(found["n"])
    return goods


# --- reading an answer that is not legal now ---------------------------------------------


def understood(game: Game, text: str) -> Option | None:
    """The option ``text`` names if it is a well-formed answer of any verb, its ids all
    ones this game has (an intersection or tile of the board, an edge, a player's colour,
    a card, a good, a track...), legal now or not; None if it is not (a misspelled verb,
    an id that does not exist). A refusal can then tell "the rules refuse it" from "this
    is no answer at all"."""
    found = readings(game, text)
    return found[0] if found else None


def readings(game: Game, text: str) -> list[Option]:
    """Every option ``text`` can be read as (``understood``): more than one where two
    verbs read alike ("discard wool", "discard spy")."""
    wanted = " ".join(text.split())
    out = []
    for verb, form in tables().forms.items():
        found = _form_pattern(form).fullmatch(wanted)
        if found is None:
            continue
        option = _read_fields(game, verb, form, found)
        if option is not None:
            out.append(option)
    return out


_FORM_PATTERNS: dict[str, re.Pattern[str]] = {}


def _form_pattern(form: str) -> re.Pattern[str]:
    """A verb's form as a regular expression, a named group per field (``f1``, ``f2``)."""
    found = _FORM_PATTERNS.get(form)
    if found is None:
        parts, end = [], 0
        for m in _FIELD.finditer(form):
            parts.append(re.escape(form[end : m.start()]))
            how = m["as"]
            body = r".+?" if how == "goods" else r"\S+"
            parts.append(f"(?P<f{m['at']}>{body})")
            end = m.end()
        parts.append(re.escape(form[end:]))
        found = _FORM_PATTERNS[form] = re.compile("".join(parts))
    return found


def _read_fields(game: Game, verb: str, form: str, found: re.Match[str]) -> Option | None:
    """The option of the fields ``found`` read, or None if a field names nothing here."""
    fields: dict[int, Any] = {}
    hows = {int(m["at"]): m["as"] for m in _FIELD.finditer(form)}
    for at in sorted(hows):
        raw, how = found[f"f{at}"], hows[at]
        kind = fields.get(at - 1) if how == "value" else None  # `choose edge 12-13`
        if how == "edge" or kind in _EDGE_KINDS:
            value: Any = _edge(game, raw)
        elif how == "player" or kind == "player":
            colours = game.rules.names("player_colours")[: game.n]
            value = colours.index(raw) if raw in colours else None
        elif how == "goods":
            try:
                value = _parse_goods(raw)
            except IllegalAnswer:
                value = None
            if value is not None and not set(value) <= set(game.rules.goods):
                value = None
        else:
            value = _plain(game, raw)
        if value is None:
            return None
        fields[at] = value
    return (verb, *(fields[k] for k in sorted(fields)))


def _edge(game: Game, raw: str) -> int | None:
    a, _, b = raw.partition("-")
    if not (a.isdigit() and b.isdigit()) or max(len(a), len(b)) > 6:
        return None
    try:
        return game.topo.edge_id(int(a), int(b))
    except (KeyError, ValueError):
        return None


def _plain(game: Game, raw: str) -> Any:
    """A plain field: a number within the board's ids, or an id the rule set knows."""
    if raw.isdigit():
        number = int(raw) if len(raw) <= 6 else -1
        limit = max(len(game.topo.inter_tiles), len(game.topo.hexes), 13)
        return number if 0 <= number < limit else None
    return raw if raw in _known_ids(game) else None


def _known_ids(game: Game) -> frozenset[str]:
    rules = game.rules
    ids = {*rules.cards, *rules.goods, *rules.names("player_colours")}
    ids |= {t.id for t in rules.tracks} | {lv.id for lv in rules.knight_levels}
    ids |= {lid for t in rules.tracks for lid in t.levels}
    ids |= set(rules.production) | set(CHOICE_WORDS)
    ids |= set(rules.programs.actions)
    return frozenset(ids)


# The kinds a `choose` names (``choose tile 7``): its first field.
CHOICE_WORDS = (
    "tile", "intersection", "edge", "player", "knight", "road", "city", "settlement",
    "building", "card", "resource", "commodity", "good", "number", "track", "terrain",
)  # fmt: skip
