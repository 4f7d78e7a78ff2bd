"""``ckdsl cards``, ``ckdsl explain`` and ``ckdsl vocabulary``: the progress cards, a card's
effect in the DSL, the DSL's words."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ckdsl.commands.common import (
    echo_json,
    echo_lines,
    json_option,
    lang_option,
    rules_option,
    ruleset_or_exit,
)
from ckdsl.l10n.catalog import load_catalog

if TYPE_CHECKING:
    pass


@click.command()
@lang_option("Language of names and texts.")
@click.option("--deck", default=None, help="Only this deck (trade, politics, science).")
@rules_option
@json_option
def cards(lang: str, deck: str | None, rules: Path | None, as_json: bool) -> None:
    """List the progress cards: id, deck, count, name and text."""
    from ckdsl.reports.cards import card_lines, card_rows

    ruleset = ruleset_or_exit(rules)
    if deck is not None and deck not in ruleset.decks:
        raise click.BadParameter(
            f"'{deck}' is not a deck; the decks are: {', '.join(ruleset.decks)}",
            param_hint="--deck",
        )
    catalog = load_catalog(lang, ruleset)
    rows = card_rows(ruleset, catalog, deck)
    if as_json:
        echo_json(rows)
    else:
        echo_lines(card_lines(ruleset, catalog, rows))


@click.command()
@click.argument("what")
@lang_option("Language of names and texts.")
@rules_option
@json_option
def explain(what: str, lang: str, rules: Path | None, as_json: bool) -> None:
    """Explain a progress card (or an improvement level's ability): its name and text in a
    language, deck and count, and its effect in the DSL, as the engine reads it."""
    from ckdsl.dsl.explain import explain as explain_id
    from ckdsl.reports.dsl import explain_lines

    ruleset = ruleset_or_exit(rules)
    try:
        report = explain_id(ruleset, what, load_catalog(lang, ruleset))
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="WHAT") from None
    if as_json:
        echo_json(report)
    else:
        echo_lines(explain_lines(report))


@click.command()
@click.option("--markdown", is_flag=True, help="Print the tables of docs/dsl.md.")
@json_option
def vocabulary(markdown: bool, as_json: bool) -> None:
    """Every verb and function of the effect DSL, with its form and what it does."""
    from ckdsl.dsl import reference
    from ckdsl.reports.dsl import vocabulary_lines

    if as_json:
        echo_json(reference.rows())
    elif markdown:
        click.echo(reference.markdown(), nl=False)
    else:
        echo_lines(vocabulary_lines(reference.rows()))


COMMANDS = [cards, explain, vocabulary]
