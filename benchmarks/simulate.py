"""Throughput of the experiment runner against the plain in-process loop.

    python benchmarks/simulate.py [--games 200] [--repeats 3] [--jobs 2] [--seed 1]

The same random-bot games (the seeds of one experiment) are played, in one command, by:

- **plain**: ``start`` + ``play`` in a ``for`` loop, nothing recorded (the least any
  runner could cost), as ``benchmarks/throughput.py`` plays them but without the log;
- **plain+metrics**: the same loop with the per-game metrics recorder
  (``ckdsl.sim.metrics.GameRecorder``) that every stored row carries;
- **jobs 1**: ``ckdsl.sim.run`` with ``jobs=1`` (in this process): batches, rows, the
  metrics, Parquet chunks written and synced, the manifest, the lock;
- **jobs N**: ``run`` with ``jobs=N`` worker processes, pool start-up included.

Each repeat measures all four, in an order that turns from one repeat to the next so that
the machine's drift falls on all alike; the ratios are taken within a repeat and the
median over repeats is printed. Targets on an idle 2-core machine: jobs 1 / plain >= 0.9
and jobs 2 / jobs 1 >= 1.7.

The machines here are noisy (and shared): wall-clock rates drop whenever another process
takes a core. So the single-process modes are also timed in CPU seconds of this process
(``time.process_time``), which other processes disturb much less, and the load average
is printed with each repeat: a jobs-N figure means something only on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ckdsl.bots import RandomBot, bot_seed
from ckdsl.session import GameSetup, play, start
from ckdsl.sim.experiment import Experiment
from ckdsl.sim.games import game_seed
from ckdsl.sim.metrics import GameRecorder
from ckdsl.sim.runner import run

PLAYERS = "random,random,random,random"


Timing = tuple[float, float, int]
"""Wall seconds, CPU seconds of this process, decisions played."""


def plain(games: int, master: int, metrics: bool) -> Timing:
    """Timing of the experiment's games played in a plain loop."""
    decisions = 0
    cpu = time.process_time()
    began = time.perf_counter()
    for index in range(games):
        seed = game_seed(master, index)
        game = start(GameSetup(seed=seed), log=False)
        recorder = GameRecorder(game) if metrics else None
        play(game, [RandomBot(bot_seed(seed, s)) for s in range(4)])
        if recorder is not None:
            recorder.finish(game)
        decisions += len(game.history)
    return time.perf_counter() - began, time.process_time() - cpu, decisions


def runner(games: int, master: int, jobs: int) -> Timing:
    """Timing of everything ``run`` does for the same games (CPU: this process only)."""
    from ckdsl.sim.store import read_table

    experiment = Experiment.single("base", PLAYERS, games=games, seed=master)
    with tempfile.TemporaryDirectory(prefix="ckdsl-bench-") as folder:
        cpu = time.process_time()
        began = time.perf_counter()
        result = run(experiment, Path(folder) / "out", jobs=jobs, progress=False)
        seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
        assert result.played == games
        decisions = sum(read_table(Path(folder) / "out").column("decisions").to_pylist())
    return seconds, cpu, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="workers of the parallel run")
    parser.add_argument("--seed", type=int, default=1, help="the experiment's master seed")
    args = parser.parse_args()
    games, master = args.games, args.seed
    modes: dict[str, Callable[[], Timing]] = {
        "plain": lambda: plain(games, master, metrics=False),
        "plain+metrics": lambda: plain(games, master, metrics=True),
        "jobs 1": lambda: runner(games, master, 1),
        f"jobs {args.jobs}": lambda: runner(games, master, args.jobs),
    }
    names = list(modes)
    plain(4, master + 1, metrics=True)  # load, compile and warm up first
    rates: dict[str, list[float]] = {name: [] for name in names}
    cpu_rates: dict[str, list[float]] = {name: [] for name in names}
    decisions: dict[str, int] = {}
    print(f"{games} random-bot games per measurement, {args.repeats} repeats, interleaved")
    for repeat in range(args.repeats):
        shift = repeat % len(names)
        order = names[shift:] + names[:shift]
        line = []
        for name in order:
            seconds, cpu, count = modes[name]()
            rates[name].append(games / seconds)
            cpu_rates[name].append(games / cpu)
            decisions.setdefault(name, count)
            assert decisions[name] == count, "the same games must be played every time"
            line.append(f"{name} {games / seconds:6.1f}")
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"  repeat {repeat + 1}: " + "   ".join(line) + f"   (games/s; load {load})")
    assert len(set(decisions.values())) == 1, f"modes played different games: {decisions}"
    print()
    for name in names:
        cpu = f"{statistics.median(cpu_rates[name]):7.1f}" if name != names[-1] else "    n/a"
        print(
            f"  {name:<14} {statistics.median(rates[name]):7.1f} games/s wall, "
            f"{cpu} games per CPU second (medians)"
        )

    def ratio(a: str, b: str, table: dict[str, list[float]] = rates) -> float:
        return statistics.median(x / y for x, y in zip(table[a], table[b], strict=True))

    parallel = f"jobs {args.jobs}"
    print()
    print("  ratios (median over repeats)   wall    CPU")
    for a, b, note in (
        ("jobs 1", "plain", "(target >= 0.9)"),
        ("jobs 1", "plain+metrics", "(the runner's own cost)"),
        ("plain+metrics", "plain", "(the metrics' cost)"),
    ):
        label = f"{a} / {b}"
        print(f"  {label:<29} {ratio(a, b):5.2f}  {ratio(a, b, cpu_rates):5.2f}   {note}")
    target = "   (target >= 1.7 on 2 idle cores)" if args.jobs == 2 else ""
    label = f"{parallel} / jobs 1"
    print(f"  {label:<29} {ratio(parallel, 'jobs 1'):5.2f}     -{target}")


if __name__ == "__main__":
    main()
