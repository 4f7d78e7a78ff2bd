"""Derive the variant-file schema from the rule-file and locale schemas.

A variant overrides parts of rule sections, adds and replaces entries and may carry
names for its new things: the shapes are those of the rule and locale files, made
partial where the variant gives only some keys. Deriving it keeps the three schemas in
step; ``rules/schema/variant.schema.json`` is this module's output, committed so editors
can use it, and a test checks it is current. Regenerate it with::

    python -m ckdsl.rules.schemagen > rules/schema/variant.schema.json
"""

from __future__ import annotations

import copy
import json
import sys

from ckdsl.jsondata import JsonObject, JsonValue, obj, text
from ckdsl.rules.schemas import load_schema

_DEFS = "#/definitions/"


def _sections(rules_schema: JsonObject) -> dict[str, JsonObject]:
    return {name: obj(sec) for name, sec in obj(rules_schema["properties"]).items()}


def id_keyed_sections(rules_schema: JsonObject) -> list[str]:
    """Sections that are collections keyed by id (cards, resources, ...)."""
    return [
        name
        for name, sec in _sections(rules_schema).items()
        if isinstance(sec.get("additionalProperties"), dict) and "properties" not in sec
    ]


def fixed_sections(rules_schema: JsonObject) -> list[str]:
    """Sections with a fixed set of keys (pieces, dice, parameters, ...)."""
    return [n for n, sec in _sections(rules_schema).items() if "properties" in sec]


def _rename_refs(node: JsonValue, prefix: str) -> JsonValue:
    if isinstance(node, dict):
        out = {k: _rename_refs(v, prefix) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith(_DEFS):
            out["$ref"] = _DEFS + prefix + ref[len(_DEFS) :]
        return out
    if isinstance(node, list):
        return [_rename_refs(v, prefix) for v in node]
    return node


_ID_ENTRIES = ("#/definitions/level",)
"""Lists of entries with ids given by reference (the knight levels are written inline)."""


def _partial(node: JsonValue) -> JsonValue:
    """The same shape with nothing required, references pointing at partial shapes; a
    list of entries with ids may also be a mapping by id of partial entries (an override
    of some of them: ``levels: {abbey: {cost: 2}}``)."""
    if isinstance(node, dict) and node.get("type") == "array" and _has_ids(node.get("items")):
        items = _partial(node["items"])
        whole = {k: _partial(v) for k, v in node.items() if k != "required"}
        by_id: JsonObject = {"type": "object", "propertyNames": {"$ref": _DEFS + "id"},
                 "additionalProperties": items}  # fmt: skip
        return {"anyOf": [whole, by_id]}
    if isinstance(node, dict):
        out = {k: _partial(v) for k, v in node.items() if k != "required"}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith(_DEFS):
            out["$ref"] = _DEFS + "partial_" + ref[len(_DEFS) :]
        return out
    if isinstance(node, list):
        return [_partial(v) for v in node]
    return node


def _has_ids(items: JsonValue) -> bool:
    if not isinstance(items, dict):
        return False
    if items.get("$ref") in _ID_ENTRIES:
        return True
    props = items.get("properties")
    return isinstance(props, dict) and "id" in props


def _resolve(schema: JsonObject, node: JsonObject) -> JsonObject:
    while "$ref" in node:
        node = obj(obj(schema["definitions"])[text(node["$ref"])[len(_DEFS) :]])
    return node


def variant_schema() -> JsonObject:
    rules = load_schema("rules")
    locale = load_schema("locale")
    defs: JsonObject = {}
    for name, d in rules["definitions"].items():
        defs[name] = copy.deepcopy(d)
        defs["partial_" + name] = _partial(d)
    for name, d in locale["definitions"].items():
        defs["locale_" + name] = _rename_refs(d, "locale_")

    keyed = id_keyed_sections(rules)
    sections = rules["properties"]
    id_ref: JsonObject = {"$ref": _DEFS + "id"}

    def entry(sec: str) -> JsonObject:
        return _resolve(rules, sections[sec]["additionalProperties"])

    add_entries: JsonObject = {}
    for sec in keyed:
        shape = obj(_partial(entry(sec)))
        obj(shape.setdefault("properties", {}))["like"] = {
            "description": f"Start from a copy of this existing entry of '{sec}', "
            "then apply the keys given here.",
            "allOf": [id_ref],
        }
        add_entries[sec] = {
            "description": f"New entries of '{sec}', keyed by their new id.",
            "type": "object",
            "propertyNames": id_ref,
            "additionalProperties": shape,
        }

    locale_parts = {
        k: _rename_refs(v, "locale_")
        for k, v in locale["properties"].items()
        if k in ("names", "counted", "cards", "messages", "same_as_english")
    }

    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://ckdsl.example/schema/variant.schema.json",
        "title": "ckdsl variant file",
        "description": "A house rule: a rule set that extends another one and changes it. "
        "Generated from rules.schema.json and locale.schema.json by "
        "`python -m ckdsl.rules.schemagen`; do not edit by hand.",
        "type": "object",
        "additionalProperties": False,
        "required": ["extends"],
        "properties": {
            "extends": {
                "description": "What this variant changes: `base` (the bundled Cities & "
                "Knights rules), or the path of another variant file or rule-set folder, "
                "relative to this file.",
                "type": "string",
                "minLength": 1,
            },
            "description": {
                "description": "What the variant is about, in a sentence.",
                "type": "string",
            },
            "table": {
                "description": "How a game of this variant is set up when the command "
                "line does not say (`ckdsl play --rules this.yaml` needs no more flags; "
                "`--map`, `--layout` and `--players` still win). A variant extending "
                "another keeps what that one says unless it says otherwise.",
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "map": {
                        "description": "A bundled map's name, or a map file relative to this file.",
                        "type": "string",
                        "minLength": 1,
                    },
                    "layout": {
                        "description": "A fixed layout of the map (default: drawn from "
                        "each game's seed).",
                        "type": "string",
                        "minLength": 1,
                    },
                    "players": {
                        "description": "How many players (heuristic bots unless "
                        "`--players` names them); within players_min to players_max.",
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 12,
                    },
                },
            },
            "override": {
                "description": "Change existing values: each key given here replaces the "
                "value of the same key in the rule set (mappings are merged key by key, "
                "lists replaced). Naming an id the rule set lacks is an error: use `add`.",
                "type": "object",
                "additionalProperties": False,
                "properties": {k: _partial(v) for k, v in sections.items()},
            },
            "add": {
                "description": "New entries (cards, resources, terrains, ...). An id that "
                "already exists is an error: use `override` or `replace`.",
                "type": "object",
                "additionalProperties": False,
                "properties": add_entries,
            },
            "replace": {
                "description": "Entries replaced as a whole by the definition given here.",
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    sec: {
                        "type": "object",
                        "propertyNames": id_ref,
                        "additionalProperties": sections[sec]["additionalProperties"],
                    }
                    for sec in keyed
                },
            },
            "remove": {
                "description": "Entries removed from the rule set, by id.",
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    sec: {"type": "array", "uniqueItems": True, "items": id_ref} for sec in keyed
                },
            },
            "names": {
                "description": "Names and texts of the variant's new or changed things, "
                "by language code, shaped like a locale file.",
                "type": "object",
                "propertyNames": {"pattern": "^[a-z]{2,3}(-[A-Za-z0-9]+)*$"},
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": locale_parts,
                },
            },
        },
        "definitions": defs,
    }


def render() -> str:
    return json.dumps(variant_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
