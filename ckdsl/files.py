"""Writing a file whole or not at all, for every file ckdsl writes on its own behalf (the
caches, experiment results and reports): a reader, or a run killed half-way, sees the old
file or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_whole(path: Path, data: bytes, *, sync: bool = False) -> None:
    """Write ``data`` to ``path`` through a hidden temporary file beside it, renamed over
    ``path`` once complete (``sync``: flushed to the disk first, and the folder after, so
    a power cut keeps it too). Raises OSError, leaving no temporary file behind."""
    import tempfile  # only when writing: not part of every command's start

    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp makes the file private (0600): give it the mode the file had, or the one
        # a new file gets, so a picture or a report stays readable as before.
        os.chmod(temporary, _mode_for(path))
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            if sync:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    if sync:
        sync_folder(path.parent)


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except OSError:  # a new file: what open() would give it under the umask
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename in it) to the disk, where the platform can."""
    with contextlib.suppress(OSError):  # not every platform can open a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
