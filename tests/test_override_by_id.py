"""A list of entries with ids (improvement levels, knight levels) is overridden entry by
entry, by id, without restating the list; an id the list lacks is an error at its key."""

from __future__ import annotations

from pathlib import Path

from ckdsl.dsl.program import load_ruleset

REPO = Path(__file__).resolve().parent.parent


def test_one_level_changes_by_its_id() -> None:
    ruleset, problems = load_ruleset(REPO / "examples" / "variants" / "cheap_library.yaml")
    assert ruleset is not None, [p.format() for p in problems]
    levels = ruleset.data["tracks"]["science"]["levels"]  # type: ignore[index,call-overload]
    assert [(lv["id"], lv["cost"]) for lv in levels] == [
        ("abbey", 1), ("library", 1), ("aqueduct", 3), ("theater", 4), ("university", 5)
    ]  # fmt: skip
    assert levels[1]["progress_on_red"] == [1, 2, 3]  # the rest of the entry stays


def test_an_id_the_list_lacks_is_named(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text(
        "extends: base\noverride:\n  pieces:\n    knight:\n      levels:\n"
        "        strong_knigth: {strength: 3}\n"
    )
    _, problems = load_ruleset(variant)
    assert [(p.line, p.message) for p in problems if p.severity == "error"] == [
        (6, "no entry 'strong_knigth' here to override (did you mean 'strong_knight'?) (ids: "
         "basic_knight, strong_knight, mighty_knight)")
    ]  # fmt: skip
