"""The results store: one folder per experiment, one row per game, safe to kill.

A store is a folder (``--out DIR``) holding:

- ``_manifest.json``: the format and its version, the experiment (rule set and its hash,
  line-ups with the bots' versions, map, layout, master seed, seat rotation, number of
  seeds), the engine and package versions, what made it (``provenance``: the source
  digest and git commit, the build, the libraries' versions; ``ckdsl.sim.provenance``),
  the text of every rule file of the rule set (``rule_files``), when it was created, and
  every run's command line and source digest. Its name starts with ``_`` so that Parquet
  readers skip it: ``pd.read_parquet(DIR)``, ``pl.read_parquet("DIR/*.parquet")`` and
  DuckDB's ``read_parquet('DIR/*.parquet')`` read the folder as one table.
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
differs. A folder made by other ckdsl sources (its games may not be what these sources
play) takes no new game (:meth:`Store.refuse_other_sources`) and its readers are warned
(:class:`OtherSources`). Each chunk is checked
against the manifest when read (:func:`check_chunk`): one holding rows of another rule
set, master seed, line-up or bots is refused, naming the file. Compaction replaces small
chunks through a journal, so that a kill never leaves a row twice (:meth:`Store.compact`).

The number of seeds may change: asking for more seeds extends the store (the
first seeds' games are kept and only the new ones are played); asking for fewer plays
nothing and reports on the seeds asked for.
"""

from __future__ import annotations

import contextlib
import datetime
import importlib
import json
import os
import re
import stat
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from ckdsl import arguments, native
from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.files import sync_folder, write_whole
from ckdsl.jsondata import JsonObject, JsonValue, arr, integer, obj
from ckdsl.sim import provenance
from ckdsl.sim.games import EVENTS, Key, checked_key, game_seed, seat_positions
from ckdsl.sim.metrics import arrow_type
from ckdsl.userfiles import UnsafeFile, check_regular, read_user_bytes

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

    from ckdsl.sim.experiment import Row

FORMAT = "ckdsl-sim-store"
VERSION = 1
MANIFEST = "_manifest.json"
LOCK = ".lock"
KEY_COLUMNS = ("seed_index", "lineup", "rotation")
COMPACT_ROWS = 5000
"""After a run, consecutive chunks smaller than this are merged into chunks this big."""
CHUNK = re.compile(r"chunk-(\d{6,})\.parquet")
_TEMP = re.compile(r"\.chunk-\d+\.parquet\..*\.tmp")
_JOURNAL = re.compile(r"\.compact-(\d{6,})\.json")
"""A compaction under way: which chunks the merged chunk (its number) replaces."""
_RETIRED = ".retired"
"""The suffix of a chunk a compaction has hidden (``.chunk-N.parquet.retired``)."""
MANIFEST_BYTES = 64 * 1024 * 1024
CHUNK_BYTES = 2**40  # a chunk is checked for its kind (a regular file), hardly its size
"""The most a manifest may hold (the rule texts of a big variant chain are well under)."""

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


class OtherSources(UserWarning):
    """A results folder read was made by other ckdsl sources than those running: its
    games may not be what these sources play (``ckdsl.sim.provenance``)."""


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


def columns(identity: Mapping[str, JsonValue] | None = None) -> list[tuple[str, str, str]]:
    """Every column: (name, type, description), the base columns, the metrics, then the
    user metrics of the experiment ``identity`` (``WorkSpec.identity()``), if any."""
    from ckdsl.sim.metrics import METRIC_COLUMNS

    out = [*BASE_COLUMNS, *METRIC_COLUMNS, *user_columns(identity or {})]
    names = [name for name, _, _ in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RuntimeError(f"columns defined twice: {', '.join(twice)}")
    return out


def user_columns(identity: Mapping[str, JsonValue]) -> list[tuple[str, str, str]]:
    """The columns of the user metrics an experiment's identity names (``user_metrics``)."""
    from ckdsl.sim.user_metrics import MetricFormula

    out = []
    for found in arr(identity.get("metrics") or []):
        metric = obj(found)
        name, formula = metric.get("name"), metric.get("formula")
        if isinstance(name, str) and isinstance(formula, str):
            out.append(MetricFormula(name, formula, metric.get("per_player") is True).column())
    return out


def schema(identity: Mapping[str, JsonValue] | None = None) -> pa.Schema:
    """The Parquet schema of the rows (of the experiment ``identity``: its user metrics
    too); each field's description in its metadata."""
    import pyarrow as pa

    return pa.schema(
        [
            pa.field(name, arrow_type(kind), metadata={"description": doc})
            for name, kind, doc in columns(identity)
        ]
    )


def package_versions() -> dict[str, str | None]:
    """Python's version and those of the libraries that compute or draw the results."""
    return provenance.library_versions()


def _rule_files(describe: Mapping[str, JsonValue]) -> JsonValue:
    """The texts of the rule set's files (``provenance.rule_files``); None when the
    experiment names no rule set (a store opened by hand)."""
    rules = describe.get("rules")
    if not isinstance(rules, str):
        return None
    try:
        return [*provenance.rule_files(rules)]
    except (CkdslError, OSError):
        return None


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
    """The manifest of the store ``out``; StoreError if there is none or it is broken
    (not a regular file, not JSON, not a manifest's shape), naming the file."""
    folder = Path(out)
    path = folder / MANIFEST
    if folder.exists() and not folder.is_dir():
        raise _error(folder, "is a file, not a results folder")
    text = _read_regular(path, folder)
    try:
        data: JsonValue = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreError(
            [Diagnostic(str(path), exc.lineno, exc.colno, f"not valid JSON: {exc.msg}")]
        ) from None
    except RecursionError:
        raise _error(path, "not a ckdsl results manifest (nested too deeply)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _error(path, f"not a ckdsl results manifest (format is not '{FORMAT}')")
    if data.get("version") != VERSION:
        raise _error(
            path,
            f"results format version {data.get('version')!r}; this ckdsl reads version "
            f"{VERSION}: use the ckdsl that wrote it, or another folder",
        )
    shapes = {"kind": str, "experiment": dict, "runs": list, "columns": list}
    for key, kind in shapes.items():
        if not isinstance(data.get(key), kind):
            raise _error(
                path,
                f"a damaged manifest: '{key}' is missing or not {_A[kind]}; delete the "
                "folder (or restore the manifest) and run again",
            )
    return data


_A = {str: "a string", dict: "an object", list: "a list"}


def _read_regular(path: Path, folder: Path) -> str:
    """The text of the manifest ``path``, opened without blocking (a FIFO or a device
    in its place is refused, never waited on) and no bigger than MANIFEST_BYTES."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise _error(folder, f"not a results folder (it has no {MANIFEST})") from None
    except OSError as exc:
        raise _error(path, f"cannot read the manifest: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _error(path, "the manifest is not a regular file (a pipe, device or folder)")
        if info.st_size > MANIFEST_BYTES:
            raise _error(path, f"the manifest is too big ({info.st_size} bytes)")
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(MANIFEST_BYTES + 1)
    except OSError as exc:
        raise _error(path, f"cannot read the manifest: {exc.strerror}") from None
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(path, f"cannot read the manifest: not UTF-8 ({exc.reason})") from None


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
    "metrics": "the user metrics (--metric) differ",
    "events": "whether each game's event log is kept (--keep-events) differs",
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
        self.schema: pa.Schema = schema(obj(manifest.get("experiment", {})))
        self.keys: set[Key] = set()
        self._next = 1
        self.other_sources: str | None = None
        """Why no game may be added: the folder was made by other ckdsl sources (its
        rows do not say which run played them, so games of two sources in one folder
        could never be told apart again). It can still be read."""

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
            identity = {**identity, "columns": [name for name, _, _ in columns(identity)]}
            manifest = cls._manifest(folder, describe, identity, games, kind, command)
            store = cls(folder, manifest, lock_fd)
            store.other_sources = provenance.source_note(manifest, str(folder))
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
            "source_digest": provenance.source_digest(),
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
            if provenance.source_note(manifest, str(folder)) is not None:
                return manifest  # read only: ``write`` refuses (see ``other_sources``)
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
                    for name, t, doc in columns(identity)
                ],
                "packages": {**package_versions()},
                "provenance": provenance.provenance(),
                "rule_files": _rule_files(describe),
                "runs": [run],
            }
        text = json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"
        try:
            write_whole(path, text.encode("utf-8"), sync=True)
        except OSError as exc:
            raise _error(folder, f"cannot write to the results folder: {exc.strerror}") from None
        return manifest

    def _clean(self) -> None:
        """Finish or undo a compaction a killed run left, and remove its temporary files
        (we hold the lock: nobody writes)."""
        recover(self.path)
        for path in self.path.iterdir():
            if _TEMP.fullmatch(path.name) or (
                path.name.startswith((f".{MANIFEST}.", "..compact-")) and path.name.endswith(".tmp")
            ):
                with contextlib.suppress(OSError):
                    path.unlink()

    def _read_keys(self) -> None:

        experiment = obj(self.manifest.get("experiment", {}))
        for path in chunk_files(self.path):
            self._next = max(self._next, _number(path) + 1)
            table = read_chunk(path, columns=list(CHECKED_COLUMNS))
            check_chunk(path, table, experiment)
            self.keys.update(_keys(table))

    def write(self, rows: Sequence[Row]) -> Path | None:
        """Store ``rows`` as a new chunk (atomically); rows of keys already stored are
        dropped. Returns the chunk's path (None if nothing was new)."""
        import pyarrow as pa

        self.refuse_other_sources()
        fresh = []
        for row in rows:
            key = _key(row)
            log = row.pop(EVENTS, None)
            if key in self.keys:
                continue
            if isinstance(log, bytes):  # before its row: every stored row has its log
                from ckdsl.sim import event_logs

                try:
                    event_logs.write(self.path, key, log)
                except OSError as exc:
                    raise _error(self.path, f"cannot write an event log: {exc.strerror}") from None
            fresh.append(row)
        if not fresh:
            return None
        final = self._write_table(pa.Table.from_pylist(fresh, schema=self.schema))
        self.keys.update(_key(r) for r in fresh)
        return final

    def _write_table(self, table: pa.Table) -> Path:
        """``table`` as the next chunk: a hidden temporary file, synced, then renamed."""
        final = self.path / f"chunk-{self._next:06d}.parquet"
        tmp = self._write_file(table, self._next)
        try:
            os.replace(tmp, final)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise _error(self.path, f"cannot write results: {exc.strerror}") from None
        sync_folder(self.path)
        self._next += 1
        return final

    def _write_file(self, table: pa.Table, number: int) -> Path:
        """``table`` written and synced under the hidden temporary name of chunk ``number``."""
        import pyarrow.parquet as pq

        tmp = self.path / f".chunk-{number:06d}.parquet.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as f:
                pq.write_table(table, f, compression="zstd")
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise _error(self.path, f"cannot write results: {exc.strerror}") from None
        return tmp

    def refuse_other_sources(self) -> None:
        """StoreError if the folder was made by other sources (``other_sources``)."""
        if self.other_sources is not None:
            raise _error(
                self.path / MANIFEST,
                f"{self.other_sources}: games of these sources cannot join it. Give another "
                "folder, or run the sources that made it.",
            )

    @property
    def next_chunk(self) -> int:
        """The number the next chunk written will have."""
        return self._next

    def compact(self, since: int = 0, rows: int = COMPACT_ROWS) -> int:
        """Merge runs of consecutive small chunks numbered ``since`` or more into chunks
        of up to ``rows`` rows, so that a long run leaves a few files, not one per batch
        (the runner compacts the chunks of its own run only: files of earlier runs stay
        as they are). Returns how many files fewer there are.

        Safe to kill at any moment, and no reader ever sees a row twice: a journal
        (``.compact-N.json``) names the chunks the merged chunk N replaces; they are
        hidden (renamed ``.chunk-....retired``, which Parquet readers skip) before the
        merged chunk is renamed into place, and removed after. A kill in between is
        finished or undone by the next open (:func:`recover`): rows may be missing for
        that moment, never twice.
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        groups: list[list[Path]] = []
        group: list[Path] = []
        total = 0
        for path in chunk_files(self.path):
            if _number(path) < since:
                continue
            _regular_chunk(path)
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
                table = read_chunk(path)
                mask = [key not in seen for key in _keys(table)]
                seen.update(_keys(table))
                tables.append(table if all(mask) else table.filter(pa.array(mask)))
            self._replace(paths, pa.concat_tables(tables))
            fewer += len(paths) - 1
        return fewer

    def _replace(self, paths: Sequence[Path], table: pa.Table) -> None:
        """Put ``table`` in place of the chunks ``paths``, through a journal (``compact``)."""
        number = self._next
        journal = self.path / f".compact-{number:06d}.json"
        names = [p.name for p in paths]
        try:
            write_whole(journal, json.dumps(names).encode(), sync=True)
            temporary = self._write_file(table, number)
            for path in paths:
                os.replace(path, _retired(path))
            sync_folder(self.path)
            os.replace(temporary, self.path / f"chunk-{number:06d}.parquet")
            sync_folder(self.path)
            self._next += 1
            _finish(self.path, journal, names, done=True)
        except OSError as exc:  # the next open finishes or undoes it (``recover``)
            raise _error(self.path, f"cannot merge chunks: {exc.strerror}") from None

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


def _retired(chunk: Path) -> Path:
    return chunk.with_name(f".{chunk.name}{_RETIRED}")


def recover(folder: Path) -> None:
    """Finish each compaction a kill interrupted (its merged chunk is in place: remove
    the chunks it replaced) or undo it (not in place: bring them back). Call it holding
    the folder's lock."""
    for journal in sorted(folder.glob(".compact-*.json")):
        match = _JOURNAL.fullmatch(journal.name)
        if match is None:
            continue
        try:  # (never a FIFO planted there: refused, not waited on)
            names = json.loads(read_user_bytes(journal, MANIFEST_BYTES))
        except (UnsafeFile, ValueError):
            names = None  # cut short while written: nothing was renamed yet
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            names = []
        merged = folder / f"chunk-{int(match.group(1)):06d}.parquet"
        _finish(folder, journal, names, done=merged.exists())


def _finish(folder: Path, journal: Path, names: Sequence[str], *, done: bool) -> None:
    for name in names:
        chunk = folder / Path(name).name
        hidden = _retired(chunk)
        with contextlib.suppress(FileNotFoundError):
            if done:
                hidden.unlink()
            else:
                os.replace(hidden, chunk)
    sync_folder(folder)
    journal.unlink(missing_ok=True)
    sync_folder(folder)


def _recover_unlocked(folder: Path) -> None:
    """A reader's :func:`recover`, when no run holds the folder (else the run will)."""
    if not any(folder.glob(".compact-*.json")):
        return
    try:
        fd = _lock(folder)
    except StoreError:
        return  # a run is writing (it recovers when it opens), or the folder is read-only
    try:
        recover(folder)
    finally:
        _unlock(fd)


def _keys(table: pa.Table) -> list[Key]:
    """The keys of a table's rows, in order."""
    seeds, lineups, rotations = (table.column(c).to_pylist() for c in KEY_COLUMNS)
    return list(zip(seeds, lineups, rotations, strict=True))


CHECKED_COLUMNS = (*KEY_COLUMNS, "rules", "rules_hash", "seed", "bots", "bot_versions")
"""The columns that tie a row to its experiment: :func:`check_chunk` reads them."""


def check_chunk(path: Path, table: pa.Table, experiment: Mapping[str, JsonValue]) -> None:
    """Refuse (StoreError naming the file) a chunk holding a row of another experiment
    than the manifest's: another rule set (label or hash), master seed, line-up, seating
    or bots' versions. A chunk copied from another folder would otherwise be read as
    games of this one (issue 29: two folders' chunks swapped reported the effect
    inverted)."""
    if table.num_rows == 0 or not experiment:
        return
    lineups = [[str(b) for b in arr(line)] for line in arr(experiment.get("lineups", []))]
    versions = [[str(v) for v in arr(line)] for line in arr(experiment.get("bot_versions", []))]
    master = experiment.get("master_seed")
    seats = len(lineups[0]) if lineups else 0
    rotations = seats if experiment.get("rotate") else 1
    expected = {"rules_hash": experiment.get("rules_hash"), "rules": experiment.get("label")}
    for column, value in expected.items():
        found = set(table.column(column).to_pylist())
        if value is not None and found != {value}:
            other = ", ".join(sorted(str(f)[:12] for f in found - {value}))
            what = "label" if column == "rules" else "rules hash"
            raise _error(path, _foreign(f"games of another rule set ({what} {other})"))
    columns = {c: table.column(c).to_pylist() for c in CHECKED_COLUMNS[:3]}
    seeds, bots, bot_versions = (
        table.column(c).to_pylist() for c in ("seed", "bots", "bot_versions")
    )
    derived: dict[int, int] = {}
    for i, index in enumerate(columns["seed_index"]):
        lineup, rotation = columns["lineup"][i], columns["rotation"][i]
        if not (0 <= lineup < len(lineups) and 0 <= rotation < rotations) or index < 0:
            raise _error(path, _foreign(f"a game ({index}, {lineup}, {rotation}) it does not have"))
        if isinstance(master, int):
            seed = derived.get(index)
            if seed is None:
                seed = derived[index] = game_seed(master, index)
            if seeds[i] != seed:
                raise _error(path, _foreign("games of another master seed (--seed)"))
        places = seat_positions(seats, rotation)
        if bots[i] != [lineups[lineup][p] for p in places]:
            raise _error(path, _foreign(f"games of other players ({','.join(bots[i] or [])})"))
        if versions and bot_versions[i] != [versions[lineup][p] for p in places]:
            raise _error(path, _foreign("games of other bot versions"))


def _foreign(what: str) -> str:
    return (
        f"this chunk holds {what}, not those of the folder's {MANIFEST}: it comes from "
        "another results folder; remove it (or put it back where it came from)"
    )


def read_chunk(path: Path, columns: list[str] | None = None) -> pa.Table:
    """The chunk ``path`` as a table (only ``columns`` when given); StoreError naming it
    if it is not a regular file (a FIFO in its place would block a reader) or not a
    Parquet file ckdsl can read."""
    import pyarrow.parquet as pq

    _regular_chunk(path)
    try:
        return pq.read_table(path, columns=columns)
    except Exception as exc:
        raise _broken(path, exc) from None


def _regular_chunk(path: Path) -> None:
    try:
        check_regular(path, limit=CHUNK_BYTES)
    except UnsafeFile as exc:
        raise _error(
            path,
            f"cannot read this chunk ({exc.message}); remove it (and run again to replay its "
            "games)",
        ) from None


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


def read_table(out: Path | str, keys: Iterable[Key] | None = None, *, _caller: int = 2) -> pa.Table:
    """Every row of the store ``out`` (only those of ``keys`` when given), each key once
    (the first stored), sorted by key, as a pyarrow Table."""
    import pyarrow as pa
    import pyarrow.compute as pc

    require_pyarrow()
    folder = arguments.file_path(out, "out")  # (a str or a Path: a notebook's)
    keys = _checked_keys(keys)
    manifest = read_manifest(folder)
    _recover_unlocked(folder)
    other = provenance.source_note(manifest, str(folder))
    if other is not None:
        warnings.warn(OtherSources(other), stacklevel=_caller)  # at the reader's caller
    experiment = obj(manifest["experiment"])
    wanted = set(keys) if keys is not None else None
    tables = []
    seen: set[Key] = set()
    for path in chunk_files(folder):
        table = read_chunk(path)
        try:
            check_chunk(path, table, experiment)
        except KeyError as exc:
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
        return schema(experiment).empty_table()
    try:
        table = pa.concat_tables(tables)
    except pa.ArrowInvalid as exc:
        raise _error(folder, f"its chunks have different columns: {exc}") from None
    order = pc.sort_indices(table, sort_keys=[(c, "ascending") for c in KEY_COLUMNS])
    return table.take(order)


def _checked_keys(keys: object) -> list[Key] | None:
    if keys is None:
        return None
    if isinstance(keys, (str, bytes)) or not isinstance(keys, Iterable):
        raise TypeError(f"keys takes game keys (such as Experiment.keys()), not {keys!r:.40}")
    return [checked_key(key, "each of keys") for key in keys]


def read_results(out: Path | str, keys: Iterable[Key] | None = None) -> pd.DataFrame:
    """The store ``out`` as a pandas DataFrame, one row per game, sorted by key (only
    the games of ``keys`` when given, e.g. ``Experiment.keys()``). List columns (bots,
    points) hold numpy arrays, as pyarrow converts them."""
    return read_table(out, keys, _caller=3).to_pandas()
