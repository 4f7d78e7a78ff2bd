"""A new language without code (issue 17): `ckdsl l10n init de` writes the file, a few
entries translated, `l10n check` lists the rest with their English, and everything that
is not translated shows English, marked, never a raw id or an empty text."""

from __future__ import annotations

import shutil
from pathlib import Path

import plainyaml
import pytest

from ckdsl.l10n.catalog import FALLBACK_MARK, languages, load_catalog
from ckdsl.l10n.check import check_languages
from ckdsl.l10n.init import template
from ckdsl.paths import locales_dir
from ckdsl.session import load_rules


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The bundled locales and a German one from `l10n init`, three entries translated."""
    out = tmp_path / "locales"
    shutil.copytree(locales_dir(), out)
    text = template("de")
    text = text.replace('    brick: ""  # en: Brick', "    brick: Lehm")
    text = text.replace('    ore: ""  # en: Ore', "    ore: Erz")
    text = text.replace('  final_scores: ""  # en: "Final scores"', '  final_scores: "Endstand"')
    (out / "de.yaml").write_text(text, encoding="utf-8")
    return out


def test_a_locale_file_is_a_language(folder: Path) -> None:
    assert languages(folder) == ("en", "de", "fr", "it", "pl", "pt", "sr")
    assert languages(locales_dir()) == ("en", "fr", "it", "pl", "pt", "sr")


def test_the_template_is_every_entry_with_its_english(folder: Path) -> None:
    data = plainyaml.safe_load((folder / "de.yaml").read_text(encoding="utf-8"))
    english = plainyaml.safe_load((locales_dir() / "en.yaml").read_text(encoding="utf-8"))
    assert data["language"] == "de" and set(data["cards"]) == set(english["cards"])
    assert set(data["messages"]) == set(english["messages"])
    assert data["messages"]["log_win"] == {"one": "", "other": ""}  # German's categories
    polish = plainyaml.safe_load(template("pl"))
    assert set(polish["messages"]["log_win"]) == {"one", "few", "many", "other"}
    assert "# en: Alchemist" in (folder / "de.yaml").read_text(encoding="utf-8")


def test_check_lists_the_rest_with_their_english(folder: Path) -> None:
    ruleset = load_rules("base").ruleset
    findings = check_languages(ruleset, ("de",), folder)
    missing = [f for f in findings if f.kind == "missing"]
    messages = [f.diagnostic.message for f in missing]
    assert len(missing) > 150 and not [f for f in findings if f.kind == "invalid"]
    assert 'missing: names.resources.lumber has no German text (English: "Lumber")' in messages
    assert not any("resources.brick" in m or "final_scores" in m for m in messages)
    lumber = next(f for f in missing if "resources.lumber" in f.diagnostic.message)
    assert lumber.diagnostic.line > 10  # the entry's own line, not the file's top


def test_untranslated_entries_show_english_marked(folder: Path) -> None:
    ruleset = load_rules("base").ruleset
    german = load_catalog("de", ruleset, folder)
    assert german.good_name("brick") == "Lehm"
    assert german.good_name("lumber") == FALLBACK_MARK + "Lumber"
    assert german.message("final_scores") == "Endstand"
    assert german.message("score_line", 3, player="Rot") == FALLBACK_MARK + "Rot: 3 victory points"
    assert german.card_name("bishop") == FALLBACK_MARK + "Bishop"
    assert load_catalog("fr", ruleset, folder).good_name("lumber") == "Bois"
