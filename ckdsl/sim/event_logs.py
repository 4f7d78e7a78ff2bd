"""Each game's event log, kept in the results folder for analyses nobody planned.

With ``--keep-events`` (``Experiment(keep_events=True)``) every game of a run keeps its
log (``Game.events``: the engine's events, one plain dict each, as ``docs/events.md``
lists them) in the results folder, one compressed file per game::

    DIR/_events/game-000012-0-3.jsonl.gz     (seed_index 12, line-up 0, rotation 3)

one JSON object per line, gzip-compressed (about 5 KB for a game of heuristic bots).
The folder's name starts with ``_``, so Parquet readers of ``DIR`` skip it. A log is
written (whole, then renamed into place) before the chunk holding its game's row, so
every stored row has its log; a kill in between leaves a log without a row, which the
game's replay writes again identically.

Reading them back::

    from ckdsl.sim.event_logs import read_events, iter_events
    events = read_events("runs/x", (12, 0, 3))            # one game's list of dicts
    for key, events in iter_events("runs/x"):             # every game, in key order
        walls = [e for e in events if e["event"] == "build" and e["piece"] == "city_wall"]

e.g. "walls built before the first barbarian attack" is the number of ``build`` events
of a ``city_wall`` before the first ``attack`` event.
"""

from __future__ import annotations

import errno
import gzip
import io
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from ckdsl import arguments
from ckdsl.files import write_whole
from ckdsl.sim.games import Key, checked_key
from ckdsl.userfiles import NO_SUCH_FILE, UnsafeFile, read_user_bytes

FOLDER = "_events"
_NAME = re.compile(r"game-(\d{6,})-(\d+)-(\d+)\.jsonl\.gz")


def encode(events: Sequence[object]) -> bytes:
    """A game's events as gzip-compressed JSON lines (the same bytes for the same game:
    no time stamp in the gzip header)."""
    lines = "".join(json.dumps(e, separators=(",", ":"), default=str) + "\n" for e in events)
    return gzip.compress(lines.encode("utf-8"), compresslevel=6, mtime=0)


def log_path(out: Path | str, key: Key) -> Path:
    """Where the log of game ``key`` of the results folder ``out`` is kept; a TypeError
    naming the argument for a wrong type."""
    index, lineup, rotation = checked_key(key)
    folder = arguments.file_path(out, "out")
    return folder / FOLDER / f"game-{index:06d}-{lineup}-{rotation}.jsonl.gz"


def write(out: Path, key: Key, data: bytes) -> None:
    """Keep a game's encoded log (whole or not at all)."""
    path = log_path(out, key)
    path.parent.mkdir(exist_ok=True)
    write_whole(path, data)


MAX_LOG_BYTES = 256 * 1024 * 1024
"""The most a log is read to, unpacked (a game's event budget keeps one far below)."""


def read_events(out: Path | str, key: Key) -> list[dict[str, object]]:
    """The events of game ``key`` (seed_index, lineup, rotation) of the results folder
    ``out``, in the order they happened. FileNotFoundError if the run kept no log of it
    (it was run without ``--keep-events``); ValueError naming the file if what stands
    there is no log (a FIFO or a device, refused unread; not gzip; not JSON lines)."""
    path = log_path(out, key)
    try:
        packed = read_user_bytes(path)
    except UnsafeFile as exc:
        if exc.message == NO_SUCH_FILE:
            message = "no event log (was the run made with --keep-events?)"
            raise FileNotFoundError(errno.ENOENT, message, str(path)) from None
        raise ValueError(f"{path}: cannot read this event log ({exc.message})") from None
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(packed)) as file:
            text = file.read(MAX_LOG_BYTES + 1)
        if len(text) > MAX_LOG_BYTES:
            raise ValueError(f"unpacked, it is over {MAX_LOG_BYTES:,} bytes")
        return [json.loads(line) for line in text.decode("utf-8").splitlines()]
    except (OSError, EOFError, ValueError, RecursionError) as exc:
        message = f"{path}: not an event log ckdsl wrote ({exc}); delete it to write it again"
        raise ValueError(message) from None


def logged_keys(out: Path | str) -> list[Key]:
    """The keys of the games whose logs the folder holds, in key order."""
    folder = arguments.file_path(out, "out") / FOLDER
    found = []
    for path in folder.iterdir() if folder.is_dir() else ():
        match = _NAME.fullmatch(path.name)
        if match:
            index, lineup, rotation = (int(g) for g in match.groups())
            found.append((index, lineup, rotation))
    return sorted(found)


def iter_events(out: Path | str) -> Iterator[tuple[Key, list[dict[str, object]]]]:
    """Every logged game of the folder: (key, its events), in key order."""
    for key in logged_keys(out):
        yield key, read_events(out, key)
