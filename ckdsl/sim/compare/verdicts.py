"""Differences in words: a signed difference with its interval, and a plain-language verdict."""

from __future__ import annotations

import math

from ckdsl.sim.compare.differences import Difference
from ckdsl.sim.compare.specs import MetricSpec


def _fmt_number(value: float, digits: int) -> str:
    text = f"{abs(value):.{digits}f}"
    return ("−" if value < 0 and float(text) != 0 else "") + text


def _signed(value: float, digits: int) -> str:
    text = f"{abs(value):.{digits}f}"
    if float(text) == 0:
        return text
    return ("+" if value > 0 else "−") + text


def _digits(spec: MetricSpec) -> int:
    if spec.unit == "pp":
        return 1
    if spec.unit in ("turns", "decisions"):
        return 1
    return 2


def enough_digits(digits: int, *sizes: float | None) -> int:
    """``digits``, or more when a size (an interval's half-width, a mean) is so small that
    they would show it as zero: two significant digits of the smallest, at most six
    decimals ("0.0043 [0.0021, 0.0065]", not "0.00 [0.00, 0.00]" beside a "significant")."""
    for size in sizes:
        if size is not None and 0 < abs(size) < 10.0**-digits:
            digits = max(digits, min(6, 1 - math.floor(math.log10(abs(size)))))
    return digits


def format_delta(d: Difference) -> str:
    """``"+28.1 turns [+24.8, +31.6]"`` or ``"−0.4 pp [−2.6, +1.8]"``; for the variant × seat
    test, its statistic: ``"F(3, 196) = 0.84"``."""
    if d.seat_test is not None:
        t = d.seat_test
        return "n/a" if t.f is None else f"F({t.df1}, {t.df2}) = {t.f:.2f}"
    spec = d.spec
    unit = f" {spec.unit}" if spec.unit else ""
    if d.delta.estimate is None:
        return "n/a"
    half = None
    if d.delta.low is not None and d.delta.high is not None:
        half = (d.delta.high - d.delta.low) / 2 * spec.scale
    digits = enough_digits(_digits(spec), half, d.delta.estimate * spec.scale)
    text = _signed(d.delta.estimate * spec.scale, digits) + unit
    if d.delta.low is not None and d.delta.high is not None:
        low = _signed(d.delta.low * spec.scale, digits)
        high = _signed(d.delta.high * spec.scale, digits)
        text += f" [{low}, {high}]"
    return text


_VERBS: dict[str, tuple[str, str]] = {
    # metric: (phrase when B > A, phrase when B < A); {m}: the size of the change
    "turns": ("lengthens games by {m}", "shortens games by {m}"),
    "decisions": ("adds {m} per game", "removes {m} per game"),
    "finished": (
        "raises the share of finished games by {m}",
        "lowers the share of finished games by {m}",
    ),
    "score_margin": ("widens the winning margin by {m}", "narrows the winning margin by {m}"),
    "lead_changes": ("adds {m} lead changes per game", "removes {m} lead changes per game"),
    "decisive_fraction": (
        "delays the winner's decisive lead by {m} of the game",
        "brings the winner's decisive lead forward by {m} of the game",
    ),
}


def _magnitude(d: Difference) -> str:
    """``"28.1 turns [24.8, 31.6]"`` in the direction of the change (absolute values)."""
    spec = d.spec
    digits = _digits(spec)
    assert d.delta.estimate is not None and d.delta.low is not None and d.delta.high is not None
    sign = 1.0 if d.delta.estimate >= 0 else -1.0
    est = abs(d.delta.estimate) * spec.scale
    low, high = sorted((sign * d.delta.low * spec.scale, sign * d.delta.high * spec.scale))
    unit = f" {spec.unit}" if spec.unit else ""
    return (
        f"{_fmt_number(est, digits)}{unit} "
        f"[{_fmt_number(low, digits)}, {_fmt_number(high, digits)}]"
    )


def _subject(spec: MetricSpec) -> str:
    if spec.name.startswith("win_seat_"):
        return spec.label.replace(" win rate", "'s win rate")
    if spec.name == "finished":
        return "the share of finished games"
    return spec.label


def verdict(variant: str, d: Difference, family_size: int) -> str:
    """A plain-language line drawn only from the interval and the corrected test:
    ``"fifteen_points lengthens games by 28.1 turns [24.8, 31.6]."``, ``"fifteen_points: no
    detectable change in seat 1's win rate (−0.4 pp [−2.6, +1.8])."``"""
    spec = d.spec
    name = _subject(spec)
    if d.seat_test is not None:
        return _seat_verdict(variant, d, family_size)
    if d.delta.estimate is None or d.delta.low is None or d.delta.high is None:
        return f"{variant}: not enough games to compare {name}."
    if not d.delta.excludes(0.0):
        return f"{variant}: no detectable change in {name} ({format_delta(d)})."
    up = d.delta.estimate > 0
    if spec.name in _VERBS:
        phrase = _VERBS[spec.name][0 if up else 1].format(m=_magnitude(d))
    else:
        phrase = f"{'raises' if up else 'lowers'} {name} by {_magnitude(d)}"
    if d.significant:
        return f"{variant} {phrase}."
    correction = "Holm's" if d.family == "headline" else "Benjamini–Hochberg's"
    return (
        f"{variant}: {name} changes by {format_delta(d)}, but not significantly after "
        f"{correction} correction over {family_size} tests."
    )


def _seat_verdict(variant: str, d: Difference, family_size: int) -> str:
    """The variant × seat test in words."""
    test = d.seat_test
    assert test is not None
    if test.p is None:
        return f"{variant}: not enough seeds to test a change of seat balance."
    gaps = ""
    if d.a is not None and d.b is not None:
        gaps = f"; largest gap between two seats {100 * d.a:.1f} → {100 * d.b:.1f} pp"
    stat = f"{format_delta(d)}, p = {test.p:.3g}{gaps}"
    if d.significant:
        return f"{variant} changes seat balance ({stat})."
    if test.p < 1 - d.delta.level:
        correction = "Holm's" if d.family == "headline" else "Benjamini–Hochberg's"
        return (
            f"{variant}: seat balance changes ({stat}), but not significantly after "
            f"{correction} correction over {family_size} tests."
        )
    return f"{variant}: no detectable change in seat balance ({stat})."
