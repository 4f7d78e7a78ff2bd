"""Fit the learned bot's model (rules/bots/learned.yaml) on self-play games.

    python tools/fit_learned.py --games 150 --players heuristic,heuristic,heuristic,heuristic \
        --out rules/bots/learned.yaml

Plays ``--games`` games of the line-up on the seeds ``--seed`` .. ``--seed + games - 1``
(seats as given), and at the start of every turn records, for each player, the numbers of
``ckdsl.bots.descriptors`` (what that player may see) and whether that player went on to
win. A logistic regression of the win on the standardized numbers (statsmodels' ``Logit``,
maximum likelihood) gives the model. The seeds from ``--holdout`` of the way on are left
out of the fit and score it: the log loss and accuracy there, against the base rate's, go
in the file's record with the games, seeds, bots, rule set and its hash. An unfinished game
is a loss for every seat.
"""

from __future__ import annotations

import argparse
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import yaml

from ckdsl.bots import bot_seed, parse_players
from ckdsl.bots.descriptors import NAMES, Describer
from ckdsl.session import GameSetup, load_rules, start
from ckdsl.turn.game import Game


def positions(rules: str, players: str, seed: int) -> tuple[list[list[float]], list[int], int]:
    """One game: the rows (one per player per turn), each row's player, and the winner."""
    specs = parse_players(players)
    game = start(GameSetup(rules=rules, players=len(specs), seed=seed), log=False)
    bots = [spec.make(bot_seed(seed, s)) for s, spec in enumerate(specs)]
    describer = Describer(game.rules)
    rows: list[list[float]] = []
    seats: list[int] = []
    seen = [-1]

    def record(g: Game) -> None:
        state = g.state
        if state.turn > seen[0] and not state.rolled and state.turn > 0:
            seen[0] = state.turn
            for p in range(g.n):
                rows.append(describer.describe(g, p))
                seats.append(p)

    game.play_out(bots, record)
    return rows, seats, game.state.winner


def fit(x: np.ndarray, y: np.ndarray) -> tuple[float, list[float], np.ndarray, np.ndarray]:
    import statsmodels.api as sm

    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales == 0] = 1.0
    z = sm.add_constant((x - means) / scales, has_constant="add")
    result = sm.Logit(y, z).fit(disp=False, maxiter=200)
    params = [float(v) for v in result.params]
    return params[0], params[1:], means, scales


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--players", default="heuristic,heuristic,heuristic,heuristic")
    parser.add_argument("--rules", default="base")
    parser.add_argument("--holdout", type=float, default=0.8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("rules/bots/learned.yaml"))
    args = parser.parse_args(argv)
    seeds = list(range(args.seed, args.seed + args.games))
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(
            pool.map(positions, [args.rules] * len(seeds), [args.players] * len(seeds), seeds)
        )
    cut = int(len(seeds) * args.holdout)
    xs: list[list[list[float]]] = [[], []]
    ys: list[list[int]] = [[], []]
    unfinished = 0
    for k, (rows, seats, winner) in enumerate(games):
        part = 0 if k < cut else 1
        unfinished += winner < 0
        xs[part].extend(rows)
        ys[part].extend(int(seat == winner) for seat in seats)
    x, y = np.array(xs[0]), np.array(ys[0], dtype=float)
    intercept, coefficients, means, scales = fit(x, y)
    record: dict[str, object] = {
        "bots": args.players,
        "rules": args.rules,
        "ruleset_hash": load_rules(args.rules).compiled.ruleset_hash,
        "games": len(seeds),
        "unfinished": unfinished,
        "seeds": f"{seeds[0]}..{seeds[-1]}",
        "fitted_on": f"{seeds[0]}..{seeds[cut - 1]} ({len(y)} positions)",
        "method": "logistic regression, maximum likelihood (statsmodels Logit), standardized",
    }
    if cut < len(seeds):
        hx, hy = np.array(xs[1]), np.array(ys[1], dtype=float)
        z = intercept + ((hx - means) / scales) @ np.array(coefficients)
        p = 1.0 / (1.0 + np.exp(-z))
        base = float(np.mean(y))
        record["held_out"] = {
            "seeds": f"{seeds[cut]}..{seeds[-1]}",
            "positions": len(hy),
            "log_loss": round(log_loss(p, hy), 4),
            "log_loss_base_rate": round(log_loss(np.full(len(hy), base), hy), 4),
            "accuracy": round(float(np.mean((p > 0.5) == (hy > 0.5))), 4),
        }
    data = {
        "version": 1,
        "record": record,
        "intercept": round(intercept, 6),
        "features": [
            {"name": n, "coefficient": round(c, 6), "mean": round(float(m), 6),
             "scale": round(float(s), 6)}
            for n, c, m, s in zip(NAMES, coefficients, means, scales, strict=True)
        ],
    }  # fmt: skip
    header = (
        "# The learned bot's model (ckdsl/bots/learned.py, docs/bots.md): written by\n"
        f"# python tools/fit_learned.py {' '.join(argv if argv is not None else sys.argv[1:])}\n"
    )
    args.out.write_text(header + yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    shown = {n: round(c, 3) for n, c in zip(NAMES, coefficients, strict=True)}
    print(f"{len(y)} positions; coefficients {shown}; {record.get('held_out')}")
    return 0 if all(math.isfinite(c) for c in coefficients) else 1


if __name__ == "__main__":
    sys.exit(main())
