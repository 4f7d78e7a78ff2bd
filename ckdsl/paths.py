"""Where the bundled data lives.

In a wheel, ``rules/`` and ``grammars/`` are installed as ``ckdsl/_data/``; in a source
checkout (and an editable install) they stay at the top of the repository, where
house-rule authors and localizers edit them. Both layouts are looked up here, so the
rest of the package never guesses.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder holding ``rules/`` and ``grammars/``."""
    installed = _PACKAGE / "_data"
    if (installed / "rules").is_dir():
        return installed
    return _PACKAGE.parent


def rules_dir() -> Path:
    return data_root() / "rules"


def base_rules_dir() -> Path:
    """The bundled Cities & Knights rule set."""
    return rules_dir() / "base"


def locales_dir() -> Path:
    return rules_dir() / "locales"


SCHEMA_KINDS = ("rules", "variant", "locale", "map", "scenario")
"""The kinds of file that have a JSON Schema (``rules/schema/<kind>.schema.json``)."""


def schema_file(kind: str) -> Path:
    return rules_dir() / "schema" / f"{kind}.schema.json"


def grammars_dir() -> Path:
    return data_root() / "grammars"


def package_dir() -> Path:
    """The folder of the ``ckdsl`` package itself (its source files)."""
    return _PACKAGE


def cache_dir() -> Path | None:
    """The folder ckdsl keeps its caches in (the parser Lark builds, the rule sets, maps
    and locales loaded: ``ckdsl.rules.disk``): ``$XDG_CACHE_HOME/ckdsl``, else
    ``~/.cache/ckdsl``, made (private) if missing. None, and nothing is cached, when
    ``CKDSL_NO_CACHE`` is set or the folder cannot be made or written, or cannot be
    trusted: its entries are pickles, which run code when read, so a folder of another
    user's, or one others may write in, is not used (said once, on stderr)."""
    if os.environ.get("CKDSL_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "ckdsl"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return None
    problem = untrusted(info)
    if problem is not None:
        if str(folder) not in _WARNED:
            _WARNED.add(str(folder))
            sys.stderr.write(
                f"ckdsl: not using the cache folder {folder}: {problem}; its entries are code "
                "that runs when read. Nothing is cached (a folder of your own that only you "
                "may write in is used: chmod go-w, or another XDG_CACHE_HOME)\n"
            )
        return None
    if not os.access(folder, os.W_OK):
        return None
    return folder


_WARNED: set[str] = set()


def untrusted(info: os.stat_result) -> str | None:
    """Why a folder or a file of the cache, of this ``stat``, is not to be trusted (None
    if it is: the user's own, and nobody else may write it)."""
    if sys.platform == "win32":  # no owner nor mode bits to read there
        return None
    if info.st_uid != os.getuid():
        return "it belongs to another user"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "others may write in it"
    return None
