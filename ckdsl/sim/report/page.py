"""The report as one self-contained HTML file: inline CSS, the figures as base64 PNG, no script and
no external reference.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from ckdsl import arguments
from ckdsl.files import write_whole
from ckdsl.sim.compare.analysis import ComparisonReport
from ckdsl.sim.compare.differences import Comparison, Difference
from ckdsl.sim.compare.summaries import MetricSummary
from ckdsl.sim.compare.verdicts import format_delta
from ckdsl.sim.report.cells import (
    GROUP_TITLES,
    _balance_text,
    _cell,
    _pct,
    _significance,
    _value,
    format_p,
    headline_columns,
    headline_rows,
)
from ckdsl.sim.report.plots import Plot, _save, figures
from ckdsl.sim.report.readouts import UNIT_LINE, equivalence_lines, interaction_rows

__all__ = [
    "render_html",
    "write_html",
]

# --- HTML ----------------------------------------------------------------------------------

CSS = """
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; color: #1d232a; background: #fff; margin: 0; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 1.6em; margin: 0.2em 0 0.1em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #d8dee4; padding-bottom: 4px; }
h3 { font-size: 1.05em; margin-top: 1.5em; }
p.lead { color: #57606a; margin-top: 0; }
.scroll { overflow-x: auto; margin: 0.6em 0 1em; }
table { border-collapse: collapse; font-size: 0.92em; width: 100%; }
td:first-child { min-width: 12em; }
th, td { padding: 4px 8px; border-bottom: 1px solid #e5e9ee; vertical-align: top; }
td .mono { overflow-wrap: anywhere; }
th { text-align: left; background: #f4f6f8; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.sig td { font-weight: 600; }
tr.sig td.flag { color: #1a7f37; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.9em; }
ul.verdict li { margin: 0.25em 0; }
.warning { background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 10px;
  border-radius: 4px; margin: 0.5em 0; }
figure { margin: 1.5em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #e5e9ee; }
figcaption { color: #414a53; font-size: 0.92em; margin-top: 0.4em; }
.muted { color: #57606a; }
details summary { cursor: pointer; font-weight: 600; margin: 0.6em 0; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """An HTML table; ``rows`` are already-escaped cells; ``numeric``: right-aligned columns."""
    cols = "".join(
        f'<th class="num">{h}</th>' if i in numeric else f"<th>{h}</th>" for i, h in enumerate(head)
    )
    body = []
    for row in rows:
        cls = ""
        if row and isinstance(row, _Row) and row.significant:
            cls = ' class="sig"'
        cells = "".join(
            f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>"
            for i, c in enumerate(row)
        )
        body.append(f"<tr{cls}>{cells}</tr>")
    return (
        f"<div class='scroll'><table><thead><tr>{cols}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


class _Row(list[str]):
    """A table row that can be marked significant (shown in bold)."""

    significant: bool = False


def _sig_row(cells: Sequence[str], significant: bool) -> _Row:
    row = _Row(cells)
    row.significant = significant
    return row


def _design_section(report: ComparisonReport, run: Mapping[str, str | int] | None) -> str:
    rows = []
    for summary in report.rulesets:
        versions = dict(summary.bot_versions)
        lineups = "<br>".join(
            ", ".join(
                f"<span class='mono'>{_e(bot)}</span>"
                + (f" <span class='muted'>v{_e(versions[bot])}</span>" if bot in versions else "")
                for bot in lineup
            )
            for lineup in summary.lineups
        )
        hashes = "<br>".join(f"<span class='mono'>{_e(h)}</span>" for h in summary.rules_hashes)
        store = summary.store
        source = _e(store.get("rules", "")) if store else ""
        master = store.get("master_seed") if store else None
        seeds = (
            f"{summary.seeds} (index {summary.seed_index_range[0]}–"
            f"{summary.seed_index_range[1]}"
            + (f", master seed {_e(master)}" if master is not None else "")
            + f"; digest <span class='mono'>{_e(summary.seeds_digest)}</span>)"
        )
        rows.append(
            [
                f"<b>{_e(summary.label)}</b>"
                + (f"<br><span class='muted'>{source}</span>" if source else ""),
                hashes,
                ", ".join(_e(v) for v in summary.engine_versions),
                lineups,
                seeds,
                ", ".join(str(r) for r in summary.rotations),
                f"{summary.games}",
                f"{summary.finished} ({100 * summary.finished / summary.games:.1f}%)",
            ]
        )
    table = _table(
        [
            "rule set",
            "rules hash (SHA-256)",
            "engine",
            "bots (seat order of rotation 0)",
            "seeds",
            "rotations",
            "games",
            "finished",
        ],
        rows,
        numeric=(6, 7),
    )
    level = _pct(report.level)
    method = (
        "t intervals"
        if report.method == "t"
        else f"bootstrap BCa intervals (seed {report.seed}, resampling seeds)"
    )
    stopping = report.stopping.describe() if report.stopping else "fixed number of games"
    facts = [
        ("Stopping rule", _e(stopping)),
        (
            "Intervals",
            _e(
                f"{level}; means: {method} over seeds; proportions: Wilson on the effective "
                "number of games (clustered by seed); paired differences: over seeds"
            ),
        ),
        (
            "Multiplicity",
            _e(
                f"Holm over {report.headline_tests} headline tests; Benjamini–Hochberg over "
                f"{report.exploratory_tests} exploratory tests"
            ),
        ),
    ]
    for comparison in report.comparisons:
        design = (
            f"paired on {comparison.matched_games} games, {comparison.matched_seeds} seeds "
            "(same seed, line-up and rotation)"
            if comparison.paired
            else "independent samples (no common seeds)"
        )
        facts.append((f"{_e(comparison.variant)} vs {_e(comparison.base)}", _e(design)))
    if run:
        for key in ("command",):
            if key in run:
                facts.append(("Command", f"<span class='mono'>{_e(run[key])}</span>"))
    facts_html = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in facts)
    return f"{table}<table>{facts_html}</table>"


def _headline_section(report: ComparisonReport, comparison: Comparison) -> str:
    head = [
        "metric",
        f"A: {_e(comparison.base)}",
        f"B: {_e(comparison.variant)}",
        *(_e(h) for h in headline_columns(report)),
        "test",
    ]
    rows = [
        _sig_row([_e(c) for c in row] + [_e(d.test if d.p is not None else "none")], d.significant)
        for d, row in zip(
            comparison.headline, headline_rows(comparison, bool(report.margins)), strict=True
        )
    ]
    parts = [f"<h3>{_e(comparison.variant)} against {_e(comparison.base)}</h3>"]
    parts.append(_table(head, rows, numeric=(1, 2, 3, 4, 5, 7)))
    parts.append(
        f"<p class='muted'>MDE: the smallest true difference the paired test (α = "
        f"{1 - report.level:.2g}, before correction) detects with {report.power:.0%} power on "
        f"these seeds.</p>"
    )
    balance = "".join(
        f"<li>{_e(_balance_text(report.ruleset(label)))}</li>"
        for label in (comparison.base, comparison.variant)
    )
    parts.append(
        "<p><b>Seat balance</b> (are the seats' win shares equal? the seed as the unit):</p>"
        f"<ul>{balance}</ul>"
    )
    if comparison.pairing:
        rows_gain = []
        for row in comparison.pairing:
            g = row.gain
            rows_gain.append(
                [
                    _e(row.label),
                    _e(_num(g.var_independent)),
                    _e(_num(g.var_paired)),
                    _e("n/a" if g.gain is None else f"{g.gain:.1f}×"),
                    _e("n/a" if g.correlation is None else f"{g.correlation:.2f}"),
                    str(g.n),
                ]
            )
        parts.append(
            "<p><b>Pairing gain</b>: the variance of the mean difference if the seeds had been "
            "independent, over that of the paired design. A gain of 4× means an unpaired "
            "experiment would need 4 times as many seeds for the same precision.</p>"
        )
        parts.append(
            _table(
                [
                    "metric",
                    "variance, independent",
                    "variance, paired",
                    "gain",
                    "correlation A–B per seed",
                    "seeds",
                ],
                rows_gain,
                numeric=(1, 2, 3, 4, 5),
            )
        )
    for warning in comparison.warnings:
        parts.append(f"<div class='warning'>{_e(warning)}</div>")
    return "".join(parts)


def _num(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3g}"


def _interval_text(m: MetricSummary | None) -> str:
    if m is None or m.interval.estimate is None:
        return "n/a"
    spec = m.spec
    est = _value(m.interval.estimate, spec.scale, spec.unit)
    if m.interval.low is None or m.interval.high is None:
        return est
    low = _value(m.interval.low, spec.scale, spec.unit)
    high = _value(m.interval.high, spec.scale, spec.unit)
    return f"{est} [{low}, {high}]"


def _quartiles(m: MetricSummary | None) -> str:
    if m is None or m.median is None or m.spec.kind == "proportion":
        return ""
    spec = m.spec
    return (
        f"{_value(m.median, spec.scale, spec.unit)} "
        f"({_value(m.q1, spec.scale, spec.unit)}–{_value(m.q3, spec.scale, spec.unit)})"
    )


def _rulesets_section(report: ComparisonReport) -> str:
    first = report.rulesets[0]
    groups: dict[str, list[str]] = {}
    for metric in first.metrics:
        groups.setdefault(metric.spec.group, []).append(metric.spec.name)
    level = _pct(report.level)
    parts = [
        "<p>Each rule set on its own: the mean with its "
        f"{level} interval (Wilson for shares, on the effective number of games when a seed "
        "has several; t or bootstrap over seeds for means), and the median with the quartiles "
        "of the per-game values. games (seeds): where the metric has a value (a metric that "
        "needs a winner has none for an unfinished game); the interval's unit is the seed.</p>"
    ]
    for group, names in groups.items():
        head = ["metric"]
        for summary in report.rulesets:
            head += [f"{_e(summary.label)}: mean [CI]", "median (IQR)", "games (seeds)"]
        rows = []
        for name in names:
            label = first.metric(name)
            row = [_e(label.spec.label if label else name)]
            for summary in report.rulesets:
                m = summary.metric(name)
                count = f"{m.n} ({m.seeds})" if m else "0"
                row += [_e(_interval_text(m)), _e(_quartiles(m)), count]
            rows.append(row)
        numeric = tuple(range(1, len(head)))
        table = _table(head, rows, numeric=numeric)
        title = _e(GROUP_TITLES.get(group, group.title()))
        if group == "cards":
            parts.append(f"<details><summary>{title}</summary>{table}</details>")
        else:
            parts.append(f"<h3>{title}</h3>{table}")
    # Bots.
    rows = []
    for summary in report.rulesets:
        for bot in summary.win_by_bot:
            interval = bot.interval
            rows.append(
                [
                    _e(summary.label),
                    f"<span class='mono'>{_e(bot.bot)}</span>",
                    _e(bot.version),
                    str(bot.wins),
                    str(bot.seats_held),
                    _e(interval.format(1, 100, "%")),
                ]
            )
    parts.append("<h3>Win rate by bot</h3>")
    parts.append(
        "<p>Wins over the seats the bot held (a game with the bot in two seats counts "
        "twice), with Wilson intervals on the effective number of seats held (clustered by "
        "seed).</p>"
    )
    parts.append(
        _table(["rule set", "bot", "version", "wins", "seats held", "win rate"], rows, (3, 4, 5))
    )
    return "".join(parts)


def _exploratory_section(report: ComparisonReport) -> str:
    level = _pct(report.level)
    parts = [
        "<p>Every other metric, variant against base, with its paired interval and the "
        "p-value adjusted with Benjamini–Hochberg over "
        f"{report.exploratory_tests} tests (a false discovery rate of "
        f"{_pct(1 - report.level)}). Treat a significant line here as a lead to follow with a "
        "dedicated experiment, not as a finding.</p>"
    ]
    for comparison in report.comparisons:
        groups: dict[str, list[Difference]] = {}
        for d in comparison.exploratory:
            groups.setdefault(d.spec.group, []).append(d)
        parts.append(f"<h3>{_e(comparison.variant)} against {_e(comparison.base)}</h3>")
        for group, diffs in groups.items():
            rows = [
                _sig_row(
                    [
                        _e(d.spec.label),
                        _e(_cell(d, "a")),
                        _e(_cell(d, "b")),
                        _e(format_delta(d)),
                        _e(format_p(d.p)),
                        _e(format_p(d.adjusted_p)),
                        _e(_significance(d)),
                        str(d.n),
                    ],
                    d.significant,
                )
                for d in diffs
            ]
            table = _table(
                [
                    "metric",
                    "A",
                    "B",
                    f"Δ B − A [{level} CI]",
                    "p",
                    "p (BH)",
                    "significant",
                    "seeds",
                ],
                rows,
                numeric=(1, 2, 3, 4, 5, 7),
            )
            title = _e(GROUP_TITLES.get(group, group.title()))
            if group == "cards":
                parts.append(f"<details><summary>{title}</summary>{table}</details>")
            else:
                parts.append(f"<h4>{title}</h4>{table}")
    return "".join(parts)


def _png(plot: Plot) -> str:
    buffer = io.BytesIO()
    _save(plot, buffer, "png", dpi=110)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _interactions_section(report: ComparisonReport) -> str:
    head, rows = interaction_rows(report)
    intro = (
        "<p>The same seeds under each line-up; for each headline metric, the variant's effect "
        "within each line-up (paired t over seeds) and the test that the effects are equal "
        "(the line-up × variant interaction, Hotelling's T² on the per-seed effects; Holm "
        "over the metrics).</p>"
    )
    table = _table(
        [_e(h) for h in head],
        [[_e(c) for c in row] for row in rows],
        numeric=tuple(range(2, len(head) - 1)),
    )
    verdicts = "".join(
        f"<li>{_e(item.verdict())}</li>"
        for item in report.interactions
        if item.metric != "seat_balance"
    )
    return intro + table + f"<ul class='verdict'>{verdicts}</ul>"


def render_html(report: ComparisonReport, *, run: Mapping[str, str | int] | None = None) -> str:
    """The report as one self-contained HTML page (no script, no external reference).

    ``run``: facts about this run that are not part of the results (the command line, the
    wall time); shown in a separate section at the end.
    """
    arguments.instance(report, ComparisonReport, "report", "what compare() returns")
    if run is not None:
        arguments.mapping(run, "run", "fact -> text or number")
    variants = ", ".join(c.variant for c in report.comparisons)
    title = f"{variants} against {report.base}"
    body = [f"<h1>Rule-set comparison: {_e(title)}</h1>"]
    body.append(
        f"<p class='lead'>{_e(UNIT_LINE)} Made by <span class='mono'>ckdsl compare</span>. "
        "Differences are B − A: the variant minus the base.</p>"
    )
    body.append("<h2>Design</h2>")
    body.append(_design_section(report, run))
    body.append("<h2>Verdict</h2><ul class='verdict'>")
    for comparison in report.comparisons:
        body.extend(f"<li>{_e(line)}</li>" for line in comparison.verdicts)
    body.append("</ul>")
    body.append("<h2>Headline metrics</h2>")
    body.extend(_headline_section(report, c) for c in report.comparisons)
    lines = equivalence_lines(report)
    if lines:
        body.append("<h2>Equivalence</h2><p>Two one-sided tests (TOST) against each margin.</p>")
        body.append("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in lines) + "</ul>")
    if report.interactions:
        body.append("<h2>Does the effect depend on the bots?</h2>")
        body.append(_interactions_section(report))
    body.append("<h2>Figures</h2>")
    for plot in figures(report):
        body.append(
            f"<figure id='{_e(plot.name)}'><img alt='{_e(plot.title)}' "
            f"src='data:image/png;base64,{_png(plot)}'>"
            f"<figcaption><b>{_e(plot.title)}.</b> {_e(plot.caption)}</figcaption></figure>"
        )
    body.append("<h2>Each rule set</h2>")
    body.append(_rulesets_section(report))
    body.append("<h2>Exploratory differences</h2>")
    body.append(_exploratory_section(report))
    body.append("<h2>Methods</h2><ul>")
    body.extend(f"<li>{_e(note)}</li>" for note in report.notes)
    body.append("</ul>")
    timings = report.run_section()
    if run or timings:
        body.append(
            "<h2>This run</h2><p class='muted'>Not part of the results: timings vary "
            "from run to run.</p><ul>"
        )
        for key, value in (run or {}).items():
            if key != "command":
                body.append(f"<li>{_e(key)}: {_e(value)}</li>")
        for label, facts in timings.items():
            if isinstance(facts, Mapping):
                seconds = facts.get("game_seconds")
                rate = facts.get("games_per_cpu_second")
                body.append(
                    f"<li>{_e(label)}: {_e(seconds)} s of play in total, "
                    f"{_e(rate)} games per second of one core</li>"
                )
        body.append("</ul>")
    return (
        "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
        f"<title>{_e(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(body)
        + "\n</main>\n</body>\n</html>\n"
    )


def write_html(
    report: ComparisonReport, path: Path | str, *, run: Mapping[str, str | int] | None = None
) -> Path:
    """Write :func:`render_html` to ``path`` (through a temporary file, then renamed)."""
    target = arguments.file_path(path, "path")
    text = render_html(report, run=run)
    write_whole(target, text.encode("utf-8"))
    return target
