"""Every command of the command-line tool (``ckdsl.cli`` is only the group), one module per
command or a few that go together (``validate`` and ``schema``; ``cards``, ``explain`` and
``vocabulary``; the ``l10n`` group; ``play`` and ``replay``; ``scenario``; ``board`` and
``watch``; ``bots``; ``serve``; ``tournament``; ``simulate``; ``compare``; ``sweep`` and
``search``), and what they share (``common``). Each module imports only Click at the top:
the libraries a command needs
(pandas, pyarrow, matplotlib, Dask) load when it runs, so ``ckdsl --help`` stays fast."""

from __future__ import annotations

import importlib

import click

COMMANDS = {
    "validate": "validate",
    "schema": "validate",
    "cards": "cards",
    "explain": "cards",
    "vocabulary": "cards",
    "l10n": "l10n",
    "play": "play",
    "replay": "play",
    "scenario": "scenario",
    "board": "board",
    "watch": "board",
    "bots": "bots",
    "serve": "serve",
    "simulate": "simulate",
    "compare": "compare",
    "report": "stored",
    "plan": "stored",
    "tournament": "tournament",
    "ladder": "ladder",
    "tune": "tune",
    "sweep": "sweep",
    "search": "sweep",
}
"""Each command of this package by name, with the module that defines it (a module exports
its Click commands as ``COMMANDS``). A command line imports only the module of the command
it runs; ``ckdsl --help`` imports them all."""


def command(name: str) -> click.Command | None:
    """The command ``name`` of this package (None: no such command here)."""
    module = COMMANDS.get(name)
    if module is None:
        return None
    found: list[click.Command] = importlib.import_module(f"ckdsl.commands.{module}").COMMANDS
    return next((c for c in found if c.name == name), None)


def registered() -> list[click.Command]:
    """Every command of this package."""
    out = [command(name) for name in COMMANDS]
    return [c for c in out if c is not None]
