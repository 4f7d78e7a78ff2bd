"""The ``ckdsl`` command line: parse arguments, call the package, print.

Results go to stdout, diagnostics to stderr. Exit codes: 0 ok, 1 findings (a rule error,
a missing translation, ...), 2 usage (a bad option or argument). No Python traceback
reaches a user: a known error prints its diagnostics, anything else a one-line
"internal error" (set ``CKDSL_DEBUG=1`` to see the traceback).
"""

from __future__ import annotations

import errno
import gc
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from ckdsl import __version__, native
from ckdsl.commands.common import (
    EXIT_FINDINGS,
    EXIT_INTERNAL,
    PATH,
    NamedPath,
    bot_specs,
    json_option,
    rules_option,
    table_layout_option,
    table_map_option,
    table_of,
)
from ckdsl.commands.common import fail as _fail
from ckdsl.commands.common import print_diagnostics as _print_diagnostics
from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.l10n.catalog import REFERENCE, all_languages, languages, load_catalog
from ckdsl.paths import SCHEMA_KINDS

# What a command needs is imported when it runs: `ckdsl --help`, and every command, then
# pays only for what it uses (the DSL compiler, jsonschema and Lark take most of a start).

if TYPE_CHECKING:
    from ckdsl.bots import Bot
    from ckdsl.engine.decisions import Option
    from ckdsl.engine.game import Game
    from ckdsl.rules.ruleset import RuleSet
    from ckdsl.session import GameSetup

_F = TypeVar("_F", bound=Callable[..., object])


_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}
"""What writing the output can meet that is the device's doing, not ckdsl's (a full disk
behind `> file`, `> /dev/full`): said in a line, exit 1."""


class _Group(click.Group):
    """Turns errors into messages and exit codes instead of tracebacks; the commands of
    ``ckdsl.commands`` are loaded when named (or listed), not at every start."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from ckdsl.commands import COMMANDS

        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = self.commands.get(cmd_name)
        if found is not None:
            return found
        from ckdsl.commands import command, registered

        found = command(cmd_name)
        if found is None:  # no such command: every one known, for its "did you mean"
            for each in registered():
                self.add_command(each)
            return None
        self.add_command(found)
        return found

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except CkdslError as err:
            _print_diagnostics(err.diagnostics)
            ctx.exit(EXIT_FINDINGS)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:  # the reader stopped reading (`| head`): not a failure
            _quiet_pipe()
            ctx.exit(0)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:
            if isinstance(exc, OSError) and exc.errno in _FULL:
                _quiet_pipe()  # what is still buffered for the full device is dropped
                click.echo(f"ckdsl: cannot write the output: {exc.strerror}", err=True)
                ctx.exit(EXIT_FINDINGS)
            if os.environ.get("CKDSL_DEBUG"):
                raise
            click.echo(
                f"ckdsl: internal error: {type(exc).__name__}: {exc}\n"
                "This is a bug in ckdsl, not in your files; run again with CKDSL_DEBUG=1 "
                "to see where it happened, and please report it.",
                err=True,
            )
            ctx.exit(EXIT_INTERNAL)


def _load_rules(rules: Path | None) -> RuleSet:
    from ckdsl.dsl.program import load_ruleset

    ruleset, problems = load_ruleset(rules)
    if ruleset is None:
        _fail(problems)
    return ruleset


_rules_option = rules_option
_json_option = json_option


def _echo_lines(lines: Sequence[str], err: bool = False) -> None:
    """Each line, as ``click.echo`` writes it, in one write (a game's log has thousands)."""
    if lines:
        click.echo("\n".join(lines), err=err)


def _echo_json(data: object, indent: int | None = 2) -> None:
    click.echo(json.dumps(data, indent=indent, ensure_ascii=False))


_LANGUAGES = all_languages()
"""The choices of ``--lang`` (the bundled locale files), listed once for every command."""


def _lang_option(purpose: str) -> Callable[[_F], _F]:
    """``--lang``: a language with a locale file, translated or derived (``sr-Latn``)."""
    return click.option(
        "--lang",
        type=click.Choice(_LANGUAGES),
        default=REFERENCE,
        show_default=True,
        help=purpose,
    )


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__,
    prog_name="ckdsl",
    # which package runs: the compiled build or the sources, and why (ckdsl.native)
    message=f"%(prog)s, version %(version)s; engine: {native.status()}",
)
def cli() -> None:
    """ckdsl: Catan Cities & Knights with the rules as data.

    \b
    Quick tour:
      ckdsl validate                  check the bundled rules and locales
      ckdsl validate my-variant.yaml  check a house rule and what it extends
      ckdsl cards --lang pl           the progress cards, in Polish
      ckdsl explain bishop --lang fr  a card's text and its effect in the DSL
      ckdsl vocabulary                the verbs and functions effects are written with
      ckdsl l10n check                is every language complete and up to date?
      ckdsl schema --kind variant     the JSON Schema editors use for completion
      ckdsl play --seed 7 --lang fr   four heuristic bots play a game, logged in French
      ckdsl play --players human,heuristic,heuristic,heuristic   you play red
      ckdsl serve                     the same at a web table in your browser
      ckdsl replay game.json --step   a saved game, played again turn by turn
      ckdsl watch --svg now.svg       bots play, one turn at a time
      ckdsl board --svg board.svg     the board, with the ids answers use
      ckdsl board --save game.json --at 300 --svg b.svg   a saved game's position
      ckdsl scenario tests/scenarios  run rule examples
    """


@cli.command()
@click.argument("paths", nargs=-1, type=PATH)
@_rules_option
@_json_option
def validate(paths: tuple[Path, ...], rules: Path | None, as_json: bool) -> None:
    """Check rule sets, variants and locale files; report every error at once.

    With no PATH, checks the bundled base rules and the six locales. A PATH may be a
    rule-set folder, a variant file (checked with everything it extends), a locale file
    (checked against --rules) or a folder of those.
    """
    from ckdsl.reports.checks import checked_lines, error_count, validation_json
    from ckdsl.validate import validate_paths

    report = validate_paths(list(paths), rules)
    if as_json:
        _echo_json(validation_json(report))
    else:
        diagnostics = report.sorted()
        _print_diagnostics(diagnostics)
        _echo_lines(checked_lines(report))
        count = error_count(diagnostics)
        if count is not None:
            click.echo(count, err=True)
    if not report.ok:
        sys.exit(EXIT_FINDINGS)


@cli.command()
@click.option(
    "--kind",
    type=click.Choice(SCHEMA_KINDS),
    default="rules",
    show_default=True,
    help="Which schema: rule, variant, locale, map or scenario files.",
)
def schema(kind: str) -> None:
    """Print a JSON Schema (draft-07) for editors and other tools."""
    from ckdsl.rules.schemas import load_schema

    click.echo(json.dumps(load_schema(kind), indent=2, ensure_ascii=False))


@cli.command()
@_lang_option("Language of names and texts.")
@click.option("--deck", default=None, help="Only this deck (trade, politics, science).")
@_rules_option
@_json_option
def cards(lang: str, deck: str | None, rules: Path | None, as_json: bool) -> None:
    """List the progress cards: id, deck, count, name and text."""
    from ckdsl.reports.cards import card_lines, card_rows

    ruleset = _load_rules(rules)
    if deck is not None and deck not in ruleset.decks:
        raise click.BadParameter(
            f"'{deck}' is not a deck; the decks are: {', '.join(ruleset.decks)}",
            param_hint="--deck",
        )
    catalog = load_catalog(lang, ruleset)
    rows = card_rows(ruleset, catalog, deck)
    if as_json:
        _echo_json(rows)
    else:
        _echo_lines(card_lines(ruleset, catalog, rows))


@cli.command()
@click.argument("what")
@_lang_option("Language of names and texts.")
@_rules_option
@_json_option
def explain(what: str, lang: str, rules: Path | None, as_json: bool) -> None:
    """Explain a progress card (or an improvement level's ability): its name and text in a
    language, deck and count, and its effect in the DSL, as the engine reads it."""
    from ckdsl.dsl.explain import explain as explain_id
    from ckdsl.reports.dsl import explain_lines

    ruleset = _load_rules(rules)
    try:
        report = explain_id(ruleset, what, load_catalog(lang, ruleset))
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="WHAT") from None
    if as_json:
        _echo_json(report)
    else:
        _echo_lines(explain_lines(report))


@cli.command()
@click.option("--markdown", is_flag=True, help="Print the tables of docs/dsl.md.")
@_json_option
def vocabulary(markdown: bool, as_json: bool) -> None:
    """Every verb and function of the effect DSL, with its form and what it does."""
    from ckdsl.dsl import reference
    from ckdsl.reports.dsl import vocabulary_lines

    if as_json:
        _echo_json(reference.rows())
    elif markdown:
        click.echo(reference.markdown(), nl=False)
    else:
        _echo_lines(vocabulary_lines(reference.rows()))


@cli.group()
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
    type=NamedPath(path_type=Path, file_okay=False),
    default=None,
    metavar="FOLDER",
    help="The folder of the locale files (default: the bundled rules/locales).",
)


@l10n.command("check")
@click.option(
    "--lang",
    "langs",
    multiple=True,
    type=click.Choice(_LANGUAGES),
    help="Check only this language (repeatable; default: every locale file).",
)
@_rules_option
@_locales_option
@_json_option
def l10n_check(
    langs: tuple[str, ...], rules: Path | None, locales: Path | None, as_json: bool
) -> None:
    """Report missing, extra, untranslated, outdated and inconsistent texts in the locales.

    Exits 1 when anything is found. A derived language (sr-Latn) is checked as the one it
    is derived from (sr).
    """
    from ckdsl.reports.checks import chosen_languages, l10n_diagnostics, l10n_json, l10n_lines

    ruleset = _load_rules(rules)
    chosen = chosen_languages(langs, languages(locales), locales)
    from ckdsl.l10n.check import check_languages

    findings = check_languages(ruleset, chosen, locales)
    if as_json:
        _echo_json(l10n_json(findings, chosen))
    else:
        _print_diagnostics(l10n_diagnostics(findings))
        _echo_lines(l10n_lines(findings, chosen))
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
    _echo_lines(report.lines(str(locale_path(language, locales))))


# --- playing games ----------------------------------------------------------------------


def _print_game(game: Game, lang: str, ruleset: RuleSet, as_json: bool) -> None:
    """The log in words, then the final scores (or all of it as JSON)."""
    from ckdsl.reports.game import game_json, game_lines

    if as_json:
        _echo_json(game_json(game), indent=None)
    else:
        _echo_lines(game_lines(game, load_catalog(lang, ruleset)))


@cli.command()
@click.option(
    "--players",
    default=None,
    help="One bot spec per player, comma-separated (`ckdsl bots` lists them), e.g. "
    "heuristic,mcts:iterations=100,random,random (default: four heuristic bots, or as "
    "many as the variant's `table: players`).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The game's seed.")
@click.option(
    "--rotation",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Seat the players shifted by this many seats (the bot named first sits in seat "
    "R), as rotation R of an experiment does; each bot keeps its own random stream.",
)
@table_map_option
@table_layout_option
@click.option("--save", "save_path", type=PATH, help="Write a save file.")
@click.option(
    "--delay",
    type=click.FloatRange(min=0),
    default=None,
    help="With a human seat: seconds between the bots' moves (default 0.3 on a terminal).",
)
@_lang_option("Language of the game log.")
@_rules_option
@_json_option
def play(
    players: str | None,
    seed: int,
    rotation: int,
    map_name: str | None,
    layout: str | None,
    save_path: Path | None,
    delay: float | None,
    lang: str,
    rules: Path | None,
    as_json: bool,
) -> None:
    """Play a complete game and print its log and the final scores.

    A seat is a bot or `human`: a person at this terminal (several for hot-seat), who
    answers by number or by typing the answer (`help` lists the table's commands)."""
    from ckdsl.bots import bot_seed, split_players
    from ckdsl.session import GameSetup, load_rules
    from ckdsl.session import play as run_bots

    target = str(rules) if rules else "base"
    map_name, layout, players = table_of(target, map_name, layout, players)
    items = split_players(players)
    specs = [None if item == "human" else bot_specs(item)[0] for item in items]
    n = len(specs)
    # Seat s holds the line-up's bot (s - rotation) mod n, seeded by its place in the
    # line-up: the games of an experiment's rotations (ckdsl.sim.experiment).
    places = [(seat - rotation) % n for seat in range(n)]
    seats: list[Bot | None] = []
    for p in places:
        spec = specs[p]
        seats.append(None if spec is None else spec.make(bot_seed(seed, p)))
    setup = GameSetup(target, map_name, layout, n, seed)
    if None in seats and as_json:
        raise click.UsageError("a game with a human seat is shown as it is played: no --json")
    _check_save_path(save_path, setup)
    game = _started(setup)
    if None in seats:
        _play_at_table(game, setup, seats, lang, delay, save_path)
        return
    bots = [seat for seat in seats if seat is not None]
    run_bots(game, bots)
    saved = _save_or_keep(save_path, game, setup)
    _print_game(game, lang, load_rules(setup.rules).ruleset, as_json)
    if not saved:
        sys.exit(EXIT_FINDINGS)


def _save_or_keep(save_path: Path | None, game: Game, setup: GameSetup) -> bool:
    """Write the save; if that fails, write it to a file of its own in the temporary
    folder and say where (the game just played is never lost). False if it failed."""
    from ckdsl.session import write_save

    if save_path is None:
        return True
    try:
        write_save(save_path, game, setup)
        return True
    except OSError as exc:
        import tempfile

        kept = Path(tempfile.gettempdir()) / f"ckdsl-unsaved-{setup.seed}-{os.getpid()}.json"
        message = f"{save_path}: cannot save the game: {exc.strerror or exc}"
        try:
            write_save(kept, game, setup)
            message += f"; it was saved to {kept} instead"
        except OSError:
            message += "; it could not be saved anywhere (replay it with the same seed)"
        click.echo(message, err=True)
        return False


def _check_save_path(save_path: Path | None, setup: GameSetup) -> None:
    """A save is never written over the files of the game itself."""
    from ckdsl.commands.common import refuse_game_files

    refuse_game_files("--save", save_path, [setup.rules], setup.map)


def _started(setup: GameSetup) -> Game:
    """The game of ``setup`` (a line-up or layout that does not fit: a usage error)."""
    from ckdsl.commands.common import setup_usage_errors
    from ckdsl.session import start

    with setup_usage_errors():
        return start(setup)


def _play_at_table(
    game: Game,
    setup: GameSetup,
    seats: list[Bot | None],
    lang: str,
    delay: float | None,
    save_path: Path | None,
) -> None:
    from ckdsl.session import load_rules
    from ckdsl.table.terminal import play_at_table

    catalog = load_catalog(lang, load_rules(setup.rules).ruleset)
    pace = delay if delay is not None else (0.3 if sys.stdout.isatty() else 0.0)
    game, code = play_at_table(setup, seats, catalog, delay=pace, save_path=save_path, game=game)
    if save_path is not None and code == 0 and game.state.over:
        if not _save_or_keep(save_path, game, setup):
            sys.exit(EXIT_FINDINGS)
        click.echo(f"saved to {save_path}", err=True)
    if code:
        sys.exit(code)


@cli.command()
@click.argument("save", type=PATH)
@click.option(
    "--step",
    is_flag=True,
    help="One turn at a time: its log and everyone's status, then wait for Enter (when "
    "input is not a terminal, every turn in a row).",
)
@click.option(
    "--svg",
    "svg_path",
    type=PATH,
    help="With --step: rewrite this board picture after every turn.",
)
@click.option(
    "--rules",
    "rules",
    type=PATH,
    default=None,
    help="Where the save's rules are now, if they moved (they must be the same rules).",
)
@_lang_option("Language of the game log.")
@_json_option
def replay(
    save: Path, step: bool, svg_path: Path | None, rules: Path | None, lang: str, as_json: bool
) -> None:
    """Replay a save file and print its log and the final scores again."""
    from ckdsl.session import load_rules
    from ckdsl.session import replay as replay_save

    if step:
        if as_json:
            raise click.UsageError("--step shows turns in words: not with --json")
        _replay_steps(save, svg_path, lang, rules)
        return
    if svg_path is not None:
        raise click.UsageError("--svg goes with --step (or use `ckdsl board --save`)")
    game, setup = replay_save(save, rules=None if rules is None else str(rules))
    _print_game(game, lang, load_rules(setup.rules).ruleset, as_json)


def _replay_steps(save: Path, svg_path: Path | None, lang: str, rules: Path | None) -> None:
    from ckdsl.commands.board import show_steps
    from ckdsl.commands.common import refuse_game_files
    from ckdsl.session import load_rules, open_replay, saved_option
    from ckdsl.table.watch import steps

    game, setup, answers = open_replay(save, None if rules is None else str(rules))
    refuse_game_files("--svg", svg_path, [setup.rules], setup.map, [save])
    catalog = load_catalog(lang, load_rules(setup.rules).ruleset)

    def given() -> Iterator[Option]:
        for number, text in enumerate(answers, start=1):
            yield saved_option(game, save, number, text)

    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    show_steps(game, catalog, steps(game, catalog, given()), svg_path, 0.0, wait=interactive)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=PATH)
@_json_option
def scenario(paths: tuple[Path, ...], as_json: bool) -> None:
    """Run scenario files (or every *.yaml under a folder): one line per scenario."""
    from ckdsl.reports.scenarios import outcome_lines, passed_line
    from ckdsl.scenario import run_file, scenario_files

    missing = [p for p in paths if not p.exists()]
    if missing:
        _fail([Diagnostic(str(p), 0, 0, "no such file or folder") for p in missing])
    outcomes = [run_file(path) for path in scenario_files(paths)]
    if as_json:
        _echo_json([o.to_json() for o in outcomes])
    else:
        for outcome in outcomes:
            _echo_lines(outcome_lines(outcome))
        sys.stdout.flush()  # the results before the count, where both go to one place
        click.echo(passed_line(outcomes), err=True)
    if any(o.status != "pass" for o in outcomes):
        sys.exit(EXIT_FINDINGS)


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point. Ctrl-C anywhere, start-up included, and a reader that
    closes the pipe end the run quietly (130; 0), never with a traceback."""
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="ckdsl")
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        _quiet_pipe()
        sys.exit(0)
    finally:
        # The process ends: what it made is let go with it, not searched for cycles once
        # more on the way out (the collections at exit cost a game's log as much again).
        gc.freeze()


def _quiet_pipe() -> None:
    """Point stdout at /dev/null: flushing at exit would raise again on the closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
