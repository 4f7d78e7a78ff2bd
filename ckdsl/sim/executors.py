"""Where the games run: in this process, in local worker processes, or on Dask.

Every executor takes batches of game keys and gives back each batch's rows as one list
when the batch is done (in completion order). Workers receive the experiment's
:class:`~ckdsl.sim.experiment.WorkSpec` once (the rules as data, compiled once per
worker process) and then only keys: seeds, never games.

- :class:`InProcess` (``--jobs 1``): no pool, no pickling; the batches run here.
- :class:`Processes` (``--jobs N``): a ``concurrent.futures.ProcessPoolExecutor`` with an
  explicit start method ("forkserver" on Linux, "spawn" elsewhere: never "fork", which
  is unsafe in a process with threads), whose initializer compiles the rules once per
  worker. A worker whose parent dies (killed with SIGKILL) exits instead of lingering.
- :class:`Dask` (``--scheduler local-dask`` or ``tcp://HOST:PORT``): a
  ``distributed.LocalCluster`` of ``N`` single-threaded worker processes, or a client of
  a running scheduler (``dask scheduler``, then ``dask worker tcp://HOST:8786`` on each
  machine, each with ckdsl installed). The work spec is scattered to the workers once.

The runner sizes the batches (:attr:`Executor.batch_seconds` of play each) so that the
cost of a task (pickling, scheduling, writing a chunk) stays far below 2% of its work
while progress stays smooth.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import TracebackType
from typing import TYPE_CHECKING

from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.sim.experiment import Row, WorkSpec, play_batch, prepared
from ckdsl.sim.games import Key

if TYPE_CHECKING:
    import distributed

LOCAL_DASK = "local-dask"

PRELOAD = [
    "ckdsl.sim.experiment",
    "ckdsl.session",
    "ckdsl.turn.game",
    "ckdsl.bots",
    "ckdsl.sim.metrics",
]
"""What the fork server imports once, so that each worker starts with it loaded."""


def cpu_count() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _error(message: str) -> CkdslError:
    return CkdslError([Diagnostic("ckdsl", 0, 0, message)])


def require_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise _error(
            "running on Dask needs dask[distributed], which is not installed: "
            'pip install "ckdsl[sim]"'
        ) from None


class Executor:
    """Runs batches of games; subclasses say where."""

    name = "executor"
    batch_seconds = 2.0  # the play time a batch should hold
    workers = 1
    on_game: Callable[[], None] | None = None
    """Set by the runner: called after each game, by executors that can (in-process);
    the others report progress by batch."""

    @property
    def slots(self) -> int:
        """How many batches to keep submitted at once (two per worker: none idles)."""
        return 2 * self.workers

    def start(self, spec: WorkSpec) -> None:
        raise NotImplementedError

    def submit(self, keys: Sequence[Key]) -> None:
        raise NotImplementedError

    def wait(self) -> list[list[Row]]:
        """Block until at least one batch is done; the rows of every finished batch.
        Raises GameFailed if a game failed, CkdslError if a worker died."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the workers; batches still running are abandoned."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class InProcess(Executor):
    """The batches run in this process, one at a time, when their rows are asked for."""

    name = "in-process"
    batch_seconds = 2.0

    def __init__(self) -> None:
        self._spec: WorkSpec | None = None
        self._queue: deque[tuple[Key, ...]] = deque()

    @property
    def slots(self) -> int:
        return 1

    def start(self, spec: WorkSpec) -> None:
        self._spec = spec
        prepared(spec)

    def submit(self, keys: Sequence[Key]) -> None:
        self._queue.append(tuple(keys))

    def wait(self) -> list[list[Row]]:
        assert self._spec is not None, "start() first"
        return [play_batch(self._spec, self._queue.popleft(), self.on_game)]


# --- local processes ---------------------------------------------------------------------

_WORKER_SPEC: WorkSpec | None = None


def _init_worker(spec: WorkSpec) -> None:
    """In each worker process: ignore Ctrl-C (the parent handles it), exit when the
    parent dies, and compile the rules once."""
    global _WORKER_SPEC
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        sentinel = parent.sentinel

        def watch() -> None:
            multiprocessing.connection.wait([sentinel])
            os._exit(1)

        threading.Thread(target=watch, name="ckdsl-parent-watch", daemon=True).start()
    _WORKER_SPEC = spec
    prepared(spec)


def _run_batch(keys: tuple[Key, ...]) -> list[Row]:
    assert _WORKER_SPEC is not None, "the worker was not initialized"
    return play_batch(_WORKER_SPEC, keys)


def start_method() -> str:
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if sys.platform.startswith("linux") and "forkserver" in methods else "spawn"


class Processes(Executor):
    """A pool of ``workers`` local processes."""

    name = "processes"
    batch_seconds = 2.0

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._futures: set[Future[list[Row]]] = set()

    def start(self, spec: WorkSpec) -> None:
        context = multiprocessing.get_context(start_method())
        if context.get_start_method() == "forkserver":
            # The fork server imports the engine once; each worker forks from it.
            context.set_forkserver_preload(PRELOAD)
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=_init_worker,
            initargs=(spec,),
        )

    def submit(self, keys: Sequence[Key]) -> None:
        assert self._pool is not None, "start() first"
        self._futures.add(self._pool.submit(_run_batch, tuple(keys)))

    def wait(self) -> list[list[Row]]:
        from concurrent.futures.process import BrokenProcessPool

        done, self._futures = wait(self._futures, return_when=FIRST_COMPLETED)
        try:
            return [future.result() for future in done]
        except BrokenProcessPool:
            raise _error(
                "a worker process died (killed, or out of memory?); the games stored so far "
                "are kept: run the same command again to play the rest"
            ) from None

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for future in self._futures:
            future.cancel()
        # Workers still playing a batch are stopped: their games are lost (not stored).
        processes = dict(getattr(pool, "_processes", None) or {})
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes.values():
            if process.is_alive():
                process.terminate()
        for process in processes.values():
            process.join(timeout=5)


# --- Dask ---------------------------------------------------------------------------------


def dask_address(scheduler: str) -> str:
    """``dask://HOST:PORT`` as distributed spells it (``tcp://HOST:PORT``)."""
    if scheduler.startswith("dask://"):
        return "tcp://" + scheduler[len("dask://") :]
    if "://" not in scheduler:
        return "tcp://" + scheduler
    return scheduler


class Dask(Executor):
    """A Dask cluster: a LocalCluster of ``workers`` processes (address None), or the
    cluster of the scheduler at ``address``."""

    name = "dask"
    batch_seconds = 5.0

    def __init__(self, address: str | None, workers: int, *, quiet: bool = True) -> None:
        require_dask()
        from distributed import Client, LocalCluster

        self._cluster: distributed.LocalCluster | None = None
        self.address = address
        try:
            if address is None:
                self._cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR if quiet else logging.WARNING,
                )
                self._client: distributed.Client = Client(self._cluster)
            else:
                self._client = Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:  # (ValueError: a bad address)
            self.close()
            where = address or "a local cluster"
            raise _error(f"cannot reach the Dask scheduler at {where}: {exc}") from None
        threads = sum(self._client.nthreads().values())
        if threads == 0:
            self.close()
            raise _error(f"the Dask scheduler at {address} has no workers; start some first")
        self.workers = threads
        self._spec: distributed.Future | None = None
        self._futures: set[distributed.Future] = set()

    @property
    def dashboard(self) -> str | None:
        """The cluster's dashboard, if it has one."""
        try:
            services = self._client.scheduler_info().get("services", {})
        except Exception:  # a scheduler too old or too busy to say: no link
            return None
        link = getattr(self._client, "dashboard_link", None)
        return str(link) if link and "dashboard" in services else None

    def start(self, spec: WorkSpec) -> None:
        # Once per worker, not once per task: the rules travel as data, a few kilobytes.
        self._spec = self._client.scatter(spec, broadcast=True, hash=False)

    def submit(self, keys: Sequence[Key]) -> None:
        future = self._client.submit(play_batch, self._spec, tuple(keys), pure=False)
        self._futures.add(future)

    def wait(self) -> list[list[Row]]:
        from distributed import wait as dask_wait

        done, pending = dask_wait(list(self._futures), return_when="FIRST_COMPLETED")
        self._futures = set(pending)
        return [future.result() for future in done]

    def close(self) -> None:
        client, self._client = getattr(self, "_client", None), None
        for future in getattr(self, "_futures", ()):
            future.cancel()
        if client is not None:
            client.close()
        cluster, self._cluster = self._cluster, None
        if cluster is not None:
            cluster.close()


def make_executor(scheduler: str | None, jobs: int | None, games: int) -> Executor:
    """The executor for ``--scheduler`` and ``--jobs`` (None: every core), never more
    local workers than ``games``."""
    workers = max(1, min(jobs or cpu_count(), games))
    if scheduler is None or scheduler in ("local", "processes"):
        return InProcess() if workers == 1 else Processes(workers)
    if scheduler == LOCAL_DASK:
        return Dask(None, workers)
    return Dask(dask_address(scheduler), workers)
