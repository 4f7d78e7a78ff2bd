"""Fit the learned bot's model (rules/bots/learned.yaml) on self-play games.

    python tools/fit_learned.py --games 150 --players heuristic,heuristic,heuristic,heuristic \
        --out rules/bots/learned.yaml
    python tools/fit_learned.py --stored-only --games 300 --players ... \
        --base rules/bots/learned-v2.yaml --refine level_lead,defence --out FILE

Plays ``--games`` games of each line-up (``--players``, given again for another) on the
seeds ``--seed`` .. ``--seed + games - 1`` (seats as given) and keeps each game's answers
in ``--store`` (JSON lines: same rule set + seed + answers = same game), so a second run
plays only the games the store lacks (``--stored-only``: none). Every stored game is then
replayed, and at the start of every turn it records, for each player, the numbers of
``ckdsl.bots.descriptors`` (what that player may see) and whether that player went on to
win. A logistic regression of the win on the standardized numbers (statsmodels' ``Logit``,
maximum likelihood) gives the model; with ``--base``, that model's log-odds are kept as an
offset and only the numbers ``--refine`` names are fitted on top (a binomial GLM). The
seeds from ``--holdout`` of the way on are left out of the fit and score it: the log loss
and accuracy there, against the base rate's, go in the file's record with the games,
seeds, bots, rule set and its hash. An unfinished game is a loss for every seat.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import yaml

from ckdsl.bots import bot_seed, parse_players
from ckdsl.bots.descriptors import NAMES, Describer
from ckdsl.bots.learned import load_model
from ckdsl.session import GameSetup, load_rules, start


def play(rules: str, players: str, seed: int) -> dict[str, object]:
    """One game of the line-up ``players`` (seats as given): its seed, winner and answers
    (enough to replay it through ``Game.answer``: same rule set + seed + answers = same
    game)."""
    specs = parse_players(players)
    game = start(GameSetup(rules=rules, players=len(specs), seed=seed), log=False)
    bots = [spec.make(bot_seed(seed, s)) for s, spec in enumerate(specs)]
    game.play_out(bots)
    return {"seed": seed, "players": players, "winner": game.state.winner,
            "answers": game.history}  # fmt: skip


def _tuples(value: object) -> object:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def positions(rules: str, played: dict[str, object]) -> tuple[list[list[float]], list[int]]:
    """A stored game replayed: the rows (one per player at the start of each turn, what
    that player may see) and each row's player."""
    players = str(played["players"])
    game = start(GameSetup(rules=rules, players=len(players.split(",")),
                           seed=int(played["seed"])), log=False)  # type: ignore[call-overload]  # fmt: skip
    describer = Describer(game.rules)
    rows: list[list[float]] = []
    seats: list[int] = []
    seen = -1
    for option in played["answers"]:  # type: ignore[attr-defined]
        state = game.state
        if state.turn > seen and not state.rolled and state.turn > 0:
            seen = state.turn
            for p in range(game.n):
                rows.append(describer.describe(game, p))
                seats.append(p)
        game.answer(_tuples(option))  # type: ignore[arg-type]
    return rows, seats


def stored(path: Path) -> list[dict[str, object]]:
    """The games of a store (JSON lines), in the order played."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def fit(
    x: np.ndarray, y: np.ndarray, offset: np.ndarray | None = None
) -> tuple[float, list[float], np.ndarray, np.ndarray]:
    """A logistic regression of ``y`` on the standardized columns of ``x``, each row's
    ``offset`` (a base model's log-odds) added: the intercept, coefficients, means, scales."""
    import statsmodels.api as sm

    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales == 0] = 1.0
    z = sm.add_constant((x - means) / scales, has_constant="add")
    if offset is None:
        result = sm.Logit(y, z).fit(disp=False, maxiter=200)
    else:
        result = sm.GLM(y, z, family=sm.families.Binomial(), offset=offset).fit()
    params = [float(v) for v in result.params]
    return params[0], params[1:], means, scales


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument(
        "--players", action="append", default=[], help="a line-up (again for another one)"
    )
    parser.add_argument("--rules", default="base")
    parser.add_argument("--holdout", type=float, default=0.8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--store", type=Path, default=Path("runs/learned-games.jsonl"))
    parser.add_argument("--out", type=Path, default=Path("rules/bots/learned.yaml"))
    parser.add_argument(
        "--stored-only", action="store_true", help="fit on the stored games only, play none"
    )
    parser.add_argument("--base", type=Path, help="a model to refine (see --refine)")
    parser.add_argument(
        "--refine",
        default="level_lead,defence,attack_risk,near_win",
        help="with --base: the descriptors fitted on top of its log-odds",
    )
    parser.add_argument("--note", help="a sentence for the record (e.g. which bots played)")
    args = parser.parse_args(argv)
    lineups = args.players or ["heuristic,heuristic,heuristic,heuristic"]
    seeds = list(range(args.seed, args.seed + args.games))
    games = [g for g in stored(args.store) if g["players"] in lineups and g["seed"] in seeds]
    have = {(g["players"], g["seed"]) for g in games}
    todo = (
        [] if args.stored_only else [(p, s) for p in lineups for s in seeds if (p, s) not in have]
    )
    args.store.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(args.jobs) as pool, args.store.open("a", encoding="utf-8") as out:
        for played in pool.map(play, [args.rules] * len(todo), [p for p, _ in todo],
                               [s for _, s in todo]):  # fmt: skip
            out.write(json.dumps(played) + "\n")
            out.flush()
            games.append(played)
        games.sort(key=lambda g: (lineups.index(str(g["players"])), int(g["seed"])))  # type: ignore[call-overload]
        rows = list(pool.map(positions, [args.rules] * len(games), games, chunksize=4))
    present = sorted({int(g["seed"]) for g in games})  # type: ignore[call-overload]
    cut = present[int(len(present) * args.holdout)] if args.holdout < 1 else present[-1] + 1
    xs: list[list[list[float]]] = [[], []]
    ys: list[list[int]] = [[], []]
    unfinished = 0
    for played, (xrows, seats) in zip(games, rows, strict=True):
        part = 0 if int(played["seed"]) < cut else 1  # type: ignore[call-overload]
        winner = int(played["winner"])  # type: ignore[call-overload]
        unfinished += winner < 0
        xs[part].extend(xrows)
        ys[part].extend(int(seat == winner) for seat in seats)
    x, y = np.array(xs[0]), np.array(ys[0], dtype=float)
    names = list(NAMES)
    base: dict[str, object] | None = None
    if args.base is not None:
        # Refine a model: its log-odds kept as they are (an offset), the intercept and the
        # coefficients of the descriptors --refine names fitted on top of them.
        names = args.refine.split(",")
        base = yaml.safe_load(args.base.read_text(encoding="utf-8"))
        model = load_model(str(args.base))
    columns = [NAMES.index(n) for n in names]

    def offset(rows: np.ndarray) -> np.ndarray | None:
        return None if base is None else np.array([model.logit(list(r)) for r in rows])

    intercept, coefficients, means, scales = fit(x[:, columns], y, offset(x))
    record: dict[str, object] = {
        "bots": lineups if len(lineups) > 1 else lineups[0],
        "rules": args.rules,
        "ruleset_hash": load_rules(args.rules).compiled.ruleset_hash,
        "games": len(games),
        "unfinished": unfinished,
        "seeds": f"{present[0]}..{present[-1]}",
        "fitted_on": f"{present[0]}..{cut - 1} ({len(y)} positions)",
        "method": "logistic regression, maximum likelihood (statsmodels Logit), standardized",
    }
    if args.note:
        record["note"] = args.note
    if cut <= present[-1]:
        hx, hy = np.array(xs[1]), np.array(ys[1], dtype=float)
        z = intercept + ((hx[:, columns] - means) / scales) @ np.array(coefficients)
        shift = offset(hx)
        p = 1.0 / (1.0 + np.exp(-(z if shift is None else z + shift)))
        rate = float(np.mean(y))
        record["held_out"] = {
            "seeds": f"{cut}..{present[-1]}",
            "positions": len(hy),
            "log_loss": round(log_loss(p, hy), 4),
            "log_loss_base_rate": round(log_loss(np.full(len(hy), rate), hy), 4),
            "accuracy": round(float(np.mean((p > 0.5) == (hy > 0.5))), 4),
        }
    features = [
        {"name": n, "coefficient": round(c, 6), "mean": round(float(m), 6),
         "scale": round(float(s), 6)}
        for n, c, m, s in zip(names, coefficients, means, scales, strict=True)
    ]  # fmt: skip
    if base is not None:
        record["method"] = (f"{args.base}'s log-odds as an offset, then a logistic regression "
                            "of the descriptors refined (statsmodels GLM, binomial)")  # fmt: skip
        record["base"] = {"file": str(args.base), "record": base.get("record")}
        intercept += float(base["intercept"])  # type: ignore[arg-type]
        merged = [dict(f) for f in base["features"]]  # type: ignore[attr-defined]
        for f in features:
            same = [g for g in merged if g["name"] == f["name"]]
            if not same:
                merged.append(f)
                continue
            # A number the base reads already: one term, at the base's mean and scale
            # (c1 (x - m1) / s1 + c2 (x - m2) / s2 = (c1 + c2 s1 / s2) (x - m1) / s1
            # + c2 (m1 - m2) / s2).
            g = same[0]
            c2, m2, s2 = float(f["coefficient"]), float(f["mean"]), float(f["scale"])
            g["coefficient"] = round(float(g["coefficient"]) + c2 * float(g["scale"]) / s2, 6)
            intercept += c2 * (float(g["mean"]) - m2) / s2
        features = merged
    data = {"version": 1, "record": record, "intercept": round(intercept, 6), "features": features}
    header = (
        "# The learned bot's model (ckdsl/bots/learned.py, docs/bots.md): written by\n"
        f"# python tools/fit_learned.py {' '.join(argv if argv is not None else sys.argv[1:])}\n"
    )
    args.out.write_text(header + yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    shown = {n: round(c, 3) for n, c in zip(names, coefficients, strict=True)}
    print(f"{len(y)} positions; coefficients {shown}; {record.get('held_out')}")
    return 0 if all(math.isfinite(c) for c in coefficients) else 1


if __name__ == "__main__":
    sys.exit(main())
