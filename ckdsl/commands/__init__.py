"""The command-line tool's commands beyond the core ones in ``ckdsl.cli``, one module
per command or two (``board`` and ``watch``, ``bots``, ``tournament``, ``simulate``,
``compare``), and what they share
(``common``). Each module imports only Click at the top: the libraries a command needs
(pandas, pyarrow, matplotlib, Dask) load when it runs, so ``ckdsl --help`` stays fast."""

from __future__ import annotations

import importlib

import click

# The modules of the commands, each exporting ``COMMANDS`` (a list of Click commands).
MODULES = ("board", "bots", "serve", "simulate", "compare", "tournament")


def registered() -> list[click.Command]:
    out: list[click.Command] = []
    for name in MODULES:
        module = importlib.import_module(f"ckdsl.commands.{name}")
        out += module.COMMANDS
    return out
