"""``ckdsl l10n``: start a language (``init``), check every language (``check``), follow
English's changes (``update``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ckdsl.commands.common import (
    EXIT_FINDINGS,
    LANGUAGES,
    echo_json,
    echo_lines,
    json_option,
    print_diagnostics,
    rules_option,
    ruleset_or_exit,
)
from ckdsl.l10n.catalog import REFERENCE, languages

if TYPE_CHECKING:
    pass


@click.group()
def l10n() -> None:
    """Localization: start a language, check every language, follow English's changes."""


@l10n.command("init")
@click.argument("language")
def l10n_init(language: str) -> None:
    """Print a new language's locale file: every entry "" with its English beside it.

    \b
    cd rules/locales && ckdsl l10n init de > de.yaml
    ckdsl l10n check --lang de
    """
    import re

    from ckdsl.l10n.init import template

    if not re.fullmatch(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*", language):
        raise click.BadParameter(
            f"'{language[:20]}' is not a language tag like de, pt-BR or sr-Latn",
            param_hint="LANGUAGE",
        )
    if language == REFERENCE:
        raise click.BadParameter("English is the reference: it exists", param_hint="LANGUAGE")
    click.echo(template(language), nl=False)


_locales_option = click.option(
    "--locales",
    "locales",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    metavar="FOLDER",
    help="The folder of the locale files (default: the bundled rules/locales).",
)


@l10n.command("check")
@click.option(
    "--lang",
    "langs",
    multiple=True,
    type=click.Choice(LANGUAGES),
    help="Check only this language (repeatable; default: every locale file).",
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
