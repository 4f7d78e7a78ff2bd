"""``ckdsl bots``: every bot that can take a seat, its version and its parameters, so a
user can write a spec (``mcts:iterations=200``) without reading the code."""

from __future__ import annotations

from typing import TypedDict

from ckdsl.bots import bots
from ckdsl.bots.base import ParamValue


class ParamRow(TypedDict):
    name: str
    type: str
    default: ParamValue
    doc: str


class BotRow(TypedDict):
    """One bot as ``ckdsl bots --json`` prints it (keys in this order)."""

    name: str
    version: str
    summary: str
    params: list[ParamRow]


def bot_rows() -> list[BotRow]:
    """Every registered bot, by name, with its parameters in declaration order."""
    return [
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


def bot_lines(rows: list[BotRow]) -> list[str]:
    """Each bot's name, version and summary, then one indented line per parameter."""
    lines: list[str] = []
    for row in rows:
        lines.append(f"{row['name']}  (version {row['version']})  {row['summary']}")
        for p in row["params"]:
            lines.append(f"    {p['name']}={p['default']}  ({p['type']})  {p['doc']}")
    return lines
