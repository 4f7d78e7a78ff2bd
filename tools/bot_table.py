"""The table of how bots play Cities & Knights (docs/bots.md "What the heuristic plays"),
computed from results folders that ``ckdsl simulate --out`` wrote: never typed by hand.

    python tools/bot_table.py runs/new runs/old [--label new --label old]
    python tools/bot_table.py runs/new --check          (issue 33's targets, met or not)
    python tools/bot_table.py runs/h2h --wins heuristic:version=3   (a bot's win rate)

Each folder is one column (all its games, all players together). Rates of progress cards
are copies played over copies drawn, over the folder's games; metropolises count the
tracks whose metropolis was taken; a game "has a wall" if any player built one. Intervals:
Wilson 95% for shares of games, t 95% over games for means.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

# Cards revealed on draw and kept as points: never "played".
POINTS_CARDS = ("constitution", "printer")


def _pairs(cell: object) -> dict[str, int]:
    return {str(k): int(v) for k, v in cell}  # type: ignore[attr-defined]


def _mean(values: pd.Series) -> str:
    m = float(values.mean())
    if len(values) < 2:
        return f"{m:.2f}"
    half = stats.t.ppf(0.975, len(values) - 1) * float(values.std(ddof=1)) / math.sqrt(len(values))
    return f"{m:.2f} [{m - half:.2f}, {m + half:.2f}]"


def _share(k: int, n: int) -> str:
    lo, hi = proportion_confint(k, n, method="wilson")
    return f"{100 * k / n:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]"


def _card_counts(df: pd.DataFrame) -> tuple[Counter[str], Counter[str]]:
    """Copies of each progress card drawn and played, over every game of ``df``."""
    drawn: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for cell in df["cards_drawn"]:
        drawn.update(_pairs(cell))
    for cell in df["cards_played"]:
        played.update(_pairs(cell))
    return drawn, played


def column(folder: Path) -> dict[str, str]:
    """The rows of one folder's column."""
    df = pd.read_parquet(folder)
    n = len(df)
    drawn, played = _card_counts(df)
    metropolises = df["metropolis_first_turn"].map(lambda c: sum(1 for _, t in c if t >= 0))
    attacks, lost = int(df["attacks"].sum()), int(df["attacks_lost"].sum())
    out: dict[str, str] = {
        "games (finished)": f"{n} ({int(df['finished'].sum())})",
        "turns": _mean(df["turns"]),
    }
    for card in sorted(drawn):
        if card in POINTS_CARDS:
            continue
        d, p = drawn[card], played.get(card, 0)
        out[f"{card}: played / drawn"] = f"{p}/{d} = {100 * p / d:.0f}%"
    out["progress cards seized (Spy)"] = _mean(df["progress_seized"])
    out["knights moved + displaced"] = _mean(df["knights_moved"] + df["knights_displaced"])
    out["knights moved / displaced"] = (
        f"{df['knights_moved'].mean():.2f} / {df['knights_displaced'].mean():.2f}"
    )
    out["robber chased by a knight"] = _mean(df["robber_chases"])
    out["barbarian attacks lost"] = (
        f"{lost}/{attacks} = {_share(lost, attacks) if attacks else '-'}"
    )
    out["cities pillaged"] = _mean(df["cities_pillaged"])
    out["metropolises"] = _mean(metropolises)
    out["games with no metropolis"] = _share(int((metropolises == 0).sum()), n)
    out["games with a city wall"] = _share(int((df["walls_built"] > 0).sum()), n)
    out["city walls"] = _mean(df["walls_built"])
    out["goods discarded on 7s"] = _mean(df["goods_discarded"])
    return out


def check(folder: Path) -> list[tuple[str, bool]]:
    """The targets of issue 33 for four bots of one kind, each with whether it is met."""
    df = pd.read_parquet(folder)
    n = len(df)
    drawn, played = _card_counts(df)
    out: list[tuple[str, bool]] = []
    for card in sorted(drawn):
        if card not in POINTS_CARDS:
            share = played.get(card, 0) / drawn[card]
            out.append(
                (f"{card}: {100 * share:.0f}% of copies drawn played (>= 30%)", share >= 0.3)
            )
    moves = float((df["knights_moved"] + df["knights_displaced"]).mean())
    out.append((f"knights moved + displaced: {moves:.2f} a game (>= 3)", moves >= 3))
    lost = int(df["attacks_lost"].sum()) / max(1, int(df["attacks"].sum()))
    out.append((f"barbarian attacks lost: {100 * lost:.1f}% (<= 20%)", lost <= 0.2))
    metro = float(df["metropolis_first_turn"].map(lambda c: sum(1 for _, t in c if t >= 0)).mean())
    out.append((f"metropolises: {metro:.2f} a game (>= 2)", metro >= 2))
    walls = float((df["walls_built"] > 0).mean())
    out.append((f"games with a city wall: {100 * walls:.1f}% (>= 95%)", walls >= 0.95))
    done = int(df["finished"].sum())
    out.append((f"games finished: {done} of {n}", done == n))
    return out


def wins(folder: Path, spec: str) -> str:
    """How often the bot ``spec`` (a spec as results record it, or its start) won over
    the seats it held, with a Wilson 95% interval."""
    df = pd.read_parquet(folder)
    seats = sum(sum(1 for b in row if str(b).startswith(spec)) for row in df["bots"])
    won = int(df["winner_bot"].map(lambda b: str(b).startswith(spec)).sum())
    lo, hi = proportion_confint(won, seats, method="wilson")
    return (f"{spec}: {won} wins over {seats} seats held, {100 * won / seats:.1f}% "
            f"(Wilson 95% [{100 * lo:.1f}%, {100 * hi:.1f}%]), {len(df)} games")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--label", action="append", default=[], help="a column's name")
    parser.add_argument("--check", action="store_true", help="the issue's targets, met or not")
    parser.add_argument("--wins", metavar="SPEC", help="the win rate of SPEC's seats")
    args = parser.parse_args(argv)
    if args.wins:
        for folder in args.folders:
            print(f"{folder}: {wins(folder, args.wins)}")
        return 0
    if args.check:
        for folder in args.folders:
            print(folder)
            for line, met in check(folder):
                print(f"  {'met    ' if met else 'NOT MET'}  {line}")
        return 0
    labels = args.label + [f.name for f in args.folders[len(args.label) :]]
    columns = [column(f) for f in args.folders]
    rows: list[str] = []
    for c in columns:
        rows += [r for r in c if r not in rows]
    print("| per game (all players together) | " + " | ".join(labels) + " |")
    print("|---|" + "---|" * len(labels))
    for r in rows:
        print(f"| {r} | " + " | ".join(c.get(r, "-") for c in columns) + " |")
    print()
    print(
        f"(tools/bot_table.py on {platform.node() or 'this machine'}, "
        f"Python {platform.python_version()}, {platform.machine()})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
