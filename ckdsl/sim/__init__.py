"""Batch runs of bot games: a base rule set and its variants on paired seeds.

The public API, for scripts and notebooks (``ckdsl simulate`` is a thin layer over it)::

    from ckdsl.sim import Experiment, run, read_results, summarize, simulate

    df = simulate("base", "random,random,random,random", games=100, jobs=2)

- :class:`Experiment`, :func:`game_seed`: what to play (``ckdsl.sim.experiment``);
- :func:`run`, :class:`RunResult`, :func:`simulate`: play it into a results folder
  (``ckdsl.sim.runner``; executors in ``ckdsl.sim.executors``);
- :func:`read_results`, :func:`read_table`, :func:`read_manifest`, :class:`Store`: the
  results folder (``ckdsl.sim.store``);
- :func:`summarize`, :func:`format_summary`: one experiment's summary
  (``ckdsl.sim.summary``); statistics in ``ckdsl.sim.stats``, per-game metrics in
  ``ckdsl.sim.metrics``, comparisons in ``ckdsl.sim.compare``.

Importing ``ckdsl.sim`` is cheap: each name loads its module (and pandas, pyarrow, Dask)
when first used. They need the ``sim`` extra: ``pip install "ckdsl[sim]"``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ckdsl.diagnostics import CkdslError, Diagnostic

if TYPE_CHECKING:
    from ckdsl.sim.experiment import Experiment
    from ckdsl.sim.games import game_seed
    from ckdsl.sim.runner import RunInterrupted, RunResult, run, simulate
    from ckdsl.sim.store import Store, StoreError, read_manifest, read_results, read_table
    from ckdsl.sim.summary import format_summary, summarize

_EXPORTS = {
    "Experiment": "experiment",
    "game_seed": "experiment",
    "RunInterrupted": "runner",
    "RunResult": "runner",
    "run": "runner",
    "simulate": "runner",
    "Store": "store",
    "StoreError": "store",
    "read_manifest": "store",
    "read_results": "store",
    "read_table": "store",
    "format_summary": "summary",
    "summarize": "summary",
}

__all__ = [
    "Experiment",
    "RunInterrupted",
    "RunResult",
    "Store",
    "StoreError",
    "format_summary",
    "game_seed",
    "read_manifest",
    "read_results",
    "read_table",
    "require_extra",
    "run",
    "simulate",
    "summarize",
]

SIM_MODULES = ("pyarrow", "pandas", "numpy", "scipy", "statsmodels", "rich")
"""What the ``sim`` extra installs and running experiments needs (Dask apart)."""


def __getattr__(name: str) -> object:
    # Type checkers see the exported names through the imports above, never through this
    # function: it is only their lazy loading at run time.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ckdsl.sim' has no attribute '{name}'")
    return getattr(importlib.import_module(f"ckdsl.sim.{module}"), name)


def require_extra(*modules: str) -> None:
    """Raise a one-line CkdslError naming what to install if a module of the ``sim``
    extra is missing (default: all of :data:`SIM_MODULES`)."""
    import importlib.util

    missing = [m for m in modules or SIM_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        raise CkdslError(
            [
                Diagnostic(
                    "ckdsl",
                    0,
                    0,
                    f"experiments need {', '.join(missing)}, not installed: "
                    'pip install "ckdsl[sim]"',
                )
            ]
        )
