"""The ``ckdsl`` command line: the Click group (the commands are in ``ckdsl.commands``).

Results go to stdout, diagnostics to stderr. Exit codes: 0 ok, 1 findings (a rule error,
a missing translation, ...), 2 usage (a bad option or argument). No Python traceback
reaches a user: a known error prints its diagnostics, anything else a one-line
"internal error" (set ``CKDSL_DEBUG=1`` to see the traceback).
"""

from __future__ import annotations

import errno
import gc
import os
import sys
from collections.abc import Sequence

import click

from ckdsl import __version__, native
from ckdsl.commands.common import EXIT_FINDINGS, EXIT_INTERNAL
from ckdsl.commands.common import print_diagnostics as _print_diagnostics
from ckdsl.diagnostics import CkdslError

# The commands are in ckdsl.commands, each module loaded when its command is named (or
# listed), and what a command needs is imported when it runs: `ckdsl --help`, and every
# command, then pays only for what it uses (the DSL compiler, jsonschema and Lark take most
# of a start).

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


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point. Ctrl-C anywhere, start-up included, and a reader that
    closes the pipe end the run quietly (130; 0), never with a traceback."""
    from ckdsl.commands.common import plain_warnings

    plain_warnings()
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
