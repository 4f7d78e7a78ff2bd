"""JSON Schema validation that speaks to a newcomer and points at the exact key or value.

jsonschema reports errors as paths into the data; we turn each into a diagnostic at the
position the YAML loader recorded, and rewrite its message: "unknown key 'cuont'
(did you mean 'count'?)" instead of "Additional properties are not allowed ('cuont' was
unexpected)". Every error of a document is reported, not just the first.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from ckdsl.diagnostics import Diagnostic, JsonPath
from ckdsl.jsondata import JsonObject, JsonValue
from ckdsl.paths import SCHEMA_KINDS as PATHS_SCHEMA_KINDS
from ckdsl.paths import schema_file
from ckdsl.rules.positions import Positions

if TYPE_CHECKING:  # jsonschema is imported when something is validated
    from jsonschema import Draft7Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_KINDS = PATHS_SCHEMA_KINDS  # the kinds of file that have a schema

_TYPE_NAMES = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a text",
    "boolean": "true or false",
    "object": "a mapping (key: value lines)",
    "array": "a list",
    "null": "nothing",
}


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The bundled schema of ``kind`` (rules, variant, locale).

    Its values are typed loosely on purpose: a schema is read by the paths the JSON Schema
    standard defines (``["properties"]["parameters"]``), here and in the DSL's checks."""
    with open(schema_file(kind), encoding="utf-8") as f:
        schema: dict[str, Any] = json.load(f)
    return schema


@cache
def _validator(kind: str) -> Draft7Validator:
    from jsonschema import Draft7Validator, validators

    # A whole number is written as one: JSON Schema's "integer" also takes 1e9 and 13.0
    # (floats of no fraction), which the engine's counts and parameters then choke on.
    checker = Draft7Validator.TYPE_CHECKER.redefine("integer", _whole)
    strict = validators.extend(Draft7Validator, type_checker=checker)  # type: ignore[no-untyped-call]
    return cast("Draft7Validator", strict(_inlined(load_schema(kind))))


def _whole(checker: object, value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with each ``$ref`` to one of its ``definitions`` replaced by the
    definition itself: the same checks, the same errors, at half the cost (jsonschema looks
    a reference up again at every value it checks). Draft 7 ignores the keywords beside a
    ``$ref``, and so does the copy; the copy keeps the reference as a ``$comment`` (the
    messages read the schema around an error). A definition that refers to itself, at any
    depth, keeps its reference."""
    definitions = schema.get("definitions", {})
    prefix = "#/definitions/"

    def expand(node: Any, active: frozenset[str]) -> Any:
        if isinstance(node, list):
            return [expand(item, active) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.removeprefix(prefix)
            target = definitions.get(name) if ref.startswith(prefix) else None
            if not isinstance(target, dict) or name in active:
                return node
            return {**expand(target, active | {name}), "$comment": ref}
        return {
            key: value if key in ("enum", "const", "default", "examples") else expand(value, active)
            for key, value in node.items()
        }

    return {**expand(schema, frozenset()), "definitions": definitions}


_NOUNS = {"rules": "rule file", "variant": "variant", "map": "map", "scenario": "scenario"}


def foreign(data: JsonValue, file: str, kind: str) -> Diagnostic | None:
    """Why ``data``, read from ``file`` as a ``kind`` file, is no such file at all (None
    if it may be): a mapping none of whose top-level keys a ``kind`` file has (a
    stranger's YAML, named by mistake or by a shared save, scenario or variant). Said
    without its keys or values, which the schema's errors would echo."""
    if not isinstance(data, dict) or not data:
        return None
    known = load_schema(kind).get("properties", {})
    if any(key in known for key in data):
        return None
    message = (
        f"this is not a ckdsl {_NOUNS[kind]}: none of its top-level keys is one a "
        f"{_NOUNS[kind]} has ({', '.join(known)}); its content is not shown"
    )
    return Diagnostic(file, 1, 1, message)


def validate(data: JsonValue, positions: Positions, kind: str) -> list[Diagnostic]:
    """Every schema error of ``data`` as a positioned diagnostic.

    That a document is valid is remembered (``_VALID``, kept in the cache on disk when the
    process ends, with ckdsl's source, the schemas and jsonschema's version as part of its
    key): the same data is valid again without asking jsonschema, which is then not even
    imported. A document with errors is checked every time: its errors are found again,
    where they are."""
    verdict = _verdict(data, kind)
    if verdict in _valid():
        return []
    out: list[Diagnostic] = []
    for error in _validator(kind).iter_errors(data):
        out.extend(_diagnose(error, positions))
    if not out:
        _remember_valid(verdict)
    return out


_VALID: dict[bytes, None] = {}
"""The digests (``_verdict``) of documents found valid, oldest first (loaded on first use)."""
_LOADED: list[bool] = []
KEEP_VALID = 1024
"""How many verdicts are kept."""


def _verdict(data: JsonValue, kind: str) -> bytes:
    """The digest of ``data`` checked as ``kind``: of its ``repr``, all of it, each value
    with its type (``1``, ``1.0``, ``True`` and ``"1"`` differ, as a tuple and a list do)."""
    import hashlib

    return hashlib.sha256(f"{kind}\0{data!r}".encode("utf-8", "surrogatepass")).digest()


def _valid() -> dict[bytes, None]:
    if not _LOADED:
        from ckdsl.rules import disk  # only once something is validated

        _LOADED.append(True)
        found = disk.load("valid", "schema")
        if found is not None and isinstance(found[0], dict):
            _VALID.update(found[0])
    return _VALID


def _remember_valid(verdict: bytes) -> None:
    from ckdsl.rules import disk

    _VALID[verdict] = None
    while len(_VALID) > KEEP_VALID:
        del _VALID[next(iter(_VALID))]
    disk.store_at_exit("valid", "schema", _VALID)


def describe(value: object) -> str:
    """A short, friendly description of a value found in a document."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return "a number that is not finite" if not math.isfinite(value) else f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text '{shown}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when a choice is close to ``word``, else ``""``."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _diagnose(error: ValidationError, positions: Positions) -> Iterator[Diagnostic]:
    path = cast(JsonPath, tuple(error.absolute_path))
    kind = str(error.validator)
    schema: JsonObject = error.schema if isinstance(error.schema, dict) else {}
    # What was found and what the schema wanted: any data (or jsonschema's "unset").
    instance: object = error.instance
    expected: object = error.validator_value

    if "propertyNames" in error.absolute_schema_path:
        # The error is about a key of the mapping at `path`; `instance` is that key.
        key_path: JsonPath = (*path, str(instance))
        yield Diagnostic.at(
            positions.key(key_path),
            f"'{instance}' is not a valid id: ids are lower-case letters, digits and "
            "underscores, starting with a letter (like 'road_building')",
            key_path,
        )
        return

    if kind == "additionalProperties" and isinstance(instance, dict):
        properties = schema.get("properties")
        allowed = list(properties) if isinstance(properties, dict) else []
        for extra in sorted(set(instance) - set(allowed)):
            key_path = (*path, extra)
            hint = suggest(extra, allowed)
            if not hint and allowed:
                hint = " (expected " + _one_of(allowed) + ")"
            yield Diagnostic.at(positions.key(key_path), f"unknown key '{extra}'{hint}", key_path)
        return

    if kind == "required" and isinstance(instance, dict):
        for name in expected if isinstance(expected, list) else []:
            if name not in instance:
                where = "here" if not path else f"in '{path[-1]}'"
                yield Diagnostic.at(
                    positions.key(path), f"missing key '{name}' {where}", (*path, str(name))
                )
        return

    if not path and kind == "type":  # the whole file is no mapping: show none of it
        message = f"expected {_TYPE_NAMES.get('object')}: this file is not a YAML mapping"
    else:
        message = _message(kind, expected, instance, schema)
    yield Diagnostic.at(positions.value(path), message, path)


def _message(kind: str, expected: object, instance: object, schema: JsonObject) -> str:
    found = describe(instance)
    if kind == "type":
        types = expected if isinstance(expected, list) else [expected]
        wanted = " or ".join(_TYPE_NAMES.get(str(t), str(t)) for t in types)
        return f"expected {wanted}, found {found}"
    if kind == "enum":
        choices = [str(c) for c in (expected if isinstance(expected, list) else [])]
        hint = suggest(str(instance), choices) if isinstance(instance, str) else ""
        return f"{found} is not allowed here{hint}; expected {_one_of(choices)}"
    if kind == "const":
        return f"expected {expected!r}, found {found}"
    if kind == "minimum":
        return f"must be at least {expected}, found {found}"
    if kind == "maximum":
        return f"must be at most {expected}, found {found}"
    if kind == "minLength":
        return "must not be empty"
    if kind == "minItems":
        return f"needs at least {expected} item{'s' if expected != 1 else ''}"
    if kind == "uniqueItems":
        return "the list has the same item twice"
    if kind == "pattern":
        return f"{found} does not have the expected form"
    if kind == "oneOf":
        return _one_of_message(schema, found)
    return f"{found}: {kind} {expected!r} not satisfied"


def _one_of_message(schema: JsonObject, found: str) -> str:
    if "plural" in json.dumps(schema.get("oneOf", [])):
        return (
            f"expected a text, or a mapping with one text per plural category "
            f"(one, few, many, other, ...), found {found}"
        )
    return f"{found} matches none of the allowed forms"


def _one_of(choices: list[str]) -> str:
    quoted = [f"'{c}'" for c in choices]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) > 12:
        return ", ".join(quoted[:12]) + ", ..."
    return "one of " + ", ".join(quoted)
