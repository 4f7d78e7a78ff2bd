"""Where a variant's ids and inline names stand, for findings a translator can act on.

A variant that adds a card (or a piece, a colour, ...) names it in its own file, under
``names: <language>:``; the bundled locale files know nothing of it. So a finding about
such an id must point into the variant: at the language's ``names`` block when the
variant has one (where the missing entry goes), else at the id itself (where the
variant adds it), never at the bundled locale's section, which the translator of the
variant does not edit.
"""

from __future__ import annotations

from pathlib import Path

from ckdsl.diagnostics import JsonPath, Pos
from ckdsl.jsondata import JsonValue
from ckdsl.rules.positions import Positions
from ckdsl.rules.ruleset import RuleSet

# The rule set's section behind each table of `names` whose ids are its keys.
_KEYED = {
    "resources": ("resources",),
    "commodities": ("commodities",),
    "terrains": ("terrains",),
    "pieces": ("pieces",),
    "tracks": ("tracks",),
    "decks": ("decks",),
    "dice": ("dice",),
    "event_faces": ("dice", "event_die", "faces"),
    "titles": ("titles",),
}

LABELS = {
    "resources": "resource",
    "commodities": "commodity",
    "terrains": "terrain",
    "pieces": "piece",
    "knight_levels": "knight level",
    "tracks": "track",
    "levels": "improvement level",
    "decks": "deck",
    "dice": "die",
    "event_faces": "event die face",
    "titles": "title",
    "timings": "timing",
    "colours": "player colour",
    "concepts": "concept",
}
"""What an id of each ``names`` table is, in a sentence ("the player colour 'purple'")."""


def definition(ruleset: RuleSet, path: JsonPath) -> Pos:
    """Where the rule set defines the id that the locale entry ``path`` names
    (``("names", "colours", "purple")``, ``("cards", "caravan", "text")``); the rule set's
    first position when it cannot tell (an id of the schema, such as a timing)."""
    pos = ruleset.positions
    if path[0] == "cards":
        return pos.key(("cards", path[1]))
    section, key = str(path[1]), path[2]
    if section in _KEYED:
        found = pos.keys.get((*_KEYED[section], key))
        if found is not None:
            return found
    for where in _listed(ruleset.data, section, key):
        found = pos.values.get(where)
        if found is not None:
            return found
    return pos.value(())


def _listed(data: dict[str, JsonValue], section: str, key: object) -> list[JsonPath]:
    """The paths of the list items that define ``key`` in ``section`` of ``names``: a
    knight or improvement level's ``id``, a player colour."""
    out: list[JsonPath] = []
    pieces = data.get("pieces")
    if section == "knight_levels" and isinstance(pieces, dict):
        knight = pieces.get("knight")
        levels = knight.get("levels") if isinstance(knight, dict) else None
        out += _ids(levels, ("pieces", "knight", "levels"), key)
    tracks = data.get("tracks")
    if section == "levels" and isinstance(tracks, dict):
        for track, spec in tracks.items():
            levels = spec.get("levels") if isinstance(spec, dict) else None
            out += _ids(levels, ("tracks", track, "levels"), key)
    parameters = data.get("parameters")
    if section == "colours" and isinstance(parameters, dict):
        colours = parameters.get("player_colours")
        if isinstance(colours, list):
            out += [("parameters", "player_colours", i) for i, c in enumerate(colours) if c == key]
    return out


def _ids(levels: JsonValue, at: JsonPath, key: object) -> list[JsonPath]:
    if not isinstance(levels, list):
        return []
    return [
        (*at, i, "id")
        for i, lv in enumerate(levels)
        if isinstance(lv, dict) and lv.get("id") == key
    ]


def variant_files(ruleset: RuleSet) -> set[str]:
    """The variant files of the rule set (its layers that are files, not folders)."""
    return {layer for layer in ruleset.layers if Path(layer).is_file()}


def place_of_missing(ruleset: RuleSet, language: str, path: JsonPath) -> tuple[Pos, str] | None:
    """Where a missing entry of ``language`` goes when a variant defines its id: the
    nearest key of the variant's ``names: <language>:`` block, or the id itself when the
    variant has no block for the language; and a note saying so. None for an id the
    variant does not define (the bundled locale file lacks it: report it there)."""
    defined = definition(ruleset, path)
    if defined.file not in variant_files(ruleset):
        return None
    names: Positions = ruleset.name_positions
    where = ".".join(str(p) for p in path)
    if (language,) in names.keys:
        return names.nearest_key((language, *path)), f"add {where} to this block of the variant"
    return defined, f"the variant defines it here: name it under `names: {language}:` in this file"
