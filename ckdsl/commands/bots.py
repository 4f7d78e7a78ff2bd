"""``ckdsl bots``: every bot, its version and its parameters."""

from __future__ import annotations

import json
from typing import Any

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
    from ckdsl.bots import bots

    rows: list[dict[str, Any]] = [
        {
            "name": info.name,
            "version": info.version,
            "summary": info.summary,
            "params": [
                {"name": p.name, "type": p.kind.__name__, "default": p.default, "doc": p.doc}
                for p in info.params
            ],
        }
        for info in bots()
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        click.echo(f"{row['name']}  (version {row['version']})  {row['summary']}")
        for p in row["params"]:
            click.echo(f"    {p['name']}={p['default']}  ({p['type']})  {p['doc']}")


COMMANDS = [bots_command]
