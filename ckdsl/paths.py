"""Where the bundled data lives.

In a wheel, ``rules/`` and ``grammars/`` are installed as ``ckdsl/_data/``; in a source
checkout (and an editable install) they stay at the top of the repository, where
house-rule authors and localizers edit them. Both layouts are looked up here, so the
rest of the package never guesses.
"""

from __future__ import annotations

import os
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
    ``~/.cache/ckdsl``, made if missing. None, and nothing is cached, when
    ``CKDSL_NO_CACHE`` is set or the folder cannot be made or written."""
    if os.environ.get("CKDSL_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "ckdsl"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    return folder
