"""``ckdsl serve``: the local web table."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import click

from ckdsl.commands.common import (
    bot_specs,
    rules_option,
    setup_usage_errors,
    table_map_option,
    table_of,
)

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


@click.command()
@click.option(
    "--players",
    default=None,
    help="A seat per player: `human` (a person, with a link of their own) or a bot spec "
    "(default: you and three heuristic bots, or as many as the variant's `table: players`).",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    help="The first game's seed (default: drawn at random, as every later game's is).",
)
@rules_option
@table_map_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="0: any free."
)
@click.option(
    "--lang", default="en", show_default=True, help="The pages' first language (each can switch)."
)
def serve(
    players: str | None,
    seed: int | None,
    rules: Path | None,
    map_name: str | None,
    host: str,
    port: int,
    lang: str,
) -> None:
    """Play in a browser: a local web table, one link per human seat.

    Bots answer on the server. With --host other than 127.0.0.1, anyone on your network
    who has a seat's link can play that seat: the links are the only key. The host's link
    (the first seat's, with the host key) starts, loads and saves a game at once; a seat's
    save of a game in progress is sealed (this table alone opens it), and a new game or a
    load needs every seat to ask."""
    import uvicorn

    from ckdsl.bots import split_players
    from ckdsl.l10n.catalog import all_languages
    from ckdsl.session import GameSetup, load_rules
    from ckdsl.table.web.limits import server_config
    from ckdsl.table.web.room import Room, fresh_seed
    from ckdsl.table.web.server import make_app

    if lang not in all_languages():
        raise click.BadParameter(f"choose from {', '.join(all_languages())}", param_hint="--lang")
    target = str(rules) if rules else "base"
    map_name, layout, lineup = table_of(target, map_name, None, players)
    if players is None:  # a seat for you, bots in the others
        lineup = "human" + lineup[lineup.index(",") :] if "," in lineup else "human"
    specs = [None if item == "human" else bot_specs(item)[0] for item in split_players(lineup)]
    if None not in specs:
        raise click.BadParameter(
            "no human seat: add `human` to the line-up", param_hint="--players"
        )
    setup = GameSetup(target, map_name, layout, len(specs), fresh_seed() if seed is None else seed)
    with setup_usage_errors():
        room = Room(setup, specs)
    port = _listenable(host, port)  # before the links are shown: a usage error, not exit 3
    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    click.echo(f"ckdsl table: {base}  (to watch: the public game, read only)")
    colours = load_rules(setup.rules).compiled.names("player_colours")
    for number, (token, seat) in enumerate(room.tokens.items()):
        key = f"&host={room.host}" if number == 0 else ""
        click.echo(f"  {colours[seat]:<8} {base}?seat={token}&lang={lang}{key}")
    click.echo(
        f"The first link is the host's (host key {room.host}): keep it to yourself.", err=True
    )
    if host not in LOCAL_HOSTS:
        click.echo(
            "warning: listening beyond this machine: anyone on the network with a seat's link "
            "plays that seat (the link is its only key; there is no encryption)",
            err=True,
        )
    click.echo("Ctrl-C stops the table.", err=True)
    uvicorn.Server(server_config(make_app(room), host, port)).run()


def _listenable(host: str, port: int) -> int:
    """``port`` (a free one for 0) if the table can listen there; a usage error naming
    ``--host`` (no such address) or ``--port`` (taken, or not allowed) otherwise. The
    socket is closed again for uvicorn to open: a race with another program is possible,
    and uvicorn's own message then says so."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise click.BadParameter(f"cannot listen on '{host}': {exc}", param_hint="--host") from None
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind((host, port))
        except OSError as exc:
            hint = "--port" if exc.errno in (errno.EADDRINUSE, errno.EACCES) else "--host"
            raise click.BadParameter(
                f"cannot listen on {host}:{port}: {exc.strerror or exc}", param_hint=hint
            ) from None
        return int(probe.getsockname()[1])


COMMANDS = [serve]
