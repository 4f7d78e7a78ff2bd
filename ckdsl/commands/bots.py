"""``ckdsl bots``: every bot, its version and its parameters."""

from __future__ import annotations

import json

import click

from ckdsl.commands.common import json_option


@click.command("bots")
@json_option
def bots_command(as_json: bool) -> None:
    """List the bots that can take a seat (--players), with their parameters.

    \b
    A bot is named by a spec: its name, then optionally ':' and key=value parameters
    separated by commas, e.g. mcts:iterations=200,exploration=0.5. In a list of players
    a comma followed by key=value continues the bot before it.
    """
    from ckdsl.reports.bots import bot_lines, bot_rows

    rows = bot_rows()
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        for line in bot_lines(rows):
            click.echo(line)


COMMANDS = [bots_command]
