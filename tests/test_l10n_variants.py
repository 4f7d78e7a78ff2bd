"""Variants and their translations (issue 17, item 8): findings about a variant's ids
point into the variant file, a variant can acknowledge a name identical to English, and
`ckdsl validate` warns about a new id English does not name."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.dsl.program import load_ruleset
from ckdsl.l10n.check import Finding, check_languages
from ckdsl.validate import validate_paths

JESTER = """\
extends: base
override:
  cards:
    spy: {count: 2}
add:
  cards:
    jester:
      like: spy
      count: 1
  terrains:
    swamp: {land: true}
names:
  en:
    names:
      terrains: {swamp: Swamp}
    cards:
      jester: {name: Jester, text: Look at another player's progress cards.}
  fr:
    names:
      terrains: {swamp: Marais}
    cards:
      jester: {name: Jester, text: Regardez les cartes de progression d'un autre joueur.}
"""


def variant(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "jester.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def check(path: Path, *languages: str) -> list[Finding]:
    ruleset, problems = load_ruleset(path)
    assert ruleset is not None, [p.format() for p in problems]
    return check_languages(ruleset, languages)


def where(finding: Finding) -> tuple[str, int, int]:
    d = finding.diagnostic
    return Path(d.file).name, d.line, d.col


def test_a_missing_name_points_at_the_variants_block_for_the_language(tmp_path: Path) -> None:
    text = JESTER + "  pl:\n    names:\n      terrains: {swamp: Bagno}\n"
    found = check(variant(tmp_path, text), "pl")
    assert [(f.kind, f.diagnostic.path, where(f)) for f in found] == [
        ("missing", ("cards", "jester", "name"), ("jester.yaml", 23, 3)),
        ("missing", ("cards", "jester", "text"), ("jester.yaml", 23, 3)),
    ]  # `pl:` of `names:`: the variant has no `cards:` for Polish yet
    assert found[0].diagnostic.notes == ("add cards.jester.name to this block of the variant",)


def test_without_a_block_it_points_at_the_id_in_the_variant(tmp_path: Path) -> None:
    found = check(variant(tmp_path, JESTER), "it")
    assert {(f.kind, f.diagnostic.path[:2], where(f)) for f in found} == {
        ("missing", ("cards", "jester"), ("jester.yaml", 7, 5)),  # add: cards: jester:
        ("missing", ("names", "terrains"), ("jester.yaml", 11, 5)),  # add: terrains: swamp:
    }
    assert found[0].diagnostic.notes == (
        "the variant defines it here: name it under `names: it:` in this file",
    )


def test_a_gap_of_the_bundled_locale_stays_there(tmp_path: Path) -> None:
    """Only the variant's own ids move: a card of the base is the bundled file's to name."""
    found = check(variant(tmp_path, JESTER), "fr")
    assert [f.kind for f in found] == ["identical"]  # Jester, not acknowledged yet
    assert where(found[0]) == ("jester.yaml", 22, 22)


def test_a_variant_acknowledges_a_name_identical_to_english(tmp_path: Path) -> None:
    text = JESTER + "    same_as_english: [cards.jester.name]\n"
    assert check(variant(tmp_path, text), "en", "fr") == []
    stale = JESTER.replace("{name: Jester, text: Regardez", "{name: Bouffon, text: Regardez")
    found = check(variant(tmp_path, stale + "    same_as_english: [cards.jester.name]\n"), "fr")
    assert [(f.kind, where(f)) for f in found] == [("stale", ("jester.yaml", 23, 23))]
    assert "'cards.jester.name' is listed under same_as_english" in found[0].diagnostic.message
    # the bundled file's own acknowledgements still count beside the variant's
    result = CliRunner().invoke(
        cli, ["l10n", "check", "--rules", str(tmp_path / "jester.yaml"), "--lang", "pl"]
    )
    assert "levels.bank" not in result.output


def test_validate_warns_of_a_new_id_without_an_english_name(tmp_path: Path) -> None:
    path = variant(tmp_path, JESTER.replace("  en:\n", "  xen:\n", 1).replace("xen", "de"))
    found = sorted(validate_paths([path]).diagnostics, key=lambda d: d.sort_key())
    assert [(d.severity, d.line, d.message.split(":")[0]) for d in found] == [
        ("warning", 7, "the card 'jester' has no English name"),
        ("warning", 7, "the card 'jester' has no English text"),
        ("warning", 11, "the terrain 'swamp' has no English name"),
    ]
    assert "add it under `names: en: names: terrains:`" in found[2].message
    assert validate_paths([variant(tmp_path, JESTER)]).diagnostics == []


def test_a_reason_written_as_text_is_a_warning_at_its_line(tmp_path: Path) -> None:
    """A `require ... else "text"` is shown in English at every table (review 2026-11-27,
    row 2): validate says so at the require's line; a message key is not reported."""
    variant = tmp_path / "tithe.yaml"
    variant.write_text(
        "extends: base\noverride:\n  cards:\n    merchant: {count: 5}\nadd:\n  cards:\n"
        "    tithe:\n      deck: trade\n      count: 1\n      effect: |\n"
        "        gain 1 grain\n"
        '        require count(cities(me)) > 0 else "you need a city"\n'
        "names:\n  en:\n    cards:\n      tithe: {name: Tithe, text: A grain.}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["validate", str(variant)])
    assert result.exit_code == 0
    assert f'{variant}:12:0: warning: the reason "you need a city" is shown as written' in (
        result.stderr
    )
    caravans = CliRunner().invoke(cli, ["validate", "examples/variants/caravans.yaml"])
    assert caravans.exit_code == 0 and "shown as written" not in caravans.stderr
