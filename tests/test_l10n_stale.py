"""Stale translations (issue 17, item 3): each translation records the English it was made
from, `l10n check` reports it outdated once that English changes, `l10n update` adds what
English gained and marks what changed, and `--confirm` clears a mark once translated again.

Every test works on a copy of rules/locales (``--locales``), never on the bundled files."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import plainyaml
import pytest
from click.testing import CliRunner, Result

from ckdsl.cli import cli
from ckdsl.l10n.catalog import languages
from ckdsl.l10n.check import check_languages, dotted_units
from ckdsl.l10n.init import template
from ckdsl.l10n.sources import fingerprint
from ckdsl.l10n.update import MARK
from ckdsl.paths import locales_dir
from ckdsl.session import load_rules

TRANSLATIONS = ("fr", "it", "pl", "pt", "sr")
SMITH_EN = "      Promote up to 2 of your knights for free (to a mighty knight only with the\n"
SMITH_NEW = "      Promote up to 3 of your knights for free (to a mighty knight only with the\n"
NEW_MESSAGE = '  final_scores: "Final scores"\n  scores_title: "Scores after {count} turns"\n'


def run(runner: CliRunner, folder: Path, *args: str) -> Result:
    """``ckdsl l10n ARGS --locales FOLDER``."""
    return runner.invoke(cli, ["l10n", *args, "--locales", str(folder)])


def read(folder: Path, language: str) -> str:
    return (folder / f"{language}.yaml").read_text(encoding="utf-8")


def kinds(result: Result) -> list[tuple[str, str, str | None]]:
    """(language, kind, JSON path) of each finding of ``l10n check --json``."""
    report = json.loads(result.stdout)
    return [(f["language"], f["kind"], f["path"]) for f in report["findings"]]


@pytest.fixture
def changed(locales_copy: Callable[..., Path]) -> Path:
    """The locales, with the English of the Smith's text changed since it was translated."""
    return locales_copy({"en.yaml": [(SMITH_EN, SMITH_NEW)]})


def test_the_bundled_translations_record_every_english(runner: CliRunner) -> None:
    """Nothing outdated or unverified, and a fingerprint for each translated entry."""
    assert run(runner, locales_dir(), "check").exit_code == 0
    english = dotted_units(plainyaml.safe_load(read(locales_dir(), "en")))
    for language in TRANSLATIONS:
        data = plainyaml.safe_load(read(locales_dir(), language))
        translated = dotted_units(data)
        assert set(data["sources"]) == set(translated), language
        assert all(data["sources"][k] == fingerprint(english[k]) for k in translated)


def test_a_fingerprint_is_of_the_text_not_of_how_yaml_writes_it() -> None:
    folded = plainyaml.safe_load("a: >-\n  one\n  two\nb: 'one two'\n")
    assert fingerprint(folded["a"]) == fingerprint(folded["b"])
    assert re.fullmatch(r"sha256:[0-9a-f]{8}", fingerprint("Brick"))
    assert fingerprint({"one": "a", "other": "b"}) == fingerprint({"other": "b", "one": "a"})
    assert fingerprint("Brick") != fingerprint("Bricks")


def test_changed_english_is_outdated_in_every_translation(runner: CliRunner, changed: Path) -> None:
    result = run(runner, changed, "check", "--json")
    assert result.exit_code == 1
    assert kinds(result) == [(lang, "outdated", "$.cards.smith.text") for lang in TRANSLATIONS]
    result = run(runner, changed, "check")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    fr = next(line for line in lines if line.startswith(str(changed / "fr.yaml")))
    at = read(changed, "fr").splitlines().index("  smith:") + 3  # text: is the second key
    assert fr.startswith(f"{changed / 'fr.yaml'}:{at}:5: outdated: cards.smith.text ")
    assert '(English: "Promote up to 3 of your knights for free (to a mighty knight' in fr
    assert "ckdsl l10n update fr --confirm cards.smith.text" in result.stderr
    assert "fr  1 outdated" in result.stdout.splitlines()


def test_update_marks_an_outdated_entry_until_it_is_confirmed(
    runner: CliRunner, changed: Path
) -> None:
    before = read(changed, "fr")
    result = run(runner, changed, "update", "fr")
    assert result.exit_code == 0, result.output
    assert "outdated   cards.smith.text" in result.stdout.splitlines()
    text = read(changed, "fr")
    lines = text.splitlines()
    mark = lines.index(f'    {MARK}"Promote up to 3 of your knights for free (to a mighty '
                       'knight only with the Fortress)."')  # fmt: skip
    assert lines[mark + 1] == "    text: >-" and lines[mark - 1] == "    name: Forgeron"
    assert [line for line in lines if line != lines[mark]] == before.splitlines()  # all kept
    assert run(runner, changed, "check", "--lang", "fr").exit_code == 1  # still outdated
    assert run(runner, changed, "update", "fr").stdout.endswith(f"unchanged  {changed}/fr.yaml\n")
    assert read(changed, "fr") == text  # a second update changes nothing

    result = run(runner, changed, "update", "fr", "--confirm", "cards.smith.text")
    assert result.exit_code == 0, result.output
    assert "confirmed  cards.smith.text" in result.stdout.splitlines()
    assert read(changed, "fr") != before  # the fingerprint is the new English's
    assert MARK not in read(changed, "fr")
    english = plainyaml.safe_load(read(changed, "en"))["cards"]["smith"]["text"]
    assert plainyaml.safe_load(read(changed, "fr"))["sources"]["cards.smith.text"] == fingerprint(
        english
    )
    assert run(runner, changed, "check", "--lang", "fr").exit_code == 0
    assert run(runner, changed, "check", "--lang", "it").exit_code == 1  # not confirmed there


def test_confirm_all(runner: CliRunner, changed: Path) -> None:
    assert run(runner, changed, "update", "pl").exit_code == 0
    assert run(runner, changed, "update", "pl", "--confirm-all").exit_code == 0
    assert MARK not in read(changed, "pl")
    assert run(runner, changed, "check", "--lang", "pl").exit_code == 0


def test_a_new_english_entry_is_added_as_missing(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    new_card = "  smith:\n    name: Smith\n"
    card = "  tinker:\n    name: Tinker\n    text: >-\n      Mend a road.\n\n"
    folder = locales_copy(
        {"en.yaml": [(NEW_MESSAGE[:31], NEW_MESSAGE), (new_card, card + new_card)]}
    )
    result = run(runner, folder, "check", "--lang", "sr", "--json")
    assert kinds(result) == [("sr", "missing", "$.messages.scores_title")]
    before = read(folder, "sr").splitlines()
    result = run(runner, folder, "update", "sr")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:3] == [
        "added      cards.tinker.name",
        "added      cards.tinker.text",
        "added      messages.scores_title",
    ]
    lines = read(folder, "sr").splitlines()
    at = lines.index('  scores_title: ""  # en: "Scores after {count} turns"')
    assert lines[at - 1].startswith("  final_scores: ")
    at = lines.index("  tinker:")
    assert lines[at + 1 : at + 4] == [
        '    name: ""  # en: Tinker',
        '    text: ""',
        "      # en: Mend a road.",
    ]
    assert lines[at + 4] == "  smith:"  # where en.yaml has it: before the Smith
    assert [line for line in lines if line in before] == before  # nothing lost or moved
    data = plainyaml.safe_load(read(folder, "sr"))
    assert data["messages"]["scores_title"] == "" and "messages.scores_title" not in data["sources"]
    result = run(runner, folder, "check", "--lang", "sr", "--json")
    assert kinds(result) == [("sr", "missing", "$.messages.scores_title")]  # not unverified


def test_entries_on_one_line_get_a_mark_each(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    """A card written as a flow mapping: each outdated part's mark names it."""
    folder = locales_copy(
        {"en.yaml": [("    name: Bishop\n", "    name: Archbishop\n"), ("with a\n", "with\n")]}
    )
    text = read(folder, "it")
    start, end = text.index("  bishop:\n"), text.index("  constitution:\n")
    flow = '  bishop: {name: Vescovo, text: "Sposta il Ladro."}\n'
    (folder / "it.yaml").write_text(text[:start] + flow + text[end:], encoding="utf-8")
    result = run(runner, folder, "check", "--lang", "it", "--json")
    assert kinds(result) == [
        ("it", "outdated", "$.cards.bishop.name"),
        ("it", "outdated", "$.cards.bishop.text"),
    ]
    assert run(runner, folder, "update", "it").exit_code == 0
    lines = read(folder, "it").splitlines()
    at = lines.index('  bishop: {name: Vescovo, text: "Sposta il Ladro."}')
    assert lines[at - 2] == f'  # outdated: name: {MARK[len("# outdated: ") :]}"Archbishop"'
    assert lines[at - 1].startswith('  # outdated: text: the English is now "Move the robber')
    text = read(folder, "it")
    assert run(runner, folder, "update", "it").exit_code == 0
    assert read(folder, "it") == text
    assert run(runner, folder, "update", "it", "--confirm", "cards.bishop.name").exit_code == 0
    assert "# outdated: name:" not in read(folder, "it")
    assert "# outdated: text:" in read(folder, "it")


def test_a_whole_section_english_gained_is_added(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy()
    text = read(folder, "it")
    start, end = text.index("# Come si scrive"), text.index("cards:\n")
    (folder / "it.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    assert run(runner, folder, "update", "it").exit_code == 0
    data = plainyaml.safe_load(read(folder, "it"))
    assert list(data)[:5] == ["language", "glossary", "names", "counted", "cards"]  # as en.yaml
    assert data["counted"]["coin"] == {"one": "", "many": "", "other": ""}  # Italian's forms
    assert not [k for k in data["sources"] if k.startswith("counted.")]
    coin = '  coin: {one: "", many: "", other: ""}  # en: {one: "{count} coin", other: '
    assert coin + '"{count} coins"}' in read(folder, "it").splitlines()


def test_a_translation_without_its_english_is_unverified(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy()
    text = read(folder, "it")
    line = next(line for line in text.splitlines() if line.startswith("  cards.bishop.text: "))
    (folder / "it.yaml").write_text(text.replace(line + "\n", ""), encoding="utf-8")
    result = run(runner, folder, "check", "--lang", "it", "--json")
    assert kinds(result) == [("it", "unverified", "$.cards.bishop.text")]
    result = run(runner, folder, "update", "it")
    assert "recorded   the English of 1 translated entries" in result.stdout
    assert read(folder, "it") == text  # recorded again, where it was
    assert run(runner, folder, "check", "--lang", "it").exit_code == 0


def test_a_locale_without_sources_gets_one_finding(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy()
    text = read(folder, "pt")
    (folder / "pt.yaml").write_text(text[: text.index("\n# The English each")] + "\n")
    result = run(runner, folder, "check", "--lang", "pt", "--json")
    assert kinds(result) == [("pt", "unverified", "$.sources")]
    message = json.loads(result.stdout)["findings"][0]["message"]
    assert message.startswith("unverified: no `sources:` section records which English the ")
    assert run(runner, folder, "update", "pt").exit_code == 0
    assert read(folder, "pt") == text
    assert run(runner, folder, "check", "--lang", "pt").exit_code == 0


def test_a_new_language_records_what_it_has_translated(tmp_path: Path) -> None:
    folder = tmp_path / "locales"
    folder.mkdir()
    (folder / "en.yaml").write_text(read(locales_dir(), "en"), encoding="utf-8")
    text = template("de").replace('    brick: ""  # en: Brick', "    brick: Lehm")
    assert text.endswith("\nsources: {}\n")
    (folder / "de.yaml").write_text(text, encoding="utf-8")
    assert languages(folder) == ("en", "de")
    ruleset = load_rules("base").ruleset
    found = [(f.kind, f.diagnostic.path) for f in check_languages(ruleset, ("de",), folder)]
    assert ("unverified", ("names", "resources", "brick")) in found
    assert not [kind for kind, _ in found if kind not in ("missing", "unverified")]
    runner = CliRunner()
    result = runner.invoke(cli, ["l10n", "update", "de", "--locales", str(folder)])
    assert result.exit_code == 0, result.output
    assert plainyaml.safe_load(read(folder, "de"))["sources"] == {
        "names.resources.brick": fingerprint("Brick")
    }
    found = [f.kind for f in check_languages(ruleset, ("de",), folder)]
    assert set(found) == {"missing"}


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("xx",), "no locale file for 'xx'; start one with `ckdsl l10n init xx`"),
        (("sr-Latn",), "'sr-Latn' is sr transliterated (serbian-cyrillic-to-latin), with no "
                       "texts of its own: update sr"),
        (("en",), "English is the reference"),
        (("fr", "--confirm", "cards.smith.txt"),
         "unknown key 'cards.smith.txt': en.yaml has no such entry (did you mean "
         "'cards.smith.text'?)"),
        (("fr", "--confirm", "messages.scores_title"),
         "'messages.scores_title' is not translated yet"),
    ],
)  # fmt: skip
def test_a_bad_language_or_key_is_a_usage_error(
    runner: CliRunner, locales_copy: Callable[..., Path], args: tuple[str, ...], error: str
) -> None:
    folder = locales_copy({"en.yaml": [(NEW_MESSAGE[:31], NEW_MESSAGE)]})
    assert run(runner, folder, "update", "fr").exit_code == 0  # adds scores_title as ""
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    result = run(runner, folder, "update", *args)
    assert result.exit_code == 2
    assert error in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_broken_locale_is_not_updated(
    runner: CliRunner, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy({"fr.yaml": [("  smith:\n", "  smith: [\n")]})
    before = read(folder, "fr")
    result = run(runner, folder, "update", "fr")
    assert result.exit_code == 1
    assert "fr.yaml:" in result.stderr and "Traceback" not in result.stderr
    assert read(folder, "fr") == before
