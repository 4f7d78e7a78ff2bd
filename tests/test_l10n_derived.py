"""Derived languages are declared in data (issue 17, item 1): sr-Latn is a file saying
it is sr transliterated, so another such language is a new file, with no code changed,
and a declaration that cannot work is reported, never a crash or a silent fallback."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.diagnostics import CkdslError
from ckdsl.l10n.catalog import all_languages, derived_languages, languages, load_catalog
from ckdsl.l10n.check import check_languages
from ckdsl.session import load_rules
from ckdsl.validate import validate_paths

CYRILLIC = re.compile(r"[\u0400-\u04FF]")
MONTENEGRIN = (
    "language: sr-Latn-ME\nderived: {from: sr, transliterate: serbian-cyrillic-to-latin}\n"
)


def test_sr_latn_is_a_file_that_derives_it() -> None:
    assert derived_languages() == ("sr-Latn",)
    assert "sr-Latn" not in languages()  # not a translation: nothing to check or update
    assert all_languages()[-1] == "sr-Latn"
    latin = load_catalog("sr-Latn")
    assert latin.card_name("warlord") == "Vojskovođa"
    assert latin.message("copies", 3) == "3 primerka"  # Serbian plural forms
    assert not CYRILLIC.search(str(latin.data))


@pytest.mark.parametrize(
    ("text", "derives"),
    [
        (b"language: xx\nderived: {from: sr}\n", True),
        (b"derived: {from: sr}\nlanguage: xx\n", True),
        (b"language: xx\r\nderived : {from: sr}\r\n", True),
        (b"language: xx\rderived: {from: sr}\r", True),  # old Mac line ends
        (b"language: xx\nnames: {a: derived}\n", False),
        (b"language: xx\nderivedness: 1\n", False),
        (b"language: xx\n  derived: {from: sr}\n", False),  # not at the top
        (b"language: xx\nderived: \xff\n", False),  # not UTF-8: declares nothing
    ],
)
def test_a_derivation_is_a_line_that_starts_with_derived(
    tmp_path: Path, text: bytes, derives: bool
) -> None:
    from ckdsl.l10n.derived import declares

    path = tmp_path / "xx.yaml"
    path.write_bytes(text)
    assert declares(path) is derives


def test_a_new_derived_language_needs_only_its_file(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy()
    (folder / "sr-Latn-ME.yaml").write_text(MONTENEGRIN, encoding="utf-8")
    assert derived_languages(folder) == ("sr-Latn", "sr-Latn-ME")
    catalog = load_catalog("sr-Latn-ME", load_rules("base").ruleset, folder)
    assert catalog.name("resources", "brick") == "Cigla"
    assert catalog.message("copies", 5) == "5 primeraka"
    result = runner.invoke(cli, ["l10n", "check", "--locales", str(folder)])
    assert result.exit_code == 0, result.output
    assert validate_paths([folder / "sr-Latn-ME.yaml"]).diagnostics == []


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("language: sr-Latn\nderived: {from: hr, transliterate: serbian-cyrillic-to-latin}\n",
         (2, 17), "no translated language 'hr' to derive from (translated: en, fr, "
         "it, pl, pt, sr)"),
        ("language: sr-Latn\nderived: {from: sr, transliterate: cyrillic-to-klingon}\n",
         (2, 36), "unknown transliteration 'cyrillic-to-klingon' (known: "
         "serbian-cyrillic-to-latin)"),
        ("language: sr-Latn\nderived: {from: sr, transliterate: serbian-cyrillic-to-latin}\n"
         "names: {resources: {brick: Opeka}}\n",
         (3, 1), "a derived language has no texts of its own: its 'names' would "
         "never show (they come from sr.yaml; edit them there)"),
    ],
)  # fmt: skip
def test_a_declaration_that_cannot_work_is_reported(
    locales_copy: Callable[..., Path], text: str, where: tuple[int, int], message: str
) -> None:
    folder = locales_copy()
    (folder / "sr-Latn.yaml").write_text(text, encoding="utf-8")
    found = check_languages(load_rules("base").ruleset, None, folder)
    assert [(f.language, f.kind) for f in found] == [("sr-Latn", "invalid")]
    diagnostic = found[0].diagnostic
    assert (diagnostic.file, (diagnostic.line, diagnostic.col)) == (
        str(folder / "sr-Latn.yaml"),
        where,
    )
    assert diagnostic.message == message
    with pytest.raises(CkdslError, match=re.escape(message[:30])):
        load_catalog("sr-Latn", folder=folder)
    problems = validate_paths([folder / "sr-Latn.yaml"]).diagnostics
    assert [p.message for p in problems] == [message]


def test_checking_a_derived_language_checks_its_source(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy({"sr.yaml": [("    brick: Цигла\n", "")]})
    result = runner.invoke(cli, ["l10n", "check", "--lang", "sr-Latn", "--locales", str(folder)])
    assert result.exit_code == 1
    assert result.stdout == "sr  1 missing\n"
    assert load_catalog("sr-Latn", folder=folder).name("resources", "brick") == "⟨en⟩ Brick"
