"""The results store: one folder per experiment, one row per game, safe to kill.

A store is a folder (``--out DIR``) holding:

- ``_manifest.json``: the format and its version, the experiment (rule set and its hash,
  line-ups with the bots' versions, map, layout, master seed, seat rotation, number of
  seeds), the engine and package versions, when it was created, and every run's command
  line. Its name starts with ``_`` so that Parquet readers skip it: ``pd.read_parquet(DIR)``,
  ``pl.read_parquet("DIR/*.parquet")`` and DuckDB's ``read_parquet('DIR/*.parquet')`` read
  the folder as one table.
- ``chunk-000001.parquet``, ``chunk-000002.parquet``, ...: the rows, with the fixed schema
  :func:`schema` (:data:`BASE_COLUMNS` then the metric columns of ``ckdsl.sim.metrics``).
  Each file is written under a hidden temporary name in the same folder, flushed to disk
  and renamed into place, so a chunk is either whole or absent: a run killed at any
  moment (even with SIGKILL) loses at most the games it was playing. Left-over temporary
  files are removed when the store is next opened.
- ``.lock``: held (``flock``) by the run writing to the store, so two runs never write
  to one folder at once.

A game's key is ``(seed_index, lineup, rotation)``. Opening a store for an experiment
reads the keys it holds; the runner plays only the missing ones. Rows are never
rewritten: should a key appear twice (it cannot, short of copying chunk files by hand),
readers keep the first (the lowest chunk number).

The manifest decides what may join a store: the same rule-set label and hash, line-ups,
bot versions, map, layout, master seed, rotation and engine version, and the same columns.
Anything else is refused with a :class:`StoreError` naming the manifest and what
differs. The number of seeds may change: asking for more seeds extends the store (the
first seeds' games are kept and only the new ones are played); asking for fewer plays
nothing and reports on the seeds asked for.
"""

from __future__ import annotations

import contextlib
import datetime
import importlib.metadata
import json
import os
import platform
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from ckdsl import native
from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.files import sync_folder, write_whole
from ckdsl.jsondata import JsonObject, JsonValue, arr, integer, obj
from ckdsl.sim.experiment import Key, Row
from ckdsl.sim.metrics import arrow_type

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

FORMAT = "ckdsl-sim-store"
VERSION = 1
MANIFEST = "_manifest.json"
LOCK = ".lock"
KEY_COLUMNS = ("seed_index", "lineup", "rotation")
COMPACT_ROWS = 5000
"""After a run, consecutive chunks smaller than this are merged into chunks this big."""
CHUNK = re.compile(r"chunk-(\d{6,})\.parquet")
_TEMP = re.compile(r"\.chunk-\d+\.parquet\..*\.tmp")

BASE_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("rules", "string", "the rule set's label (its name, or --label)"),
    ("rules_hash", "string", "SHA-256 of the merged rules: the rules the game was played under"),
    ("seed_index", "int64", "the game's seed number in the experiment (0, 1, ...)"),
    ("lineup", "int32", "which line-up of the experiment played (0 for simulate)"),
    ("rotation", "int32", "seat rotation r: seat s holds the line-up's bot (s - r) mod n"),
    ("seed", "uint64", "the game's seed, derived from the master seed and seed_index"),
    ("engine_version", "string", "the ckdsl version that played the game"),
    ("bots", "list<string>", "the full spec of the bot in each seat"),
    ("bot_versions", "list<string>", "the version of the bot in each seat"),
    ("winner_seat", "int32", "the winner's seat, -1 if the game hit the turn limit"),
    ("winner_bot", "string", "the winner's bot spec, null if the game hit the turn limit"),
    ("points", "list<int32>", "victory points of each seat at the end"),
    ("turns", "int32", "turns played"),
    ("decisions", "int32", "answers given (decisions) in the game"),
    ("finished", "bool", "whether the game ended with a winner (not at the turn limit)"),
    ("seconds", "float64", "wall time of the game: the only column that varies between runs"),
)


class StoreError(CkdslError):
    """A folder that cannot be a results store, or holds another experiment."""


def _error(where: Path | str, message: str) -> StoreError:
    return StoreError([Diagnostic(str(where), 0, 0, message)])


def require_pyarrow() -> None:
    """Raise a one-line StoreError if the ``sim`` extra is missing."""
    try:
        importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise _error(
            "ckdsl", 'results need pyarrow, which is not installed: pip install "ckdsl[sim]"'
        ) from None


def columns() -> list[tuple[str, str, str]]:
    """Every column: (name, type, description), the base columns then the metrics."""
    from ckdsl.sim.metrics import METRIC_COLUMNS

    out = [*BASE_COLUMNS, *METRIC_COLUMNS]
    names = [name for name, _, _ in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RuntimeError(f"columns defined twice: {', '.join(twice)}")
    return out


def schema() -> pa.Schema:
    """The Parquet schema of the rows; each field's description in its metadata."""
    import pyarrow as pa

    return pa.schema(
        [
            pa.field(name, arrow_type(kind), metadata={"description": doc})
            for name, kind, doc in columns()
        ]
    )


def package_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in ("ckdsl", "pyarrow", "pandas", "numpy", "dask", "distributed"):
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _number(chunk: Path) -> int:
    match = CHUNK.fullmatch(chunk.name)
    assert match is not None, chunk
    return int(match.group(1))


def chunk_files(out: Path) -> list[Path]:
    """The store's chunk files, in the order they were written."""
    found = []
    for path in out.iterdir():
        match = CHUNK.fullmatch(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return [path for _, path in sorted(found)]


def read_manifest(out: Path | str) -> JsonObject:
    """The manifest of the store ``out``; StoreError if there is none or it is broken."""
    folder = Path(out)
    path = folder / MANIFEST
    if folder.exists() and not folder.is_dir():
        raise _error(folder, "is a file, not a results folder")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _error(folder, f"not a results folder (it has no {MANIFEST})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _error(path, f"cannot read the manifest: {exc}") from None
    try:
        data: JsonValue = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreError(
            [Diagnostic(str(path), exc.lineno, exc.colno, f"not valid JSON: {exc.msg}")]
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _error(path, f"not a ckdsl results manifest (format is not '{FORMAT}')")
    if data.get("version") != VERSION:
        raise _error(
            path,
            f"results format version {data.get('version')!r}; this ckdsl reads version "
            f"{VERSION}: use the ckdsl that wrote it, or another folder",
        )
    return data


_NAMES = {
    "label": "the rule set's label differs (give --label with the stored one to add to it)",
    "rules_hash": "the rules differ (their hash)",
    "lineups": "the players (bot line-ups) differ",
    "bot_versions": "the bots' versions differ",
    "players": "the number of players differs",
    "map_hash": "the map differs",
    "layout": "the layout differs",
    "master_seed": "the master seed (--seed) differs",
    "rotate": "the seat rotation (--rotate-seats) differs",
    "engine_version": "the engine version differs",
    "columns": "the result columns differ (another ckdsl records other metrics)",
}


def _show(value: JsonValue) -> str:
    if isinstance(value, list):
        rows = [v for v in value if isinstance(v, list)]
        if len(rows) == len(value):
            return " | ".join(",".join(str(x) for x in v) for v in rows)
    if isinstance(value, str) and len(value) == 64:
        return value[:12]
    return json.dumps(value)


def differences(stored: Mapping[str, JsonValue], now: Mapping[str, JsonValue]) -> list[str]:
    """What differs between two experiment identities, in words."""
    out = []
    for key, words in _NAMES.items():
        if stored.get(key) != now.get(key):
            out.append(f"{words} (stored: {_show(stored.get(key))}; now: {_show(now.get(key))})")
    return out


def _key(row: Row) -> Key:
    """The key (seed_index, lineup, rotation) of a game's row."""
    index, lineup, rotation = row["seed_index"], row["lineup"], row["rotation"]
    if not (isinstance(index, int) and isinstance(lineup, int) and isinstance(rotation, int)):
        raise TypeError(f"a row's key is not three integers: {index!r}, {lineup!r}, {rotation!r}")
    return index, lineup, rotation


class Store:
    """An open results folder, locked for writing. Use :meth:`open`; close it (or use it
    as a context manager) to release the lock."""

    def __init__(self, path: Path, manifest: JsonObject, lock_fd: int | None) -> None:
        self.path = path
        self.manifest = manifest
        self._lock_fd = lock_fd
        self.schema: pa.Schema = schema()
        self.keys: set[Key] = set()
        self._next = 1

    @classmethod
    def open(
        cls,
        out: Path | str,
        describe: JsonObject,
        identity: JsonObject,
        *,
        games: int,
        kind: str = "simulate",
        command: Sequence[str] | None = None,
    ) -> Store:
        """Open (creating it if needed) the store ``out`` for an experiment.

        ``describe``: the experiment as the manifest records it; ``identity``: the part
        that must match a store's (``WorkSpec.identity()``); ``kind``: the command that
        makes the store (``simulate``, ``tournament``, ...). Raises StoreError for a path
        that is a file or cannot be written, a folder that is not a store, a store of
        another experiment or command, or one that another run is writing to."""
        require_pyarrow()
        folder = Path(out)
        if folder.exists() and not folder.is_dir():
            raise _error(folder, "is a file; give a folder for the results")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _error(folder, f"cannot create the results folder: {exc.strerror}") from None
        lock_fd = _lock(folder)
        try:
            identity = {**identity, "columns": [name for name, _, _ in columns()]}
            manifest = cls._manifest(folder, describe, identity, games, kind, command)
            store = cls(folder, manifest, lock_fd)
            store._clean()
            store._read_keys()
        except BaseException:
            _unlock(lock_fd)
            raise
        return store

    @staticmethod
    def _manifest(
        folder: Path,
        describe: JsonObject,
        identity: JsonObject,
        games: int,
        kind: str,
        command: Sequence[str] | None,
    ) -> JsonObject:
        path = folder / MANIFEST
        run: JsonObject = {
            "command": [*(command or sys.argv)],
            "started": _now(),
            "games": games,
            # compiled or pure Python, in this process (the same in local workers)
            "engine": native.status(),
        }
        if path.exists():
            manifest = read_manifest(folder)
            if manifest.get("kind") != kind:
                raise _error(
                    path,
                    f"this folder holds the results of 'ckdsl {manifest.get('kind')}', not of "
                    f"'ckdsl {kind}'; give another folder",
                )
            stored = obj(manifest.get("experiment", {}))
            differ = differences(stored, identity)
            if differ:
                raise _error(
                    path,
                    "this folder holds another experiment: "
                    + "; ".join(differ)
                    + ". Give another folder, or delete this one to start over.",
                )
            stored["games"] = max(integer(stored.get("games", 0)), games)
            manifest["runs"] = [*arr(manifest.get("runs", [])), run]
        else:
            strays = [
                p.name
                for p in folder.iterdir()
                if not p.name.startswith(".") and not _TEMP.fullmatch(p.name)
            ]
            if strays:
                shown = ", ".join(sorted(strays)[:3]) + (", ..." if len(strays) > 3 else "")
                raise _error(
                    folder,
                    f"is not empty and not a results folder (no {MANIFEST}; it holds "
                    f"{shown}); give a new or empty folder",
                )
            manifest = {
                "format": FORMAT,
                "version": VERSION,
                "kind": kind,
                "created": run["started"],
                "experiment": {**describe, **identity, "games": games},
                "columns": [
                    {"name": name, "type": str(arrow_type(t)), "description": doc}
                    for name, t, doc in columns()
                ],
                "packages": {**package_versions()},
                "runs": [run],
            }
        text = json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"
        try:
            write_whole(path, text.encode("utf-8"), sync=True)
        except OSError as exc:
            raise _error(folder, f"cannot write to the results folder: {exc.strerror}") from None
        return manifest

    def _clean(self) -> None:
        """Remove temporary files a killed run left (we hold the lock: nobody writes)."""
        for path in self.path.iterdir():
            if _TEMP.fullmatch(path.name) or (
                path.name.startswith(f".{MANIFEST}.") and path.name.endswith(".tmp")
            ):
                with contextlib.suppress(OSError):
                    path.unlink()

    def _read_keys(self) -> None:
        import pyarrow.parquet as pq

        for path in chunk_files(self.path):
            self._next = max(self._next, _number(path) + 1)
            try:
                table = pq.read_table(path, columns=list(KEY_COLUMNS))
            except Exception as exc:
                raise _broken(path, exc) from None
            self.keys.update(_keys(table))

    def write(self, rows: Sequence[Row]) -> Path | None:
        """Store ``rows`` as a new chunk (atomically); rows of keys already stored are
        dropped. Returns the chunk's path (None if nothing was new)."""
        import pyarrow as pa

        fresh = []
        for row in rows:
            if _key(row) not in self.keys:
                fresh.append(row)
        if not fresh:
            return None
        final = self._write_table(pa.Table.from_pylist(fresh, schema=self.schema))
        self.keys.update(_key(r) for r in fresh)
        return final

    def _write_table(self, table: pa.Table) -> Path:
        """``table`` as the next chunk: a hidden temporary file, synced, then renamed."""
        import pyarrow.parquet as pq

        name = f"chunk-{self._next:06d}.parquet"
        final = self.path / name
        tmp = self.path / f".{name}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as f:
                pq.write_table(table, f, compression="zstd")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, final)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise _error(self.path, f"cannot write results: {exc.strerror}") from None
        sync_folder(self.path)
        self._next += 1
        return final

    @property
    def next_chunk(self) -> int:
        """The number the next chunk written will have."""
        return self._next

    def compact(self, since: int = 0, rows: int = COMPACT_ROWS) -> int:
        """Merge runs of consecutive small chunks numbered ``since`` or more into chunks
        of up to ``rows`` rows, so that a long run leaves a few files, not one per batch
        (the runner compacts the chunks of its own run only: files of earlier runs stay
        as they are). Returns how many files fewer there are.

        Safe to kill at any moment: the merged chunk is written (atomically) before the
        chunks it replaces are removed, so a kill in between leaves every row twice, in
        identical copies, which readers reduce to one (and the next compaction removes).
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        groups: list[list[Path]] = []
        group: list[Path] = []
        total = 0
        for path in chunk_files(self.path):
            if _number(path) < since:
                continue
            try:
                count = pq.ParquetFile(path).metadata.num_rows
            except Exception as exc:
                raise _broken(path, exc) from None
            if group and total + count > rows:
                groups.append(group)
                group, total = [], 0
            if count >= rows:
                continue
            group.append(path)
            total += count
        groups.append(group)
        fewer = 0
        for paths in (g for g in groups if len(g) > 1):
            tables, seen = [], set()
            for path in paths:
                table = pq.read_table(path)
                mask = [key not in seen for key in _keys(table)]
                seen.update(_keys(table))
                tables.append(table if all(mask) else table.filter(pa.array(mask)))
            self._write_table(pa.concat_tables(tables))
            for path in paths:
                path.unlink()
            sync_folder(self.path)
            fewer += len(paths) - 1
        return fewer

    def close(self) -> None:
        if self._lock_fd is not None:
            _unlock(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _keys(table: pa.Table) -> list[Key]:
    """The keys of a table's rows, in order."""
    seeds, lineups, rotations = (table.column(c).to_pylist() for c in KEY_COLUMNS)
    return list(zip(seeds, lineups, rotations, strict=True))


def _broken(path: Path, exc: Exception) -> StoreError:
    return _error(
        path,
        f"cannot read this chunk ({type(exc).__name__}: {exc}); it was not written by "
        "ckdsl or was damaged afterwards: delete it and run again to replay its games",
    )


def _lock(folder: Path) -> int | None:
    """Take the folder's write lock; StoreError if it cannot be written or is taken."""
    path = folder / LOCK
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise _error(folder, f"cannot write to the results folder: {exc.strerror}") from None
    try:
        import fcntl
    except ImportError:  # Windows: no advisory lock
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise _error(
            folder,
            "another run is writing to this results folder; wait for it to end, or give "
            "another folder",
        ) from None
    return fd


def _unlock(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)  # closing the file releases the flock


def read_table(out: Path | str, keys: Iterable[Key] | None = None) -> pa.Table:
    """Every row of the store ``out`` (only those of ``keys`` when given), each key once
    (the first stored), sorted by key, as a pyarrow Table."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    require_pyarrow()
    folder = Path(out)
    read_manifest(folder)
    wanted = set(keys) if keys is not None else None
    tables = []
    seen: set[Key] = set()
    for path in chunk_files(folder):
        try:
            table = pq.read_table(path)
        except Exception as exc:
            raise _broken(path, exc) from None
        chunk_keys = _keys(table)
        mask = []
        for key in chunk_keys:
            keep = key not in seen and (wanted is None or key in wanted)
            mask.append(keep)
            if keep:
                seen.add(key)
        if not all(mask):
            table = table.filter(pa.array(mask, type=pa.bool_()))
        tables.append(table)
    if not tables:
        return schema().empty_table()
    try:
        table = pa.concat_tables(tables)
    except pa.ArrowInvalid as exc:
        raise _error(folder, f"its chunks have different columns: {exc}") from None
    order = pc.sort_indices(table, sort_keys=[(c, "ascending") for c in KEY_COLUMNS])
    return table.take(order)


def read_results(out: Path | str, keys: Iterable[Key] | None = None) -> pd.DataFrame:
    """The store ``out`` as a pandas DataFrame, one row per game, sorted by key (only
    the games of ``keys`` when given, e.g. ``Experiment.keys()``). List columns (bots,
    points) hold numpy arrays, as pyarrow converts them."""
    return read_table(out, keys).to_pandas()
