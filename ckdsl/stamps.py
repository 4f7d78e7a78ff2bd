"""File stamps and a cache that serves a value only while the files it came from are unchanged.

A long-running process (a notebook, a tournament, a server) loads a rule set or a map
once and starts many games from it; when the file is edited, the next load must see the
edit. A :class:`Stamp` records what a file (or a folder's listing) was when it was read:
its resolved path, ``st_mtime_ns`` and ``st_size``. A cached value stays valid while every
stamp it was built from still matches.

Timestamps are coarse (a few milliseconds on Linux, 2 s on FAT), so a file edited twice
within one tick can keep both its mtime and its size. As in git's "racily clean" rule, a
stamp taken while the file's mtime was recent (within :data:`RACY_NS` of the clock) also
keeps a digest of the content, and is only trusted when that content is unchanged.
Stamp a file *before* reading it: a change between the stamp and the read then makes the
next check fail and reload, never serve stale data.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

RACY_NS = 2_000_000_000
"""A file whose mtime is this recent may still change within the same mtime tick."""

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


@dataclass(frozen=True)
class Stamp:
    """What a file, or a folder's listing, was when it was read."""

    path: str  # resolved
    mtime_ns: int
    size: int
    digest: str | None = None  # the content's sha256, kept only when the mtime was recent

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> Stamp:
        """The stamp of ``path`` now. A missing file gets a stamp that never matches a file."""
        resolved = Path(path).resolve()
        try:
            st = resolved.stat()
        except OSError:
            return cls(str(resolved), -1, -1)
        digest = None
        if st.st_mtime_ns >= time.time_ns() - RACY_NS:
            digest = content_digest(resolved)
        return cls(str(resolved), st.st_mtime_ns, st.st_size, digest)

    def current(self) -> bool:
        """Whether the file still is what it was when this stamp was taken."""
        path = Path(self.path)
        try:
            st = path.stat()
        except OSError:
            return self.mtime_ns == -1
        if (st.st_mtime_ns, st.st_size) != (self.mtime_ns, self.size):
            return False
        return self.digest is None or content_digest(path) == self.digest


def content_digest(path: Path) -> str | None:
    """The sha256 of a file's bytes, or of a folder's sorted listing; None if unreadable."""
    import hashlib  # OpenSSL: only when a digest is wanted

    from ckdsl.userfiles import UnsafeFile, read_user_bytes

    try:
        if path.is_dir():
            data = "\n".join(sorted(os.listdir(path))).encode("utf-8", "surrogateescape")
        else:
            data = read_user_bytes(path)  # never a FIFO or a device: they would not end
    except (OSError, UnsafeFile):
        return None
    return hashlib.sha256(data).hexdigest()


def all_current(stamps: Iterable[Stamp]) -> bool:
    return all(stamp.current() for stamp in stamps)


class StampedCache(Generic[_K, _V]):
    """At most ``maxsize`` values, each served while the stamps it was loaded with are current.

    ``get(key, load)`` returns the cached value if all its stamps still match, else calls
    ``load()``, which returns the value and the stamps of every file it read (taken before
    reading). A ``load`` that raises caches nothing.
    """

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._entries: OrderedDict[_K, tuple[_V, tuple[Stamp, ...]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: _K, load: Callable[[], tuple[_V, Iterable[Stamp]]]) -> _V:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is not None and all_current(entry[1]):
            return entry[0]
        value, stamps = load()
        with self._lock:
            self._entries[key] = (value, tuple(stamps))
            self._entries.move_to_end(key)
            while len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
