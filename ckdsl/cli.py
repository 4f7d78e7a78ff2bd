"""The ``ckdsl`` command line: parse arguments, call the package, print.

Results go to stdout, diagnostics to stderr. Exit codes: 0 ok, 1 findings (a rule error,
a missing translation, ...), 2 usage (a bad option or argument). No Python traceback
reaches a user: a known error prints its diagnostics, anything else a one-line
"internal error" (set ``CKDSL_DEBUG=1`` to see the traceback).
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from ckdsl import __version__
from ckdsl.diagnostics import CkdslError, Diagnostic, display_path
from ckdsl.l10n.catalog import LANGUAGES, REFERENCE, all_languages, load_catalog
from ckdsl.l10n.check import KINDS, check_languages
from ckdsl.rules.ruleset import RuleSet, load_ruleset
from ckdsl.rules.schemas import SCHEMA_KINDS, load_schema
from ckdsl.validate import validate_paths

EXIT_FINDINGS = 1
EXIT_INTERNAL = 3


class _Group(click.Group):
    """Turns errors into messages and exit codes instead of tracebacks."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CkdslError as err:
            _print_diagnostics(err.diagnostics)
            ctx.exit(EXIT_FINDINGS)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(EXIT_FINDINGS)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:
            if os.environ.get("CKDSL_DEBUG"):
                raise
            click.echo(
                f"ckdsl: internal error: {type(exc).__name__}: {exc}\n"
                "This is a bug in ckdsl, not in your files; run again with CKDSL_DEBUG=1 "
                "to see where it happened, and please report it.",
                err=True,
            )
            ctx.exit(EXIT_INTERNAL)


def _print_diagnostics(diagnostics: Sequence[Diagnostic]) -> None:
    for d in diagnostics:
        click.echo(d.format(), err=True)


def _fail(diagnostics: Sequence[Diagnostic]) -> NoReturn:
    raise CkdslError(diagnostics)


def _load_rules(rules: Path | None) -> RuleSet:
    ruleset, problems = load_ruleset(rules)
    if ruleset is None:
        _fail(problems)
    return ruleset


_rules_option = click.option(
    "--rules",
    "rules",
    type=click.Path(path_type=Path),
    default=None,
    help="A rule-set folder or variant file (default: the bundled base rules).",
)
_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ckdsl")
def cli() -> None:
    """ckdsl: Catan Cities & Knights with the rules as data.

    \b
    Quick tour:
      ckdsl validate                  check the bundled rules and locales
      ckdsl validate my-variant.yaml  check a house rule and what it extends
      ckdsl cards --lang pl           the progress cards, in Polish
      ckdsl l10n check                is every language complete?
      ckdsl schema --kind variant     the JSON Schema editors use for completion
    """


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@_rules_option
@_json_option
def validate(paths: tuple[Path, ...], rules: Path | None, as_json: bool) -> None:
    """Check rule sets, variants and locale files; report every error at once.

    With no PATH, checks the bundled base rules and the six locales. A PATH may be a
    rule-set folder, a variant file (checked with everything it extends), a locale file
    (checked against --rules) or a folder of those.
    """
    report = validate_paths(list(paths), rules)
    diagnostics = report.sorted()
    if as_json:
        click.echo(
            json.dumps(
                {
                    "ok": report.ok,
                    "checked": [vars(c) for c in report.checked],
                    "diagnostics": [d.to_json() for d in diagnostics],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        _print_diagnostics(diagnostics)
        for item in report.checked:
            status = "ok" if item.ok else "FAILED"
            detail = f" ({item.summary})" if item.summary else ""
            click.echo(f"{status:6} {item.kind:9} {display_path(item.path)}{detail}")
        if diagnostics:
            n = sum(1 for d in diagnostics if d.severity == "error")
            click.echo(f"{n} error{'s' if n != 1 else ''}", err=True)
    if not report.ok:
        sys.exit(EXIT_FINDINGS)


@cli.command()
@click.option(
    "--kind",
    type=click.Choice(SCHEMA_KINDS),
    default="rules",
    show_default=True,
    help="Which schema: rule files, variant files or locale files.",
)
def schema(kind: str) -> None:
    """Print a JSON Schema (draft-07) for editors and other tools."""
    click.echo(json.dumps(load_schema(kind), indent=2, ensure_ascii=False))


@cli.command()
@click.option(
    "--lang",
    type=click.Choice(all_languages()),
    default=REFERENCE,
    show_default=True,
    help="Language of names and texts.",
)
@click.option("--deck", default=None, help="Only this deck (trade, politics, science).")
@_rules_option
@_json_option
def cards(lang: str, deck: str | None, rules: Path | None, as_json: bool) -> None:
    """List the progress cards: id, deck, count, name and text."""
    ruleset = _load_rules(rules)
    if deck is not None and deck not in ruleset.decks:
        raise click.BadParameter(
            f"'{deck}' is not a deck; the decks are: {', '.join(ruleset.decks)}",
            param_hint="--deck",
        )
    catalog = load_catalog(lang, ruleset)
    rows = []
    for card_id, card in ruleset.cards.items():
        if deck is not None and card["deck"] != deck:
            continue
        rows.append(
            {
                "id": card_id,
                "deck": card["deck"],
                "count": card["count"],
                "timing": card.get("timing", "after_roll"),
                "points": card.get("points", 0),
                "name": catalog.card_name(card_id),
                "text": catalog.card_text(card_id),
            }
        )
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for deck_id in ruleset.decks:
        in_deck = [r for r in rows if r["deck"] == deck_id]
        if not in_deck:
            continue
        total = sum(r["count"] for r in in_deck)
        heading = f"{catalog.name('decks', deck_id)} ({catalog.message('cards_in_deck', total)})"
        click.echo(heading)
        click.echo("=" * len(heading))
        for r in in_deck:
            extras = [catalog.message("copies", r["count"])]
            if r["timing"] != "after_roll":
                extras.append(catalog.name("timings", r["timing"]))
            if r["points"]:
                extras.append(catalog.message("victory_points", r["points"]))
            click.echo(f"{r['name']}  [{r['id']}]  {' · '.join(extras)}")
            click.echo(
                textwrap.fill(r["text"], 88, initial_indent="    ", subsequent_indent="    ")
            )
        click.echo()


@cli.group()
def l10n() -> None:
    """Localization: is every language complete?"""


@l10n.command("check")
@click.option(
    "--lang",
    "langs",
    multiple=True,
    type=click.Choice(all_languages()),
    help="Check only this language (repeatable; default: all six).",
)
@_rules_option
@_json_option
def l10n_check(langs: tuple[str, ...], rules: Path | None, as_json: bool) -> None:
    """Report missing, extra, untranslated and inconsistent texts in the locales.

    Exits 1 when anything is found. sr-Latn is derived from sr, so it is checked as sr.
    """
    ruleset = _load_rules(rules)
    chosen = tuple(dict.fromkeys(("sr" if lang == "sr-Latn" else lang) for lang in langs))
    languages = chosen or LANGUAGES
    findings = check_languages(ruleset, languages)
    counts = {lang: dict.fromkeys(KINDS, 0) for lang in languages}
    for f in findings:
        counts.setdefault(f.language, dict.fromkeys(KINDS, 0))[f.kind] += 1
    if as_json:
        click.echo(
            json.dumps(
                {
                    "ok": not findings,
                    "languages": counts,
                    "findings": [f.to_json() for f in findings],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        _print_diagnostics(sorted((f.diagnostic for f in findings), key=Diagnostic.sort_key))
        for lang, kinds in counts.items():
            found = ", ".join(f"{n} {kind}" for kind, n in kinds.items() if n)
            click.echo(f"{lang:3} {found or 'complete'}")
    if findings:
        sys.exit(EXIT_FINDINGS)


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point."""
    cli.main(args=list(argv) if argv is not None else None, prog_name="ckdsl")
