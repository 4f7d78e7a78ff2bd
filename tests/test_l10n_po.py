"""PO export and import (issue 31, item 2) and the `# en:` hints that `l10n update` keeps
current (item 3): a translator works in Poedit, Weblate or Crowdin, and what they did comes
back into the YAML with its comments, order and fingerprints.

Every test works on a copy of rules/locales, never on the bundled files."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import plainyaml
import pytest
from babel.messages.pofile import read_po

from ckdsl.diagnostics import CkdslError
from ckdsl.l10n.catalog import locale_path
from ckdsl.l10n.check import check_languages
from ckdsl.l10n.init import template
from ckdsl.l10n.po import export_po, import_po, plural_forms
from ckdsl.l10n.sources import fingerprint
from ckdsl.l10n.update import MARK, update
from ckdsl.paths import locales_dir
from ckdsl.session import load_rules

MSGFMT = shutil.which("msgfmt")


def edited_po(text: str, edits: dict[str, object], fuzzy: set[str] = frozenset()) -> bytes:
    """``text`` (a PO file) with the msgstr of each context in ``edits`` replaced (a tuple:
    the plural forms), and ``fuzzy`` marked, as a PO editor saves it: every other line,
    flags and comments included, as it was."""
    blocks = text.split("\n\n")
    for k, block in enumerate(blocks):
        found = re.search(r'^msgctxt "(.*)"$', block, re.M)
        key = found.group(1) if found else None
        if key in edits:
            value = edits[key]
            strings = value if isinstance(value, tuple) else (value,)
            kept = block.split("\nmsgstr")[0].split("\n")
            if isinstance(value, tuple):
                kept += [f"msgstr[{i}] {_po_quoted(s)}" for i, s in enumerate(strings)]
            else:
                kept.append(f"msgstr {_po_quoted(str(value))}")
            block = "\n".join(kept)
        if key in fuzzy:
            block = block.replace("\nmsgctxt", "\n#, fuzzy\nmsgctxt", 1)
        blocks[k] = block
    return "\n\n".join(blocks).encode("utf-8")


def _po_quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def test_plural_forms_are_cldr_s() -> None:
    pl = plural_forms("pl")
    assert pl.categories == ("one", "few", "many", "other")
    assert pl.header.startswith("nplurals=4;")
    fr = plural_forms("fr")  # CLDR's French "many" (1000000 de points) gets its msgstr
    assert fr.categories == ("one", "many", "other") and fr.header.startswith("nplurals=3;")
    assert " e " not in fr.header and "(e " not in fr.header  # gettext knows only n


def test_export_names_each_entry_by_its_key_with_where_and_placeholders() -> None:
    text = export_po("pl")
    catalog = read_po(io.BytesIO(text.encode("utf-8")))
    steal = catalog.get("{player} steals a card from {victim}", context="messages.log_steal")
    assert steal is not None and steal.string == "{player} kradnie kartę graczowi {victim_dative}"
    assert any("line of the game log" in c for c in steal.auto_comments)
    assert "placeholders: {player}, {victim}" in steal.auto_comments
    # a Polish case form is right but no name msgfmt knows: its braces are not checked
    block = text[: text.index('msgctxt "messages.log_steal"')].rsplit("\n\n", 1)[-1]
    assert "#, no-python-brace-format" in block  # (Babel's reader adds the other back)
    block = text[: text.index('msgctxt "messages.log_robber"')].rsplit("\n\n", 1)[-1]
    assert "#, python-brace-format" in block
    coin = catalog.get(("{count} coin", "{count} coin"), context="counted.coin")
    assert coin is not None and len(coin.string) == 4 and coin.string[2] == "{count} monet"


@pytest.mark.skipif(MSGFMT is None, reason="msgfmt (gettext) is not installed")
@pytest.mark.parametrize("language", ["fr", "it", "pl", "pt", "sr"])
def test_every_export_passes_msgfmt_check(tmp_path: Path, language: str) -> None:
    po = tmp_path / f"{language}.po"
    po.write_text(export_po(language), encoding="utf-8")
    done = subprocess.run(
        [str(MSGFMT), "--check", "-o", str(tmp_path / "out.mo"), str(po)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_a_round_trip_changes_nothing(locales_copy: Callable[..., Path], tmp_path: Path) -> None:
    folder = locales_copy()
    for language in ("pl", "sr"):
        before = locale_path(language, folder).read_bytes()
        po = tmp_path / f"{language}.po"
        po.write_bytes(edited_po(export_po(language, folder), {}))
        report = import_po(language, po, folder)
        assert not report.written and not report.changed
        assert locale_path(language, folder).read_bytes() == before


def test_an_edited_po_comes_back_in_place(
    locales_copy: Callable[..., Path], tmp_path: Path
) -> None:
    folder = locales_copy()
    before = locale_path("pl", folder).read_text(encoding="utf-8").splitlines()
    text = export_po("pl", folder)
    bishop = next(m for m in read_po(io.BytesIO(text.encode())) if m.context == "cards.bishop.text")
    coin = ("{count} monetka", "{count} monetki", "{count} monetek", "{count} monetki")
    po = tmp_path / "pl.po"
    edits = {
        "names.resources.brick": "Cegiełka",
        "counted.coin": coin,
        "cards.bishop.text": bishop.string.replace("Przesuń", "Przestaw"),
    }
    po.write_bytes(edited_po(text, edits))
    report = import_po("pl", po, folder)
    assert report.written == ["names.resources.brick", "cards.bishop.text", "counted.coin"]
    after = locale_path("pl", folder).read_text(encoding="utf-8").splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert len(before) == len(after)  # comments and layout kept, line for line
    assert changed[0] == ("    brick: Cegła", "    brick: Cegiełka")  # a plain name stays plain
    assert changed[1][1].startswith('  coin: {one: "{count} monetka", few: "{count} monetki"')
    assert changed[2][1].startswith("      Przestaw rabusia")  # a folded block stays folded
    data = plainyaml.safe_load("\n".join(after))
    assert data["cards"]["bishop"]["text"].startswith("Przestaw rabusia i weź 1 losową")
    found = check_languages(load_rules("base").ruleset, ("pl",), folder)
    assert not [f for f in found if f.kind in ("outdated", "unverified", "placeholder", "invalid")]


def test_a_po_with_other_placeholders_is_refused_whole(
    locales_copy: Callable[..., Path], tmp_path: Path
) -> None:
    folder = locales_copy()
    before = locale_path("pl", folder).read_bytes()
    po = tmp_path / "pl.po"
    po.write_bytes(
        edited_po(
            export_po("pl", folder),
            {
                "names.resources.brick": "Cegiełka",
                "messages.log_robber": "{gracz} przesuwa rabusia na pole {tile}",
            },
        )
    )
    with pytest.raises(CkdslError) as raised:
        import_po("pl", po, folder)
    [problem] = raised.value.diagnostics
    assert problem.file == str(po) and problem.line > 0
    assert "msgctxt 'messages.log_robber'" in problem.message and "{gracz}" in problem.message
    assert locale_path("pl", folder).read_bytes() == before  # nothing written


def test_fuzzy_is_left_out_and_an_old_msgid_imports_as_outdated(
    locales_copy: Callable[..., Path], tmp_path: Path
) -> None:
    folder = locales_copy()
    text = export_po("fr", folder)
    en = locale_path("en", folder)
    en.write_text(
        en.read_text(encoding="utf-8").replace(
            'log_robber: "{player} moves the robber to tile {tile}"',
            'log_robber: "{player} moves the robber onto tile {tile}"',
        ),
        encoding="utf-8",
    )
    po = tmp_path / "fr.po"  # made before the English changed: its msgid is the old one
    po.write_bytes(
        edited_po(
            text,
            {
                "messages.log_robber": "{player} déplace le voleur vers la tuile {tile}",
                "names.resources.wool": "Laine fine",
            },
            fuzzy={"names.resources.wool"},
        )
    )
    report = import_po("fr", po, folder)
    assert report.written == ["messages.log_robber"] and report.fuzzy == ["names.resources.wool"]
    data = plainyaml.safe_load(locale_path("fr", folder).read_text(encoding="utf-8"))
    assert data["names"]["resources"]["wool"] == "Laine"
    assert data["sources"]["messages.log_robber"] == fingerprint(
        "{player} moves the robber to tile {tile}"
    )
    found = check_languages(load_rules("base").ruleset, ("fr",), folder)
    assert [(f.kind, f.diagnostic.path) for f in found if f.kind == "outdated"] == [
        ("outdated", ("messages", "log_robber"))
    ]


def test_an_unknown_key_or_a_broken_po_is_an_error(
    locales_copy: Callable[..., Path], tmp_path: Path
) -> None:
    folder = locales_copy()
    po = tmp_path / "pl.po"
    po.write_text('msgctxt "messages.nope"\nmsgid "x"\nmsgstr "y"\n', encoding="utf-8")
    with pytest.raises(CkdslError, match=r"msgctxt 'messages\.nope' is no entry of en\.yaml"):
        import_po("pl", po, folder)
    po.write_text('msgid "x\nmsgstr\n', encoding="utf-8")
    with pytest.raises(CkdslError, match="not a PO file of ckdsl"):
        import_po("pl", po, folder)


def test_update_records_the_english_a_stale_hint_showed(tmp_path: Path) -> None:
    """The review's demonstration: English changed after `init`, the translator translated
    from the old `# en:` hint; `update` must not stamp that translation as current."""
    folder = tmp_path / "locales"
    folder.mkdir()
    english = (locales_dir() / "en.yaml").read_text(encoding="utf-8")
    (folder / "en.yaml").write_text(english, encoding="utf-8")
    (folder / "de.yaml").write_text(template("de", folder / "en.yaml"), encoding="utf-8")
    old, new = '"roll the dice first"', '"roll the dice first (type roll)"'
    (folder / "en.yaml").write_text(
        english.replace(f"refused_roll_first: {old}", f"refused_roll_first: {new}"),
        encoding="utf-8",
    )
    update("de", folder)  # the hint of the still untranslated entry says today's English
    text = (folder / "de.yaml").read_text(encoding="utf-8")
    assert f'  refused_roll_first: ""  # en: {new}' in text
    # now translated from a hint that went stale again
    (folder / "en.yaml").write_text(english, encoding="utf-8")
    text = text.replace(
        f'  refused_roll_first: ""  # en: {new}',
        f"  refused_roll_first: würfle zuerst (tippe roll)  # en: {new}",
    )
    (folder / "de.yaml").write_text(text, encoding="utf-8")
    report = update("de", folder)
    assert "messages.refused_roll_first" in report.outdated
    assert "messages.refused_roll_first" not in report.recorded
    text = (folder / "de.yaml").read_text(encoding="utf-8")
    assert f"  {MARK}{old}" in text  # marked, with today's English
    assert f"würfle zuerst (tippe roll)  # en: {old}" in text  # the hint is today's
    data = plainyaml.safe_load(text)
    assert data["sources"]["messages.refused_roll_first"] != fingerprint("roll the dice first")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_an_outdated_entry_is_fuzzy_with_the_english_it_was_made_from(
    locales_copy: Callable[..., Path],
) -> None:
    """In a checkout, the old English comes from git's history of en.yaml (`#| msgid`)."""
    folder = locales_copy()

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)

    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "locales")
    en = locale_path("en", folder)
    old = '"{player} moves the robber to tile {tile}"'
    new = '"{player} moves the robber onto tile {tile}"'
    en.write_text(en.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    text = export_po("it", folder)
    assert "#, fuzzy" in text[: text.index('msgctxt "messages.log_robber"')].rsplit("\n\n")[-1]
    assert '#| msgid "{player} moves the robber to tile {tile}"' in text
    assert 'msgid "{player} moves the robber onto tile {tile}"' in text
    found = check_languages(load_rules("base").ruleset, ("it",), folder)
    [outdated] = [f for f in found if f.kind == "outdated"]
    assert outdated.diagnostic.notes[0] == (
        'it was made from "{player} moves the robber to tile {tile}"'
    )


def test_a_text_longer_than_its_room_is_reported(locales_copy: Callable[..., Path]) -> None:
    folder = locales_copy(
        {"pl.yaml": [('table_save: "zapisz"', 'table_save: "zapisz tę grę teraz"')]}
    )
    found = check_languages(load_rules("base").ruleset, ("pl",), folder)
    [length] = [f for f in found if f.kind == "length"]
    assert length.diagnostic.message == (
        "19 characters: messages.table_save has room for 16 (max_length in en.yaml)"
    )


# --- the commands ---------------------------------------------------------------------


def test_export_and_import_at_the_command_line(
    locales_copy: Callable[..., Path], tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from ckdsl.cli import cli

    folder = locales_copy()
    runner = CliRunner()
    exported = runner.invoke(
        cli, ["l10n", "export", "pl", "--format", "po", "--locales", str(folder)]
    )
    assert exported.exit_code == 0 and 'msgctxt "names.resources.brick"' in exported.stdout
    po = tmp_path / "pl.po"
    po.write_bytes(edited_po(exported.stdout, {"names.resources.brick": "Cegiełka"}))
    result = runner.invoke(cli, ["l10n", "import", "pl", str(po), "--locales", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "imported   names.resources.brick",
        f"updated  {folder / 'pl.yaml'}",
    ]
    bad = tmp_path / "bad.po"
    bad.write_bytes(edited_po(exported.stdout, {"messages.log_robber": "{gracz} {tile}"}))
    result = runner.invoke(cli, ["l10n", "import", "pl", str(bad), "--locales", str(folder)])
    assert result.exit_code == 1 and "msgctxt 'messages.log_robber'" in result.stderr
    assert "Traceback" not in result.output


def test_init_refuses_a_language_that_exists_and_lang_follows_the_folder(
    locales_copy: Callable[..., Path],
) -> None:
    from click.testing import CliRunner

    from ckdsl.cli import cli

    folder = locales_copy()
    runner = CliRunner()
    before = (folder / "fr.yaml").read_bytes()
    result = runner.invoke(cli, ["l10n", "init", "fr", "--locales", str(folder)])
    assert result.exit_code == 2 and result.stdout == ""
    assert "fr.yaml exists already: `ckdsl l10n update fr`" in " ".join(result.stderr.split())
    assert (folder / "fr.yaml").read_bytes() == before
    (folder / "de.yaml").write_text("", encoding="utf-8")  # the shell's `> de.yaml`
    result = runner.invoke(cli, ["l10n", "init", "de", "--locales", str(folder)])
    assert result.exit_code == 0
    (folder / "de.yaml").write_text(result.stdout, encoding="utf-8")
    result = runner.invoke(cli, ["l10n", "check", "--locales", str(folder), "--lang", "de"])
    assert result.exit_code == 1 and "de  " in result.stdout  # checked: missing entries
    result = runner.invoke(cli, ["l10n", "check", "--locales", str(folder), "--lang", "xx"])
    assert result.exit_code == 2 and "no locale file for 'xx'" in result.stderr


def test_a_checkouts_own_locales_are_the_ones_checked(tmp_path: Path) -> None:
    """Run from a checkout, the installed ckdsl reads the locales the translator edits."""
    from ckdsl.l10n.catalog import checkout_locales

    checkout = tmp_path / "clone"
    shutil.copytree(locales_dir(), checkout / "rules" / "locales")
    (checkout / "pyproject.toml").write_text("[project]\nname = 'ckdsl'\n", encoding="utf-8")
    (checkout / "docs").mkdir()
    assert checkout_locales(checkout / "docs") == checkout / "rules" / "locales"
    assert checkout_locales(tmp_path) is None
    assert checkout_locales(locales_dir().parent.parent) is None  # the bundled ones


def test_update_keeps_the_comments_of_the_sources_section(
    locales_copy: Callable[..., Path],
) -> None:
    folder = locales_copy(
        {
            "fr.yaml": [
                ("\nsources:\n", "\nsources:  # fingerprints: do not edit\n"),
                (
                    "  cards.smith.text: ",
                    "  # TRAD: revu par Jeanne le 3 novembre\n  cards.smith.text: ",
                ),
            ],
            "en.yaml": [
                (
                    "      Promote up to 2 of your knights for free",
                    "      Promote up to 3 of your knights for free",
                )
            ],
        }
    )
    french = folder / "fr.yaml"  # and a comment after a fingerprint, on its line
    text = re.sub(
        r"(\n  cards\.smith\.text: sha256:[0-9a-f]+)", r"\1  # vu", french.read_text("utf-8")
    )
    french.write_text(text, encoding="utf-8")
    report = update("fr", folder, confirm=["cards.smith.text"])
    assert report.confirmed == ["cards.smith.text"]
    lines = french.read_text(encoding="utf-8").splitlines()
    assert "sources:  # fingerprints: do not edit" in lines
    at = lines.index("  # TRAD: revu par Jeanne le 3 novembre")
    assert lines[at + 1].startswith("  cards.smith.text: sha256:")
    assert lines[at + 1].endswith("  # vu")


def test_a_locale_that_is_not_utf8_is_an_error_not_a_crash(
    locales_copy: Callable[..., Path], tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from ckdsl.cli import cli

    folder = locales_copy()
    (folder / "fr.yaml").write_bytes(b"language: fr\nnames: {resources: {brick: '\xe9'}}\n")
    for args in (["update", "fr"], ["export", "fr"]):
        result = CliRunner().invoke(cli, ["l10n", *args, "--locales", str(folder)])
        assert result.exit_code == 1, result.output
        assert "fr.yaml:2:" in result.stderr and "not UTF-8" in result.stderr


def test_validate_of_a_locale_file_finds_what_breaks_it_at_a_table(tmp_path: Path) -> None:
    """Review row 48: `validate de.yaml` said ok with a broken placeholder."""
    from click.testing import CliRunner

    from ckdsl.cli import cli

    shutil.copy(locales_dir() / "en.yaml", tmp_path / "en.yaml")
    text = template("de", tmp_path / "en.yaml").replace(
        '  log_roll: ""', '  log_roll: "{player} würfelt {totl}"'
    )
    (tmp_path / "de.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "de.yaml")])
    assert result.exit_code == 1
    assert "{totl}: the event 'roll' has no such field" in result.stderr
    assert "entries are not translated yet (shown in English)" in result.stderr
