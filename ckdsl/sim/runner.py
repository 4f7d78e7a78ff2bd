"""Running an experiment into a results store: only the missing games, in batches.

:func:`run` opens (or creates) the store, works out which of the experiment's games it
lacks, and plays those on an executor (``ckdsl.sim.executors``), writing each finished
batch as a chunk as soon as it arrives. A run stopped at any moment (Ctrl-C, SIGKILL, a
crash) keeps every batch already written; the same call again plays the rest.

Batches are sized by time: the first ones hold :data:`PROBE` games, after which each
holds about ``executor.batch_seconds`` of play at the measured rate (2 s locally, 5 s on
Dask; between 1 and :data:`MAX_BATCH` games, fewer near the end so that the last batches
spread over the workers). For random bots (about 35 ms a game) that is about 55 games a
batch locally and 140 on Dask, so a task's own cost (a few milliseconds: pickling,
scheduling, writing and syncing a chunk) stays well under 1%; slow bots get a few games a
batch. At the end of a run its chunks are merged (``Store.compact``), so a long run leaves
one file per 5,000 games rather than one per batch.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from ckdsl import arguments
from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.sim.experiment import (
    DEFAULT_PLAYERS,
    Experiment,
    GameFailed,
    Row,
    WorkSpec,
    prepare,
)
from ckdsl.sim.games import Key

if TYPE_CHECKING:
    import pandas as pd
    from rich.progress import Progress, TaskID

    from ckdsl.sim.executors import Executor

PROBE = 2
"""Games in each of the first batches, before the rate is known."""

MAX_BATCH = 500


@dataclass(frozen=True)
class RunResult:
    """What a run did: the experiment's games, how many were stored before, how many it
    played, its wall time (start-up included) and where."""

    out: Path
    requested: int
    stored_before: int
    played: int
    seconds: float
    workers: int
    executor: str

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        """One line for a terminal (never part of a summary: it holds the wall time)."""
        if self.played == 0:
            return f"all {self.requested} games were already stored in {self.out}"
        kept = f"; {self.stored_before} were already stored" if self.stored_before else ""
        workers = "1 worker" if self.workers == 1 else f"{self.workers} workers"
        return (
            f"played {self.played} games in {self.seconds:.1f} s "
            f"({self.games_per_second:.1f} games/s, {self.executor}, {workers}){kept}"
        )


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: the batches finished before it are stored."""

    def __init__(self, stored: int, requested: int, out: Path) -> None:
        super().__init__(stored, requested, out)
        self.stored, self.requested, self.out = stored, requested, out

    def __str__(self) -> str:
        return (
            f"interrupted: {self.stored} of {self.requested} games are stored in {self.out}; "
            "run the same command again to play the rest"
        )


def batch_size(per_game: float | None, remaining: int, workers: int, seconds: float) -> int:
    """How many games the next batch holds: ``seconds`` of play at ``per_game`` seconds a
    game, at most a share of what remains so that the end spreads over the workers."""
    size = PROBE if per_game is None else round(seconds / max(per_game, 1e-4))
    tail = math.ceil(remaining / (2 * workers)) if workers > 1 else remaining
    return max(1, min(size, MAX_BATCH, tail, remaining))


def run(
    experiment: Experiment,
    out: Path | str,
    *,
    jobs: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    command: Sequence[str] | None = None,
    kind: str = "simulate",
    spec: WorkSpec | None = None,
) -> RunResult:
    """Play the games of ``experiment`` that the store ``out`` lacks.

    ``jobs``: local worker processes (None: every core; 1: in this process, no pool) or,
    with ``scheduler="local-dask"``, the LocalCluster's workers. ``scheduler``: None for
    local processes, ``"local-dask"``, or a Dask scheduler's address (``tcp://HOST:PORT``
    or ``dask://HOST:PORT``). ``progress``: a progress bar on stderr. ``command``: the
    command line the manifest records (default ``sys.argv``). ``kind``: the command that
    owns the store. Raises CkdslError (broken rules, a store of another experiment, a
    game that failed), RunInterrupted on Ctrl-C.
    """
    from ckdsl.sim.executors import InProcess, make_executor
    from ckdsl.sim.store import Store

    arguments.instance(experiment, Experiment, "experiment", "Experiment.single(...)")
    folder = arguments.file_path(out, "out")  # (a str or a Path)
    if jobs is not None and arguments.whole(jobs, "jobs") < 1:
        raise ValueError(f"jobs takes a number of workers (1 or more), not {jobs}")
    began = time.perf_counter()
    spec = spec or prepare(experiment)
    with Store.open(
        folder, spec.describe(), spec.identity(), games=experiment.games, kind=kind, command=command
    ) as store:
        wanted = experiment.keys()
        first_chunk = store.next_chunk
        missing = [key for key in wanted if key not in store.keys]
        stored_before = len(wanted) - len(missing)
        if not missing:  # (a folder of other sources: nothing added; its readers warn)
            return RunResult(folder, len(wanted), stored_before, 0, 0.0, 0, "none")
        store.refuse_other_sources()  # before playing a game
        played = 0
        with (
            make_executor(scheduler, jobs, len(missing)) as executor,
            _Progress(progress, len(wanted), stored_before, spec.label) as bar,
        ):
            if progress and getattr(executor, "dashboard", None):
                bar.note(f"Dask dashboard: {executor.dashboard}")  # type: ignore[attr-defined]
            executor.start(spec)
            by_game = isinstance(executor, InProcess)
            if by_game:
                executor.on_game = lambda: bar.advance(1)
            try:
                for rows in _schedule(executor, missing):
                    store.write(rows)
                    played += len(rows)
                    if not by_game:
                        bar.advance(len(rows))
            except KeyboardInterrupt:
                raise RunInterrupted(stored_before + played, len(wanted), folder) from None
            except GameFailed as failed:
                raise _failure(failed, spec) from None
            workers, name = executor.workers, executor.name
        store.compact(since=first_chunk)
    return RunResult(
        folder, len(wanted), stored_before, played, time.perf_counter() - began, workers, name
    )


def simulate(
    rules: str = "base",
    players: str | Sequence[str] = DEFAULT_PLAYERS,
    games: int = 100,
    seed: int = 0,
    rotate: bool = False,
    *,
    jobs: int | None = 1,
    out: Path | str | None = None,
    scheduler: str | None = None,
    map: str = "standard",
    layout: str | None = None,
    label: str | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Play ``games`` seeds of ``rules`` with the bots ``players`` and return one row per
    game (a pandas DataFrame sorted by key), as ``ckdsl simulate`` does::

        from ckdsl.sim import simulate
        df = simulate("examples/variants/fifteen_points.yaml", "random,random,random,random",
                      games=200, rotate=True, jobs=2)

    ``out``: a results folder to keep (and resume) the games; None plays them in a
    temporary folder that is removed afterwards. The other arguments are those of
    :class:`~ckdsl.sim.experiment.Experiment` and :func:`run`. In a script, call it under
    ``if __name__ == "__main__":`` when ``jobs`` is not 1: worker processes import the
    main module.
    """
    import tempfile

    from ckdsl.sim.store import read_results

    experiment = Experiment.single(
        rules, players, games=games, seed=seed, rotate=rotate, map=map, layout=layout, label=label
    )
    if out is not None:
        run(experiment, out, jobs=jobs, scheduler=scheduler, progress=progress)
        return read_results(out, experiment.keys())
    with tempfile.TemporaryDirectory(prefix="ckdsl-simulate-") as folder:
        run(experiment, folder, jobs=jobs, scheduler=scheduler, progress=progress)
        return read_results(folder, experiment.keys())


def _seconds(row: Row) -> float:
    """How long the game of ``row`` took to play."""
    value = row["seconds"]
    if not isinstance(value, (int, float)):
        raise TypeError(f"a row's seconds are not a number: {value!r}")
    return float(value)


def _schedule(executor: Executor, missing: list[Key]) -> Iterator[list[Row]]:
    """Submit batches (sized by the measured rate) and yield each one's rows when done."""
    queue = deque(missing)
    in_flight = 0
    games, seconds = 0, 0.0
    while queue or in_flight:
        while queue and in_flight < executor.slots:
            per_game = seconds / games if games else None
            size = batch_size(per_game, len(queue), executor.workers, executor.batch_seconds)
            executor.submit([queue.popleft() for _ in range(size)])
            in_flight += 1
        for rows in executor.wait():
            in_flight -= 1
            games += len(rows)
            seconds += sum(_seconds(row) for row in rows)
            yield rows


def _failure(failed: GameFailed, spec: WorkSpec) -> CkdslError:
    """A failed game as a message that says how to play it again alone."""
    replay = ["ckdsl", "play", "--seed", str(failed.seed), "--players", ",".join(failed.bots)]
    if failed.key[2]:
        replay += ["--rotation", str(failed.key[2])]
    if spec.rules != "base":
        replay += ["--rules", spec.rules]
    if spec.map_name != "standard":
        replay += ["--map", spec.map_name]
    if spec.layout is not None:
        replay += ["--layout", spec.layout]
    notes = ["play it alone: " + " ".join(replay)]
    if os.environ.get("CKDSL_DEBUG"):
        notes += failed.trace.rstrip().splitlines()
    else:
        notes.append("set CKDSL_DEBUG=1 to see where it failed")
    return CkdslError([Diagnostic("ckdsl", 0, 0, str(failed), notes=tuple(notes))])


class _Progress:
    """A rich progress bar on a terminal; on anything else (a log file, a pipe) a plain
    line every :attr:`EVERY` seconds. Either on stderr; nothing when disabled."""

    EVERY = 30.0

    def __init__(self, enabled: bool, total: int, done: int, label: str) -> None:
        self.enabled, self.total, self.done, self.label = enabled, total, done, label
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._began = self._last = time.perf_counter()
        self._played = 0

    def __enter__(self) -> _Progress:
        if self.enabled and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("games  {task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("{task.fields[eta]}"),
                console=Console(stderr=True),
            )
            self._bar.start()
            self._task = self._bar.add_task(
                self.label, total=self.total, completed=self.done, rate="", eta=""
            )
        return self

    def note(self, text: str) -> None:
        if self._bar is not None:
            self._bar.console.print(text)
        elif self.enabled:
            print(text, file=sys.stderr, flush=True)

    def advance(self, games: int) -> None:
        """``games`` more are done. The rate is over the whole run so far (start-up
        included), steadier than over the last few batches, which arrive in bursts."""
        self.done += games
        self._played += games
        now = time.perf_counter()
        rate = self._played / max(now - self._began, 1e-9)
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        if self._bar is not None and self._task is not None:
            eta = f"about {_duration(left)} left" if self.done < self.total else ""
            self._bar.update(self._task, advance=games, rate=f"{rate:.1f}/s", eta=eta)
            return
        if self.enabled and now - self._last >= self.EVERY:
            self._last = now
            print(
                f"{self.label}: {self.done} of {self.total} games, {rate:.1f} games/s, "
                f"about {_duration(left)} left",
                file=sys.stderr,
                flush=True,
            )

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()


def _duration(time_left: float) -> str:
    seconds = round(time_left)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


__all__ = ["RunInterrupted", "RunResult", "batch_size", "run", "simulate"]
