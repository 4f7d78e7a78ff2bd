"""The cost of copying a game: ckdsl's ``Game.clone()`` against catanatron's
``Game.copy()``, on mid-game positions of real random-bot games, in one command.

    python benchmarks/clone.py [--catanatron PYTHON] [--positions N] [--reps R]
                               [--seed S] [--block SECONDS] [--json]

What is measured: the mean time of one copy of a position, over ``N`` positions per
engine. A position is a random-bot game stopped part-way: game ``k`` (seed ``S + k``) is
played to its end once, then replayed to the same fraction of its length on both sides,
the fractions spread evenly from the start to the end (so early, middle and late
positions, the third of the game each falls in being its phase). ckdsl plays Cities &
Knights and catanatron base Catan; each copies its own kind of game.

How: machines here are noisy, so the two engines are timed in the same time window, in
small alternating blocks (about ``--block`` seconds each: ckdsl, then catanatron,
``R`` times over). catanatron runs in one child process started once (``--catanatron``
names its interpreter), which builds its positions and then times a block whenever asked
(JSON lines on its stdin and stdout); the engine not being timed sits idle. Each block
copies every position the same number of times, with ``time.perf_counter`` around the
loops. Per repetition: µs per ckdsl clone, µs per catanatron copy and their ratio (ckdsl
/ catanatron: at most 1 means ckdsl copies at least as fast); then the median ratio, and
the cost by phase. The clone without the log (``clone(log=False)``, as searches copy) is
timed as well, in the same ckdsl blocks. Before timing, each ckdsl copy is checked: the
same state digest and decision as the original, and answers played on the copy leave the
original untouched.

How to install catanatron 3.3.0 for this benchmark: it is not on PyPI (3.2.1 is the last
release there), and its repository has no tag for it; every commit since the "Restructure
Project" one (May 2025) says 3.3.0 in its pyproject.toml. The one used here is the newest,
41ba0db5bc9d95b13a32e1ed7710094382a3b87a ("deterministic discards (#362)", March 2026),
where ``state.actions`` is already ``state.action_records``. The package is the
repository's root pyproject.toml (its code is under catanatron/catanatron); pip brings its
dependencies (networkx, click, rich). Python 3.11 or newer:

    git clone https://github.com/bcollazo/catanatron /work/catanatron-git
    mkdir -p /work/catanatron-src
    git -C /work/catanatron-git archive 41ba0db5bc9d95b13a32e1ed7710094382a3b87a \\
        | tar -x -C /work/catanatron-src
    python3 -m venv /work/catanatron-venv
    /work/catanatron-venv/bin/python -m pip install /work/catanatron-src

then ``python benchmarks/clone.py --catanatron /work/catanatron-venv/bin/python``.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from ckdsl.bots import RandomBot
from ckdsl.session import GameSetup, start
from ckdsl.turn.game import Game

PHASES = ("early", "mid", "late")

# The catanatron side: a child process that builds its positions, then times blocks of
# copies when asked, one JSON line in, one JSON line out.
CATANATRON = """
import gc, json, sys, time
from importlib.metadata import version
from catanatron import Color, Game, RandomPlayer

COLORS = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
PHASES = ("early", "mid", "late")
games = {phase: [] for phase in PHASES}


def new_game(seed):
    return Game([RandomPlayer(c) for c in COLORS], seed=seed)


def records(game):  # catanatron 3.3.0 renamed state.actions to state.action_records
    state = game.state
    return state.action_records if hasattr(state, "action_records") else state.actions


def build(positions):
    built = []
    for seed, fraction, phase in positions:
        full = new_game(seed)  # the seed reseeds the global RNG its players draw from
        full.play()
        length = len(records(full))
        at = min(length - 1, max(0, round(fraction * length)))
        game = new_game(seed)
        for _ in range(at):
            game.play_tick()
        games[phase].append(game)
        built.append({"seed": seed, "phase": phase, "at": at, "length": length})
    return built


def block(rounds):
    copy, seconds = Game.copy, {}
    gc.collect()
    for phase in PHASES:
        subset = games[phase]
        if subset:
            began = time.perf_counter()
            for _ in range(rounds):
                for game in subset:
                    copy(game)
            seconds[phase] = time.perf_counter() - began
    return {"seconds": seconds}


for line in sys.stdin:
    command = json.loads(line)
    if command["do"] == "build":
        reply = {"positions": build(command["positions"]), "version": version("catanatron")}
    elif command["do"] == "block":
        reply = block(command["rounds"])
    else:
        break
    print(json.dumps(reply), flush=True)
"""


class Catanatron:
    """The catanatron child process, started once and asked for blocks of copies."""

    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen(
            [python, "-c", CATANATRON], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, **command: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the catanatron process stopped (exit code {self.process.wait()})")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def block(self, rounds: int) -> dict[str, float]:
        seconds: dict[str, float] = self.ask(do="block", rounds=rounds)["seconds"]
        return seconds

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"do": "quit"}) + "\n")
        self.process.stdin.close()
        self.process.wait(timeout=30)


def plan(count: int, seed: int) -> list[tuple[int, float, str]]:
    """Each position's game seed, how far into its game it stands, and its phase."""
    positions = []
    for k in range(count):
        fraction = (k + 0.5) / count
        positions.append((seed + k, fraction, PHASES[min(2, int(fraction * 3))]))
    return positions


def ckdsl_positions(
    positions: list[tuple[int, float, str]], seed: int
) -> tuple[dict[str, list[Any]], list[dict[str, Any]]]:
    """The ckdsl positions: each game played to its end by random bots, then replayed
    (its answers, through ``Game.answer``) to the planned fraction of its length."""
    games: dict[str, list[Any]] = {phase: [] for phase in PHASES}
    built = []
    for k, (game_seed, fraction, phase) in enumerate(positions):
        setup = GameSetup(players=4, seed=game_seed)
        full = start(setup)
        bots = [RandomBot(seed * 7919 + k * 31 + p) for p in range(4)]
        play_to_end(full, bots)
        length = len(full.history)
        at = min(length - 1, max(0, round(fraction * length)))
        game = start(setup)
        for option in full.history[:at]:
            game.answer(option)
        games[phase].append(game)
        built.append({"seed": game_seed, "phase": phase, "at": at, "length": length})
    return games, built


def play_to_end(game: Any, bots: list[Any]) -> None:
    """The loop of ``session.play``."""
    while True:
        decision = game.pending
        if decision.kind == "over":
            return
        game.answer(bots[decision.player].choose(game.view(decision.player)))


Copier = tuple[Callable[..., Any], dict[str, Any]]  # a function and its keyword arguments


def copiers() -> dict[str, Copier]:
    """The ways ckdsl copies a game: with its log, and without (as searches do)."""
    return {"clone()": (Game.clone, {}), "clone(log=False)": (Game.clone, {"log": False})}


def ckdsl_block(
    games: dict[str, list[Any]], ways: dict[str, Copier], rounds: int
) -> dict[str, dict[str, float]]:
    """Seconds spent copying each phase's positions ``rounds`` times, per way of copying."""
    seconds: dict[str, dict[str, float]] = {}
    gc.collect()
    for name, (copier, keywords) in ways.items():
        seconds[name] = {}
        for phase in PHASES:
            subset = games[phase]
            if not subset:
                continue
            began = time.perf_counter()
            if keywords:
                for _ in range(rounds):
                    for game in subset:
                        copier(game, **keywords)
            else:
                for _ in range(rounds):
                    for game in subset:
                        copier(game)
            seconds[name][phase] = time.perf_counter() - began
    return seconds


def check_copies(games: dict[str, list[Any]], ways: dict[str, Copier]) -> list[str]:
    """What is wrong with the copies: another state or decision than the original's, or an
    original changed by answers played on its copy (not timed)."""
    problems = []
    for name, (copier, keywords) in ways.items():
        for phase in PHASES:
            for n, game in enumerate(games[phase]):
                where = f"{name}, {phase} position {n + 1}"
                before = game.state.digest()
                twin = copier(game, **keywords)
                if twin.state.digest() != before:
                    problems.append(f"{where}: the copy's state differs from the original's")
                    continue
                if twin.pending != game.pending:
                    problems.append(f"{where}: the copy owes another decision than the original")
                bot = RandomBot(n)
                for _ in range(30):
                    decision = twin.pending
                    if decision.kind == "over":
                        break
                    twin.answer(bot.choose(twin.view(decision.player)))
                if game.state.digest() != before or twin.history is game.history:
                    problems.append(f"{where}: answers played on the copy changed the original")
    return problems


def calibrate(block: Callable[[int], float], target: float) -> int:
    """How many rounds over the positions make a block of about ``target`` seconds."""
    rounds = 1
    block(rounds)  # warm up
    while (seconds := block(rounds)) < target / 8:
        rounds *= 2
    return max(1, round(rounds * target / seconds))


def per_copy(seconds: dict[str, float], counts: dict[str, int], rounds: int) -> float:
    """Microseconds per copy over every phase's positions."""
    copies = sum(counts[phase] for phase in seconds) * rounds
    return sum(seconds.values()) / copies * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catanatron", metavar="PYTHON", help="an interpreter with catanatron")
    parser.add_argument("--positions", type=int, default=20, help="positions per engine")
    parser.add_argument("--reps", type=int, default=5, help="repetitions of the two blocks")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--block", type=float, default=0.2, help="seconds per block (about)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    if args.positions < 1 or args.reps < 1:
        parser.error("--positions and --reps must be at least 1")

    positions = plan(args.positions, args.seed)
    counts = {phase: sum(p[2] == phase for p in positions) for phase in PHASES}
    games, built = ckdsl_positions(positions, args.seed)
    ways = copiers()
    problems = check_copies(games, ways)
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    main_way = next(iter(ways))

    cat: Catanatron | None = None
    cat_built: list[dict[str, Any]] = []
    cat_version = None
    if args.catanatron:
        cat = Catanatron(args.catanatron)
        reply = cat.ask(do="build", positions=positions)
        cat_built, cat_version = reply["positions"], reply["version"]

    def ckdsl_seconds(rounds: int) -> float:
        return sum(ckdsl_block(games, {main_way: ways[main_way]}, rounds)[main_way].values())

    ck_rounds = calibrate(ckdsl_seconds, args.block / len(ways))
    cat_rounds = calibrate(lambda r: sum(cat.block(r).values()), args.block) if cat else 0

    reps: list[dict[str, Any]] = []
    ck_phase: dict[str, dict[str, list[float]]] = {w: {p: [] for p in PHASES} for w in ways}
    cat_phase: dict[str, list[float]] = {p: [] for p in PHASES}
    for _ in range(args.reps):
        ck = ckdsl_block(games, ways, ck_rounds)
        rep: dict[str, Any] = {
            "ckdsl_us": {w: per_copy(ck[w], counts, ck_rounds) for w in ways},
        }
        for w in ways:
            for phase, s in ck[w].items():
                ck_phase[w][phase].append(s / (counts[phase] * ck_rounds) * 1e6)
        if cat is not None:
            cs = cat.block(cat_rounds)
            rep["catanatron_us"] = per_copy(cs, counts, cat_rounds)
            rep["ratio"] = rep["ckdsl_us"][main_way] / rep["catanatron_us"]
            for phase, s in cs.items():
                cat_phase[phase].append(s / (counts[phase] * cat_rounds) * 1e6)
        reps.append(rep)
    if cat is not None:
        cat.close()

    def medians(table: dict[str, list[float]]) -> dict[str, float]:
        return {phase: statistics.median(v) for phase, v in table.items() if v}

    result: dict[str, Any] = {
        "positions": args.positions,
        "phases": counts,
        "reps": args.reps,
        "seed": args.seed,
        "ckdsl_copies_per_block": ck_rounds * args.positions,
        "ckdsl_positions": built,
        "ckdsl_copy_problems": problems,
        "repetitions": reps,
        "ckdsl_us_median": {w: statistics.median(r["ckdsl_us"][w] for r in reps) for w in ways},
        "ckdsl_us_by_phase": {w: medians(ck_phase[w]) for w in ways},
    }
    if cat is not None:
        result.update(
            {
                "catanatron_python": args.catanatron,
                "catanatron_version": cat_version,
                "catanatron_copies_per_block": cat_rounds * args.positions,
                "catanatron_positions": cat_built,
                "catanatron_us_median": statistics.median(r["catanatron_us"] for r in reps),
                "catanatron_us_by_phase": medians(cat_phase),
                "median_ratio": statistics.median(r["ratio"] for r in reps),
            }
        )
    if args.json:
        print(json.dumps(result, indent=1))
        return
    report(result, list(ways), main_way)


def report(result: dict[str, Any], ways: list[str], main_way: str) -> None:
    counts = result["phases"]
    cat = "median_ratio" in result
    print("Copying a game in the middle of play, in one command, interleaved blocks")
    spread = ", ".join(f"{counts[p]} {p}" for p in PHASES)
    print(f"  positions   {result['positions']} per engine ({spread}), game seeds "
          f"{result['seed']}..{result['seed'] + result['positions'] - 1}")  # fmt: skip
    each = " each way" if len(ways) > 1 else ""
    print("  ckdsl       Game.clone(), Cities & Knights, "
          f"{result['ckdsl_copies_per_block']} copies per block{each}")  # fmt: skip
    if cat:
        print(f"  catanatron  {result['catanatron_version']} Game.copy(), base game, "
              f"{result['catanatron_copies_per_block']} copies per block "
              f"({result['catanatron_python']})")  # fmt: skip
    if result["ckdsl_copy_problems"]:
        print(f"  WARNING     {len(result['ckdsl_copy_problems'])} faulty ckdsl copies "
              "(listed on stderr): the times below copy something else than a game")  # fmt: skip
    print()
    head = "  rep  " + "".join(f"{'ckdsl ' + w:>24}" for w in ways)
    if cat:
        head += f"{'catanatron copy()':>20}{'ratio':>8}"
    print(head + ("   (µs per copy)" if not cat else ""))
    for n, rep in enumerate(result["repetitions"], start=1):
        line = f"  {n:>3}  " + "".join(f"{rep['ckdsl_us'][w]:>24.1f}" for w in ways)
        if cat:
            line += f"{rep['catanatron_us']:>20.1f}{rep['ratio']:>8.2f}"
        print(line)
    line = "  med  " + "".join(f"{result['ckdsl_us_median'][w]:>24.1f}" for w in ways)
    if cat:
        line += f"{result['catanatron_us_median']:>20.1f}{result['median_ratio']:>8.2f}"
    print(line)
    if cat:
        print(f"\n  median ratio {result['median_ratio']:.2f} (ckdsl {main_way} / catanatron "
              "copy(); at most 1: ckdsl copies at least as fast), µs per copy")  # fmt: skip
    print("\n  by phase, median µs per copy" + "".join(f"{p:>10}" for p in PHASES))
    rows = [(f"ckdsl {w}", result["ckdsl_us_by_phase"][w]) for w in ways]
    if cat:
        rows.append(("catanatron copy()", result["catanatron_us_by_phase"]))
    for name, by_phase in rows:
        cells = "".join(f"{by_phase[p]:>10.1f}" if p in by_phase else f"{'-':>10}" for p in PHASES)
        print(f"    {name:<26}{cells}")


if __name__ == "__main__":
    main()
