"""The glossary check (issue 17, item 5): each locale declares the word it uses for each
concept of the game and the words it avoids for it; `l10n check` reports a text that uses
one, at the entry's line, with the chosen word."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import plainyaml
import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.dsl.program import load_ruleset
from ckdsl.l10n.catalog import languages
from ckdsl.l10n.check import check_languages
from ckdsl.l10n.glossary import Term, avoided_in, terms_of
from ckdsl.l10n.init import template
from ckdsl.paths import locales_dir
from ckdsl.session import load_rules

RESOURCE_PL = Term("resource", "surowiec", ("zasob", "zasób"))


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Obejrzyj jego karty zasobów i towarów", "zasobów"),  # an inflected form
        ("Wybierz Zasób.", "Zasób"),  # whatever the case
        ("Monopol na ZASOBY", "ZASOBY"),
        ("Wybierz surowiec lub towar.", None),
        ("{zasoby} i {zasób}", None),  # a placeholder is no word
        ("niezasobny", None),  # the start of a word, not any part of it
    ],
)
def test_an_avoided_word_is_a_stem(text: str, found: str | None) -> None:
    assert avoided_in(text, RESOURCE_PL) == found


def test_accents_count_and_phrases_match_word_by_word() -> None:
    grain = Term("grain", "céréales", ("blé",))
    assert avoided_in("2 blés", grain) == "blés"
    assert avoided_in("Bleu reçoit 2 céréales", grain) is None  # "ble" is not "blé"
    commodity = Term("commodity", "marchandise", ("article de commerce",))
    assert avoided_in("une carte Article de commerce", commodity) == "Article de commerce"
    assert avoided_in("un article, de commerce", commodity) == "article, de commerce"
    assert avoided_in("un article de la banque", commodity) is None


def test_a_placeholder_in_a_phrase_and_allowed_forms() -> None:
    card = Term("progress_card", "картица", ("ову карту", "карт {card}"), allow=("картиц",))
    assert avoided_in("Откријте ову карту", card) == "ову карту"
    assert avoided_in("Откријте ову картицу", card) is None  # allowed
    assert avoided_in("Ефекат карте {card} стаје", card) == "карте {card}"
    assert avoided_in("Ефекат картице {card} стаје", card) is None
    assert avoided_in("2 карте дрвета", card) is None  # a resource card is a карта


def test_every_bundled_locale_has_a_glossary_and_keeps_to_it(runner: CliRunner) -> None:
    concepts = {"resource", "commodity", "robber", "knight", "merchant", "settlement"}
    goods = {"brick", "wool", "grain", "ore", "paper", "cloth", "coin"}
    for language in languages():
        data = plainyaml.safe_load((locales_dir() / f"{language}.yaml").read_text(encoding="utf-8"))
        assert {t.concept for t in terms_of(data)} >= concepts | goods, language
    result = runner.invoke(cli, ["l10n", "check", "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 0, report["findings"]
    assert all(counts["glossary"] == 0 for counts in report["languages"].values())


def test_a_text_with_an_avoided_word_is_reported_at_its_line(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy(
        {
            "pl.yaml": [("jeden ze swoich zasobów;", "jeden ze swoich surowców;")],
            "pt.yaml": [("    name: Mercador\n", "    name: Comerciante\n")],
        }
    )
    result = runner.invoke(cli, ["l10n", "check", "--locales", str(folder)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[3:5] == ["pl  1 glossary", "pt  1 glossary"]
    lines = result.stderr.splitlines()
    pl_text = (folder / "pl.yaml").read_text(encoding="utf-8").splitlines()
    at = pl_text.index("  commercial_harbor:") + 3  # its `text:` line, 1-based
    assert lines[:2] == [
        f"{folder / 'pl.yaml'}:{at}:5: glossary: cards.commercial_harbor.text says "
        "'surowców' for resource: the Polish word is 'zasób' [$.cards.commercial_harbor.text]",
        "    the pl glossary avoids for resource: surow (glossary.resource in pl.yaml)",
    ]
    assert "pt.yaml" in lines[2] and "cards.merchant.name says 'Comerciante'" in lines[2]
    assert "the Portuguese word is 'mercador'" in lines[2]


def test_plural_forms_are_one_finding_and_json_names_the_kind(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy(
        {"en.yaml": [('{one: "{count} coin", other: "{count} coins"}',
                      '{one: "{count} money coin", other: "{count} money coins"}')]}
    )  # fmt: skip
    result = runner.invoke(
        cli, ["l10n", "check", "--lang", "en", "--json", "--locales", str(folder)]
    )
    report = json.loads(result.stdout)
    assert [(f["kind"], f["path"]) for f in report["findings"]] == [("glossary", "$.counted.coin")]


def test_a_term_that_avoids_itself_is_reported(locales_copy: Callable[..., Path]) -> None:
    folder = locales_copy(
        {"fr.yaml": [("  robber: {term: voleur, avoid: [brigand, bandit]}",
                      "  robber: {term: voleur, avoid: [vol, bandit]}")]}
    )  # fmt: skip
    found = check_languages(load_rules("base").ruleset, ("fr",), folder)
    messages = [f.diagnostic.message for f in found if f.kind == "glossary"]
    assert (
        messages[0]
        == "glossary: the term 'voleur' of robber is one of the words it avoids ('voleur')"
    )
    assert found[0].diagnostic.path == ("glossary", "robber", "term")


def test_a_variants_inline_names_keep_to_the_glossary(tmp_path: Path) -> None:
    variant = tmp_path / "variant.yaml"
    variant.write_text(
        "extends: base\n"
        "names:\n"
        "  pt:\n"
        "    cards:\n"
        "      merchant: {name: Comerciante, text: Coloque o Mercador num hexágono.}\n",
        encoding="utf-8",
    )
    ruleset, problems = load_ruleset(variant)
    assert ruleset is not None, problems
    found = [f for f in check_languages(ruleset, ("pt",)) if f.kind == "glossary"]
    assert [(f.diagnostic.file, f.diagnostic.line) for f in found] == [(str(variant), 5)]


def test_a_new_language_starts_with_an_empty_glossary_and_englishs_as_comments() -> None:
    text = template("de")
    assert plainyaml.safe_load(text)["glossary"] == {}
    assert "  # merchant: {term: merchant, avoid: [trader]}" in text.splitlines()
