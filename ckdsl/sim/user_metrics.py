"""Metrics the user writes: a formula of the effect DSL over a game's final state.

``--metric walls_at_end="count(walls(p))"`` adds a column ``walls_at_end`` to every
row of the experiment. The formula is written in the DSL's own vocabulary (``ckdsl
vocabulary`` lists it: ``points(p)``, ``count(cities(p))``, ``level(p, science)``,
``barbarians``, ``attacks``...) and evaluated once, when the game has ended:

- a formula that names ``p`` is **per player**: evaluated for each seat (``p`` and
  ``me`` are that seat), stored as a list in seat order (``list<int64>``), like
  ``points``;
- any other is **per game**: evaluated once (``me`` is the player whose turn it was),
  stored as a number (``int64``).

A truth (``any(...)``, ``walled(c)``) is stored as 1 or 0. The formulas are compiled by
the DSL's compiler against the rule set, in the parent first (so a fault is reported
before a game is played, with its column in the formula) and again in each worker,
which receives only the texts. Why formulas rather than Python callbacks: they travel to
Dask workers as text, they are checked like any house rule, and the manifest records
them, so the column can be computed again from the folder alone.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.jsondata import JsonObject

if TYPE_CHECKING:
    import pandas as pd

    from ckdsl.dsl.base.errors import DslError
    from ckdsl.sim.metrics import Cell
    from ckdsl.turn.game import Game

NAME = re.compile(r"[a-z][a-z0-9_]{0,62}")
"""A metric's name: a column name any reader (pandas, SQL) takes as it is."""


@dataclass(frozen=True)
class MetricFormula:
    """A user metric as the experiment (and the manifest) records it."""

    name: str
    formula: str
    per_player: bool

    def column(self) -> tuple[str, str, str]:
        """Its column: (name, Arrow type, description)."""
        kind = "list<int64>" if self.per_player else "int64"
        where = "per seat" if self.per_player else "per game"
        return self.name, kind, f"user metric ({where}): {self.formula}"

    def describe(self) -> JsonObject:
        return {"name": self.name, "formula": self.formula, "per_player": self.per_player}


def parse_option(text: str, taken: Sequence[str] = ()) -> tuple[str, str]:
    """``NAME=FORMULA`` from the command line; ValueError saying what is wrong (a name
    that is not a plain column name, or one of ``taken``)."""
    name, equals, formula = text.partition("=")
    name = name.strip()
    if not equals or not formula.strip():
        raise ValueError(f"'{text}' is not NAME=FORMULA, e.g. walls_at_end=\"count(walls(p))\"")
    if not NAME.fullmatch(name) or keyword.iskeyword(name):
        raise ValueError(
            f"'{name}' is not a metric name: lower-case letters, digits and _, starting "
            "with a letter"
        )
    if name in taken:
        raise ValueError(f"'{name}' is already a column of the results: choose another name")
    return name, formula.strip()


def check(rules_data: JsonObject, metrics: Sequence[tuple[str, str]]) -> list[MetricFormula]:
    """Each ``(name, formula)`` compiled against the rule set: per player if it needs
    ``p``. CkdslError listing every fault, each at its place in its formula (the file
    named ``--metric NAME``)."""
    out, faults = [], []
    for name, formula in metrics:
        compiled = _compile(rules_data, formula)
        if isinstance(compiled, list):
            faults += [
                Diagnostic(
                    f"--metric {name}", e.line, e.col, e.message, notes=(e.hint,) if e.hint else ()
                )
                for e in compiled
            ]
            continue
        out.append(MetricFormula(name, formula, compiled[1]))
    if faults:
        raise CkdslError(faults)
    return out


Evaluate = Callable[["Game"], "Cell"]


def evaluator(rules_data: JsonObject, metric: MetricFormula) -> Evaluate:
    """A function giving the metric's value for a finished game (compiled here)."""
    from ckdsl.core.allow import Env

    compiled = _compile(rules_data, metric.formula)
    if isinstance(compiled, list):
        raise RuntimeError(f"the metric {metric.name} no longer compiles: {compiled[0].message}")
    fn, per_player = compiled

    if per_player:

        def each(game: Game) -> Cell:
            return [_number(fn(Env(game, p, {"p": p}))) for p in range(game.n)]

        return each

    def once(game: Game) -> Cell:
        return _number(fn(Env(game, game.state.current, {})))

    return once


def _number(value: object) -> int:
    if isinstance(value, bool | int):
        return int(value)
    raise TypeError(f"a metric's formula gave {value!r}, not a number")


def _compile(
    rules_data: JsonObject, formula: str
) -> tuple[Callable[..., object], bool] | list[DslError]:
    """(function, per player) of a formula, or its faults (a list of DslError)."""
    from ckdsl.dsl.base.types import BOOL, INT, PLAYER
    from ckdsl.dsl.compiler.program import Names
    from ckdsl.dsl.program import compile_formula

    names = Names.of(rules_data)
    first: list[DslError] = []
    for variables in ({}, {"p": PLAYER}):
        for want in (INT, BOOL):
            fn, errors = compile_formula(formula, names, dict(variables), want)
            if fn is not None and not errors:
                return fn, bool(variables)
            if not first:
                first = errors
    # the faults as written against `p` when the formula names it (the likely intent)
    fn, errors = compile_formula(formula, names, {"p": PLAYER}, INT)
    return errors or first


def summarize(df: pd.DataFrame, metrics: Sequence[MetricFormula]) -> JsonObject:
    """Each user metric of the games ``df``: a per-game metric's distribution, a
    per-player one's for each seat (means with t intervals over seeds, as
    ``summary.distribution``)."""
    from ckdsl.sim.summary import distribution

    seeds = [int(s) for s in df["seed_index"]]
    out: JsonObject = {}
    for metric in metrics:
        values = list(df[metric.name])
        if not metric.per_player:
            out[metric.name] = cast(JsonObject, distribution([float(v) for v in values], seeds))
            continue
        seats = max((len(v) for v in values), default=0)
        out[metric.name] = [
            cast(JsonObject, distribution([float(v[s]) for v in values], seeds))
            for s in range(seats)
        ]
    return out


def format_summary(summary: JsonObject) -> list[str]:
    """The lines of :func:`summarize` for a terminal."""
    from ckdsl.sim.summary import Distribution, _line

    lines = ["", "User metrics: means with 95% t intervals over seeds"] if summary else []
    for name, found in summary.items():
        if isinstance(found, list):
            for seat, d in enumerate(found, 1):
                lines.append("  " + _line(f"{name}, seat {seat}", cast(Distribution, d)))
        else:
            lines.append("  " + _line(name, cast(Distribution, found)))
    return lines
