"""The JSON Schemas: valid draft-07, documented, and the variant schema up to date."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from ckdsl.rules import schemagen
from ckdsl.rules.schemas import SCHEMA_KINDS, load_schema

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_schema_is_valid_draft_07(kind: str) -> None:
    schema = load_schema(kind)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    Draft7Validator.check_schema(schema)


def test_variant_schema_is_generated_from_the_others() -> None:
    committed = (REPO / "rules/schema/variant.schema.json").read_text(encoding="utf-8")
    assert committed == schemagen.render(), (
        "run: python -m ckdsl.rules.schemagen > rules/schema/variant.schema.json"
    )


def properties(node: Any, path: str = "") -> list[tuple[str, Any]]:
    out = []
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            out.append((f"{path}.{name}", sub))
            out += properties(sub, f"{path}.{name}")
        for key in ("additionalProperties", "items"):
            if isinstance(node.get(key), dict):
                out += properties(node[key], f"{path}.{key}")
    return out


@pytest.mark.parametrize("kind", ["rules", "locale", "map", "scenario"])
def test_every_property_has_a_description_for_hover_help(kind: str) -> None:
    schema = load_schema(kind)
    nodes = properties(schema) + [
        (f"#/{name}{p}", s) for name, d in schema["definitions"].items() for p, s in properties(d)
    ]
    undocumented = [
        path
        for path, sub in nodes
        if "description" not in sub
        and not ("$ref" in sub and "description" in schema["definitions"][sub["$ref"][14:]])
    ]
    assert undocumented == []


def test_every_bundled_file_has_a_schema_modeline() -> None:
    bundled = ["rules/base/*.yaml", "rules/locales/*.yaml", "rules/maps/*.yaml"]
    for path in [p for pattern in bundled for p in REPO.glob(pattern)]:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=../schema/"), path
    for path in REPO.glob("examples/variants/*.yaml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../rules/schema/variant.schema.json"
    for path in [*REPO.glob("tests/scenarios/*/*.yaml"), *REPO.glob("examples/scenarios/*.yaml")]:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=") and "scenario" in first


def test_schema_files_are_plain_json() -> None:
    for kind in SCHEMA_KINDS:
        json.loads((REPO / f"rules/schema/{kind}.schema.json").read_text(encoding="utf-8"))
