"""Tuning a bot's weights by self-play: CMA-ES over its weights file, games by the runner.

``ckdsl tune heuristic --against heuristic,heuristic,heuristic --budget 40 --out DIR``
searches multipliers of the numbers of a bot's weights file (the heuristic's
``rules/bots/heuristic.yaml`` weights, the learned bot's coefficients): CMA-ES (Hansen's
``cma`` package) proposes a vector ``x``, each number becomes ``number * exp(x_k)``, the
candidate is written as a weights file ``DIR/candidates/<hash>.yaml``, and it plays the
reference line-up on the same seeds as every other candidate (common random numbers,
seats rotated) through the experiment runner into its own store
``DIR/games/<hash>/``. The optimizer minimizes the negative **score**: the candidate's win
rate plus a tenth of its mean points as a share of the best points at its table (which
breaks the ties of a few games' win rates).

Resuming: the optimizer is seeded, and the games of a candidate are a deterministic
function of its weights file and the seeds, so a killed run started again asks the same
candidates in the same order, finds the games already in their stores (a store resumes
the games it lacks) and goes on where it stopped. ``DIR/record.json`` is rewritten after
every candidate: the command's settings, every candidate (its multipliers, file, games,
wins and score with a Wilson interval on its win rate), and the best so far, whose file is
copied to ``DIR/best.yaml``. The best candidate's score is biased upwards (it is the
maximum of noisy estimates): confirm it on other seeds (``ckdsl tournament`` or the
ladder) before trusting it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ckdsl.files import write_whole
from ckdsl.paths import rules_dir
from ckdsl.sim.experiment import Experiment, parse_lineup
from ckdsl.sim.games import game_seed
from ckdsl.sim.stats.proportions import wilson
from ckdsl.userfiles import UnsafeFile, read_user_yaml

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Tunable:
    """A bot whose numbers live in a file: the parameter naming the file, the file
    shipped, and which numbers of it are searched (``leaf(path)``)."""

    param: str
    bundled: str  # under the rules folder
    leaf: Callable[[tuple[str, ...]], bool]


TUNABLE: dict[str, Tunable] = {
    "heuristic": Tunable("weights", "bots/heuristic.yaml", lambda path: path[0] == "weights"),
    "learned": Tunable("model", "bots/learned.yaml", lambda path: path[-1] == "coefficient"),
}


class TuneError(ValueError):
    """A bot that cannot be tuned, a weight that is not in its file."""


def leaves(data: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], float]]:
    """Every number of a YAML document with its path (list items by index, features by
    their ``name``)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, str(key)))
    elif isinstance(data, list):
        for k, value in enumerate(data):
            name = str(value["name"]) if isinstance(value, dict) and "name" in value else str(k)
            yield from leaves(value, (*path, name))
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        yield path, float(data)


def replaced(data: Any, values: dict[tuple[str, ...], float], path: tuple[str, ...] = ()) -> Any:
    """``data`` with the numbers at the paths of ``values`` replaced."""
    if isinstance(data, dict):
        return {key: replaced(value, values, (*path, str(key))) for key, value in data.items()}
    if isinstance(data, list):
        out = []
        for k, value in enumerate(data):
            name = str(value["name"]) if isinstance(value, dict) and "name" in value else str(k)
            out.append(replaced(value, values, (*path, name)))
        return out
    return values.get(path, data)


@dataclass(frozen=True)
class Settings:
    """What a tuning run searches and how; the same settings resume the same run."""

    bot: str
    against: tuple[str, ...]
    budget: int  # candidates evaluated
    games: int  # seeds per candidate (each with every rotation)
    seed: int = 0  # the games' master seed and the optimizer's seed
    sigma: float = 0.3  # the optimizer's first step, on the log of the multipliers
    only: tuple[str, ...] = ()  # the weights searched (dotted paths); empty: all
    start: str = ""  # the weights file to start from (empty: the bundled one)
    rules: str = "base"


def base_file(settings: Settings) -> Path:
    tunable = TUNABLE.get(settings.bot)
    if tunable is None:
        raise TuneError(f"'{settings.bot}' has no weights to tune (tunable: {', '.join(TUNABLE)})")
    return Path(settings.start) if settings.start else rules_dir() / tunable.bundled


def searched(settings: Settings, data: Any) -> list[tuple[tuple[str, ...], float]]:
    """The numbers searched: the bot's tunable ones, those named by ``only`` if given."""
    tunable = TUNABLE[settings.bot]
    found = [(path, value) for path, value in leaves(data) if tunable.leaf(path) and value]
    if settings.only:
        names = {".".join(path): (path, value) for path, value in found}
        unknown = [name for name in settings.only if name not in names]
        if unknown:
            raise TuneError(f"no weight {', '.join(unknown)}; the weights: {', '.join(names)}")
        found = [names[name] for name in settings.only]
    if not found:
        raise TuneError("no non-zero weight to search")
    return found


def tune(
    settings: Settings,
    out: Path,
    play: Callable[[Experiment, Path], pd.DataFrame],
    say: Callable[[str], None] = lambda line: None,
) -> dict[str, Any]:
    """Run (or resume) the search; ``play(experiment, folder)`` plays the games the store
    ``folder`` lacks and returns them all (the command passes the runner with its
    options). Returns the record."""
    import cma
    import yaml

    start = base_file(settings)
    try:  # a regular file only: a FIFO or a device would never end
        data = read_user_yaml(start)
    except UnsafeFile as exc:
        raise TuneError(f"{start}: not a weights file: {exc.message}") from None
    numbers = searched(settings, data)
    against = parse_lineup(list(settings.against))
    tunable = TUNABLE[settings.bot]
    (out / "candidates").mkdir(parents=True, exist_ok=True)
    options = {"seed": settings.seed + 1, "verbose": -9, "maxfevals": settings.budget}
    # cma needs two dimensions at least: with one weight, a second that nothing reads
    es = cma.CMAEvolutionStrategy([0.0] * max(2, len(numbers)), settings.sigma, options)
    record: dict[str, Any] = {
        "settings": {**settings.__dict__, "against": list(against)},
        "start": str(start),
        "seeds": [game_seed(settings.seed, k) for k in range(settings.games)],
        "rotations": "every seat: the tuned bot sits in each seat on each seed",
        "weights": [".".join(path) for path, _ in numbers],
        "score": "win rate + 0.1 x mean points / the table's best points (higher is better)",
        "optimizer": f"CMA-ES (cma {cma.__version__}), on log-multipliers",
        "candidates": [],
    }
    evaluated = 0
    while evaluated < settings.budget and not es.stop():
        xs = es.ask()
        scores = []
        for x in xs:
            if evaluated >= settings.budget:
                break
            factors = [math.exp(float(v)) for v in x[: len(numbers)]]
            values = {
                path: round(value * f, 6) for (path, value), f in zip(numbers, factors, strict=True)
            }
            text = yaml.safe_dump(replaced(data, values), sort_keys=False)
            digest = hashlib.sha256(text.encode()).hexdigest()[:12]
            file = out / "candidates" / f"{digest}.yaml"
            if not file.exists():
                write_whole(file, text.encode())
            spec = f"{settings.bot}:{tunable.param}={file.resolve()}"
            experiment = Experiment(
                rules=settings.rules,
                lineups=((*parse_lineup([spec]), *against),),
                games=settings.games,
                seed=settings.seed,
                rotate=True,
            )
            folder = out / "games" / digest
            result = _score(play(experiment, folder))
            evaluated += 1
            scores.append(-result["score"])
            entry = {
                "number": evaluated,
                "file": str(file),
                "multipliers": {
                    ".".join(path): round(f, 4)
                    for (path, _), f in zip(numbers, factors, strict=True)
                },
                **result,
            }
            record["candidates"].append(entry)
            best = max(record["candidates"], key=lambda c: (c["score"], -c["number"]))
            record["best"] = best
            write_whole(out / "best.yaml", Path(best["file"]).read_bytes())
            write_whole(out / "record.json", (json.dumps(record, indent=2) + "\n").encode())
            say(
                f"candidate {evaluated}/{settings.budget}: score {result['score']:.3f} "
                f"(won {result['wins']} of {result['games']}); best {best['score']:.3f}"
            )
        if len(scores) == len(xs):
            es.tell(xs, scores)
    return record


def _score(df: pd.DataFrame) -> dict[str, Any]:
    """The tuned bot's results in a candidate's games: it is the line-up's first bot, so
    with rotation ``r`` it sits in seat ``r``."""
    games = len(df)
    wins = 0
    share = 0.0
    for rotation, winner, points in zip(
        df["rotation"], df["winner_seat"], df["points"], strict=True
    ):
        wins += int(winner) == int(rotation)
        share += min(1.0, int(points[int(rotation)]) / max(1, max(int(p) for p in points)))
    rate = wilson(wins, games).to_json()
    score = (wins + 0.1 * share) / games if games else 0.0
    return {"games": games, "wins": wins, "win_rate": rate, "score": round(score, 6)}
