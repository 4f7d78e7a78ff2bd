"""``ckdsl l10n``: start a language (``init``), check every language (``check``), follow
English's changes (``update``), and the PO bridge to translation tools (``export``,
``import``)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ckdsl.commands.common import (
    EXIT_FINDINGS,
    PATH,
    NamedPath,
    echo_json,
    echo_lines,
    fail,
    json_option,
    print_diagnostics,
    rules_option,
    ruleset_or_exit,
)
from ckdsl.l10n.catalog import REFERENCE, all_languages, languages


@click.group()
def l10n() -> None:
    """Localization: start a language, check every language, follow English's changes."""


_locales_option = click.option(
    "--locales",
    "locales",
    type=NamedPath(path_type=Path, exists=True, file_okay=False),
    default=None,
    metavar="FOLDER",
    help="The folder of the locale files (default: rules/locales of the checkout you are "
    "in, else the bundled ones).",
)


def _locales_folder(locales: Path | None) -> Path | None:
    """``--locales``, or the locales of the checkout the command runs in (a translator
    edits those, not the installed package's), said on stderr when it is not the
    bundled folder; None: the bundled locales."""
    from ckdsl.l10n.catalog import checkout_locales

    if locales is not None:
        return locales
    found = checkout_locales(Path.cwd())
    if found is not None:
        click.echo(f"ckdsl: the locales of this checkout: {found} (--locales to choose)", err=True)
    return found


def _language_in(language: str, folder: Path | None, param: str = "LANGUAGE") -> str:
    """``language`` if ``folder`` (default: the bundled locales) has a file for it."""
    known = all_languages(folder)
    if language not in known:
        raise click.BadParameter(
            f"no locale file for '{language[:20]}' in {folder or 'the bundled locales'} "
            f"(there: {', '.join(known)}); start one with `ckdsl l10n init {language[:20]}`",
            param_hint=param,
        )
    return language


@l10n.command("init")
@click.argument("language")
@_locales_option
def l10n_init(language: str, locales: Path | None) -> None:
    """Print a new language's locale file: every entry "" with its English beside it.

    Refused for a language that has a file already (`l10n update` brings one up to
    date): printed over it with `>`, it would be wiped.

    \b
    cd rules/locales && ckdsl l10n init de > de.yaml
    ckdsl l10n check --lang de
    """
    import re

    from ckdsl.diagnostics import Diagnostic
    from ckdsl.l10n.catalog import locale_path
    from ckdsl.l10n.init import template
    from ckdsl.userfiles import UnsafeFile

    if not re.fullmatch(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*", language):
        raise click.BadParameter(
            f"'{language[:20]}' is not a language tag like de, pt-BR or sr-Latn",
            param_hint="LANGUAGE",
        )
    if language == REFERENCE:
        raise click.BadParameter("English is the reference: it exists", param_hint="LANGUAGE")
    folder = _locales_folder(locales)
    existing = locale_path(language, folder)
    # An empty file is the shell's `> de.yaml`, made before this runs: not a translation.
    if existing.exists() and (not existing.is_file() or existing.stat().st_size > 0):
        raise click.BadParameter(
            f"{existing} exists already: `ckdsl l10n update {language}` brings it up to date "
            "with English (init starts a new language, and would wipe it)",
            param_hint="LANGUAGE",
        )
    english = locale_path(REFERENCE, folder)
    try:
        click.echo(template(language, english), nl=False)
    except UnsafeFile as exc:
        fail([Diagnostic(str(english), 0, 0, exc.message)])
    except UnicodeDecodeError as exc:
        fail([Diagnostic(str(english), 0, 0, f"not UTF-8 text ({exc.reason}, byte {exc.start})")])


@l10n.command("check")
@click.option(
    "--lang",
    "langs",
    multiple=True,
    help="Check only this language (repeatable; default: every locale file of the folder).",
)
@rules_option
@_locales_option
@json_option
def l10n_check(
    langs: tuple[str, ...], rules: Path | None, locales: Path | None, as_json: bool
) -> None:
    """Report missing, extra, untranslated, outdated and inconsistent texts in the locales.

    Exits 1 when anything is found. A derived language (sr-Latn) is checked as the one it
    is derived from (sr).
    """
    from ckdsl.reports.checks import chosen_languages, l10n_diagnostics, l10n_json, l10n_lines

    locales = _locales_folder(locales)
    for lang in langs:
        _language_in(lang, locales, "--lang")
    ruleset = ruleset_or_exit(rules)
    chosen = chosen_languages(langs, languages(locales), locales)
    from ckdsl.l10n.check import check_languages

    findings = check_languages(ruleset, chosen, locales)
    if as_json:
        echo_json(l10n_json(findings, chosen))
    else:
        print_diagnostics(l10n_diagnostics(findings))
        echo_lines(l10n_lines(findings, chosen))
    if findings:
        sys.exit(EXIT_FINDINGS)


@l10n.command("update")
@click.argument("language")
@click.option(
    "--confirm",
    "confirm",
    multiple=True,
    metavar="KEY",
    help="An outdated entry translated again (such as cards.bishop.text): record the "
    "English of today as its source and remove its mark (repeatable).",
)
@click.option("--confirm-all", is_flag=True, help="Confirm every outdated entry.")
@_locales_option
def l10n_update(
    language: str, confirm: tuple[str, ...], confirm_all: bool, locales: Path | None
) -> None:
    """Bring a locale file up to date with en.yaml, in place.

    Adds the entries English gained (as "", the English beside them), marks the entries
    whose English changed since they were translated (`l10n check` reports them as
    outdated until confirmed), and records the English of translated entries that do
    not say which English they were made from.

    \b
    ckdsl l10n update fr                                  # add, mark, record
    ckdsl l10n update fr --confirm cards.bishop.text      # translated again
    """
    from ckdsl.l10n.catalog import derivation, locale_path
    from ckdsl.l10n.update import UpdateError, update

    locales = _locales_folder(locales)
    known = languages(locales)
    if language == REFERENCE:
        raise click.BadParameter(
            "English is the reference: the others are updated from it", param_hint="LANGUAGE"
        )
    if language not in known:
        made = derivation(language, locales)
        problem = (
            f"'{language}' is {made.source} transliterated ({made.transliterate}), with "
            f"no texts of its own: update {made.source}"
            if made is not None
            else f"no locale file for '{language[:20]}'; start one with "
            f"`ckdsl l10n init {language[:20]}`"
        )
        raise click.BadParameter(
            f"{problem} (updatable: {', '.join(known[1:])})", param_hint="LANGUAGE"
        )
    try:
        report = update(language, locales, confirm, confirm_all)
    except UpdateError as err:
        raise click.BadParameter(str(err), param_hint="--confirm") from None
    echo_lines(report.lines(str(locale_path(language, locales))))


COMMANDS = [l10n]


@l10n.command("export")
@click.argument("language")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["po"]),
    default="po",
    show_default=True,
    help="gettext PO, as Poedit, Weblate, Crowdin and Lokalise read it.",
)
@_locales_option
def l10n_export(language: str, fmt: str, locales: Path | None) -> None:
    """Print a language's locale as a PO file for translation tools (docs/l10n.md).

    \b
    ckdsl l10n export pl --format po > pl.po       # edit it in Poedit, Weblate, ...
    ckdsl l10n import pl pl.po                     # the translations back in pl.yaml
    """
    from ckdsl.l10n.po import export_po

    folder = _locales_folder(locales)
    click.echo(export_po(_language_in(language, folder), folder), nl=False)


@l10n.command("import")
@click.argument("language")
@click.argument("po_file", type=PATH)
@_locales_option
def l10n_import(language: str, po_file: Path, locales: Path | None) -> None:
    """Write a PO file's translations into a language's locale file, in place.

    Only the entries whose text changed are rewritten (comments, order and layout stay);
    fuzzy and empty messages are left out. A file whose placeholders differ from English's,
    or that names no entry of en.yaml, is refused whole (exit 1, nothing written).
    """
    from ckdsl.l10n.catalog import locale_path
    from ckdsl.l10n.po import import_po

    folder = _locales_folder(locales)
    report = import_po(_language_in(language, folder), po_file, folder)
    echo_lines(report.lines(str(locale_path(language, folder))))
