"""What every command shares: exit codes, printing diagnostics, common options."""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO, TypeVar

import click

from ckdsl import native
from ckdsl.diagnostics import CkdslError, Diagnostic, display_path
from ckdsl.l10n.catalog import REFERENCE, all_languages

if TYPE_CHECKING:
    from ckdsl.bots import BotSpec
    from ckdsl.rules.ruleset import RuleSet
    from ckdsl.sim.experiment import Experiment, WorkSpec
    from ckdsl.sim.runner import RunResult

_F = TypeVar("_F", bound=Callable[..., object])

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130

DEFAULT_LINEUP = "heuristic,heuristic,heuristic,heuristic"
"""Who plays when nobody says (``play``, ``simulate``, ``compare``)."""

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


class NamedPath(click.Path):
    """A file or folder name, never empty: ``''`` would be read as the current folder
    (``Path('')`` is ``.``), and a game would run on what is there, or say nothing
    useful."""

    def convert(
        self,
        value: str | os.PathLike[str],
        param: click.Parameter | None,
        ctx: click.Context | None,
    ) -> str | bytes | os.PathLike[str]:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty name names no file: give a file or folder", param, ctx)
        return super().convert(value, param, ctx)


class _Name(click.ParamType):  # type: ignore[type-arg]
    """A bundled name or a file (``--map``), never empty."""

    name = "text"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> object:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty name names nothing: give a bundled name or a file", param, ctx)
        return value


NAME = _Name()
"""The type of ``--map``: a bundled map's name or a file."""

PATH = NamedPath(path_type=Path)
"""The type of an argument or option that names a file or folder: one for all of them
(Click asks gettext for the name of each one it makes, at every start)."""

# The options every experiment command (simulate, compare, tournament) shares.
rotate_option = click.option(
    "--rotate-seats",
    is_flag=True,
    help="Play every seed once per rotation of the line-up, so every bot sits in every seat.",
)
jobs_option = click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: every core); 1 plays in this process. With "
    "--scheduler local-dask: the cluster's workers.",
)
# A running Dask scheduler's address: [tcp:// or dask://]HOST:PORT (an IPv6 host bracketed).
_SCHEDULER = re.compile(r"(?:[a-z][a-z0-9+]*://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):\d{1,5}")


def _scheduler(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--scheduler``: local processes, a local Dask cluster or a scheduler's address; a
    usage error for anything else (before a game is played or a cluster is reached)."""
    if value is None or value in ("local", "processes", "local-dask"):
        return value
    if not _SCHEDULER.fullmatch(value):
        raise click.BadParameter(
            f"'{value[:60]}' is not a Dask scheduler: give local-dask, or an address "
            "tcp://HOST:PORT (dask://HOST:PORT)"
        )
    return value


scheduler_option = click.option(
    "--scheduler",
    default=None,
    callback=_scheduler,
    metavar="WHERE",
    help="Run on Dask: 'local-dask' starts a LocalCluster of --jobs workers; "
    "tcp://HOST:8786 or dask://HOST:8786 uses a running scheduler (`dask scheduler`, "
    "then `dask worker tcp://HOST:8786` on each machine with ckdsl installed).",
)
rules_option = click.option(
    "--rules",
    "rules",
    type=PATH,
    default=None,
    help="A rule-set folder or variant file (default: the bundled base rules).",
)
map_option = click.option(
    "--map",
    "map_name",
    default="standard",
    show_default=True,
    type=NAME,
    help="Map name or file.",
)
layout_option = click.option(
    "--layout", default=None, help="A fixed layout of the map (default: from each seed)."
)
# A command that plays one rule set takes what its variant's `table:` says unless told.
table_map_option = click.option(
    "--map",
    "map_name",
    default=None,
    type=NAME,
    help="Map name or file (default: the variant's `table: map`, else standard).",
)
table_layout_option = click.option(
    "--layout",
    default=None,
    help="A fixed layout of the map (default: the variant's `table: layout`, else drawn "
    "from the seed).",
)


def table_of(
    rules: str, map_name: str | None, layout: str | None, players: str | None
) -> tuple[str, str | None, str]:
    """The map, layout and line-up of a game of ``rules`` (``base``, a folder or a
    variant file): each as the command line says, else as the variant's ``table:`` says
    (its player count: that many heuristic bots), else the defaults. A ``table:`` that
    does not fit (a map that cannot be read, a layout it lacks, a player count the rules
    do not allow) is an error at its place in the variant."""
    from ckdsl.session import load_rules, table_faults

    loaded = load_rules(rules)
    faults = table_faults(loaded.ruleset, loaded.compiled)
    if faults:
        raise CkdslError(faults)
    table = loaded.ruleset.table
    if players is None:
        count = table.get("players", DEFAULT_LINEUP.count(",") + 1)
        players = ",".join(["heuristic"] * count)
    if map_name is None:
        map_name = table.get("map", "standard")
        layout = layout if layout is not None else table.get("layout")
    elif layout is None and map_name == table.get("map"):
        layout = table.get("layout")
    return map_name or "standard", layout, players


def _user_metrics(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    from ckdsl.sim.store import columns
    from ckdsl.sim.user_metrics import parse_option

    out: list[tuple[str, str]] = []
    stored = [name for name, _, _ in columns()]
    for text in values:
        try:
            out.append(parse_option(text, [*stored, *(name for name, _ in out)]))
        except ValueError as exc:
            message = str(exc)
            if "=" not in text and any("--sprt-metric" in p.opts for p in ctx.command.params):
                message += f"; the SPRT's metric is --sprt-metric {text}"
            raise click.BadParameter(message, ctx, param) from None
    return tuple(out)


def user_metric_options(command: _F) -> _F:
    """``--metric NAME=FORMULA`` (repeatable) and ``--keep-events``."""
    command = click.option(
        "--keep-events",
        is_flag=True,
        help="Keep each game's event log, compressed, in the results folder (DIR/_events; "
        "read it with ckdsl.sim.event_logs.read_events).",
    )(command)
    return click.option(
        "--metric",
        "metrics",
        multiple=True,
        metavar="NAME=FORMULA",
        callback=_user_metrics,
        help="A column of your own: a formula of the effect DSL over the final state "
        "(`ckdsl vocabulary`), per player when it names p, e.g. "
        'walls_at_end="count(walls(p))". Repeatable.',
    )(command)


def user_metric_args(metrics: Sequence[tuple[str, str]], keep_events: bool) -> list[str]:
    """The options of :func:`user_metric_options` as a manifest's command line records
    them."""
    line = [word for name, formula in metrics for word in ("--metric", f"{name}={formula}")]
    return [*line, "--keep-events"] if keep_events else line


def check_keep_events(keep_events: bool, out: Path | None) -> None:
    """``--keep-events`` keeps the logs in the results folder: without ``--out`` they
    would be thrown away with it (a usage error, before a game is played)."""
    if keep_events and out is None:
        raise click.UsageError("--keep-events keeps the logs in the results folder: give --out")


quiet_option = click.option(
    "--quiet", is_flag=True, help="No progress bar and no run report on stderr."
)


def plain_warnings() -> None:
    """Show ckdsl's own warnings (``ckdsl.sim.store.OtherSources``: a results folder
    made by other sources) as one line, ``warning: ...``, on stderr; others as Python
    shows them."""
    import warnings

    shown = warnings.showwarning

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        if getattr(category, "__module__", "").startswith("ckdsl."):
            click.echo(f"warning: {message}", err=True)
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show


MAX_SHOWN_PER_FILE = 100
"""Findings printed for one file; the rest are counted (a file of thousands of broken
entries printed 39,600 lines, which nobody reads past the first screen)."""


def print_diagnostics(diagnostics: Sequence[Diagnostic]) -> None:
    shown: dict[str, int] = {}
    for d in diagnostics:
        shown[d.file] = shown.get(d.file, 0) + 1
        if shown[d.file] <= MAX_SHOWN_PER_FILE:
            click.echo(d.format(), err=True)
    for file, count in shown.items():
        if count > MAX_SHOWN_PER_FILE:
            more = count - MAX_SHOWN_PER_FILE
            where = f"{display_path(file)}: " if file else ""
            click.echo(
                f"{where}... and {more:,} more findings here (fix those above first)", err=True
            )


def fail(diagnostics: Sequence[Diagnostic]) -> NoReturn:
    raise CkdslError(diagnostics)


def bot_specs(text: str, param_hint: str = "--players") -> list[BotSpec]:
    """Bot specs from the command line (``heuristic,mcts:iterations=200,random``); a
    usage error (exit 2) naming what is wrong otherwise."""
    from ckdsl.bots import BotError, parse_players

    try:
        specs = parse_players(text)
        for spec in specs:  # a bot that cannot be made (a weights file missing) says so now
            spec.make(0)
    except (BotError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint=param_hint) from None
    return specs


@contextmanager
def results_folder(out: Path | None, command: str) -> Iterator[Path]:
    """``out``, or a temporary folder removed afterwards when the user keeps no results."""
    if out is not None:
        yield out
        return
    import tempfile

    with tempfile.TemporaryDirectory(prefix=f"ckdsl-{command}-") as folder:
        yield Path(folder)


@contextmanager
def setup_usage_errors() -> Iterator[None]:
    """A line-up that does not fit the rules or the map, or a layout the map does not
    have, is a usage error naming its option (exit 2), not a finding in a file."""
    from ckdsl.session import LayoutError, PlayersError

    try:
        yield
    except PlayersError as exc:
        raise click.BadParameter(exc.diagnostics[0].message, param_hint="--players") from None
    except LayoutError as exc:
        raise click.BadParameter(exc.diagnostics[0].message, param_hint="--layout") from None


def prepared(experiment: Experiment) -> WorkSpec:
    """The experiment loaded and checked (``setup_usage_errors``; a broken rule file:
    its findings)."""
    from ckdsl.sim.experiment import prepare

    with setup_usage_errors():
        return prepare(experiment)


@functools.cache
def _note_a_pure_engine() -> None:
    """Say once why games will run at under half the speed: the pure-Python package
    runs though nobody asked for it (``CKDSL_PURE``), e.g. a compiled build left stale
    by an edit or a pull (``ckdsl.native``)."""
    if not native.active() and not os.environ.get(native.PURE_VARIABLE):
        click.echo(f"note: the engine runs as {native.status()}: games run at under half "
                   "the compiled build's speed", err=True)  # fmt: skip


def run_experiment(
    experiment: Experiment,
    spec: WorkSpec,
    out: Path,
    *,
    jobs: int | None,
    scheduler: str | None,
    quiet: bool,
    command: list[str],
    kind: str,
) -> RunResult:
    """Play what the results folder ``out`` lacks; on Ctrl-C, say how many games are
    stored and how to go on, and exit 130."""
    from ckdsl.sim.runner import RunInterrupted, run

    if not quiet:
        _note_a_pure_engine()

    try:
        return run(
            experiment,
            out,
            jobs=jobs,
            scheduler=scheduler,
            progress=not quiet,
            command=command,
            kind=kind,
            spec=spec,
        )
    except RunInterrupted as stop:
        click.echo(str(stop), err=True)
        click.get_current_context().exit(EXIT_INTERRUPTED)


def refuse_game_files(
    option: str,
    path: Path | None,
    rules: Sequence[str | None] = (),
    map_name: str | None = None,
    read: Sequence[Path] = (),
) -> None:
    """Nothing writes over a file the game reads: ``path`` (the file of ``option``) must
    not be a rule file of ``rules`` (a variant, a variant it extends, a rule-set folder's
    file), the map ``map_name``, or one of ``read`` (the save or scenario shown). A usage
    error, exit 2, naming the file."""
    from ckdsl.session import files_in_use

    if path is None:
        return
    used = next(
        (u for r in rules or (None,) if (u := files_in_use(path, r, map_name)) is not None),
        None,
    )
    if used is None and any(path.resolve() == p.resolve() for p in read):
        used = "the file being shown"
    if used is not None:
        raise click.BadParameter(f"'{path}' is {used}: write to another file", param_hint=option)


def ruleset_or_exit(rules: Path | None) -> RuleSet:
    """The rule set ``rules`` names (default: the bundled base), or its errors and exit 1."""
    from ckdsl.dsl.program import load_ruleset

    ruleset, problems = load_ruleset(rules)
    if ruleset is None:
        fail(problems)
    return ruleset


def echo_lines(lines: Sequence[str], err: bool = False) -> None:
    """Each line, as ``click.echo`` writes it, in one write (a game's log has thousands)."""
    if lines:
        click.echo("\n".join(lines), err=err)


def echo_json(data: object, indent: int | None = 2) -> None:
    click.echo(json.dumps(data, indent=indent, ensure_ascii=False))


LANGUAGES = all_languages()
"""The choices of ``--lang`` (the bundled locale files), listed once for every command."""


def lang_option(purpose: str) -> Callable[[_F], _F]:
    """``--lang``: a language with a locale file, translated or derived (``sr-Latn``)."""
    return click.option(
        "--lang",
        type=click.Choice(LANGUAGES),
        default=REFERENCE,
        show_default=True,
        help=purpose,
    )
