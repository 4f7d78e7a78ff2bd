"""Does the variant's effect depend on the bots? The line-up × variant interaction.

A study's conclusion is about the rules only if it survives a change of players. ``ckdsl
compare --lineups "A ; B ; C"`` plays the same seeds under every rule set with every
line-up, and for each headline metric this module reports:

- the variant's effect (B − A, paired on seeds) **within each line-up**: a paired t
  interval over the seeds of the per-seed differences (the seed's rotations averaged);
- the **interaction**, paired on seeds: whether those effects differ between line-ups.
  Each seed gives one difference per line-up (same board, same dice); Hotelling's T² tests
  that their means are equal (``seeds.equal_means_test``; for two line-ups it is the
  paired t-test of the difference of differences), and each line-up's effect minus the
  first line-up's gets a paired t interval;
- a plain verdict: "the effect on walls depends on the line-up (…): +0.07 with A, −1.00
  with B", or "does not detectably depend on the line-up".

The interaction tests of the headline metrics form one family, corrected with Holm's method.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl.sim.stats.means import mean_interval
from ckdsl.sim.stats.multiplicity import holm
from ckdsl.sim.stats.results import Interval, json_float
from ckdsl.sim.stats.seeds import SeatTest, equal_means_test

__all__ = ["Interaction", "LineupEffect", "correct", "interactions", "lineup_name"]

METHOD = "Hotelling T² on the per-seed effects of each line-up (paired on seeds)"


@dataclass(frozen=True)
class LineupEffect:
    """The variant's effect within one line-up, and (after the first) its difference from
    the first line-up's effect."""

    lineup: str
    effect: Interval
    p: float | None
    versus_first: Interval | None
    versus_first_p: float | None

    def to_json(self) -> dict[str, object]:
        return {
            "lineup": self.lineup,
            "effect": self.effect.to_json(),
            "p": json_float(self.p),
            "versus_first": self.versus_first.to_json() if self.versus_first else None,
            "versus_first_p": json_float(self.versus_first_p),
        }


@dataclass(frozen=True)
class Interaction:
    """One metric's line-up × variant interaction for one variant."""

    variant: str
    metric: str
    label: str
    unit: str
    scale: float
    effects: tuple[LineupEffect, ...]
    test: SeatTest
    adjusted_p: float | None = None
    significant: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "metric": self.metric,
            "label": self.label,
            "unit": self.unit,
            "scale": self.scale,
            "effects": [e.to_json() for e in self.effects],
            "test": self.test.to_json(),
            "adjusted_p": json_float(self.adjusted_p),
            "significant": self.significant,
            "verdict": self.verdict(),
        }

    def _value(self, value: float | None, signed: bool = True) -> str:
        if value is None:
            return "n/a"
        digits = 1 if self.unit in ("pp", "turns", "decisions") else 2
        shown = value * self.scale
        text = f"{shown:+.{digits}f}" if signed else f"{shown:.{digits}f}"
        return text.replace("-", "−")

    def effect_text(self, interval: Interval) -> str:
        unit = f" {self.unit}" if self.unit else ""
        text = self._value(interval.estimate) + unit
        if interval.low is not None and interval.high is not None:
            text += f" [{self._value(interval.low)}, {self._value(interval.high)}]"
        return text

    def verdict(self) -> str:
        """``"limit9: the effect on walls depends on the line-up (F(1, 199) = 52.1, Holm p <
        0.0001): +0.07 [...] with heuristic×4, −1.00 [...] with cautious×4."``"""
        effects = ", ".join(f"{self.effect_text(e.effect)} with {e.lineup}" for e in self.effects)
        if self.test.p is None:
            estimates = {e.effect.estimate for e in self.effects}
            if len(estimates) == 1 and None not in estimates:
                return (
                    f"{self.variant}: the effect on {self.label} is the same on every seed "
                    f"under every line-up ({effects}): nothing to test."
                )
            return f"{self.variant}: too few seeds to compare the effect on {self.label}."
        p = self.adjusted_p if self.adjusted_p is not None else self.test.p
        stat = f"F({self.test.df1}, {self.test.df2}) = {self.test.f:.2f}, Holm p = {_p(p)}"
        if self.significant:
            return (
                f"{self.variant}: the effect on {self.label} depends on the line-up ({stat}): "
                f"{effects}."
            )
        return (
            f"{self.variant}: the effect on {self.label} does not detectably depend on the "
            f"line-up ({stat}): {effects}."
        )


def _p(p: float) -> str:
    return "< 0.0001" if p < 1e-4 else f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def lineup_name(bots: Sequence[str], others: Sequence[str] = ()) -> str:
    """A line-up in short: ``"heuristic×4"``, ``"mcts, heuristic×3"``: each bot by its name
    alone, unless ``others`` (the bots of every line-up compared) hold another spec of the
    same name, which then shows in full."""
    every = {*bots, *others}

    def short(spec: str) -> str:
        name = spec.split(":", 1)[0]
        same = {s for s in every if s.split(":", 1)[0] == name}
        return name if len(same) == 1 else spec

    return _runs([short(b) for b in bots])


def _runs(short: Sequence[str]) -> str:
    """``a, a, b`` → ``"a×2, b"``."""
    parts: list[str] = []
    i = 0
    while i < len(short):
        j = i
        while j + 1 < len(short) and short[j + 1] == short[i]:
            j += 1
        parts.append(short[i] if j == i else f"{short[i]}×{j - i + 1}")
        i = j + 1
    return ", ".join(parts)


def _effects_by_lineup(
    rows_a: pd.DataFrame, rows_b: pd.DataFrame, metric: str, lineups: Sequence[str]
) -> np.ndarray:
    """A row per seed, a column per line-up: the seed's mean of B − A over its matched games
    of that line-up; seeds missing a line-up (or a value) left out."""
    diff = rows_b[metric].to_numpy(dtype=np.float64, na_value=np.nan) - rows_a[metric].to_numpy(
        dtype=np.float64, na_value=np.nan
    )
    frame = pd.DataFrame({"block": rows_a["block"], "lineup": rows_a["lineup"], "d": diff})
    frame = frame[np.isfinite(frame["d"])]
    table = frame.pivot_table(index="block", columns="lineup", values="d", aggfunc="mean")
    table = table.reindex(columns=list(lineups)).dropna()
    return np.asarray(table.to_numpy(dtype=np.float64))


def interactions(
    variant: str,
    rows_a: pd.DataFrame,
    rows_b: pd.DataFrame,
    metrics: Sequence[tuple[str, str, str, float]],
    lineups: Mapping[str, str],
    level: float = 0.95,
) -> list[Interaction]:
    """The interaction of each metric ``(name, label, unit, scale)`` for one variant.
    ``rows_a``, ``rows_b``: the matched games of base and variant in the same order (game
    tables with ``block`` and ``lineup``); ``lineups``: the line-up key (as in the
    ``lineup`` column) → its name, in order. Holm over the metrics is applied by
    :func:`correct`."""
    keys = list(lineups)
    out = []
    for name, label, unit, scale in metrics:
        matrix = _effects_by_lineup(rows_a, rows_b, name, keys)
        effects = []
        for j, key in enumerate(keys):
            column = matrix[:, j] if matrix.size else np.zeros(0)
            within = mean_interval(column, level) if column.size else None
            versus, versus_p = None, None
            if j > 0 and matrix.shape[0] > 1:
                contrast = mean_interval(column - matrix[:, 0], level)
                versus, versus_p = contrast.interval, contrast.p
            effects.append(
                LineupEffect(
                    lineups[key],
                    within.interval if within else Interval(None, None, None, "t", level),
                    within.p if within else None,
                    versus,
                    versus_p,
                )
            )
        if matrix.ndim == 2 and matrix.shape[1] >= 2:
            test = equal_means_test(matrix, METHOD)
        else:
            test = SeatTest(None, None, 0, 0, None, None, 0, METHOD)
        out.append(Interaction(variant, name, label, unit, scale, tuple(effects), test))
    return out


def correct(items: Sequence[Interaction], level: float = 0.95) -> list[Interaction]:
    """Holm's correction over the interaction tests of ``items`` (one family)."""
    adjusted = holm([i.test.p for i in items], 1.0 - level)
    return [
        Interaction(i.variant, i.metric, i.label, i.unit, i.scale, i.effects, i.test, adj, sig)
        for i, (adj, sig) in zip(items, adjusted, strict=True)
    ]
