"""Parameter sweeps: one rule set's parameter at several values, played on the same seeds.

``ckdsl sweep base --set hand_limit=7..11`` makes a variant per value (a variant file
that ``extends`` the rule set and overrides the parameter, kept in ``DIR/_variants`` and
in each folder's manifest), plays each on the same seeds with the same bots (so the
values are **paired**: one seed is the same board, dice and decks under every value), and
measures each value's seat win rates, finished share, game length and user metrics.

The statistics treat the **seed** as the unit: each seed's games (its rotations) are
averaged first, a value's mean gets a t interval over seeds (a win rate or the finished
share with one game a seed: a Wilson interval), and its difference from the
reference value (the rule set's own value when swept, else the first) a paired t interval
over seeds. ``seat_spread`` (largest minus smallest seat win rate, per value, with a
bootstrap interval over seeds) measures seat balance. The plot (``dose_plot``) draws
every measure against the value with its intervals.

Values: ``7..11`` (every integer), ``7..11:2`` (a step), ``0.5..1.5:0.25``, or a list
``7,9,11``; several ``--set`` make a grid. A sweep file (``--sweep FILE``) is YAML::

    parameters:
      hand_limit: 7..11
      points_to_win: [12, 13, 14]
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.jsondata import JsonObject, JsonValue

if TYPE_CHECKING:
    import pandas as pd

Number = int | float
Point = tuple[tuple[str, Number], ...]
"""One variant of a sweep: each swept parameter with its value."""

_RANGE = re.compile(r"\s*(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)\s*(?::\s*([\d.]+)\s*)?")
MAX_VALUES = 200


def parse_values(text: str) -> list[Number]:
    """``7..11``, ``7..11:2``, ``0.5..1.5:0.25`` or ``7,9,11`` as a list of numbers
    (integers when every number written is one); ValueError saying what is wrong."""
    match = _RANGE.fullmatch(text)
    if match:
        low, high, step = match.group(1), match.group(2), match.group(3) or "1"
        numbers = [_number(x) for x in (low, high, step)]
        first, last, by = numbers
        if by <= 0 or last < first:
            raise ValueError(f"'{text}': a range runs from low to high by a positive step")
        count = math.floor((last - first) / by + 1e-9) + 1
        if count > MAX_VALUES:
            raise ValueError(f"'{text}' makes {count} values; at most {MAX_VALUES}")
        values = [first + k * by for k in range(count)]
        if all(isinstance(n, int) for n in numbers):
            return [int(v) for v in values]
        return [round(float(v), 12) for v in values]
    values = [_number(part) for part in text.split(",")]
    if len(set(values)) != len(values):
        raise ValueError(f"'{text}' names a value twice")
    return values


def _number(text: str) -> Number:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"'{text.strip()}' is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"'{text.strip()}' is not a finite number")
    return value


def parse_set(text: str) -> tuple[str, list[Number]]:
    """``NAME=VALUES`` from ``--set``."""
    name, equals, values = text.partition("=")
    if not equals or not name.strip():
        raise ValueError(f"'{text}' is not NAME=VALUES, e.g. hand_limit=7..11")
    return name.strip(), parse_values(values)


def read_sweep_file(path: Path) -> list[tuple[str, list[Number]]]:
    """The parameters of a sweep file (see the module's docstring); CkdslError naming
    the file and the entry that is wrong."""
    from ckdsl.rules.yamlload import load_yaml

    doc, problems = load_yaml(path)
    if doc is None or problems:
        raise CkdslError(problems or [Diagnostic(str(path), 0, 0, "cannot read the sweep file")])
    data = doc.data
    found = data.get("parameters") if isinstance(data, dict) else None
    if not isinstance(found, dict) or not found:
        raise CkdslError(
            [Diagnostic(str(path), 1, 1, "a sweep file holds `parameters:`, each NAME: VALUES")]
        )
    out = []
    for name, value in found.items():
        pos = doc.positions.value(("parameters", name))
        try:
            if isinstance(value, list):
                values = parse_values(",".join(str(v) for v in value))
            else:
                values = parse_values(str(value))
        except ValueError as exc:
            raise CkdslError([Diagnostic(str(path), pos.line, pos.col, str(exc))]) from None
        out.append((str(name), values))
    return out


def grid(sets: Sequence[tuple[str, Sequence[Number]]]) -> list[Point]:
    """Every combination of the swept values, in the order given."""
    names = [name for name, _ in sets]
    if len(set(names)) != len(names):
        raise ValueError("a parameter is swept twice")
    return [
        tuple(zip(names, combo, strict=True)) for combo in itertools.product(*(v for _, v in sets))
    ]


def label(point: Point) -> str:
    """A variant's label: ``hand_limit=9`` (``,`` between parameters)."""
    return ",".join(f"{name}={_show(value)}" for name, value in point)


def _show(value: Number) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"


def folder_name(point: Point) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", label(point)).strip("._") or "variant"


def current_values(rules: str, names: Sequence[str]) -> dict[str, Number]:
    """The rule set's own value of each parameter; CkdslError for a parameter it does not
    have or one that is not a number."""
    from ckdsl.session import load_rules

    parameters = load_rules(rules).ruleset.data.get("parameters", {})
    out: dict[str, Number] = {}
    problems = []
    for name in names:
        value = parameters.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            known = ", ".join(sorted(k for k, v in parameters.items() if _numeric(v)))
            problems.append(
                Diagnostic(
                    "--set",
                    0,
                    0,
                    f"'{name}' is not a number parameter of the rule set '{rules}'",
                    notes=(f"its number parameters: {known}",),
                )
            )
            continue
        out[name] = value
    if problems:
        raise CkdslError(problems)
    return out


def _numeric(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def write_variant(rules: str, point: Point, folder: Path) -> Path:
    """The variant of ``rules`` with the parameters of ``point``, written in ``folder``."""
    import yaml

    from ckdsl.files import write_whole

    parent = "base" if rules == "base" else str(Path(rules).resolve())
    data = {
        "extends": parent,
        "description": f"{label(point)} (a sweep of {rules})",
        "override": {"parameters": dict(point)},
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{folder_name(point)}.yaml"
    text = "# Made by ckdsl sweep: the rule set with one parameter changed.\n"
    write_whole(path, (text + yaml.safe_dump(data, sort_keys=False)).encode("utf-8"))
    return path


# --- the measures --------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A mean over seeds with its interval (``low``/``high``: None with fewer than two)."""

    estimate: float | None
    low: float | None
    high: float | None

    def to_json(self) -> JsonObject:
        return {"estimate": _r(self.estimate), "low": _r(self.low), "high": _r(self.high)}


def _r(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else float(f"{value:.6g}")


def per_seed(df: pd.DataFrame, user: Sequence[str] = ()) -> pd.DataFrame:
    """Each seed's measures: every seat's win rate, the finished share, the mean game
    length (over its games, i.e. its rotations) and the user metrics (a per-player one
    summed over the seats)."""
    import pandas as pd

    seats = max((len(b) for b in df["bots"]), default=0)
    frame = pd.DataFrame({"seed_index": df["seed_index"].astype(int)})
    for s in range(seats):
        frame[f"seat{s + 1}"] = (df["winner_seat"] == s).astype(float)
    frame["finished"] = df["finished"].astype(float)
    frame["turns"] = df["turns"].astype(float)
    for name in user:  # a per-player metric: its total over the seats
        frame[name] = [float(sum(v)) if hasattr(v, "__len__") else float(v) for v in df[name]]
    return frame.groupby("seed_index").mean()


def mean_interval(values: Sequence[float], level: float) -> Estimate:
    """A t interval over seeds."""
    from scipy import stats

    n = len(values)
    if n == 0:
        return Estimate(None, None, None)
    mean = sum(values) / n
    if n < 2:
        return Estimate(mean, None, None)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = float(stats.t.ppf(0.5 + level / 2, n - 1)) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half)


def _measure(table: pd.DataFrame, column: str, level: float) -> Estimate:
    """A value's mean of one measure over seeds: a rate with one game a seed (each value
    0 or 1) gets a Wilson interval (statsmodels), anything else a t interval over seeds
    (a rate's clipped to [0, 1])."""
    values = [float(v) for v in table[column]]
    rate = column == "finished" or re.fullmatch(r"seat\d+", column) is not None
    if rate and values and all(v in (0.0, 1.0) for v in values):
        from statsmodels.stats.proportion import proportion_confint

        wins = int(sum(values))
        low, high = proportion_confint(wins, len(values), alpha=1 - level, method="wilson")
        return Estimate(wins / len(values), float(low), float(high))
    found = mean_interval(values, level)
    if rate and found.low is not None and found.high is not None:
        return Estimate(found.estimate, max(0.0, found.low), min(1.0, found.high))
    return found


def spread_interval(seeds: pd.DataFrame, seats: int, level: float, seed: int) -> Estimate:
    """The largest minus the smallest seat win rate, with a percentile bootstrap interval
    resampling seeds (scipy.stats.bootstrap)."""
    import numpy as np
    from scipy import stats

    columns = [f"seat{s + 1}" for s in range(seats)]
    data = seeds[columns].to_numpy()

    def spread(rows: np.ndarray, axis: int = -1) -> np.ndarray:
        means = data[rows].mean(axis=-2)
        found: np.ndarray = means.max(axis=-1) - means.min(axis=-1)
        return found

    index = np.arange(len(data))
    value = float(spread(index))
    if len(data) < 2:
        return Estimate(value, None, None)
    found = stats.bootstrap(
        (index,),
        spread,
        vectorized=True,
        n_resamples=2000,
        confidence_level=level,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    return Estimate(
        value, float(found.confidence_interval.low), float(found.confidence_interval.high)
    )


@dataclass(frozen=True)
class Level:
    """One value of the sweep: its measures (means over seeds) and differences from the
    reference value (paired over seeds)."""

    point: Point
    seeds: int
    games: int
    measures: dict[str, Estimate]
    differences: dict[str, Estimate]

    def to_json(self) -> JsonObject:
        values: dict[str, JsonValue] = {name: value for name, value in self.point}
        return {
            "label": label(self.point),
            "values": values,
            "seeds": self.seeds,
            "games": self.games,
            "measures": {k: v.to_json() for k, v in self.measures.items()},
            "differences": {k: v.to_json() for k, v in self.differences.items()},
        }


def analyse(
    frames: Mapping[Point, pd.DataFrame],
    reference: Point,
    *,
    user: Sequence[str] = (),
    level: float = 0.95,
    seed: int = 0,
) -> list[Level]:
    """The measures of every value of a sweep, and each one's differences from
    ``reference`` paired on the seeds both hold."""
    tables = {point: per_seed(df, user) for point, df in frames.items()}
    base = tables[reference]
    out = []
    for point, table in tables.items():
        seats = sum(1 for c in table.columns if re.fullmatch(r"seat\d+", c))
        measures = {c: _measure(table, c, level) for c in table.columns}
        measures["seat_spread"] = spread_interval(table, seats, level, seed)
        common = table.index.intersection(base.index)
        differences = {
            c: mean_interval(list(table.loc[common, c] - base.loc[common, c]), level)
            for c in table.columns
        }
        games = len(frames[point])
        out.append(Level(point, len(table), games, measures, differences))
    return out


def format_levels(
    levels: Sequence[Level], reference: Point, level: float, user: Sequence[str] = ()
) -> str:
    """A table for a terminal: each value's seat win rates, seat spread, finished share,
    game length and user metrics, and its paired difference in length from the reference."""
    if not levels:
        return "no values"
    seats = sorted(c for c in levels[0].measures if re.fullmatch(r"seat\d+", c))
    head = f"{'value':<22}" + "".join(f"{s:>8}" for s in seats)
    head += f"{'seat spread':>22}{'finished':>10}{'turns':>22}{'Δ turns vs ref':>22}"
    head += "".join(f"{name:>22}" for name in user)
    lines = [head]
    for found in levels:
        m, d = found.measures, found.differences
        row = f"{label(found.point):<22}" + "".join(f"{_pct(m[s])}" for s in seats)
        row += f"{_ci(m['seat_spread'], 100, '%'):>22}{_pct(m['finished']):>10}"
        row += f"{_ci(m['turns'], 1, ''):>22}"
        row += f"{'(reference)' if found.point == reference else _ci(d['turns'], 1, ''):>22}"
        row += "".join(f"{_ci(m[name], 1, ''):>22}" for name in user)
        lines.append(row)
    percent = f"{100 * level:g}%"
    lines.append(
        f"(means over seeds; {percent} t intervals over seeds, seat spread: percentile "
        "bootstrap over seeds; rates with one game a seed: Wilson; Δ: paired on seeds; a "
        "per-player metric: its total over seats)"
    )
    return "\n".join(lines)


def _pct(e: Estimate) -> str:
    return f"{'n/a':>8}" if e.estimate is None else f"{100 * e.estimate:>7.1f}%"


def _ci(e: Estimate, scale: float, unit: str) -> str:
    if e.estimate is None:
        return "n/a"
    text = f"{scale * e.estimate:.1f}{unit}"
    if e.low is not None and e.high is not None:
        text += f" [{scale * e.low:.1f}, {scale * e.high:.1f}]"
    return text
