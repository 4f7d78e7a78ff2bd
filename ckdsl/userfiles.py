"""Opening the files a user names (rules, variants, maps, scenarios, locales, saves),
safely: regular files only, of a bounded size, read without blocking.

A FIFO, a device (``/dev/zero``), a socket or a folder named where a file is expected
would block a read forever or never end; a file larger than any rule file or save would
take the memory. Those are refused by their kind, before a byte is read, with a message
that names the path and never shows the content.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_BYTES = 20_000_000
"""The largest file ckdsl reads for a user (a long game's save is well under 1 MB)."""

YAML_SUFFIXES = (".yaml", ".yml")
NO_SUCH_FILE = "no such file"  # UnsafeFile's message for a path where nothing stands


class UnsafeFile(Exception):
    """A path that is not a regular, readable file of a sensible size: ``message`` says
    why (without the file's content)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def check_regular(path: Path, limit: int = MAX_BYTES) -> int:
    """The size of ``path`` if it is a regular file within ``limit`` bytes; UnsafeFile
    otherwise (a folder, a FIFO, a device, a socket, a symlink loop, missing, too big)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise UnsafeFile(NO_SUCH_FILE) from None
    except PermissionError:
        raise UnsafeFile("cannot read the file: permission denied") from None
    except OSError as exc:  # ELOOP (a symlink loop), ENAMETOOLONG, ...
        raise UnsafeFile(f"cannot read the file: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise UnsafeFile("is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a named pipe (FIFO)"
            if stat.S_ISFIFO(info.st_mode)
            else "a device"
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "a socket"
            if stat.S_ISSOCK(info.st_mode)
            else "not a regular file"
        )
        raise UnsafeFile(f"is {kind}, not a regular file: ckdsl reads only regular files")
    if info.st_size > limit:
        raise UnsafeFile(
            f"the file is too large ({info.st_size:,} bytes); the limit is {limit:,} bytes"
        )
    return info.st_size


def read_user_bytes(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; UnsafeFile
    otherwise. Opened without blocking, so a file swapped for a FIFO after the check
    cannot hang the read either."""
    check_regular(path, limit)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except PermissionError:
        raise UnsafeFile("cannot read the file: permission denied") from None
    except OSError as exc:
        raise UnsafeFile(f"cannot read the file: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise UnsafeFile("is not a regular file: ckdsl reads only regular files")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise UnsafeFile(f"the file is too large (over {limit:,} bytes)")
    return data


def yaml_suffix_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a rule, variant or map file by its name (None if it can):
    such files end in .yaml or .yml, so a system file named by mistake, or by a shared
    variant, save or scenario, is never read. The name checked is the file's own, with
    every symbolic link resolved: ``x.yaml`` leading to ``/etc/shadow`` is refused."""
    if path.suffix.lower() not in YAML_SUFFIXES:
        return f"'{path.name}' is not a .yaml or .yml file (rule, variant and map files are YAML)"
    real = real_path(path)
    if real.suffix.lower() not in YAML_SUFFIXES:
        return (
            f"'{path.name}' leads to '{real}', which is not a .yaml or .yml file (rule, "
            "variant and map files are YAML)"
        )
    return None


def real_path(path: Path) -> Path:
    """``path`` with every symbolic link resolved (as far as they lead)."""
    return Path(os.path.realpath(path))


def inside(path: Path, *folders: Path) -> bool:
    """Whether ``path``, its links resolved, is in one of ``folders`` (or below it)."""
    real = real_path(path)
    return any(real.is_relative_to(real_path(folder)) for folder in folders)


MAX_FOLDER_DEPTH = 32
"""How deep under a folder named on the command line YAML files are looked for."""


def yaml_files_under(folder: Path) -> tuple[list[Path], list[Path]]:
    """Every ``*.yaml`` file at most ``MAX_FOLDER_DEPTH`` folders under ``folder``, sorted,
    and the folders left unsearched for being deeper. Walked with a stack of its own (a
    folder nested thousands deep is what it must survive), following no symbolic link to
    a folder (a link to a parent would loop)."""
    found: list[Path] = []
    too_deep: list[Path] = []
    stack = [(folder, 0)]
    while stack:
        here, depth = stack.pop()
        try:
            entries = list(os.scandir(here))
        except OSError:
            continue  # unreadable: nothing found there
        for entry in entries:
            path = Path(entry.path)
            if entry.is_dir(follow_symlinks=False):
                if depth + 1 > MAX_FOLDER_DEPTH:
                    too_deep.append(path)
                else:
                    stack.append((path, depth + 1))
            elif entry.name.endswith(".yaml") and entry.is_file():
                found.append(path)
    return sorted(found), sorted(too_deep)


def read_user_yaml(path: Path, limit: int = MAX_BYTES) -> object:
    """The data of the YAML file ``path`` a user names (a bot's weights, a model): read
    as ``read_user_bytes`` reads, UTF-8, plain YAML; UnsafeFile otherwise, its message
    saying what is wrong (at the line and column of a YAML error), never the content."""
    import yaml

    try:
        text = read_user_bytes(path, limit).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnsafeFile(f"not UTF-8 text ({exc.reason})") from None
    try:  # libyaml's parser where PyYAML has it: several times faster (a learned model)
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        pass  # said below in PyYAML's own words and place, as before
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at {mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "a YAML error"
        raise UnsafeFile(f"not valid YAML{where}: {problem}") from None
