"""Compare a base rule set with its variants: :func:`compare` and the
:class:`ComparisonReport` it returns."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl import arguments
from ckdsl.jsondata import JsonValue, arr, obj
from ckdsl.sim.compare.differences import Comparison, Difference, PairingRow, _compare_pair, _Design
from ckdsl.sim.compare.sensitivity import Interaction, interactions, lineup_name
from ckdsl.sim.compare.sensitivity import correct as correct_interactions
from ckdsl.sim.compare.specs import (
    REPORT_VERSION,
    CompareError,
    StoreFacts,
    UserMetric,
    _as_list,
    _context,
    _f,
    _finite,
    choose_headline,
    metric_name,
    metric_specs,
)
from ckdsl.sim.compare.summaries import RuleSetSummary, _edges, _jsonable, _summary
from ckdsl.sim.compare.tables import _require, _sorted, game_table, paired_blocks
from ckdsl.sim.compare.verdicts import verdict
from ckdsl.sim.stats.multiplicity import benjamini_hochberg, holm
from ckdsl.sim.stats.planning import equivalence, minimum_detectable_effect
from ckdsl.sim.stats.results import MeanMethod

__all__ = [
    "ComparisonReport",
    "StoppingRule",
    "compare",
]

# --- The report ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StoppingRule:
    """How many games were played: a fixed number of seeds, or until an SPRT decided.

    ``seeds`` and ``games``: per rule set. ``details`` for an SPRT (``sprt_run``): the
    metric and its label, ``h0`` and ``h1`` (in the metric's units), ``alpha``, ``beta``,
    ``batch`` and ``max_seeds`` (in seeds), ``batches``, and ``tests``: per variant its
    ``variant``, ``llr``, ``lower_bound``, ``upper_bound``, ``decision`` and ``n`` (seeds).
    """

    kind: Literal["fixed", "sprt"]
    seeds: int
    games: int
    details: Mapping[str, JsonValue] = field(default_factory=dict)

    def describe(self) -> str:
        played = f"{self.seeds} seeds ({self.games} games) per rule set"
        if self.kind == "fixed":
            return f"fixed: {played}"
        d = self.details
        head = (
            f"SPRT on {d.get('metric_label', d.get('metric'))}: H0 Δ = {d.get('h0')}, "
            f"H1 Δ = {d.get('h1')} (α = {d.get('alpha')}, β = {d.get('beta')}), batches of "
            f"{d.get('batch')} seeds, at most {d.get('max_seeds')} seeds; played {played} "
            f"in {d.get('batches')} batches"
        )
        tests = []
        for item in arr(d.get("tests", [])):
            test = obj(item)
            decision = {
                "accept_h1": "H1 accepted",
                "accept_h0": "H0 accepted",
            }.get(str(test.get("decision")), "no decision at the cap")
            tests.append(
                f"{test.get('variant')}: {decision} (LLR {_fmt_llr(test.get('llr'))}, bounds "
                f"{_fmt_llr(test.get('lower_bound'))} and {_fmt_llr(test.get('upper_bound'))}, "
                f"{test.get('n')} seeds)"
            )
        return head + ("; " + "; ".join(tests) if tests else "")

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "seeds": self.seeds,
            "games": self.games,
            "description": self.describe(),
            "details": _jsonable(self.details),
        }


def _fmt_llr(value: JsonValue) -> str:
    number = _finite(value)
    return "n/a" if number is None else f"{number:+.3f}"


@dataclass(frozen=True)
class ComparisonReport:
    """The whole comparison: design, each rule set, each variant against the base."""

    base: str
    labels: tuple[str, ...]
    level: float
    method: MeanMethod
    seed: int
    rulesets: tuple[RuleSetSummary, ...]
    comparisons: tuple[Comparison, ...]
    headline_tests: int
    exploratory_tests: int
    stopping: StoppingRule | None = None
    notes: tuple[str, ...] = ()
    power: float = 0.8
    margins: tuple[tuple[str, float], ...] = ()
    lineups: tuple[str, ...] = ()  # the line-ups' names, when there are several
    interactions: tuple[Interaction, ...] = ()

    def ruleset(self, label: str) -> RuleSetSummary:
        for r in self.rulesets:
            if r.label == label:
                return r
        raise KeyError(label)

    def comparison(self, variant: str) -> Comparison:
        for c in self.comparisons:
            if c.variant == variant:
                return c
        raise KeyError(variant)

    def run_section(self) -> dict[str, object]:
        """Timings (not deterministic across runs): the games' seconds per rule set."""
        out: dict[str, object] = {}
        for r in self.rulesets:
            if r.seconds is not None:
                rate = r.games / r.seconds if r.seconds > 0 else None
                out[r.label] = {
                    "game_seconds": _f(r.seconds),
                    "games_per_cpu_second": _f(rate),
                }
        return out

    def to_json(self, *, include_run: bool = False) -> dict[str, object]:
        data: dict[str, object] = {
            "report_version": REPORT_VERSION,
            "base": self.base,
            "labels": list(self.labels),
            "level": _f(self.level),
            "interval_method": self.method,
            "bootstrap_seed": self.seed,
            "stopping": self.stopping.to_json() if self.stopping else None,
            "multiplicity": {
                "headline": {"method": "holm", "tests": self.headline_tests},
                "exploratory": {
                    "method": "benjamini-hochberg",
                    "tests": self.exploratory_tests,
                },
            },
            "power": _f(self.power),
            "margins": {name: _f(m) for name, m in self.margins},
            "rulesets": [r.to_json() for r in self.rulesets],
            "comparisons": [c.to_json() for c in self.comparisons],
            "lineups": list(self.lineups),
            "interactions": [i.to_json() for i in self.interactions],
            "notes": list(self.notes),
        }
        if include_run:
            data["run"] = self.run_section()
        return data

    def dumps(self, *, include_run: bool = False) -> str:
        """The JSON text: sorted keys, two-space indent, no NaN; byte-identical for equal
        inputs."""
        return json.dumps(
            self.to_json(include_run=include_run),
            indent=2,
            sort_keys=True,
            ensure_ascii=False,
            allow_nan=False,
        )


NOTES: tuple[str, ...] = (
    "Every interval and test treats the seed (with all its rotations and line-ups) as the "
    "unit: the games of a seed share the board and the dice.",
    "Differences are variant − base (B − A).",
    "Unfinished games (turn limit) count in every denominator: a seat's win rate is its wins "
    "over all games.",
    "One rule set: proportions have Wilson intervals on the effective number of games (the "
    "games over the design effect of their clustering in seeds); means have intervals over "
    "seeds (the games of a seed are averaged first). Seat balance: Hotelling's T² on the "
    "per-seed win shares (with one game per seed: the χ² over finished games).",
    "Does the variant change seat balance? Hotelling's T² on the per-seed changes of the "
    "seats' win shares (the variant × seat interaction, paired on seeds).",
    "Variant against base: games are paired on (seed_index, lineup, rotation) with the same "
    "game seed; each metric is averaged per seed, and the per-seed differences get a paired "
    "interval and test; with one game per seed, 0/1 metrics use Newcombe's paired interval "
    "and McNemar's test.",
    "Headline metrics (the confirmatory family, --headline): Holm's correction over every "
    "variant's headline tests; exploratory panel: Benjamini–Hochberg. 'significant' means "
    "adjusted p < 1 − level.",
    "MDE: the smallest true difference the paired t-test at α = 1 − level (uncorrected) finds "
    "with the report's power, from the per-seed differences' spread. Equivalence (--margin): "
    "two one-sided t-tests (TOST) of |Δ| < margin at α = 1 − level, read on the (1 − 2α) "
    "interval.",
)


SPRT_NOTE = (
    "The games were played until an SPRT decided: the intervals and p-values are computed as "
    "for a fixed number of games and are somewhat optimistic after a sequential stop; quote "
    "the SPRT's decision, with its α and β, for the tested metric."
)


EVERY_RATE = "*pp"
"""The key of a margin for each seat's win rate and every headline rate (``--margin 0.03``)."""


def _check_arguments(
    frames: object,
    base: object,
    level: object,
    seed: object,
    stopping: object,
    stores: object,
    progress: object,
    headline: object,
    margins: object,
) -> None:
    """``compare``'s arguments are of their types: a notebook's slip is a TypeError that
    names the argument, not an AttributeError from deep inside."""
    hint = "label -> the games of that rule set, read_results(folder)"
    for label, games in arguments.mapping(frames, "frames", hint).items():
        arguments.text(label, "frames' labels")
        arguments.instance(games, pd.DataFrame, f"frames[{label!r}]", "read_results(folder)")
    arguments.text(base, "base")
    arguments.number(level, "level")
    arguments.whole(seed, "seed")
    if stopping is not None:
        arguments.instance(stopping, StoppingRule, "stopping")
    if stores is not None:
        arguments.mapping(stores, "stores")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress takes a function of a line of text, not {progress!r:.40}")
    if headline is not None:
        arguments.texts(headline, "headline")
    if margins is not None:
        for metric, margin in arguments.mapping(margins, "margins", "metric -> margin").items():
            arguments.text(metric, "margins' metrics")
            arguments.number(margin, f"margins[{metric!r}]")


def compare(
    frames: Mapping[str, pd.DataFrame],
    *,
    base: str,
    level: float = 0.95,
    seed: int = 0,
    method: MeanMethod = "t",
    stopping: StoppingRule | None = None,
    stores: Mapping[str, StoreFacts] | None = None,
    progress: Callable[[str], None] | None = None,
    headline: Sequence[str] | None = None,
    margins: Mapping[str, float] | None = None,
    power: float = 0.8,
    user_metrics: Sequence[UserMetric] = (),
) -> ComparisonReport:
    """Compare every rule set in ``frames`` with ``frames[base]``.

    ``frames``: label → the games of that rule set (``read_results``). ``level``: of every
    interval, and 1 − level is the significance threshold after correction. ``method``:
    ``"t"`` or ``"bootstrap"`` (BCa over seeds, with ``seed``) for the means. ``stopping``:
    how the games were played (default: a fixed number, the base's seeds and games).
    ``stores``: per label, facts about the store to show in the header (where the rules came
    from, the master seed); keep them deterministic. ``progress``: called with a line of
    text as each step starts. ``headline``: the confirmatory family (metric names or
    patterns, default ``specs.HEADLINE``). ``margins``: metric → the smallest difference of
    interest, in the metric's own units (0.03 for 3 points of a rate): a TOST equivalence
    verdict for each; the key :data:`EVERY_RATE`: every headline metric in percentage points and
    every seat's win rate. ``power``: of
    the minimum detectable effects. ``user_metrics``: the columns of the user's own formulas
    (``--metric``), reported as the other metrics are (in the group "user"). A wrong type of
    argument is a TypeError naming it."""
    _check_arguments(frames, base, level, seed, stopping, stores, progress, headline, margins)
    power = arguments.number(power, "power")
    if base not in frames:
        raise CompareError(f"no results for the base '{base}'")
    if len(frames) < 2:
        raise CompareError("need the base and at least one variant")
    if not 0.0 < level < 1.0:
        raise CompareError(f"the level must lie strictly between 0 and 1, not {level}")
    labels = (base, *(label for label in frames if label != base))
    for label in labels:
        _require(frames[label], label)
    ordered = {label: _sorted(frames[label]) for label in labels}
    context = _context(list(ordered.values()), user_metrics)
    specs = (
        metric_specs(context)
        if headline is None
        else choose_headline(metric_specs(context), headline)
    )
    margin_of = {
        s.name: float(v) for k, v in (margins or {}).items() if k == EVERY_RATE for s in specs
        if s.unit == "pp" and (s.headline or s.name.startswith("win_seat_"))
    }  # fmt: skip
    margin_of |= {metric_name(k): float(v) for k, v in (margins or {}).items() if k != EVERY_RATE}
    unknown = sorted(set(margin_of) - {s.name for s in specs})
    if unknown:
        raise CompareError(f"--margin names no metric of the report: {', '.join(unknown)}")
    tables = {label: game_table(ordered[label], context) for label in labels}
    edges = _edges(tables.values())
    summaries = []
    for label in labels:
        if progress:
            progress(f"summarizing {label}")
        store = (stores or {}).get(label)
        summaries.append(
            _summary(
                label, ordered[label], tables[label], context, level, method, seed, store, edges
            )
        )
    raw: list[tuple[str, list[Difference], list[PairingRow], list[str], _Design]] = []
    for variant in labels[1:]:
        if progress:
            progress(f"comparing {variant} with {base}")
        diffs, pairing, cautions, design = _compare_pair(
            base, variant, tables[base], tables[variant], specs, level, method, seed, context.seats
        )
        a_hashes = summaries[0].rules_hashes
        b_hashes = next(s for s in summaries if s.label == variant).rules_hashes
        if a_hashes and a_hashes == b_hashes:
            cautions.append(f"'{base}' and '{variant}' have the same rules hash (a mirror run)")
        a_lineups = summaries[0].lineups
        b_lineups = next(s for s in summaries if s.label == variant).lineups
        if a_lineups != b_lineups:
            cautions.append(f"'{base}' and '{variant}' were played by different bot line-ups")
        raw.append((variant, diffs, pairing, cautions, design))
    # Multiplicity: Holm over all headline tests, BH over all exploratory ones.
    alpha = 1.0 - level
    adjusted: dict[tuple[str, str], tuple[float | None, bool]] = {}
    sizes: dict[str, int] = {}
    for family, correct in (
        ("headline", holm),
        ("exploratory", benjamini_hochberg),
    ):
        members = [(v, d) for v, diffs, *_ in raw for d in diffs if d.family == family]
        results = correct([d.p for _, d in members], alpha)
        sizes[family] = sum(1 for _, d in members if d.p is not None)
        for (v, d), result in zip(members, results, strict=True):
            adjusted[(v, d.spec.name)] = result
    comparisons = []
    for variant, diffs, pairing, cautions, design in raw:
        final = []
        for d in diffs:
            adj, sig = adjusted[(variant, d.spec.name)]
            final.append(
                _planned(replace(d, adjusted_p=adj, significant=sig), margin_of, alpha, power)
            )
        verdicts = tuple(
            verdict(variant, d, sizes["headline"]) for d in final if d.family == "headline"
        )
        paired, matched, seeds, left_a, left_b = design
        comparisons.append(
            Comparison(
                base,
                variant,
                paired,
                matched,
                seeds,
                left_a,
                left_b,
                tuple(final),
                tuple(pairing),
                verdicts,
                tuple(cautions),
            )
        )
    names = _lineup_names(ordered[base])
    found: list[Interaction] = []
    if len(names) > 1:
        measures = [
            (s.name, s.label, s.unit, s.scale)
            for s in specs
            if s.headline and s.name in tables[base].columns
        ]
        for variant in labels[1:]:
            rows_a, rows_b, _, _ = paired_blocks(tables[base], tables[variant])
            found += interactions(variant, rows_a, rows_b, measures, names, level)
    if stopping is None:
        stopping = StoppingRule("fixed", summaries[0].seeds, summaries[0].games)
    notes: tuple[str, ...] = NOTES
    if stopping.kind == "sprt":
        notes = (*NOTES, SPRT_NOTE)
    return ComparisonReport(
        base=base,
        labels=labels,
        level=level,
        method=method,
        seed=seed,
        rulesets=tuple(summaries),
        comparisons=tuple(comparisons),
        headline_tests=sizes["headline"],
        exploratory_tests=sizes["exploratory"],
        stopping=stopping,
        notes=notes,
        power=power,
        margins=tuple(sorted(margin_of.items())),
        lineups=tuple(names.values()) if len(names) > 1 else (),
        interactions=tuple(correct_interactions(found, level)),
    )


def _planned(d: Difference, margins: Mapping[str, float], alpha: float, power: float) -> Difference:
    """The difference with its minimum detectable effect and, where the metric has a margin,
    its TOST equivalence verdict (both from the per-seed differences)."""
    diffs = np.asarray(d.seed_differences, dtype=np.float64)
    if diffs.size < 2 or not d.paired:
        return d
    sd = float(np.std(diffs, ddof=1))
    mde = minimum_detectable_effect(sd, int(diffs.size), alpha, power)
    tost = None
    if d.spec.name in margins:
        tost = equivalence(np.zeros(diffs.size), diffs, margins[d.spec.name], alpha, d.significant)
    return replace(d, mde=mde if mde is None or math.isfinite(mde) else None, equivalence=tost)


def _lineup_names(frame: pd.DataFrame) -> dict[str, str]:
    """Each line-up key (as in the game tables' ``lineup`` column) → its short name, from a
    game of rotation 0 (the line-up in its own order)."""
    teams: dict[str, list[str]] = {}
    if "bots" not in frame.columns:
        return {}
    for key, rotation, bots in zip(frame["lineup"], frame["rotation"], frame["bots"], strict=True):
        if int(rotation) == 0 and str(key) not in teams:
            teams[str(key)] = [str(b) for b in _as_list(bots)]
    every = [bot for team in teams.values() for bot in team]
    names = {key: lineup_name(team, every) for key, team in teams.items()}
    return dict(sorted(names.items(), key=lambda item: int(item[0])))
