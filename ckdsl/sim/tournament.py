"""Tournaments: bots against each other on derived seeds, seats rotated, with ratings.

A tournament is an experiment (``ckdsl.sim.experiment``) whose line-ups are made from the
bots named, played by the same runner into the same kind of store, so it resumes the same
way and runs on Dask the same way. Then:

- **win rates** per bot with Wilson intervals, per seat held (a bot that holds three
  seats of a game has three chances to win it; unfinished games count as losses for every
  seat, never dropped);
- a **pairwise table**: for each pair of bots, over the games in which both sat, the
  share of (seat, seat) meetings the row bot finished ahead of the column bot (on final
  points, the winner first; a tie counts half), with a Wilson interval;
- a **rating**: OpenSkill's Plackett-Luce model (Weng and Lin, JMLR 2011; the
  ``openskill`` package), updated game by game in the order of the games' keys, each
  seat a team and the final standings its ranks. A bot holding several seats of a game
  gets the mean of its seats' updates. The ordinal (mu - 3 sigma) orders the table.

How the bots are seated: with as many bots as seats, one line-up; with fewer, every
cyclic fill of the seats (A,B,A,B and B,A,B,A), so each bot holds as many seats as the
others; with more, every combination of that many bots. Seats always rotate, so every
bot sits in every seat of every line-up, on every seed.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from ckdsl.sim.stats.proportions import wilson
from ckdsl.sim.stats.results import IntervalJson, json_float

if TYPE_CHECKING:
    import pandas as pd


def lineups(bots: Sequence[str], seats: int) -> tuple[tuple[str, ...], ...]:
    """The line-ups of a tournament of ``bots`` (full specs) at a table of ``seats``."""
    k = len(bots)
    if k == seats:
        return (tuple(bots),)
    if k < seats:
        return tuple(tuple(bots[(start + s) % k] for s in range(seats)) for start in range(k))
    return tuple(
        tuple(bots[i] for i in chosen) for chosen in itertools.combinations(range(k), seats)
    )


class StandingRow(TypedDict):
    """A bot's line of the standings; ``name`` (the bot as the user named it) is added
    by the command, which knows how the bots were given."""

    bot: str
    seats: int
    wins: int
    win_rate: IntervalJson
    mean_points: float | None
    mu: float | None
    sigma: float | None
    ordinal: float | None


class NamedStandingRow(StandingRow):
    name: str  # the bot as the user named it (the spec given, not the full one)


class PairwiseRow(TypedDict):
    bot: str
    opponent: str
    meetings: int
    ahead: IntervalJson


class Standings(TypedDict):
    """:func:`standings`: the counts, the rating's and intervals' names, the tables."""

    games: int
    finished: int
    unfinished: int
    level: float
    rating: str
    intervals: str
    standings: list[StandingRow]
    pairwise: list[PairwiseRow]


class TournamentReport(TypedDict):
    """What ``ckdsl tournament --json`` prints: the standings with each bot's name as
    given, the line-ups played, the number of seeds and the master seed."""

    games: int
    finished: int
    unfinished: int
    level: float
    rating: str
    intervals: str
    standings: list[NamedStandingRow]
    pairwise: list[PairwiseRow]
    lineups: list[list[str]]
    seeds: int
    master_seed: int


@dataclass(frozen=True)
class Standing:
    bot: str
    seats: int  # seat-games held
    wins: int
    win_rate: IntervalJson
    mean_points: float
    mu: float
    sigma: float
    ordinal: float


def standings(df: pd.DataFrame, level: float = 0.95) -> Standings:
    """Win rates, the pairwise table and the ratings of a tournament's games (rows of the
    store, sorted by key). Deterministic: the same games give the same report."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    df = df.sort_values(["seed_index", "lineup", "rotation"])
    names = sorted({bot for bots in df["bots"] for bot in bots})
    ratings = {name: model.rating(name=name) for name in names}
    seats_held = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    points = dict.fromkeys(names, 0)
    ahead = {(a, b): 0.0 for a in names for b in names if a != b}
    met = {(a, b): 0 for a in names for b in names if a != b}
    games = finished = 0
    for bots, final, winner in zip(df["bots"], df["points"], df["winner_seat"], strict=True):
        bots, final, winner = list(bots), [int(p) for p in final], int(winner)
        games += 1
        finished += winner >= 0
        # The standings of the game: the winner first, then by points (ties share a rank).
        order = [(0 if s == winner else 1, -final[s]) for s in range(len(bots))]
        for s, bot in enumerate(bots):
            seats_held[bot] += 1
            wins[bot] += s == winner
            points[bot] += final[s]
        for s, t in itertools.permutations(range(len(bots)), 2):
            a, b = bots[s], bots[t]
            if a != b:
                met[a, b] += 1
                ahead[a, b] += 1.0 if order[s] < order[t] else 0.5 if order[s] == order[t] else 0.0
        ranks = [float(sorted(set(order)).index(key)) for key in order]
        teams = [[ratings[bot]] for bot in bots]
        updated = model.rate(teams, ranks=ranks)
        moves: dict[str, list[tuple[float, float]]] = {}
        for bot, team in zip(bots, updated, strict=True):
            moves.setdefault(bot, []).append((team[0].mu, team[0].sigma))
        for bot, seen in moves.items():
            rating = ratings[bot]
            rating.mu = sum(m for m, _ in seen) / len(seen)
            rating.sigma = sum(s for _, s in seen) / len(seen)
    table = [
        Standing(
            bot=name,
            seats=seats_held[name],
            wins=wins[name],
            win_rate=wilson(wins[name], seats_held[name], level).to_json(),
            mean_points=points[name] / seats_held[name] if seats_held[name] else 0.0,
            mu=ratings[name].mu,
            sigma=ratings[name].sigma,
            ordinal=ratings[name].ordinal(),
        )
        for name in names
    ]
    table.sort(key=lambda s: (-s.ordinal, s.bot))
    pairwise: list[PairwiseRow] = [
        {
            "bot": a,
            "opponent": b,
            "meetings": met[a, b],
            "ahead": wilson_share(ahead[a, b], met[a, b], level),
        }
        for a in names
        for b in names
        if a != b
    ]
    return {
        "games": games,
        "finished": finished,
        "unfinished": games - finished,
        "level": level,
        "rating": "OpenSkill Plackett-Luce (openskill), one update per game in key order",
        "intervals": "Wilson score",
        "standings": [
            {
                "bot": s.bot,
                "seats": s.seats,
                "wins": s.wins,
                "win_rate": s.win_rate,
                "mean_points": json_float(s.mean_points),
                "mu": json_float(s.mu),
                "sigma": json_float(s.sigma),
                "ordinal": json_float(s.ordinal),
            }
            for s in table
        ],
        "pairwise": pairwise,
    }


def wilson_share(score: float, n: int, level: float) -> IntervalJson:
    """A share with half points (ties), as a Wilson interval on the rounded count."""
    found = wilson(round(score), n, level).to_json()
    found["estimate"] = json_float(score / n) if n else None
    return found


def tournament_report(
    found: Standings,
    lineups: Sequence[Sequence[str]],
    seeds: int,
    master_seed: int,
    shown: Mapping[str, str],
) -> TournamentReport:
    """The standings with the design: ``shown`` maps each bot's full spec to the spec
    the user gave (``heuristic`` for ``heuristic:weights=bundled``)."""
    return {
        **found,
        "standings": [{**row, "name": shown[row["bot"]]} for row in found["standings"]],
        "lineups": [list(lineup) for lineup in lineups],
        "seeds": seeds,
        "master_seed": master_seed,
    }


STANDINGS_HEADINGS = ("bot", "seats", "wins", "win rate [interval]", "points", "rating (μ ± σ)")


def standings_title(report: TournamentReport) -> str:
    return f"{report['games']} games ({report['unfinished']} unfinished)"


def standings_cells(report: TournamentReport) -> list[list[str]]:
    """The standings table's cells, a row per bot in rating order (``STANDINGS_HEADINGS``)."""
    rows = []
    for s in report["standings"]:
        rate = s["win_rate"]
        low, high, estimate = rate["low"], rate["high"], rate["estimate"]
        shown = (
            f"{estimate:.1%} [{low:.1%}, {high:.1%}]"
            if estimate is not None and low is not None and high is not None
            else "-"
        )
        rows.append(
            [
                s["name"],
                str(s["seats"]),
                str(s["wins"]),
                shown,
                f"{s['mean_points']:.1f}",
                f"{s['mu']:.1f} ± {s['sigma']:.1f}",
            ]
        )
    return rows


def ahead_cells(report: TournamentReport) -> tuple[list[str], list[list[str]]]:
    """The pairwise table: the column names (the bots as named), and a row per bot
    starting with its name, each cell how often it finished ahead of the column's bot."""
    names = [s["bot"] for s in report["standings"]]
    short = {s["bot"]: s["name"] for s in report["standings"]}
    cells = {(p["bot"], p["opponent"]): p for p in report["pairwise"]}
    rows = []
    for a in names:
        row = [short[a]]
        for b in names:
            cell = cells.get((a, b))
            share = cell["ahead"]["estimate"] if cell else None
            row.append("-" if share is None else f"{share:.0%}")
        rows.append(row)
    return [short[name] for name in names], rows


def standings_footer(report: TournamentReport) -> str:
    return f"{report['intervals']} intervals at {report['level']:.0%}; {report['rating']}"
