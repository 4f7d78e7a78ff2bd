"""Property tests: whatever the input, loading and checking return diagnostics, never raise.

Example counts come from the Hypothesis profile (tests/conftest.py): ``HYPOTHESIS_PROFILE=deep
pytest tests/test_fuzz.py`` runs many more.
"""

from __future__ import annotations

import copy
import shutil
import tempfile
from pathlib import Path
from typing import Any

import plainyaml
import yaml
from hypothesis import given
from hypothesis import strategies as st

from ckdsl.dsl.program import load_ruleset
from ckdsl.paths import base_rules_dir
from ckdsl.rules.yamlload import parse_yaml

BASE_FILES = {
    p.name: plainyaml.safe_load(p.read_text(encoding="utf-8"))
    for p in base_rules_dir().glob("*.yaml")
}

yaml_ish = st.text(
    alphabet=st.sampled_from(list("abc:- \n\t{}[],&*!|>'\"#%@`?~0123456789.éц\x00")), max_size=200
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


@given(yaml_ish)
def test_parse_yaml_never_raises(text: str) -> None:
    doc, problems = parse_yaml(text, "fuzz.yaml")
    assert doc is not None or problems
    for p in problems:
        assert p.line >= 1 and p.col >= 1


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*prefix, i))
    return out


def mutate(data: Any, path: tuple[Any, ...], action: str, value: Any) -> Any:
    if not path:
        return value if action == "set" else data
    parent = data
    for item in path[:-1]:
        parent = parent[item]
    last = path[-1]
    if action == "delete" and isinstance(parent, dict):
        del parent[last]
    elif action == "insert" and isinstance(parent, dict):
        parent[f"{last}_x"] = value
    else:
        parent[last] = value
    return data


@given(
    file=st.sampled_from(sorted(BASE_FILES)),
    choice=st.integers(0, 10_000),
    action=st.sampled_from(["set", "delete", "insert"]),
    value=values,
)
def test_any_mutation_of_the_rules_gives_diagnostics_not_exceptions(
    file: str, choice: int, action: str, value: Any
) -> None:
    data = copy.deepcopy(BASE_FILES[file])
    candidates = paths(data)
    data = mutate(data, candidates[choice % len(candidates)], action, value)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "rules"
        shutil.copytree(base_rules_dir(), folder)
        (folder / file).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        ruleset, problems = load_ruleset(folder)
    assert (ruleset is None) == any(p.severity == "error" for p in problems)
    for p in problems:
        assert p.message and p.file


variant_blocks = st.fixed_dictionaries(
    {},
    optional={
        "override": st.dictionaries(
            st.sampled_from(["parameters", "cards", "pieces", "decks", "nonsense"]),
            values,
            max_size=2,
        ),
        "add": st.dictionaries(st.sampled_from(["cards", "resources"]), values, max_size=2),
        "replace": st.dictionaries(st.sampled_from(["cards", "tracks"]), values, max_size=2),
        "remove": st.dictionaries(st.sampled_from(["cards", "resources"]), values, max_size=2),
        "names": st.dictionaries(st.sampled_from(["en", "pl"]), values, max_size=2),
        "extends": st.one_of(st.just("base"), values),
    },
)


@given(variant_blocks)
def test_any_variant_gives_diagnostics_not_exceptions(variant: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "v.yaml"
        path.write_text(yaml.safe_dump(variant, allow_unicode=True), encoding="utf-8")
        ruleset, problems = load_ruleset(path)
    assert (ruleset is None) == any(p.severity == "error" for p in problems)
